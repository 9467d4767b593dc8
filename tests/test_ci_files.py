"""The CI files run what the README promises, and every step they run is valid.

The hosted workflows cannot run here (no runner, no network for actions); this checks what
can be checked offline: every ``apimap`` command line parses with the real argument
parser, every extra a ``pip install`` names exists, every ``make`` target exists, the
local CI entry point runs the README's test command, every environment the Makefile and the
CI jobs make installs from its locks (the recipes and steps parsed), and the weekly job
installs the newest versions the ranges allow instead.
"""

from __future__ import annotations

import re
import shlex
import tomllib
from pathlib import Path
from typing import Any

import yaml

from apimap.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = ROOT / ".github" / "workflows"
WORKFLOW = WORKFLOWS / "ci.yml"
UPCOMING = WORKFLOWS / "upcoming.yml"


def _workflow(path: Path) -> dict[Any, Any]:
    loaded: dict[Any, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return loaded


def _steps(paths: list[Path] | None = None) -> list[str]:
    """The ``run`` scripts of every step of the workflows (all of them by default)."""
    return [
        step["run"]
        for path in paths or sorted(WORKFLOWS.glob("*.yml"))
        for job in _workflow(path)["jobs"].values()
        for step in job["steps"]
        if isinstance(step.get("run"), str)
    ]


def _commands(program: str, paths: list[Path] | None = None) -> list[list[str]]:
    """Every invocation of ``program`` in the workflows' steps, as argument lists."""
    return _invocations(program, _steps(paths))


SHELL_WORDS = {"if", "then", "else", "elif", "do", "while", "until", "!", "{", "}", "time"}
"""Words that may come before a command in a script's line."""


def _invocations(program: str, scripts: list[str]) -> list[list[str]]:
    """Every invocation of ``program`` (by name or path) in ``scripts``, as argument lists:
    each simple command of each line (split at ``;``, ``&&``, ``|`` and the like, after
    ``if``/``then``/``else`` and variable assignments), without its redirections."""
    found = []
    for script in scripts:
        for line in script.replace("\\\n", " ").splitlines():
            lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
            lexer.whitespace_split = True
            commands: list[list[str]] = [[]]
            target = False
            for word in lexer:
                if set(word) <= set("|&;()"):
                    commands.append([])
                elif set(word) <= set("<>"):
                    target = True  # the next word names a file
                    if commands[-1] and commands[-1][-1].isdigit():
                        commands[-1].pop()  # the descriptor of ``2>``
                elif target:
                    target = False
                else:
                    commands[-1].append(word)
            for words in commands:
                while words and (words[0] in SHELL_WORDS or re.match(r"^\w+=", words[0])):
                    words = words[1:]
                named = [index for index, word in enumerate(words) if Path(word).name == program]
                if named:
                    found.append(words[named[0] + 1 :])
    return found


def test_every_apimap_step_parses() -> None:
    commands = _commands("apimap")
    assert {arguments[0] for arguments in commands} >= {"check", "fmt", "schema", "verify", "build"}
    parser = build_parser()
    for arguments in commands:
        parser.parse_args(arguments)  # exits (fails the test) on a wrong option


def _job_commands(job: str, program: str = "apimap") -> list[list[str]]:
    steps = _workflow(WORKFLOW)["jobs"][job]["steps"]
    return _invocations(program, [step["run"] for step in steps if "run" in step])


def test_a_pending_stamp_is_a_notice_on_a_pull_request_and_an_error_on_main() -> None:
    """Lint and the site build take ``--pending-stamps notice`` on a pull request only; the
    verify job verifies and stamps the changed records, and checks as main will."""
    for job, command in (("lint", "check"), ("site", "build")):
        runs = [words for words in _job_commands(job) if words[0] == command]
        modes = [
            words[words.index("--pending-stamps") + 1]
            for words in runs
            if "--pending-stamps" in words
        ]
        assert modes == ["notice"] and len(runs) == 2, job  # the other run is main's, strict
    verify = _job_commands("verify")
    assert ["verify", "--changed-since", "$BASE", "--update", "--matrix"] in verify
    assert ["check", "--format", "github", "--no-cache", "mappings"] in verify
    assert not any("--pending-stamps" in words for words in verify)


def test_every_installed_extra_exists() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = set(project["optional-dependencies"])
    named = {
        extra
        for script in _steps()
        for group in re.findall(r"\.\[([\w,]+)\]", script)
        for extra in group.split(",")
    }
    assert named and named <= extras


def test_the_local_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first_block = readme.split("```sh\n", 1)[1].split("```", 1)[0]
    commands = [line.split("#", 1)[0].strip() for line in first_block.splitlines()]
    assert commands[:2] == ["make main", "make test"]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert ci.rstrip().splitlines()[-1] == "make test"
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    targets = set(re.findall(r"^([\w-]+):", makefile, flags=re.MULTILINE))
    assert {"main", "test", "lint", "pytest", "verify", "matrix"} <= targets


# --- environments install from the locks ---------------------------------------------------

MAKEFILE = ROOT / "Makefile"
LOCKED_INSTALL = "-m pip install -q --require-hashes --no-build-isolation -r"
APIMAP_INSTALL = "-m pip install -q --no-deps --no-build-isolation -e ."


def _make_rules() -> dict[str, tuple[list[str], list[str]]]:
    """Target -> (prerequisites, recipe lines) of the Makefile, variables expanded."""
    variables: dict[str, str] = {}

    def expand(text: str) -> str:
        while (match := re.search(r"\$\((\w+)\)", text)) and match.group(1) in variables:
            text = text[: match.start()] + variables[match.group(1)] + text[match.end() :]
        return text

    rules: dict[str, tuple[list[str], list[str]]] = {}
    current: list[str] | None = None
    for line in MAKEFILE.read_text(encoding="utf-8").splitlines():
        if line.startswith("\t") and current is not None:
            current.append(expand(line.strip()))
        elif assignment := re.match(r"^(\w+)\s*[:?]?=\s*(.*)$", line):
            variables[assignment.group(1)] = expand(assignment.group(2))
            current = None
        elif rule := re.match(r"^([^\s#][^:=]*):(?!=)(.*)$", line):
            current = []
            rules[expand(rule.group(1)).strip()] = (expand(rule.group(2)).split(), current)
        elif not line.strip():
            current = None
    return rules


def _made(rules: dict[str, tuple[list[str], list[str]]], target: str) -> list[str]:
    """The targets making ``target`` in a fresh checkout makes, prerequisites first."""
    prerequisites = rules.get(target, ([], []))[0]
    made = [inner for before in prerequisites for inner in _made(rules, before)]
    return [*dict.fromkeys([*made, target])] if target in rules else made


def _python(venv: str, arguments: str) -> str:
    return f"{venv}/bin/python {arguments}"


ENVIRONMENT_TARGETS = {
    # stamp target -> (venv, the locks it installs, in order, and whether apimap comes before
    # the last lock: the verification layer goes on top of the main environment)
    ".venv/.installed-core": (".venv", ["locks/tools.txt", "locks/main.txt"], False),
    ".venv/.installed-verify": (
        ".venv",
        ["locks/tools.txt", "locks/main.txt", "locks/verify.txt"],
        True,
    ),
    ".venv-vision/.installed": (".venv-vision", ["locks/tools.txt", "locks/vision.txt"], False),
}


def test_every_make_environment_installs_from_its_locks() -> None:
    rules = _make_rules()
    for target, (venv, locks, layered) in ENVIRONMENT_TARGETS.items():
        made = _made(rules, target)
        steps = [
            step for rule in made for step in rules[rule][1] if " pip " in step or " venv " in step
        ]
        installs = [_python(venv, f"{LOCKED_INSTALL} {lock}") for lock in locks]
        apimap = _python(venv, APIMAP_INSTALL)
        expected = [f"python3 -m venv --clear {venv}"]
        expected += [*installs[:-1], apimap, installs[-1]] if layered else [*installs, apimap]
        assert steps == expected, target
        # a lock change remakes the environment: every lock is a prerequisite on the way
        prerequisites = {prerequisite for rule in made for prerequisite in rules[rule][0]}
        assert set(locks) <= prerequisites, target
        if venv == ".venv":  # the verification layer's lock remakes the main environment too
            assert "locks/verify.txt" in rules[".venv/.installed-locked"][0]
        assert "pyproject.toml" in prerequisites
    every_pip = [step for _, recipe in rules.values() for step in recipe if " pip " in step]
    assert every_pip and all(LOCKED_INSTALL in step or APIMAP_INSTALL in step for step in every_pip)


def test_every_ci_job_installs_from_the_locks() -> None:
    rules = _make_rules()
    workflow = _workflow(WORKFLOW)
    header = (ROOT / "locks" / "main.txt").read_text(encoding="utf-8")
    for name, job in workflow["jobs"].items():
        scripts = [step["run"] for step in job["steps"] if isinstance(step.get("run"), str)]
        assert not any("pip install" in script for script in scripts), name
        made = [words[0] for words in _invocations("make", scripts)]
        if not made:  # installs nothing, so runs nothing of the branch: the stamps job
            assert not _invocations("apimap", scripts), name
            assert not any("setup-python" in step.get("uses", "") for step in job["steps"]), name
            continue
        assert made[0] in ENVIRONMENT_TARGETS and set(made) <= set(rules), name
        setup = next(
            step["with"] for step in job["steps"] if "setup-python" in step.get("uses", "")
        )
        assert f"CPython {setup['python-version']} on linux x86_64" in header, name
        assert setup["cache-dependency-path"] == "locks/*.txt", name
        torch = any(ENVIRONMENT_TARGETS[target][1][-1] == "locks/verify.txt" for target in made)
        index = job.get("env", {}).get("PIP_EXTRA_INDEX_URL")
        assert index == ("https://download.pytorch.org/whl/cpu" if torch else None), name


def test_the_weekly_job_installs_the_newest_allowed_versions_and_runs_the_tests() -> None:
    workflow = _workflow(UPCOMING)
    triggers = workflow.get("on", workflow.get(True))  # YAML 1.1 reads a bare `on` as true
    assert re.fullmatch(r"\d+ \d+ \* \* \d", triggers["schedule"][0]["cron"])  # weekly
    pips = [words for words in _commands("pip", [UPCOMING]) if words[0] == "install"]
    cpu = "https://download.pytorch.org/whl/cpu"
    assert ["install", "torch==2.13.0", "--index-url", cpu] in pips
    newest = ["install", "--upgrade", "--upgrade-strategy", "eager"]
    assert [*newest, "-e", ".[dev,site,browser,verify]"] in pips  # what verify.txt locks
    assert not any("--require-hashes" in words for words in pips)
    for tool in ("pytest", "mypy", "ruff"):
        assert _commands(tool, [UPCOMING]), tool
    assert ["doctor"] in _commands("apimap", [UPCOMING])


ON_MAIN = "github.event_name == 'push' && github.ref == 'refs/heads/main'"


def test_main_publishes_the_site_the_checks_passed_for() -> None:
    jobs = _workflow(WORKFLOW)["jobs"]
    deploy = jobs["deploy"]
    assert deploy["if"] == ON_MAIN
    assert set(deploy["needs"]) == {"lint", "test", "verify", "site"}
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert deploy["environment"]["name"] == "github-pages"
    assert [step["uses"] for step in deploy["steps"]] == ["actions/deploy-pages@v4"]
    # the deploy job publishes the artifact of the site job, built by `apimap build`
    site = jobs["site"]["steps"]
    uses = [step.get("uses", "") for step in site]
    runs = [step.get("run", "") for step in site]
    build = next(index for index, run in enumerate(runs) if "apimap build" in run)
    pages = uses.index("actions/upload-pages-artifact@v3")
    artifact = uses.index("actions/upload-artifact@v4")
    assert build < pages and build < artifact
    assert site[pages]["if"] == ON_MAIN
    assert "if" not in site[artifact]  # pull requests get the built site as an artifact
    from apimap.publish.site.build import SiteLayout

    built = SiteLayout.of(Path(".")).html.as_posix()
    assert site[pages]["with"]["path"] == site[artifact]["with"]["path"] == built


def test_the_published_site_knows_its_address_and_repository_from_the_context() -> None:
    jobs = _workflow(WORKFLOW)["jobs"]
    steps = jobs["site"]["steps"]
    configure = next(step for step in steps if step.get("uses") == "actions/configure-pages@v5")
    build = next(step for step in steps if "apimap build" in step.get("run", ""))
    assert configure["if"] == ON_MAIN
    site_env = {k: v for k, v in build["env"].items() if k != "EVENT"}  # EVENT: pending stamps
    assert site_env == {
        "APIMAP_SITE_URL": "${{ steps." + configure["id"] + ".outputs.base_url }}",
        "APIMAP_REPO_URL": "${{ github.server_url }}/${{ github.repository }}",
    }
    from apimap.publish.site.site import REPO_URL_VARIABLE, SITE_URL_VARIABLE

    assert set(site_env) == {SITE_URL_VARIABLE, REPO_URL_VARIABLE}
    assert _workflow(WORKFLOW)["permissions"] == {
        "contents": "read"
    }  # write only where it is needed
    assert jobs["site"]["permissions"] == {"contents": "read", "pages": "read"}


def test_the_issue_forms_the_site_links_to_exist() -> None:
    from apimap.publish.site.site import REQUEST_TEMPLATE
    from apimap.publish.site.views import ISSUE_TEMPLATE

    forms = ROOT / ".github" / "ISSUE_TEMPLATE"
    for name, field in ((ISSUE_TEMPLATE, "api"), (REQUEST_TEMPLATE, "api")):
        form = yaml.safe_load((forms / name).read_text(encoding="utf-8"))
        assert field in [item.get("id") for item in form["body"]], name

"""The CI files run what the README promises, and every step they run is valid.

The hosted workflow cannot run here (no runner, no network for actions); this checks what
can be checked offline: every ``apimap`` command line parses with the real argument
parser, every extra a ``pip install`` names exists, every ``make`` target exists, and the
local CI entry point runs the README's test command.
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
WORKFLOW = ROOT / ".github" / "workflows" / "ci.yml"


def _steps() -> list[str]:
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    return [
        step["run"]
        for job in workflow["jobs"].values()
        for step in job["steps"]
        if isinstance(step.get("run"), str)
    ]


def _commands(program: str) -> list[list[str]]:
    """Every invocation of ``program`` in the workflow's steps, as argument lists."""
    found = []
    for script in _steps():
        for line in script.replace("\\\n", " ").splitlines():
            lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
            lexer.whitespace_split = True
            words = []
            for word in lexer:  # up to the first redirection or pipe
                if set(word) <= set("|<>&;"):
                    break
                words.append(word)
            if program in words:
                found.append(words[words.index(program) + 1 :])
    return found


def test_every_apimap_step_parses() -> None:
    commands = _commands("apimap")
    assert {arguments[0] for arguments in commands} >= {"check", "fmt", "schema", "verify", "build"}
    parser = build_parser()
    for arguments in commands:
        parser.parse_args(arguments)  # exits (fails the test) on a wrong option


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


def _workflow() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    return data


ON_MAIN = "github.event_name == 'push' && github.ref == 'refs/heads/main'"


def test_main_publishes_the_site_the_checks_passed_for() -> None:
    jobs = _workflow()["jobs"]
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
    build = runs.index("apimap build")
    pages = uses.index("actions/upload-pages-artifact@v3")
    artifact = uses.index("actions/upload-artifact@v4")
    assert build < pages and build < artifact
    assert site[pages]["if"] == ON_MAIN
    assert "if" not in site[artifact]  # pull requests get the built site as an artifact
    from apimap.publish.site.build import SiteLayout

    built = SiteLayout.of(Path(".")).html.as_posix()
    assert site[pages]["with"]["path"] == site[artifact]["with"]["path"] == built


def test_the_published_site_knows_its_address_and_repository_from_the_context() -> None:
    jobs = _workflow()["jobs"]
    steps = jobs["site"]["steps"]
    configure = next(step for step in steps if step.get("uses") == "actions/configure-pages@v5")
    build = next(step for step in steps if step.get("run") == "apimap build")
    assert configure["if"] == ON_MAIN
    assert build["env"] == {
        "APIMAP_SITE_URL": "${{ steps." + configure["id"] + ".outputs.base_url }}",
        "APIMAP_REPO_URL": "${{ github.server_url }}/${{ github.repository }}",
    }
    from apimap.publish.site.site import REPO_URL_VARIABLE, SITE_URL_VARIABLE

    assert set(build["env"]) == {SITE_URL_VARIABLE, REPO_URL_VARIABLE}
    assert _workflow()["permissions"] == {"contents": "read"}  # write only where it is needed
    assert jobs["site"]["permissions"] == {"contents": "read", "pages": "read"}


def test_the_issue_forms_the_site_links_to_exist() -> None:
    from apimap.publish.site.site import REQUEST_TEMPLATE
    from apimap.publish.site.views import ISSUE_TEMPLATE

    forms = ROOT / ".github" / "ISSUE_TEMPLATE"
    for name, field in ((ISSUE_TEMPLATE, "api"), (REQUEST_TEMPLATE, "api")):
        form = yaml.safe_load((forms / name).read_text(encoding="utf-8"))
        assert field in [item.get("id") for item in form["body"]], name

"""The pull-request path of .github/workflows/ci.yml, end to end and offline.

A contributor edits a fact of a record in the browser and cannot verify it: the branch carries
the record's old stamp. The workflow's own steps, run by :class:`actions.Runner` on temporary
repositories, must then pass lint with a notice; verify the changed record and publish its new
stamp as a patch in the run summary and as an artifact; leave a branch that, patched, passes
``apimap check`` as main runs it; and, where the repository allows it, commit the stamp to the
branch. A branch whose edit is wrong fails the verify step with the diagnostic at its line.

The ``apimap`` the steps run is the real command line with two stand-ins: the pinned paddle
plays the older releases of ``--matrix`` (as tests/verify/test_matrix.py does), and each side
gets one worker (the machine's cores are shared).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from actions import JobResult, Runner
from workflow_helpers import GIT_ENV, write

ROOT = Path(__file__).resolve().parents[2]
WORKFLOW = ROOT / ".github" / "workflows" / "ci.yml"
RECORD_PATH = "mappings/torch/torch.pi.yaml"
STAMP_PATH = "stamps/torch/torch.pi.json"
RECORD = """\
# yaml-language-server: $schema=../../schema/mapping.schema.json
torch_api: torch.pi
api_type: constant
zh_name: 圆周率常量
paddle_api: paddle.pi
category: no_params
calls:
  - torch: v = torch.pi
"""
FIXED = RECORD.replace("v = torch.pi", "v = torch.pi / 2")
"""A fact edited (the call's code), rightly: paddle.pi / 2 gives the same."""
WRONG = RECORD.replace("paddle_api: paddle.pi", "paddle_api: paddle.e")
"""A fact edited wrongly: paddle.e is another number."""

APIMAP = f"""#!{sys.executable}
import sys

if sys.argv[1:2] == ["verify"]:
    from apimap.record.pins import PADDLE_VERSION
    from apimap.verify import run
    from apimap.verify.environments import Environment

    run.older_releases = lambda: ["9.0.0"]
    run.create_release_environment = lambda version, root=None: Environment(
        f"paddle=={{version}}", sys.executable, "paddle", {{"paddle": PADDLE_VERSION}}, ""
    )
    run.default_workers = lambda: 1

from apimap.cli import main

sys.exit(main())
"""
"""``apimap`` as the steps find it on ``PATH``."""

LEFT_OUT = ("apimap schema --check", "ruff", "mypy")
"""Lint steps about code, which the temporary repository does not have."""
INSTALLS = [
    "actions/setup-python@v5",
    "sudo apt-get update -qq && sudo apt-get install -y -qq bubblewrap",
    "Install from the locks (the environment of make test)",
]
"""The verify job's installation steps: the interpreter running the tests has what they install."""


def _environment(shim: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "RUNNER_"))}
    env.update({k: v for k, v in GIT_ENV.items() if k.startswith("GIT_CONFIG")})  # no identity
    env["PATH"] = os.pathsep.join([str(shim), str(Path(sys.executable).parent), env["PATH"]])
    return env


def _git(cwd: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", *args],
        cwd=cwd,
        env={**os.environ, **GIT_ENV},
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def _apimap(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")}
    return subprocess.run(
        [sys.executable, "-m", "apimap", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A bare repository whose main holds the record and the stamp apimap verify wrote for it."""
    root = tmp_path_factory.mktemp("seeded")
    seed = root / "seed"
    write(seed, RECORD_PATH, RECORD)
    shutil.copy(ROOT / ".gitignore", seed / ".gitignore")  # keeps .apimap_cache/ out
    done = _apimap(seed, "verify", "--update", "--jobs", "1", "mappings")
    assert done.returncode == 0, done.stdout + done.stderr
    assert (seed / STAMP_PATH).is_file()
    _git(seed, "init", "-q", "-b", "main")
    _git(seed, "add", "-A")
    _git(seed, "commit", "-q", "-m", "torch.pi, verified")
    _git(root, "clone", "-q", "--bare", str(seed), "origin.git")
    return root / "origin.git"


def _branch(tmp_path: Path, seeded: Path, name: str, text: str) -> tuple[Path, str, str]:
    """The origin with a branch ``name`` that changes the record to ``text`` and leaves its
    stamp alone (as an edit in the browser does): (origin, base sha, head sha)."""
    origin = tmp_path / "origin.git"
    shutil.copytree(seeded, origin)
    browser = tmp_path / "browser"
    _git(tmp_path, "clone", "-q", str(origin), str(browser))
    base = _git(browser, "rev-parse", "HEAD")
    _git(browser, "switch", "-q", "-c", name)
    write(browser, RECORD_PATH, text)
    _git(browser, "commit", "-q", "-am", "Edit torch.pi in the browser")
    _git(browser, "push", "-q", "origin", name)
    return origin, base, _git(browser, "rev-parse", "HEAD")


def _github(event: str, sha: str, pull_request: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "event_name": event,
        "sha": sha,
        "repository": "example/apimap",
        "run_id": "42",
        "server_url": "https://github.com",
        "token": "the workflow's token",
        "event": {"pull_request": pull_request} if pull_request else {},
    }


def _pull_request(base: str, head: str, branch: str, repository: str = "example/apimap") -> Any:
    pull_request = {
        "base": {"sha": base},
        "head": {"sha": head, "ref": branch, "repo": {"full_name": repository}},
    }
    return _github("pull_request", head, pull_request)


def _runner(work: Path, origin: Path, github: dict[str, Any], push: bool = True) -> Runner:
    shim = work / "bin"
    write(shim, "apimap", APIMAP).chmod(0o755)
    variables = {"APIMAP_PUSH_STAMPS": "true"} if push else {}
    context = {"github": github, "vars": variables, "secrets": {}}
    return Runner(WORKFLOW, origin, work, context, _environment(shim), LEFT_OUT)


def _failures(job: JobResult) -> str:
    return "\n".join(f"{s.name}: {s.output}" for s in job.steps if s.status == "failure")


def _patch_block(summary: str) -> str:
    """The ready-to-apply block of the run summary."""
    start = summary.index("~~~~~~~~sh\n") + len("~~~~~~~~sh\n")
    return summary[start : summary.index("\n~~~~~~~~\n", start)]


def _main_check(job: JobResult) -> str:
    """The lint job's record check as it ran on main: passing, without a notice."""
    check = job.step("apimap check")
    assert check.status == "success", check.output
    assert "(checked 1 files: 0 errors, 0 warnings)" in check.output
    assert "::notice" not in check.output
    return check.output


def test_a_fact_edited_in_the_browser_gets_its_stamp_from_ci(tmp_path: Path, seeded: Path) -> None:
    origin, base, head = _branch(tmp_path, seeded, "pi-half", FIXED)
    runner = _runner(tmp_path / "run", origin, _pull_request(base, head, "pi-half"))

    lint = runner.run("lint")
    assert lint is not None and lint.ok, _failures(lint) if lint else None
    assert lint.ran("left out") == [
        "apimap schema --check (editor schema is current)",
        "ruff",
        "mypy",
    ]
    check = lint.step("apimap check").output
    assert "::notice file=mappings/torch/torch.pi.yaml,line=2,col=12,title=AM701::" in check
    assert "已过期" in check and "%0A待验证" in check
    assert "(checked 1 files: 0 errors, 0 warnings, 1 notices)" in check

    verify = runner.run("verify")
    assert verify is not None and verify.ok, _failures(verify) if verify else None
    assert verify.ran("installs") == INSTALLS
    assert verify.ran("skipped") == ["torchvision environment (torch 2.14.1 + torchvision 0.29.1)"]
    assert "自 " + base + " 以来改动的记录 1 条" in verify.step("apimap verify").output
    assert (
        "已写入验证标记 (stamped) mappings/torch/torch.pi.yaml"
        in verify.step("apimap verify").output
    )
    assert verify.outputs == {"patch": "true"}
    assert "::notice title=Stamps::" in verify.step("The new stamps").output
    artifact = runner.artifacts / "stamps"
    patch = (artifact / "stamps.patch").read_text(encoding="utf-8")
    assert patch.startswith(f"diff --git a/{STAMP_PATH} b/{STAMP_PATH}\n")
    assert (artifact / STAMP_PATH).read_bytes() == (verify.folder / STAMP_PATH).read_bytes()
    assert verify.step("apimap check as main will").status == "success"

    # The summary's block, pasted into a terminal on the branch, is all a person needs.
    person = tmp_path / "person"
    _git(tmp_path, "clone", "-q", "--branch", "pi-half", str(origin), str(person))
    subprocess.run(
        ["bash", "-eo", "pipefail", "-c", _patch_block(verify.summary)], cwd=person, check=True
    )
    assert _git(person, "status", "--porcelain") == f"M {STAMP_PATH}"
    checked = _apimap(person, "check", "--no-cache", "mappings")  # as main checks it
    assert checked.returncode == 0, checked.stdout
    assert checked.stdout.endswith("(checked 1 files: 0 errors, 0 warnings)\n")

    # The option: CI commits the stamp to the branch, and main's lint passes on that commit.
    assert (
        _runner(tmp_path / "off", origin, runner.context["github"], push=False).run(
            "stamps", {"verify": verify}
        )
        is None
    )
    fork = _pull_request(base, head, "pi-half", repository="someone/apimap")
    assert _runner(tmp_path / "fork", origin, fork).run("stamps", {"verify": verify}) is None
    pushed = runner.run("stamps", {"verify": verify})
    assert pushed is not None and pushed.ok, _failures(pushed) if pushed else None
    commit = _git(origin, "rev-parse", "pi-half")
    assert _git(origin, "rev-parse", f"{commit}^") == head
    assert _git(origin, "diff", "--name-only", head, commit) == STAMP_PATH
    assert _git(origin, "log", "-1", "--format=%an: %s", commit) == (
        "github-actions[bot]: Verification stamps from CI"
    )
    after = _runner(tmp_path / "main", origin, _github("push", commit))
    main_lint = after.run("lint")
    assert main_lint is not None and main_lint.ok, _failures(main_lint) if main_lint else None
    _main_check(main_lint)

    # On main the same edit without its stamp is an error, not a notice.
    unstamped = _runner(tmp_path / "main-unstamped", origin, _github("push", head)).run("lint")
    assert unstamped is not None and not unstamped.ok
    check = unstamped.step("apimap check")
    assert check.status == "failure"
    assert "::error file=mappings/torch/torch.pi.yaml,line=2,col=12,title=AM701::" in check.output
    assert "(checked 1 files: 1 errors, 0 warnings)" in check.output


def test_a_wrong_edit_fails_the_verify_step_at_its_line(tmp_path: Path, seeded: Path) -> None:
    origin, base, head = _branch(tmp_path, seeded, "pi-is-e", WRONG)
    runner = _runner(tmp_path / "run", origin, _pull_request(base, head, "pi-is-e"))
    lint = runner.run("lint")
    assert lint is not None and lint.ok  # lint cannot know: the stamp is pending
    verify = runner.run("verify")
    assert verify is not None and not verify.ok
    step = verify.step("apimap verify")
    assert step.status == "failure"
    assert "::error file=mappings/torch/torch.pi.yaml,line=8,col=5,title=AM811::" in step.output
    assert verify.ran("skipped")[1:] == [
        "The new stamps as a patch (run summary) and files (artifact stamps)",
        "actions/upload-artifact@v4",
        "apimap check as main will (every stamp current once the patch is applied)",
    ]
    assert verify.outputs == {"patch": ""} and not (runner.artifacts / "stamps").exists()
    assert runner.run("stamps", {"verify": verify}) is None

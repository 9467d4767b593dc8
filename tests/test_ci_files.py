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

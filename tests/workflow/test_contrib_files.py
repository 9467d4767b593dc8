"""The documented commands and the editor and CI files stay in step with the CLI."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
import yaml

from apimap.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]


def _apimap_lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip().startswith("apimap ")]


def _documented_commands() -> list[str]:
    text = (ROOT / "CONTRIBUTING.md").read_text("utf-8")
    blocks = re.findall(r"```sh\n(.*?)```", text, re.S)
    return [line for block in blocks for line in _apimap_lines(block)]


def _workflow() -> dict[str, object]:
    loaded = yaml.safe_load((ROOT / ".github" / "workflows" / "ci.yml").read_text("utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def _workflow_commands() -> list[str]:
    jobs = _workflow()["jobs"]
    assert isinstance(jobs, dict)
    runs = [step["run"] for job in jobs.values() for step in job["steps"] if "run" in step]
    return [line for run in runs for line in _apimap_lines(run)]


def _arguments(command: str) -> list[str]:
    words = shlex.split(command.replace("$BASE", "main"), comments=True)
    return words[1 : words.index(">")] if ">" in words else words[1:]


@pytest.mark.parametrize("command", _documented_commands() + _workflow_commands())
def test_documented_command_parses(command: str) -> None:
    build_parser().parse_args(_arguments(command))


def test_workflow_runs_the_contributor_commands() -> None:
    subcommands = {shlex.split(command)[1] for command in _workflow_commands()}
    assert {"check", "fmt", "schema", "build", "diff"} <= subcommands


def test_lint_annotates_and_site_is_uploaded() -> None:
    jobs = _workflow()["jobs"]
    assert isinstance(jobs, dict)
    lint_runs = " ".join(step.get("run", "") for step in jobs["lint"]["steps"])
    assert "apimap check --format github" in lint_runs
    site_steps = jobs["site"]["steps"]
    uploads = [
        s for s in site_steps if str(s.get("uses", "")).startswith("actions/upload-artifact")
    ]
    assert uploads and uploads[0]["with"]["path"] == "site/_build/html"


def test_editor_schema_association_points_at_the_schema() -> None:
    settings = json.loads((ROOT / ".vscode" / "settings.json").read_text("utf-8"))
    schemas = settings["yaml.schemas"]
    assert schemas == {"./schema/mapping.schema.json": ["mappings/**/*.yaml"]}
    assert (ROOT / "schema" / "mapping.schema.json").is_file()
    assert settings["yaml.format.enable"] is False  # apimap fmt is the only formatter

"""The expression evaluator of the offline Actions runner follows GitHub's rules: a wrong
runner would let the pull-request test pass on conditions GitHub reads otherwise."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from actions import Expression, Runner, _lookup
from workflow_helpers import GIT_ENV, write

CONTEXT: dict[str, Any] = {
    "github": {"event_name": "pull_request", "sha": "abc", "event": {}},
    "vars": {"APIMAP_PUSH_STAMPS": "true"},
    "steps": {"stamps": {"outputs": {"patch": "true"}}},
}


def _value(text: str, failed: bool = False) -> Any:
    status = {"success()": not failed, "failure()": failed, "cancelled()": False, "always()": True}
    return Expression(text, lambda path: _lookup(CONTEXT, path), status).value()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("github.event_name == 'pull_request'", True),
        ("github.event_name == 'PULL_REQUEST'", True),  # GitHub compares strings ignoring case
        ("github.event_name != 'pull_request'", False),
        ("github.event.pull_request.head.sha || github.sha", "abc"),  # a missing property: null
        ("github.event.pull_request.base.sha", None),
        ("steps.stamps.outputs.patch == 'true' && vars.APIMAP_PUSH_STAMPS == 'true'", True),
        ("steps.other.outputs.patch == 'true'", False),
        ("!cancelled()", True),
        ("success() && (github.event_name == 'push' || vars.APIMAP_PUSH_STAMPS == 'true')", True),
        ("'it''s'", "it's"),
    ],
)
def test_expressions_read_as_on_github(text: str, expected: Any) -> None:
    assert _value(text) == expected


def test_status_functions_follow_a_failed_step() -> None:
    assert _value("success() && github.event_name == 'pull_request'", failed=True) is False
    assert _value("!cancelled()", failed=True) is True
    assert _value("failure()", failed=True) is True


def test_a_context_the_test_did_not_give_is_an_error_not_null() -> None:
    with pytest.raises(KeyError, match=r"matrix\.python"):
        _value("matrix.python == '3.11'")
    with pytest.raises(ValueError, match="cannot read"):
        _value("github.sha == 3 + 4")


WORKFLOW = """\
jobs:
  build:
    steps:
      - uses: actions/checkout@v4
      - id: out
        run: echo "word=$WORD" >> "$GITHUB_OUTPUT"; test "$WORD" = fine
        env:
          WORD: ${{ vars.WORD }}
    outputs:
      word: ${{ steps.out.outputs.word }}
  publish:
    needs: build
    if: needs.build.outputs.word != ''
    steps:
      - uses: actions/checkout@v4
      - run: echo "published ${{ needs.build.outputs.word }}" >> "$GITHUB_STEP_SUMMARY"
  report:
    needs: build
    if: failure()
    steps:
      - uses: actions/checkout@v4
      - run: echo reported
"""


def test_a_job_runs_only_when_the_jobs_it_needs_succeeded(tmp_path: Path) -> None:
    origin = tmp_path / "origin"
    write(origin, "README.md", "a repository\n")
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "base"]):
        subprocess.run(["git", *args], cwd=origin, env={**os.environ, **GIT_ENV}, check=True)
    workflow = write(tmp_path, "ci.yml", WORKFLOW)
    github = {"event_name": "push", "sha": "main", "repository": "a/b", "run_id": "1"}
    github["server_url"] = "https://github.com"
    results = {}
    for word in ("fine", "broken"):
        context = {"github": github, "vars": {"WORD": word}}
        runner = Runner(workflow, origin, tmp_path / word, context, dict(os.environ))
        build = runner.run("build")
        assert build is not None and build.outputs == {"word": word}
        results[word] = (build.ok, runner.run("publish", {"build": build}))
        results[word] += (runner.run("report", {"build": build}),)
    ok, published, reported = results["fine"]
    assert ok and reported is None
    assert published is not None and published.summary == "published fine\n"
    ok, published, reported = results["broken"]
    assert not ok and published is None  # the output is set, but the job it needs failed
    assert reported is not None and reported.ok
    assert reported.steps[-1].output == "reported\n"

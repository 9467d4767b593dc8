"""Run the jobs of a GitHub Actions workflow offline, on local repositories, as far as a test can.

The hosted workflow cannot run here, but its steps are shell scripts. This runner does for
them what GitHub Actions does: it evaluates ``${{ }}`` expressions and ``if:`` conditions over
a context the test gives (the event, ``vars``, ``secrets``, ``steps`` and ``needs`` outputs,
``success()`` and the other status functions), runs each ``run:`` script with
``bash -eo pipefail`` and the workflow's, job's and step's ``env``, reads step outputs from
``$GITHUB_OUTPUT`` and collects ``$GITHUB_STEP_SUMMARY``; a job whose needed jobs failed
does not run unless its ``if:`` asks for it. The actions the jobs use are played:
``checkout`` clones the origin repository and checks out the ref, ``upload-artifact`` and
``download-artifact`` copy a folder. Steps that install environments (``make``, ``apt-get``,
``setup-python``) are skipped: the interpreter running the tests has them. Steps a test names
in ``leave_out`` (linting code the temporary repository does not have) are skipped and listed.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

EXPRESSION = re.compile(r"\$\{\{(.*?)\}\}", re.DOTALL)
TOKEN = re.compile(
    r"\s*(?:(?P<string>'(?:[^']|'')*')|(?P<op>==|!=|&&|\|\||!|\(|\))"
    r"|(?P<call>[a-z]+)\(\)|(?P<name>[A-Za-z_][\w.-]*))"
)
STATUS_FUNCTIONS = ("success()", "failure()", "cancelled()", "always()")


class Expression:
    """A parsed ``${{ }}`` expression: literals, context paths, ``== != ! && ||``, parentheses
    and the status functions, with GitHub's rules (``a || b`` is the first truthy value)."""

    def __init__(self, text: str, lookup: Callable[[str], Any], status: dict[str, bool]) -> None:
        self.tokens = list(self._tokens(text))
        self.position = 0
        self.lookup = lookup
        self.status = status

    @staticmethod
    def _tokens(text: str) -> Iterator[tuple[str, str]]:
        position = 0
        while position < len(text.rstrip()):
            match = TOKEN.match(text, position)
            if match is None or match.end() == position:
                raise ValueError(f"cannot read the expression {text!r} at {position}")
            kind = match.lastgroup
            assert kind is not None
            yield kind, match.group(kind)
            position = match.end()

    def value(self) -> Any:
        result = self._or()
        if self.position != len(self.tokens):
            raise ValueError(f"unexpected {self.tokens[self.position]}")
        return result

    def _peek(self) -> tuple[str, str] | None:
        return self.tokens[self.position] if self.position < len(self.tokens) else None

    def _take(self, op: str) -> bool:
        if self._peek() == ("op", op):
            self.position += 1
            return True
        return False

    def _or(self) -> Any:
        left = self._and()
        while self._take("||"):
            right = self._and()
            left = left or right
        return left

    def _and(self) -> Any:
        left = self._compare()
        while self._take("&&"):
            right = self._compare()
            left = left and right
        return left

    def _compare(self) -> Any:
        left = self._unary()
        for op in ("==", "!="):
            if self._take(op):
                right = self._unary()
                same = _text(left).lower() == _text(right).lower()  # GitHub ignores case
                return same if op == "==" else not same
        return left

    def _unary(self) -> Any:
        if self._take("!"):
            return not self._unary()
        if self._take("("):
            inner = self._or()
            if not self._take(")"):
                raise ValueError("missing )")
            return inner
        kind, text = self.tokens[self.position]
        self.position += 1
        if kind == "string":
            return text[1:-1].replace("''", "'")
        if kind == "call":
            return self.status[text + "()"]
        if kind == "name":
            return self.lookup(text)
        raise ValueError(f"unexpected {text!r}")


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@dataclass
class StepResult:
    """What one step did."""

    name: str
    status: str
    """``success``, ``failure``, ``skipped`` (its condition was false), ``installs`` (an
    installation step) or ``left out`` (named by the test)."""
    output: str = ""
    outputs: dict[str, str] = field(default_factory=dict)


@dataclass
class JobResult:
    """What one job did: its steps, its outputs and its run summary."""

    steps: list[StepResult]
    outputs: dict[str, str]
    summary: str
    folder: Path

    @property
    def ok(self) -> bool:
        return all(step.status != "failure" for step in self.steps)

    def step(self, start: str) -> StepResult:
        """The step whose name starts with ``start``."""
        return next(step for step in self.steps if step.name.startswith(start))

    def ran(self, status: str) -> list[str]:
        """The names of the steps that ended with ``status``."""
        return [step.name for step in self.steps if step.status == status]


@dataclass
class Runner:
    """Runs the jobs of ``workflow`` for one event against the repository ``origin``."""

    workflow: Path
    origin: Path
    work: Path
    """Where each job gets its checkout, temporary folder and the artifacts."""
    context: dict[str, Any]
    """``github``, ``vars``, ``secrets``: what the expressions read."""
    environment: dict[str, str]
    """The process environment of every step (``PATH`` with the test's ``apimap``, git's
    isolation); the runner adds the ``GITHUB_*`` variables."""
    leave_out: tuple[str, ...] = ()
    """Name prefixes of steps the test does not run (linting code the repository lacks)."""

    def __post_init__(self) -> None:
        self.document = yaml.safe_load(self.workflow.read_text(encoding="utf-8"))
        self.artifacts = self.work / "artifacts"

    def run(self, job: str, needs: dict[str, JobResult] | None = None) -> JobResult | None:
        """Run ``job`` (``None`` when its ``if:`` is false)."""
        spec = self.document["jobs"][job]
        folder = self.work / job
        temp = folder / "temp"
        temp.mkdir(parents=True)
        context: dict[str, Any] = {
            **self.context,
            "runner": {"temp": str(temp)},
            "needs": {name: {"outputs": r.outputs} for name, r in (needs or {}).items()},
            "steps": {},
        }
        needed_ok = all(result.ok for result in (needs or {}).values())
        status = {
            "success()": needed_ok,  # a job's success() is that of the jobs it needs
            "failure()": not needed_ok,
            "cancelled()": False,
            "always()": True,
        }
        if not self._condition(spec.get("if", "success()"), context, status):
            return None
        status = {"success()": True, "failure()": False, "cancelled()": False, "always()": True}
        env = {**self._evaluated(self.document.get("env", {}), context)}
        env.update(self._evaluated(spec.get("env", {}), context))
        checkout = folder / "checkout"
        results: list[StepResult] = []
        summary = ""
        for index, step in enumerate(spec["steps"]):
            name = step.get("name") or step.get("uses") or step["run"].splitlines()[0]
            if not self._condition(step.get("if", "success()"), context, status):
                results.append(StepResult(name, "skipped"))
                continue
            if name.startswith(self.leave_out):
                results.append(StepResult(name, "left out"))
                continue
            if "uses" in step:
                result = self._action(step, name, context, checkout)
            elif _installs(step["run"]):
                result = StepResult(name, "installs")
            else:
                files = {key: temp / f"{key}-{index}" for key in ("output", "summary", "path")}
                for file in files.values():
                    file.write_text("", encoding="utf-8")
                step_env = {**env, **self._evaluated(step.get("env", {}), context)}
                result = self._script(name, step["run"], checkout, step_env, files, context)
                summary += files["summary"].read_text(encoding="utf-8")
            results.append(result)
            if "id" in step:
                context["steps"][step["id"]] = {"outputs": result.outputs}
            if result.status == "failure":
                status.update({"success()": False, "failure()": True})
        outputs = self._evaluated(spec.get("outputs", {}), context)
        return JobResult(results, outputs, summary, checkout)

    def _condition(self, text: str, context: dict[str, Any], status: dict[str, bool]) -> bool:
        text = text.strip()
        if text.startswith("${{") and text.endswith("}}"):
            text = text[3:-2]
        if not any(function in text for function in STATUS_FUNCTIONS):
            text = f"success() && ({text})"
        return bool(Expression(text, lambda path: _lookup(context, path), status).value())

    def _evaluated(self, values: dict[str, Any], context: dict[str, Any]) -> dict[str, str]:
        return {key: self._substitute(str(value), context) for key, value in values.items()}

    def _substitute(self, text: str, context: dict[str, Any]) -> str:
        status = dict.fromkeys(STATUS_FUNCTIONS, True)

        def one(match: re.Match[str]) -> str:
            found = Expression(match.group(1), lambda path: _lookup(context, path), status)
            return _text(found.value())

        return EXPRESSION.sub(one, text)

    def _action(
        self, step: dict[str, Any], name: str, context: dict[str, Any], checkout: Path
    ) -> StepResult:
        action = step["uses"].split("@", 1)[0]
        given = self._evaluated(step.get("with", {}), context)
        if action == "actions/setup-python":
            return StepResult(name, "installs")
        if action == "actions/checkout":
            ref = given.get("ref") or _text(_lookup(context, "github.sha"))
            _git(self.work, "clone", "-q", str(self.origin), str(checkout))
            _git(checkout, "checkout", "-q", "--detach", ref)
            return StepResult(name, "success")
        if action == "actions/upload-artifact":
            source = checkout / given["path"]
            if not source.exists():
                return StepResult(name, "failure", f"no files at {given['path']}")
            shutil.copytree(source, self.artifacts / given["name"])
            return StepResult(name, "success")
        if action == "actions/download-artifact":
            shutil.copytree(self.artifacts / given["name"], checkout / given["path"])
            return StepResult(name, "success")
        raise ValueError(f"the runner does not know the action {action}")

    def _script(
        self,
        name: str,
        script: str,
        checkout: Path,
        env: dict[str, str],
        files: dict[str, Path],
        context: dict[str, Any],
    ) -> StepResult:
        github = context["github"]
        variables = {
            **self.environment,
            **env,
            "GITHUB_ACTIONS": "true",
            "GITHUB_EVENT_NAME": github["event_name"],
            "GITHUB_REPOSITORY": github["repository"],
            "GITHUB_RUN_ID": github["run_id"],
            "GITHUB_SERVER_URL": github["server_url"],
            "GITHUB_OUTPUT": str(files["output"]),
            "GITHUB_STEP_SUMMARY": str(files["summary"]),
            "GITHUB_PATH": str(files["path"]),
            "RUNNER_TEMP": context["runner"]["temp"],
        }
        script_file = files["output"].with_name(files["output"].name + ".sh")
        script_file.write_text(self._substitute(script, context), encoding="utf-8")
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script_file)],
            cwd=checkout,
            env=variables,
            capture_output=True,
            text=True,
            check=False,
        )
        outputs = {}
        for line in files["output"].read_text(encoding="utf-8").splitlines():
            key, separator, value = line.partition("=")
            if not separator:
                raise ValueError(f"the runner reads only name=value outputs: {line!r}")
            outputs[key] = value
        status = "success" if done.returncode == 0 else "failure"
        return StepResult(name, status, done.stdout + done.stderr, outputs)


def _installs(script: str) -> bool:
    """Whether a step installs an environment (``make`` a stamp target, ``apt-get``)."""
    return any(re.match(r"(sudo |make )", line.strip()) for line in script.splitlines())


def _lookup(context: dict[str, Any], path: str) -> Any:
    """A context value; as on GitHub a missing property is ``null``, but a context the test
    did not give (``matrix``, ``inputs``) is a mistake."""
    if path.split(".", 1)[0] not in context:
        raise KeyError(f"the runner has no context for {path}")
    value: Any = context
    for part in path.split("."):
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return value


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)

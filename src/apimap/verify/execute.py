"""Example job: run both snippets on shared inputs and compare the named results.

The inputs are NumPy expressions evaluated once, with ``np`` available and the
NumPy seed fixed. Each array becomes ``torch.from_numpy`` on the torch side and
``paddle.to_tensor`` on the paddle side (same dtype); other values are passed
as they are. Before each snippet the seeds (``random``, NumPy, the library's
own) are fixed again, the default dtype is ``float32`` and gradients are on.
"""

from __future__ import annotations

import random
import traceback
from typing import Any

from apimap.rules import stamp as codes
from apimap.verify.libraries import Libraries
from apimap.verify.protocol import Issue
from apimap.verify.snippets import default_outputs
from apimap.verify.values import DEFAULT_ATOL, DEFAULT_RTOL, Tolerance, comparable, compare

SEED = 0
MAX_ERROR_CHARS = 300


def run_case(job: dict[str, Any], libs: Libraries) -> list[Issue]:
    """Every problem of one case: errors while running, or differing results."""
    inputs: dict[str, str] = job["inputs"]
    values, issues = _evaluate_inputs(inputs, libs)
    if issues:
        return issues
    namespaces: dict[str, dict[str, Any]] = {}
    for side in ("torch", "paddle"):
        namespace, issue = _run_side(side, job[side], values, libs)
        namespaces[side] = namespace
        if issue is not None:
            issues.append(issue)
    if issues:
        return issues
    explicit: list[str] | None = job["outputs"]
    names = (
        explicit
        if explicit is not None
        else default_outputs(job["torch"], job["paddle"], list(inputs))
    )
    tolerance = Tolerance(
        DEFAULT_RTOL if job["rtol"] is None else float(job["rtol"]),
        DEFAULT_ATOL if job["atol"] is None else float(job["atol"]),
        values=job["no_value_compare"] is None,
    )
    compared = 0
    for index, name in enumerate(names):
        where = ("outputs", index) if explicit is not None else ()
        missing = [side for side, namespace in namespaces.items() if name not in namespace]
        if missing:
            issues.append(
                Issue(
                    codes.EXAMPLE_SETUP.code,
                    where,
                    f"{'、'.join(missing)} 代码没有给 `{name}` 赋值 (`{name}` is not assigned)",
                )
            )
            continue
        left, right = namespaces["torch"][name], namespaces["paddle"][name]
        if not (comparable(left) and comparable(right)):
            if explicit is not None:
                issues.append(
                    Issue(
                        codes.EXAMPLE_SETUP.code,
                        where,
                        f"`{name}` 无法比较：torch {type(left).__name__}，paddle "
                        f"{type(right).__name__} (not a tensor, number, string or container)",
                    )
                )
            continue
        compared += 1
        issues += [
            Issue(codes.EXAMPLE_DIFFERS.code, where, m)
            for m in compare(name, left, right, tolerance)
        ]
    if compared == 0 and not issues:
        issues.append(
            Issue(
                codes.EXAMPLE_SETUP.code,
                (),
                "没有可比较的结果：把结果赋给变量，如 `y = m(x)` "
                "(nothing compared: assign a result, e.g. y = m(x))",
            )
        )
    return issues


def _evaluate_inputs(inputs: dict[str, str], libs: Libraries) -> tuple[dict[str, Any], list[Issue]]:
    libs.np.random.seed(SEED)
    namespace: dict[str, Any] = {"np": libs.np}
    values: dict[str, Any] = {}
    for name, expression in inputs.items():
        try:
            values[name] = namespace[name] = eval(expression, namespace)
        except BaseException as exc:  # the expression is the contributor's code
            return {}, [
                Issue(
                    codes.EXAMPLE_SETUP.code,
                    ("inputs", name),
                    f"输入 `{name}` 的表达式出错 (input expression failed)：{_error(exc)}",
                )
            ]
    return values, []


def _convert(value: Any, side: str, libs: Libraries) -> Any:
    if not isinstance(value, libs.np.ndarray):
        return value
    if side == "torch":
        return libs.torch.from_numpy(value.copy())
    return libs.paddle.to_tensor(value.copy())


def _reset(side: str, libs: Libraries) -> None:
    random.seed(SEED)
    libs.np.random.seed(SEED)
    if side == "torch":
        libs.torch.manual_seed(SEED)
        libs.torch.set_default_dtype(libs.torch.float32)
        libs.torch.set_grad_enabled(True)
    else:
        libs.paddle.seed(SEED)
        libs.paddle.set_default_dtype("float32")
        libs.paddle.set_grad_enabled(True)


def _run_side(
    side: str, source: str, inputs: dict[str, Any], libs: Libraries
) -> tuple[dict[str, Any], Issue | None]:
    namespace: dict[str, Any] = {"__name__": "__apimap_example__", "np": libs.np}
    namespace[side] = getattr(libs, side)
    namespace.update({name: _convert(value, side, libs) for name, value in inputs.items()})
    filename = f"<{side}>"
    try:
        _reset(side, libs)
        exec(compile(source, filename, "exec"), namespace)
    except BaseException as exc:  # the snippet is the contributor's code
        line = _snippet_line(exc, filename)
        where = f"{side} 代码第 {line} 行 (line {line})" if line else f"{side} 代码 (code)"
        issue = Issue(codes.EXAMPLE_RAISES.code, (side,), f"{where}：{_error(exc)}", line)
        return namespace, issue
    return namespace, None


def _snippet_line(exc: BaseException, filename: str) -> int | None:
    if isinstance(exc, SyntaxError) and exc.filename == filename:
        return exc.lineno
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == filename]
    return frames[-1].lineno if frames else None


_PADDLE_SUMMARY = "Error Message Summary:"


def _error(exc: BaseException) -> str:
    """``Type: message`` on one line; paddle's C++ traceback is cut to its summary."""
    text = str(exc)
    if _PADDLE_SUMMARY in text:
        text = text.split(_PADDLE_SUMMARY, 1)[1]
    message = " ".join(text.split())
    if len(message) > MAX_ERROR_CHARS:
        message = message[:MAX_ERROR_CHARS] + "…"
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__

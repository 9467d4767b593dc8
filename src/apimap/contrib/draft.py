"""What ``apimap new`` writes, whether it reads the libraries or the repository's data."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from apimap.record.phrases import TODO_MARKER


class ScaffoldError(Exception):
    """The draft cannot be written (exit code 2)."""


@dataclass
class Draft:
    """The record data and what could not be inferred."""

    data: dict[str, Any]
    unknown: list[str] = field(default_factory=list)
    offline: bool = False
    """Drafted without the libraries: CI's verification of the pull request completes it."""


def call_draft(torch_api: str, api_type: str, required: list[str]) -> dict[str, Any] | None:
    """Code that uses the API with its ``required`` arguments, for a person to give inputs to."""
    member = torch_api.rsplit(".", 1)[1]
    on_tensor = torch_api.startswith("torch.Tensor.")
    if api_type == "class":
        arguments = ", ".join(f"{name}={TODO_MARKER}" for name in required)
        code = f"layer = {torch_api}({arguments})\nresult = layer(x)"
        return {"torch": code, "inputs": {"x": TODO_MARKER}}
    if api_type == "context_manager":
        return {"torch": f"with {torch_api}():\n    result = x * 2", "inputs": {"x": TODO_MARKER}}
    if api_type == "attribute" and on_tensor:
        return {"torch": f"result = x.{member}", "inputs": {"x": TODO_MARKER}}
    if api_type == "constant":
        return {"torch": f"result = {torch_api}"}
    if api_type == "method" and on_tensor:
        code = f"result = x.{member}({', '.join(required)})"
        return {"torch": code, "inputs": dict.fromkeys(["x", *required], TODO_MARKER)}
    if api_type == "function":
        code = f"result = {torch_api}({', '.join(required)})"
        return {"torch": code, "inputs": dict.fromkeys(required, TODO_MARKER)}
    return None

"""The plain-data jobs the parent sends to workers, built from a record's fields."""

from __future__ import annotations

from typing import Any


def signature_job(record: dict[str, Any]) -> dict[str, Any]:
    """The job a worker runs for one record (built from the validated record's fields)."""
    overloads = record.get("torch_signature")
    torch_signatures: list[list[object]]
    if isinstance(overloads, str):
        torch_signatures = [[["torch_signature"], overloads]]
    else:
        torch_signatures = [[["torch_signature", i], t] for i, t in enumerate(overloads or [])]
    return {
        "torch_api": record["torch_api"],
        "torch_signatures": torch_signatures,
        "aliases": list(record.get("aliases") or []),
        "paddle_api": record.get("paddle_api"),
        "paddle_signature": record.get("paddle_signature"),
        "paddle_param_aliases": dict(record.get("paddle_param_aliases") or {}),
    }


def case_job(case: dict[str, Any]) -> dict[str, Any]:
    """The job a worker runs for one case (the case's fields as plain data)."""
    return {
        "torch": case["torch"],
        "paddle": case["paddle"],
        "inputs": dict(case.get("inputs") or {}),
        "outputs": case.get("outputs"),
        "rtol": case.get("rtol"),
        "atol": case.get("atol"),
        "no_value_compare": case.get("no_value_compare"),
    }

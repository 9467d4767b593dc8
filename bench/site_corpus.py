"""Generate a synthetic corpus for the site benchmark from the site test records.

Usage: python bench/site_corpus.py OUT_DIR COUNT

Every record of ``tests/site/corpus/mappings`` (one per category, taken from
the installed libraries) is a template. Record ``k`` copies a template and
renames its APIs (``torch.nn.Softmax`` -> ``torch.nn.Softmax_17``, aliases and
the Paddle API likewise), so the pages have the size, the features and the
category mix of real pages while the corpus passes ``apimap check``. Templates
are weighted roughly as the categories occur in the seed tables.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from apimap import loader
from apimap.paths import record_path

TEMPLATES = Path(__file__).resolve().parent.parent / "tests" / "site" / "corpus" / "mappings"
WEIGHTS = {
    "torch.abs": 8,
    "torch.is_grad_enabled": 1,
    "torch.nn.CosineSimilarity": 3,
    "torch.nn.Conv2d": 3,
    "torch.nn.Softmax": 1,
    "torch.nn.utils.clip_grad_value_": 5,
    "torch.clamp": 1,
    "torch.nn.BatchNorm1d": 2,
    "torch.get_default_dtype": 1,
    "torch.get_rng_state": 1,
    "torch.addcmul": 1,
    "torch.optim.lr_scheduler.StepLR": 1,
    "torch.utils.tensorboard.SummaryWriter": 1,
    "torch.nn.utils.rnn.pack_padded_sequence": 1,
}


def _templates() -> list[tuple[dict[str, object], str]]:
    found = []
    for path in sorted(TEMPLATES.rglob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        doc, problems = loader.parse(text)
        if doc is None:
            raise SystemExit(f"{path}: {problems}")
        found.append((doc.data, text))
    return found


def _names(data: dict[str, object]) -> list[str]:
    names = [str(data["torch_api"])]
    aliases = data.get("aliases")
    if isinstance(aliases, list):
        names += [str(alias) for alias in aliases]
    if data.get("paddle_api"):
        names.append(str(data["paddle_api"]))
    return names


def variant(data: dict[str, object], text: str, number: int) -> tuple[str, str]:
    """The API name and text of copy ``number`` of a template."""
    for name in _names(data):
        text = re.sub(re.escape(name) + r"(?![A-Za-z0-9_])", f"{name}_{number}", text)
    return f"{data['torch_api']}_{number}", text


def write_corpus(out: Path, count: int) -> list[Path]:
    """Write ``count`` records below ``out/mappings``; return their paths."""
    schedule = []
    for data, text in _templates():
        schedule += [(data, text)] * WEIGHTS.get(str(data["torch_api"]), 1)
    paths = []
    for number in range(count):
        data, text = schedule[number % len(schedule)]
        api, record = variant(data, text, number)
        target = out / "mappings" / record_path(api)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(record, encoding="utf-8")
        paths.append(target)
    return paths


if __name__ == "__main__":
    write_corpus(Path(sys.argv[1]), int(sys.argv[2]))

"""Records and helpers shared by the workflow tests."""

from __future__ import annotations

import os
from pathlib import Path

CANONICAL_DIST = """\
# yaml-language-server: $schema=../../schema/mapping.schema.json
torch_api: torch.dist
zh_name: 两个张量之差的范数
torch_signature: torch.dist(input, other, p=2)
paddle_api: paddle.dist
paddle_signature: paddle.dist(x, y, p=2, name=None)
category: names_differ
params:
  - torch: input
    paddle: x
  - torch: other
    paddle: y
    desc: 另一个输入的 Tensor
  - torch: p
    desc: 范数的阶
calls:
  - torch: torch.dist(a, b, p=1)
    inputs:
      a: np.ones(3, dtype='float32')
      b: np.zeros(3, dtype='float32')
"""
"""A clean record in canonical form, at ``mappings/torch/torch.dist.yaml``."""

GIT_ENV = {
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "Test",
    "GIT_AUTHOR_EMAIL": "test@example.invalid",
    "GIT_COMMITTER_NAME": "Test",
    "GIT_COMMITTER_EMAIL": "test@example.invalid",
    "GIT_AUTHOR_DATE": "2024-01-01T00:00:00Z",
    "GIT_COMMITTER_DATE": "2024-01-01T00:00:00Z",
}


def write(root: Path, relative: str, text: str) -> Path:
    """Write ``text`` to ``root/relative``, creating folders."""
    target = root / relative
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    return target

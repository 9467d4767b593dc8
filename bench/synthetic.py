"""Generate a synthetic corpus of realistic, valid records for benchmarks.

Usage: python bench/synthetic.py OUT_DIR COUNT

Records cycle through row variants (renames, paddle-only, default differences, torch-only,
inconsistent usage) with 2-7 parameters plus a torch-only ``out``, rewrite examples where the
specification requires them, and notes, so that they exercise every record rule.
"""

from __future__ import annotations

import sys
from pathlib import Path

from apimap.paths import record_path
from apimap.pins import PADDLE_VERSION, TORCH_VERSION

_PARAMS = ["input", "other", "dim", "keepdim", "dtype", "alpha", "beta", "weight", "bias", "eps"]
_MEANINGS = [
    "输入的 Tensor",
    "另一个输入的 Tensor",
    "进行运算的维度",
    "是否保留被归约的维度",
    "输出的数据类型",
    "缩放系数",
    "偏移系数",
    "权重 Tensor",
    "偏置 Tensor",
    "为保证数值稳定而加的小量",
]
_VARIANTS = ["names_differ", "paddle_more", "defaults_differ", "torch_more", "input_usage_diff"]


def _row(lines: list[str], **fields: str) -> None:
    first = True
    for key, value in fields.items():
        lines.append(f"  {'- ' if first else '  '}{key}: {value}")
        first = False


def record_text(index: int) -> tuple[str, str]:
    """The API name and YAML text of synthetic record ``index``."""
    api = f"torch.bench{index % 40}.op_{index}"
    paddle = f"paddle.bench{index % 40}.op_{index}"
    variant = _VARIANTS[index % len(_VARIANTS)]
    count = 2 + index % 6
    names = _PARAMS[:count]
    torch_params = [f"{n}=1.0" if i >= 2 else n for i, n in enumerate(names)]
    paddle_names = ["x" if n == "input" else n for n in names]
    paddle_params = [f"{n}=1.0" if i >= 2 else n for i, n in enumerate(paddle_names)]
    if variant == "defaults_differ":
        paddle_params[-1] = f"{paddle_names[-1]}=2.0"
    if variant == "torch_more":
        paddle_params.pop()
    if variant == "paddle_more":
        paddle_params.append("data_format='NCHW'")
    lines = [
        f"torch_api: {api}",
        f"torch_signature: {api}({', '.join(torch_params)}, *, out=None)",
        f"torch_url: https://docs.pytorch.org/docs/stable/generated/{api}.html",
        f"paddle_api: {paddle}",
        f"paddle_signature: {paddle}({', '.join(paddle_params)}, name=None)",
        f"paddle_url: https://www.paddlepaddle.org.cn/documentation/docs/zh/api/{paddle}_cn.html",
        f"category: {'input_usage_diff' if variant == 'input_usage_diff' else 'torch_more'}",
        "section: 基础操作类",
        "params:",
    ]
    rewrite: list[str] = []
    for position, name in enumerate(names):
        meaning = _MEANINGS[position]
        paddle_name = paddle_names[position]
        last = position == count - 1
        if last and variant == "torch_more":
            _row(lines, torch=name, kind="torch_only", desc=meaning, action="rewrite")
            rewrite.append(name)
        elif last and variant == "defaults_differ":
            _row(lines, torch=name, paddle=paddle_name, kind="default_diff", desc=meaning)
        elif last and variant == "input_usage_diff":
            _row(
                lines,
                torch=name,
                paddle=paddle_name,
                kind="usage_diff",
                desc=meaning,
                diff="PyTorch 接受可变参数，Paddle 接受列表",
                action="rewrite",
            )
            rewrite.append(name)
        elif name != paddle_name:
            _row(lines, torch=name, paddle=paddle_name, kind="rename", desc=meaning)
        else:
            _row(lines, torch=name, paddle=paddle_name, kind="same", desc=meaning)
    _row(lines, torch="out", kind="torch_only", desc="保存结果的 Tensor", action="rewrite")
    rewrite.append("out")
    if variant == "paddle_more":
        _row(lines, paddle="data_format", kind="paddle_only", desc="输入数据的格式")
    lines.append("examples:")
    for name in rewrite:
        lines += [
            f"  - param: {name}",
            "    cases:",
            f"      - when: 设置 {name} 时",
            "        torch: |",
            f"          y = {api}(a, b, {name}=z)",
            "        paddle: |",
            f"          y = {paddle}(a, b)",
            "          y = y * 1.0",
        ]
    lines += [
        "notes:",
        "  - text: 这是一条用于基准测试的说明。",
        "verified:",
        f"  torch: {TORCH_VERSION}",
        f"  paddle: {PADDLE_VERSION}",
        "",
    ]
    return api, "\n".join(lines)


def write_corpus(out: Path, count: int) -> None:
    """Write ``count`` records below ``out/mappings``."""
    for index in range(count):
        api, text = record_text(index)
        target = out / "mappings" / record_path(api)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    write_corpus(Path(sys.argv[1]), int(sys.argv[2]))

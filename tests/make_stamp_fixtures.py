"""Write the stamp fixtures of AM701 and AM703 (run after the digest or VERIFIER_VERSION changes).

    python tests/make_stamp_fixtures.py

Each fixture is a folder with ``mappings/``, ``stamps/`` and ``expect.txt``; the
stamps are written by the current :mod:`apimap.files.stamps`, then some records are
edited or stamped with other versions to make the bad cases.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from apimap.files import loader
from apimap.files.stamps import VERIFIER_VERSION, Proven, Stamp, digest

CATALOG = Path(__file__).resolve().parents[1] / "src" / "apimap" / "checking" / "rules" / "catalog"
RECORD = """# yaml-language-server: $schema=../../schema/mapping.schema.json
torch_api: torch.abs
zh_name: 绝对值
torch_signature: torch.abs(input, *, out=None)
paddle_api: paddle.abs
paddle_signature: paddle.abs(x, name=None, *, out=None)
paddle_accepts:
  input: x
category: identical
params:
  - torch: input
    desc: 要取绝对值的 Tensor
  - torch: out
    desc: 存放结果的 Tensor
calls:
  - torch: torch.abs(x)
    inputs:
      x: np.random.randn(3).astype('float32')
"""
VISION = """# yaml-language-server: $schema=../../../schema/mapping.schema.json
torch_api: torchvision.transforms.Grayscale
api_type: class
zh_name: 转为灰度图
torch_signature: torchvision.transforms.Grayscale(num_output_channels=1)
paddle_api: paddle.vision.transforms.Grayscale
paddle_signature: paddle.vision.transforms.Grayscale(num_output_channels=1, keys=None)
category: paddle_more
params:
  - torch: num_output_channels
    desc: 输出的通道数
  - paddle: keys
    kind: paddle_only
    desc: 输入的类型
calls:
  - torch: y = torchvision.transforms.Grayscale()(x)
    inputs:
      x: np.random.rand(3, 4, 4).astype('float32')
"""


def make(
    folder: Path,
    text: str,
    rel: str,
    versions: dict[str, str],
    *,
    verifier: int = VERIFIER_VERSION,
    edit: tuple[str, str] | None = None,
    unproven: tuple[str, ...] = (),
    stamp: bool = True,
    expect: str = "",
) -> None:
    """One fixture folder: the record, its stamp (unless ``stamp`` is false), then ``edit``."""
    shutil.rmtree(folder, ignore_errors=True)
    record = folder / "mappings" / rel
    record.parent.mkdir(parents=True)
    record.write_text(text, encoding="utf-8")
    doc, _ = loader.parse(text)
    assert doc is not None
    if stamp:
        proven = Proven(
            signatures={"torch": "read", "paddle": "read"},
            calls=1,
            cases=0,
            probes=0,
            unproven=list(unproven),
        )
        written = Stamp(
            record=digest(doc.data),
            verifier=verifier,
            versions=versions,
            date="2026-11-23",
            proven=proven,
        )
        target = folder / "stamps" / Path(rel).with_suffix(".json")
        target.parent.mkdir(parents=True)
        target.write_text(written.to_json(), encoding="utf-8")
    if edit:
        record.write_text(text.replace(*edit), encoding="utf-8")
    (folder / "expect.txt").write_text(expect, encoding="utf-8")


def main() -> None:
    pins = {"paddle": "3.3.1", "torch": "2.13.0"}
    vision_pins = {"paddle": "3.3.1", "torch": "2.14.1", "torchvision": "0.29.1"}
    abs_rel = "torch/torch.abs.yaml"
    vision_rel = "torchvision/transforms/torchvision.transforms.^Grayscale.yaml"
    stale = f"mappings/{abs_rel}:2 AM701\n"
    stamp = CATALOG / "am701_stamp"
    for old in stamp.iterdir():
        if old.is_dir() and old.name != "__pycache__":
            shutil.rmtree(old)
    make(stamp / "good", RECORD, abs_rel, pins)
    make(stamp / "good_vision", VISION, vision_rel, vision_pins)
    reworded = ("desc: 要取绝对值的 Tensor", "desc: 求绝对值的那个 Tensor")
    make(stamp / "good_reworded", RECORD, abs_rel, pins, edit=reworded)
    make(stamp / "bad_missing", RECORD, abs_rel, pins, stamp=False, expect=stale)
    edited = ("np.random.randn(3)", "np.random.randn(4)")
    make(stamp / "bad_edited", RECORD, abs_rel, pins, edit=edited, expect=stale)
    other = {"paddle": "3.3.1", "torch": "2.13.0rc1"}
    make(stamp / "bad_versions", RECORD, abs_rel, other, expect=stale)
    old_verifier = VERIFIER_VERSION - 1
    make(stamp / "bad_verifier", RECORD, abs_rel, pins, verifier=old_verifier, expect=stale)
    vision_stale = f"mappings/{vision_rel}:2 AM701\n"
    make(stamp / "bad_vision_versions", VISION, vision_rel, pins, expect=vision_stale)
    partial = CATALOG / "am703_partial_stamp"
    make(partial / "good", RECORD, abs_rel, pins)
    unreadable = ("PyTorch 签名无法从库中读取 (PyTorch signature unreadable)",)
    expect = f"mappings/{abs_rel}:2 AM703\n"
    make(partial / "bad_partial", RECORD, abs_rel, pins, unproven=unreadable, expect=expect)


if __name__ == "__main__":
    main()

"""Weight enums: what the drafter writes from the facts, and the committed records kept
equal to what torchvision and paddle say now (in ``.venv-vision``, which has both)."""

from __future__ import annotations

import os
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from apimap.contrib.weights import (
    WEIGHTS_ENUM,
    PaddleModel,
    Preprocessing,
    WeightsFacts,
    draft_weights,
)
from apimap.verify.environments import vision_python

ROOT = Path(__file__).resolve().parents[1]
IMAGENET = ((0.485, 0.456, 0.406), (0.229, 0.224, 0.225))

RESNET = WeightsFacts(
    torch_api="torchvision.models.ResNet50_Weights",
    builder="torchvision.models.resnet50",
    members=("IMAGENET1K_V1", "IMAGENET1K_V2"),
    default="IMAGENET1K_V2",
    meta=("categories",),
    family="",
    batch_norm=True,
    linear=True,
    paddle=PaddleModel("paddle.vision.models.resnet50", "", pretrained=True),
    preprocessing=(
        Preprocessing("IMAGENET1K_V1", 256, 224, "bilinear", *IMAGENET),
        Preprocessing("IMAGENET1K_V2", 232, 224, "bilinear", *IMAGENET),
    ),
)


def test_the_name_pattern_takes_weight_enums_and_leaves_quantized_weights_to_people() -> None:
    assert WEIGHTS_ENUM.match("torchvision.models.ResNet50_Weights")
    assert WEIGHTS_ENUM.match("torchvision.models.detection.FCOS_ResNet50_FPN_Weights")
    assert not WEIGHTS_ENUM.match("torchvision.models.quantization.ResNet50_QuantizedWeights")
    assert not WEIGHTS_ENUM.match("torchvision.models.Weights")


def test_a_model_paddle_has_weights_for_maps_onto_pretrained() -> None:
    missing = draft_weights(RESNET)["missing"]
    assert missing["detail"].startswith(
        "Paddle 没有预训练权重的枚举。PyTorch 的 ResNet50_Weights 列出 torchvision.models.resnet50 "
        "可以加载的 2 组权重（IMAGENET1K_V1、IMAGENET1K_V2），DEFAULT 指向 IMAGENET1K_V2，"
    )
    assert "paddle.vision.models.resnet50 只用布尔参数 pretrained" in missing["detail"]
    assert missing["instead"].startswith(
        "把 weights=ResNet50_Weights 的任一成员（或其名称字符串、DEFAULT）改为 "
        "paddle.vision.models.resnet50(pretrained=True)"
    )
    assert [c["paddle"] for c in missing["considered"]] == ["paddle.vision.models.resnet50"]


def test_a_model_paddle_builds_without_weights_is_built_and_its_weights_carried_over() -> None:
    facts = replace(
        RESNET,
        batch_norm=False,
        paddle=PaddleModel("paddle.vision.models.vgg11", "batch_norm=True", pretrained=False),
    )
    missing = draft_weights(facts)["missing"]
    assert "paddle.vision.models.vgg11（batch_norm=True）可以构建该模型" in missing["detail"]
    assert missing["instead"] == (
        "用 paddle.vision.models.vgg11(batch_norm=True) 构建随机初始化的模型；需要 PyTorch 的权重时，"
        "在 PyTorch 环境中用 model.state_dict() 取得参数字典，转为 numpy 数组后按参数名与形状对应，"
        "用 set_state_dict 载入（全连接层的权重需要转置）；预处理按说明中的例子组合。"
    )


def test_a_model_paddle_lacks_points_to_the_ecosystem_project_of_its_family() -> None:
    facts = replace(
        RESNET,
        torch_api="torchvision.models.detection.FCOS_ResNet50_FPN_Weights",
        builder="torchvision.models.detection.fcos_resnet50_fpn",
        meta=("categories", "keypoint_names"),
        family="detection",
        linear=False,
        paddle=None,
        preprocessing=(),
    )
    drafted = draft_weights(facts)
    assert drafted["zh_name"] == "fcos_resnet50_fpn 的预训练权重枚举"
    assert "notes" not in drafted  # detection presets: a person writes the note
    missing = drafted["missing"]
    assert "transforms 与类别名、关键点名称等元数据 meta" in missing["detail"]
    assert missing["detail"].endswith(
        "Paddle 主框架没有 fcos_resnet50_fpn 模型，也没有它的预训练权重。"
    )
    assert "PaddleDetection 中查找同类模型" in missing["instead"]
    assert (
        "（BatchNorm 的 running_mean、running_var 对应 Paddle 的 _mean、_variance）"
        in (missing["instead"])
    )
    assert "considered" not in missing


def test_the_preprocessing_note_says_once_what_members_share() -> None:
    note = draft_weights(RESNET)["notes"][0]
    assert (
        "用双线性插值把短边缩放后中心裁剪，尺寸因权重而异（IMAGENET1K_V1 缩放到 256、裁剪 224×224；"
        in (note["text"])
    )
    example = note["example"]
    assert example["when"] == "IMAGENET1K_V2 的预处理"
    assert "T.Resize(232), T.CenterCrop(224)" in example["paddle"]
    assert example["inputs"] == {"img": "np.random.randint(0, 256, (240, 320, 3)).astype('uint8')"}

    one = replace(RESNET, members=("IMAGENET1K_V1",), default="IMAGENET1K_V1")
    one = replace(one, preprocessing=RESNET.preprocessing[:1])
    assert (
        "用双线性插值把短边缩放到 256，再中心裁剪 224×224，"
        in draft_weights(one)["notes"][0]["text"]
    )


def test_members_that_differ_beyond_sizes_are_listed_each_and_large_outputs_thinned() -> None:
    facts = replace(
        RESNET,
        default="IMAGENET1K_V2",
        preprocessing=(
            Preprocessing("IMAGENET1K_V1", 256, 224, "bicubic", *IMAGENET),
            Preprocessing("IMAGENET1K_V2", 600, 600, "bicubic", (0.5, 0.5, 0.5), (0.5, 0.5, 0.5)),
        ),
    )
    note = draft_weights(facts)["notes"][0]
    assert "各组的参数为：IMAGENET1K_V1 用双三次插值缩放到 256、裁剪 224×224，" in note["text"]
    assert (
        "IMAGENET1K_V2 用双三次插值缩放到 600、裁剪 600×600，均值 (0.5, 0.5, 0.5)" in note["text"]
    )
    # 3 × 600 × 600 values are more than verify compares: every second pixel is kept
    assert note["example"]["torch"].endswith(
        ".transforms()\ny = preprocess(Image.fromarray(img.numpy()))[:, ::2, ::2]\n"
    )
    assert "T.Resize(600, interpolation='bicubic')" in note["example"]["paddle"]


def _in_vision_environment(*args: str) -> subprocess.CompletedProcess[str]:
    python = vision_python()
    if python is None:
        pytest.fail("没有 .venv-vision (no torchvision environment): make .venv-vision/.installed")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run(
        [python, *args], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )


def test_every_weight_enum_record_says_what_torchvision_and_paddle_say_now() -> None:
    result = _in_vision_environment("-m", "apimap.contrib.weights", "mappings")
    assert result.returncode == 0 and result.stdout == "", result.stdout + result.stderr[-2000:]


def test_apimap_new_drafts_a_weight_enum_with_the_torchvision_environment(tmp_path: Path) -> None:
    from apimap.cli import main

    assert main(["new", "torchvision.models.AlexNet_Weights", "--mappings", str(tmp_path)]) == 0
    drafted = next(tmp_path.rglob("*.yaml")).read_text(encoding="utf-8")
    committed = next((ROOT / "mappings").rglob("torchvision.models.^Alex^Net_^Weights.yaml"))
    assert drafted == committed.read_text(encoding="utf-8")

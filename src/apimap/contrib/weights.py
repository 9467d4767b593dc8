"""Drafts for torchvision's pretrained-weight enums (``torchvision.models.ResNet50_Weights``).

Paddle has no weight enums: every one of them is 功能缺失, and what its record says follows
from facts the libraries tell. torchvision tells the enum's members, its ``DEFAULT``, the
builder it belongs to (``get_model_weights``), what its metadata holds and whether the
model has batch normalisation and fully connected layers (built on the ``meta`` device,
nothing is downloaded); paddle tells whether ``paddle.vision.models`` builds the model
and whether it has pretrained weights for it (the builder is run with ``pretrained=True``
until the point where it would download). From these :func:`draft_weights` writes the
record's Chinese name and its whole ``missing`` block, so ``apimap new`` finishes a weight
enum but for its preprocessing note, and ``tests/contrib/test_weights.py`` keeps every
committed weight-enum record equal to what the libraries say now.

Needs torchvision and paddle in one interpreter: ``.venv-vision`` has both.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import inspect
import re
import sys
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from apimap.verify.values import MAX_ELEMENTS

WEIGHTS_ENUM = re.compile(r"^torchvision\.models\.(?:(?P<family>[a-z_]+)\.)?\w+_Weights$")
"""A weight enum's public name; quantized weights (``*_QuantizedWeights``) are written by hand."""

PROJECTS = {
    "detection": "目标检测项目 PaddleDetection",
    "segmentation": "图像分割项目 PaddleSeg",
    "video": "视频项目 PaddleVideo",
}
"""Model family -> the Paddle ecosystem project that has such models."""

BUILT_FROM_CLASS = {
    "resnext101_32x8d": (
        "paddle.vision.models.ResNet(BottleneckBlock, 101, width=8, groups=32)",
        "BottleneckBlock 来自 paddle.vision.models.resnet",
        "paddle.vision.models.resnext101_32x4d",
        "它是每组宽度为 4 的 ResNeXt-101，结构与 32x8d 不同，预训练权重也不能混用。",
    ),
}
"""Builders paddle lacks but whose network a paddle class builds: the expression, where its
block comes from, the near builder a reader would try and why it does not correspond."""

META_PHRASES = {"categories": "类别名", "keypoint_names": "关键点名称"}


class NotAWeightsEnum(LookupError):
    """The name is not one of torchvision's weight enums."""


@dataclass(frozen=True)
class PaddleModel:
    """How paddle builds the model: ``call`` is ``api(args)``; ``pretrained`` whether
    ``pretrained=True`` finds weights."""

    api: str
    args: str
    pretrained: bool


@dataclass(frozen=True)
class Preprocessing:
    """One member's ``transforms()`` when it is torchvision's image-classification preset."""

    member: str
    resize: int
    crop: int
    interpolation: str
    mean: tuple[float, ...]
    std: tuple[float, ...]

    @property
    def how(self) -> tuple[str, tuple[float, ...], tuple[float, ...]]:
        """What besides the sizes a member's preprocessing is."""
        return self.interpolation, self.mean, self.std


@dataclass(frozen=True)
class WeightsFacts:
    """What torchvision and paddle tell about one weight enum."""

    torch_api: str
    builder: str
    members: tuple[str, ...]
    default: str
    meta: tuple[str, ...]
    family: str
    batch_norm: bool
    linear: bool
    paddle: PaddleModel | None
    preprocessing: tuple[Preprocessing, ...]
    """Every member's, when all are image classification; empty otherwise."""

    @property
    def short(self) -> str:
        return self.builder.rsplit(".", 1)[1]


def _quiet_import(name: str) -> ModuleType:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return importlib.import_module(name)


@contextlib.contextmanager
def _initialisers_skipped(init: Any) -> Iterator[None]:
    """Layers keep the memory they allocate as it is (untouched, so cheap) instead of
    filling it: only the layers are needed, not their values."""
    names = [name for name in dir(init) if name.endswith("_") and not name.startswith("_")]
    originals = {name: getattr(init, name) for name in names}
    for name in names:
        setattr(init, name, lambda tensor, *_, **__: tensor)
    try:
        yield
    finally:
        for name, original in originals.items():
            setattr(init, name, original)


def _torch_model_layers(builder: Any) -> tuple[bool, bool]:
    """Whether the model (built without weights, on the meta device) has batch norm and
    fully connected layers."""
    torch = _quiet_import("torch")
    kwargs: dict[str, Any] = {"weights": None}
    if "weights_backbone" in inspect.signature(builder).parameters:
        kwargs["weights_backbone"] = None
    try:
        with torch.device("meta"):
            model = builder(**kwargs)
    except NotImplementedError:  # a builder that reads values while it builds (RegNet)
        with _initialisers_skipped(torch.nn.init):
            model = builder(**kwargs)
    modules = list(model.modules())
    batch_norm = any("BatchNorm" in type(m).__name__ for m in modules)  # FrozenBatchNorm2d too
    linear = any(isinstance(m, torch.nn.Linear) for m in modules)
    return batch_norm, linear


class _WouldDownload(Exception):
    pass


def _has_pretrained(builder: Any, args: dict[str, Any]) -> bool:
    """Run the paddle builder with ``pretrained=True`` up to the download it would start."""
    module: Any = importlib.import_module(builder.__module__)

    def stop(*_: Any, **__: Any) -> Any:
        raise _WouldDownload

    paddle = _quiet_import("paddle")
    original = module.get_weights_path_from_url
    module.get_weights_path_from_url = stop
    try:
        with paddle.LazyGuard():  # the layers without their parameters' memory
            builder(pretrained=True, **args)
    except _WouldDownload:
        return True
    except AssertionError:  # "... do not have a pretrained model now"
        return False
    finally:
        module.get_weights_path_from_url = original
    return True


def paddle_model(short: str) -> PaddleModel | None:
    """How ``paddle.vision.models`` builds torchvision's ``short`` model, if it does."""
    models = _quiet_import("paddle.vision.models")
    candidates: list[tuple[str, dict[str, Any]]] = [(short, {})]
    if short.endswith("_bn"):
        candidates.append((short[: -len("_bn")], {"batch_norm": True}))
    for name, args in candidates:
        builder = getattr(models, name, None)
        if builder is not None:
            shown = ", ".join(f"{key}={value}" for key, value in args.items())
            return PaddleModel(
                f"paddle.vision.models.{name}", shown, _has_pretrained(builder, args)
            )
    return None


def _preprocessing(enum: Any) -> tuple[Preprocessing, ...]:
    """Each member's classification preset, or nothing when one is another kind."""
    found = []
    for member in enum:
        preset = member.transforms
        if getattr(preset, "func", None) is None or preset.func.__name__ != "ImageClassification":
            return ()
        settings = {
            name: parameter.default
            for name, parameter in inspect.signature(preset.func).parameters.items()
        }
        settings.update(preset.keywords)
        found.append(
            Preprocessing(
                member.name,
                settings["resize_size"],
                settings["crop_size"],
                settings["interpolation"].value,
                tuple(settings["mean"]),
                tuple(settings["std"]),
            )
        )
    return tuple(found)


def read_facts(torch_api: str) -> WeightsFacts:
    """The facts of ``torch_api`` from the installed torchvision and paddle."""
    found = WEIGHTS_ENUM.match(torch_api)
    if found is None:
        raise NotAWeightsEnum(torch_api)
    family = found.group("family") or ""
    namespace = "torchvision.models" + (f".{family}" if family else "")
    models = _quiet_import("torchvision.models")
    module = _quiet_import(namespace)
    enum = getattr(module, torch_api.rsplit(".", 1)[1], None)
    builders = [
        name for name in models.list_models(module=module) if models.get_model_weights(name) is enum
    ]
    if enum is None or len(builders) != 1:
        raise NotAWeightsEnum(torch_api)
    builder = builders[0]
    batch_norm, linear = _torch_model_layers(models.get_model_builder(builder))
    default = enum.DEFAULT
    return WeightsFacts(
        torch_api=torch_api,
        builder=f"{namespace}.{builder}",
        members=tuple(member.name for member in enum),
        default=default.name,
        meta=tuple(key for key in META_PHRASES if key in default.meta),
        family=family,
        batch_norm=batch_norm,
        linear=linear,
        paddle=paddle_model(builder),
        preprocessing=_preprocessing(enum),
    )


def _port(facts: WeightsFacts) -> str:
    """How to carry the PyTorch weights over, with the layers whose parameters differ."""
    caveats = []
    if facts.batch_norm:
        caveats.append("BatchNorm 的 running_mean、running_var 对应 Paddle 的 _mean、_variance")
    if facts.linear:
        caveats.append("全连接层的权重需要转置")
    said = f"（{'，'.join(caveats)}）" if caveats else ""
    return (
        "需要 PyTorch 的权重时，在 PyTorch 环境中用 model.state_dict() 取得参数字典，"
        f"转为 numpy 数组后按参数名与形状对应，用 set_state_dict 载入{said}"
    )


def _paddle_says(facts: WeightsFacts) -> str:
    """The detail's sentence on what paddle has."""
    model = facts.paddle
    project = PROJECTS.get(facts.family)
    where = "Paddle 主框架" if project else "Paddle "
    if facts.short in BUILT_FROM_CLASS:
        return (
            f"Paddle 没有 {facts.short} 的构建函数与预训练权重，"
            f"但可以用 {BUILT_FROM_CLASS[facts.short][0]} 构建结构相同的网络。"
        )
    if model is None:
        return f"{where}没有 {facts.short} 模型，也没有它的预训练权重。"
    subject = f"{model.api}（{model.args}）" if model.args else f"{model.api} "
    if model.pretrained:
        return (
            f"{subject}只用布尔参数 pretrained 表示是否加载预训练权重，为 True 时加载 Paddle "
            "为该模型提供的一组 ImageNet 权重，不能在多组权重之间选择。"
        )
    return f"{subject}可以构建该模型，但 Paddle 没有为它提供预训练权重，pretrained=True 会报错。"


def _instead(facts: WeightsFacts) -> str:
    model = facts.paddle
    enum = facts.torch_api.rsplit(".", 1)[1]
    if model is not None and model.pretrained:
        return (
            f"把 weights={enum} 的任一成员（或其名称字符串、DEFAULT）改为 "
            f"{model.api}(pretrained=True)，weights=None 改为 pretrained=False；"
            "推理前的预处理按说明中的例子用 paddle.vision.transforms 组合。"
        )
    if facts.short in BUILT_FROM_CLASS:
        expression, block, _, _ = BUILT_FROM_CLASS[facts.short]
        build = f"用 {expression}（{block}）构建同样结构、随机初始化的模型"
    elif model is not None:
        build = f"用 {model.api}({model.args}) 构建随机初始化的模型"
    else:
        project = PROJECTS.get(facts.family)
        elsewhere = f"，或到 Paddle 生态中的{project} 中查找同类模型" if project else ""
        build = f"在 Paddle 中按相同结构实现网络{elsewhere}"
    return f"{build}；{_port(facts)}；预处理按说明中的例子组合。"


def _considered(facts: WeightsFacts) -> list[dict[str, str]]:
    model = facts.paddle
    if facts.short in BUILT_FROM_CLASS:
        _, _, near, why = BUILT_FROM_CLASS[facts.short]
        return [{"paddle": near, "why": why}]
    if model is None:
        return []
    if model.pretrained:
        why = (
            "它的 pretrained 只是布尔值，只能加载 Paddle 提供的一组权重，不能选择权重的版本，"
            "也没有附带预处理与元数据。"
        )
    else:
        why = "它可以构建该模型，但 pretrained=True 时报错，Paddle 没有这个模型的预训练权重。"
    return [{"paddle": model.api, "why": why}]


INTERPOLATIONS = {"bilinear": "双线性插值", "bicubic": "双三次插值"}
"""Interpolations of the presets paddle's ``Resize`` has, by torchvision's name (paddle's too)."""

PADDLE_DEFAULT_INTERPOLATION = "bilinear"


def _numbers(values: tuple[float, ...]) -> str:
    return "(" + ", ".join(str(value) for value in values) + ")"


def _preprocessing_text(steps: tuple[Preprocessing, ...]) -> str:
    """What every member's ``transforms()`` does, said once where the members agree."""
    first = steps[0]
    normalise = f"均值 {_numbers(first.mean)}、标准差 {_numbers(first.std)}"
    if any(step.how != first.how for step in steps):
        each = "；".join(
            f"{step.member} 用{INTERPOLATIONS[step.interpolation]}缩放到 {step.resize}、"
            f"裁剪 {step.crop}×{step.crop}，均值 {_numbers(step.mean)}、标准差 {_numbers(step.std)}"
            for step in steps
        )
        how = f"先缩放短边并中心裁剪，再转为 [0, 1] 的浮点数并归一化，各组的参数为：{each}。"
    elif len({(step.resize, step.crop) for step in steps}) > 1:
        sizes = "；".join(
            f"{step.member} 缩放到 {step.resize}、裁剪 {step.crop}×{step.crop}" for step in steps
        )
        how = (
            f"用{INTERPOLATIONS[first.interpolation]}把短边缩放后中心裁剪，尺寸因权重而异（{sizes}），"
            f"再转为 [0, 1] 的浮点数后按{normalise} 归一化。"
        )
    else:
        how = (
            f"用{INTERPOLATIONS[first.interpolation]}把短边缩放到 {first.resize}，再中心裁剪 "
            f"{first.crop}×{first.crop}，转为 [0, 1] 的浮点数后按{normalise} 归一化。"
        )
    return (
        f"各组权重的 transforms() 都是图像分类的预处理：{how}Paddle 用 Resize、CenterCrop、"
        "ToTensor、Normalize 组合出同样的预处理，对 PIL 图像的结果与 PyTorch 相同。"
    )


def _preprocessing_note(facts: WeightsFacts) -> dict[str, Any] | None:
    """The note on the members' preprocessing, with the default member's run on both sides."""
    steps = facts.preprocessing
    if not steps or any(step.interpolation not in INTERPOLATIONS for step in steps):
        return None
    step = next(step for step in steps if step.member == facts.default)
    interpolation = (
        ""
        if step.interpolation == PADDLE_DEFAULT_INTERPOLATION
        else f", interpolation='{step.interpolation}'"
    )
    mean = ", ".join(str(value) for value in step.mean)
    std = ", ".join(str(value) for value in step.std)
    paddle_preset = (
        f"T.Compose([T.Resize({step.resize}{interpolation}), T.CenterCrop({step.crop}), "
        f"T.ToTensor(), T.Normalize(mean=[{mean}], std=[{std}])])"
    )
    height = step.resize + 8
    step_size = 1  # every step_size-th pixel: verify compares at most MAX_ELEMENTS values
    while 3 * ((step.crop + step_size - 1) // step_size) ** 2 > MAX_ELEMENTS:
        step_size += 1
    kept = f"[:, ::{step_size}, ::{step_size}]" if step_size > 1 else ""
    return {
        "text": _preprocessing_text(steps),
        "example": {
            "when": f"{step.member} 的预处理",
            "torch": (
                "from PIL import Image\n"
                f"preprocess = {facts.torch_api}.{step.member}.transforms()\n"
                f"y = preprocess(Image.fromarray(img.numpy())){kept}\n"
            ),
            "paddle": (
                "from PIL import Image\n"
                "import paddle.vision.transforms as T\n"
                f"preprocess = {paddle_preset}\n"
                f"y = preprocess(Image.fromarray(img.numpy())){kept}\n"
            ),
            "inputs": {
                "img": f"np.random.randint(0, 256, ({height}, {height * 4 // 3}, 3)).astype('uint8')"
            },
            "atol": "1.0e-06",  # numbers stay text until the model reads them
        },
    }


def draft_weights(facts: WeightsFacts) -> dict[str, Any]:
    """The record's ``zh_name``, ``missing`` block and, for image classification, the note
    on the preprocessing."""
    enum = facts.torch_api.rsplit(".", 1)[1]
    meta = "、".join(META_PHRASES[key] for key in facts.meta) or "评测指标"
    detail = (
        f"Paddle 没有预训练权重的枚举。PyTorch 的 {enum} 列出 {facts.builder} 可以加载的 "
        f"{len(facts.members)} 组权重（{'、'.join(facts.members)}），DEFAULT 指向 "
        f"{facts.default}，作为 weights 参数传入时下载并加载该组权重；枚举成员还带有预处理 "
        f"transforms 与{meta}等元数据 meta。{_paddle_says(facts)}"
    )
    missing: dict[str, Any] = {
        "reason": "design_differs",
        "detail": detail,
        "instead": _instead(facts),
    }
    considered = _considered(facts)
    if considered:
        missing["considered"] = considered
    drafted: dict[str, Any] = {"zh_name": f"{facts.short} 的预训练权重枚举", "missing": missing}
    note = _preprocessing_note(facts)
    if note is not None:
        drafted["notes"] = [note]
    return drafted


FAMILIES = ("", "detection", "segmentation", "video", "optical_flow")
"""The namespaces below ``torchvision.models`` whose builders take a weight enum."""


def weight_enums() -> list[str]:
    """The public name of every weight enum torchvision's builders take, sorted."""
    models = _quiet_import("torchvision.models")
    names = set()
    for family in FAMILIES:
        namespace = "torchvision.models" + (f".{family}" if family else "")
        for builder in models.list_models(module=_quiet_import(namespace)):
            names.add(f"{namespace}.{models.get_model_weights(builder).__name__}")
    return sorted(names)


def refresh(mappings: Path, write: bool) -> list[Path]:
    """The weight-enum records whose drafted fields differ from what the libraries say now,
    rewritten when ``write``; a weight enum without a record is listed (``apimap new``
    drafts it)."""
    from apimap.files import loader
    from apimap.files.atomic import write_atomically
    from apimap.files.canonical import canonical_text
    from apimap.record.paths import record_path

    differing = []
    for name in weight_enums():
        relpath = record_path(name)
        path = mappings / relpath
        if not path.is_file():
            differing.append(path)
            continue
        text = path.read_text(encoding="utf-8")
        doc, _ = loader.parse(text)
        data = doc.data if doc is not None and isinstance(doc.data, dict) else {}
        drafted = draft_weights(read_facts(name))
        if all(data.get(key) == value for key, value in drafted.items()):
            continue
        differing.append(path)
        if write and data:
            write_atomically(path, canonical_text(text, {**data, **drafted}, relpath))
    return differing


def main(argv: list[str] | None = None) -> int:
    """``python -m apimap.contrib.weights [--write] MAPPINGS`` (in ``.venv-vision``)."""
    parser = argparse.ArgumentParser(
        prog="python -m apimap.contrib.weights",
        description="列出（--write 时改写）与 torchvision、paddle 不再相符的权重枚举记录 "
        "(weight-enum records that differ from what the libraries say)",
    )
    parser.add_argument("mappings", type=Path)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args(argv)
    differing = refresh(args.mappings, args.write)
    for path in differing:
        print(path)
    return 1 if differing and not args.write else 0


if __name__ == "__main__":
    sys.exit(main())

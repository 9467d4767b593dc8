"""``apimap scan`` over the fixture project: exact counts, lines and classifications."""

from __future__ import annotations

from pathlib import Path

import pytest

from apimap.files.surface import Surface
from apimap.survey.scan.classify import Bucket, Classifier
from apimap.survey.scan.report import ScanReport, Usage
from apimap.survey.scan.runner import scan_paths


def _by_api(usages: list[Usage]) -> dict[str, Usage]:
    return {usage.api: usage for usage in usages}


def _sites(usage: Usage) -> dict[str, list[int]]:
    return {path: list(lines) for path, lines in usage.files.items()}


def test_every_import_form_resolves(report: ScanReport) -> None:
    apis = _by_api(report.apis)
    assert _sites(apis["torch.nn.Conv2d"]) == {
        "proj/imports.py": [14, 17, 19],  # nn.Conv2d, Conv2d, torch.nn.modules.conv.Conv2d
        "proj/user.py": [5],  # PkgConv, re-exported by pkg/__init__.py
    }
    assert apis["torch.nn.Conv2d"].calls == 4
    assert _sites(apis["torch.nn.functional.relu"])["proj/imports.py"] == [15, 18]
    assert _sites(apis["torch.nn.Softmax"]) == {
        "proj/imports.py": [16],  # from torch import nn as tnn
        "proj/pkg/rel.py": [5],  # from .blocks import Soft
        "proj/user.py": [9],  # from pkg.blocks import Soft
    }
    assert _sites(apis["torchvision.transforms.Resize"]) == {"proj/imports.py": [20]}
    assert _sites(apis["torch.nn.utils.rnn.pack_padded_sequence"]) == {"proj/imports.py": [21]}
    dtype = apis["torch.float32"]
    assert (dtype.calls, dtype.references, _sites(dtype)) == (0, 1, {"proj/imports.py": [22]})


def test_aliases_of_imports_and_of_apis(report: ScanReport) -> None:
    apis = _by_api(report.apis)
    clip = apis["torch.clip"].classification
    assert clip.record is not None and clip.record.api == "torch.clamp"
    assert clip.via == "torch.clamp" and clip.bucket is Bucket.REWRITE
    absolute = apis["torch.absolute"].classification
    assert absolute.via == "torch.abs" and absolute.bucket is Bucket.IDENTICAL
    assert apis["torch.clamp"].classification.via is None
    # th.concat is torch.concat (an alias of torch.cat the corpus has no record of).
    assert apis["torch.concat"].bucket is Bucket.UNKNOWN
    # torch.nn.parameter.Parameter is torch.nn.Parameter through the defining-object map.
    assert _sites(apis["torch.nn.Parameter"]) == {"proj/aliasing.py": [9]}
    assert "torch.nn.parameter.Parameter" not in apis


def test_shadowing_by_scope(report: ScanReport) -> None:
    relu = _by_api(report.apis)["torch.nn.functional.relu"]
    # 6: plain use; 29: a class attribute F does not shadow in methods; 45: `global F`.
    assert _sites(relu)["proj/shadowing.py"] == [6, 29, 45]
    # `with open(...) as torch` shadows torch in that function: torch.zeros is not counted.
    assert "torch.zeros" not in _by_api(report.apis)
    # `cuda = None` in the except branch does not hide `import torch.cuda as cuda`.
    assert _sites(_by_api(report.apis)["torch.cuda.is_available"]) == {"proj/shadowing.py": [40]}
    # Shadowed F.relu(...) calls are calls on an unknown receiver: the Tensor heuristic.
    relu_method = _by_api(report.methods)["torch.Tensor.relu"]
    assert _sites(relu_method) == {"proj/shadowing.py": [10, 15, 20, 32, 33]}


def test_star_imports_bind_the_surface_names(report: ScanReport) -> None:
    apis = _by_api(report.apis)
    assert _sites(apis["torch.nn.Linear"]) == {"proj/star.py": [4], "proj/user.py": [6]}
    assert _sites(apis["torch.nn.ReLU"]) == {"proj/pkg/rel.py": [6], "proj/star.py": [5]}
    assert _sites(apis["torch.abs"]) == {
        "proj/declared.py": [4],
        "proj/imports.py": [13],
        "proj/star.py": [6],
    }


def test_project_re_exports(report: ScanReport) -> None:
    apis = _by_api(report.apis)
    norm = apis["torch.nn.BatchNorm1d"]
    assert _sites(norm) == {"proj/pkg/layers.py": [4], "proj/user.py": [7]}
    assert (norm.calls, norm.references) == (1, 1)  # `Norm = BatchNorm1d` is a reference
    # L.Norm is a plain assignment in layers.py, not an import: not followed.
    assert sum(len(lines) for lines in norm.files.values()) == 2


def test_tensor_method_heuristic(report: ScanReport) -> None:
    methods = _by_api(report.methods)
    assert _sites(methods["torch.Tensor.view"]) == {"proj/tensors.py": [6, 10]}
    assert _sites(methods["torch.Tensor.permute"]) == {"proj/tensors.py": [7]}
    assert _sites(methods["torch.Tensor.contiguous"]) == {"proj/tensors.py": [7]}
    assert methods["torch.Tensor.to"].confidence == "low"
    assert methods["torch.Tensor.view"].confidence == "high"
    # "a,b".split(...), np.mean(...) and super().to(...) are not Tensor calls.
    assert "torch.Tensor.split" not in methods and "torch.Tensor.mean" not in methods
    assert methods["torch.Tensor.to"].calls == 1
    # torch.Tensor.view(x, 6) resolves as the API itself, not as a method call.
    assert _sites(_by_api(report.apis)["torch.Tensor.view"]) == {"proj/tensors.py": [13]}
    assert _sites(_by_api(report.apis)["torch.randn"]) == {"proj/tensors.py": [10]}


def test_buckets_and_flags(report: ScanReport) -> None:
    apis = _by_api(report.apis)
    expected = {
        "torch.abs": Bucket.IDENTICAL,
        "torch.is_grad_enabled": Bucket.IDENTICAL,
        "torch.nn.Conv2d": Bucket.RENAME,
        "torch.nn.Softmax": Bucket.RENAME,
        "torch.nn.BatchNorm1d": Bucket.REWRITE,
        "torch.addcmul": Bucket.REWRITE,
        "torch.optim.lr_scheduler.StepLR": Bucket.REWRITE,
        "torch.utils.tensorboard.SummaryWriter": Bucket.OTHER_PACKAGE,
        "torch.nn.utils.rnn.pack_padded_sequence": Bucket.MISSING,
        "torch.nn.Linear": Bucket.UNKNOWN,
        "torch._C._get_tracing_state": Bucket.UNKNOWN,
    }
    assert {api: apis[api].bucket for api in expected} == expected
    assert not apis["torch._C._get_tracing_state"].classification.public
    assert not apis["torch.utils.tensorboard.SummaryWriter"].classification.public
    assert apis["torch.nn.Conv2d"].classification.public


def test_summary_counts(report: ScanReport) -> None:
    summary = ScanReport.summary(report.apis)
    assert [(c.apis, c.uses) for c in summary.values()] == [
        (3, 5),  # identical: abs ×3, absolute, is_grad_enabled
        (2, 7),  # rename: Conv2d ×4, Softmax ×3
        (5, 6),  # rewrite: BatchNorm1d ×2, clamp, clip, StepLR, addcmul
        (1, 1),  # other package: SummaryWriter
        (1, 1),  # missing: pack_padded_sequence
        (13, 19),  # unknown: relu ×5, Linear ×2, ReLU ×2 and ten used once
    ]
    assert sum(c.uses for c in summary.values()) == sum(u.uses for u in report.apis)


def test_ranking_by_uses_then_name(report: ScanReport) -> None:
    keys = [(-usage.uses, usage.api) for usage in report.apis]
    assert keys == sorted(keys)
    assert report.apis[0].api == "torch.nn.functional.relu"


def test_problems_are_reported_not_fatal(report: ScanReport) -> None:
    problems = {path: (p.kind, p.line) for path, p in report.problems}
    assert problems == {
        "proj/broken.py": ("syntax", 2),
        "proj/junk.py": ("binary", 3),
        "proj/latin1.py": ("encoding", 1),
    }
    assert report.files == 16
    assert report.files_using_torch == 13


def test_a_process_pool_gives_the_same_report(
    project: Path, surface: Surface, classifier: Classifier, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("apimap.survey.scan.runner.PARALLEL_MIN_FILES", 1)
    monkeypatch.setattr("apimap.survey.scan.runner._BATCH", 3)
    pooled = scan_paths([project], surface, classifier, jobs=2)
    single = scan_paths([project], surface, classifier, jobs=1)
    assert pooled.to_json() == single.to_json()


def test_exclude_patterns(project: Path, surface: Surface, classifier: Classifier) -> None:
    report = scan_paths([project], surface, classifier, exclude=["pkg/*", "shadowing.py"])
    paths = {path for usage in report.apis for path in usage.files}
    assert not any(path.startswith("proj/pkg/") for path in paths)
    assert "proj/shadowing.py" not in paths
    assert report.files == 11

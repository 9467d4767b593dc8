"""Scan a project: parse its files (in a process pool for large trees) and build the report."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from apimap.files.surface import Surface
from apimap.survey.scan.classify import Classifier
from apimap.survey.scan.files import SourceFile, discover
from apimap.survey.scan.project import ProjectIndex
from apimap.survey.scan.public import public_api
from apimap.survey.scan.report import ScanReport, Usage
from apimap.survey.scan.resolver import FileScan, ResolverConfig, scan_file
from apimap.survey.scan.tensor_methods import confidence, shared_names

Progress = Callable[[int, int], None]
"""Called with (files done, files in all) as parsing goes on."""

PARALLEL_MIN_FILES = 200
"""Below this many files one process is faster than starting a pool."""
_BATCH = 24

_WORKER_CONFIG: ResolverConfig | None = None


def resolver_config(surface: Surface, files: Sequence[SourceFile]) -> ResolverConfig:
    """What each file's resolver needs: the project's top-level packages and the surface."""
    roots = frozenset(source.module.partition(".")[0] for source in files)
    return ResolverConfig(roots, surface.tensor_methods, surface.star_names)


def _init_worker(config: ResolverConfig) -> None:
    global _WORKER_CONFIG
    _WORKER_CONFIG = config


def _scan_batch(batch: list[SourceFile]) -> list[FileScan]:
    assert _WORKER_CONFIG is not None
    return [scan_file(source, _WORKER_CONFIG) for source in batch]


def default_jobs() -> int:
    """One worker per CPU this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def parse_files(
    files: Sequence[SourceFile],
    config: ResolverConfig,
    jobs: int,
    progress: Progress | None = None,
) -> list[FileScan]:
    """Every file's scan, in the order of ``files``."""
    total = len(files)
    if jobs <= 1 or total < PARALLEL_MIN_FILES:
        scans = []
        for index, source in enumerate(files, 1):
            scans.append(scan_file(source, config))
            if progress is not None:
                progress(index, total)
        return scans
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    batches = [list(files[start : start + _BATCH]) for start in range(0, total, _BATCH)]
    results: list[list[FileScan]] = [[] for _ in batches]
    done = 0
    with ProcessPoolExecutor(
        max_workers=jobs, mp_context=context, initializer=_init_worker, initargs=(config,)
    ) as pool:
        futures = {pool.submit(_scan_batch, batch): index for index, batch in enumerate(batches)}
        for future in as_completed(futures):
            index = futures[future]
            results[index] = future.result()
            done += len(results[index])
            if progress is not None:
                progress(done, total)
    return [scan for batch in results for scan in batch]


def _ranked(usages: dict[str, Usage]) -> list[Usage]:
    for usage in usages.values():
        for lines in usage.files.values():
            lines.sort()
    return sorted(usages.values(), key=lambda usage: (-usage.uses, usage.api))


def build_report(
    scans: Sequence[FileScan],
    surface: Surface,
    classifier: Classifier,
    paths: Sequence[str],
    site_url: str = "",
) -> ScanReport:
    """Resolve re-exports and public names, count the uses and classify every API."""
    project = ProjectIndex(scans)
    names: dict[str, str | None] = {}
    apis: dict[str, Usage] = {}
    methods: dict[str, Usage] = {}
    shared = shared_names(surface)
    using_torch = 0

    def api_of(path: str) -> str | None:
        if path not in names:
            names[path] = public_api(surface, path)
        return names[path]

    def count(api: str | None, file: str, line: int, call: bool) -> bool:
        if api is None:
            return False
        usage = apis.get(api)
        if usage is None:
            usage = apis[api] = Usage(api, classifier.classify(api))
        usage.add(file, line, call)
        return True

    for scan in scans:
        found = scan.imports_torch
        for path, line, call in scan.refs:
            count(api_of(path), scan.path, line, call)
        for modules, attrs, line, call in scan.deferred:
            torch_path = project.resolve(modules, attrs)
            if torch_path is not None:
                found = count(api_of(torch_path), scan.path, line, call) or found
        for method, line in scan.methods:
            usage = methods.get(method)
            if usage is None:
                api = f"torch.Tensor.{method}"
                usage = methods[method] = Usage(
                    api, classifier.classify(api), method, confidence(method, shared)
                )
            usage.add(scan.path, line, True)
        using_torch += found
    return ScanReport(
        paths=list(paths),
        files=len(scans),
        files_using_torch=using_torch,
        apis=_ranked(apis),
        methods=_ranked(methods),
        problems=[(scan.path, scan.problem) for scan in scans if scan.problem is not None],
        surface_versions={name: lib.version for name, lib in sorted(surface.libraries.items())},
        site_url=site_url,
    )


def scan_paths(
    paths: Sequence[Path],
    surface: Surface,
    classifier: Classifier,
    *,
    exclude: Sequence[str] = (),
    jobs: int = 1,
    site_url: str = "",
    progress: Progress | None = None,
) -> ScanReport:
    """Find, parse and report the Python files under ``paths``."""
    files = discover(paths, exclude)
    config = resolver_config(surface, files)
    scans = parse_files(files, config, jobs, progress)
    return build_report(scans, surface, classifier, [str(p) for p in paths], site_url)

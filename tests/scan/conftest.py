"""Shared fixtures of the scan tests: the fixture project, its knowledge base and one report."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_fixtures import CORPUS, write_project

from apimap.files.surface import Surface, load_surface
from apimap.survey.scan.classify import Classifier
from apimap.survey.scan.knowledge import load_knowledge
from apimap.survey.scan.report import ScanReport
from apimap.survey.scan.runner import scan_paths


@pytest.fixture(scope="session")
def surface() -> Surface:
    """The committed public-surface table."""
    return load_surface()


@pytest.fixture(scope="session")
def classifier(surface: Surface) -> Classifier:
    """Records of the fixture corpus, through the committed surface table."""
    return Classifier(surface, load_knowledge(CORPUS))


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The fixture project in a temporary folder, which is also the working folder."""
    monkeypatch.chdir(tmp_path)
    return write_project(tmp_path).relative_to(tmp_path)


@pytest.fixture()
def report(project: Path, surface: Surface, classifier: Classifier) -> ScanReport:
    """The scan of the fixture project, in one process."""
    return scan_paths([project], surface, classifier, jobs=1)

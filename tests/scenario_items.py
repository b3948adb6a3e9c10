"""Scenario files as pytest items: each scenario of each ``kind: scenario`` file under
tests/scenarios is one item, named by its file and its name
(``tests/scenarios/citadels/merchant.yaml::only the Merchant gets the extra gold``),
failing with the scenario's own message (``FILE:LINE:COL: message``, as ``meeple
test`` prints it).

Why items rather than one parametrised test: the scenarios used to be run while the
suite was collected (to make the parameters), so ``--durations`` never saw them, a
file that broke broke the collection, and ``-k`` could not pick one without running
all. Here collecting a file only reads it (the names); running the first item of a
file starts ``meeple.authoring.scenario.iter_file`` on it, and each item takes the
next result as its scenario ends, so each item's time is its own scenario's.
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterator, Optional

import pytest

from meeple.authoring.scenario import Result, iter_file
from meeple.core.errors import ContentError
from meeple.loading.schemas import validate
from meeple.loading.yamlsrc import load_yaml

ROOT = Path(__file__).resolve().parent / "scenarios"


def collect_scenario_file(file_path: Path, parent) -> Optional["ScenarioFile"]:
    """The pytest_collect_file hook's answer for ``file_path``: a ScenarioFile for the
    scenario files under tests/scenarios, None for every other file."""
    if file_path.suffix == ".yaml" and ROOT in file_path.resolve().parents:
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFailed(Exception):
    """A scenario that failed: its located message is the whole report."""


class ScenarioFile(pytest.File):
    """One scenario file; its scenarios run in order, once, as their items run."""

    def collect(self) -> Iterator["ScenarioItem"]:
        self._results: Optional[Iterator[Result]] = None
        self._seen: list[Result] = []
        # the file as `meeple test` run from here would name it (from the repository root: tests/scenarios/...)
        self.shown = self.path.relative_to(Path.cwd()) if Path.cwd() in self.path.parents else self.path
        try:
            doc = load_yaml(self.path, str(self.shown))
        except ContentError:
            yield ScenarioItem.from_parent(self, name="(file)", index=0)     # its run says what is wrong
            return
        if list(validate(doc, "scenario")):
            yield ScenarioItem.from_parent(self, name="(file)", index=0)     # its run says what is wrong
            return
        names = [str(sc["name"]) for sc in doc.data["scenarios"]]
        for i, name in enumerate(names):
            # two scenarios of one name in a file: the later ones are told apart by their place
            yield ScenarioItem.from_parent(self, name=name if names.index(name) == i else f"{name} [{i + 1}]", index=i)

    def result(self, index: int) -> Result:
        """The result of scenario ``index``, running the file's scenarios up to it."""
        if self._results is None:
            self._results = iter_file(self.shown)
        while len(self._seen) <= index:
            got = next(self._results, None)
            if got is None:
                break
            self._seen.append(got)
            if got.name == "(file)":          # the file cannot be run: every scenario of it fails with that
                break
        if self._seen and self._seen[-1].name == "(file)":
            return self._seen[-1]
        return self._seen[index]


class ScenarioItem(pytest.Item):
    def __init__(self, *, index: int, **kwargs):
        super().__init__(**kwargs)
        self.index = index

    def runtest(self) -> None:
        result = self.parent.result(self.index)
        if not result.ok:
            raise ScenarioFailed(f"{result.file}:{result.span.line}:{result.span.col}: {result.message}")

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ScenarioFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, f"{self.parent.shown}::{self.name}"

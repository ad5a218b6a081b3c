"""The sample workspace behind the welcome page: bundled sample data imported by the importers.

Qt-free so it runs in a worker of the task bridge. Built once into the data folder and
reused; the questions' reference dialect renderings (long format in the sample folder) are
pivoted into dialect columns so the question importer stores them as variants.
"""

from __future__ import annotations

import csv
import logging
import tempfile
from importlib.resources import as_file, files
from pathlib import Path

from engine.i18n import _
from engine.importing.importers import import_corpus, import_questions
from engine.llm.models.embedded_model import data_dir
from engine.workspace.store import Workspace

log = logging.getLogger(__name__)

SAMPLE_NAME = "sample.sqlite"


def sample_workspace_path() -> Path:
    return data_dir() / SAMPLE_NAME


def _questions_with_dialect_columns(questions: Path, renderings: Path, out: Path) -> None:
    by_id: dict[str, dict[str, str]] = {}
    with renderings.open(encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh):
            by_id.setdefault(row["id"], {})[row["dialect"]] = row["text"]
    dialects = sorted({d for texts in by_id.values() for d in texts})
    with questions.open(encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        fields = [*(reader.fieldnames or []), *dialects]
        rows = [{**row, **by_id.get(row["id"], {})} for row in reader]
    with out.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fields)
        writer.writeheader()
        writer.writerows(rows)


def build_sample_workspace(path: str | Path, progress=None, cancelled=None) -> Path:
    """Create (or reuse) the sample workspace at ``path``; returns its path. Idempotent."""
    path = Path(path)
    sample = files("resources") / "sample"
    with (
        Workspace(path) as ws,
        as_file(sample / "corpus.csv") as corpus,
        as_file(sample / "questions.csv") as questions,
        as_file(sample / "questions_dialects.csv") as renderings,
        tempfile.TemporaryDirectory() as tmp,
    ):
        if progress:
            progress(0, 2, _("corpus"))
        # named in the interface's language: the names a person reads in every list
        import_corpus(ws, corpus, name=_("sample corpus"), cancelled=cancelled)
        if progress:
            progress(1, 2, _("questions"))
        merged = Path(tmp) / "sample questions.csv"
        _questions_with_dialect_columns(questions, renderings, merged)
        import_questions(ws, merged, name=_("sample questions"), cancelled=cancelled)
        if progress:
            progress(2, 2, _("done"))
        log.info("sample workspace ready at %s", path)
    return path


def sample_workspace_with_model(path: str | Path, progress=None, cancelled=None) -> Path:
    """The sample workspace as the desktop opens it: with the embedded model as its default,
    so a first translation or generation has a model to run (the embedded model ships with
    the program; its file is read where it lies)."""
    from engine.llm.models.registry import ensure_embedded_default

    path = build_sample_workspace(path, progress, cancelled)
    with Workspace(path, create=False) as ws:
        ensure_embedded_default(ws, progress)
    return path

"""The translation widgets' shared set-up: a workspace with the sample corpus and questions
and the embedded model registered."""

from __future__ import annotations

from importlib.resources import as_file, files

import pytest

from engine.workspace.store import Workspace


@pytest.fixture
def corpus_ws(tmp_path, embedded_gguf):
    from engine.importing.importers import import_corpus, import_questions
    from engine.llm.models.registry import ensure_embedded_default

    ws = Workspace(tmp_path / "study.sqlite", create=True)
    sample = files("resources") / "sample"
    with as_file(sample / "corpus.csv") as corpus, as_file(sample / "questions.csv") as qs:
        import_corpus(ws, corpus, name="sample corpus")
        import_questions(ws, qs, name="sample questions")
    ensure_embedded_default(ws)
    yield ws
    ws.close()

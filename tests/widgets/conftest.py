"""Widget fixtures: a real sample workspace built by the importers, and a synchronous bridge."""

from __future__ import annotations

import json

import pytest

from engine.workspace.store import Workspace, utcnow

RETRIEVAL = {
    "query": "মুদ্রাস্ফীতি বলতে কী বোঝায়?",
    "normalized": "মুদ্রাস্ফীতি বলতে কী বোঝায়?",
    "tagged": "",
    "tokens": ["মুদ্রাস্ফীতি", "বোঝায়"],
    "short": False,
    "target_dialect": "sylhet",
    "district": "",
    "weights": {"dense": 0.35, "sparse": 0.65},
    "partitions": ["sylhet"],
    "pool_size": 40,
    "duplicates_removed": 0,
    "supported_unique": 3,
    "fallback_fired": True,
    "fallback_tokens": {"মুদ্রাস্ফীতি": ["মুদ্রা"]},
    "exemplars": [
        {
            "rank": 1,
            "pair_id": 1,
            "dialect": "sylhet",
            "district": "sylhet",
            "standard_text": "তুমি কী বলো?",
            "dialect_text": "তুমি কিতা কও?",
            "via": ["sparse"],
            "dense_score": 0.52,
            "dense_norm": 0.8,
            "sparse_score": 4.1,
            "sparse_norm": 1.0,
            "hybrid": 0.93,
            "char_similarity": 0.61,
            "char_component": 0.06,
            "dialect_bonus": 0.1,
            "region_bonus": 0.0,
            "district_bonus": 0.0,
            "final": 1.09,
            "supported": True,
        },
    ],
}
MACHINE_TEXT = "মুদ্রাস্ফীতি কিতারে কয়?"
# Qt's offscreen platform warns on every top-level show; it says nothing about our code.
OFFSCREEN_NOISE = "This plugin does not support propagateSizeHints"


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/widgets" in str(item.path).replace("\\", "/"):
            item.add_marker(pytest.mark.qt_log_ignore(OFFSCREEN_NOISE))


@pytest.fixture(scope="session")
def sample_db(tmp_path_factory):
    from engine.samples.workspace import build_sample_workspace

    return build_sample_workspace(tmp_path_factory.mktemp("sample") / "sample.sqlite")


@pytest.fixture
def review_ws(sample_db, tmp_path):
    """A copy of the sample workspace plus one machine draft with a retrieval record."""
    import shutil

    path = tmp_path / "review.sqlite"
    shutil.copy(sample_db, path)
    ws = Workspace(path, create=False)
    now = utcnow()
    qid = ws.scalar("SELECT id FROM questions WHERE ext_id = 'q13'")
    with ws.transaction() as conn:
        conn.execute(
            "INSERT INTO runs(id, kind, run_key, card, created_at) "
            "VALUES (1, 'translate', 'k', '{}', ?)",
            (now,),
        )
        conn.execute(
            "INSERT INTO variants(question_id, dialect, text, provenance, status, "
            "exemplar_ids, retrieval, run_id, updated_at) "
            "VALUES (?, 'sylhet', ?, 'machine', 'draft', '[1]', ?, 1, ?)",
            (qid, MACHINE_TEXT, json.dumps(RETRIEVAL, ensure_ascii=False), now),
        )
    yield ws
    ws.close()


@pytest.fixture
def sync_bridge(qtbot):
    from widgets.common.task_bridge import SyncExecutor, TaskBridge

    errors: list[tuple[str, str]] = []
    bridge = TaskBridge(
        executor_factory=lambda lane: SyncExecutor(),
        show_error=lambda title, msg: errors.append((title, msg)),
    )
    bridge.errors = errors
    yield bridge
    bridge.shutdown()


@pytest.fixture
def threaded_bridge(qtbot):
    """The real bridge with its worker threads (jobs run beside the GUI thread)."""
    from PySide6.QtWidgets import QApplication

    from widgets.common.task_bridge import TaskBridge

    errors: list[tuple[str, str]] = []
    bridge = TaskBridge(show_error=lambda title, msg: errors.append((title, msg)))
    bridge.errors = errors
    yield bridge
    # a cancelled job may still be returning: none may reach the next test's widgets
    bridge.shutdown(wait=True)
    QApplication.processEvents()  # results queued before the shutdown are dropped here, not later


@pytest.fixture(autouse=True)
def qt_locale_follows_the_language():
    """A Bengali window sets Qt's default locale (Bengali digits in spin boxes and progress
    bars); the tests after it, back in English, get the system's again."""
    yield
    from widgets.common.qt_translations import apply_interface_locale

    apply_interface_locale()

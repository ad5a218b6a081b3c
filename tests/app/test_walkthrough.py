"""The GUI-only walkthrough (scripts/walkthrough.py) offscreen: a fresh config, no workspace,
then every step a new user takes through the window's widgets, with the workspace checked
after each step. Uses every fifth row of the real Vashantor corpus (all its splits and
dialects; encoding the whole corpus for the index is the retrieval tests' and benches'
business, and most of this test's time) and the embedded model."""

from __future__ import annotations

import csv
from collections import Counter

import pytest

from tests.app.scripts_loading import gui_driving, load_script

# Qt's offscreen platform warns on every top-level show and raise; nothing about our code.
pytestmark = [
    pytest.mark.slow,
    pytest.mark.qt_log_ignore(
        "This plugin does not support propagateSizeHints", "This plugin does not support raise"
    ),
]

EVERY = 5  # every fifth row of the corpus
SAMPLE_QUESTIONS = 40


def every_fifth_row(corpus, out):
    """The corpus's header and every fifth row, as the same CSV; its rows per split."""
    with corpus.open(encoding="utf-8", newline="") as src:
        rows = list(csv.DictReader(src))
    kept = rows[::EVERY]
    with out.open("w", encoding="utf-8", newline="") as dst:
        writer = csv.DictWriter(dst, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(kept)
    return Counter(row["vashantor_split"] for row in kept)


@pytest.fixture
def walk(qapp, qtbot, shared_data, embedded_gguf, tmp_path):
    walkthrough = load_script("walkthrough")
    corpus = shared_data / "vashantor" / "vashantor_multiway.csv"
    if not corpus.exists():
        pytest.skip(f"{corpus} is absent")
    cut = tmp_path / "corpus" / corpus.name
    cut.parent.mkdir()
    splits = every_fifth_row(corpus, cut)
    walk = walkthrough.start(
        tmp_path / "shots",
        tmp_path / "first study.sqlite",
        corpus=cut,
        config_dir=tmp_path / "config",
    )
    walk.module, walk.splits = walkthrough, splits
    yield walk
    gui_driving().finish(walk)


def test_a_new_user_runs_a_study_from_the_gui_alone(walk, tmp_path):
    w = walk.module
    steps = iter(w.STEPS)

    def run(name: str) -> None:
        step = next(steps)
        assert step.__name__ == name
        gui_driving().run_step(walk, step)
        assert walk.shots[-1].exists() and walk.shots[-1].stat().st_size > 10_000
        assert not walk.message_boxes

    run("step_welcome")
    assert walk.window.workspace is None

    run("step_new_workspace")
    assert walk.ws.path == tmp_path / "first study.sqlite" and walk.ws.path.exists()
    assert walk.count("SELECT count(*) FROM questions") == 0
    assert str(walk.ws.path.resolve()) in walk.window.settings.recent_workspaces

    run("step_import_corpus")
    assert walk.count("SELECT count(*) FROM sentence_pairs") == 5 * walk.splits.total()
    assert walk.count("SELECT count(DISTINCT dialect) FROM sentence_pairs") == 5
    train = walk.count("SELECT count(*) FROM sentence_pairs WHERE split = 'train'")
    assert train == 5 * walk.splits["train"] > 0
    assert walk.ws.query("SELECT name FROM corpora") == [{"name": "Vashantor"}]

    run("step_import_questions")
    assert walk.count("SELECT count(*) FROM questions") == SAMPLE_QUESTIONS
    assert (
        walk.count("SELECT count(*) FROM questions WHERE domain IS NULL OR question_type IS NULL")
        == 0
    )
    assert walk.count("SELECT count(*) FROM variants WHERE dialect != 'standard'") == 0

    run("step_add_model")
    assert walk.ws.query("SELECT kind, is_default FROM models") == [
        {"kind": "gguf", "is_default": 1}
    ]

    run("step_translate")
    drafts = walk.ws.query(
        "SELECT dialect, status, provenance, exemplar_ids FROM variants WHERE dialect != 'standard'"
    )
    assert len(drafts) == w.QUESTIONS_TO_TRANSLATE * len(w.DIALECTS)
    assert {d["dialect"] for d in drafts} == set(w.DIALECTS)
    assert {(d["status"], d["provenance"]) for d in drafts} == {("draft", "machine")}
    assert all(d["exemplar_ids"] not in (None, "", "[]") for d in drafts)

    run("step_review")
    gold = w.ACCEPTED_PER_DIALECT * len(w.DIALECTS)
    by_status = dict(
        walk.ws.conn.execute(
            "SELECT status, count(*) FROM variants WHERE dialect != 'standard' GROUP BY status"
        )
    )
    assert by_status == {"gold": gold, "draft": len(drafts) - gold}
    assert (
        walk.count(
            "SELECT count(*) FROM variant_history WHERE actor = ? AND new_status = 'gold'",
            (w.REVIEWER,),
        )
        == gold
    )

    run("step_generate")
    answers = walk.ws.query(
        "SELECT v.dialect, r.status FROM responses r JOIN runs u ON u.id = r.run_id "
        "JOIN variants v ON v.id = r.variant_id WHERE u.kind = 'answer'"
    )
    assert len([a for a in answers if a["dialect"] != "standard"]) == gold
    assert len([a for a in answers if a["dialect"] == "standard"]) == w.ACCEPTED_PER_DIALECT
    assert {a["status"] for a in answers} == {"done"}

    run("step_configure_judge")
    judge = walk.window.panels["judge"]
    assert judge.judge_model.currentData() == walk.ws.scalar(
        "SELECT id FROM models WHERE is_default = 1"
    )
    assert judge.item.count() == gold
    pair = judge.pairs[judge.item.currentIndex()]
    assert pair["dialect_question"] in judge.preview.toPlainText()

    run("step_run_judge")
    from engine.judging import store

    primary = store.primary_judge(walk.ws)
    assert primary is not None
    assert (
        walk.count(
            "SELECT count(*) FROM judgments WHERE run_id = ? AND final IS NOT NULL", (primary,)
        )
        == gold
    )

    run("step_charts")
    charts = walk.window.panels["charts"]
    assert charts.data["heatmap"]["n"] == gold
    assert charts.data["heatmap"]["table"]["rows"]
    groups = charts.data["dialects"]["groups"]
    assert {g["dialect"]: g["n"] for g in groups} == {
        code: w.ACCEPTED_PER_DIALECT for code in w.DIALECTS
    }

    run("step_answers")
    answers_panel = walk.window.panels["answers"]
    assert answers_panel.model.rowCount() == gold
    assert answers_panel.current_judgment() is not None
    assert answers_panel.detail.annotator.text() == w.REVIEWER  # typed once, in review
    assert [p.name for p in walk.shots] == [
        "01_welcome.png",
        "02_new_workspace.png",
        "03_import_corpus.png",
        "04_import_questions.png",
        "05_models.png",
        "06_translate.png",
        "07_review.png",
        "08_generate.png",
        "09_judge_configured.png",
        "10_judge_run.png",
        "11_charts_heatmap.png",
        "11_charts_dialects.png",
        "12_answers.png",
    ]

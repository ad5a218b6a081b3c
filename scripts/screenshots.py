"""Write a PNG of every panel and dialog of the workstation (run by scripts/screenshots.sh).

Builds a throw-away workspace: the real Vashantor corpus when ../shared/data is present
(else the bundled sample corpus), the bundled sample questions with their dialect
renderings, and the embedded model. Settings are never saved (a screenshot run must not
touch the user's configuration).
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
from importlib.resources import as_file, files
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # gui_driving sits beside this file
from gui_driving import settle  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
VASHANTOR = REPO.parent / "shared" / "data" / "vashantor" / "vashantor_multiway.csv"

log = logging.getLogger("screenshots")


def build_workspace(path: Path) -> str:
    from engine.importing.importers import import_corpus, import_questions
    from engine.llm.models.registry import ensure_embedded_default
    from engine.samples.workspace import _questions_with_dialect_columns
    from engine.workspace.store import Workspace

    sample = files("resources") / "sample"
    with (
        Workspace(path) as ws,
        as_file(sample / "questions.csv") as questions,
        as_file(sample / "questions_dialects.csv") as renderings,
        tempfile.TemporaryDirectory() as tmp,
    ):
        if VASHANTOR.exists():
            import_corpus(
                ws,
                VASHANTOR,
                fmt="wide",
                standard_col="bangla_speech",
                split_col="vashantor_split",
                name="Vashantor",
            )
            corpus = "Vashantor (real data)"
        else:
            with as_file(sample / "corpus.csv") as corpus_csv:
                import_corpus(ws, corpus_csv, name="sample corpus")
            corpus = "bundled sample corpus"
        merged = Path(tmp) / "sample questions.csv"
        _questions_with_dialect_columns(questions, renderings, merged)
        import_questions(ws, merged, name="sample questions")
        try:
            ensure_embedded_default(ws)
        except Exception as exc:  # screenshots still show everything else
            log.warning("embedded model not registered: %s", exc)
    return corpus


def translate_some(path: Path, questions: int, dialects: list[str]) -> None:
    """Real machine drafts with retrieval explanations: the embedded model, the real index."""
    from engine.llm.models.registry import default_model
    from engine.rag.build import ensure_index
    from engine.rag.encoder import Encoder
    from engine.rag.index import default_cache
    from engine.rag.retriever import Retriever
    from engine.translation.translate import translate_questions
    from engine.workspace.store import Workspace

    with Workspace(path) as ws:
        model = default_model(ws)
        if model is None:
            log.warning("no model: skipping machine translation")
            return
        encoder = Encoder(cache=default_cache(ws))
        index, _rebuilt = ensure_index(ws, encoder=encoder)
        summary = translate_questions(
            ws,
            Retriever(index, encoder),
            question_set="sample questions",
            dialects=dialects,
            model_row=model,
            limit=questions,
        )
        log.info("machine drafts: %s", summary.as_dict())


def add_study(path: Path) -> None:
    """Synthetic answers and judgments (labelled so) for the answers, judge and chart panels:
    the embedded model's Bengali answers would be nonsense, and a real run takes hours."""
    from engine.judging import store
    from engine.judging.rubric import load_rubric
    from engine.samples.study import add_synthetic_study
    from engine.workspace.store import Workspace

    with Workspace(path) as ws:
        add_synthetic_study(ws, models=5, seed=2)
        run = store.primary_judge(ws)
        rubric = load_rubric()
        for judgment, score in ws.conn.execute(
            "SELECT id, final FROM judgments WHERE run_id = ? AND gate = 'ok' "
            "AND confidence <= 3 LIMIT 3",
            (run,),
        ).fetchall():
            store.add_override(
                ws,
                judgment,
                annotator="রহিম (linguist)",
                reason="the dialect answer covers the same points",
                rubric=rubric,
                final=min(10.0, score + 2.5),
            )


def shoot(widget, out: Path, name: str, app) -> Path:
    settle(app)
    path = out / f"{name}.png"
    if not widget.grab().save(str(path)):
        raise SystemExit(f"could not write {path}")
    print(path)
    return path


def wait_until(app, done, seconds: float = 120) -> bool:
    for _ in range(int(seconds * 10)):
        if done():
            return True
        settle(app, 100)
    return done()


def shoot_study_dialogs(window, out: Path, app) -> None:
    """The GUI-only pipeline's dialogs: import (the Vashantor multiway file mapped and
    imported again, so the report shows every pair already present), translate, generate."""
    dialog = window.import_corpus_dialog()
    dialog.resize(760, dialog.sizeHint().height())
    if VASHANTOR.exists():
        dialog.set_path(VASHANTOR)
        dialog.name.setText("Vashantor")
    else:
        with as_file(files("resources") / "sample" / "corpus.csv") as corpus_csv:
            dialog.set_path(corpus_csv)
        dialog.name.setText("sample corpus")
    shoot(dialog, out, "17-import-corpus-mapped", app)
    dialog.start_import()
    wait_until(app, lambda: dialog.task is None)
    shoot(dialog, out, "18-import-corpus-report", app)
    window.import_questions_dialog()
    with as_file(files("resources") / "sample" / "questions.csv") as questions_csv:
        dialog.set_path(questions_csv)
    shoot(dialog, out, "19-import-questions", app)
    dialog.close()

    from widgets.common.dialog_parts import set_checked

    translate = window.translate_dialog()
    set_checked(translate.dialects, ["barishal", "mymensingh"])
    translate.limit.setValue(4)
    shoot(translate, out, "20-translate-dialog", app)
    # one question more than translate_some did: a real run, the rest resumes from its run
    set_checked(translate.dialects, ["barishal"])
    translate.limit.setValue(5)
    translate.start()
    wait_until(app, lambda: translate.task is None, 300)
    shoot(window, out, "21-translate-review", app)
    shoot(translate, out, "22-translate-finished", app)
    translate.close()
    generate = window.generate_dialog()
    set_checked(generate.dialects, ["barishal", "sylhet"])
    shoot(generate, out, "23-generate-dialog", app)
    generate.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("out", nargs="?", default=str(REPO / "out" / "screenshots"))
    parser.add_argument("--readme", help="also copy the review screenshot to this path")
    parser.add_argument(
        "--translate",
        type=int,
        default=4,
        metavar="N",
        help="machine-translate the first N questions into Barishal and "
        "Mymensingh with the embedded model (0: skip)",
    )
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")

    from PySide6.QtWidgets import QApplication

    from app.settings import Settings
    from widgets.common.fonts import register_qt_fonts
    from widgets.common.job_monitor import _demo_job
    from widgets.common.task_bridge import TaskBridge

    tmp = Path(tempfile.mkdtemp(prefix="upabhasha-shots-"))
    corpus = build_workspace(tmp / "study.sqlite")
    log.info("workspace with %s at %s", corpus, tmp / "study.sqlite")
    if args.translate:
        translate_some(tmp / "study.sqlite", args.translate, ["barishal", "mymensingh"])
    add_study(tmp / "study.sqlite")

    app = QApplication(sys.argv[:1])
    register_qt_fonts(app)
    from app.main_window import MainWindow

    settings = Settings(reviewer_name="রহিম (linguist)")
    window = MainWindow(settings, save=lambda s: None)
    window.resize(1440, 880)
    window.show()
    shoot(window, out, "01-welcome", app)

    window.open_workspace(tmp / "study.sqlite")
    review = window.panels["review"]
    codes = review.model.codes
    review.select_cell(0, codes.index("barishal") if "barishal" in codes else 0)
    window.tabs.setCurrentWidget(review)
    review_png = shoot(window, out, "02-review", app)
    review.detail.avro_toggle.setChecked(True)
    review.detail.phonetic.setText("ki kotha koy")
    shoot(review, out, "03-review-avro", app)
    review.detail.avro_toggle.setChecked(False)

    models = window.panels["models"]
    window.tabs.setCurrentWidget(models)
    settle(app, 1500)  # the GPU probe loads llama.cpp in the background
    models.view.selectRow(0)
    shoot(window, out, "04-models", app)
    endpoint = models.add_endpoint_dialog()
    endpoint.name.setText("lab vLLM server")
    endpoint.base_urls.setText("http://10.0.0.5:8000/v1")
    endpoint.api_model.setText("Qwen/Qwen2.5-7B-Instruct")
    shoot(endpoint, out, "05-endpoint-dialog", app)
    endpoint.reject()

    bridge: TaskBridge = window.bridge
    bridge.run(_demo_job, args=(400,), label="demo: answer 400 questions")
    bridge.run(_demo_job, args=(60,), label="demo: translate 60 variants")
    window.show_panel("jobs")
    settle(app, 1200)
    window.job_monitor.view.selectRow(1)
    settle(app, 400)
    shoot(window, out, "06-jobs", app)
    bridge.cancel_all()

    dialog = window.show_shortcuts()
    shoot(dialog, out, "07-shortcuts", app)
    dialog.close()

    answers = window.panels["answers"]
    window.show_panel("answers")
    settle(app, 800)
    answers.dialect.setCurrentIndex(answers.dialect.findData("sylhet"))
    settle(app, 800)
    answers.select_row(min(4, answers.model.rowCount() - 1))
    shoot(window, out, "08-answers", app)

    judge = window.panels["judge"]
    window.show_panel("judge")
    judge.item.setCurrentIndex(min(3, judge.item.count() - 1))
    shoot(window, out, "09-judge", app)

    charts = window.panels["charts"]
    window.show_panel("charts")
    for number, kind in enumerate(
        ("heatmap", "dialects", "breakdown", "agreement", "distribution", "cbs"), start=10
    ):
        charts.show_chart(kind)
        settle(app, 300)
        deadline = 0
        while (kind not in charts.data or charts._in_flight) and deadline < 100:
            settle(app, 100)
            deadline += 1
        settle(app, 400)
        shoot(window, out, f"{number}-charts-{kind}", app)
    print(charts.export_image(out / "16-chart-export-dialects.png", "dialects"))

    shoot_study_dialogs(window, out, app)

    if args.readme:
        Path(args.readme).parent.mkdir(parents=True, exist_ok=True)
        Path(args.readme).write_bytes(review_png.read_bytes())
        print(args.readme)
    settle(app, 300)
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The engine part of ``upabhasha-gui --smoke-test``: every stage once, on a temporary workspace.

Each stage goes through the engine functions its CLI command calls, on the embedded model and
the bundled sample data, with the smallest inputs that still run the whole stage (one
question, one task item per script, one probe): paper 000's chain (embedded model, import,
retrieval index, RAG translation, answers, judgment, statistics, one chart), the HTML report,
a review package exported, opened and decided as an annotator does, and merged back; then
each stage's own steps, as the stage list declares them (app/cli/registry.py): an
understanding task run (native and Romanized script) and its statistics, a social-bias probe
run and its statistics. A frozen build that lacks a module, a data file or a library fails
here (``app.smoke_test`` reports it), not in a user's hands.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from functools import partial
from importlib.resources import as_file, files
from pathlib import Path

log = logging.getLogger(__name__)

SMOKE_DIALECT = "chittagong"
MAX_TOKENS = 16  # enough for a reply to parse or be classified as unparseable; keeps it fast


class SmokeFailure(Exception):
    """A pipeline step ran but produced the wrong result."""


class StepTimer:
    """Seconds per step, in the order they ran."""

    def __init__(self) -> None:
        self.steps: dict[str, float] = {}
        self._t = time.perf_counter()

    def done(self, step: str) -> None:
        now = time.perf_counter()
        self.steps[step] = round(now - self._t, 2)
        self._t = now


def run_pipeline(folder: Path) -> dict:
    """Every stage on a fresh workspace in ``folder``; returns what each produced."""
    from engine.llm.api import default_model, ensure_embedded_default
    from engine.workspace.api import Workspace

    timer = StepTimer()
    out: dict = {"steps_s": timer.steps}
    ws = Workspace(folder / "smoke.sqlite", create=True)
    try:
        ensure_embedded_default(ws)
        model = default_model(ws)
        if model is None:
            raise SmokeFailure("the embedded model was not made the workspace's default")
        out["model"] = {"name": model["name"], "path": model["path"]}
        timer.done("embedded_model")
        translation_chain(ws, model, folder, out, timer.done)
        out["report"] = html_report(ws, folder / "report")
        timer.done("html_report")
        out["review_package"] = review_package_round_trip(ws, folder / "smoke.upkg")
        timer.done("review_package")
        stage_steps(ws, model, out, timer.done)  # the task run, the probe run, …
    finally:
        ws.close()
    return out


def stage_steps(ws, model: dict, out: dict, done: Callable) -> None:
    """Each stage's own steps (app/cli/registry.py, ``smoke``), in stage order."""
    from app.cli.registry import smoke_steps

    for name, step in smoke_steps():
        out[name] = step(ws, model)
        done(name)


def translation_chain(ws, model: dict, folder: Path, out: dict, done: Callable) -> None:
    """Paper 000: import, index, translate one question, answer, judge, statistics, chart."""
    from engine.importing.api import import_corpus, import_questions

    sample = files("resources") / "sample"
    with as_file(sample / "corpus.csv") as corpus, as_file(sample / "questions.csv") as qs:
        import_corpus(ws, corpus, name="sample corpus")
        import_questions(ws, qs, name="sample questions")
    done("import")

    from engine.rag.api import open_retriever

    retriever, _ = open_retriever(ws, corpora=["sample corpus"], splits=["train", "test"])
    done("index")

    from engine.translation.api import machine_variants, translate_questions

    tr = translate_questions(
        ws,
        retriever,
        question_set="sample questions",
        dialects=[SMOKE_DIALECT],
        model_row=model,
        limit=1,
    )
    variant = machine_variants(ws, SMOKE_DIALECT)
    out["translation"] = {
        "written": tr.written,
        "errors": tr.errors,
        "text": variant[0]["text"] if variant else None,
    }
    if tr.written != 1 or not variant:
        raise SmokeFailure(f"translation wrote {tr.written} variants ({tr.errors} errors)")
    done("translate")

    from engine.translation.api import set_variant_status

    set_variant_status(
        ws,
        variant[0]["id"],
        "gold",
        actor="smoke test",
        comment="machine draft accepted by the smoke test",
    )
    from engine.answering.api import DEFAULT_SAMPLER, generate_answers
    from engine.llm.api import Sampler

    sampler = Sampler(
        **{**DEFAULT_SAMPLER.as_dict(), "max_tokens": 48, "stop": DEFAULT_SAMPLER.stop}
    )
    answers = generate_answers(ws, [model], sampler=sampler)
    out["answers"] = answers
    if not answers or not answers[0]["complete"] or answers[0]["errors"]:
        raise SmokeFailure(f"answer generation incomplete: {answers}")
    done("answer")

    from engine.judging import api as judging

    judged = judging.judge_answers(ws, model)
    judging.set_primary_judge(ws, judged.run_id)
    out["judgment"] = judged.as_dict()
    if judged.gated + judged.judged_now != 1 or judged.failed:
        raise SmokeFailure(f"judging did not produce one judgment: {judged.as_dict()}")
    if not judged.judged_now:
        # the gate zeroed the answer without the judge: ask the judge model anyway
        out["judge_verdict"] = _ask_judge(ws, model, judging.answer_pairs(ws)[0])
    done("judge")

    from engine.reports import api as reports

    stats = reports.study_statistics(ws, settings=reports.StudyStatsSettings(resamples=200))
    fig = reports.bars_with_ci(
        stats["groups"]["model_dialect"], "dialect", "smoke test: mean final score"
    )
    chart = reports.save_figure(fig, folder / "chart", "smoke")["png"]
    size = Path(chart).stat().st_size
    out["chart"] = {"png_bytes": size}
    if size < 1000:
        raise SmokeFailure(f"chart {chart} is only {size} bytes")
    done("chart")


def _ask_judge(ws, model: dict, pair: dict) -> dict:
    """One verdict from the judge model on ``pair``, built and parsed as a judge run does
    (fenced prompt, JSON-schema grammar, strict parser)."""
    from engine.judging.api import (
        build_judge_prompt,
        default_judge_sampler,
        load_judge_template,
        load_rubric,
        parse_verdict,
        verdict_schema,
    )
    from engine.llm.api import open_backend

    rubric = load_rubric()
    prompt = build_judge_prompt(
        load_judge_template(),
        rubric,
        standard_question=pair["standard_question"],
        standard_answer=pair["standard_answer"],
        dialect_question=pair["dialect_question"],
        dialect_answer=pair["dialect_answer"],
        dialect_name=pair["dialect_name"],
    )
    request = prompt.request("smoke-judge", default_judge_sampler(rubric), verdict_schema(rubric))
    backend = open_backend(model)
    try:
        results = list(backend.generate([request]))
    finally:
        backend.close()
    if not results or results[0].error:
        raise SmokeFailure(f"the judge model gave no reply: {results}")
    verdict = parse_verdict(results[0].text, rubric)
    return {"scores": verdict.scores, "confidence": verdict.confidence}


def html_report(ws, out_dir: Path) -> dict:
    """The study report (``upabhasha report``): HTML with its charts (Jinja2, matplotlib)."""
    from app.cli.hints import cli_words
    from engine.reports.api import StudyStatsSettings, write_report

    written = write_report(ws, out_dir, settings=StudyStatsSettings(resamples=200), words=cli_words)
    page = out_dir / "report.html"
    size = page.stat().st_size if page.is_file() else 0
    if size < 1000:
        raise SmokeFailure(f"the HTML report {page} is missing or only {size} bytes")
    return {"html_bytes": size, "files": len(list(out_dir.rglob("*"))), "keys": sorted(written)}


def review_package_round_trip(ws, path: Path) -> dict:
    """Field annotation: assign the machine variant, export one annotator's package, open it
    as the annotator's machine does and record a decision, merge it back (then again:
    idempotent)."""
    from engine.annotation.api import (
        PackageQueue,
        add_annotator,
        assign,
        export_package,
        import_package,
    )

    annotators = ["smoke annotator A", "smoke annotator B"]
    for name in annotators:
        add_annotator(ws, name, [SMOKE_DIALECT])
    batch = assign(ws, "smoke batch", "variant", annotators, overlap=1.0, seed=0)
    export_package(ws, annotators[0], path)
    package = PackageQueue(path)  # as the annotator's app opens it, with no workspace
    queue = package.queue(annotators[0])
    if not queue:
        raise SmokeFailure(f"the review package {path} holds no items (batch: {batch})")
    package.record(queue[0]["item_id"], annotators[0], "accept", score=4)
    merged = import_package(ws, path)
    again = import_package(ws, path)
    if merged["new"] != 1 or again["new"] != 0:
        raise SmokeFailure(f"merging the package gave {merged}, then {again}")
    return {"items": len(queue), "merged": merged["new"], "merged_again": again["new"]}


def task_run(ws, model: dict) -> dict:
    """Paper 001: import the sample task items, run dialect-to-standard (native and
    Romanized: indic_transliteration) and subjectivity on one item each, then task-stats
    (sacrebleu, rouge_score, scikit-learn)."""
    from engine.understanding.api import (
        TaskStatsSettings,
        get_task,
        import_items,
        run_task,
        task_stats,
    )

    with as_file(files("resources") / "sample" / "task_items.csv") as items_csv:
        imported = import_items(
            ws,
            items_csv,
            standard_cols=["standard"],
            english_cols=["english"],
            label_col="subjectivity",
        )
    run_one_item = partial(
        run_task,
        ws,
        source=f"items:{imported.name}",
        dialects=[SMOKE_DIALECT],
        limit=1,
        max_tokens=MAX_TOKENS,
    )
    runs = run_one_item(get_task("dialect-to-standard"), [model], scripts=("native", "roman"))
    runs += run_one_item(get_task("subjectivity"), [model])
    if len(runs) != 3 or not all(r["complete"] for r in runs):
        raise SmokeFailure(f"task runs incomplete: {runs}")
    stats = task_stats(ws, settings=TaskStatsSettings(resamples=200))
    scored = {(r["task"], r["script"]): sorted(r["macro"]) for r in stats["runs"]}
    if len(scored) != 3:
        raise SmokeFailure(f"task-stats scored {sorted(scored)}, not the 3 runs")
    return {"runs": len(runs), "metrics": {f"{t}/{s}": m for (t, s), m in scored.items()}}


def probe_run(ws, model: dict) -> dict:
    """Social bias: import the sample probes, probe the model once, then bias-stats."""
    from engine.bias.api import (
        DEFAULT_SAMPLER,
        BiasStatsSettings,
        ProbeOptions,
        bias_statistics,
        import_probes,
        run_probes,
    )
    from engine.llm.api import Sampler

    with as_file(files("resources") / "sample" / "probes_gender.csv") as probes_csv:
        imported = import_probes(ws, probes_csv, name="smoke probes")
    sampler = Sampler(
        **{**DEFAULT_SAMPLER.as_dict(), "max_tokens": MAX_TOKENS, "stop": DEFAULT_SAMPLER.stop}
    )
    runs = run_probes(ws, [model], [imported.name], options=ProbeOptions(sampler=sampler), limit=1)
    if len(runs) != 1 or not runs[0]["complete"] or runs[0]["errors"]:
        raise SmokeFailure(f"probe run incomplete: {runs}")
    stats = bias_statistics(ws, BiasStatsSettings(resamples=200))
    if stats["n_replies"] != 1 or not stats["groups"]:
        raise SmokeFailure(f"bias-stats counted {stats['n_replies']} replies, not 1")
    return {"replies": stats["n_replies"], "groups": len(stats["groups"])}

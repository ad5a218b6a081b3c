"""GUI responsiveness at the paper's scale: main-thread stalls and chart refresh time.

Builds a synthetic workspace (19 models × 4,000 variants = 400 questions × standard + 9
dialects: 76,000 responses; 68,395 primary-judge judgments, a secondary judge on a quarter
of them), holds back a share of the primary judge's verdicts, opens the charts panel and
the answers panel side by side with the real task bridge, and streams the held-back
verdicts in from a background task (the SQLite writer lane) as a judge run would. A 5 ms
heartbeat QTimer on the GUI thread measures stalls (lateness of each tick) while the
panels update live; the visible chart changes every few seconds so every chart's live
refresh (request → data computed and rendered in a worker → painted) is timed.

``--scale N`` multiplies the study by N (the questions, so the responses and judgments; the
models stay 19): ``--scale 10`` is 760,000 responses and 683,950 primary judgments. The
streaming phase keeps its length and pace at every scale (a judge writes as fast whatever
the study's size): the held-back share is divided by N. The panels share one workspace
watcher, as in the main window; ``window_shown_ms`` times the real main window opening the
workspace until its first paint.

``first_view_ms`` times the two panels created on the workspace until the heatmap's data
and the answers' ids are in; ``first_view_parts_ms`` says what it waited for (each part
timed where it ran: the panels' constructors on the GUI thread, the first screenful's ids,
the heatmap's numbers and drawing in the workers, the slowest workspace open — its migration
check — among the tasks; and, after it, when the answers' whole list was in). ``--growth 1,10,100`` runs the bench once per scale, each in a fresh
process, and prints the figures side by side with their growth against the first scale.

``--quick`` keeps the full data scale and shortens the streaming phase (and says so).
Last line: one JSON object, ``{"stall_p99_ms": …, "refresh_ms": …, "responses": …,
"judgments": …, …}``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

HEARTBEAT_MS = 5
QUESTIONS, MODELS, MISSING = 400, 19, 5


def build(path: Path, hold_back: float, scale: int = 1) -> dict:
    from engine.samples.study import add_synthetic_questions, add_synthetic_study
    from engine.workspace.schema import DIALECTS
    from engine.workspace.store import Workspace

    started = time.perf_counter()
    with Workspace(path) as ws:
        add_synthetic_questions(
            ws, QUESTIONS * scale, [d[0] for d in DIALECTS if d[0] != "standard"]
        )
        study = add_synthetic_study(
            ws,
            models=MODELS,
            missing=MISSING * scale,
            secondary_share=0.25,
            hold_back=hold_back,
            seed=0,
        )
        variants = ws.scalar("SELECT count(*) FROM variants")
    return {"study": study, "variants": variants, "build_s": time.perf_counter() - started}


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def main_window_shown_ms(path: Path, wait_until) -> float:
    """The real main window opening the workspace: from the click to its first paint."""
    from PySide6.QtWidgets import QApplication

    from app.main_window import MainWindow
    from app.settings import Settings
    from widgets.common.task_bridge import TaskBridge

    app = QApplication.instance()
    bridge = TaskBridge(show_error=lambda title, msg: print(f"{title}: {msg}", file=sys.stderr))
    window = MainWindow(Settings(), bridge=bridge, save=lambda settings: None)
    window.show()
    app.processEvents()
    started = time.perf_counter()
    window.open_workspace(path)
    window.repaint()  # painted: the tabs and the first panel are on screen
    app.processEvents()
    shown = (time.perf_counter() - started) * 1000
    # its panels' own look-ups too (quiet tasks: a filter, the charts' preparation)
    wait_until(lambda: not any(task.running for task in bridge._tasks.values()), 60)
    window.close()  # cancels what its panels started
    bridge.shutdown()
    return shown


GROWTH_FIGURES = (
    "first_view_ms",
    "stall_p99_ms",
    "full_refresh_median_ms",
    "refresh_ms",
    "window_shown_ms",
    "build_s",
    "workspace_bytes",
    "max_rss_mb",
)


def growth(scales: list[int], quick: bool) -> dict:
    """The bench once per scale, each in a fresh process (a first view that imports what it
    needs), side by side, and each figure's growth against the first scale."""
    runs: dict[int, dict] = {}
    for scale in scales:
        command = [sys.executable, __file__, "--scale", str(scale)] + (["--quick"] if quick else [])
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        lines = done.stdout.strip().splitlines()
        runs[scale] = (
            json.loads(lines[-1])
            if done.returncode == 0 and lines
            else {"error": (done.stderr.strip().splitlines() or ["no output"])[-1]}
        )
        print(json.dumps({"scale": scale, **runs[scale]}), flush=True)
    base = runs[scales[0]]

    def ratio(value, first):
        return round(value / first, 2) if value is not None and first else None

    return {
        "scales": scales,
        "quick": quick,
        "responses": [runs[s].get("responses") for s in scales],
        "by_scale": {f: [runs[s].get(f) for s in scales] for f in GROWTH_FIGURES},
        "growth": {f: [ratio(runs[s].get(f), base.get(f)) for s in scales] for f in GROWTH_FIGURES},
        "first_view_parts_ms": [runs[s].get("first_view_parts_ms") for s in scales],
        "load_average": [runs[s].get("load_average") for s in scales],
        "errors": {s: runs[s]["error"] for s in scales if "error" in runs[s]},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="same data scale, a shorter streaming phase"
    )
    parser.add_argument(
        "--gil-switch-ms",
        type=float,
        default=None,
        help="Python's GIL switch interval during the run (default: Python's, 5 ms)",
    )
    parser.add_argument(
        "--scale", type=int, default=1, help="multiply the study by N (default 1: the paper's)"
    )
    parser.add_argument(
        "--growth",
        default=None,
        help="comma-separated scales (e.g. 1,10,100): the bench at each, and the growth",
    )
    args = parser.parse_args(argv)
    if args.scale < 1:
        parser.error("--scale must be 1 or more")
    if args.growth:
        scales = [int(s) for s in args.growth.split(",")]
        if any(s < 1 for s in scales):
            parser.error("--growth takes scales of 1 or more")
        print(json.dumps(growth(scales, args.quick)))
        return 0
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    hold_back = (0.12 if args.quick else 0.3) / args.scale
    batch, pause_s = 100, 0.1
    switch_every_s = 1.5 if args.quick else 3.0

    tmp = Path(tempfile.mkdtemp(prefix="upabhasha-gui-bench-"))
    built = build(tmp / "bench.sqlite", hold_back, args.scale)
    study = built["study"]

    import functools

    from PySide6.QtCore import QElapsedTimer, QEventLoop, Qt, QTimer
    from PySide6.QtWidgets import QApplication, QSplitter

    import engine.reports.api as reports_api
    import engine.reports.chart_data as chart_module
    import widgets.judging.answers_panel as answers_module
    import widgets.reports.charts_panel as charts_module
    from app.gc_guard import GarbageCollector
    from engine.reports.chart_data import CHART_KINDS
    from engine.samples.study import stream_judgments
    from engine.workspace.store import Workspace
    from widgets.common.fonts import register_qt_fonts
    from widgets.common.task_bridge import WRITER, TaskBridge
    from widgets.common.workspace_watcher import WorkspaceWatcher
    from widgets.judging.answers_panel import AnswersPanel
    from widgets.reports.chart_renderer import ChartRenderer
    from widgets.reports.charts_panel import ChartsPanel

    worker_ms: dict[str, list[float]] = {}
    render_ms: dict[str, list[float]] = {}
    compute, render = chart_module.chart_data, ChartRenderer.render

    @functools.wraps(compute)
    def timed_chart_data(*a, **kw):  # the worker's share of a refresh: numbers ...
        t0 = time.perf_counter()
        try:
            return compute(*a, **kw)
        finally:
            worker_ms.setdefault(a[1], []).append((time.perf_counter() - t0) * 1000)

    @functools.wraps(render)
    def timed_render(self, data, *a, **kw):  # ... and the picture
        t0 = time.perf_counter()
        try:
            return render(self, data, *a, **kw)
        finally:
            render_ms.setdefault(data["kind"], []).append((time.perf_counter() - t0) * 1000)

    chart_module.chart_data = reports_api.chart_data = timed_chart_data
    ChartRenderer.render = timed_render

    part_ms: dict[str, list[float]] = {}  # what the first view waits for, timed where it runs

    def timing(owner, name: str, part: str, limited_part: str = "") -> None:
        """``limited_part``: the part a call with a ``limit`` times (a screenful). Code
        without ``name`` (an older commit, to compare) leaves the part out."""
        function = getattr(owner, name, None)
        if function is None:
            return

        @functools.wraps(function)
        def timed(*a, **kw):
            t0 = time.perf_counter()
            try:
                return function(*a, **kw)
            finally:
                key = limited_part if limited_part and kw.get("limit") else part
                part_ms.setdefault(key, []).append((time.perf_counter() - t0) * 1000)

        setattr(owner, name, timed)

    timing(answers_module, "answer_id_array", "answer_ids_whole", "answer_ids_screenful")
    timing(charts_module, "prepare_charts", "charts_prepared")
    timing(Workspace, "__init__", "workspace_open")

    app = QApplication(sys.argv[:1])
    register_qt_fonts(app)
    collector = GarbageCollector(app)
    bridge = TaskBridge(
        app, show_error=lambda title, msg: print(f"{title}: {msg}", file=sys.stderr)
    )
    ws = Workspace(tmp / "bench.sqlite", create=False)

    def wait_until(predicate, timeout_s: float) -> bool:
        deadline = time.perf_counter() + timeout_s
        while not predicate() and time.perf_counter() < deadline:
            loop = QEventLoop()
            QTimer.singleShot(20, loop.quit)
            loop.exec()
        return predicate()

    window_shown_ms = main_window_shown_ms(tmp / "bench.sqlite", wait_until)
    window_prepared_ms = sum(part_ms.get("charts_prepared", []))  # matplotlib's import
    part_ms.clear()
    worker_ms.clear()
    render_ms.clear()
    if args.gil_switch_ms is not None:  # e.g. 5: Python's default, to compare
        sys.setswitchinterval(args.gil_switch_ms / 1000)

    opened = time.perf_counter()
    window = QSplitter(Qt.Orientation.Horizontal)
    watcher = WorkspaceWatcher(ws.path, parent=window)
    charts = ChartsPanel(ws, bridge, watcher=watcher)
    answers = AnswersPanel(ws, bridge, watcher=watcher)
    window.addWidget(charts)
    window.addWidget(answers)
    window.resize(1800, 900)
    window.show()
    built_ms = (time.perf_counter() - opened) * 1000
    ready_ms: dict[str, float] = {}

    def ready(part: str, done: bool) -> bool:
        if done and part not in ready_ms:
            ready_ms[part] = (time.perf_counter() - opened) * 1000
        return done

    # the whole list after its first screenful (the first view waits for the screenful)
    answers.sig_filtered.connect(lambda _n: ready("answers_complete", True))
    refreshes: list[tuple[str, float, bool]] = []
    charts.sig_refreshed.connect(lambda kind, ms, full: refreshes.append((kind, ms, full)))
    wait_until(
        lambda: (
            ready("heatmap_ready", "heatmap" in charts.data)
            & ready("answers_listed", bool(answers.model.ids))
        ),
        120,
    )
    first_view_ms = (time.perf_counter() - opened) * 1000

    def first(values: list[float] | None) -> float | None:
        return round(values[0]) if values else None

    first_view_parts = {
        "panels_built": round(built_ms),
        "workspace_open_max": round(max(part_ms.get("workspace_open", [0.0]))),
        "charts_prepared": first(part_ms.get("charts_prepared")),
        "heatmap_data": first(worker_ms.get("heatmap")),
        "heatmap_render": first(render_ms.get("heatmap")),
        "heatmap_ready": round(ready_ms["heatmap_ready"]),
        "answer_ids_screenful": first(part_ms.get("answer_ids_screenful")),
        "answers_listed": round(ready_ms["answers_listed"]),
    }
    for kind in CHART_KINDS[1:] + ("heatmap",):  # every chart computed once (scipy loaded)
        charts.show_chart(kind)
        wait_until(lambda k=kind: k in charts.data and not charts._in_flight, 120)
    wait_until(lambda: "answers_complete" in ready_ms, 120)
    first_view_parts["answer_ids_whole"] = first(part_ms.get("answer_ids_whole"))
    first_view_parts["answers_complete"] = round(ready_ms.get("answers_complete", -1))
    initial_rows = charts.data["heatmap"]["n"]  # judged items (the answers are all listed)
    refreshes.clear()
    worker_ms.clear()
    render_ms.clear()

    ticks: list[float] = []
    clock = QElapsedTimer()
    heartbeat = QTimer()
    heartbeat.setTimerType(Qt.TimerType.PreciseTimer)
    heartbeat.setInterval(HEARTBEAT_MS)
    heartbeat.timeout.connect(lambda: ticks.append(clock.nsecsElapsed() / 1e6))
    # watch the heatmap first, then visit every chart (a switch recomputes it in full)
    kinds = iter(("heatmap",) + CHART_KINDS[1:] + CHART_KINDS)
    switcher = QTimer()
    switcher.setInterval(int(switch_every_s * 1000))
    switcher.timeout.connect(lambda: charts.show_chart(next(kinds, "heatmap")))

    held = study.held_back
    primary = study.judge_runs[0]
    clock.start()
    heartbeat.start()
    switcher.start()
    streaming = bridge.run(
        stream_judgments,
        args=(str(ws.path), primary, held),
        kwargs={"batch": batch, "pause_s": pause_s},
        label="stream judgments",
        lane=WRITER,
    )
    wait_until(lambda: not streaming.running, 600)
    stream_s = streaming.elapsed_s
    # keep measuring while the panels catch up with the last batch
    expected = initial_rows + len(held)
    last_answer = held[-1]["response_id"]  # listed from the start; its verdict came last
    caught_up = wait_until(
        lambda: answers.select_answer(last_answer) and answers.current_judgment() is not None, 30
    )
    switcher.stop()
    charts.show_chart("heatmap")
    heatmap_done = wait_until(
        lambda: charts.data.get("heatmap", {}).get("n") == expected and not charts._in_flight, 30
    )
    heartbeat.stop()

    intervals = [b - a for a, b in zip(ticks, ticks[1:])]
    stalls = [max(0.0, i - HEARTBEAT_MS) for i in intervals]
    live = [ms for _kind, ms, full in refreshes if not full]
    by_chart = {
        k: round(statistics.median(v), 1)
        for k in CHART_KINDS
        if (v := [ms for kind, ms, full in refreshes if kind == k and not full])
    }
    full_refreshes = [ms for _kind, ms, full in refreshes if full]

    judgments = ws.scalar("SELECT count(*) FROM judgments WHERE run_id = ?", (primary,))
    responses = ws.scalar("SELECT count(*) FROM responses")
    result = {
        "stall_p99_ms": round(percentile(stalls, 99), 1),
        "refresh_ms": round(statistics.median(live), 1) if live else None,
        "responses": responses,
        "judgments": judgments,
        "scale": args.scale,
        "quick": bool(args.quick),
        "models": MODELS,
        "variants": built["variants"],
        "secondary_judgments": ws.scalar(
            "SELECT count(*) FROM judgments WHERE run_id = ?", (study.judge_runs[1],)
        ),
        "streamed_judgments": len(held),
        "stream_s": round(stream_s, 1),
        "heartbeats": len(ticks),
        "stall_p50_ms": round(percentile(stalls, 50), 1),
        "stall_p999_ms": round(percentile(stalls, 99.9), 1),
        "stall_max_ms": round(max(stalls, default=0.0), 1),
        "stalls_over_50ms": sum(s > 50 for s in stalls),
        "live_refreshes": len(live),
        "refresh_p90_ms": round(percentile(live, 90), 1),
        "full_refreshes": len(full_refreshes),
        "full_refresh_median_ms": round(statistics.median(full_refreshes), 1)
        if full_refreshes
        else None,
        "refresh_median_by_chart_ms": by_chart,
        "compute_median_by_chart_ms": {
            k: round(statistics.median(v), 1) for k, v in worker_ms.items()
        },
        "render_median_by_chart_ms": {
            k: round(statistics.median(v), 1) for k, v in render_ms.items()
        },
        "blitted_renders": charts.renderer.blits,
        "gc_full_collections": collector.full_collections,
        "first_view_ms": round(first_view_ms),
        "first_view_parts_ms": first_view_parts,
        "window_prepared_charts_ms": round(window_prepared_ms),
        "window_shown_ms": round(window_shown_ms),
        "watcher_polls": watcher.tracker.polls,
        "watcher_stamp_reads": watcher.tracker.reads,
        "build_s": round(built["build_s"], 1),
        "live_complete": bool(caught_up and heatmap_done),
        "cpus": os.cpu_count(),
        "load_average": [round(v, 1) for v in os.getloadavg()],  # a shared machine says so
        "gil_switch_interval_ms": round(sys.getswitchinterval() * 1000, 2),
        "goals": {
            "stall_p99_ms": 16,
            "refresh_ms": 150,
            "full_refresh_median_ms": 1000,
            "first_view_ms": 1000,
            "window_shown_ms": 2000,
        },
    }
    bridge.shutdown()
    window.close()
    ws.close()
    result["workspace_bytes"] = sum(f.stat().st_size for f in tmp.iterdir())
    result["max_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    shutil.rmtree(tmp, ignore_errors=True)  # ×10 is a 700 MB workspace
    del collector
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())

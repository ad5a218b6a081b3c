"""Charts rendered off the GUI thread: the renderer's blitted live update equals a full draw,
it refuses a second thread, the view maps the mouse to data coordinates, and the panel renders
again at a new size."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from PySide6.QtCore import QPoint

from engine.judging import store
from engine.reports import chart_data
from engine.samples import study as sample_study
from tests.widgets.study_fixtures import fast_watcher, study_db, study_ws  # noqa: F401 (fixtures)
from widgets.reports.chart_renderer import AxesBox, ChartRenderer, RenderedChart
from widgets.reports.chart_view import ChartView
from widgets.reports.charts_panel import ChartsPanel


def many_cells(data: dict, models: int = 40) -> dict:
    """The study's heatmap widened to more cells than carry value labels (as at the paper's
    scale), with scores that differ per model."""
    cells = []
    for m in range(models):
        for c in data["cells"]:
            if c["model"] == data["cells"][0]["model"]:
                cells.append({**c, "model": f"model {m:02d}", "mean": (c["mean"] + m) % 10})
    return {**data, "cells": cells}


def pixels(rendered: RenderedChart) -> np.ndarray:
    return np.frombuffer(rendered.rgba, dtype=np.uint8).reshape(rendered.height, rendered.width, 4)


def test_live_heatmap_update_is_blitted_and_matches_a_full_draw(study_db):
    data = many_cells(chart_data.chart_data(str(study_db), "heatmap"))
    later = {**data, "cells": [{**c, "mean": 10 - c["mean"]} for c in data["cells"]]}
    renderer = ChartRenderer()
    first = renderer.render(data, (900, 500))
    live = renderer.render(later, (900, 500))
    fresh = ChartRenderer().render(later, (900, 500))
    assert not first.blitted and live.blitted and renderer.blits == 1
    assert (live.width, live.height) == (900, 500) and len(live.rgba) == 900 * 500 * 4
    changed = np.any(pixels(live) != pixels(first), axis=2).mean()
    differs = np.any(pixels(live) != pixels(fresh), axis=2).mean()
    assert changed > 0.2  # the colours did change ...
    assert differs < 0.01  # ... to what a full draw shows (spine edges aside)


def test_new_size_or_new_layout_draws_in_full(study_db):
    data = chart_data.chart_data(str(study_db), "dialects", resamples=200)
    renderer = ChartRenderer()
    renderer.render(data, (800, 500))
    again = renderer.render(data, (1000, 600), 2.0)
    assert not again.blitted and (again.width, again.height) == (1000, 600)
    assert renderer.figure("dialects").dpi == 200
    box = again.axes
    assert 0 < box.x0 < box.x1 < 1000 and 0 < box.y0 < box.y1 < 600
    assert box.ylim[0] == 0.0 and box.ylim[1] >= 10.0


@pytest.mark.parametrize("kind", ["dialects", "breakdown", "distribution"])
def test_live_update_of_a_framed_chart_redraws_its_values_only(study_ws, kind):
    path, run = str(study_ws.path), store.primary_judge(study_ws)
    _run, rows = sample_study.add_answer_model(study_ws, "synthetic model blit", seed=6)
    before = chart_data.chart_data(path, kind, resamples=200)
    sample_study.stream_judgments(path, run, rows, pause_s=0)
    after = chart_data.chart_data(path, kind, resamples=200, previous=before)
    renderer = ChartRenderer()
    first = renderer.render(before, (900, 500))
    live = renderer.render(after, (900, 500))
    fresh = ChartRenderer().render(after, (900, 500))
    assert live.blitted and not first.blitted
    changed = np.any(pixels(live) != pixels(first), axis=2).mean()
    differs = np.any(pixels(live) != pixels(fresh), axis=2).mean()
    assert changed > 0.001 and differs < 0.002, (changed, differs)
    figure = renderer.figure(kind)  # no artists pile up over many updates
    children = sum(len(ax.get_children()) for ax in figure.axes)
    renderer.render(after, (900, 500))
    assert sum(len(ax.get_children()) for ax in figure.axes) == children


def test_agreement_of_many_answers_is_a_density_grid_blitted_like_the_rest(study_db):
    """Past SCATTER_LIMIT points the agreement chart shows answers per cell; a live update
    within the same colour scale redraws only the grid, and it equals a full draw."""
    from widgets.reports.chart_drawing import SCATTER_LIMIT

    rng = np.random.default_rng(1)
    base = chart_data.chart_data(str(study_db), "agreement")

    def with_points(x: list, y: list) -> dict:
        return {**base, "x": x, "y": y, "n": len(x), "density": chart_data.score_density(x, y)}

    n = SCATTER_LIMIT + 500
    x = np.clip(rng.normal(6, 2, n), 0, 10).round(1).tolist()
    y = np.clip(np.asarray(x) + rng.normal(0, 1, n), 0, 10).round(1).tolist()
    first = with_points(x, y)
    later = with_points(x + [1.1] * 20, y + [8.9] * 20)  # 20 more judged, far off the diagonal
    assert sum(map(sum, later["density"])) == n + 20
    renderer = ChartRenderer()
    renderer.render(first, (900, 600))
    figure = renderer.figure("agreement")
    assert len(figure.axes) == 2 and figure.axes[0].images  # grid and its colour bar
    live = renderer.render(later, (900, 600))
    fresh = ChartRenderer().render(later, (900, 600))
    assert live.blitted
    assert np.any(pixels(live) != pixels(fresh), axis=2).mean() < 0.002


def test_cbs_update_redraws_its_bars_and_counts_over_the_frame(study_db):
    data = chart_data.chart_data(str(study_db), "cbs")
    later = {
        **data,
        "pairs": [{**p, "cbs": p["cbs"] * 0.8, "n": p["n"] + 7} for p in data["pairs"]],
    }
    renderer = ChartRenderer()
    first = renderer.render(data, (900, 500))
    live = renderer.render(later, (900, 500))
    fresh = ChartRenderer().render(later, (900, 500))
    assert live.blitted and not first.blitted
    assert np.any(pixels(live) != pixels(first), axis=2).mean() > 0.001
    assert np.any(pixels(live) != pixels(fresh), axis=2).mean() < 0.002


def test_a_renderer_refuses_a_second_thread(study_db):
    data = chart_data.chart_data(str(study_db), "heatmap")
    renderer = ChartRenderer()
    renderer.render(data, (400, 300))
    errors = []
    worker = threading.Thread(target=lambda: _capture(errors, renderer.render, data))
    worker.start()
    worker.join()
    assert errors and "second thread" in str(errors[0])


def _capture(errors: list, fn, *args) -> None:
    try:
        fn(*args)
    except RuntimeError as exc:
        errors.append(exc)


def test_view_turns_the_mouse_position_into_data_coordinates(qtbot):
    view = ChartView()
    qtbot.addWidget(view)
    view.resize(400, 200)
    view.show()
    rgba = bytes(400 * 200 * 4)
    # axes over the right half of the image, x 0..10, y 0..1 (pixels counted from below)
    view.set_image(
        RenderedChart(
            "heatmap",
            rgba,
            400,
            200,
            1.0,
            AxesBox(200, 0, 400, 200, (0.0, 10.0), (0.0, 1.0)),
            False,
        )
    )
    with qtbot.waitSignal(view.sig_hover, timeout=2000) as blocker:
        qtbot.mouseMove(view, QPoint(300, 50))
    x, y = blocker.args
    assert x == pytest.approx(5.0, abs=0.1) and y == pytest.approx(0.75, abs=0.01)
    assert view.fits()
    view.resize(500, 260)
    assert not view.fits()  # shown scaled until the new rendering arrives


def test_panel_renders_again_after_a_resize_and_shows_hover_values(
    qtbot, study_ws, sync_bridge, fast_watcher
):
    panel = ChartsPanel(study_ws, sync_bridge, watcher=fast_watcher)
    qtbot.addWidget(panel)
    panel.resize(1000, 600)
    with qtbot.waitSignal(panel.sig_refreshed, timeout=10000):
        panel.show()
    view = panel.views["heatmap"]
    assert view.fits()
    panel.resize(1200, 760)
    qtbot.waitUntil(
        lambda: view.fits() and view.rendered.width == view.pixel_size()[0], timeout=5000
    )
    box = view.rendered.axes
    x = (box.x0 + box.x1) / 2 / view.rendered.width * view.width()
    y = view.height() - (box.y0 + 2) / view.rendered.height * view.height()
    qtbot.mouseMove(view, QPoint(int(x), int(y)))
    qtbot.waitUntil(
        lambda: " · " in panel.info.text() and "mean" in panel.info.text(), timeout=2000
    )


def test_live_refresh_of_every_chart_kind_through_the_worker(
    qtbot, study_ws, sync_bridge, fast_watcher
):
    """Each chart's live update (a previous result, a few new judgments) renders."""
    panel = ChartsPanel(study_ws, sync_bridge, watcher=fast_watcher)
    qtbot.addWidget(panel)
    panel.resize(1000, 600)
    with qtbot.waitSignal(panel.sig_refreshed, timeout=10000):
        panel.show()
    _run, rows = sample_study.add_answer_model(study_ws, "synthetic model kinds", seed=5)
    chunks = np.array_split(np.arange(len(rows)), len(chart_data.CHART_KINDS))
    for kind, chunk in zip(chart_data.CHART_KINDS, chunks):
        if kind != panel.current_kind:
            with qtbot.waitSignal(
                panel.sig_refreshed,
                timeout=10000,
                check_params_cb=lambda k, _ms, _full, kind=kind: k == kind,
            ):
                panel.show_chart(kind)
        with qtbot.waitSignal(
            panel.sig_refreshed,
            timeout=10000,
            check_params_cb=lambda k, _ms, full, kind=kind: k == kind and not full,
        ):
            sample_study.stream_judgments(
                str(study_ws.path),
                store.primary_judge(study_ws),
                [rows[i] for i in chunk],
                pause_s=0,
            )
        assert panel.views[kind].rendered.kind == kind
        assert panel.data[kind]["n"] > 0

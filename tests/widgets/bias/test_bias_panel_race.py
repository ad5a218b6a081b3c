"""The panels' race in the Social bias panel: when a probe run ends, the view it shows counts
every reply of the run, though every read the panel started meanwhile (a watcher's tick) is
held back until after the run has ended and comes back last."""

from __future__ import annotations

import threading

from PySide6.QtCore import Qt

from engine.bias import run as bias_run
from engine.bias import tasks as bias_tasks
from engine.bias.sample import ScriptedReplies, build_bias_sample
from engine.bias.stats import BIAS_STATS
from engine.workspace.store import Workspace
from widgets.bias.bias_panel import BiasPanel


def test_the_view_when_a_probe_run_ends_counts_every_reply_though_reads_come_back_late(
    qtbot, tmp_path, monkeypatch, threaded_bridge
):
    ws = Workspace(build_bias_sample(tmp_path / "bias.sqlite"), create=False)
    hold = threading.Event()  # set: the panel's own reads are held back
    run_ended = threading.Event()  # the test saw the run end: held reads come back now
    job_thread: list[int] = []  # the probe job's worker: its own read is not held
    read_taken = threading.Event()  # a read of the panel was taken during the run
    held: list[int] = []  # the replies each held-back read counted
    real_view = bias_tasks.bias_view_at

    def held_back_view(path, rule=None, *, settings=BIAS_STATS):
        view = real_view(path, rule, settings=settings)
        if hold.is_set() and threading.get_ident() not in job_thread:
            held.append(view["responses"])
            read_taken.set()
            run_ended.wait(60)
        return view

    class PausingReplies(ScriptedReplies):
        def generate(self, requests, progress=None, cancelled=None):
            assert read_taken.wait(60)  # the run goes on once a read of the panel is taken
            yield from super().generate(requests, progress, cancelled)

    real_probes = bias_run.run_probes

    def scripted(ws, models, sets, **kw):
        job_thread.append(threading.get_ident())
        return real_probes(ws, models, sets, backend_factory=lambda w, r: PausingReplies(w), **kw)

    monkeypatch.setattr("engine.bias.request.run_probes", scripted)
    monkeypatch.setattr(bias_tasks, "bias_view_at", held_back_view)
    try:
        panel = BiasPanel(ws, threaded_bridge)
        qtbot.addWidget(panel)
        panel.show()
        qtbot.waitUntil(lambda: bool(panel.view), timeout=30_000)  # the first read shown
        assert panel.run_button.isEnabled()
        before = panel.view["responses"]
        # a run the sample lacks: constrained to the options, each probe in one order
        qtbot.mouseClick(panel.constrained, Qt.MouseButton.LeftButton)
        hold.set()
        qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
        assert not panel.run_button.isEnabled()
        panel.refresh()  # a read during the run (as the workspace watcher's tick)
        # the run's end, as a user sees it: Run probes can be clicked again
        qtbot.waitUntil(panel.run_button.isEnabled, timeout=60_000)
        stored = ws.scalar("SELECT count(*) FROM responses")
        assert stored > before and held and held[0] < stored
        assert panel.view["responses"] == stored  # the view read after the run's last write
        run_ids = [panel.runs.itemData(i) for i in range(panel.runs.count())]
        assert run_ids == [1, 2, "set:sample-gender"]
        # the held-back reads come back now and must not replace the newer view
        run_ended.set()
        qtbot.waitUntil(
            lambda: not any(t.running for t in threaded_bridge._tasks.values()), timeout=30_000
        )
        assert panel.view["responses"] == stored
        assert [panel.runs.itemData(i) for i in range(panel.runs.count())] == run_ids
        assert not threaded_bridge.errors
    finally:
        run_ended.set()
        read_taken.set()
        ws.close()

"""Every interval of eval-metrics names its method, level, resamples and seed: in the CLI
text, in the JSON, and in the Metrics panel beside the same correlation table."""

from __future__ import annotations

import json

from app.cli import main
from tests.widgets.translation.test_metrics_panel import scored_ws  # noqa: F401 (fixture)
from widgets.translation.metrics_panel import MetricsPanel


def test_intervals_say_what_they_are(qtbot, scored_ws, sync_bridge, capsys):
    ws = ["-w", str(scored_ws.path)]
    capsys.readouterr()
    assert main([*ws, "eval-metrics", "scored", "--bootstrap", "100", "--seed", "7"]) == 0
    text = capsys.readouterr().out
    assert "intervals: 95% percentile bootstrap over items" in text
    assert "100 resamples, seed 7" in text
    assert main([*ws, "eval-metrics", "scored", "--bootstrap", "0"]) == 0
    assert "intervals: none (--bootstrap 0)" in capsys.readouterr().out
    assert main([*ws, "eval-metrics", "scored", "--bootstrap", "100", "--json"]) == 0
    boot = json.loads(capsys.readouterr().out)["bootstrap"]
    assert boot["method"] == "percentile bootstrap" and boot["level"] == 0.95
    panel = MetricsPanel(scored_ws, sync_bridge)
    qtbot.addWidget(panel)
    panel.bootstrap.setValue(100)
    panel.evaluate()
    assert not sync_bridge.errors
    note = panel.signatures.text()
    assert "95% percentile bootstrap" in note and "100 resamples, seed 0" in note

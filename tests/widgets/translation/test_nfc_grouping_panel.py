"""The Metrics panel's copy baseline on a raw-imported corpus scored nfc shows an NFC
import's n, through the same query the CLI prints (tests/cli/test_cli_nfc_grouping.py)."""

from __future__ import annotations

from tests.cli.test_cli_nfc_grouping import _baseline, _import, sylhet_slice  # noqa: F401


def test_the_metrics_panel_baseline_reads_the_same_grouping(
    qtbot, sylhet_slice, tmp_path, capsys, sync_bridge
):
    from engine.workspace.store import Workspace
    from widgets.translation.metrics_panel import MetricsPanel

    raw_ws, nfc_ws = tmp_path / "raw.sqlite", tmp_path / "nfc.sqlite"
    _import(raw_ws, sylhet_slice, "none")
    _import(nfc_ws, sylhet_slice, "nfc")
    nfc_rows, _ = _baseline(nfc_ws, capsys)
    ws = Workspace(raw_ws)
    try:
        panel = MetricsPanel(ws, sync_bridge)
        qtbot.addWidget(panel)
        panel.baseline_normalize.setCurrentIndex(panel.baseline_normalize.findData("nfc"))
        panel.baseline_button.click()
        assert not sync_bridge.errors
        table = panel.baseline
        shown = {table.item(i, 1).text(): i for i in range(table.rowCount())}
        backward = shown["dialect-to-standard"]
        assert table.item(backward, 3).text() == str(nfc_rows["dialect-to-standard"]["n"])
        assert "norm:nfc" in panel.baseline_note.text()
    finally:
        ws.close()

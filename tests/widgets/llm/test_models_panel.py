"""ModelsPanel: add a real GGUF (validated, hashed, registered), endpoints, keyring, GPU note."""

from __future__ import annotations

import json

import keyring
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent


def test_adding_the_real_gguf_registers_metadata_and_sha256(panel, ws, embedded_gguf, tmp_path):
    from engine.llm.models.embedded_model import embedded_sha256

    copy = tmp_path / "gemma-copy.gguf"
    copy.symlink_to(embedded_gguf)
    progress = []
    panel.bridge.sig_task_progress.connect(lambda t: progress.append((t.done, t.total)))
    changed = []
    panel.sig_changed.connect(lambda: changed.append(1))
    panel.add_gguf(copy)
    assert panel.bridge.errors == []
    row = ws.query("SELECT * FROM models WHERE name = 'gemma-copy'")[0]
    assert row["kind"] == "gguf" and row["architecture"] == "gemma3"
    assert row["sha256"] == embedded_sha256()
    assert row["quantization"] and row["context_length"] == 32768
    assert progress[-1][0] == progress[-1][1] == embedded_gguf.stat().st_size
    assert changed and panel.model.rowCount() == 1
    assert panel.model.data(panel.model.index(0, 0)) == "gemma-copy"


def test_adding_the_embedded_model_reports_its_steps(panel, ws, embedded_gguf, qtbot):
    progress = []
    panel.bridge.sig_task_progress.connect(lambda t: progress.append((t.done, t.total, t.note)))
    qtbot.mouseClick(panel.add_embedded_button, Qt.MouseButton.LeftButton)
    steps = [p[:2] for p in progress]  # throttled to 10 Hz: the first and last always come
    assert steps[0] == (0, 3) and steps[-1] == (3, 3) and steps == sorted(steps)  # not at 0 %
    assert progress[0][2] == "assembling the model file"
    assert ws.scalar("SELECT count(*) FROM models") == 1


def test_an_invalid_gguf_is_reported_and_not_added(panel, ws, tmp_path):
    bogus = tmp_path / "notes.gguf"
    bogus.write_text("this is not a model", encoding="utf-8")
    panel.add_gguf(bogus)
    assert ws.scalar("SELECT count(*) FROM models") == 0
    title, message = panel.bridge.errors[-1]
    assert "not a valid GGUF" in message or "GGUF" in message


def test_dropping_gguf_files_adds_them(panel, tmp_path, monkeypatch):
    added = []
    monkeypatch.setattr(panel, "add_gguf", added.append)
    mime = QMimeData()
    mime.setUrls(
        [
            QUrl.fromLocalFile(str(tmp_path / "a.gguf")),
            QUrl.fromLocalFile(str(tmp_path / "readme.txt")),
        ]
    )
    event = QDropEvent(
        QPointF(5, 5),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    panel.dropEvent(event)
    assert added == [str(tmp_path / "a.gguf")]


def test_endpoint_without_key(panel, ws):
    panel.add_endpoint("lab vLLM", ["http://10.0.0.5:8000/v1/"], "Qwen/Qwen2.5-7B-Instruct")
    row = ws.query("SELECT * FROM models WHERE kind = 'endpoint'")[0]
    assert row["name"] == "lab vLLM" and row["api_model"] == "Qwen/Qwen2.5-7B-Instruct"
    assert row["base_urls"] == '["http://10.0.0.5:8000"]'
    assert row["keyring_service"] is None


def test_endpoint_form_keeps_concurrency_and_the_default_flag(panel, ws, qtbot):
    """The form's parallel requests and default flag reach the row, as ``models add URL
    --concurrency N --default`` does (the GUI path used to drop both)."""
    dialog = panel.add_endpoint_dialog()
    dialog.name.setText("lab pool")
    dialog.base_urls.setText("http://10.0.0.5:8000/v1, http://10.0.0.6:8000")
    dialog.api_model.setText("Qwen/Qwen2.5-7B-Instruct")
    dialog.concurrency.setValue(8)
    dialog.is_default.setChecked(True)
    dialog.accept()
    row = ws.query("SELECT * FROM models WHERE name = 'lab pool'")[0]
    assert json.loads(row["load_params"]) == {"concurrency": 8}
    assert row["is_default"] == 1
    assert ws.scalar("SELECT count(*) FROM models WHERE is_default = 1") == 1
    assert json.loads(row["base_urls"]) == ["http://10.0.0.5:8000", "http://10.0.0.6:8000"]


def test_endpoint_key_goes_to_the_keyring_never_the_workspace(panel, ws, memory_keyring):
    panel.add_endpoint("hosted", ["https://api.example.org/v1"], "gpt-x", "sk-secret-123")
    row = ws.query("SELECT * FROM models WHERE name = 'hosted'")[0]
    assert row["keyring_service"] == "upabhasha:hosted"
    assert memory_keyring.store == {("upabhasha:hosted", "api-key"): "sk-secret-123"}
    assert "sk-secret" not in ws.path.read_bytes().decode("latin-1")

    from engine.llm.endpoints.backend import read_api_key

    assert read_api_key("upabhasha:hosted") == "sk-secret-123"  # the backend finds it


def test_no_keyring_backend_gives_a_clear_message(panel, ws):
    from keyring.backends import fail

    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    messages = []
    panel.sig_status_message.connect(messages.append)
    try:
        dialog = panel.add_endpoint_dialog()
        assert "No OS keyring" in dialog.keyring_note.text()
        assert not dialog.api_key.isEnabled()
        dialog.reject()
        panel.add_endpoint("hosted", ["https://api.example.org"], "gpt-x", "sk-secret")
    finally:
        keyring.set_keyring(previous)
    assert "No OS keyring" in messages[-1]
    assert ws.scalar("SELECT count(*) FROM models") == 0


def test_gpu_support_is_shown_when_the_panel_is_first_seen(panel, qtbot):
    assert panel.gpu_label.text().startswith("Checking")
    panel.show()
    text = panel.gpu_label.text()
    assert "llama-cpp-python" in text
    assert ("GPU" in text) and ("CPU only" in text or "can offload" in text)


def test_an_installed_program_points_to_its_gpu_build_not_to_pip(panel, monkeypatch):
    monkeypatch.setattr("sys.frozen", True, raising=False)  # as in the PyInstaller bundle
    panel.show()  # the real check: this machine's llama.cpp is the CPU build
    text = panel.gpu_label.text()
    if not panel.gpu_report["supports_gpu_offload"]:
        assert "GPU build of Upabhasha" in text
        assert "llama-cpp-python with" not in text


def test_gpu_offload_proposal_for_the_selected_gguf_and_apply(panel, ws, embedded_gguf):
    import json

    from engine.llm.models.registry import register_gguf

    model_id = register_gguf(
        ws,
        embedded_gguf,
        name="gemma",
        sha256="x" * 64,
        size_bytes=embedded_gguf.stat().st_size,
        metadata={"architecture": "gemma3"},
    )
    panel.model.reload()
    panel.show()  # the real check: no GPU on this machine
    panel.view.setCurrentIndex(panel.model.index(0, 0))
    assert "No GPU found" in panel.gpu_label.text() or "GPU:" in panel.gpu_label.text()
    if not panel.gpu_report["gpus"]:
        assert "CPU only" in panel.plan_label.text()
        assert "n_gpu_layers 0" in panel.plan_label.text()
        assert not panel.apply_plan_button.isEnabled()  # 0 is already what is saved

    # a 16 GiB card reported by nvidia-smi: all 18 layers fit, and applying saves -1
    panel.gpu_report = panel.gpu_report | {
        "supports_gpu_offload": True,
        "gpus": [
            {
                "name": "Tesla T4",
                "free_bytes": 15 * 1024**3,
                "total_bytes": 16 * 1024**3,
                "kind": "cuda",
            }
        ],
    }
    panel._plan_for_current()
    assert panel.plan["n_gpu_layers"] == -1 and panel.plan["n_ctx"] == 18432
    assert "All 18 layers fit on Tesla T4" in panel.plan_label.text()
    assert panel.apply_plan_button.isEnabled()
    messages = []
    panel.sig_status_message.connect(messages.append)
    panel.apply_plan_button.click()
    saved = json.loads(ws.scalar("SELECT load_params FROM models WHERE id = ?", (model_id,)))
    assert saved["n_gpu_layers"] == -1
    assert "n_gpu_layers = -1 saved" in messages[-1]
    assert "saved now: -1" in panel.plan_label.text()
    assert not panel.apply_plan_button.isEnabled()

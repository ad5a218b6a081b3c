"""Finding the models other tools keep: each tool's documented layout, built in a temporary
home for Linux, Windows and macOS with the real embedded GGUF linked into every place."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from engine.llm.models.discovery import discover_models, model_folders
from engine.llm.models.embedded_model import embedded_sha256


def place(source: Path, target: Path) -> Path:
    """The real GGUF at ``target``: a hard link where the file system allows, else a copy."""
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(source, target)
    except OSError:
        shutil.copy(source, target)
    return target


def build_stores(home: Path, gguf: Path, system: str) -> dict:
    """Every tool's folder as its documentation describes it; the env a user would have."""
    env: dict[str, str] = {}
    if system == "Windows":
        env = {
            "LOCALAPPDATA": str(home / "AppData/Local"),
            "APPDATA": str(home / "AppData/Roaming"),
        }
        gpt4all, jan = home / "AppData/Local/nomic.ai/GPT4All", home / "AppData/Roaming/Jan/data"
    elif system == "Darwin":
        support = home / "Library/Application Support"
        gpt4all, jan = support / "nomic.ai/GPT4All", support / "Jan/data"
    else:
        gpt4all, jan = home / ".local/share/nomic.ai/GPT4All", home / ".config/Jan/data"
    place(gguf, home / ".lmstudio/models/lmstudio-community/gemma-3-270m-GGUF/gemma-Q4_K_M.gguf")
    (home / ".lmstudio/models/partial.gguf").write_bytes(b"GGUF not finished")  # skipped
    place(gguf, gpt4all / "gemma-3-270m.gguf")
    place(gguf, jan / "llamacpp/models/gemma-3-270m/model.gguf")
    # Ollama: a blob named by its digest, a manifest naming it
    digest = embedded_sha256()
    store = home / ".ollama/models"
    place(gguf, store / "blobs" / f"sha256-{digest}")
    manifest = store / "manifests/registry.ollama.ai/library/gemma3/270m"
    manifest.parent.mkdir(parents=True)
    manifest.write_text(
        json.dumps(
            {
                "schemaVersion": 2,
                "layers": [
                    {
                        "mediaType": "application/vnd.ollama.image.model",
                        "digest": f"sha256:{digest}",
                    },
                    {"mediaType": "application/vnd.ollama.image.template", "digest": "sha256:00"},
                ],
            }
        ),
        encoding="utf-8",
    )
    # Hugging Face: snapshots link to blobs
    repo = home / ".cache/huggingface/hub/models--unsloth--gemma-3-270m-it-GGUF"
    blob = place(gguf, repo / "blobs" / digest)
    snapshot = repo / "snapshots/0123abc/gemma-3-270m-it-Q4_K_M.gguf"
    snapshot.parent.mkdir(parents=True)
    snapshot.symlink_to(os.path.relpath(blob, snapshot.parent))
    return env


@pytest.mark.parametrize("system", ["Linux", "Windows", "Darwin"])
def test_every_tool_s_models_are_found_with_their_header(tmp_path, embedded_gguf, system):
    home = tmp_path / "home"
    env = build_stores(home, embedded_gguf, system)
    mine = place(embedded_gguf, tmp_path / "my models/sub/my-model.gguf")
    found = discover_models([tmp_path / "my models"], home=home, env=env, system=system)
    by_source = {m.source: m for m in found}
    assert {m.source for m in found} == {
        "LM Studio", "GPT4All", "Jan", "Ollama", "Hugging Face", "folder"
    }  # fmt: skip
    assert len(found) == 6  # the partial download is not a model
    names = {m.source: m.name for m in found}
    assert names == {
        "LM Studio": "lmstudio-community/gemma-3-270m-GGUF/gemma-Q4_K_M.gguf",
        "GPT4All": "gemma-3-270m",
        "Jan": "model",
        "Ollama": "gemma3:270m",
        "Hugging Face": "unsloth/gemma-3-270m-it-GGUF/gemma-3-270m-it-Q4_K_M.gguf",
        "folder": "my-model",
    }
    size = embedded_gguf.stat().st_size
    for m in found:
        assert m.size_bytes == size and m.architecture == "gemma3" and m.quantization
    assert by_source["Ollama"].sha256 == embedded_sha256()  # from the digest, no hashing
    assert by_source["folder"].path == str(mine) and by_source["folder"].sha256 is None


def test_environment_variables_move_the_stores(tmp_path, embedded_gguf):
    home = tmp_path / "home"
    env = {"OLLAMA_MODELS": str(tmp_path / "big disk/ollama"), "HF_HOME": str(tmp_path / "hf")}
    folders = dict((str(f), s) for s, f in model_folders(home, env, "Linux"))
    assert folders[str(tmp_path / "big disk/ollama")] == "Ollama"
    assert folders[str(tmp_path / "hf/hub")] == "Hugging Face"
    assert "/usr/share/ollama/.ollama/models" not in folders  # OLLAMA_MODELS replaces it
    env["HF_HUB_CACHE"] = str(tmp_path / "hub elsewhere")
    assert str(tmp_path / "hub elsewhere") in {
        str(f) for _s, f in model_folders(home, env, "Linux")
    }
    assert discover_models(home=home, env=env, system="Linux") == []  # nothing there: nothing


def test_a_template_is_named_by_its_family():
    from engine.llm.runtime.try_prompt import template_family

    assert template_family("{{ '<start_of_turn>user\\n' }}") == "Gemma"
    assert template_family("<|im_start|>{{ m.role }}") == "ChatML"
    assert template_family("{{ x }}") == "custom"

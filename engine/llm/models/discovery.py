"""Models the user already has: GGUF files kept by other local-LLM tools, found in place.

Where each tool keeps its models, by its documentation (Linux, Windows, macOS):

- **LM Studio**: ``~/.lmstudio/models`` (0.3 and later), ``~/.cache/lm-studio/models``
  (earlier), on every system; ``<publisher>/<repo>/<file>.gguf`` below.
- **GPT4All**: its data folder — ``$XDG_DATA_HOME/nomic.ai/GPT4All`` (``~/.local/share``),
  ``%LOCALAPPDATA%\\nomic.ai\\GPT4All``, ``~/Library/Application Support/nomic.ai/GPT4All``.
- **Jan**: ``$XDG_CONFIG_HOME/Jan/data`` (``~/.config``), ``%APPDATA%\\Jan\\data``,
  ``~/Library/Application Support/Jan/data``, and the older ``~/jan``; models under
  ``models/`` and ``llamacpp/models/``.
- **Ollama**: ``$OLLAMA_MODELS``, else ``~/.ollama/models`` (and the Linux service's
  ``/usr/share/ollama/.ollama/models``). Blobs are named by their sha256
  (``blobs/sha256-<hex>``), so the manifest (``manifests/<host>/<namespace>/<model>/<tag>``)
  names the model and gives its sha256 without hashing.
- **Hugging Face cache**: ``$HF_HUB_CACHE``, else ``$HF_HOME/hub``, else
  ``$XDG_CACHE_HOME/huggingface/hub``, else ``~/.cache/huggingface/hub`` (every system);
  ``models--<org>--<repo>/snapshots/<revision>/<file>.gguf``.

plus folders the user adds (searched recursively). Each file's header is read with
:func:`engine.llm.models.gguf_info.inspect_gguf` (name, size, quantisation, architecture);
nothing is copied or hashed here — registering hashes in the background
(``engine.llm.tasks``).
The folders are computed from ``home`` and the tools' environment variables by hand, not with
``platformdirs``: the tools' folders are not platformdirs' (GPT4All keeps ``nomic.ai`` on
Linux, where platformdirs drops the author), and one test builds all three systems' layouts
in a temporary home.
"""

from __future__ import annotations

import json
import logging
import os
import platform
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TypedDict, cast

from engine.errors import UserError
from engine.i18n import N_
from engine.llm.models.gguf_info import inspect_gguf

log = logging.getLogger(__name__)

SOURCES = ("LM Studio", "GPT4All", "Jan", "Ollama", "Hugging Face", "folder")
OLLAMA_MODEL_LAYER = "application/vnd.ollama.image.model"
OLLAMA_REGISTRY = "registry.ollama.ai"
MAX_DEPTH = 6  # folders below a store's root searched (LM Studio: publisher/repo/file)


class FoundModelDict(TypedDict):
    """:meth:`FoundModel.as_dict`: every field of the model found, by name."""

    source: str
    name: str
    path: str
    size_bytes: int
    architecture: str
    quantization: str
    parameters: int
    context_length: int | None
    sha256: str | None


class DiscoveredModel(FoundModelDict):
    """A model found, as the Models panel lists it; ``registered``: the workspace has it."""

    registered: bool


@dataclass(frozen=True)
class FoundModel:
    source: str  # one of SOURCES
    name: str  # as the tool calls it: "llama3.2:1b", "org/repo/file.gguf", the file stem
    path: str
    size_bytes: int
    architecture: str
    quantization: str
    parameters: int
    context_length: int | None
    sha256: str | None = None  # known without hashing (Ollama's blob digest)

    def as_dict(self) -> FoundModelDict:
        return cast(FoundModelDict, asdict(self))


def model_folders(
    home: str | Path | None = None,
    env: Mapping[str, str] | None = None,
    system: str | None = None,
) -> list[tuple[str, Path]]:
    """``(source, folder)`` where the tools keep models on ``system`` (``platform.system()``
    names: Linux, Windows, Darwin); folders that do not exist are included (callers skip)."""
    env = os.environ if env is None else env
    system = system or platform.system()
    home = Path.home() if home is None else Path(home)

    def from_env(name: str, default: Path) -> Path:
        return Path(env[name]) if env.get(name) else default

    if system == "Windows":
        local = from_env("LOCALAPPDATA", home / "AppData" / "Local")
        roaming = from_env("APPDATA", home / "AppData" / "Roaming")
        gpt4all = [local / "nomic.ai" / "GPT4All"]
        jan = [roaming / "Jan" / "data"]
    elif system == "Darwin":
        support = home / "Library" / "Application Support"
        gpt4all = [support / "nomic.ai" / "GPT4All"]
        jan = [support / "Jan" / "data"]
    else:
        gpt4all = [from_env("XDG_DATA_HOME", home / ".local" / "share") / "nomic.ai" / "GPT4All"]
        jan = [from_env("XDG_CONFIG_HOME", home / ".config") / "Jan" / "data"]
    jan.append(home / "jan")
    ollama = [from_env("OLLAMA_MODELS", home / ".ollama" / "models")]
    if system == "Linux" and not env.get("OLLAMA_MODELS"):
        ollama.append(Path("/usr/share/ollama/.ollama/models"))
    hf_home = from_env("HF_HOME", from_env("XDG_CACHE_HOME", home / ".cache") / "huggingface")
    hub = from_env("HF_HUB_CACHE", hf_home / "hub")
    return [
        ("LM Studio", home / ".lmstudio" / "models"),
        ("LM Studio", home / ".cache" / "lm-studio" / "models"),
        *[("GPT4All", f) for f in gpt4all],
        *[("Jan", f / sub) for f in jan for sub in ("models", Path("llamacpp") / "models")],
        *[("Ollama", f) for f in ollama],
        ("Hugging Face", hub),
    ]


def discover_models(
    extra_folders: Iterable[str | Path] = (),
    *,
    home: str | Path | None = None,
    env: Mapping[str, str] | None = None,
    system: str | None = None,
    cancelled=None,
) -> list[FoundModel]:
    """Every valid GGUF model in the tools' folders and ``extra_folders``, once each (a file
    reached twice — a link, a folder listed twice — is listed under its first source)."""
    found: list[FoundModel] = []
    seen: set[Path] = set()
    folders = [*model_folders(home, env, system), *(("folder", Path(f)) for f in extra_folders)]
    for source, folder in folders:
        if cancelled and cancelled():
            break
        if not folder.is_dir():
            continue
        entries = _ollama_entries(folder) if source == "Ollama" else _gguf_entries(folder, source)
        for name, path, sha256 in entries:
            real = path.resolve()
            if real in seen:
                continue
            seen.add(real)
            model = _describe(source, name, path, sha256)
            if model is not None:
                found.append(model)
    log.info(N_("found %d GGUF model(s) on this computer"), len(found))
    return found


def _gguf_entries(folder: Path, source: str) -> Iterator[tuple[str, Path, str | None]]:
    for path in sorted(_walk(folder, MAX_DEPTH)):
        if source == "Hugging Face":
            name = _hf_name(folder, path)
            if name is None:
                continue
        elif source == "LM Studio":
            name = path.relative_to(folder).as_posix()
        else:
            name = path.stem
        yield name, path, None


def _walk(folder: Path, depth: int) -> Iterator[Path]:
    """``*.gguf`` files below ``folder`` (links followed, ``depth`` levels at most)."""
    try:
        children = list(folder.iterdir())
    except OSError as exc:
        log.info("cannot list %s: %s", folder, exc)
        return
    for child in children:
        if child.is_dir() and depth > 0:
            yield from _walk(child, depth - 1)
        elif child.suffix.lower() == ".gguf" and child.is_file():
            yield child


def _hf_name(hub: Path, path: Path) -> str | None:
    """``org/repo/file.gguf`` for ``models--org--repo/snapshots/<rev>/file.gguf``."""
    parts = path.relative_to(hub).parts
    if len(parts) < 4 or not parts[0].startswith("models--") or parts[1] != "snapshots":
        return None
    repo = parts[0][len("models--") :].replace("--", "/")
    return f"{repo}/{'/'.join(parts[3:])}"


def _ollama_entries(store: Path) -> Iterator[tuple[str, Path, str | None]]:
    """Each manifest's model layer: ``(name:tag, blob path, sha256)``."""
    manifests = store / "manifests"
    if not manifests.is_dir():
        return
    for manifest in sorted(p for p in manifests.rglob("*") if p.is_file()):
        try:
            layers = json.loads(manifest.read_text(encoding="utf-8")).get("layers", [])
        except (OSError, ValueError, AttributeError) as exc:
            log.info("skipping Ollama manifest %s: %s", manifest, exc)
            continue
        for layer in layers:
            digest = str(layer.get("digest", ""))
            if layer.get("mediaType") != OLLAMA_MODEL_LAYER or not digest.startswith("sha256:"):
                continue
            blob = store / "blobs" / digest.replace(":", "-")
            if blob.is_file():
                yield _ollama_name(manifest.relative_to(manifests).parts), blob, digest[7:]


def _ollama_name(parts: tuple[str, ...]) -> str:
    """``llama3.2:1b`` for ``registry.ollama.ai/library/llama3.2/1b``; the namespace and host
    are kept when they are not Ollama's own (``user/model:tag``, ``host/ns/model:tag``)."""
    *where, model, tag = parts
    if where and where[0] == OLLAMA_REGISTRY:
        where = where[1:]
        if where == ["library"]:
            where = []
    return "/".join([*where, model]) + f":{tag}"


def _describe(source: str, name: str, path: Path, sha256: str | None) -> FoundModel | None:
    try:
        info = inspect_gguf(path)
    except UserError as exc:  # not a model (a partial download, another format): skipped
        log.info("skipping %s: %s", path, exc)
        return None
    return FoundModel(
        source=source,
        name=name,
        path=str(path),
        size_bytes=info.size_bytes,
        architecture=info.architecture,
        quantization=info.quantization,
        parameters=info.parameters,
        context_length=info.context_length,
        sha256=sha256,
    )

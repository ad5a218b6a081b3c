"""Validate a GGUF file and read its metadata *before* llama.cpp ever sees it.

The header is parsed here with bounded reads over a read-only memory map: every count and
length is checked against the bytes that remain in the file (and against fixed caps), so a
hostile file can neither make us allocate gigabytes nor read past its end. The tensor table
is checked too: each tensor's data must lie inside the file. Only then is the file handed to
the worker process that loads it (which may still crash on deeper corruption — that costs
only the worker).

The ``gguf`` package supplies the format's enumerations and block sizes; its own reader maps
and decodes the whole file eagerly, so it is not used on untrusted input.
"""

from __future__ import annotations

import errno
import logging
import mmap
import os
import re
import stat
import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypedDict

from engine.errors import UserError
from engine.i18n import N_, _
from engine.llm.models.embedded_model import sha256_file

log = logging.getLogger(__name__)

GGUF_MAGIC = b"GGUF"
SUPPORTED_VERSIONS = (2, 3)
MAX_TENSORS = 1 << 20
MAX_KV = 1 << 16
MAX_KEY_BYTES = 1 << 16
MAX_STRING_BYTES = 8 << 20  # a chat template is ~10 KiB; 8 MiB is generous
MAX_ARRAY_ITEMS = 1 << 26
MAX_ARRAY_DEPTH = 2
MAX_DIMS = 4  # GGML_MAX_DIMS
DEFAULT_ALIGNMENT = 32

# GGUF value types: fixed-size scalars (struct format) and the two variable ones.
_SCALARS = {
    0: "<B",
    1: "<b",
    2: "<H",
    3: "<h",
    4: "<I",
    5: "<i",
    6: "<f",
    7: "<?",
    10: "<Q",
    11: "<q",
    12: "<d",
}
_STRING, _ARRAY = 8, 9
# Keys whose values we keep; everything else is validated and skipped.
_KEEP = re.compile(
    r"^(general\.[a-z_]+|[a-z0-9_]+\.context_length|[a-z0-9_]+\.block_count"
    r"|tokenizer\.chat_template|tokenizer\.ggml\.model)$"
)


class GGUFInvalid(UserError):
    """The file is not a GGUF file llama.cpp may safely be given."""


class GGUFMetadata(TypedDict):
    """:meth:`GGUFInfo.as_metadata`: the columns of the ``models`` table a GGUF file fills."""

    architecture: str
    quantization: str
    parameters: int
    context_length: int | None
    has_chat_template: bool
    family: str


class GGUFInfoDict(GGUFMetadata):
    """:meth:`GGUFInfo.as_dict`: the metadata columns and the file's own header figures."""

    path: str
    gguf_name: str
    size_bytes: int
    gguf_version: int
    tensor_count: int
    kv_count: int
    sha256: str | None


@dataclass
class GGUFInfo:
    path: Path
    size_bytes: int
    version: int
    tensor_count: int
    kv_count: int
    architecture: str
    name: str
    parameters: int
    quantization: str
    context_length: int | None
    chat_template: str | None
    metadata: dict = field(default_factory=dict)  # the kept scalar/string keys
    sha256: str | None = None

    @property
    def has_chat_template(self) -> bool:
        return bool(self.chat_template)

    @property
    def family(self) -> str:
        return re.sub(r"[\d.]+$", "", self.architecture) or self.architecture

    def as_metadata(self) -> GGUFMetadata:
        """The columns of the ``models`` table this file fills."""
        return {
            "architecture": self.architecture,
            "quantization": self.quantization,
            "parameters": self.parameters,
            "context_length": self.context_length,
            "has_chat_template": self.has_chat_template,
            "family": self.family,
        }

    def as_dict(self) -> GGUFInfoDict:
        return {
            **self.as_metadata(),
            "path": str(self.path),
            # the file's own general.name; the workspace name is the models row's ``name``
            "gguf_name": self.name,
            "size_bytes": self.size_bytes,
            "gguf_version": self.version,
            "tensor_count": self.tensor_count,
            "kv_count": self.kv_count,
            "sha256": self.sha256,
        }


class HeaderReader:
    """Bounded little-endian reads over a memory map; every read checks the file end."""

    def __init__(self, buf, path: Path):
        self.buf, self.pos, self.size, self.path = buf, 0, len(buf), path

    def fail(self, message: str) -> GGUFInvalid:
        return GGUFInvalid(f"{self.path}: not a valid GGUF file: {message} (at byte {self.pos})")

    def need(self, n: int, what: str) -> None:
        if n < 0 or self.pos + n > self.size:
            raise self.fail(
                f"{what} needs {n} bytes but the file ends at byte {self.size} "
                "(truncated or corrupt)"
            )

    def unpack(self, fmt: str, what: str):
        n = struct.calcsize(fmt)
        self.need(n, what)
        value = struct.unpack_from(fmt, self.buf, self.pos)[0]
        self.pos += n
        return value

    def string(self, what: str, limit: int = MAX_STRING_BYTES, keep: bool = True) -> str | None:
        length = self.unpack("<Q", f"{what} length")
        if length > limit:
            raise self.fail(f"{what} claims {length} bytes (limit {limit})")
        self.need(length, what)
        start, self.pos = self.pos, self.pos + length
        if not keep:
            return None
        try:
            return bytes(self.buf[start : self.pos]).decode("utf-8")
        except UnicodeDecodeError:
            raise self.fail(f"{what} is not valid UTF-8") from None

    def name(self, what: str, limit: int = MAX_KEY_BYTES) -> str:
        """A string that is always kept: metadata keys and tensor names."""
        text = self.string(what, limit=limit)
        assert text is not None
        return text


def read_value(r: HeaderReader, vtype: int, key: str, keep: bool, depth: int = 0):
    if vtype in _SCALARS:
        return r.unpack(_SCALARS[vtype], f"value of {key!r}")
    if vtype == _STRING:
        return r.string(f"string value of {key!r}", keep=keep)
    if vtype != _ARRAY:
        raise r.fail(f"unknown value type {vtype} for {key!r}")
    if depth >= MAX_ARRAY_DEPTH:
        raise r.fail(f"arrays nested deeper than {MAX_ARRAY_DEPTH} in {key!r}")
    item_type = r.unpack("<I", f"array type of {key!r}")
    count = r.unpack("<Q", f"array length of {key!r}")
    if count > MAX_ARRAY_ITEMS:
        raise r.fail(f"array {key!r} claims {count} items (limit {MAX_ARRAY_ITEMS})")
    if item_type in _SCALARS:  # fixed size: check the span and jump over it
        span = count * struct.calcsize(_SCALARS[item_type])
        r.need(span, f"array {key!r}")
        r.pos += span
        return None
    if item_type == _STRING:
        r.need(count * 8, f"array {key!r}")  # each string has at least its length field
    for _item in range(count):
        read_value(r, item_type, key, keep=False, depth=depth + 1)
    return None


def _tensor_nbytes(r: HeaderReader, name: str, dims: list[int], ggml_type: int) -> int:
    # lazy: gguf is slow to import
    import gguf

    try:
        block, type_size = gguf.GGML_QUANT_SIZES[gguf.GGMLQuantizationType(ggml_type)]
    except (ValueError, KeyError):
        raise r.fail(f"tensor {name!r} has unknown type {ggml_type}") from None
    if dims[0] % block:
        raise r.fail(f"tensor {name!r}: first dimension {dims[0]} is not a multiple of {block}")
    elements = 1
    for d in dims:
        elements *= d
    return elements // block * type_size


def _quantization_name(file_type: int | None, tensor_types: dict[int, int]) -> str:
    # lazy: gguf is slow to import
    import gguf

    if file_type is not None:
        try:
            return gguf.LlamaFileType(file_type).name.removeprefix("MOSTLY_")
        except ValueError:
            return f"file_type {file_type}"
    if tensor_types:  # older files: the most common tensor type by bytes
        common = max(tensor_types, key=lambda t: tensor_types[t])
        try:
            return gguf.GGMLQuantizationType(common).name
        except ValueError:
            return f"type {common}"
    return "unknown"


@dataclass
class GGUFHeader:
    """What the header and tensor table say, every count and span checked."""

    version: int
    kv_count: int
    metadata: dict  # the kept keys only
    tensors: list[tuple[str, list[int], int]]  # name, shape, ggml type
    parameters: int
    bytes_by_type: dict[int, int]


def _read_header(buf, path: Path, keep: re.Pattern) -> GGUFHeader:
    r = HeaderReader(buf, path)
    r.need(4, "magic")
    if bytes(buf[:4]) != GGUF_MAGIC:
        raise r.fail(f"magic is {bytes(buf[:4])!r}, expected {GGUF_MAGIC!r}")
    r.pos = 4
    version = r.unpack("<I", "version")
    if version not in SUPPORTED_VERSIONS:
        raise r.fail(f"GGUF version {version} is not supported ({SUPPORTED_VERSIONS})")
    tensor_count = r.unpack("<Q", "tensor count")
    kv_count = r.unpack("<Q", "metadata count")
    if tensor_count > MAX_TENSORS or tensor_count * 24 > r.size:
        raise r.fail(f"tensor count {tensor_count} is impossible for a {r.size}-byte file")
    if kv_count > MAX_KV:
        raise r.fail(f"metadata count {kv_count} exceeds {MAX_KV}")

    meta: dict = {}
    for _entry in range(kv_count):
        key = r.name("metadata key")
        vtype = r.unpack("<I", f"type of {key!r}")
        kept = bool(keep.match(key))
        value = read_value(r, vtype, key, kept)
        if kept and value is not None:
            meta[key] = value

    tensors = []
    for _tensor in range(tensor_count):
        name = r.name("tensor name")
        n_dims = r.unpack("<I", f"dimension count of {name!r}")
        if not 1 <= n_dims <= MAX_DIMS:
            raise r.fail(f"tensor {name!r} has {n_dims} dimensions")
        dims = [r.unpack("<Q", f"dimension of {name!r}") for _dim in range(n_dims)]
        if any(d == 0 or d > 1 << 40 for d in dims):
            raise r.fail(f"tensor {name!r} has an impossible shape {dims}")
        ggml_type = r.unpack("<I", f"type of {name!r}")
        offset = r.unpack("<Q", f"offset of {name!r}")
        tensors.append((name, dims, ggml_type, offset))

    alignment = meta.get("general.alignment", DEFAULT_ALIGNMENT)
    if not isinstance(alignment, int) or alignment <= 0 or alignment & (alignment - 1):
        raise r.fail(f"general.alignment {alignment!r} is not a power of two")
    data_start = (r.pos + alignment - 1) // alignment * alignment
    parameters = 0
    bytes_by_type: dict[int, int] = {}
    for name, dims, ggml_type, offset in tensors:
        nbytes = _tensor_nbytes(r, name, dims, ggml_type)
        if offset % alignment:
            raise r.fail(f"tensor {name!r} offset {offset} is not aligned to {alignment}")
        if data_start + offset + nbytes > r.size:
            raise GGUFInvalid(
                f"{path}: not a valid GGUF file: tensor {name!r} data ends at byte "
                f"{data_start + offset + nbytes} but the file has {r.size} bytes "
                "(truncated or corrupt)"
            )
        elements = 1
        for d in dims:
            elements *= d
        parameters += elements
        bytes_by_type[ggml_type] = bytes_by_type.get(ggml_type, 0) + nbytes
    return GGUFHeader(
        version=version,
        kv_count=kv_count,
        metadata=meta,
        tensors=[(name, dims, ggml_type) for name, dims, ggml_type, _offset in tensors],
        parameters=parameters,
        bytes_by_type=bytes_by_type,
    )


def _parse(buf, path: Path) -> GGUFInfo:
    header = _read_header(buf, path, _KEEP)
    meta, tensors = header.metadata, header.tensors
    arch = meta.get("general.architecture")
    if not isinstance(arch, str) or not arch:
        raise GGUFInvalid(f"{path}: not a usable GGUF model: general.architecture is missing")
    _require_model_tensors(path, arch, meta, {t[0] for t in tensors})
    context = meta.get(f"{arch}.context_length")
    template = meta.get("tokenizer.chat_template")
    return GGUFInfo(
        path=path,
        size_bytes=len(buf),
        version=header.version,
        tensor_count=len(tensors),
        kv_count=header.kv_count,
        architecture=arch,
        name=str(meta.get("general.name", path.stem)),
        parameters=header.parameters,
        quantization=_quantization_name(meta.get("general.file_type"), header.bytes_by_type),
        context_length=int(context) if isinstance(context, int) else None,
        chat_template=template if isinstance(template, str) and template.strip() else None,
        metadata={k: v for k, v in meta.items() if k != "tokenizer.chat_template"},
    )


def _require_model_tensors(path: Path, arch: str, meta: dict, names: set[str]) -> None:
    """Refuse a file without the tensors every model of its architecture needs: the token
    embedding and output norm (where the ``gguf`` package's tensor table for the architecture
    has them; architectures it does not know get the embedding check only) and at least one
    tensor in each of its ``{arch}.block_count`` layers. A valid header over 0 or 1 tensors
    is not a model, and llama.cpp would only fail (or crash) later, in a worker."""
    # lazy: gguf is slow to import
    import gguf

    block_count = meta.get(f"{arch}.block_count")
    if not isinstance(block_count, int) or block_count < 1:
        raise GGUFInvalid(
            f"{path}: not a usable GGUF model: {arch}.block_count is missing "
            f"(a {arch} model needs its number of layers)"
        )
    known = {name: a for a, name in gguf.MODEL_ARCH_NAMES.items()}
    table = gguf.MODEL_TENSORS.get(known[arch], []) if arch in known else []
    required = ["token_embd.weight"]
    if table and gguf.MODEL_TENSOR.TOKEN_EMBD not in table:
        required = []
    if gguf.MODEL_TENSOR.OUTPUT_NORM in table:
        required.append("output_norm.weight")
    missing = [n for n in required if n not in names]
    layers = {int(m.group(1)) for n in names if (m := _BLOCK.match(n))}
    empty = [i for i in range(block_count) if i not in layers]
    if missing or empty:
        what = missing + ([f"layer(s) {_ranges(empty)} of {block_count}"] if empty else [])
        raise GGUFInvalid(
            f"{path}: not a usable GGUF model: {len(names)} tensor"
            f"{'' if len(names) == 1 else 's'}, missing "
            f"{', '.join(what)} that a {arch} model needs"
        )


_BLOCK = re.compile(r"^blk\.(\d+)\.")


def _ranges(numbers: list[int]) -> str:
    """[0, 1, 2, 5] -> "0-2, 5" (a short list of missing layers)."""
    spans: list[list[int]] = []
    for n in numbers:
        if spans and n == spans[-1][1] + 1:
            spans[-1][1] = n
        else:
            spans.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in spans)


def checked_model_path(path: str | Path) -> Path:
    """``path`` resolved, or a :class:`UserError` that says in one line what is wrong with
    it: missing, a folder, a symbolic-link loop, not a regular file, unreadable."""
    raw = Path(path).expanduser()
    try:
        resolved = raw.resolve(strict=True)
    except FileNotFoundError:
        if raw.is_symlink():
            raise UserError(
                _("{path}: a symbolic link to a file that does not exist").format(path=raw)
            ) from None
        raise UserError(_("{path}: no such model file").format(path=raw)) from None
    except (RuntimeError, OSError) as exc:  # 3.11 raises RuntimeError on a symlink loop
        if isinstance(exc, RuntimeError) or getattr(exc, "errno", None) == errno.ELOOP:
            raise UserError(
                _("{path}: a symbolic link loop, not a model file").format(path=raw)
            ) from None
        raise UserError(
            _("{path}: cannot be read ({why})").format(path=raw, why=exc.strerror or exc)
        ) from None
    try:
        st = resolved.stat()
    except OSError as exc:
        raise UserError(
            _("{path}: cannot be read ({why})").format(path=raw, why=exc.strerror or exc)
        ) from None
    if stat.S_ISDIR(st.st_mode):
        raise UserError(_("{path}: is a folder, not a GGUF model file").format(path=raw))
    if not stat.S_ISREG(st.st_mode):
        raise UserError(_("{path}: not a regular file (a device, pipe or socket)").format(path=raw))
    if not os.access(resolved, os.R_OK):
        raise UserError(_("{path}: cannot be read (permission denied)").format(path=raw))
    return resolved


def _mapped(path: Path, parse):
    """``parse(buffer, path)`` over a read-only map of the checked file."""
    checked_model_path(path)
    size = path.stat().st_size
    if size < 24:
        raise GGUFInvalid(f"{path}: not a valid GGUF file: only {size} bytes")
    try:
        with path.open("rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
            view = memoryview(mm)
            try:
                return parse(view, path)
            finally:
                view.release()
    except OSError as exc:  # unreadable after all (permissions, I/O error)
        raise UserError(
            _("{path}: cannot be read ({why})").format(path=path, why=exc.strerror or exc)
        ) from None


def read_gguf_header(path: str | Path, keep: re.Pattern) -> GGUFHeader:
    """Any GGUF's header (a model's or an adapter's), keeping the metadata keys ``keep``
    matches; bounded like :func:`inspect_gguf`, and as fast on a model with a large vocabulary
    (its arrays are stepped over, not decoded)."""
    return _mapped(Path(path), lambda buf, p: _read_header(buf, p, keep))


def inspect_gguf(path: str | Path, *, with_sha256: bool = False, progress=None) -> GGUFInfo:
    """Validate ``path`` as a GGUF model and return its metadata.

    Raises :class:`GGUFInvalid` (a ``UserError``) with a message that names the problem.
    ``with_sha256`` also hashes the file, reporting ``progress(done_bytes, total, "sha256")``.
    """
    path = Path(path)
    info = _mapped(path, _parse)
    if with_sha256:
        info.sha256 = sha256_file(path, progress)
    log.info(
        N_("validated %s: %s %s, %d tensors"),
        path,
        info.architecture,
        info.quantization,
        info.tensor_count,
    )
    return info

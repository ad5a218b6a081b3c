"""The OpenAI Batch file format: request lines out, result lines in.

A request line is ``{"custom_id", "method": "POST", "url", "body"}``; its body is built by
the endpoint backend itself, so it is exactly what the online path posts (messages, sampling
parameters, seed, stop strings, JSON schema), with the target model's name. Its
``custom_id`` is ``ITEM_KEY@TOKEN.RUN.SIGNATURE``: the job's item key, the export's token,
the run, and a signature over the token, the run's key, the item and the body's hash, so a
line edited on the way back does not match.

A result file is untrusted input: its size and each line's length are bounded before any
parsing, each line must be a JSON object of the documented shape, and nothing in it is
executed or interpreted beyond reading the reply text and token counts.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from engine.errors import UserError
from engine.files.nesting import too_deep
from engine.files.user_files import BATCH_RESULTS, iter_user_line_bytes
from engine.i18n import _
from engine.llm.endpoints.backend import EndpointBackend
from engine.llm.types import Request

# the providers' limits on one input file (OpenAI's Batch API: 50,000 requests, 200 MB)
DEFAULT_MAX_LINES = 50_000
DEFAULT_MAX_BYTES = 200 * 1024 * 1024
# a result file larger than this, or a line longer, is refused before it is parsed
RESULT_FILE = BATCH_RESULTS

# why a result line was refused (counted per reason by the import)
ERROR_LINE = "error"
MALFORMED = "malformed"
UNKNOWN_ID = "unknown custom_id"
FOREIGN_ID = "foreign custom_id"
WRONG_MODEL = "mismatched model"
BAD_SIGNATURE = "checksum mismatch"
CONFLICT = "conflicting duplicate"
# a line that is not ours or was edited, or a second, different reply to one request, refuses
# the file whole: nothing in it can be trusted to be what was asked
REFUSES_FILE = (FOREIGN_ID, UNKNOWN_ID, BAD_SIGNATURE, CONFLICT)


def endpoint_body(model_row: dict, req: Request, target_model: str) -> tuple[str, dict]:
    """The URL path and body the endpoint backend would post for ``req``, for
    ``target_model``."""
    # no keyring read: a batch file carries no key, the provider's upload does
    endpoint = EndpointBackend.from_row({**model_row, "keyring_service": None})
    path, body = endpoint._body(req)
    return path, {**body, "model": target_model}


def body_sha256(body: dict) -> str:
    blob = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def signature(token: str, run_key: str, item_key: str, body_hash: str) -> str:
    blob = "\x1f".join((token, run_key, item_key, body_hash)).encode("utf-8")
    return hashlib.sha256(blob).hexdigest()[:20]


def custom_id(item_key: str, token: str, run_id: int, sig: str) -> str:
    return f"{item_key}@{token}.{run_id}.{sig}"


@dataclass(frozen=True)
class CustomId:
    item_key: str
    token: str
    run_id: int
    signature: str


def parse_custom_id(text: object) -> CustomId | None:
    """The parts of one of our custom_ids, or None for anything else."""
    if not isinstance(text, str):
        return None
    item_key, at, tail = text.rpartition("@")
    parts = tail.split(".")
    if not at or not item_key or len(parts) != 3 or not parts[1].isdigit():
        return None
    return CustomId(item_key, parts[0], int(parts[1]), parts[2])


def request_line(cid: str, path: str, body: dict) -> bytes:
    line = {"custom_id": cid, "method": "POST", "url": path, "body": body}
    return (json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def split_lines(lines: list[bytes], max_lines: int, max_bytes: int) -> list[list[bytes]]:
    """Consecutive files of at most ``max_lines`` lines and ``max_bytes`` bytes each."""
    files: list[list[bytes]] = []
    current: list[bytes] = []
    size = 0
    for line in lines:
        if len(line) > max_bytes:
            raise UserError(
                _("one request is {n} bytes, more than the {limit} bytes a file may hold").format(
                    n=len(line), limit=max_bytes
                )
            )
        if current and (len(current) >= max_lines or size + len(line) > max_bytes):
            files.append(current)
            current, size = [], 0
        current.append(line)
        size += len(line)
    if current:
        files.append(current)
    return files


@dataclass
class ResultLine:
    """One line of a result file: its custom_id and either the reply body or a refusal."""

    number: int
    custom_id: object
    body: dict | None = None
    refused: str | None = None


def read_result_lines(path: Path) -> Iterator[ResultLine]:
    """The lines of a result file, bounded and validated (see the module docstring)."""
    for number, raw in iter_user_line_bytes(path, RESULT_FILE):
        if raw.strip():
            yield _parse_line(number, raw)


def _parse_line(number: int, raw: bytes) -> ResultLine:
    if too_deep(raw):  # json would end in a RecursionError
        return ResultLine(number, None, refused=MALFORMED)
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return ResultLine(number, None, refused=MALFORMED)
    if not isinstance(data, dict):
        return ResultLine(number, None, refused=MALFORMED)
    cid = data.get("custom_id")
    response = data.get("response")
    if data.get("error") or not isinstance(response, dict):
        return ResultLine(number, cid, refused=ERROR_LINE)
    body = response.get("body")
    if response.get("status_code") != 200 or not isinstance(body, dict):
        return ResultLine(number, cid, refused=ERROR_LINE)
    choices = body.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        return ResultLine(number, cid, refused=ERROR_LINE)
    return ResultLine(number, cid, body=body)

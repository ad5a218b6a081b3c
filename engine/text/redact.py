"""Secrets never echo: every error, log line, stored response and export goes through
:func:`redact`.

Two layers:

- the *known* secrets of this process (an API key read from the OS keyring registers
  itself with :func:`register_secret`) are replaced wherever they appear, whatever shape they
  have — a server that echoes the key back in a 401 body is the case this exists for — and
  so is any echoed piece of one of 8 or more characters (a server that quotes the first 16
  characters), in the key's plain, URL-encoded and base64 forms;
- anything *credential-shaped* is masked by pattern: ``Bearer <token>``, ``sk-…`` keys,
  ``user:password@`` in URLs, and ``api_key=…`` / ``"token": "…"`` style assignments.

Masks are ``***`` so a reader sees that something was there. The registry is per process
and only grows; it holds values the process already has in memory anyway.
"""

from __future__ import annotations

import base64
import logging
import re
import threading
import traceback
from urllib.parse import quote

MASK = "***"
_MIN_SECRET = 6  # shorter strings would mask ordinary words

_known: set[str] = set()
_known_lock = threading.Lock()
_known_re: re.Pattern | None = None
# Echoed pieces: every 8-character window of every form of every known secret, and the
# forms that hold it, so a match can be extended to the whole echoed piece.
_MIN_ECHO = 8
_windows: dict[str, set[str]] = {}
_windows_re: re.Pattern | None = None

_PATTERNS: tuple[tuple[re.Pattern, str], ...] = (
    # scheme://user:password@host  (and scheme://token@host)
    (re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/\s@?#]+@"), r"\1" + MASK + "@"),
    (re.compile(r"(?i)\b(bearer)(\s+)[a-z0-9._~+/=-]{6,}"), r"\1\2" + MASK),
    (re.compile(r"\bsk-[A-Za-z0-9_-]{6,}"), "sk-" + MASK),
    (
        re.compile(
            r"(?i)\b((?:x-)?api[_-]?key|access[_-]?token|auth[_-]?token|client[_-]?secret|"
            r"secret[_-]?key|password|passwd|authorization)"
            r"([\"']?\s*[:=]\s*[\"']?)(?!\*\*\*|bearer\s)[^\s\"'&,;}]{4,}"
        ),
        r"\1\2" + MASK,
    ),
)

# URL credentials that :func:`url_credentials` refuses in endpoint URLs
_URL_USERINFO = re.compile(r"(?i)^[a-z][a-z0-9+.-]*://[^/?#]*@")
_URL_QUERY_SECRET = re.compile(
    r"(?i)[?&](?:api[_-]?key|key|token|access[_-]?token|secret|password|sig)="
)


def register_secret(value: str | None) -> None:
    """Mask ``value`` everywhere from now on (API keys, when they are read)."""
    global _known_re
    if not value or len(value) < _MIN_SECRET:
        return
    with _known_lock:
        if value in _known:
            return
        _known.add(value)
        ordered = sorted(_known, key=len, reverse=True)
        _known_re = re.compile("|".join(re.escape(v) for v in ordered))
        _add_windows(value)


def _forms(value: str) -> list[str]:
    """The shapes a secret travels in: plain, URL-encoded, and base64 at each of the three
    alignments it can sit at inside a longer encoded text (``user:key`` in Basic auth); the
    characters the neighbouring bytes influence are cut off."""
    forms = [value, quote(value, safe="")]
    raw = value.encode("utf-8")
    for shift in range(3):
        encoded = base64.b64encode(b"\0" * shift + raw).decode("ascii").rstrip("=")
        head = (shift * 8 + 5) // 6  # characters carrying the padding bytes
        forms.append(encoded[head:-2] if len(encoded) > head + 2 else "")
    return [f for f in forms if len(f) >= _MIN_ECHO]


def _add_windows(value: str) -> None:
    global _windows_re
    if len(value) < _MIN_ECHO:
        return
    for form in _forms(value):
        for start in range(len(form) - _MIN_ECHO + 1):
            _windows.setdefault(form[start : start + _MIN_ECHO], set()).add(form)
    _windows_re = re.compile("|".join(re.escape(w) for w in sorted(_windows)))


def _mask_echoes(text: str, pattern: re.Pattern) -> str:
    """``text`` with every piece of 8 or more characters of a known secret's forms masked
    (hand-written: a regular expression of every substring would have thousands of
    alternatives; one of the 8-character windows finds the start, then it is extended)."""
    out, pos = [], 0
    while (m := pattern.search(text, pos)) is not None:
        start, end = m.start(), m.end()
        window = m.group(0)
        for form in _windows.get(window, ()):
            offset = form.find(window)
            while offset >= 0:
                k = _MIN_ECHO
                while start + k < len(text) and offset + k < len(form):
                    if text[start + k] != form[offset + k]:
                        break
                    k += 1
                end = max(end, start + k)
                offset = form.find(window, offset + 1)
        out.append(text[pos:start] + MASK)
        pos = end
    out.append(text[pos:])
    return "".join(out)


def redact(text):
    """``text`` with known secrets and credential-shaped substrings masked; any other
    type is returned unchanged (so callers can pass cells and optional fields)."""
    if not isinstance(text, str) or not text:
        return text
    known = _known_re
    if known is not None:
        text = known.sub(MASK, text)
    windows = _windows_re
    if windows is not None:
        text = _mask_echoes(text, windows)
    for pattern, repl in _PATTERNS:
        text = pattern.sub(repl, text)
    return text


def url_credentials(url: str) -> bool:
    """Whether a URL carries credentials (userinfo, or a key/token query parameter)."""
    return bool(_URL_USERINFO.match(url.strip()) or _URL_QUERY_SECRET.search(url))


class RedactingFilter(logging.Filter):
    """A handler filter that masks secrets in the formatted message (arguments included)
    and in exception text, so no log file or console line carries a key."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 - a bad format string is logging's own problem
            return True
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        if record.exc_info and record.exc_info[1] is not None:
            # formatters print exc_text when it is set; exc_info stays for other handlers
            text = "".join(traceback.format_exception(*record.exc_info))
            record.exc_text = redact(text).rstrip("\n")
        elif record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True

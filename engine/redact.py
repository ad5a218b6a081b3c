"""Secrets never echo: every error, log line, stored response and export goes through
:func:`redact`.

Two layers:

- the *known* secrets of this process (an API key read from the OS keyring registers
  itself with :func:`register_secret`) are replaced wherever they appear, whatever shape they
  have — a server that echoes the key back in a 401 body is the case this exists for;
- anything *credential-shaped* is masked by pattern: ``Bearer <token>``, ``sk-…`` keys,
  ``user:password@`` in URLs, and ``api_key=…`` / ``"token": "…"`` style assignments.

Masks are ``***`` so a reader sees that something was there. The registry is per process
and only grows; it holds values the process already has in memory anyway.
"""

from __future__ import annotations

import logging
import re
import threading
import traceback

MASK = "***"
_MIN_SECRET = 6  # shorter strings would mask ordinary words

_known: set[str] = set()
_known_lock = threading.Lock()
_known_re: re.Pattern | None = None

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


def redact(text):
    """``text`` with known secrets and credential-shaped substrings masked; any other
    type is returned unchanged (so callers can pass cells and optional fields)."""
    if not isinstance(text, str) or not text:
        return text
    known = _known_re
    if known is not None:
        text = known.sub(MASK, text)
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

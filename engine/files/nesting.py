"""How deeply a JSON or TOML text nests, measured before it is parsed.

Python's ``json`` and ``tomllib`` parse nested arrays and tables recursively: a file of
100,000 ``[`` ends in a RecursionError deep inside the parser, not in a message saying what
is wrong. User files and model replies are measured first. Hand-written because neither
parser offers a depth limit; the JSON scan runs in C (``bytes.translate``, numpy): keep only
brackets, quotes and backslashes, drop escaped characters, mask what lies inside strings,
and the depth is the running sum of the brackets left.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # numpy loads when a text is measured, not when a reader is imported
    import numpy as np


# Deep enough for any real row, task file or verdict (they nest 2-4 levels).
MAX_NESTING = 64

_JSON_SYNTAX = b'[]{}"\\'
_DROP_ALL_BUT_SYNTAX = bytes(b for b in range(256) if b not in _JSON_SYNTAX)
_ESCAPED = re.compile(rb"\\.", re.DOTALL)
# TOML (task files, a few KB): strings and comments removed by one regular expression
_TOML_STRINGS = re.compile(
    r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*'
)
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")


def _depth(codes: np.ndarray) -> int:
    import numpy as np

    if not codes.size:
        return 0
    opens = (codes == ord("[")) | (codes == ord("{"))
    closes = (codes == ord("]")) | (codes == ord("}"))
    return int(np.cumsum(opens.astype(np.int64) - closes).max(initial=0))


def json_depth(text: str | bytes) -> int:
    """The deepest bracket nesting of a JSON text outside its strings (0 for a scalar)."""
    import numpy as np

    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    syntax = _ESCAPED.sub(b"", data.translate(None, _DROP_ALL_BUT_SYNTAX))
    codes = np.frombuffer(syntax, dtype=np.uint8)
    quotes = codes == ord('"')
    inside = (np.cumsum(quotes) % 2).astype(bool) | quotes
    return _depth(codes[~inside])


def toml_depth(text: str) -> int:
    """The deepest bracket nesting of a TOML text outside strings and comments."""
    import numpy as np

    brackets = _NOT_BRACKETS.sub("", _TOML_STRINGS.sub("", text))
    return _depth(np.frombuffer(brackets.encode("ascii"), dtype=np.uint8))


def too_deep(text: str | bytes, *, toml: bool = False, limit: int = MAX_NESTING) -> str | None:
    """``"nested deeper than N levels"`` when ``text`` nests beyond ``limit``, else None."""
    depth = toml_depth(str(text)) if toml else json_depth(text)
    return f"nested deeper than {limit} levels" if depth > limit else None

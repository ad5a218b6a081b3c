"""Stop strings found as a sequence's bytes grow, decoding only what each token adds.

A sequence stops at the first of its stop strings (in their order) found in its text decoded
as UTF-8 with undecodable bytes ignored; the check runs after every token. Decoding the
whole text each time costs a long answer more per token the longer it gets. Here an
incremental decoder turns each new piece into the characters it completes (a character
split across tokens comes out when its last byte arrives, as a whole decode would give it),
and only the last characters that a stop string could still share with the new ones are
kept. No stop string was in the text before this token, so a new one must end in the new
characters: searching the kept tail plus them finds exactly what searching the whole text
would.
"""

from __future__ import annotations

import codecs


class StopWatch:
    def __init__(self, stops: tuple[str, ...]):
        self.stops = stops
        self._keep = max(len(stop) for stop in stops) - 1
        self._decoder = codecs.getincrementaldecoder("utf-8")("ignore")
        self._tail = ""  # the decoded text's last ``_keep`` characters at most
        self._before = 0  # characters of the decoded text before ``_tail``

    def find(self, piece: bytes) -> int | None:
        """After the sequence's text grew by ``piece``: where (in characters of the whole
        text decoded with errors ignored) the first stop string found starts, or None."""
        window = self._tail + self._decoder.decode(piece)
        for stop in self.stops:
            at = window.find(stop)
            if at >= 0:
                return self._before + at
        cut = max(0, len(window) - self._keep)
        self._before += cut
        self._tail = window[cut:]
        return None

"""Stop strings found from each token's new bytes give exactly what decoding the whole text
after every token gave (the scheduler's rule before), broken characters and all."""

import random

from engine.llm.runtime.stop_strings import StopWatch


def whole_text_rule(pieces: list[bytes], stops: tuple[str, ...]) -> tuple[int, bytes] | None:
    """The old rule: after each piece, decode everything and search it."""
    text = bytearray()
    for n, piece in enumerate(pieces):
        text += piece
        decoded = text.decode("utf-8", "ignore")
        for stop in stops:
            at = decoded.find(stop)
            if at >= 0:
                return n, decoded[:at].encode("utf-8")
    return None


def tail_rule(pieces: list[bytes], stops: tuple[str, ...]) -> tuple[int, bytes] | None:
    watch, text = StopWatch(stops), bytearray()
    for n, piece in enumerate(pieces):
        text += piece
        at = watch.find(piece)
        if at is not None:
            return n, text.decode("utf-8", "ignore")[:at].encode("utf-8")
    return None


STOPS = [("\nUser:", "\nAssistant:"), ("।",), ("প্রশ্ন:", "\n\n", "x"), ("ab", "b"), ("",)]
ALPHABET = ["\n", "User", ":", "Assistant", "প্র", "শ্ন", "।", "a", "b", "x", " ", "উত্তর"]


def random_pieces(rng: random.Random) -> list[bytes]:
    """Text cut into token-like pieces at any byte, with stray and truncated bytes."""
    data = bytearray()
    for _ in range(rng.randint(1, 30)):
        roll = rng.random()
        if roll < 0.1:
            data += bytes([rng.choice([0x80, 0xBF, 0xC3, 0xE0, 0xE0, 0xF0, 0xFF])])
        else:
            data += rng.choice(ALPHABET).encode("utf-8")
    cuts = sorted(rng.sample(range(1, len(data)), min(len(data) - 1, rng.randint(0, 12))))
    return [bytes(data[a:b]) for a, b in zip([0, *cuts], [*cuts, len(data)])]


def test_the_tail_finds_what_the_whole_text_finds():
    rng = random.Random(48)
    hits = 0
    for _ in range(20_000):
        pieces, stops = random_pieces(rng), rng.choice(STOPS)
        expected = whole_text_rule(pieces, stops)
        assert tail_rule(pieces, stops) == expected, (pieces, stops)
        hits += expected is not None
    assert hits > 5_000  # the cases are not all misses


def test_a_stop_split_across_pieces_and_characters():
    pieces = ["উত্তর\n".encode(), "প্".encode(), "রশ্ন".encode()[:-2], "রশ্ন".encode()[-2:] + b":"]
    assert tail_rule(pieces, ("প্রশ্ন:",)) == (3, "উত্তর\n".encode())
    assert tail_rule([b"ab", b"c"], ("abc", "b")) == (0, b"a")  # whichever stop comes first

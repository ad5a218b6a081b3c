"""Option order: drawn per prompt from a recorded seed (the paper's shuffling), or fully
counterbalanced (every probe asked in both orders).

A probe's prompt is a stem with ``{a}`` (the option shown first) and ``{b}`` (second). The
draw hashes the seed with the probe's stable identity (set name and external id), so the
same seed gives the same orders in any workspace and on any rerun; the order actually shown
is part of each reply's item key (``p<probe id>.xy`` / ``.yx``) and so recorded per reply.
"""

from __future__ import annotations

import hashlib

ORDERS = ("xy", "yx")


def drawn_order(seed: int, set_name: str, ext_id: str) -> str:
    digest = hashlib.sha256(f"{seed}\x1f{set_name}\x1f{ext_id}".encode()).digest()
    return ORDERS[digest[0] & 1]


def orders_for(seed: int, set_name: str, ext_id: str, counterbalance: bool) -> tuple[str, ...]:
    return ORDERS if counterbalance else (drawn_order(seed, set_name, ext_id),)


def shown_sides(order: str) -> tuple[str, str]:
    """The group sides in the order they were shown: 'xy' -> ('x', 'y')."""
    if order not in ORDERS:
        raise ValueError(f"order must be one of {ORDERS}, not {order!r}")
    return (order[0], order[1])


def render(stem: str, option_x: str, option_y: str, order: str) -> str:
    first, second = (option_x, option_y) if order == "xy" else (option_y, option_x)
    before, rest = stem.split("{a}", 1)
    middle, after = rest.split("{b}", 1)
    return f"{before}{first}{middle}{second}{after}"


def item_key(probe_id: int, order: str) -> str:
    return f"p{probe_id}.{order}"


def parse_item_key(key: str) -> tuple[int, str] | None:
    if not key.startswith("p") or "." not in key:
        return None
    pid, order = key[1:].split(".", 1)
    if not pid.isdigit() or order not in ORDERS:
        return None
    return int(pid), order

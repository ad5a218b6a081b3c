"""Per-model prices and what a job will cost, online and as a batch.

Prices are currency units per million tokens (input, output, cached input) and a batch
discount (a fraction: 0.5 is half price), kept in ``llm_prices`` beside the model. A model
without a price has no cost: it is said as "cost unknown", never as 0.

Token counts of requests that have not run are estimated: endpoint models have no
tokenizer here, so input tokens are the prompt's characters divided by
``CHARS_PER_TOKEN`` (Bengali text tokenizes densely; the figure leans high) and output
tokens are the request's ``max_tokens`` (an upper bound). Time online comes from the model's
past online runs of the same step kind (seconds per item: a judge's pace says nothing of a
generation's); runs answered from batch files took no online time and are left out; with
none it is unknown.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import asdict, dataclass
from typing import Any, TypedDict

from engine.errors import UserError
from engine.i18n import _
from engine.llm.types import Request
from engine.workspace.store import Workspace

CHARS_PER_TOKEN = 3.0
PER = {"": 1.0, "M": 1.0, "K": 1000.0, "1K": 1000.0, "1M": 1.0}
# the provider's completion window of a batch (OpenAI's Batch API: 24 h)
BATCH_WINDOW_HOURS = 24


@dataclass(frozen=True)
class Price:
    price_in: float | None = None  # per million input tokens
    price_out: float | None = None  # per million output tokens
    price_cached_in: float | None = None
    batch_discount: float = 0.0

    @property
    def known(self) -> bool:
        return self.price_in is not None and self.price_out is not None

    def cost(self, tokens_in: int, tokens_out: int, *, batch: bool) -> float | None:
        """The cost of these tokens, or None without a price."""
        if not self.known:
            return None
        assert self.price_in is not None and self.price_out is not None
        online = (tokens_in * self.price_in + tokens_out * self.price_out) / 1e6
        return online * (1.0 - self.batch_discount) if batch else online


def price_fields(price: Price) -> dict:
    return asdict(price)


def parse_price(text: str) -> float:
    """A price per million tokens from ``0.15``, ``0.15/M`` or ``0.00015/K``."""
    match = re.fullmatch(r"\s*([0-9]*\.?[0-9]+)\s*(?:/\s*(1?[MK]))?\s*", text or "", re.I)
    if not match:
        raise UserError(
            _("price {text!r} is not a number per million tokens (e.g. 0.15/M)").format(text=text)
        )
    return float(match.group(1)) * PER[(match.group(2) or "").upper()]


def parse_discount(text: str) -> float:
    """A batch discount from ``0.5`` or ``50%``: a fraction in [0, 1)."""
    raw = (text or "").strip()
    try:
        value = float(raw[:-1]) / 100 if raw.endswith("%") else float(raw)
    except ValueError:
        value = -1.0
    if not 0.0 <= value < 1.0:
        raise UserError(
            _("batch discount {text!r} must be a fraction from 0 to below 1 (or 0-99%)").format(
                text=text
            )
        )
    return value


def model_price(ws: Workspace, model_id: int) -> Price:
    rows = ws.query("SELECT * FROM llm_prices WHERE model_id = ?", (model_id,))
    if not rows:
        return Price()
    row = rows[0]
    return Price(row["price_in"], row["price_out"], row["price_cached_in"], row["batch_discount"])


def set_price(ws: Workspace, model_id: int, **changes: float | None) -> Price:
    """Set the given fields of a model's price (None leaves a field as it is)."""
    before = asdict(model_price(ws, model_id))
    after = Price(**{**before, **{k: v for k, v in changes.items() if v is not None}})
    with ws.transaction() as conn:
        conn.execute(
            "INSERT INTO llm_prices(model_id, price_in, price_out, price_cached_in, "
            "batch_discount) VALUES (?, ?, ?, ?, ?) ON CONFLICT(model_id) DO UPDATE SET "
            "price_in = excluded.price_in, price_out = excluded.price_out, "
            "price_cached_in = excluded.price_cached_in, "
            "batch_discount = excluded.batch_discount",
            (
                model_id,
                after.price_in,
                after.price_out,
                after.price_cached_in,
                after.batch_discount,
            ),
        )
    return after


def describe_price(price: Price) -> str:
    if not price.known:
        return _("no price (cost unknown)")
    cached = (
        _(", cached input {p}/M").format(p=_money(price.price_cached_in))
        if price.price_cached_in is not None
        else ""
    )
    return _("input {i}/M, output {o}/M{cached}, batch discount {d:.0%}").format(
        i=_money(price.price_in), o=_money(price.price_out), cached=cached, d=price.batch_discount
    )


def request_tokens(req: Request) -> tuple[int, int]:
    """Estimated (input, output) tokens of a request not yet run."""
    if req.prompt is not None:
        chars = len(req.prompt)
    else:
        chars = sum(len(m.content) for m in req.messages or ())
    if req.json_schema:
        chars += len(json.dumps(req.json_schema, ensure_ascii=False))
    return math.ceil(chars / CHARS_PER_TOKEN), req.sampler.max_tokens


def seconds_per_item(ws: Workspace, model_id: int, kind: str | None = None) -> float | None:
    """Seconds per item of the model's past online runs of step ``kind`` (their cards'
    actuals), or None. A run with answers from batch results is left out: cards written
    before replays stopped recording their timing add the replay's near-zero time to the
    online part, and the two cannot be told apart."""
    seconds = items = 0.0
    sql, params = "SELECT card FROM runs WHERE model_id = ?", list[object]([model_id])
    if kind is not None:
        sql, params = sql + " AND kind = ?", [model_id, kind]
    for row in ws.query(sql, tuple(params)):
        card = json.loads(row["card"])
        if ((card.get("batch") or {}).get("actual") or {}).get("items"):
            continue
        actual = (card.get("plan_timing") or {}).get("actual") or {}
        seconds += float(actual.get("seconds") or 0.0)
        items += float(actual.get("items") or 0)
    return seconds / items if items else None


class CostEstimate(TypedDict):
    """:func:`cost_estimate`: per model (``model``, ``requests``, tokens, ``online_seconds``,
    ``batch_hours``, ``online_cost``, ``batch_cost``; None: unknown) and the total."""

    models: list[dict[str, Any]]
    total: dict[str, Any]
    chars_per_token: float


def cost_estimate(
    ws: Workspace,
    requests_by_model: dict[int, list[Request]],
    kinds: dict[int, str] | None = None,
) -> CostEstimate:
    """Tokens, time and cost of each model's requests, online and as a batch, and the total.
    ``kinds``: the step kind of each model's requests (its online pace is that kind's).
    A cost or time that cannot be known is None (said "unknown", never 0)."""
    per_model: list[dict[str, Any]] = []
    for model_id, requests in requests_by_model.items():
        tokens_in = tokens_out = 0
        for req in requests:
            i, o = request_tokens(req)
            tokens_in, tokens_out = tokens_in + i, tokens_out + o
        price = model_price(ws, model_id)
        pace = seconds_per_item(ws, model_id, (kinds or {}).get(model_id))
        name = ws.scalar("SELECT name FROM models WHERE id = ?", (model_id,))
        per_model.append(
            {
                "model": name,
                "requests": len(requests),
                "input_tokens": tokens_in,
                "output_tokens": tokens_out,
                "online_seconds": round(pace * len(requests), 1) if pace is not None else None,
                "batch_hours": BATCH_WINDOW_HOURS,
                "online_cost": price.cost(tokens_in, tokens_out, batch=False),
                "batch_cost": price.cost(tokens_in, tokens_out, batch=True),
            }
        )
    total: dict = {
        "requests": sum(m["requests"] for m in per_model),
        "input_tokens": sum(m["input_tokens"] for m in per_model),
        "output_tokens": sum(m["output_tokens"] for m in per_model),
    }
    for key in ("online_seconds", "online_cost", "batch_cost"):
        values = [m[key] for m in per_model]
        total[key] = None if any(v is None for v in values) else sum(values)
    return {"models": per_model, "total": total, "chars_per_token": CHARS_PER_TOKEN}


def actual_cost(ws: Workspace, model_id: int, tokens_in: int, tokens_out: int) -> float | None:
    """What stored tokens cost at the model's batch price (None without a price)."""
    return model_price(ws, model_id).cost(tokens_in, tokens_out, batch=True)


def _money(value: float | None) -> str:
    # the lines say "cost {value}": unknown is said once
    return _("unknown") if value is None else f"{value:.4f}".rstrip("0").rstrip(".")


def _seconds(value: float | None) -> str:
    if value is None:
        return _("time unknown")
    # a known pace that rounds to 0 s is still time, not none
    return _("under 1 s") if value < 0.5 else _("{s:.0f} s").format(s=value)


def describe_estimate(estimate: dict) -> list[str]:
    """One line per model and one for the total."""
    lines = []
    for m in estimate["models"]:
        lines.append(
            _(
                "{model}: {n} requests, ~{i} input + ≤{o} output tokens; online "
                "{online_time}, cost {online_cost}; as a batch within {hours} h, cost "
                "{batch_cost}"
            ).format(
                model=m["model"],
                n=m["requests"],
                i=m["input_tokens"],
                o=m["output_tokens"],
                online_time=_seconds(m["online_seconds"]),
                online_cost=_money(m["online_cost"]),
                hours=m["batch_hours"],
                batch_cost=_money(m["batch_cost"]),
            )
        )
    t = estimate["total"]
    lines.append(
        _(
            "total: {n} requests, ~{i} input + ≤{o} output tokens; online {online_time}, cost "
            "{online_cost}; as a batch, cost {batch_cost}"
        ).format(
            n=t["requests"],
            i=t["input_tokens"],
            o=t["output_tokens"],
            online_time=_seconds(t["online_seconds"]),
            online_cost=_money(t["online_cost"]),
            batch_cost=_money(t["batch_cost"]),
        )
    )
    return lines

"""The grammar keeps the schema's property order: a judge writes its reasoning first."""

from engine.llm.runtime.sampling import GrammarCache
from engine.llm.types import Request

SCHEMA = {
    "type": "object",
    "properties": {
        "zeta_reasoning": {"type": "string", "maxLength": 50},
        "alpha_score": {"enum": [0, 1, 2, 3, 4, 5]},
    },
    "required": ["zeta_reasoning", "alpha_score"],
}


def test_grammar_follows_property_order():
    gbnf = GrammarCache().gbnf(SCHEMA)
    root = next(line for line in gbnf.splitlines() if line.startswith("root"))
    assert root.index("zeta-reasoning-kv") < root.index("alpha-score-kv")


def test_cache_key_distinguishes_property_order():
    swapped = {**SCHEMA, "properties": dict(reversed(list(SCHEMA["properties"].items())))}
    a = Request(key="k", prompt="p", json_schema=SCHEMA).cache_key("m")
    b = Request(key="k", prompt="p", json_schema=swapped).cache_key("m")
    assert a != b

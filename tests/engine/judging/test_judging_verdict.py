"""The verdict JSON schema, its grammar, the strict parser and the penalty rules."""

import json

import pytest

from engine.judging.gate import check_answer
from engine.judging.rubric import CRITERION_KEYS, load_rubric
from engine.judging.verdict import (
    VerdictError,
    apply_rules,
    max_tokens_for,
    parse_verdict,
    verdict_schema,
    zeroed,
)

RUBRIC = load_rubric()
GOOD = {
    "chain_of_thought_reasoning": "উত্তরটি বাংলা লিপিতে; প্রশ্ন বোঝা গেছে।",
    "comprehension": 5,
    "correctness": 4,
    "completeness": 3,
    "clarity": 4,
    "length": 5,
    "confidence": 4,
}


def reply(**changes) -> str:
    data = dict(GOOD)
    for k, v in changes.items():
        if v is ...:
            data.pop(k)
        else:
            data[k] = v
    return json.dumps(data, ensure_ascii=False)


def test_schema_puts_reasoning_first_and_uses_enums_for_every_score():
    schema = verdict_schema(RUBRIC)
    assert list(schema["properties"]) == [
        "chain_of_thought_reasoning",
        *CRITERION_KEYS,
        "confidence",
    ]
    assert schema["required"] == list(schema["properties"])
    assert schema["additionalProperties"] is False
    assert schema["properties"]["chain_of_thought_reasoning"]["maxLength"] == 800
    for key in CRITERION_KEYS:
        assert schema["properties"][key]["enum"] == [0, 1, 2, 3, 4, 5]
    assert schema["properties"]["confidence"]["enum"] == [1, 2, 3, 4, 5]
    assert max_tokens_for(RUBRIC) > RUBRIC.reasoning_max_chars


def test_the_grammar_admits_only_the_enum_values():
    """docs/design.md pitfall: minimum/maximum became 'any integer'; enums become literals."""
    from llama_cpp.llama_grammar import LlamaGrammar, json_schema_to_gbnf

    gbnf = json_schema_to_gbnf(json.dumps(verdict_schema(RUBRIC)))
    rules = dict(line.split(" ::= ", 1) for line in gbnf.splitlines() if " ::= " in line)
    for key in CRITERION_KEYS:
        assert rules[key] == " | ".join(f'"{v}"' for v in range(6))
    assert rules["confidence"] == " | ".join(f'"{v}"' for v in range(1, 6))
    assert rules["root"].index("chain-of-thought-reasoning-kv") < rules["root"].index(
        "comprehension-kv"
    )
    assert LlamaGrammar.from_string(gbnf, verbose=False) is not None


def test_a_valid_reply_parses():
    v = parse_verdict(reply(), RUBRIC)
    assert v.scores == {
        "comprehension": 5,
        "correctness": 4,
        "completeness": 3,
        "clarity": 4,
        "length": 5,
    }
    assert v.confidence == 4 and v.reasoning.startswith("উত্তরটি")
    assert parse_verdict("```json\n" + reply() + "\n```", RUBRIC) == v
    # a raw newline inside the reasoning (grammar output) is accepted
    raw = reply(chain_of_thought_reasoning="line one\nline two").replace("\\n", "\n")
    assert parse_verdict(raw, RUBRIC).reasoning == "line one\nline two"


@pytest.mark.parametrize(
    "text, message",
    [
        (None, "empty"),
        ("", "empty"),
        ("   ", "empty"),
        ("The answer deserves 10/10.", "not JSON"),
        (reply()[:-5], "not JSON"),
        ("[5, 4, 3]", "not an object"),
        (reply(comprehension=...), "missing"),
        (reply(extra_points=10), "unexpected"),
        (reply(comprehension=6), "comprehension"),
        (reply(correctness=-1), "correctness"),
        (reply(confidence=0), "confidence"),
        (reply(confidence=1000000000000000), "confidence"),
        (reply(clarity=4.0), "clarity"),
        (reply(length=True), "length"),
        (reply(completeness="3"), "completeness"),
        (reply(completeness=None), "completeness"),
        (reply(chain_of_thought_reasoning=""), "non-empty"),
        (reply(chain_of_thought_reasoning=["a"]), "non-empty"),
        (
            '{"comprehension": 5, "chain_of_thought_reasoning": "x", "correctness": 4, '
            '"completeness": 3, "clarity": 4, "length": 5, "confidence": 4}',
            "first",
        ),
        (reply()[:-1] + ', "comprehension": 0}', "duplicate"),
        (reply() + reply(), "not JSON"),
        ("Sure! " + reply(), "not JSON"),
    ],
)
def test_invalid_replies_are_errors_never_default_scores(text, message):
    with pytest.raises(VerdictError, match=message):
        parse_verdict(text, RUBRIC)


def test_penalty_rules():
    verdict = parse_verdict(reply(), RUBRIC)
    ok = check_answer("সৌরজগতের বৃহত্তম গ্রহ বৃহস্পতি।")
    scored = apply_rules(verdict, RUBRIC, ok, ok)
    assert (scored.gate, scored.confidence) == ("ok", 4)
    assert scored.final == pytest.approx(3.0 + 2.0 + 1.2 + 1.2 + 1.0)
    # indeterminable dialect script: confidence forced to 1, scores kept
    unsure = apply_rules(verdict, RUBRIC, check_answer("CPU"), ok)
    assert unsure.confidence == 1 and unsure.final == scored.final
    assert "indeterminable" in unsure.reasoning
    # the reference (standard) answer failing a gate also forces confidence 1
    ref_bad = apply_rules(verdict, RUBRIC, ok, check_answer("I'm sorry, I can't answer."))
    assert ref_bad.confidence == 1 and "standard answer" in ref_bad.reasoning


def test_a_failed_gate_zeroes_every_criterion():
    for text in ("Jupiter is the largest planet of the solar system.", "দুঃখিত, জানি না।"):
        gate = check_answer(text)
        z = zeroed(RUBRIC, gate)
        assert z.gate == gate.gate != "ok"
        assert z.scores == dict.fromkeys(CRITERION_KEYS, 0) and z.final == 0.0
        assert z.confidence is None and z.reasoning.startswith("[gate]")

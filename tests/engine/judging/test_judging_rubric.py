"""The rubric as data: validation, content hash, and the weighted final score."""

import json

import pytest

from engine.errors import UserError
from engine.judging.rubric import CRITERION_KEYS, load_rubric, rubric_from_dict


def default_data() -> dict:
    from engine.judging.rubric import default_rubric_path

    return json.loads(default_rubric_path().read_text(encoding="utf-8"))


def test_default_rubric_has_the_papers_weights_statements_and_scales():
    r = load_rubric()
    assert r.keys == CRITERION_KEYS
    assert [c.weight for c in r.criteria] == [3.0, 2.5, 2.0, 1.5, 1.0]
    assert r.criteria[0].statement == (
        "The LLM correctly understood and comprehended the dialectal question, and the "
        "response directly addresses what was asked."
    )
    assert r.criteria[1].statement.startswith("The dialectal response is factually correct AND")
    assert [v for v, _ in r.likert] == [0, 1, 2, 3, 4, 5]
    assert [v for v, _ in r.confidence] == [1, 2, 3, 4, 5]
    assert "<25%" in r.confidence[0][1].replace("less than 25%", "<25%")
    assert r.danger_threshold == 4.0 and r.review_confidence_threshold == 3
    assert r.max_score == 10.0
    assert len(r.content_hash) == 64 and r.version.startswith("dialect-degradation@")


def test_final_score_is_the_weighted_sum_over_the_likert_max():
    r = load_rubric()
    assert r.final_score(dict.fromkeys(CRITERION_KEYS, 5)) == 10.0
    assert r.final_score(dict.fromkeys(CRITERION_KEYS, 0)) == 0.0
    scores = {"comprehension": 4, "correctness": 3, "completeness": 2, "clarity": 5, "length": 1}
    expected = 3.0 * 4 / 5 + 2.5 * 3 / 5 + 2.0 * 2 / 5 + 1.5 * 5 / 5 + 1.0 * 1 / 5
    assert r.final_score(scores) == pytest.approx(expected) == pytest.approx(6.4)


@pytest.mark.parametrize("bad", [6, -1, 2.5, True, "4", None])
def test_final_score_refuses_values_off_the_scale(bad):
    r = load_rubric()
    scores = dict.fromkeys(CRITERION_KEYS, 3) | {"clarity": bad}
    with pytest.raises(ValueError, match="clarity"):
        r.final_score(scores)


def test_hash_changes_with_content_not_with_key_order():
    data = default_data()
    h = rubric_from_dict(data).content_hash
    assert rubric_from_dict(dict(reversed(list(data.items())))).content_hash == h
    data["criteria"][0]["weight"] = 3.5
    assert rubric_from_dict(data).content_hash != h


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda d: d["criteria"][2].update(weight=0), "weight must be positive"),
        (lambda d: d["criteria"][2].update(weight=-1.5), "weight must be positive"),
        (lambda d: d["criteria"][3].update(key="comprehension"), "unique"),
        (lambda d: d["criteria"][3].update(key="style"), "exactly"),
        (lambda d: d["criteria"].pop(), "exactly"),
        (lambda d: d["likert"].pop("5"), "likert"),
        (lambda d: d["likert"].update({"6": "beyond"}), "likert"),
        (lambda d: d["confidence"].update({"0": "none"}), "confidence"),
        (lambda d: d["likert"].update({"3": " "}), "anchor"),
        (lambda d: d.update(danger_threshold=11), "danger_threshold"),
        (lambda d: d.pop("review_confidence_threshold"), "review_confidence_threshold"),
    ],
)
def test_invalid_rubrics_are_rejected_with_the_reason(mutate, message):
    data = default_data()
    mutate(data)
    with pytest.raises(ValueError, match=message):
        rubric_from_dict(data)


def test_a_rubric_file_that_is_not_json_is_a_user_error(tmp_path):
    path = tmp_path / "r.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(UserError, match="not valid JSON"):
        load_rubric(path)
    with pytest.raises(UserError, match="no such file"):
        load_rubric(tmp_path / "missing.json")

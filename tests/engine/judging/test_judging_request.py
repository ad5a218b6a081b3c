"""The judging steps' requests: defaults defined once (the bundled rubric and template carried
as data), every value checked and named, JSON and digest following the rubric."""

from __future__ import annotations

import json

import pytest

from engine.errors import Setting, UserError, references
from engine.judging.prompt import judge_template_text, load_judge_template
from engine.judging.request import CalibrateRequest, JudgeRequest, ReplicateRequest
from engine.judging.rubric import load_rubric, rubric_data
from engine.llm.runs.step_request import RequestError, request_from_json

KINDS = [JudgeRequest, CalibrateRequest, ReplicateRequest]


def test_defaults_are_the_steps_own_and_carry_the_bundled_files():
    request = JudgeRequest()
    assert request.rubric == rubric_data() and request.template == judge_template_text()
    assert request.parsed_rubric.content_hash == load_rubric().content_hash
    assert request.judge_template.version == load_judge_template().version  # the same run card
    assert request.max_attempts == 3 and request.schedule is None
    assert request.judge is None and request.answers_of == () and not request.primary
    assert CalibrateRequest().max_attempts == 3
    replicate = ReplicateRequest(run_id=4)
    assert (replicate.sample, replicate.seed) == (20, 0)


def test_a_users_template_keeps_its_file_name_in_the_run_card():
    text = "Judge fairly.\n" + judge_template_text()
    request = JudgeRequest(template=text, template_name="mine.txt")
    assert request.judge_template.version.startswith("mine.txt@")
    assert request.judge_template.content_hash != JudgeRequest().judge_template.content_hash


def test_the_rubric_is_a_copy():
    data = rubric_data()
    request = JudgeRequest(rubric=data)
    data["reasoning_max_chars"] = 60
    assert request.rubric["reasoning_max_chars"] != 60


def bad_rubric(**change) -> dict:
    return {**rubric_data(), **change}


@pytest.mark.parametrize(
    ("kind", "fields", "named"),
    [
        (JudgeRequest, {"rubric": "default.json"}, Setting.RUBRIC),
        (JudgeRequest, {"rubric": bad_rubric(danger_threshold=None)}, Setting.RUBRIC),
        (JudgeRequest, {"rubric": bad_rubric(criteria=[])}, Setting.RUBRIC),
        (JudgeRequest, {"rubric": bad_rubric(danger_threshold=float("nan"))}, Setting.RUBRIC),
        (JudgeRequest, {"rubric": bad_rubric(name={1, 2})}, Setting.RUBRIC),
        (JudgeRequest, {"template": "no user part"}, Setting.JUDGE_TEMPLATE),
        (JudgeRequest, {"template": ""}, Setting.JUDGE_TEMPLATE),
        (JudgeRequest, {"template": "a\0b"}, Setting.JUDGE_TEMPLATE),
        (JudgeRequest, {"template_name": "a\u202eb"}, Setting.JUDGE_TEMPLATE),
        (JudgeRequest, {"judge": " "}, Setting.JUDGE_MODEL),
        (JudgeRequest, {"max_attempts": 0}, Setting.MAX_ATTEMPTS),
        (JudgeRequest, {"max_attempts": 10**6}, Setting.MAX_ATTEMPTS),
        (JudgeRequest, {"answers_of": "gemma"}, Setting.ANSWERS_OF),
        (JudgeRequest, {"answers_of": ("",)}, Setting.ANSWERS_OF),
        (JudgeRequest, {"primary": "yes"}, Setting.PRIMARY),
        (JudgeRequest, {"n_seq": 0}, Setting.N_SEQ),
        (CalibrateRequest, {"refill": -1}, Setting.REFILL),
        (CalibrateRequest, {"rubric": []}, Setting.RUBRIC),
        (ReplicateRequest, {"run_id": None}, Setting.RUN),
        (ReplicateRequest, {"run_id": 0}, Setting.RUN),
        (ReplicateRequest, {"run_id": 1, "sample": 0}, Setting.SAMPLE),
        (ReplicateRequest, {"run_id": 1, "seed": -1}, Setting.SEED),
        (ReplicateRequest, {"run_id": 1, "seed": 1.5}, Setting.SEED),
    ],
)
def test_a_bad_value_names_its_field(kind, fields, named):
    with pytest.raises(RequestError) as caught:
        kind(**fields)
    assert caught.value.setting == named
    assert [r.name for r in references(str(caught.value))][:1] == [named.value]


def test_json_round_trip_and_digest_follow_the_rubric():
    request = JudgeRequest(judge="qwen", answers_of=("gemma", "llama"), primary=True, n_seq=4)
    data = json.loads(json.dumps(request.as_json()))
    assert data["step"] == "judge" and data["fields"]["rubric"]["name"] == "dialect-degradation"
    again = request_from_json(KINDS, data)
    assert again == request and again.digest() == request.digest()
    edited = JudgeRequest(
        judge="qwen",
        answers_of=("gemma", "llama"),
        primary=True,
        n_seq=4,
        rubric=bad_rubric(reasoning_max_chars=60),
    )
    assert edited.digest() != request.digest()
    # the same settings for another step are another request
    calibrate = CalibrateRequest(judge="qwen", n_seq=4)
    assert calibrate.digest() != JudgeRequest(judge="qwen", n_seq=4).digest()
    assert request_from_json(KINDS, calibrate.as_json()) == calibrate
    replicate = ReplicateRequest(run_id=7, sample=5, seed=2**40)
    assert request_from_json(KINDS, json.loads(json.dumps(replicate.as_json()))) == replicate


def test_from_json_checks_the_carried_files():
    good = JudgeRequest().as_json()
    with pytest.raises(RequestError) as caught:
        JudgeRequest.from_json({**good, "fields": {**good["fields"], "template": "x $y"}})
    assert caught.value.setting == Setting.JUDGE_TEMPLATE
    with pytest.raises(UserError, match="unknown fields"):
        JudgeRequest.from_json({**good, "fields": {**good["fields"], "rubric_path": "/etc"}})

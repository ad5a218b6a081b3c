"""The translate and eval-translation requests: defaults defined once, every value checked,
JSON and digest."""

from __future__ import annotations

import json

import pytest

from engine.errors import Setting, UserError, references
from engine.llm.runs.step_request import RequestError, request_from_json
from engine.translation.request import EvalTranslationRequest, TranslateRequest

TRANSLATE = {"question_set": "demo", "dialects": ("chittagong",)}
EVAL = {"dialects": ("chittagong",)}


def test_defaults_are_the_steps_own():
    request = TranslateRequest(**TRANSLATE)
    assert request.model is None and request.limit is None
    assert request.corpora == () and request.splits == ("train", "test")
    assert request.encoder is None
    evaluation = EvalTranslationRequest(**EVAL)
    assert evaluation.judge is None and evaluation.limit is None and evaluation.seed == 0
    assert evaluation.split is None and evaluation.normalize is None
    assert evaluation.splits == ("train", "test")
    # what a dialog reads for its controls is the same default
    assert TranslateRequest.splits == request.splits and EvalTranslationRequest.seed == 0


def test_lists_become_tuples_and_names_are_folded():
    request = TranslateRequest(
        question_set="sample  questions", dialects=["sylhet", "chittagong", "sylhet"]
    )
    assert request.question_set == "sample questions"
    assert request.dialects == ("sylhet", "chittagong")


@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ({"question_set": None}, Setting.QUESTIONS),
        ({"question_set": "  "}, Setting.QUESTIONS),
        ({"dialects": ()}, Setting.TARGET_DIALECTS),
        ({"dialects": "sylhet"}, Setting.TARGET_DIALECTS),
        ({"dialects": ("standard",)}, Setting.TARGET_DIALECTS),
        ({"dialects": ("syl\u200bhet",)}, Setting.TARGET_DIALECTS),
        ({"model": ""}, Setting.MODEL),
        ({"limit": 0}, Setting.LIMIT),
        ({"limit": "3"}, Setting.LIMIT),
        ({"splits": ()}, Setting.SPLITS),
        ({"splits": ("train", "validation")}, Setting.SPLITS),
        ({"corpora": ("\u202ecorpus",)}, Setting.CORPORA),
        ({"encoder": ""}, Setting.ENCODER),
        ({"encoder": "a\0b"}, Setting.ENCODER),
    ],
)
def test_a_bad_translate_value_names_its_field(fields, named):
    with pytest.raises(RequestError) as caught:
        TranslateRequest(**{**TRANSLATE, **fields})
    assert caught.value.setting == named
    assert [r.name for r in references(str(caught.value))] == [named.value]


@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ({"dialects": ()}, Setting.TARGET_DIALECTS),
        ({"judge": "x" * 500}, Setting.JUDGE_MODEL),
        ({"seed": -1}, Setting.SEED),
        ({"seed": 1.5}, Setting.SEED),
        ({"seed": True}, Setting.SEED),
        ({"limit": -2}, Setting.LIMIT),
        ({"normalize": "nfkc"}, Setting.NORMALIZE),
        ({"split": "train"}, Setting.SPLIT),  # an indexed split is not held out
        ({"split": "validation", "splits": ("validation",)}, Setting.SPLITS),
    ],
)
def test_a_bad_eval_value_names_its_field(fields, named):
    with pytest.raises(RequestError) as caught:
        EvalTranslationRequest(**{**EVAL, **fields})
    assert caught.value.setting == named


def test_json_round_trip_and_digest():
    request = TranslateRequest(
        **TRANSLATE, model="echo", limit=2, corpora=("sample corpus",), encoder="/models/e5"
    )
    data = json.loads(json.dumps(request.as_json()))
    assert data["step"] == "translate" and data["version"] == 1
    assert data["fields"]["splits"] == ["train", "test"]
    assert TranslateRequest.from_json(data) == request
    assert TranslateRequest.from_json(data).digest() == request.digest()
    assert TranslateRequest(**TRANSLATE, model="echo", limit=3).digest() != request.digest()
    evaluation = EvalTranslationRequest(**EVAL, judge="judge", limit=1, seed=7, normalize="none")
    kinds = [TranslateRequest, EvalTranslationRequest]
    assert request_from_json(kinds, json.loads(json.dumps(evaluation.as_json()))) == evaluation
    assert request_from_json(kinds, data) == request
    assert evaluation.digest() != EvalTranslationRequest(**EVAL, judge="judge").digest()


def test_from_json_refuses_what_it_cannot_read():
    good = TranslateRequest(**TRANSLATE).as_json()
    with pytest.raises(UserError, match="unknown fields"):
        TranslateRequest.from_json({**good, "fields": {**good["fields"], "judge": "x"}})
    with pytest.raises(UserError, match="not a request of the step"):
        EvalTranslationRequest.from_json(good)
    with pytest.raises(RequestError):
        TranslateRequest.from_json({**good, "fields": {**good["fields"], "splits": ["dev"]}})


RENDERED = "question,chittagong\nতুমি কোথায় যাও?,তুঁই কডে যর?\nভাত খেয়েছ?,ভাত খাইয়ো?\n"


def test_a_translation_with_nothing_to_draft_loads_no_index(tmp_path, monkeypatch):
    """Every question already has a person's rendering in the chosen dialect: the result
    says so (0 written, all kept) before the encoder or the index is touched."""
    from engine.importing.question_import import import_questions
    from engine.llm.models.registry import register_endpoint
    from engine.translation import request as translate_request
    from engine.workspace.store import Workspace

    def no_index(*args, **kwargs):  # fault injection: the index must not be opened
        raise AssertionError("the retriever was opened")

    monkeypatch.setattr(translate_request, "open_retriever", no_index)
    rendered = tmp_path / "rendered.csv"
    rendered.write_text(RENDERED, encoding="utf-8")
    with Workspace(tmp_path / "ws.sqlite") as ws:
        import_questions(ws, rendered, name="rendered")
        register_endpoint(ws, "m", ["http://127.0.0.1:9"], "m", is_default=True)
        request = TranslateRequest(question_set="rendered", dialects=("chittagong",), limit=10)
        result = request.run(ws)
    assert result.summary.written == 0 and result.summary.items == 0
    assert result.summary.protected == 2 and result.index_rebuilt is False


def test_the_limit_counts_questions_still_to_draft(tmp_path):
    """The sample's first questions are rendered by people: "the first 10" are the first 10
    that a run would draft, so a first translation of the sample writes drafts."""
    from engine.samples.workspace import build_sample_workspace
    from engine.translation.api import translation_items
    from engine.workspace.store import Workspace

    with Workspace(build_sample_workspace(tmp_path / "sample.sqlite"), create=False) as ws:
        rendered = {
            r["question_id"]
            for r in ws.query("SELECT question_id FROM variants WHERE dialect = 'chittagong'")
        }
        items, kept = translation_items(ws, "sample questions", ["chittagong"], 10)
        again, _kept = translation_items(ws, "sample questions", ["chittagong"], 10)
    assert len(items) == 10 and not {q["id"] for q, _d in items} & rendered
    assert kept == len(rendered) > 0
    assert [q["id"] for q, _d in again] == [q["id"] for q, _d in items]

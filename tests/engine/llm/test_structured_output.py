"""Structured output per endpoint: the body each mode sends, the probe that finds the mode
(fault servers for the forms a server may refuse or ignore; the real llama-cpp-python server
is in tests/cli/test_cli_batch_real_server.py), where the finding is kept, and the run keys
and cards it gives."""

from __future__ import annotations

import hashlib
import json
import threading

import pytest

from engine.llm.endpoints.openai_wire import request_body
from engine.llm.endpoints.probe import PROBE_REPLY, honoured
from engine.llm.endpoints.structured import MODES
from engine.llm.runs.output_mode import find_mode, stored_mode
from engine.llm.runs.run import canonical_json, open_run, run_card
from engine.llm.types import Message, Request, Sampler
from tests.engine.llm.test_llm_endpoint import endpoint_row
from tests.fault_server import LocalServer, read_body, send_json

SCHEMA = {"type": "object", "properties": {"score": {"enum": [1, 2, 3]}}, "required": ["score"]}
CHAT = Request(
    key="k", messages=(Message("user", "judge"),), sampler=Sampler(max_tokens=9), json_schema=SCHEMA
)


def test_each_mode_sends_the_schema_its_own_way():
    bodies = {mode: request_body(CHAT, "m", mode)[1] for mode in MODES}
    # the default is byte for byte the body sent before modes existed
    assert bodies["json_schema"]["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "reply", "schema": SCHEMA},
    }
    assert bodies["json_object"]["response_format"] == {"type": "json_object", "schema": SCHEMA}
    assert bodies["guided_json"]["guided_json"] == SCHEMA
    assert not {"response_format", "grammar", "guided_json"} & set(bodies["text"])
    from llama_cpp.llama_grammar import LlamaGrammar

    LlamaGrammar.from_string(bodies["grammar"]["grammar"], verbose=False)  # valid GBNF
    assert '"\\"score\\""' in bodies["grammar"]["grammar"]
    # a request without a schema is the same in every mode
    plain = Request(key="k", messages=(Message("user", "hi"),))
    assert len({json.dumps(request_body(plain, "m", m)[1]) for m in MODES}) == 1


def test_a_reply_honours_the_probe_schema_only_when_it_is_the_one_object():
    assert honoured('{ "probe": "upabhasha"}', "stop")
    assert honoured('{"probe": "upab', "length")  # cut off by the token limit
    assert not honoured('{"probe": "upab', "stop")
    assert not honoured("Hello! How can I help?", "length")
    assert not honoured('{"probe": "other"}', "stop") and not honoured("", "stop")


class FormatServer(LocalServer):
    """An OpenAI-style chat server that refuses some forms (``refuse``: status), honours one
    (``honour``) and ignores the rest, answering free text. Records each request's form."""

    def __init__(self, honour=None, refuse=(), status=None, message="Input should be 'text'"):
        self.honour, self.refuse, self.status, self.message = honour, set(refuse), status, message
        self.forms: list[str] = []
        self.lock = threading.Lock()
        super().__init__()

    @staticmethod
    def form(body: dict) -> str:
        if "response_format" in body:
            return body["response_format"]["type"]
        return next((k for k in ("grammar", "guided_json") if k in body), "text")

    def respond(self, handler) -> None:
        body = json.loads(read_body(handler))
        form = self.form(body)
        with self.lock:
            self.forms.append(form)
        if self.status is not None:
            return send_json(handler, self.status, {"error": {"message": "not allowed"}})
        if form in self.refuse:
            return send_json(handler, 500, {"error": {"message": self.message}})
        text = json.dumps(PROBE_REPLY) if form == self.honour else "Hello there, friend."
        send_json(handler, 200, {"choices": [{"message": {"content": text}}]})


@pytest.mark.parametrize(
    ("server_args", "mode", "forms"),
    [
        ({"honour": "json_schema"}, "json_schema", ["json_schema"]),
        # llama-cpp-python's server: json_schema refused (HTTP 500), json_object honoured
        (
            {"honour": "json_object", "refuse": {"json_schema"}},
            "json_object",
            ["json_schema", "json_object"],
        ),
        (
            {"honour": "grammar", "refuse": {"json_schema", "json_object"}},
            "grammar",
            ["json_schema", "json_object", "grammar"],
        ),
        # a server that answers but constrains nothing: plain text, parsed
        ({}, "text", ["json_schema", "json_object", "grammar", "guided_json"]),
    ],
)
def test_the_probe_finds_the_mode_once_and_the_endpoint_keeps_it(
    workspace, server_args, mode, forms
):
    server = FormatServer(**server_args)
    try:
        row = endpoint_row(workspace, "lab", [server.url])
        card = {"task": "judge", "schema": SCHEMA}
        run = open_run(workspace, "judge", row, card)
        assert server.forms == forms
        assert stored_mode(workspace, row) == mode
        assert run_card(workspace, run)["structured_output"] == mode
        # found once: the next run asking for JSON sends no probe
        open_run(workspace, "judge", row, {**card, "task": "judge-2"})
        assert server.forms == forms
        # a run that sends no schema neither probes nor records a mode
        plain = open_run(workspace, "answer", row, {"template": "t"})
        assert "structured_output" not in run_card(workspace, plain)
    finally:
        server.stop()


def _old_key(kind, row, card) -> str:
    """The run key as it was made before structured-output modes."""
    base = {
        "kind": kind,
        "model": f"endpoint:{row['name']}#{row['api_model']}",
        "card": card,
        "schedule": {},
        "model_id": row["id"],
    }
    return hashlib.sha256(canonical_json(base).encode()).hexdigest()


def test_json_schema_runs_keep_their_keys_and_other_modes_get_their_own(workspace):
    honours = FormatServer(honour="json_schema")
    refuses = FormatServer(honour="json_object", refuse={"json_schema"})
    try:
        card = {"task": "judge", "schema": SCHEMA}
        a = endpoint_row(workspace, "a", [honours.url])
        run_a = open_run(workspace, "judge", a, card)
        key = workspace.scalar("SELECT run_key FROM runs WHERE id = ?", (run_a,))
        assert key == _old_key("judge", a, card)
        assert run_card(workspace, run_a)["structured_output"] == "json_schema"
        b = endpoint_row(workspace, "b", [refuses.url])
        run_b = open_run(workspace, "judge", b, card)
        key_b = workspace.scalar("SELECT run_key FROM runs WHERE id = ?", (run_b,))
        assert key_b != _old_key("judge", b, card)
    finally:
        honours.stop()
        refuses.stop()


@pytest.mark.parametrize("status", [401, 404, 503])
def test_a_probe_without_a_finding_keeps_nothing_and_sends_json_schema(workspace, status):
    server = FormatServer(status=status)
    try:
        row = endpoint_row(workspace, "lab", [server.url])
        probe = find_mode(workspace, row)
        assert probe.mode is None and f"HTTP {status}" in probe.reason
        assert server.forms == ["json_schema"]  # one try, then it stops
        assert stored_mode(workspace, row) is None
        card = {"task": "judge", "schema": SCHEMA}
        run = open_run(workspace, "judge", row, card)
        assert run_card(workspace, run)["structured_output"] == "json_schema"
        assert workspace.scalar("SELECT run_key FROM runs WHERE id = ?", (run,)) == _old_key(
            "judge", row, card
        )
    finally:
        server.stop()


def test_an_unreachable_endpoint_is_no_finding(workspace):
    server = FormatServer()
    server.stop()  # nothing listens on its port any more
    row = endpoint_row(workspace, "gone", [server.url], connect_timeout_s=2)
    probe = find_mode(workspace, row)
    assert probe.mode is None and probe.tried == ()
    assert stored_mode(workspace, row) is None


def test_the_run_backend_sends_the_run_cards_mode(workspace):
    from engine.llm.runs.backend import backend_for_run

    server = FormatServer(honour="json_object", refuse={"json_schema"})
    try:
        row = endpoint_row(workspace, "lab", [server.url])
        run = open_run(workspace, "judge", row, {"task": "judge", "schema": SCHEMA})
        plain = open_run(workspace, "answer", row, {"template": "t"})
        with backend_for_run(workspace, run) as backend:
            assert backend._body(CHAT)[1]["response_format"]["type"] == "json_object"
            assert backend.info().model_id.endswith("~json_object")  # its own cache
        with backend_for_run(workspace, plain) as backend:
            assert backend.structured_output == "json_schema"
            assert "~" not in backend.info().model_id
    finally:
        server.stop()


def test_a_run_that_finished_nothing_takes_the_mode_found_later(workspace):
    server = FormatServer(honour="json_object", refuse={"json_schema"}, status=401)
    try:
        row = endpoint_row(workspace, "lab", [server.url])
        card = {"task": "judge", "schema": SCHEMA}
        first = open_run(workspace, "judge", row, card)  # the key refused: no finding
        assert run_card(workspace, first)["structured_output"] == "json_schema"
        with workspace.transaction() as conn:  # one item asked and refused
            conn.execute(
                "INSERT INTO responses(run_id, item_key, status, error, created_at) "
                "VALUES (?, 'p1', 'error', 'HTTP 401', 'now')",
                (first,),
            )
        server.status = None  # the key is accepted now
        again = open_run(workspace, "judge", row, card)
        assert again == first and run_card(workspace, first)["structured_output"] == "json_object"
        # a run that finished a response keeps its mode: another mode is another run
        with workspace.transaction() as conn:
            conn.execute(
                "UPDATE responses SET status = 'done', text = '{}' WHERE run_id = ?", (first,)
            )
            conn.execute(
                "UPDATE models SET load_params = json_set(load_params, '$.structured_output', "
                "'grammar') WHERE id = ?",
                (row["id"],),
            )
        other = open_run(workspace, "judge", row, card)
        assert other != first and run_card(workspace, other)["structured_output"] == "grammar"
        assert run_card(workspace, first)["structured_output"] == "json_object"
    finally:
        server.stop()

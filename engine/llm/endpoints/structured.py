"""How a request's JSON schema reaches a server: the structured-output modes an
OpenAI-compatible server may accept, and the body fields each one sends.

Servers differ: OpenAI and vLLM take ``response_format: {"type": "json_schema"}``;
llama-cpp-python's own server refuses it (HTTP 500, "Input should be 'text' or
'json_object'") and constrains chat replies with ``{"type": "json_object", "schema": …}``
instead, or with a GBNF ``grammar`` field (its completions API takes only the grammar);
older vLLM takes ``guided_json``. A server that takes none of them is sent the schema in no
field at all (``text``): the reply is parsed and validated all the same, as every reply is.
Which mode an endpoint takes is found once by :mod:`engine.llm.endpoints.probe` and kept in
its ``load_params`` under :data:`KEY`.
"""

from __future__ import annotations

import functools
import json

JSON_SCHEMA = "json_schema"
JSON_OBJECT = "json_object"
GRAMMAR = "grammar"
GUIDED_JSON = "guided_json"
TEXT = "text"
# the order a probe tries them in: the OpenAI form first, the unconstrained last
MODES = (JSON_SCHEMA, JSON_OBJECT, GRAMMAR, GUIDED_JSON, TEXT)
DEFAULT = JSON_SCHEMA
# load_params keys: the mode in use, and what the probe found (when, where, each try)
KEY = "structured_output"
PROBE_KEY = "structured_output_probe"


def checked_mode(mode: object) -> str:
    """``mode`` when it is one of :data:`MODES`; the default for anything else (a hand-edited
    workspace), so a body is always one of the known forms."""
    return mode if isinstance(mode, str) and mode in MODES else DEFAULT


@functools.lru_cache(maxsize=64)
def _gbnf(schema_json: str) -> str:
    # lazy: llama.cpp's native library loads only when a grammar is asked for. Its own
    # converter, so the grammar is the one llama.cpp's servers build from a schema themselves.
    from llama_cpp.llama_grammar import json_schema_to_gbnf

    return json_schema_to_gbnf(schema_json)


def schema_fields(schema: dict, mode: str) -> dict:
    """The body fields that ask for ``schema`` in ``mode`` (none in ``text`` mode)."""
    mode = checked_mode(mode)
    if mode == JSON_SCHEMA:
        return {
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "reply", "schema": schema},
            }
        }
    if mode == JSON_OBJECT:
        return {"response_format": {"type": "json_object", "schema": schema}}
    if mode == GRAMMAR:
        # property order shapes the output: the schema's own order, never sorted keys
        return {"grammar": _gbnf(json.dumps(schema, ensure_ascii=False))}
    if mode == GUIDED_JSON:
        return {"guided_json": schema}
    return {}

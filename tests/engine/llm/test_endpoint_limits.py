"""An endpoint's bounds: one table of defaults and ranges, checked by the registry on every
write (both front ends store through it), and the backend's defaults are the table's."""

from __future__ import annotations

import json

import pytest

from engine.errors import UserError
from engine.llm.endpoints import backend as endpoint_backend
from engine.llm.endpoints.limits import CONNECT_TIMEOUT, MAX_RETRIES, READ_TIMEOUT
from engine.llm.models.registry import register_endpoint


def test_the_backend_uses_the_tables_defaults():
    backend = endpoint_backend.EndpointBackend(["http://127.0.0.1:9/v1"], "m")
    assert backend.connect_timeout_s == CONNECT_TIMEOUT.default == 10
    assert backend.read_timeout_s == READ_TIMEOUT.default == 60
    assert backend.max_retries == MAX_RETRIES.default == 4


@pytest.mark.parametrize(
    "params,expected",
    [
        ({"connect_timeout_s": 0}, "⟦setting:connect_timeout⟧ must be more than 0 and at most 300"),
        ({"connect_timeout_s": 300.5}, "not 300.5"),
        ({"read_timeout_s": -1}, "⟦setting:read_timeout⟧ must be more than 0"),
        ({"read_timeout_s": float("nan")}, "not nan"),
        ({"read_timeout_s": "60"}, "not '60'"),
        ({"max_retries": 21}, "⟦setting:max_retries⟧ must be a whole number from 0 to 20"),
        ({"max_retries": 1.5}, "not 1.5"),
        ({"max_retries": True}, "not True"),
    ],
)
def test_out_of_range_bounds_are_refused_and_nothing_is_stored(workspace, params, expected):
    with pytest.raises(UserError) as refusal:
        register_endpoint(workspace, "lab", ["http://127.0.0.1:9/v1"], "m", load_params=params)
    assert expected in str(refusal.value)
    assert workspace.scalar("SELECT count(*) FROM models") == 0


def test_bounds_at_the_ends_of_their_ranges_are_stored(workspace):
    params = {"connect_timeout_s": 300, "read_timeout_s": 0.1, "max_retries": 0}
    register_endpoint(workspace, "lab", ["http://127.0.0.1:9/v1"], "m", load_params=params)
    assert json.loads(workspace.scalar("SELECT load_params FROM models")) == params


@pytest.mark.parametrize("name", ["lab\u202eevil", "lab\u2066x", "a\x07b", "\u200b"])
def test_a_model_name_goes_through_the_name_rule(workspace, name):
    with pytest.raises(UserError, match="model name"):
        register_endpoint(workspace, name, ["http://127.0.0.1:9/v1"], "m")
    assert workspace.scalar("SELECT count(*) FROM models") == 0

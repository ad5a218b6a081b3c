"""``python -m engine.llm.runtime.llama_server ARGS``: llama-cpp-python's OpenAI-compatible server,
with the same AMX guard as our own worker (see ``native_model.guard_high_level_api``).

Takes exactly the arguments of ``python -m llama_cpp.server`` (``--model``, ``--host``,
``--port``, ``--n_ctx`` ...). Used by the endpoint tests and for serving a local GGUF to
other machines.
"""

from __future__ import annotations

from engine.llm.runtime.native_model import guard_high_level_api
from engine.llm.runtime.worker import prefer_passive_threads


def main() -> None:
    prefer_passive_threads()  # before llama_cpp loads

    guard_high_level_api()
    # lazy: llama.cpp's native library loads only when a local model is used
    from llama_cpp.server.__main__ import main as server_main

    server_main()


if __name__ == "__main__":
    main()

"""LLM execution: one backend interface (types.py), two implementations, resumable jobs.

- gguf_info.py      validate a GGUF file (bounded reads) and read its metadata
- settings.py       Schedule (batch settings, part of every run card) and LoadOptions
- local_backend.py  LocalGGUFBackend: the model runs in a worker process (worker.py)
- worker.py         the worker process and its pipe protocol; crashes stay there
- scheduler.py      continuous batching + shared-prefix KV on llama.cpp's low-level API
- native_model.py   model/context/tokenizer wrappers used inside the worker
- prompting.py      prompts assembled from pieces: untrusted text never becomes a token
- sampling.py       per-sequence sampler chains (seed, grammar from JSON schema)
- endpoint_backend.py  OpenAI-compatible servers: pool, retries, keyring-only API keys
- factory.py        open_backend(model_row) for a row of the models table
- llama_server.py   llama-cpp-python's server with the same safety settings
Jobs (runs, resume, cache) live in engine/jobs.py.
"""

"""LLM execution: one backend interface, two implementations, resumable jobs, the models of a
workspace. Front ends use :mod:`engine.llm.api` and :mod:`engine.llm.tasks` only.

- api.py            the front door: models (find, list, register), GGUF inspection, backends,
                    jobs and their responses, the llama.cpp build report
- tasks.py          background tasks of the model manager (add a model, keyring, GPU offload)
- types.py          Request, Result, Sampler and the backend interface every stage talks to
- model_registry.py the one writer of the ``models`` table: find_model, register_gguf/endpoint
- embedded_model.py the embedded Gemma 3 270M, shipped as PyPI chunk packages
- gguf_info.py      validate a GGUF file (bounded reads) and read its metadata
- factory.py        open_backend(model_row) for a row of the models table
- local_backend.py  LocalGGUFBackend: the model runs in a worker process (worker.py)
- worker.py         the worker process and its pipe protocol; crashes stay there
- native_model.py   model/context/tokenizer wrappers on the low-level API (worker only)
- scheduler.py      continuous batching + shared-prefix KV on llama.cpp's low-level API
- sampling.py       per-sequence sampler chains (seed, grammar from JSON schema)
- prompting.py      prompts assembled from pieces: untrusted text never becomes a token
- settings.py       Schedule (batch settings, part of every run card) and LoadOptions
- batch_plan.py     which items a local model decodes together (independent of timing)
- schedule_choice.py  slot refill or whole groups: what a calibration chose per job kind, model
                      and machine, remembered in the workspace
- plan_store.py     what a run decoded together, so a result can be decoded again exactly
- replicate.py      decode a sample of a run again and measure the agreement
- jobs.py           resumable jobs: a run's pending items in a reproducible plan, under its lease
- runs.py           run keys and cards, open/finish/drop a run, plan timing and estimates
- responses.py      the batched response writer, the response cache, rejections
- run_backend.py    the backend a run decodes with (its card's schedule)
- leases.py         one process decodes a run at a time
- endpoint_backend.py  OpenAI-compatible servers: pool, timeouts, retries, circuit breaker,
                      keyring-only API keys (openai_wire.py: URLs, bodies, replies)
- llama_server.py   llama-cpp-python's server with the same safety settings
- llama_log.py      llama.cpp's log lines into Python logging
- gpu_plan.py       which GPU is here and how many layers of a model fit on it
- backend_report.py which compute backend this llama.cpp build offers
"""

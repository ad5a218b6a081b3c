"""LLM execution: one backend interface, two implementations, resumable jobs, the models of a
workspace. Front ends use :mod:`engine.llm.api` and :mod:`engine.llm.tasks` only.

- api.py       the front door: models (find, list, register), GGUF inspection, backends,
               jobs and their responses, the llama.cpp build report
- tasks.py     background tasks of the model manager (add a model, keyring, GPU offload)
- types.py     Request, Result, Sampler and the backend interface every stage talks to
- schema.py    the stage's tables (engine.workspace.stages)
- models/      the registry (the one writer of ``models``: find_model, register_gguf/endpoint),
               the embedded Gemma 3 270M, GGUF files checked (bounded reads) and found on this
               computer, the GPU offload a model fits, and Schedule/LoadOptions (settings.py)
- endpoints/   OpenAI-compatible servers (pool, timeouts, retries, circuit breaker, keyring-only
               API keys), their wire format and bounds, batch files and the backends that
               record and replay them
- runtime/     open_backend(model_row) (factory.py); the local GGUF backend, its worker process
               (crashes stay there), the low-level model, continuous batching with shared-prefix
               KV, per-sequence sampler chains, prompts assembled from pieces (untrusted text
               never becomes a token), llama.cpp's logs and build report, its server, a test
               prompt
- planning/    which items a local model decodes together, the study-time planner, the schedule
               a calibration chose, what a run decoded together (kept for replication)
- runs/        run keys and cards (run.py), the one writer of ``runs`` (writes.py), leases, the
               resumable job runner, the response writer and cache, the backend a run decodes
               with, estimates, the per-model run loop, replication, the step requests
- batch/       a step as batch files and back (runner.py), what the workspace keeps of batches
               (store.py), prices and costs

Each sub-package imports only those listed after it: batch, runs, planning, runtime, models,
endpoints (the no-cycles contract of .importlinter).
"""

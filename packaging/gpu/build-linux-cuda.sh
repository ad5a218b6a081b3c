#!/bin/bash
# Linux GPU (NVIDIA CUDA) variant of the installer, next to the CPU one (`make installer`).
# Needs the CUDA Toolkit 12.x (nvcc) and a C++ compiler on the build machine; the machines
# that run the result need only an NVIDIA driver (>= the toolkit's minimum). Without a
# usable driver the program falls back to the bundled CPU llama.cpp (rth_upabhasha.py).
#   packaging/gpu/build-linux-cuda.sh            (CUDA_ARCHS="75;80;86;89;90" by default)
set -euo pipefail
cd "$(dirname "$0")/../.."
py=.venv/bin/python
CUDA_ARCHS="${CUDA_ARCHS:-75;80;86;89;90}"

# 1. keep the CPU build's libraries as the fallback
cpu_lib=build/llama-cpu-lib
llama_dir=$($py -c "import llama_cpp, os; print(os.path.dirname(llama_cpp.__file__))")
rm -rf "$cpu_lib" && cp -a "$llama_dir/lib" "$cpu_lib"

# 2. rebuild llama-cpp-python with CUDA into a separate environment, so the developer
#    venv keeps its CPU build
rm -rf .venv-cuda && cp -a .venv .venv-cuda 2>/dev/null || python3 -m venv .venv-cuda
gpy=.venv-cuda/bin/python
CMAKE_ARGS="-DGGML_CUDA=on -DCMAKE_CUDA_ARCHITECTURES=$CUDA_ARCHS" \
  $gpy -m pip install --force-reinstall --no-deps --no-binary llama-cpp-python \
  "llama-cpp-python>=0.3.16,<0.4"
$gpy -c "import llama_cpp; assert llama_cpp.llama_supports_gpu_offload(), 'not a GPU build'"

# 3. freeze with the CPU fallback libraries in llama_cpp/lib_cpu, then pack as usual
UPABHASHA_LLAMA_CPU_LIB="$PWD/$cpu_lib" $gpy -m PyInstaller --noconfirm \
  --distpath build/pyinstaller-cuda/dist --workpath build/pyinstaller-cuda/work \
  packaging/upabhasha.spec
# 4. dist/upabhasha-<version>-linux-x86_64-cuda.tar.gz, smoke-tested like the CPU artefact
$py packaging/build.py --bundle build/pyinstaller-cuda/dist/upabhasha --variant cuda

#!/bin/bash
# Linux GPU (NVIDIA CUDA) variant of the installer, next to the CPU one (`make installer`).
# Needs the CUDA Toolkit 12.x (nvcc) and a C++ compiler on the build machine; the machines
# that run the result need only an NVIDIA driver (>= the toolkit's minimum). Without a
# usable driver the program falls back to the bundled CPU llama.cpp (rth_upabhasha.py).
#   packaging/gpu/build-linux-cuda.sh            (CUDA_ARCHS="75;80;86;89;90" by default)
# Writes dist/upabhasha-<version>-linux-x86_64-cuda.tar.zst (smoke-tested like the CPU one).
# NEVER RUN: no machine of this project has the CUDA toolkit (packaging/README.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
CUDA_ARCHS="${CUDA_ARCHS:-75;80;86;89;90}"
TORCH_SPEC="${TORCH_SPEC:-torch==2.13.0}"
version=$(python3 -c "import tomllib;print(tomllib.load(open('pyproject.toml','rb'))['project']['version'])")

# 1. the CPU build's llama.cpp libraries, from make installer's clean build venv, as the
#    fallback (never the developer's .venv: what ships is what a clean install gives)
cpu_venv=build/installer-venv
[ -x "$cpu_venv/bin/python" ] || { echo "run 'make installer' first (it makes $cpu_venv)" >&2; exit 1; }
cpu_lib=build/llama-cpu-lib
llama_dir=$($cpu_venv/bin/python -c "import llama_cpp, os; print(os.path.dirname(llama_cpp.__file__))")
rm -rf "$cpu_lib" && cp -a "$llama_dir/lib" "$cpu_lib"

# 2. a clean venv of its own: the CPU torch, the runtime dependencies and PyInstaller, then
#    llama-cpp-python rebuilt with CUDA
gvenv=build/installer-venv-cuda
rm -rf "$gvenv" && python3 -m venv "$gvenv"
gpy=$gvenv/bin/python
$gpy -m pip install --quiet --upgrade pip
$gpy -m pip install --quiet "$TORCH_SPEC"
$gpy -m pip install --quiet -e ".[packaging]"
CMAKE_ARGS="-DGGML_CUDA=on -DCMAKE_CUDA_ARCHITECTURES=$CUDA_ARCHS" \
  $gpy -m pip install --force-reinstall --no-deps --no-binary llama-cpp-python \
  "llama-cpp-python>=0.3.16,<0.4"
$gpy -c "import llama_cpp; assert llama_cpp.llama_supports_gpu_offload(), 'not a GPU build'"

# 3. freeze with the CPU fallback libraries in llama_cpp/lib_cpu, then check and pack as usual
UPABHASHA_LLAMA_CPU_LIB="$PWD/$cpu_lib" $gpy -m PyInstaller --noconfirm \
  --distpath build/pyinstaller-cuda/dist --workpath build/pyinstaller-cuda/work \
  packaging/upabhasha.spec
python3 packaging/build.py --bundle build/pyinstaller-cuda/dist/upabhasha --variant cuda
echo "wrote dist/upabhasha-$version-linux-x86_64-cuda.tar.zst"

# Windows build of Upabhasha: CPU installer, and with -Cuda the NVIDIA GPU installer.
# Needs: Python 3.11+, Inno Setup 6 (iscc on PATH); for -Cuda also the CUDA Toolkit 12.x
# (nvcc, cudart/cublas DLLs on PATH) and Visual Studio Build Tools (C++ workload).
#   powershell -ExecutionPolicy Bypass -File packaging\windows\build.ps1 [-Cuda]
param([switch]$Cuda)
$ErrorActionPreference = "Stop"
Set-Location (Join-Path $PSScriptRoot "..\..")
$version = (python -c "import tomllib;print(tomllib.load(open('pyproject.toml','rb'))['project']['version'])")

python -m venv .venv-win
$py = ".venv-win\Scripts\python.exe"
& $py -m pip install --upgrade pip
& $py -m pip install "torch==2.13.0" --index-url https://download.pytorch.org/whl/cpu   # CPU torch: the encoder runs on the CPU in every variant
& $py -m pip install -e ".[packaging]"

$env:UPABHASHA_LLAMA_CPU_LIB = ""
if ($Cuda) {
    # keep the CPU llama.cpp as the fallback for machines without a usable NVIDIA driver
    $cpuLib = Join-Path $env:TEMP "upabhasha-llama-cpu-lib"
    $llamaDir = & $py -c "import llama_cpp, os; print(os.path.dirname(llama_cpp.__file__))"
    Remove-Item -Recurse -Force $cpuLib -ErrorAction SilentlyContinue
    Copy-Item -Recurse (Join-Path $llamaDir "lib") $cpuLib
    $env:CMAKE_ARGS = "-DGGML_CUDA=on -DCMAKE_CUDA_ARCHITECTURES=75;80;86;89;90"
    & $py -m pip install --force-reinstall --no-deps --no-binary llama-cpp-python "llama-cpp-python>=0.3.16,<0.4"
    $env:UPABHASHA_LLAMA_CPU_LIB = $cpuLib
}
& $py -m PyInstaller --noconfirm --distpath build\pyinstaller\dist --workpath build\pyinstaller\work packaging\upabhasha.spec
# the built program must pass its own smoke test before it is packed (through the console
# program: the windowed upabhasha-gui.exe has no stdout)
& build\pyinstaller\dist\upabhasha\upabhasha.exe --smoke-test | Select-Object -Last 1
if ($LASTEXITCODE -ne 0) { throw "smoke test of the frozen program failed" }
$variant = if ($Cuda) { "cuda" } else { "cpu" }
iscc /DAppVersion=$version /DVariant=$variant packaging\windows\upabhasha.iss

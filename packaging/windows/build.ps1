# Windows build of Upabhasha: CPU installer, and with -Cuda the NVIDIA GPU installer.
# Needs: Python 3.11+, Inno Setup 6 (iscc on PATH); for -Cuda also the CUDA Toolkit 12.x
# (nvcc, cudart/cublas DLLs on PATH) and Visual Studio Build Tools (C++ workload).
#   powershell -ExecutionPolicy Bypass -File packaging\windows\build.ps1 [-Cuda]
# NEVER RUN: this project's machines are Linux only (packaging/README.md).
param([switch]$Cuda)
$ErrorActionPreference = "Stop"
Set-Location (Join-Path $PSScriptRoot "..\..")

# $ErrorActionPreference does not cover native programs: every one is checked here.
function Invoke-Native {
    param([Parameter(Mandatory)][string]$Exe, [Parameter(ValueFromRemainingArguments)]$Rest)
    & $Exe @Rest
    if ($LASTEXITCODE -ne 0) { throw "$Exe $Rest failed with exit code $LASTEXITCODE" }
}

$version = (python -c "import tomllib;print(tomllib.load(open('pyproject.toml','rb'))['project']['version'])")
if ($LASTEXITCODE -ne 0) { throw "python could not read pyproject.toml" }

# a clean build venv every time, as make installer's on Linux
Remove-Item -Recurse -Force .venv-win -ErrorAction SilentlyContinue
Invoke-Native python -m venv .venv-win
$py = ".venv-win\Scripts\python.exe"
Invoke-Native $py -m pip install --upgrade pip
# CPU torch: the encoder runs on the CPU in every variant
Invoke-Native $py -m pip install "torch==2.13.0" --index-url https://download.pytorch.org/whl/cpu
Invoke-Native $py -m pip install -e ".[packaging]"

$env:UPABHASHA_LLAMA_CPU_LIB = ""
if ($Cuda) {
    # keep the CPU llama.cpp as the fallback for machines without a usable NVIDIA driver
    $cpuLib = Join-Path $env:TEMP "upabhasha-llama-cpu-lib"
    $llamaDir = & $py -c "import llama_cpp, os; print(os.path.dirname(llama_cpp.__file__))"
    if ($LASTEXITCODE -ne 0) { throw "llama_cpp does not import" }
    Remove-Item -Recurse -Force $cpuLib -ErrorAction SilentlyContinue
    Copy-Item -Recurse (Join-Path $llamaDir "lib") $cpuLib
    $env:CMAKE_ARGS = "-DGGML_CUDA=on -DCMAKE_CUDA_ARCHITECTURES=75;80;86;89;90"
    Invoke-Native $py -m pip install --force-reinstall --no-deps --no-binary llama-cpp-python "llama-cpp-python>=0.3.16,<0.4"
    $env:UPABHASHA_LLAMA_CPU_LIB = $cpuLib
}
Invoke-Native $py -m PyInstaller --noconfirm --distpath build\pyinstaller\dist --workpath build\pyinstaller\work packaging\upabhasha.spec

# The built program must pass its own smoke test before it is packed, through the console
# program (the windowed upabhasha-gui.exe has no stdout), as a new user: a fresh profile, so
# the runner's own settings, logs and assembled files play no part.
$profileDir = Join-Path $env:TEMP ("upabhasha-smoke-" + [guid]::NewGuid())
New-Item -ItemType Directory -Path $profileDir | Out-Null
$saved = @{ USERPROFILE = $env:USERPROFILE; APPDATA = $env:APPDATA; LOCALAPPDATA = $env:LOCALAPPDATA }
try {
    $env:USERPROFILE = $profileDir
    $env:APPDATA = Join-Path $profileDir "AppData\Roaming"
    $env:LOCALAPPDATA = Join-Path $profileDir "AppData\Local"
    New-Item -ItemType Directory -Force -Path $env:APPDATA, $env:LOCALAPPDATA | Out-Null
    & build\pyinstaller\dist\upabhasha\upabhasha.exe --smoke-test | Select-Object -Last 1
    if ($LASTEXITCODE -ne 0) { throw "smoke test of the frozen program failed ($LASTEXITCODE)" }
} finally {
    foreach ($k in $saved.Keys) { Set-Item -Path "env:$k" -Value $saved[$k] }
    Remove-Item -Recurse -Force $profileDir -ErrorAction SilentlyContinue
}
$variant = if ($Cuda) { "cuda" } else { "cpu" }
Invoke-Native iscc /DAppVersion=$version /DVariant=$variant packaging\windows\upabhasha.iss

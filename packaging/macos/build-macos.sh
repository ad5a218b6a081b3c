#!/bin/bash
# macOS build of Upabhasha: Upabhasha.app (BUNDLE in packaging/upabhasha.spec) in a .dmg.
# Reviewed against the spec; not built on the Linux CI machine.
#   packaging/macos/build-macos.sh            # Apple silicon: llama.cpp with Metal (GPU)
#   VARIANT=cpu packaging/macos/build-macos.sh  # CPU-only llama.cpp (Intel Macs, or to compare)
# Signing/notarization (optional, needs an Apple Developer ID): set SIGN_IDENTITY
# ("Developer ID Application: NAME (TEAMID)") and NOTARY_PROFILE (a profile stored with
# `xcrun notarytool store-credentials`). See packaging/README.md, "macOS".
set -euo pipefail
cd "$(dirname "$0")/../.."
VARIANT="${VARIANT:-metal}"
version=$(python3 -c "import tomllib;print(tomllib.load(open('pyproject.toml','rb'))['project']['version'])")

python3 -m venv .venv-mac
py=.venv-mac/bin/python
$py -m pip install --upgrade pip
$py -m pip install "torch==2.13.0"          # macOS wheels are CPU/MPS builds; the encoder uses the CPU
if [ "$VARIANT" = metal ]; then
  export CMAKE_ARGS="-DGGML_METAL=on -DGGML_METAL_EMBED_LIBRARY=on"   # shaders inside the dylib
else
  export CMAKE_ARGS="-DGGML_METAL=off"
fi
$py -m pip install --no-binary llama-cpp-python -e ".[packaging]"
$py -m PyInstaller --noconfirm --distpath build/pyinstaller/dist \
    --workpath build/pyinstaller/work packaging/upabhasha.spec
app="build/pyinstaller/dist/Upabhasha.app"

# the frozen program must pass its own smoke test before it is signed and shipped
"$app/Contents/MacOS/upabhasha" --smoke-test | tail -n 1

if [ -n "${SIGN_IDENTITY:-}" ]; then
  # sign inside-out (every Mach-O file, then the bundle); --deep is not enough for
  # notarization. Hardened runtime + the entitlements ctypes/libffi and torch need.
  find "$app/Contents" -type f \( -name "*.dylib" -o -name "*.so" -o -perm -u+x \) -print0 |
    xargs -0 -n 50 codesign --force --timestamp --options runtime \
      --entitlements packaging/macos/entitlements.plist --sign "$SIGN_IDENTITY"
  codesign --force --timestamp --options runtime \
    --entitlements packaging/macos/entitlements.plist --sign "$SIGN_IDENTITY" "$app"
  codesign --verify --strict --verbose=2 "$app"
fi
dmg="dist/upabhasha-$version-macos-$(uname -m)-$VARIANT.dmg"
mkdir -p dist
hdiutil create -volname "Upabhasha $version" -srcfolder "$app" -ov -format UDZO "$dmg"
if [ -n "${SIGN_IDENTITY:-}" ] && [ -n "${NOTARY_PROFILE:-}" ]; then
  codesign --force --timestamp --sign "$SIGN_IDENTITY" "$dmg"
  xcrun notarytool submit "$dmg" --keychain-profile "$NOTARY_PROFILE" --wait
  xcrun stapler staple "$dmg"
fi
echo "wrote $dmg ($(du -h "$dmg" | cut -f1))"

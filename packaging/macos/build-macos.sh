#!/bin/bash
# macOS build of Upabhasha: Upabhasha.app (BUNDLE in packaging/upabhasha.spec) in a .dmg.
# NEVER RUN: reviewed against the spec only; this project's machines are Linux.
# Apple silicon only: torch 2.13.0 has no Intel macOS wheel (the last one is 2.2.2, too old
# for sentence-transformers here), so Intel Macs are not supported.
#   packaging/macos/build-macos.sh              # llama.cpp with Metal (GPU)
#   VARIANT=cpu packaging/macos/build-macos.sh  # CPU-only llama.cpp (to compare)
# Signing and notarisation need an Apple Developer ID; CI passes them as secrets:
# SIGN_IDENTITY ("Developer ID Application: NAME (TEAMID)") and NOTARY_PROFILE (stored with
# `xcrun notarytool store-credentials`). Without them the .dmg is built unsigned and its
# name says so. See packaging/README.md, "macOS".
set -euo pipefail
cd "$(dirname "$0")/../.."
[ "$(uname -m)" = arm64 ] || { echo "Apple silicon only: torch 2.13.0 has no Intel macOS wheel" >&2; exit 1; }
VARIANT="${VARIANT:-metal}"
version=$(python3 -c "import tomllib;print(tomllib.load(open('pyproject.toml','rb'))['project']['version'])")

rm -rf .venv-mac && python3 -m venv .venv-mac
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

# the frozen program must pass its own smoke test, as a new user (a fresh HOME), before it
# is signed and shipped
smoke_home=$(mktemp -d)
HOME="$smoke_home" "$app/Contents/MacOS/upabhasha" --smoke-test | tail -n 1
rm -rf "$smoke_home"

signed=unsigned
if [ -n "${SIGN_IDENTITY:-}" ]; then
  # inside-out: every Mach-O file, deepest paths first, then the bundle (--deep is not
  # enough for notarisation); hardened runtime + the entitlements ctypes/libffi and torch need
  find "$app/Contents" -type f -print0 | while IFS= read -r -d '' f; do
    if file -b "$f" | grep -q '^Mach-O'; then
      printf '%s\t%s\n' "$(awk -F/ '{print NF}' <<<"$f")" "$f"
    fi
  done | sort -rn | cut -f2- | while IFS= read -r f; do
    codesign --force --timestamp --options runtime \
      --entitlements packaging/macos/entitlements.plist --sign "$SIGN_IDENTITY" "$f"
  done
  codesign --force --timestamp --options runtime \
    --entitlements packaging/macos/entitlements.plist --sign "$SIGN_IDENTITY" "$app"
  codesign --verify --strict --verbose=2 "$app"
  signed=signed
fi
dmg="dist/upabhasha-$version-macos-arm64-$VARIANT$([ $signed = unsigned ] && echo -unsigned).dmg"
mkdir -p dist
# the .dmg shows the app beside a link to /Applications: drag one onto the other
stage=$(mktemp -d)
cp -R "$app" "$stage/" && ln -s /Applications "$stage/Applications"
hdiutil create -volname "Upabhasha $version" -srcfolder "$stage" -ov -format UDZO "$dmg"
rm -rf "$stage"
if [ $signed = signed ] && [ -n "${NOTARY_PROFILE:-}" ]; then
  codesign --force --timestamp --sign "$SIGN_IDENTITY" "$dmg"
  xcrun notarytool submit "$dmg" --keychain-profile "$NOTARY_PROFILE" --wait
  xcrun stapler staple "$dmg"
fi
echo "wrote $dmg ($signed, $(du -h "$dmg" | cut -f1))"

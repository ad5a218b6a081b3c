#!/usr/bin/env bash
# Write a PNG of every panel and dialog: scripts/screenshots.sh [OUT_DIR] [--readme PATH]
# Runs the real app under Xvfb (falls back to Qt's offscreen platform when xvfb-run is
# missing) with a font configuration that hides the system's Bengali fonts, so the
# pictures prove that the bundled Noto Sans Bengali is what renders.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}

fc_dir=$(mktemp -d)
trap 'rm -rf "$fc_dir"' EXIT
cat > "$fc_dir/fonts.conf" <<CONF
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir>/usr/share/fonts/truetype/dejavu</dir>
  <cachedir>$fc_dir/cache</cachedir>
</fontconfig>
CONF
export FONTCONFIG_FILE="$fc_dir/fonts.conf"
export UPABHASHA_CONFIG_DIR="$fc_dir/config"   # never touch the user's settings

if command -v xvfb-run >/dev/null; then
    exec xvfb-run -a -s "-screen 0 1600x1000x24" env QT_QPA_PLATFORM=xcb \
        PYTHONPATH=. "$PY" scripts/screenshots.py "$@"
fi
echo "xvfb-run not found: using the offscreen platform" >&2
QT_QPA_PLATFORM=offscreen PYTHONPATH=. exec "$PY" scripts/screenshots.py "$@"

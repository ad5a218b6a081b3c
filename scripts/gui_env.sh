# Sourced by the scripts that photograph the GUI (screenshots.sh, walkthrough.sh).
# Provides run_gui SCRIPT [ARGS...]: runs a Python script of the repository under Xvfb
# (Qt's offscreen platform when xvfb-run is missing) with a font configuration that hides
# the system's Bengali fonts, so the pictures prove that the bundled Noto Sans Bengali is
# what renders, and with a throw-away config folder (never the user's settings).
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PY=${PY:-.venv/bin/python}

gui_tmp=$(mktemp -d)
trap 'rm -rf "$gui_tmp"' EXIT
cat > "$gui_tmp/fonts.conf" <<CONF
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir>/usr/share/fonts/truetype/dejavu</dir>
  <cachedir>$gui_tmp/cache</cachedir>
</fontconfig>
CONF
export FONTCONFIG_FILE="$gui_tmp/fonts.conf"
export UPABHASHA_CONFIG_DIR="$gui_tmp/config"

run_gui() {
    if command -v xvfb-run >/dev/null; then
        xvfb-run -a -s "-screen 0 ${GUI_SCREEN:-1600x1000}x24" env QT_QPA_PLATFORM=xcb \
            PYTHONPATH=. "$PY" "$@"
    else
        echo "xvfb-run not found: using the offscreen platform" >&2
        QT_QPA_PLATFORM=offscreen PYTHONPATH=. "$PY" "$@"
    fi
}

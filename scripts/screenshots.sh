#!/usr/bin/env bash
# Write a PNG of every panel and dialog: scripts/screenshots.sh [OUT_DIR] [--readme PATH]
# The workspace is built through the engine; scripts/walkthrough.sh builds one through the GUI.
set -euo pipefail
source "$(dirname "$0")/gui_env.sh"
run_gui scripts/screenshots.py "$@"

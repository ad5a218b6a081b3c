#!/usr/bin/env bash
# The GUI-only walkthrough of the annotation round trip, one PNG a step:
# scripts/annotation_walkthrough.sh [OUT_DIR (default docs/annotation_walkthrough)]
set -euo pipefail
source "$(dirname "$0")/gui_env.sh"
run_gui scripts/annotation_walkthrough.py "$@"

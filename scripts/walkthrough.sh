#!/usr/bin/env bash
# The GUI-only walkthrough of a first study, one PNG a step:
# scripts/walkthrough.sh [OUT_DIR (default docs/walkthrough)] [--workspace FILE]
set -euo pipefail
source "$(dirname "$0")/gui_env.sh"
run_gui scripts/walkthrough.py "$@"

#!/usr/bin/env bash
# The GUI-only walkthroughs of the dialect-tasks and social-bias studies, one PNG a step:
# scripts/study_walkthroughs.sh tasks|bias [OUT_DIR (default docs/walkthrough-STUDY)]
set -euo pipefail
source "$(dirname "$0")/gui_env.sh"
run_gui scripts/study_walkthroughs.py "$@"

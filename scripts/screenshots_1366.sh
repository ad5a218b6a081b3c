#!/usr/bin/env bash
# Every panel and dialog on a 1366×768 screen, in English and in Bengali, as PNGs:
#   scripts/screenshots_1366.sh [OUT_DIR]     (default docs/screens-1366x768)
# scripts/fit_probe.py opens them (the dialogs found under widgets/), saves each and prints
# what does not fit (the same check as tests/widgets/test_window_fit.py); exit 1 if any.
set -euo pipefail
export GUI_SCREEN=1366x768
source "$(dirname "$0")/gui_env.sh"
out=${1:-docs/screens-1366x768}
mkdir -p "$out"
status=0
for language in en bn; do
    report=$(run_gui scripts/fit_probe.py "$language" "$out" 2>/dev/null | tail -1)
    echo "$report" | "$PY" -c '
import json, sys
report = json.load(sys.stdin)
print(len(report["seen"]), "panels and dialogs on", report["available"])
print("\n".join(report["problems"]) or "everything fits")
sys.exit(1 if report["problems"] else 0)' || status=1
done
exit $status

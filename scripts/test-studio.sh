#!/usr/bin/env bash
# make test-studio: `segue studio` in a real browser, Debian's Chromium headless, driven by Selenium from PyPI
# (pinned in Tests/Studio/requirements.txt, in a virtual environment under .build/). Usage:
#   scripts/test-studio.sh [SEGUE]        the segue binary to test (default: the tested release build)
# SEGUE_STUDIO_SCREENSHOTS=DIR saves the page's main states there (docs/studio-*.png are made so).
set -euo pipefail
cd "$(dirname "$0")/.."
segue=${1:-.build-release/release/segue}
venv=.build/studio-venv
scripts/install-deps.sh studio
if ! "$venv/bin/python" -c 'import selenium' 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q -r Tests/Studio/requirements.txt
fi
SEGUE="$segue" "$venv/bin/python" Tests/Studio/test_studio.py

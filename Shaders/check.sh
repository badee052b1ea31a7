#!/usr/bin/env bash
# Checks every shader in Shaders/ with glslangValidator (the stage comes from the extension).
# Usage: Shaders/check.sh    (exit status non-zero when any shader fails)
set -euo pipefail
cd "$(dirname "$0")"
shopt -s nullglob
status=0
files=(*.vert *.frag)
if [ ${#files[@]} -eq 0 ]; then echo "check.sh: no shaders in $(pwd)" >&2; exit 1; fi
for f in "${files[@]}"; do
    if glslangValidator "$f" >/dev/null; then
        echo "ok   $f"
    else
        glslangValidator "$f" >&2 || true
        echo "FAIL $f" >&2
        status=1
    fi
done
exit $status

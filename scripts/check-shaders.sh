#!/usr/bin/env bash
# Checks the shaders in Shaders/ (the files SwiftPM embeds into SegueGLES) that compile as they are with
# glslangValidator (the stage comes from the extension), and every shipped custom transition in transitions/
# wrapped as the renderer wraps it (transition.frag or transition100.frag, #line 1, the file).
# The per-pixel function (draw-item.glsl) and the two programs that include it (layer.frag, composite.comp)
# compile only with the definitions the renderer inserts (DrawItemRecord.glslDefinitions and each variant's
# switches): ShaderSourcesTests.everyProgramPassesGlslangValidator checks every program of theirs as the renderer
# builds it.
# Usage: scripts/check-shaders.sh    (from anywhere; exit status non-zero when any shader fails)
set -euo pipefail
cd "$(dirname "$0")/../Shaders"
shopt -s nullglob
status=0
files=(*.vert *.frag *.comp)
if [ ${#files[@]} -eq 0 ]; then echo "check-shaders.sh: no shaders in $(pwd)" >&2; exit 1; fi
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
# A shader as the renderer compiles it (ShaderSources.expand): each `#include "FILE"` line replaced by FILE, then
# `#line` back to the file's own numbering; with DEFINES (lines) inserted after the #version line.
expand() {
    local file=$1 defines=${2:-}
    awk -v defines="$defines" '
        NR == 1 { print; if (defines != "") printf "%s", defines; next }
        /^[[:space:]]*#include "[^"]*"[[:space:]]*$/ {
            match($0, /"[^"]*"/); name = substr($0, RSTART + 1, RLENGTH - 2)
            while ((getline line < name) > 0) print line
            close(name); print "#line " (NR + 1); next }
        { print }' "$file"
}
for f in "${files[@]}"; do
    if grep -q '#include "draw-item.glsl"' "$f"; then continue; fi
    ext=${f##*.}
    expand "$f" > "$scratch/whole.$ext"
    if glslangValidator "$scratch/whole.$ext" >/dev/null; then
        echo "ok   $f"
    else
        glslangValidator "$scratch/whole.$ext" >&2 || true
        echo "FAIL $f" >&2
        status=1
    fi
done
# The shipped transitions, after the real preamble of their dialect (transition100.frag for a GLSL ES 1.00
# file, roughly as ShaderTransition.isGLSL100 tells it); #version and precision lines are blanked, as
# ShaderTransition.body does.
for f in transitions/*.glsl; do
    wrapped="$scratch/$(basename "$f" .glsl).frag"
    preamble=transition.frag
    if grep -qE '^[[:space:]]*#version[[:space:]]+100|texture2D|gl_FragColor|varying' "$f"; then preamble=transition100.frag; fi
    { cat "$preamble"; echo '#line 1'; sed -E 's/^[[:space:]]*(#version|precision).*$//' "$f"; } > "$wrapped"
    if glslangValidator "$wrapped" >/dev/null; then
        echo "ok   $f"
    else
        glslangValidator "$wrapped" >&2 || true
        echo "FAIL $f" >&2
        status=1
    fi
done
exit $status

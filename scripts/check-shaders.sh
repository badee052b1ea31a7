#!/usr/bin/env bash
# Checks every shader in Shaders/ (the files SwiftPM embeds into SegueGLES) with
# glslangValidator (the stage comes from the extension), and every variant of layer.frag (the #define
# switches LayerVariant.swift compiles it with), and every shipped custom transition in transitions/ wrapped
# as the renderer wraps it (transition.frag or transition100.frag, #line 1, the file).
# Usage: scripts/check-shaders.sh    (from anywhere; exit status non-zero when any shader fails)
#        scripts/check-shaders.sh --count-variants    (prints how many layer.frag variants it checks)
set -euo pipefail
cd "$(dirname "$0")/../Shaders"
# The variants, as LayerVariant.swift makes them: SOURCE, MASK (0 for none, then each mask kind's number
# there), OVERLAY, PERSPECTIVE, BLIT; a blit ignores the other switches, so it is one variant.
masks=$(sed -n '/switch item.mask/,/^        }/p' ../Sources/SegueGLES/LayerVariant.swift | grep -oE 'mask = .*' | grep -oE '[0-9]+' | sort -un)
variants=()
for blit in 0 1; do
for source in 0 1; do
    for mask in $masks; do
        for overlay in 0 1; do
            for perspective in 0 1; do
                if [ $blit -eq 1 ] && [ "$source$mask$overlay$perspective" != "1000" ]; then continue; fi
                variants+=("$source $mask $overlay $perspective $blit")
            done
        done
    done
done
done
if [ "${1:-}" = --count-variants ]; then echo ${#variants[@]}; exit 0; fi
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
# Each variant, built as the renderer builds it: the #defines right after the #version line.
count=0
for v in "${variants[@]}"; do
    read -r source mask overlay perspective blit <<< "$v"
    variant="$scratch/layer.frag"
    expand layer.frag "$(printf '#define SOURCE %s\n#define MASK %s\n#define OVERLAY %s\n#define PERSPECTIVE %s\n#define BLIT %s\n' \
          "$source" "$mask" "$overlay" "$perspective" "$blit")
" > "$variant"
    name="layer.frag (SOURCE $source, MASK $mask, OVERLAY $overlay, PERSPECTIVE $perspective, BLIT $blit)"
    if ! glslangValidator "$variant" >/dev/null; then
        glslangValidator "$variant" >&2 || true
        echo "FAIL $name" >&2
        status=1
    fi
    count=$((count + 1))
done
[ $status -eq 0 ] && echo "ok   layer.frag: all $count variants"
# The compute compositor's outputs (ComputeCompositor.Output): RGBA words, an image, 4:2:0 and 4:4:4 planes.
# Each with every kind of item (the defaults), and with none (ComputeCompositor.Kinds: a frame of colour layers).
for output in 0 1 2 3; do
    for kinds in "" "#define MASKS 0
#define PERSPECTIVE 0
#define OVERLAY 0
#define SNAPSHOT 0
#define BLIT 0
"; do
        expand composite.comp "#define OUTPUT $output
$kinds" > "$scratch/composite.comp"
        if ! glslangValidator "$scratch/composite.comp" >/dev/null; then
            glslangValidator "$scratch/composite.comp" >&2 || true
            echo "FAIL composite.comp (OUTPUT $output${kinds:+, no kinds})" >&2
            status=1
        fi
    done
done
[ $status -eq 0 ] && echo "ok   composite.comp: all 4 outputs, with every kind of item and with none"
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

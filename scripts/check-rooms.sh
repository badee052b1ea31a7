#!/usr/bin/env bash
# Checks that the code's rooms stay as docs/architecture.md draws them:
#   - the core (Sources/SegueCore) imports no C module, only the standard library's own modules;
#   - the job layer (Sources/SegueRender) imports the GLES backend in one file, the one that makes renderers
#     (Backends/Backend.swift): everything else asks a renderer through `Renderer` and its capabilities;
#   - the studio (Sources/SegueStudio), the library's first server, imports the public `Segue` umbrella and its
#     sockets (FlyingSocks) only: never a module under it, never FlyingFox (its URLSession would bring libcurl
#     into the static archive), never with @testable;
#   - the README's module table names every Swift module under Sources/ and no other;
# Usage: scripts/check-rooms.sh    (from anywhere; exit status 1, saying what is out of place)
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
fail() { echo "check-rooms.sh: $*" >&2; status=1; }

core_imports=$(grep -rhoE '^(@[a-zA-Z_]+ )*import [A-Za-z_]+' Sources/SegueCore --include='*.swift' | awk '{print $NF}' | sort -u)
for module in $core_imports; do
    case $module in Foundation|Synchronization|Dispatch) ;; *) fail "SegueCore imports $module (the core imports no C module and no other Segue module)";; esac
done

gles_importers=$(grep -rlE '^(@[a-zA-Z_]+ )*import SegueGLES' Sources/SegueRender --include='*.swift' | sort)
if [ "$gles_importers" != "Sources/SegueRender/Backends/Backend.swift" ]; then
    fail "the job layer imports SegueGLES outside Backends/Backend.swift: $(echo $gles_importers)"
fi

studio_imports=$(grep -rhoE '^(@[a-zA-Z_]+ )*import [A-Za-z_]+' Sources/SegueStudio --include='*.swift' | sort -u)
while read -r line; do
    [ -n "$line" ] || continue
    case $line in
        "import Segue"|"import FlyingSocks"|"import Foundation"|"import Dispatch"|"import Synchronization") ;;
        *) fail "SegueStudio has '$line' (it is a client of the public \`import Segue\` only)";;
    esac
done <<< "$studio_imports"

# Swift modules: each folder under Sources/ that is not a C target (those hold no .swift file).
modules=$(for d in Sources/*/; do d=${d%/}; find "$d" -name '*.swift' -print -quit | grep -q . && basename "$d"; done | sort)
table=$(sed -n '/^| module | depends on | what it is |$/,/^$/p' README.md | grep -oE '^\| `[A-Za-z-]+`' | tr -d '|` ' | sort)
[ -n "$table" ] || fail "README.md has no module table (| module | depends on | what it is |)"
for m in $modules; do echo "$table" | grep -qx "$m" || fail "README.md's module table lacks $m"; done
for m in $table; do
    case $m in segue-bench) ;; *) echo "$modules" | grep -qx "$m" || fail "README.md's module table names $m, which is not a module under Sources/";; esac
done

[ $status -eq 0 ] && echo "ok   rooms: the core imports no C, the job layer imports GLES in Backend.swift only, the studio imports Segue only, the README's module table is true"
exit $status

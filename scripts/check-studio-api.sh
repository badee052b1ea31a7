#!/usr/bin/env bash
# Checks that segue studio uses Segue's public API only, as a program outside this package would: its sources
# are type-checked against the modules of a build (the same .swiftmodule files) under another package's name,
# so that a `package` declaration of the library (visible to every module of this package) is out of reach.
# `check-rooms.sh` checks what it imports; this checks what it uses.
# Usage: scripts/check-studio-api.sh [SCRATCH]    SCRATCH: a build tree holding SegueStudio (default
#        .build-release, the tested release build); exit status 1, with the compiler's errors, when it reaches
#        past the public API.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=${1:-.build-release}
build=$(find "$scratch" -maxdepth 3 -type d -name SegueStudio.build -path '*-linux-gnu/*' | head -1)
[ -n "$build" ] || { echo "check-studio-api.sh: no SegueStudio.build under $scratch (build segue first)" >&2; exit 1; }
products=$(dirname "$build")
flags=()
for map in Sources/CTurboJPEG/module.modulemap Sources/CDeflate/module.modulemap Sources/CSPNG/module.modulemap Sources/CLCMS2/module.modulemap \
           Sources/CEGL/include/module.modulemap Sources/CHeif/include/module.modulemap "$products/CSegueKernels.build/module.modulemap" \
           "$scratch/checkouts/FlyingFox/CSystemLinux/include/module.modulemap"; do
    flags+=(-Xcc "-fmodule-map-file=$map")
done
flags+=(-Xcc -I -Xcc Sources/CSegueKernels/include -Xcc -I -Xcc Sources/CEGL/include -Xcc -I -Xcc Sources/CHeif/include
        -Xcc -I -Xcc "$scratch/checkouts/FlyingFox/CSystemLinux/include")
if swiftc -typecheck -module-name SegueStudio -package-name segue-studio-outside -swift-version 6 -parse-as-library \
    -DSWIFT_PACKAGE -I "$products/Modules" "${flags[@]}" Sources/SegueStudio/*.swift "$build/DerivedSources/embedded_resources.swift"; then
    echo "ok   studio: SegueStudio type-checks as another package's code (Segue's public API only)"
else
    echo "check-studio-api.sh: SegueStudio reaches past Segue's public API (above)" >&2
    exit 1
fi

#!/usr/bin/env bash
# Makes the HEIC test fixtures (Tests/SegueImageIOTests/Fixtures/heic/*.heic, a few hundred bytes to 1.3 KB each)
# with libheif's own encoder: scripts/heic-fixtures.c says what each holds. Needs libheif-dev, liblcms2-dev and
# libheif's x265 encoder (Debian's libheif1 has it). The fixtures are committed; run this only to make them again.
set -euo pipefail
cd "$(dirname "$0")/.."
out=Tests/SegueImageIOTests/Fixtures/heic
mkdir -p "$out"
tool=$(mktemp)
trap 'rm -f "$tool"' EXIT
cc -O1 -Wall -o "$tool" scripts/heic-fixtures.c $(pkg-config --cflags --libs libheif lcms2)
"$tool" "$out"
ls -l "$out"

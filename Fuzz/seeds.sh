#!/usr/bin/env bash
# Writes the fuzzers' seed corpora, made by code: small valid PNGs of every colour type, bit depth and
# interlacing (python3's zlib), JPEGs in several subsamplings, greyscale and progressive (ffmpeg), and the
# example storyboard with variations, and the built-in effect files. Usage: Fuzz/seeds.sh DIR  (writes DIR/image,
# DIR/storyboard and DIR/effect)
set -euo pipefail
out="$1"
root="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$out/image" "$out/storyboard" "$out/effect"
# Every built-in effect file is an effect seed.
cp "$root"/Sources/SegueCore/Effects/Catalog/*.json "$out/effect/"

/usr/bin/env python3 - "$out/image" <<'PY'
import struct, sys, zlib
out = sys.argv[1]
def chunk(t, d):
    return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
def png(name, w, h, depth, ctype, interlace=0, extra=b""):
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[ctype]
    bits = depth * channels
    def rows(w, h):
        stride = (w * bits + 7) // 8
        return b"".join(b"\0" + bytes((x * 37 + y * 11) & 0xff for x in range(stride)) for y in range(h))
    if interlace:   # Adam7: each pass's rows, filter byte each
        passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        raw = b""
        for x0, y0, dx, dy in passes:
            pw, ph = (w - x0 + dx - 1) // dx, (h - y0 + dy - 1) // dy
            if pw > 0 and ph > 0: raw += rows(pw, ph)
    else:
        raw = rows(w, h)
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, ctype, 0, 0, interlace))
    if ctype == 3:
        data += chunk(b"PLTE", bytes((i * 3) & 0xff for i in range(3 * (1 << depth))))
        data += chunk(b"tRNS", bytes(range(0, 255, 16))[:1 << depth])
    data += extra + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
    open(f"{out}/{name}.png", "wb").write(data)
for ctype, depths in {0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]}.items():
    for d in depths:
        png(f"c{ctype}-d{d}", 7, 5, d, ctype)
        png(f"c{ctype}-d{d}-adam7", 9, 9, d, ctype, interlace=1)
png("gamma-srgb", 4, 4, 8, 6, extra=chunk(b"gAMA", struct.pack(">I", 45455)) + chunk(b"sRGB", b"\0"))
PY

if command -v ffmpeg >/dev/null; then
    for spec in "yuvj420p:" "yuvj444p:" "yuvj422p:" "gray:" "yuvj420p:-q:v 31"; do
        fmt="${spec%%:*}"; args="${spec#*:}"
        ffmpeg -loglevel error -y -f lavfi -i testsrc=size=19x13 -frames:v 1 -pix_fmt "$fmt" $args \
            "$out/image/$fmt${args:+-low}.jpg"
    done
fi

cp "$root/examples/storyboard.json" "$out/storyboard/example.json"
printf '%s' '{"fps": 30, "screens": {"a": "a.png", "b": "b.png"}, "timeline": [{"transition": "push", "from": "a", "to": "b", "duration": 0.5, "options": {"direction": "left"}}, {"hold": "b", "duration": 0.2}]}' > "$out/storyboard/push.json"
printf '%s' '{"fps": 60, "scale": 2, "size": [375, 667], "background": "#102030", "screens": {"a": "a.png", "b": "b.png"}, "timeline": [{"interactive": "page-flip", "from": "a", "to": "b", "track": "t.csv", "options": {"perspective": 800}}]}' > "$out/storyboard/interactive.json"
printf '%s' '{"screens": {}, "timeline": []}' > "$out/storyboard/empty.json"
# The name FuzzStoryboard found Foundation trapping on (NSString's path methods; Segue now uses PathName).
printf '%s' '{"screens": {}, "timeline": [], "output": {"video": ".\udbff\udfff\ud83c\uddfa//\udbff\udfff", "frames": "a"}}' > "$out/storyboard/path-name.json"

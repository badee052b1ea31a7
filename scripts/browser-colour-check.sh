#!/usr/bin/env bash
# A real browser playing Segue's videos: colour bars rendered by SEGUE into .mp4 (H.264) and .webm (VP9) at
# 1920x1080 (tagged BT.709) and 640x360 (tagged BT.601), with ffmpeg's own encoding of the same bars (correct
# conversion and tags) beside them, each played by headless Chromium and screenshotted; prints each bar's
# colour as shown and the worst channel difference. Needs chromium, ffmpeg and python3.
# Usage: scripts/browser-colour-check.sh [SEGUE] (default .build/release/segue)
set -euo pipefail
segue=$(realpath "${1:-.build/release/segue}")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
bars_png() {  # bars_png W H OUT: ten vertical bars
  python3 - "$1" "$2" <<'PY' > bars.rgb
import sys
w, h = int(sys.argv[1]), int(sys.argv[2])
bars = [(255,255,255),(255,255,0),(0,255,255),(0,255,0),(255,0,255),(255,0,0),(0,0,255),(0,0,0),(128,128,128),(200,100,50)]
row = b"".join(bytes(bars[x * len(bars) // w]) for x in range(w))
sys.stdout.buffer.write(row * h)
PY
  ffmpeg -hide_banner -loglevel error -y -f rawvideo -pix_fmt rgb24 -s "$1x$2" -i bars.rgb "$3"
}
shot() {  # shot VIDEO W H
  echo "<html><body style='margin:0;background:#000'><video src='$1' muted autoplay style='width:$2px;height:$3px;display:block'></video></body></html>" > page.html
  timeout 90 chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars --autoplay-policy=no-user-gesture-required \
    --virtual-time-budget=3000 --window-size="$2,$3" --screenshot="$dir/shot.png" "file://$dir/page.html" >/dev/null 2>&1
  ffmpeg -hide_banner -loglevel error -y -i shot.png -f rawvideo -pix_fmt rgb24 shot.rgb
  python3 - "$1" "$2" "$3" <<'PY'
import sys
v, w, h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
d = open("shot.rgb", "rb").read()
W = len(d) // 3 // h
bars = [(255,255,255),(255,255,0),(0,255,255),(0,255,0),(255,0,255),(255,0,0),(0,0,255),(0,0,0),(128,128,128),(200,100,50)]
worst, shown = 0, []
for i, b in enumerate(bars):
    x, y = (2 * i + 1) * w // (2 * len(bars)), h // 2
    p = tuple(d[(y * W + x) * 3:(y * W + x) * 3 + 3])
    worst = max(worst, max(abs(p[c] - b[c]) for c in range(3)))
    shown.append("%d,%d,%d" % p)
print("| %s | %dx%d | %d | %s |" % (v, w, h, worst, " ".join(shown)))
PY
}
echo "| video | size | worst level | bars as shown (white yellow cyan green magenta red blue black grey 200,100,50) |"
echo "|---|---|---|---|"
for size in 1920x1080 640x360; do
  w=${size%x*}; h=${size#*x}
  bars_png "$w" "$h" "bars-$size.png"
  for ext in mp4 webm; do
    "$segue" render fade --from "bars-$size.png" --to "bars-$size.png" --fps 10 --duration 1 --backend cpu --quiet --out "segue-$size.$ext"
    shot "segue-$size.$ext" "$w" "$h"
  done
  matrix=$([ "$w" -ge 1280 ] && echo bt709 || echo bt601); tag=$([ "$w" -ge 1280 ] && echo bt709 || echo smpte170m)
  ffmpeg -hide_banner -loglevel error -y -loop 1 -framerate 10 -t 1 -i "bars-$size.png" \
    -vf "scale=out_color_matrix=$matrix:out_range=tv:flags=accurate_rnd+full_chroma_int" -c:v libx264 -pix_fmt yuv420p \
    -colorspace "$tag" -color_primaries bt709 -color_trc bt709 -color_range tv "ffmpeg-$size.mp4"
  shot "ffmpeg-$size.mp4" "$w" "$h"
done

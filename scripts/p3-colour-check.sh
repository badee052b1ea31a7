#!/usr/bin/env bash
# Colour-managed input against a colour-managed browser (issue 46): headless Chromium makes a Display P3
# screenshot (its iCCP profile included) of a page of pure red and green and a photo-like gradient; Chromium
# then shows that PNG in an <img> under an sRGB display profile (the oracle), Pillow's ImageCms converts it to
# sRGB (a second oracle), and SEGUE renders it (one frame of `fade`, both screens the same image) into an
# sRGB PNG and, with --colour-space display-p3, into a Display P3 PNG read back through its own profile.
# Prints, for each comparison, the share of pixels within 3 levels, the mean difference and the worst.
# Needs chromium and Debian's python3-pil (run by /usr/bin/python3, whose ImageCms it is). Usage: scripts/p3-colour-check.sh [SEGUE] (default .build/release/segue)
set -euo pipefail
segue=$(realpath "${1:-.build/release/segue}")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
w=375 h=667
cat > page.html <<'HTML'
<html><body style="margin:0">
<div style="height:120px;background:#f00"></div><div style="height:120px;background:#0f0"></div>
<div style="height:427px;background:linear-gradient(90deg,#0000ff,#00ffff,#ffff00,#ff00ff,#804020),linear-gradient(#fff0,#000f);background-blend-mode:multiply"></div>
</body></html>
HTML
chrome() { timeout 90 chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars --window-size="$w,$h" "$@" >/dev/null 2>&1; }
chrome --force-color-profile=display-p3-d65 --screenshot="$dir/p3.png" "file://$dir/page.html"
echo "<html><body style='margin:0'><img src='p3.png' style='display:block'></body></html>" > img.html
chrome --force-color-profile=srgb --screenshot="$dir/chromium-srgb.png" "file://$dir/img.html"
echo "<html><body style='margin:0'><img src='segue-p3.png' style='display:block'></body></html>" > img-p3.html
"$segue" render fade --from p3.png --to p3.png --progress 0 --backend cpu --quiet --colour-space srgb --out segue-srgb.png
if "$segue" render fade --from p3.png --to p3.png --progress 0 --backend cpu --quiet --colour-space display-p3 --out segue-p3.png 2>/dev/null; then
  chrome --force-color-profile=srgb --screenshot="$dir/chromium-segue-p3.png" "file://$dir/img-p3.html"
fi
/usr/bin/python3 - <<'PY'
import os
from io import BytesIO
from PIL import Image, ImageCms, ImageChops
def rgb(path): return Image.open(path).convert("RGB")
def icc_to_srgb(path):
    im = Image.open(path)
    src = ImageCms.ImageCmsProfile(BytesIO(im.info["icc_profile"]))
    return ImageCms.profileToProfile(im.convert("RGB"), src, ImageCms.createProfile("sRGB"), renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
def compare(name, a, b):
    d = ImageChops.difference(a, b)
    px = list(d.getdata())
    worst = [max(p) for p in px]
    within = sum(1 for m in worst if m <= 3) / len(px)
    mean = sum(sum(p) for p in px) / (3 * len(px))
    print("| %s | %.3f%% | %.3f | %d |" % (name, 100 * within, mean, max(worst)))
p3 = Image.open("p3.png")
print("P3 screenshot: %s, red %s, green %s, profile %d bytes" % (p3.size, p3.convert("RGB").getpixel((10, 10)), p3.convert("RGB").getpixel((10, 200)), len(p3.info.get("icc_profile", b""))))
segue, chromium, pillow = rgb("segue-srgb.png"), rgb("chromium-srgb.png"), icc_to_srgb("p3.png")
print("segue sRGB: red %s, green %s; Chromium: red %s, green %s" % (segue.getpixel((10, 10)), segue.getpixel((10, 200)), chromium.getpixel((10, 10)), chromium.getpixel((10, 200))))
print("| comparison | pixels within 3 levels | mean difference | worst |")
print("|---|---|---|---|")
compare("segue sRGB vs Chromium <img> (sRGB display)", segue, chromium)
compare("segue sRGB vs Pillow ImageCms", segue, pillow)
compare("Chromium vs Pillow ImageCms", chromium, pillow)
if os.path.exists("segue-p3.png"):
    back = icc_to_srgb("segue-p3.png")
    compare("segue Display P3 (through its profile, Pillow) vs Pillow's sRGB of the input", back, pillow)
    compare("segue Display P3 raw values vs the input's", rgb("segue-p3.png"), p3.convert("RGB"))
    if os.path.exists("chromium-segue-p3.png"):
        compare("Chromium showing segue's P3 PNG vs Chromium showing the input", rgb("chromium-segue-p3.png"), chromium)
PY

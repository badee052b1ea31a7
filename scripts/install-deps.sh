#!/usr/bin/env bash
# Installs the Debian packages Segue needs, only those missing. Usage: scripts/install-deps.sh [build|bench|studio|image]
#   build: EGL/GLES/GBM headers, Mesa's llvmpipe driver, libspng (PNG decoding), libdeflate (PNG encoding),
#          libjpeg-turbo, Little CMS 2 (colour management), libheif (HEIC input, opened at run time), glslang, ffmpeg, which the tests of --video and Y4M streams run (make demo, make test),
#          and patchelf, which sets the run path of the self-contained build (make dist)
#   bench: also ffmpeg, pixman and matplotlib (make bench)
#   image: also Podman (with runc, which starts containers where crun cannot) and debootstrap (make test-image)
#   studio: also Debian's Chromium and its chromedriver, and python3-venv for Selenium (make test-studio)
set -euo pipefail
packages=(pkg-config libegl-dev libgles-dev libgbm1 libegl-mesa0 libgl1-mesa-dri libspng-dev libdeflate-dev libturbojpeg0-dev liblcms2-dev libheif-dev glslang-tools ffmpeg patchelf)
if [ "${1:-build}" = bench ]; then
  packages+=(ffmpeg libpixman-1-dev python3-matplotlib)
fi
if [ "${1:-build}" = image ]; then
  packages+=(podman runc debootstrap)
fi
if [ "${1:-build}" = studio ]; then
  packages+=(chromium chromium-driver python3-venv fonts-dejavu-core)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "segue: installing Debian packages: ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null

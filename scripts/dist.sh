#!/usr/bin/env bash
# make dist: dist/segue-VERSION-linux-x86_64.tar.gz, a build that runs where no Swift toolchain is installed.
#
#   bin/segue          the command line (`segue studio` too), with the Swift standard library and Foundation
#                      linked in statically (not FoundationNetworking: nothing of segue uses URLSession or libcurl)
#   bin/segue-bench    the benchmark: a link to bin/segue, which answers as the bench under that name
#   lib/               the shared libraries a plain Debian or Ubuntu machine lacks (libspng, libdeflate,
#                      libturbojpeg, liblcms2: Debian ships no static liblcms2.a), found through the binaries' run path $ORIGIN/../lib
#   scripts/gpu-check.sh, README, LICENSE
#
# EGL, GLES and GBM are not shipped: they must come from the machine's driver (glvnd's libEGL picks NVIDIA's
# or Mesa's), and all three are opened at run time (dlopen), so the archive draws on the CPU where there are none. Neither are glibc, libstdc++, libgcc_s or zlib, which every
# Debian and Ubuntu system has (apt itself needs them) and which a driver loaded into the process must share.
# libheif (HEIC input) is opened at run time too and not shipped: its codecs are 24.8 MB (5.5 MB gzipped), most of
# them encoders; a machine that reads HEIC photos installs libheif1, and Segue says so when it is missing.
#
# Usage: scripts/dist.sh [OUTDIR]   (default dist/; needs patchelf)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-dist}
version=$(sed -n 's/^ *public static let version = "\([^"]*\)"$/\1/p' Sources/SegueRender/Backends/SegueBuild.swift)
[ -n "$version" ] || { echo "dist: no version in Sources/SegueRender/Backends/SegueBuild.swift" >&2; exit 1; }
name=segue-$version-linux-$(uname -m)
command -v patchelf >/dev/null || { echo "dist: patchelf is missing (apt-get install patchelf)" >&2; exit 1; }

swift build -c release --static-swift-stdlib --product segue

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root=$stage/$name
mkdir -p "$root/bin" "$root/lib" "$root/scripts"
install -m 755 .build/release/segue "$root/bin/segue"
# One binary, two names: segue started as segue-bench is the bench (Bench.isCommandName), so the Swift
# runtime and Foundation's ICU data (31 MB of each static binary) are shipped once.
ln -s segue "$root/bin/segue-bench"
for binary in "$root"/bin/*; do
  [ -L "$binary" ] && continue
  strip "$binary"
  patchelf --set-rpath '$ORIGIN/../lib' "$binary"
done

# Every library ldd resolves, less glibc, the base system's C++ runtime and zlib, and the GL driver's.
not_shipped='^(linux-vdso|ld-linux|libc|libm|libdl|libpthread|librt|libresolv|libutil|libstdc\+\+|libgcc_s|libz|libEGL|libGLESv2|libGLdispatch|libGLX|libOpenGL|libGL|libgbm|libdrm|libwayland-[a-z]+|libexpat|libffi|libX11|libxcb)\.so'
for binary in "$root"/bin/*; do
  [ -L "$binary" ] && continue
  ldd "$binary" | awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }'
done | sort -u | while read -r soname path; do
  if [[ $soname =~ $not_shipped ]]; then continue; fi
  case $soname in libcurl*) echo "dist: bin/segue links $soname (FoundationNetworking crept in)" >&2; exit 1;; esac
  case $path in /opt/swift/*|*/swift/*) echo "dist: $soname comes from the Swift toolchain ($path): not static" >&2; exit 1;; esac
  cp -L "$path" "$root/lib/$soname"
  strip --strip-unneeded "$root/lib/$soname"
done

install -m 755 scripts/gpu-check.sh "$root/scripts/gpu-check.sh"
install -m 644 README.md LICENSE "$root/"

mkdir -p "$out"
tar -C "$stage" -czf "$out/$name.tar.gz.part" "$name"
mv "$out/$name.tar.gz.part" "$out/$name.tar.gz"
size=$(stat -c %s "$out/$name.tar.gz")
echo "dist: $out/$name.tar.gz, $((size / 1024 / 1024)) MiB ($size bytes); lib/: $(ls "$root/lib" | tr '\n' ' ')"

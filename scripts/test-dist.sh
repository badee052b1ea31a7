#!/usr/bin/env bash
# make test-dist: the archive `make dist` wrote, unpacked into an empty directory and run where the Swift
# toolchain and this checkout (its .build included) are hidden: in a mount namespace, an empty directory is
# mounted over each, and the environment is emptied. `segue doctor --quick` must pass there (every effect on
# each backend against the CPU at 188x334: the archive's renderers work; the full doctor, 170 s on 2 cores, runs
# against the release build in `make test`'s DoctorCommandTests) and `segue demo` must render; `segue-bench`
# must answer; `segue studio` must serve its page (fetched with curl, the token from the URL it prints), and
# the binary must not link libcurl. Needs root (or unshare rights) for the mount namespace.
#
# Usage: scripts/test-dist.sh [DISTDIR]   (default dist/)
set -euo pipefail
cd "$(dirname "$0")/.."
archive=$(ls -t "${1:-dist}"/segue-*.tar.gz | head -1)
checkout=$(pwd)
toolchain=$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")
run=$(mktemp -d /tmp/segue-dist.XXXXXX)
trap 'rm -rf "$run"' EXIT
tar -C "$run" -xzf "$archive"
root=$(ls -d "$run"/segue-*)
echo "test-dist: $archive ($(du -h "$archive" | cut -f1)), unpacked in $root; hiding $toolchain and $checkout"

sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
$sudo unshare -m bash -euo pipefail -c '
  toolchain=$1 checkout=$2 root=$3
  empty=$(mktemp -d)
  mount --bind "$empty" "$toolchain"
  mount --bind "$empty" "$checkout"
  [ ! -e "$toolchain/bin/swift" ] && [ ! -e "$checkout/.build" ] || { echo "test-dist: could not hide the build" >&2; exit 1; }
  cd "$root"
  clean() { env -i PATH=/usr/bin:/bin HOME=/tmp "$@"; }
  if ldd bin/segue | grep -E "swift|not found"; then echo "test-dist: bin/segue needs a library it lacks" >&2; exit 1; fi
  if ldd bin/segue | grep -E "libcurl"; then echo "test-dist: bin/segue links libcurl" >&2; exit 1; fi
  clean bin/segue --version
  clean bin/segue doctor --quick
  clean bin/segue demo --out "$root/demo" --quiet --fps 10
  test -s "$root/demo/door-forward.png"
  answer=$(clean bin/segue-bench --no-such-flag 2>&1 || true)
  grep -q "segue-bench: unknown argument" <<<"$answer" || { echo "test-dist: segue-bench did not answer: $answer" >&2; exit 1; }
  mkdir "$root/studio" && cd "$root/studio"
  clean "$root/bin/segue" studio --port 0 > "$root/studio.out" 2>&1 & studio=$!
  for _ in $(seq 100); do grep -q "http://" "$root/studio.out" && break; sleep 0.1; done
  url=$(grep -o "http://[^ ]*" "$root/studio.out" | head -1)
  page=$(curl -sS --max-time 10 "$url") || true
  kill -TERM $studio; wait $studio || true
  grep -q "<title>" <<<"$page" || { echo "test-dist: segue studio served no page at ${url:-no URL}: $(cat "$root/studio.out")" >&2; exit 1; }
  echo "test-dist: segue studio served its page ($(wc -c <<<"$page") bytes) at ${url%%\?*}"
  cd "$root"
  # EGL and GLES are opened at run time: with them hidden too, the archive still renders (on the CPU) and says why.
  if ldd bin/segue | grep -E "libEGL|libGLESv2"; then echo "test-dist: bin/segue links EGL or GLES" >&2; exit 1; fi
  : > "$empty/.nolib"
  for lib in $(/sbin/ldconfig -p | awk "\$1 == \"libEGL.so.1\" || \$1 == \"libGLESv2.so.2\" { print \$NF }"); do
    mount --bind "$empty/.nolib" "$lib"
  done
  note=$(clean bin/segue render door --from sample:home --to sample:detail --progress 0.5 --backend auto --quiet --out "$root/nogles.png" 2>&1)
  grep -q "libEGL.so.1 cannot be loaded" <<<"$note" && test -s "$root/nogles.png" \
    || { echo "test-dist: without libEGL, --backend auto did not fall back naming it: $note" >&2; exit 1; }
  clean bin/segue info | grep "^gles: unavailable - libEGL.so.1 cannot be loaded"
  echo "test-dist: the archive runs with the toolchain and the build tree hidden, and on the CPU without EGL/GLES"
' _ "$toolchain" "$checkout" "$root"

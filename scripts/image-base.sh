#!/usr/bin/env bash
# A Debian 12 base image made here with debootstrap, for machines that reach Debian's packages but no image
# registry (CI, `make test-image`): the minbase variant, trimmed as Debian's slim images are (no documentation,
# manual pages or translations, now or in packages installed later), imported as IMAGE (default
# localhost/segue-base:bookworm).
#
# Usage: scripts/image-base.sh [IMAGE]   (root or sudo; needs debootstrap, and podman or docker)
#   MIRROR   the Debian mirror (default: the first one apt uses here, else http://deb.debian.org/debian)
#   CACHE    where the root file system's tarball is kept between runs (default .build/image)
# The image is made once: an IMAGE already present is kept, and so is the tarball.
set -euo pipefail
cd "$(dirname "$0")/.."
image=${1:-localhost/segue-base:bookworm}
cache=${CACHE:-.build/image}
say() { echo "image-base: $*" >&2; }
. scripts/container-engine.sh

if ctr image inspect "$image" >/dev/null 2>&1; then
  say "$image is already here"
  exit 0
fi
command -v debootstrap >/dev/null || { say "debootstrap is missing (scripts/install-deps.sh image)"; exit 1; }

if [ -z "${MIRROR:-}" ]; then
  MIRROR=$(grep -rhoE '^(URIs:|deb) +https?://[^ ]+/debian/?' /etc/apt/sources.list /etc/apt/sources.list.d 2>/dev/null \
           | head -1 | awk '{print $2}' || true)
  MIRROR=${MIRROR:-http://deb.debian.org/debian}
fi

mkdir -p "$cache"
tarball=$cache/debian-bookworm-minbase.tar
if [ ! -s "$tarball" ]; then
  root=$(mktemp -d /tmp/segue-base.XXXXXX)
  trap '$sudo rm -rf "$root"' EXIT
  say "debootstrap bookworm (minbase) from $MIRROR"
  started=$SECONDS
  $sudo debootstrap --variant=minbase bookworm "$root" "$MIRROR" >"$cache/debootstrap.log" 2>&1 \
    || { say "debootstrap failed: the end of $cache/debootstrap.log:"; tail -5 "$cache/debootstrap.log" >&2; exit 1; }
  # What Debian's slim images leave out, for every package installed from now on as well.
  $sudo tee "$root/etc/dpkg/dpkg.cfg.d/slim" >/dev/null <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/lintian/*
EOF
  $sudo tee "$root/etc/apt/apt.conf.d/slim" >/dev/null <<'EOF'
APT::Install-Recommends "false";
Acquire::Languages "none";
EOF
  $sudo chroot "$root" apt-get clean
  $sudo find "$root/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
  $sudo rm -rf "$root"/usr/share/man/* "$root"/usr/share/info/* "$root"/usr/share/locale/* \
    "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/log/*.log "$root"/var/log/apt/*
  # Reproducible enough: the machine's own identity and resolver are not baked in.
  $sudo rm -f "$root/etc/hostname" "$root/etc/machine-id" "$root/var/lib/dbus/machine-id"
  $sudo tar -C "$root" --numeric-owner -cf "$tarball.part" .
  mv "$tarball.part" "$tarball"
  say "root file system: $(du -m "$tarball" | cut -f1) MB in $((SECONDS - started)) s"
fi
ctr import --change 'CMD ["/bin/bash"]' "$tarball" "$image" >/dev/null
say "imported $image ($(ctr image inspect --format '{{.Size}}' "$image" | awk '{printf "%.0f MB", $1/1e6}'))"

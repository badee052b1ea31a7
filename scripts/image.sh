#!/usr/bin/env bash
# make image: the container image (Containerfile) in both variants, from this checkout's `make dist` archive,
# with podman or docker (ENGINE= chooses), tagged
#   segue:VERSION  segue:latest        (target cpu)
#   segue:VERSION-gpu  segue:gpu       (target gpu)
# and each variant's size said.
#
# Usage: scripts/image.sh ARCHIVE
#        scripts/image.sh --runtime    only the stage under segue (the base and its Debian packages), which
#                                      the build above then finds made (CI makes it while segue builds)
#   BASE   the run stage's base image (default docker.io/library/debian:bookworm-slim; make test-image passes
#          one made here by scripts/image-base.sh, as a machine without an image registry needs)
set -euo pipefail
cd "$(dirname "$0")/.."
archive=${1:?usage: scripts/image.sh dist/segue-VERSION-linux-ARCH.tar.gz | --runtime}
base=${BASE:-docker.io/library/debian:bookworm-slim}
. scripts/container-engine.sh
if [ "$engine" = podman ] && ! ctr image exists "$base"; then ctr pull "$base" >/dev/null; fi
engine_settings "$base"
mkdir -p .build/image
if [ "$archive" = --runtime ]; then
  started=$SECONDS
  ctr build -f Containerfile --target runtime --build-arg BASE="$base" --build-arg ARCHIVE=prebuilt . \
    >.build/image/build-runtime.log 2>&1 \
    || { echo "segue image: the runtime stage did not build; the end of .build/image/build-runtime.log:" >&2
         tail -15 .build/image/build-runtime.log >&2; exit 1; }
  echo "segue image: the runtime stage (on $base) built in $((SECONDS - started)) s"
  exit 0
fi
[ -s "$archive" ] || { echo "segue image: no archive at $archive (make dist)" >&2; exit 1; }
# COPY names it within the build context, this checkout.
archive=$(realpath --relative-to="$PWD" "$archive")
[[ $archive != ../* ]] || { echo "segue image: the archive must be inside $PWD (the build context), not $archive" >&2; exit 1; }
version=$(sed -n 's/^ *public static let version = "\([^"]*\)"$/\1/p' Sources/SegueRender/Backends/SegueBuild.swift)
for target in cpu gpu; do
  suffix=""; [ $target = gpu ] && suffix=-gpu
  tags=(-t "segue:$version-gpu" -t segue:gpu)
  [ $target = cpu ] && tags=(-t "segue:$version" -t segue:latest)
  started=$SECONDS
  ctr build -f Containerfile --target $target --build-arg BASE="$base" --build-arg ARCHIVE=prebuilt \
    --build-arg ARCHIVE_FILE="$archive" --build-arg VERSION="$version" "${tags[@]}" . >.build/image/build-$target.log 2>&1 \
    || { echo "segue image: the $target image did not build; the end of .build/image/build-$target.log:" >&2
         tail -15 .build/image/build-$target.log >&2; exit 1; }
  size=$(ctr image inspect --format '{{.Size}}' "segue:$version$suffix")
  echo "segue image: segue:$version$suffix ($target) built in $((SECONDS - started)) s: $((size / 1000000)) MB"
done

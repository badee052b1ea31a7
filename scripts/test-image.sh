#!/usr/bin/env bash
# make test-image: the container image built and run for real, as a scheduler runs it.
#   1. a Debian 12 base made here with debootstrap (scripts/image-base.sh; no image registry is needed), then
#      both variants of the image from the `make dist` archive (scripts/image.sh);
#   2. in a container with a read-only root file system, as the image's non-root user, no capability added:
#      `segue doctor --quick` and `segue demo`; the GPU variant's doctor where there is no GPU says so in one
#      line; an /out the user cannot write is one line and exit 1;
#   3. a storyboard's .mp4 as 3 chunks in 3 containers at once on one shared volume, joined by a fourth: the
#      same frame count and duration as one render outside containers, every frame's PSNR against the
#      lossless frames within 0.5 dB of that render's (as make test-slurm holds);
#   4. one chunk's container killed mid-run and the chunk resumed in a new container: the same result;
#   5. each scheduler example's arguments (examples/), as written, as its first task.
#
# Usage: scripts/test-image.sh ARCHIVE   (root or sudo; podman, debootstrap and ffmpeg: scripts/install-deps.sh image)
# The base image and its root file system's tarball (.build/image) are made once and kept.
set -euo pipefail
cd "$(dirname "$0")/.."
archive=$(realpath "${1:?usage: scripts/test-image.sh dist/segue-VERSION-linux-ARCH.tar.gz}")
version=$(sed -n 's/^ *public static let version = "\([^"]*\)"$/\1/p' Sources/SegueRender/Backends/SegueBuild.swift)
say() { echo "test-image: $*"; }
fail() { echo "test-image: FAIL: $*" >&2; exit 1; }
ENGINE=${ENGINE:-podman}
. scripts/container-engine.sh

base=localhost/segue-base:bookworm
started=$SECONDS
scripts/image-base.sh "$base"
engine_settings "$base"
BASE=$base scripts/image.sh "$archive"
say "base and images ready in $((SECONDS - started)) s"
image=segue:$version

work=$(mktemp -d /tmp/segue-image.XXXXXX)
chmod 755 "$work"
containers=()
cleanup() {
  status=$?
  for c in "${containers[@]}"; do ctr rm -f "$c" >/dev/null 2>&1 || true; done
  $sudo rm -rf "$work"
  exit $status
}
trap cleanup EXIT
# The volumes: inputs read-only, outputs writable by the image's user (uid 10001) only.
mkdir -p "$work/in" "$work/out" "$work/locked" "$work/host"
$sudo chown 10001:10001 "$work/out"
# How every container runs: read-only root, the image's own user, nothing added, killed with the test.
# --read-only-tmpfs=false: no writable /tmp or /run either, as Docker's --read-only and Kubernetes'
# readOnlyRootFilesystem give.
run() { ctr run --rm --read-only --read-only-tmpfs=false --network none -v "$work/in:/work:ro" -v "$work/out:/out" "$@"; }

# 2. The image's user, a read-only root, doctor and the demo.
user=$(ctr image inspect --format '{{.Config.User}}' "$image")
[ "$user" = 10001:10001 ] || fail "the image runs as '$user', not 10001:10001"
run --entrypoint id "$image" -u | grep -qx 10001 || fail "the container does not run as uid 10001"
run "$image" doctor --quick >"$work/doctor.txt" 2>&1 || { cat "$work/doctor.txt"; fail "segue doctor --quick failed in the container"; }
say "doctor --quick in the container: $(grep -c . "$work/doctor.txt") lines, ending '$(tail -1 "$work/doctor.txt")'"
run "$image" demo --scale 0.25 --fps 10 --quiet --out /out/demo >"$work/demo.txt" 2>&1 \
  || { cat "$work/demo.txt"; fail "segue demo failed in the container"; }
demo_files=$(find "$work/out/demo" -type f | wc -l)
[ "$demo_files" -gt 0 ] || fail "segue demo wrote nothing"
say "demo in the container: $demo_files files in /out/demo, owned by uid $(stat -c %u "$work/out/demo")"
if run segue:$version-gpu doctor --quick >"$work/doctor-gpu.txt" 2>&1; then gpu_status=0; else gpu_status=$?; fi
gpu_line=$(grep -m1 '^gpu: ' "$work/doctor-gpu.txt" || true)
[[ $gpu_line == "gpu: none reached: this container asks for NVIDIA GPUs"* ]] \
  || { cat "$work/doctor-gpu.txt"; fail "the GPU variant's doctor, with no GPU, does not say what is missing"; }
say "GPU variant's doctor with no GPU (exit $gpu_status): $gpu_line"
# A HEIC screen (an iPhone photo's format, through the image's libheif1), read in the container.
cp Tests/SegueImageIOTests/Fixtures/heic/p3-nclx.heic "$work/in/photo.heic"
run "$image" render door --from /work/photo.heic --to sample:detail --progress 0.5 --backend cpu --quiet \
  --out /out/heic.png >"$work/heic.txt" 2>&1 || { cat "$work/heic.txt"; fail "a HEIC screen was not read in the container"; }
say "a HEIC screen in the container: $(grep -c . "$work/heic.txt") lines said, $(stat -c %s "$work/out/heic.png") bytes of PNG"
# An /out the user cannot write: one line, exit 1.
if ctr run --rm --read-only --read-only-tmpfs=false --network none -v "$work/locked:/out" "$image" render door --from sample:home \
     --to sample:detail --progress 0.5 --backend cpu --out /out/door.png >"$work/locked.txt" 2>&1; then
  fail "a render into an unwritable /out succeeded"
else
  code=$?
fi
[ $code -eq 1 ] || { cat "$work/locked.txt"; fail "a render into an unwritable /out exited $code, not 1"; }
[ "$(grep -c . "$work/locked.txt")" -eq 1 ] || { cat "$work/locked.txt"; fail "a render into an unwritable /out said more than one line"; }
say "unwritable /out: exit 1, '$(cat "$work/locked.txt")'"

# 3. and 4. Two storyboards of the built-in screens: story.json, 2 s at 30 fps (61 frames) at 180x320, for the
# chunks run at once; long.json, 5.6 s (169 frames) at 720x1280, so that the chunk killed is killed mid-run.
story() { # story NAME WIDTH HEIGHT SECONDS: a storyboard (two transitions of SECONDS each) into $work/in/NAME.json
  cat >"$work/in/$1.json" <<EOF
{"fps": 30, "scale": 1, "size": [$2, $3],
 "screens": {"home": "sample:home", "detail": "sample:detail"},
 "timeline": [{"hold": "home", "duration": 0.3},
              {"transition": "circle-spread", "from": "home", "to": "detail", "duration": $4, "options": {"center": [60, 90]}},
              {"hold": "detail", "duration": 0.3},
              {"transition": "page-flip", "from": "detail", "to": "home", "duration": $4, "direction": "back"}]}
EOF
}
story story 180 320 0.7
story long 720 1280 2.5
mkdir -p "$work/host/dist"
tar -C "$work/host/dist" -xzf "$archive"
host_segue=$(echo "$work"/host/dist/segue-*/bin/segue)
probe() { ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames,duration_ts,time_base,duration -of compact "$1"; }
# psnr VIDEO REFERENCE: each frame's PSNR (dB) against REFERENCE (a video, or a directory of PNG frames).
psnr() {
  local reference=(-i "$2")
  [ -d "$2" ] && reference=(-framerate 30 -i "$2/frame_%05d.png")
  ffmpeg -v error -i "$1" "${reference[@]}" -lavfi "[0:v]format=rgb24[a];[1:v]format=rgb24[b];[a][b]psnr=stats_file=$work/psnr.log" -f null -
  awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^psnr_avg:/) { v = substr($i, 10); if (v == "inf") v = 99; print v } }' "$work/psnr.log"
}
# The single render outside containers, from the same archive: the .mp4 and the lossless frames.
for name in story long; do
  "$host_segue" batch "$work/in/$name.json" --video "$work/host/$name.mp4" --backend cpu --quiet
  "$host_segue" batch "$work/in/$name.json" --out "$work/host/$name" --backend cpu --quiet
  psnr "$work/host/$name.mp4" "$work/host/$name" >"$work/host/$name.db"
done
# check NAME VIDEO WHAT: VIDEO has the single run's frame count and duration, and each frame, against the
# lossless frames, a PSNR at least the single run's less 0.5 dB, as make test-slurm holds (each encode is as
# close to the frames as the other; the two encodes differ from each other where their I-frames differ).
check() {
  local name=$1 video=$2 what=$3 frames
  frames=$(ls "$work/host/$name" | grep -c '^frame_')
  [ "$(probe "$video")" = "$(probe "$work/host/$name.mp4")" ] \
    || fail "$what: $(probe "$video"), the single run: $(probe "$work/host/$name.mp4")"
  psnr "$video" "$work/host/$name" >"$work/joined.db"
  [ "$(grep -c . "$work/joined.db")" -eq "$frames" ] || fail "$what: PSNR of $(grep -c . "$work/joined.db") frames, not $frames"
  psnr "$video" "$work/host/$name.mp4" >"$work/direct.db"
  paste "$work/host/$name.db" "$work/joined.db" "$work/direct.db" | awk -v what="$what" -v n="$frames" '
    NR == 1 { worst = 1e9; direct = 1e9 }
    { margin = $2 - ($1 - 0.5); if (margin < worst) { worst = margin; at = NR - 1 }
      if ($3 < direct) direct = $3; s += $1; j += $2 }
    END { printf "test-image: %s: %d frames and the single run'"'"'s duration; PSNR against the lossless frames: single run %.2f dB, this %.2f dB (means), smallest margin over single - 0.5 dB %.2f dB (frame %d); lowest against the single .mp4 %.2f dB\n", what, n, s / NR, j / NR, worst, at, direct
          if (worst < 0) { print "test-image: FAIL: " what ": a frame more than 0.5 dB under the single run" > "/dev/stderr"; exit 1 } }'
}

chunk() { # chunk CONTAINER STORY I: chunk I of 3 of /out/STORY.mp4, in a detached container
  containers+=("$1")
  ctr run -d --name "$1" --read-only --read-only-tmpfs=false --network none -v "$work/in:/work:ro" -v "$work/out:/out" "$image" \
    batch "/work/$2.json" --video "/out/$2.mp4" --chunk "$3/3" --resume --backend cpu --quiet >/dev/null
}
finish() { # finish CONTAINER: waits for it (120 s at most), keeps its log, removes it; its exit status
  local code
  code=$($sudo timeout 120 env ${CONTAINERS_CONF:+CONTAINERS_CONF="$CONTAINERS_CONF"} "$engine" wait "$1") \
    || fail "container $1 did not end in 120 s"
  ctr logs "$1" >"$work/$1.log" 2>&1 || true
  ctr rm -f "$1" >/dev/null 2>&1 || true
  echo "$code"
}
succeed() { # succeed CONTAINER: finish, and it exited 0
  local code
  code=$(finish "$1")
  [ "$code" = 0 ] || { cat "$work/$1.log" >&2; fail "$1 exited $code"; }
}

started=$SECONDS
for i in 0 1 2; do chunk segue-test-chunk-$i story $i; done
for i in 0 1 2; do succeed segue-test-chunk-$i; done
run "$image" join /out/story.mp4 --quiet >"$work/join.log" 2>&1 || { cat "$work/join.log"; fail "the join failed"; }
say "3 chunks in 3 containers at once, joined in a fourth: $((SECONDS - started)) s"
check story "$work/out/story.mp4" "3 chunks joined"

# 4. Chunk 1 killed once it has begun writing its video, then resumed in a new container.
started=$SECONDS
for i in 0 1 2; do chunk segue-test-long-$i long $i; done
for _ in $(seq 1 1200); do
  ls -A "$work/out/long.mp4.chunks" 2>/dev/null | grep -q '^\.chunk-0001of0003\.mp4\.tmp' && break
  sleep 0.05
done
ls -A "$work/out/long.mp4.chunks" | grep -q '^\.chunk-0001of0003\.mp4\.tmp' || fail "chunk 1 did not begin its video in 60 s"
ctr kill segue-test-long-1 >/dev/null || fail "chunk 1 ended before it could be killed ($(ls -A "$work/out/long.mp4.chunks" | tr '\n' ' '))"
code=$(finish segue-test-long-1)
left=$(ls -A "$work/out/long.mp4.chunks" | tr '\n' ' ')
[[ " $left" != *" chunk-0001of0003.mp4 "* ]] || fail "the killed chunk 1 left a complete-looking chunk ($left)"
# Every container's segue has the same pid: its temporary names say which container (pid space) made them.
[[ $left == *".chunk-0001of0003.mp4.tmp-"[0-9]*.????????"-"* ]] || fail "the killed chunk's temporary does not name its pid space ($left)"
say "chunk 1 killed mid-run (exit $code), leaving: $left"
for i in 0 2; do succeed segue-test-long-$i; done
chunk segue-test-long-1-resumed long 1
succeed segue-test-long-1-resumed
run "$image" join /out/long.mp4 --quiet >"$work/join-long.log" 2>&1 || { cat "$work/join-long.log"; fail "the join after the resume failed"; }
say "chunk 1 killed, resumed in a new container, joined: $((SECONDS - started)) s"
check long "$work/out/long.mp4" "killed, resumed and joined"
# 5. The scheduler examples as written: each one's arguments, in the image, as its first task of 8 (the index
# and count the scheduler would give), with the volume where the example mounts it; each must write its part.
example_args() { # example_args FILE: the container's arguments in FILE (args: [...] in YAML, "command" in JSON)
  python3 - "$1" <<'EOF'
import json, re, sys
text = open(sys.argv[1]).read()
if sys.argv[1].endswith(".json"):
    args = json.loads(text)["containerProperties"]["command"]
else:
    args = json.loads(re.search(r"^\s*args:\s*(\[.*?\])", text, re.S | re.M).group(1))
print("\n".join(args))
EOF
}
for example in examples/render-job.yaml:/frames:JOB_COMPLETION_INDEX=0:SEGUE_SHARDS=8 \
               examples/chunks/kubernetes-job.yaml:/out:JOB_COMPLETION_INDEX=0:SEGUE_SHARDS=8 \
               examples/chunks/cloud-run-job.yaml:/out:CLOUD_RUN_TASK_INDEX=0:CLOUD_RUN_TASK_COUNT=8 \
               examples/chunks/aws-batch-job-definition.json:/out:AWS_BATCH_JOB_ARRAY_INDEX=0:SEGUE_SHARDS=8; do
  IFS=: read -r file mount first second <<<"$example"
  mapfile -t args < <(example_args "$file")
  volume=$work/example-$(basename "$file" | cut -d. -f1)
  mkdir -p "$volume" && $sudo chown 10001:10001 "$volume"
  started=$SECONDS
  ctr run --rm --read-only --read-only-tmpfs=false --network none -v "$volume:$mount" -e "$first" -e "$second" \
    "$image" "${args[@]}" >"$volume.log" 2>&1 || { cat "$volume.log" >&2; fail "$file: its arguments failed in the image: ${args[*]}"; }
  written=$(find "$volume" -type f -not -path '*/.segue/*' -not -name job | wc -l)
  [ "$written" -gt 0 ] || fail "$file: its first task wrote nothing"
  say "$file as written, task 1 of 8: $written files in $mount in $((SECONDS - started)) s (segue ${args[*]})"
done
say "PASS: $image ($(( $(ctr image inspect --format '{{.Size}}' "$image") / 1000000 )) MB) and $image-gpu ($(( $(ctr image inspect --format '{{.Size}}' "$image-gpu") / 1000000 )) MB)"

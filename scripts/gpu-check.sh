#!/usr/bin/env bash
# The one command that checks a machine with a GPU, from the self-contained archive (make dist): what EGL
# gives, whether every backend draws what the CPU compositor draws, and how fast each is at 1080p, 4K and 8K.
# Needs nothing but the archive and a GL driver (no Swift toolchain, no network, no python).
#
# Usage: scripts/gpu-check.sh OUTDIR [ARCHIVE.tar.gz | UNPACKED_DIR]
#   default: the newest dist/segue-*.tar.gz beside this script's project, or the directory this script was
#   unpacked in (ARCHIVE/scripts/gpu-check.sh).
# Writes into OUTDIR: info.txt; premise.json/.log (fade at 4K on each GLES path, in the first minute) with
# link.txt (the GPU's PCIe link read from sysfs during it); doctor.txt, doctor.json (with nvidia-smi's P-state and
# clocks, at rest and during a read-back); gles.json/.log (every built-in effect at 3840x2160 and 7680x4320 on
# each GLES path: draw, the GPU clock's kernel and transfer times, RGBA and 4:2:0 through the read-back ring) and
# cpu.json/.log (the CPU compositor on all cores), in steps of their own; job.md and job.json (whole jobs, warm:
# GPU_CHECK_JOB_FRAMES frames, 600 by default, at GPU_CHECK_JOB_SIZE, 3840x2160, as Y4M 4:2:0 and .mp4 on each
# backend); targets.md (issue 45's targets, met or missed, by segue-bench --targets); and summary.md.
# Each step has a time limit (20 + 60 + 90 + 150 + 60 + 100 s: the whole within 8 minutes); a step that fails is
# reported, not fatal.
set -uo pipefail

out=${1:?usage: gpu-check.sh OUTDIR [ARCHIVE.tar.gz | UNPACKED_DIR]}
here=$(cd "$(dirname "$0")" && pwd)
source=${2:-}
if [ -z "$source" ]; then
  if [ -x "$here/../bin/segue" ]; then source=$here/..
  else source=$(ls -t "$here"/../dist/segue-*.tar.gz 2>/dev/null | head -1); fi
fi
[ -n "$source" ] || { echo "gpu-check: no archive (run make dist, or name one)" >&2; exit 2; }
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
if [ -d "$source" ]; then
  root=$(cd "$source" && pwd)
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  tar -C "$work" -xzf "$source" || { echo "gpu-check: cannot unpack $source" >&2; exit 2; }
  root=$(ls -d "$work"/segue-* | head -1)
fi
segue=$root/bin/segue
bench=$root/bin/segue-bench
say() { echo "gpu-check: $*" >&2; }
# A step under a time limit, its status kept; output to FILE.
step() {
  local limit=$1 file=$2; shift 2
  say "$(basename "$file"): $*"
  local started=$SECONDS
  timeout --kill-after=10 "$limit" "$@" >"$file" 2>"$file.err"
  local status=$?
  echo "$status $((SECONDS - started))" >"$file.status"
  [ $status -eq 124 ] && say "$(basename "$file") stopped after $limit s"
  return 0
}
status_of() { cut -d' ' -f1 "$1.status"; }
seconds_of() { cut -d' ' -f2 "$1.status"; }

# Every built-in effect (GPU_CHECK_EFFECTS and GPU_CHECK_SCALES narrow the bench, for a trial on llvmpipe).
effects=${GPU_CHECK_EFFECTS:-$("$segue" effects 2>/dev/null | sed '/^Custom GLSL/,$d' | grep -E '^[a-z][a-z0-9-]* - ' | cut -d' ' -f1 | paste -sd, -)}
scales=${GPU_CHECK_SCALES:-3,6}

# The GPU's PCIe link, sampled every 0.2 s while a step runs (a link trains down at rest): the fastest
# generation and width seen, and that link's rate device to host in GB/s (128b/130b from Gen3 on), into FILE.
link_sampler() {
  local file=$1 dev best=0 line=""
  dev=$(for d in /sys/bus/pci/devices/*; do
          [ "$(cat "$d/vendor" 2>/dev/null)" = 0x10de ] && case $(cat "$d/class" 2>/dev/null) in 0x03*) echo "$d";; esac
        done | head -1)
  [ -n "$dev" ] || { echo "no NVIDIA display device in /sys/bus/pci/devices" >"$file"; return; }
  while :; do
    local speed width
    speed=$(sed 's/ .*//' "$dev/current_link_speed" 2>/dev/null); width=$(cat "$dev/current_link_width" 2>/dev/null)
    if [ -n "$speed" ] && [ -n "$width" ]; then
      local gbps
      gbps=$(awk -v s="$speed" -v w="$width" 'BEGIN { e = s >= 8 ? 128 / 130 : 0.8; printf "%.1f", s * w * e / 8 }')
      if awk -v a="$gbps" -v b="$best" 'BEGIN { exit !(a > b) }'; then
        best=$gbps; line="$(basename "$dev"): $speed GT/s x$width = $gbps GB/s"
        echo "$line" >"$file"
      fi
    fi
    sleep 0.2
  done
}
# The link sampler beside a step: sampled while it runs, stopped when it ends.
with_link() {
  local file=$1; shift
  link_sampler "$file" &
  local sampler=$!
  "$@"
  kill "$sampler" 2>/dev/null; wait "$sampler" 2>/dev/null
}

step 20 "$out/info.txt" "$segue" info
# The premise first, in the first minute: fade at 4K (two full-screen layers) on each GLES path (raster, compute
# writing the pinned ring, compute-staged copying into it): drawn, read back as RGBA and 4:2:0 through the ring,
# with the GPU's clock for the kernel and the copy; the PCIe link read during it.
with_link "$out/link.txt" step 60 "$out/premise.log" "$bench" --only gles --draw-only --no-peers --chromium none --scales 3 \
  --runs 3 --effects fade --out "$out/premise.json"
cat "$out/premise.log.err" >>"$out/premise.log"
link_gbps=$(sed -n 's/.* = \([0-9.]*\) GB\/s$/\1/p' "$out/link.txt" 2>/dev/null)
# nvidia-smi now (doctor reads it again, at rest and busy).
smi_query=pstate,clocks.sm,clocks.mem,clocks.max.sm,pcie.link.gen.current,pcie.link.gen.max,pcie.link.width.current,utilization.gpu
if command -v nvidia-smi >/dev/null; then
  timeout --kill-after=5 10 nvidia-smi --query-gpu=$smi_query --format=csv >"$out/nvidia-smi.csv" 2>&1
else
  echo "nvidia-smi not present (not on PATH)" >"$out/nvidia-smi.csv"
fi
# (GPU_CHECK_DOCTOR_ARGS adds to doctor's arguments: --quick, for a trial on llvmpipe.)
step 90 "$out/doctor.txt" "$segue" doctor --report "$out/doctor.json" ${GPU_CHECK_DOCTOR_ARGS:-}
# Per effect at 4K and 8K, GLES and the CPU in steps of their own, so a slow GLES step cannot eat the CPU's: each
# GLES path's draw, the GPU's kernel and transfer times, RGBA and 4:2:0 through the ring; the CPU on all cores.
with_link "$out/link-bench.txt" step 150 "$out/gles.log" "$bench" --only gles --scales "$scales" --runs 2 --draw-only \
  --video-every-effect --no-peers --chromium none ${effects:+--effects "$effects"} --out "$out/gles.json"
cat "$out/gles.log.err" >>"$out/gles.log"
step 60 "$out/cpu.log" "$bench" --only cpu --scales "$scales" --runs 2 --draw-only --all-cores-only --no-peers --chromium none \
  ${effects:+--effects "$effects"} --out "$out/cpu.json"
cat "$out/cpu.log.err" >>"$out/cpu.log"
# Whole jobs, warm: Y4M 4:2:0 and .mp4, 600 frames at 4K on the CPU and each GLES choice.
step 100 "$out/job.md" "$bench" --job --job-frames "${GPU_CHECK_JOB_FRAMES:-600}" --job-size "${GPU_CHECK_JOB_SIZE:-3840x2160}" \
  --job-outputs y4m,mp4 --job-backends cpu,gles,gles-raster,gles-compute --out "$out/job.json"
# Each target of issue 45, met or missed, from the reports (the link's rate where it was read).
"$bench" --targets "$out/premise.json" "$out/gles.json" "$out/cpu.json" "$out/job.json" ${link_gbps:+--link-gbps "$link_gbps"} \
  >"$out/targets.md" 2>>"$out/targets.md"

{
  echo "# GPU check, $(date -u +%Y-%m-%dT%H:%MZ)"
  echo
  echo "Machine: $(uname -m), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')."
  command -v nvidia-smi >/dev/null && echo "GPU: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | head -1)."
  echo "Archive: $(basename "$root")."
  echo
  echo "## Targets (issue 45)"
  echo
  echo "PCIe link during the premise: $(cat "$out/link.txt" 2>/dev/null || echo "not read"); during the bench: $(cat "$out/link-bench.txt" 2>/dev/null || echo "not read")."
  echo
  cat "$out/targets.md"
  echo
  echo "## The premise: fade at 3840x2160 on each GLES path (exit $(status_of "$out/premise.log"), $(seconds_of "$out/premise.log") s)"
  echo
  echo "| size | effect | backend/threads | stage | ms/frame |"
  echo "|---|---|---|---|---|"
  sed -n 's/^segue-bench: \([0-9]*x[0-9]*\) \([^ ]*\) \([a-z-]*\/[0-9]*\) \(.*\): \([0-9.]*\) ms\/frame$/| \1 | \2 | \3 | \4 | \5 |/p' "$out/premise.log"
  echo
  echo "## segue info (exit $(status_of "$out/info.txt"))"
  echo '```'
  cat "$out/info.txt" "$out/info.txt.err"
  echo '```'
  echo
  echo "## The machine: PCIe link and nvidia-smi"
  echo
  echo "nvidia-smi before the checks:"
  echo '```'
  cat "$out/nvidia-smi.csv"
  echo '```'
  echo "From segue doctor: the links at rest, then each GLES backend's read-back of empty 3840x2160 frames with the"
  echo "link and nvidia-smi read during it:"
  echo '```'
  grep -E '^(pcie|nvidia-smi|gles on )|^ +(readback|pcie|nvidia-smi)' "$out/doctor.txt" || echo "(no such lines: doctor exit $(status_of "$out/doctor.txt"))"
  echo '```'
  echo
  echo "## Whole jobs (exit $(status_of "$out/job.md"), $(seconds_of "$out/job.md") s)"
  echo
  if [ -s "$out/job.md" ]; then cat "$out/job.md"
  else
    echo "No table (stopped or failed); the jobs that finished:"
    echo '```'
    grep -E '^segue-bench: (job |the )' "$out/job.md.err" | tail -40
    echo '```'
  fi
  echo
  echo "## segue doctor (exit $(status_of "$out/doctor.txt"), $(seconds_of "$out/doctor.txt") s)"
  echo '```'
  cat "$out/doctor.txt"
  tail -3 "$out/doctor.txt.err"
  echo '```'
  echo
  for part in gles cpu; do
    echo "## segue-bench, $part (exit $(status_of "$out/$part.log"), $(seconds_of "$out/$part.log") s): ms per frame, median"
    echo
    echo "| size | effect | backend/threads | stage | ms/frame |"
    echo "|---|---|---|---|---|"
    sed -n 's/^segue-bench: \([0-9]*x[0-9]*\) \([^ ]*\) \([a-z-]*\/[0-9]*\) \(.*\): \([0-9.]*\) ms\/frame$/| \1 | \2 | \3 | \4 | \5 |/p' "$out/$part.log"
    echo
  done
} >"$out/summary.md"
say "wrote $out/summary.md"
# The check's verdict is the doctor's.
exit "$(status_of "$out/doctor.txt")"

#!/usr/bin/env bash
# The one command that checks a machine with a GPU, from the self-contained archive (make dist): what EGL
# gives, whether every backend draws what the CPU compositor draws, and how fast each is at 1080p, 4K and 8K.
# Needs nothing but the archive and a GL driver (no Swift toolchain, no network, no python).
#
# Usage: scripts/gpu-check.sh OUTDIR [ARCHIVE.tar.gz | UNPACKED_DIR]
#   default: the newest dist/segue-*.tar.gz beside this script's project, or the directory this script was
#   unpacked in (ARCHIVE/scripts/gpu-check.sh).
# Writes into OUTDIR: info.txt, doctor.txt, doctor.json (with the GPU's PCIe link from sysfs and nvidia-smi's
# P-state and clocks, at rest and during a read-back, and the read-back's GB/s against the link), job.md and
# job.json (whole jobs: GPU_CHECK_JOB_FRAMES frames, 120 by default, at GPU_CHECK_JOB_SIZE, 3840x2160, into raw,
# Y4M 4:2:0, PNG and .mp4 on each backend), bench.json (every built-in effect, draw figures on GLES and the CPU
# compositor at 1920x1080, 3840x2160 and 7680x4320), bench.log, and summary.md.
# Each step has a time limit (30 + 60 + 120 + 90 + 210 s: the whole within 8.5 minutes); a step that fails is
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
scales=${GPU_CHECK_SCALES:-1.5,3,6}
step 30 "$out/info.txt" "$segue" info
# The premise first, in the first minute: two full-screen layers (fade) at 4K drawn by the raster pass and by one
# compute dispatch, and read back (RGBA and 4:2:0), on each path.
step 60 "$out/premise.log" "$bench" --only gles --draw-only --no-peers --chromium none --scales 3 --runs 3 --effects fade \
  --out "$out/premise.json"
cat "$out/premise.log.err" >>"$out/premise.log"
# nvidia-smi at rest, before anything here has touched the GPU (doctor reads it again, at rest and busy).
smi_query=pstate,clocks.sm,clocks.mem,clocks.max.sm,pcie.link.gen.current,pcie.link.gen.max,pcie.link.width.current,utilization.gpu
if command -v nvidia-smi >/dev/null; then
  timeout --kill-after=5 10 nvidia-smi --query-gpu=$smi_query --format=csv >"$out/nvidia-smi.csv" 2>&1
else
  echo "nvidia-smi not present (not on PATH)" >"$out/nvidia-smi.csv"
fi
# (GPU_CHECK_DOCTOR_ARGS adds to doctor's arguments: --quick, for a trial on llvmpipe.)
step 120 "$out/doctor.txt" "$segue" doctor --report "$out/doctor.json" ${GPU_CHECK_DOCTOR_ARGS:-}
# Whole jobs on every backend this build has; the table on standard output, each job's line on stderr as it ends.
step 90 "$out/job.md" "$bench" --job --job-frames "${GPU_CHECK_JOB_FRAMES:-120}" --job-size "${GPU_CHECK_JOB_SIZE:-3840x2160}" \
  --out "$out/job.json"
step 210 "$out/bench.log" "$bench" --scales "$scales" --runs 2 --draw-only --all-cores-only --no-peers --chromium none \
  ${effects:+--effects "$effects"} --out "$out/bench.json"
# The bench writes its figures on standard error as it goes.
cat "$out/bench.log.err" >>"$out/bench.log"

{
  echo "# GPU check, $(date -u +%Y-%m-%dT%H:%MZ)"
  echo
  echo "Machine: $(uname -m), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')."
  command -v nvidia-smi >/dev/null && echo "GPU: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | head -1)."
  echo "Archive: $(basename "$root")."
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
  echo "## segue-bench (exit $(status_of "$out/bench.log"), $(seconds_of "$out/bench.log") s): ms per frame, median"
  echo
  echo "| size | effect | backend/threads | stage | ms/frame |"
  echo "|---|---|---|---|---|"
  sed -n 's/^segue-bench: \([0-9]*x[0-9]*\) \([^ ]*\) \([a-z-]*\/[0-9]*\) \(.*\): \([0-9.]*\) ms\/frame$/| \1 | \2 | \3 | \4 | \5 |/p' "$out/bench.log"
} >"$out/summary.md"
say "wrote $out/summary.md"
# The check's verdict is the doctor's.
exit "$(status_of "$out/doctor.txt")"

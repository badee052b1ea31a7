#!/usr/bin/env bash
# make test-slurm: a real single-node Slurm cluster on localhost renders a storyboard as a 4-task job array
# (each task takes its shard from SLURM_ARRAY_TASK_ID/COUNT) into one directory, and the result must be
# byte-identical to a single-process run. Then a second 4-task array renders the storyboard's .mp4 as 4 chunks
# (--chunk auto --join: the last task to finish joins them); the joined video must have exactly the single
# run's frame count and duration, and every frame a PSNR against the PNG frames at least the single run's
# minus 0.5 dB (the frames on both sides of each chunk boundary are printed).
#
# Usage: scripts/test-slurm.sh [path/to/segue]   (default .build-release/release/segue, what make test builds; needs root or sudo)
# Installs Debian's slurm-wlm and munge if missing; munged runs as the munge user with a generated
# /etc/munge/munge.key (kept if there is one); slurmctld and slurmd run as root with their config, state and
# logs in a temporary directory, on ports 16817/16818, and are stopped at the end.
set -euo pipefail

segue=$(realpath "${1:-.build-release/release/segue}")
[ -x "$segue" ] || { echo "test-slurm: no segue binary at $segue (run 'swift build' first)" >&2; exit 1; }
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"

say() { echo "test-slurm: $*"; }

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
  say "installing slurm-wlm and munge"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
fi

work=$(mktemp -d /tmp/segue-slurm.XXXXXX)
chmod 755 "$work"
pids=()
started_munged=""
cleanup() {
  status=$?
  for pid in "${pids[@]}"; do $sudo kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do while $sudo kill -0 "$pid" 2>/dev/null; do sleep 0.1; done; done
  if [ -n "$started_munged" ] && [ -f /run/munge/munged.pid ]; then $sudo kill "$(cat /run/munge/munged.pid)" 2>/dev/null || true; fi
  if [ $status -ne 0 ]; then
    for log in "$work"/slurmctld.log "$work"/slurmd.log "$work"/task_*.log; do
      [ -f "$log" ] && { echo "--- $log"; tail -20 "$log"; }
    done
  fi
  rm -rf "$work"
  exit $status
}
trap cleanup EXIT

# munge: a key, then munged as the munge user (unless one already answers).
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
  if [ ! -s /etc/munge/munge.key ]; then
    say "generating /etc/munge/munge.key"
    $sudo mkdir -p /etc/munge
    $sudo dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
  fi
  $sudo chown munge:munge /etc/munge/munge.key
  $sudo chmod 400 /etc/munge/munge.key
  $sudo mkdir -p /run/munge /var/lib/munge /var/log/munge
  $sudo chown munge:munge /run/munge /var/lib/munge /var/log/munge
  $sudo runuser -u munge -- /usr/sbin/munged
  started_munged=1
  munge -n | unmunge >/dev/null
  say "munged is running"
fi

host=$(hostname -s)
cpus=$(nproc)
export SLURM_CONF="$work/slurm.conf"
cat >"$SLURM_CONF" <<EOF
ClusterName=segue-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=segue Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
EOF
mkdir -p "$work/state" "$work/spool"

$sudo env SLURM_CONF="$SLURM_CONF" slurmctld -D -i -f "$SLURM_CONF" >"$work/slurmctld.out" 2>&1 &
pids+=($!)
$sudo env SLURM_CONF="$SLURM_CONF" slurmd -D -f "$SLURM_CONF" >"$work/slurmd.out" 2>&1 &
pids+=($!)

for _ in $(seq 1 100); do
  state=$(sinfo -h -N -o %t 2>/dev/null | head -1 || true)
  [ "$state" = idle ] && break
  [ "$state" = down ] || [ "$state" = "down*" ] && scontrol update nodename="$host" state=resume 2>/dev/null || true
  sleep 0.3
done
[ "$state" = idle ] || { say "the node did not come up (state '$state')"; exit 1; }
say "slurmctld and slurmd are up: $(sinfo -h -o '%P %D node(s) %t')"

# The storyboard: the built-in screens, 1.5 s at 30 fps (46 frames) at 120x214 pixels.
cat >"$work/story.json" <<'EOF'
{"fps": 30, "scale": 1, "size": [120, 214],
 "screens": {"home": "sample:home", "detail": "sample:detail"},
 "timeline": [{"hold": "home", "duration": 0.3},
              {"transition": "circle-spread", "from": "home", "to": "detail", "duration": 0.5, "options": {"center": [40, 60]}},
              {"hold": "detail", "duration": 0.2},
              {"transition": "page-flip", "from": "detail", "to": "home", "duration": 0.5, "direction": "back"}],
 "output": {"frames": "frames/"}}
EOF
# Submits the array job SCRIPT and waits for it to leave the queue (120 s at most).
run_array() {
  local job
  job=$(sbatch --parsable "$1")
  say "submitted array job $job ($2)"
  for _ in $(seq 1 600); do
    [ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && return 0
    sleep 0.2
  done
  say "job $job did not finish in 120 s"
  exit 1
}

cat >"$work/render.sbatch" <<EOF
#!/bin/bash
#SBATCH --job-name=segue-story
#SBATCH --array=0-3
#SBATCH --output=$work/task_%a.log
echo "task \$SLURM_ARRAY_TASK_ID of \$SLURM_ARRAY_TASK_COUNT on \$(hostname -s)"
exec "$segue" batch "$work/story.json" --out "$work/sharded" --backend cpu
EOF

run_array "$work/render.sbatch" "4 tasks"
for a in 0 1 2 3; do
  say "task $a: $(head -1 "$work/task_$a.log"), $(grep -c . "$work/task_$a.log") log lines"
done

env -u SLURM_ARRAY_TASK_ID -u SLURM_ARRAY_TASK_COUNT "$segue" batch "$work/story.json" --out "$work/single" --backend cpu --quiet
single=$(ls "$work/single" | wc -l)
sharded=$(ls -A "$work/sharded" | wc -l)
say "single process: $single frames; job array: $sharded files"
[ "$single" -eq 46 ] || { say "expected 46 frames"; exit 1; }
# .segue/ (each directory's lock and manifest: the job array's records its four writers) is not compared.
diff -r -x .segue "$work/single" "$work/sharded" >/dev/null || { say "FAIL: the job array's frames differ from the single run"; diff -rq -x .segue "$work/single" "$work/sharded" | head; exit 1; }
say "PASS: the 4-task job array wrote the same $single frames, byte for byte, as one process"

# 4 chunks of the video, joined by the last task to finish.
cat >"$work/chunks.sbatch" <<EOF
#!/bin/bash
#SBATCH --job-name=segue-chunks
#SBATCH --array=0-3
#SBATCH --output=$work/chunk_%a.log
exec "$segue" batch "$work/story.json" --video "$work/joined.mp4" --chunk auto --join --backend cpu --quiet
EOF
run_array "$work/chunks.sbatch" "4 chunks of an .mp4"
for a in 0 1 2 3; do [ -s "$work/chunk_$a.log" ] && say "chunk task $a: $(tr '\n' ' ' <"$work/chunk_$a.log")"; done
[ -f "$work/joined.mp4" ] || { say "FAIL: no task joined the chunks"; ls -la "$work/joined.mp4.chunks"; exit 1; }
# Joining again is a no-op (the same chunks are already joined).
"$segue" join "$work/joined.mp4" 2>&1 | grep -q "already joined" || { say "FAIL: a second join did not see the first"; exit 1; }
env -u SLURM_ARRAY_TASK_ID -u SLURM_ARRAY_TASK_COUNT "$segue" batch "$work/story.json" --video "$work/single.mp4" --backend cpu --quiet

probe() { ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames,duration_ts,time_base,duration -of compact "$1"; }
say "single run: $(probe "$work/single.mp4")"
say "joined:     $(probe "$work/joined.mp4")"
[ "$(probe "$work/single.mp4")" = "$(probe "$work/joined.mp4")" ] || { say "FAIL: the joined video's frame count or duration differs from the single run's"; exit 1; }
probe "$work/joined.mp4" | grep -q "nb_read_frames=46" || { say "FAIL: the joined video does not have 46 frames"; exit 1; }

# PSNR of every decoded frame against the single run's PNG frames, both videos decoded the same way.
psnr() {
  ffmpeg -v error -i "$1" -framerate 30 -i "$work/single/frame_%05d.png" \
    -lavfi "[0:v]format=rgb24[a];[1:v]format=rgb24[b];[a][b]psnr=stats_file=$2" -f null -
  awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^psnr_avg:/) { v = substr($i, 10); if (v == "inf") v = 99; print v } }' "$2"
}
psnr "$work/single.mp4" "$work/single.psnr" >"$work/single.db"
psnr "$work/joined.mp4" "$work/joined.psnr" >"$work/joined.db"
[ "$(wc -l <"$work/joined.db")" -eq 46 ] || { say "FAIL: PSNR of $(wc -l <"$work/joined.db") frames, not 46"; exit 1; }
# Chunk boundaries of 46 frames in 4: 11, 23, 34 (frames k-1 and k on each side).
paste "$work/single.db" "$work/joined.db" | awk '
  BEGIN { split("10 11 22 23 33 34", edge, " "); for (i in edge) at[edge[i]] = 1; worst = 1e9 }
  { k = NR - 1; margin = $2 - ($1 - 0.5); if (margin < worst) { worst = margin; wk = k }
    if (k in at) printf "test-slurm: frame %d (chunk boundary): single %.2f dB, joined %.2f dB\n", k, $1, $2
    if (margin < 0) { printf "test-slurm: FAIL: frame %d: joined %.2f dB < single %.2f dB - 0.5\n", k, $2, $1; bad = 1 }
    s += $1; j += $2 }
  END { printf "test-slurm: mean PSNR single %.2f dB, joined %.2f dB; smallest margin over (single - 0.5 dB): %.2f dB at frame %d\n", s / NR, j / NR, worst, wk
        exit bad }'
say "PASS: 4 chunks joined into $(probe "$work/joined.mp4" | grep -o 'nb_read_frames=[0-9]*'), the single run's frame count and duration, every frame within 0.5 dB of the single run's PSNR"

#!/usr/bin/env bash
# Runs one libFuzzer target (built by `make fuzz-build`) for SECONDS on its seeds and its kept corpus, one
# job, no input over 64 KiB, 2 GiB RSS limit. Prints libFuzzer's last status line (executions, exec/s) and
# exits non-zero on any finding; the crashing input is left as .build/fuzz/<target>/crash-*.
# Usage: scripts/fuzz.sh FuzzImageDecoder|FuzzStoryboard|FuzzEffectFile SECONDS
set -euo pipefail
cd "$(dirname "$0")/.."
target="$1" seconds="$2"
case "$target" in
    FuzzImageDecoder) seeds=.build/fuzz/seeds/image ;;
    FuzzStoryboard) seeds=.build/fuzz/seeds/storyboard ;;
    FuzzEffectFile) seeds=.build/fuzz/seeds/effect ;;
    *) echo "unknown fuzz target $target" >&2; exit 2 ;;
esac
work=.build/fuzz/$target
mkdir -p "$work/corpus"
log="$work/last-run.log"
echo "fuzzing $target for ${seconds}s (log: $log)"
status=0
ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=Fuzz/lsan-suppressions.txt Fuzz/.build/release/"$target" "$work/corpus" "$seeds" \
    -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
    -artifact_prefix="$work/" >"$log" 2>&1 || status=$?
grep -E '^#[0-9]+[[:space:]]+DONE|^Done [0-9]+ runs|stat::number_of_executed_units|stat::peak_rss_mb' "$log" || true
if [ "$status" -ne 0 ]; then
    echo "$target: finding (exit $status); see $log and $work/crash-*" >&2
    tail -40 "$log" >&2
fi
exit "$status"

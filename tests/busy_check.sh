#!/usr/bin/env bash
# The tests on a busy machine: the default run, then the slow run, each RUNS times in a row
# (5 unless given) while two busy loops keep two cores loaded. Stops at the first failure.
#   bash tests/busy_check.sh            # both, 5 times each
#   bash tests/busy_check.sh 3 default  # the default run only, 3 times (or: slow)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
which=${2:-both}

busy=()
stop_busy() { for pid in "${busy[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap stop_busy EXIT
for _ in 1 2; do
    (while :; do :; done) &
    busy+=("$!")
done

run() {  # label, then pytest's arguments
    local label=$1
    shift
    for i in $(seq "$runs"); do
        start=$SECONDS
        if pytest "$@" >"/tmp/busy-check-$label-$i.log" 2>&1; then
            echo "$label run $i/$runs: passed in $((SECONDS - start)) s ($(tail -n 1 "/tmp/busy-check-$label-$i.log"))"
        else
            echo "$label run $i/$runs: FAILED (/tmp/busy-check-$label-$i.log)"
            tail -n 30 "/tmp/busy-check-$label-$i.log"
            exit 1
        fi
    done
}
if [ "$which" != slow ]; then run default; fi
if [ "$which" != default ]; then run slow -m slow -n 0; fi

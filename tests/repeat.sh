#!/usr/bin/env bash
# Flaky-test hunt: `make test` RUNS times in a row (default 20), as CI runs it. Each run's
# output is kept; at the end, every test that failed at least once is listed with how often,
# and the script fails if any did. The first run builds; the others only test.
#   tests/repeat.sh [RUNS] [OUT_DIR]     e.g. tests/repeat.sh 20 /tmp/repeat
set -uo pipefail
runs=${1:-20}
out=${2:-$(mktemp -d /tmp/quarto-repeat.XXXXXX)}
mkdir -p "$out"
cd "$(dirname "$0")/.."
echo "make test x $runs; logs in $out"
failed_runs=0
for ((i = 1; i <= runs; i++)); do
    started=$(date +%s)
    if make test >"$out/run-$i.log" 2>&1; then
        verdict=ok
    else
        verdict=FAILED
        ((failed_runs++))
        # The browser tests' screenshots of the failure and their servers' logs: the next run
        # overwrites them.
        for suite in build/debug/e2e-artifacts/*/; do
            mkdir -p "$out/run-$i-e2e/$(basename "$suite")"
            cp "$suite"fail-*.png "$suite"server.log "$out/run-$i-e2e/$(basename "$suite")/" 2>/dev/null || true
        done
    fi
    echo "run $i/$runs: $verdict in $(($(date +%s) - started)) s"
done
echo
echo "$failed_runs of $runs runs failed"
# ctest lists a failed test as "  NNN - name (Failed)" (or Timeout, SEGFAULT, ...).
grep -h -E '^[[:space:]]+[0-9]+ - .* \([A-Za-z ]+\)$' "$out"/run-*.log | sed -E 's/^[[:space:]]+[0-9]+ - //' |
    sort | uniq -c | sort -rn
[[ $failed_runs -eq 0 ]]

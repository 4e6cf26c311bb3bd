#!/usr/bin/env bash
# Runs the libFuzzer targets built in BUILD_DIR for SECONDS each, one after the other; exits
# non-zero when any of them finds something. `make fuzz` calls it (README.md).
#   tests/fuzz/run.sh BUILD_DIR SECONDS [TARGET...]    TARGET: parse_client_message, config, ...
# Each target grows its own corpus in BUILD_DIR/corpus/TARGET and reads the seeds of
# tests/fuzz/corpus/TARGET beside it (libFuzzer writes new inputs to its first directory only,
# so the repository's seeds stay as they are). What it finds lands in BUILD_DIR/crashes/, its
# output in BUILD_DIR/logs/TARGET.log.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: run.sh BUILD_DIR SECONDS [TARGET...]}
seconds=${2:?usage: run.sh BUILD_DIR SECONDS [TARGET...]}
shift 2
targets=("$@")
if [ "${#targets[@]}" -eq 0 ]; then
  for bin in "$build"/bin/fuzz_*; do targets+=("$(basename "$bin" | sed 's/^fuzz_//')"); done
fi

# UBSan's report is fatal in this build (-fno-sanitize-recover); print its stack too.
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
mkdir -p "$build/crashes" "$build/logs"
passed=0
failed=0
for name in "${targets[@]}"; do
  bin="$build/bin/fuzz_$name"
  corpus="$build/corpus/$name"
  log="$build/logs/$name.log"
  mkdir -p "$corpus"
  args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
        -artifact_prefix="$build/crashes/$name-")
  [ -f "$here/$name.dict" ] && args+=(-dict="$here/$name.dict")
  if "$bin" "${args[@]}" "$corpus" "$here/corpus/$name" >"$log" 2>&1; then
    passed=$((passed + 1))
    # libFuzzer's last status line: executions, coverage, corpus, executions per second.
    echo "fuzz $name: ok, $(grep -E '^#[0-9]+' "$log" | tail -1)"
  else
    failed=$((failed + 1))
    echo "fuzz $name: FAILED (log: $log)"
    grep -E -A25 'check failed|^==[0-9]+==ERROR|runtime error|deadly signal' "$log" | head -40
    ls "$build/crashes/$name-"* 2>/dev/null
  fi
done
# The plain closing line CI reads.
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/usr/bin/env bash
# The tools' command line (tools/command_line) as quarto-load and quarto-chaos use it: --help
# prints the usage and exits 0; a bad option, a missing value, a number out of bounds or a bad
# --url exits 2 with the tool's name, the reason and the usage, before anything connects.
# Usage: refusals.sh QUARTO_LOAD QUARTO_CHAOS
set -euo pipefail
load_bin=$1
chaos_bin=$2
failures=0

# expect STATUS TEXT COMMAND...: COMMAND exits with STATUS and prints TEXT (stdout or stderr).
expect() {
    local status=$1 text=$2 got out
    shift 2
    out=$("$@" 2>&1) && got=0 || got=$?
    if [[ $got != "$status" || $out != *"$text"* ]]; then
        echo "FAIL: $* exited $got (expected $status) and printed:"
        echo "$out" | head -n 5
        echo "  (expected to find: $text)"
        failures=$((failures + 1))
    fi
}

for tool in quarto-load quarto-chaos; do
    bin=$load_bin
    [[ $tool == quarto-chaos ]] && bin=$chaos_bin
    expect 0 "usage: $tool" "$bin" --help
    expect 0 "usage: $tool" "$bin" -h
    expect 2 "$tool: unknown option --bogus" "$bin" --bogus 1
    expect 2 "usage: $tool" "$bin" --bogus=1
    expect 2 "$tool: --seed needs a value" "$bin" --seed
    expect 2 "$tool: --seed x: expected a number in" "$bin" --seed x
    expect 2 "$tool: --url must start with ws://" "$bin" --url http://127.0.0.1:8080/ws
    expect 2 "$tool: --url needs a port" "$bin" --url ws://127.0.0.1/ws
    expect 2 "$tool: --url: the host must be an IP address" "$bin" --url ws://localhost:8080/ws
    expect 2 "$tool: --url port 70000: expected a number in" "$bin" --url ws://127.0.0.1:70000/ws
done
expect 2 "quarto-load: --rooms 0: expected a number in 1.000000..1000000.000000" "$load_bin" --rooms 0
expect 2 "quarto-load: unknown option --idle" "$load_bin" --idle=1
expect 2 "quarto-load: --think-jitter-ms 20 is more than --think-ms 10" "$load_bin" --think-ms 10 --think-jitter-ms 20
expect 2 "quarto-load: --source-addresses: bad range 127.0.0.9-127.0.0.1" "$load_bin" --source-addresses 127.0.0.9-127.0.0.1
expect 2 "quarto-chaos: --warmup must end at least 5 s before --duration" "$chaos_bin" --duration 30 --warmup 60

if ((failures)); then
    echo "$failures refusal(s) not as expected"
    exit 1
fi
echo "every refusal as expected"

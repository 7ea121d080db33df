#!/bin/sh
# Builds imu-fuzz with libFuzzer (-sanitize=fuzzer) and runs each fuzz target for SECONDS
# (docs/testing-fuzz.md). A crash, hang or failed check is written to
# Tests/Fuzz/regressions/TARGET/ (which makes it a regression test: ToolsTests/FuzzRegressionTests)
# and this script exits 1. Usage: Tests/Fuzz/run.sh SECONDS [TARGET...]
set -eu
seconds=${1:?usage: Tests/Fuzz/run.sh SECONDS [TARGET...]}
shift
targets=${*:-recording calibration profile}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
swift=${SWIFT:-swift}
# lld and --allow-multiple-definition: SwiftPM gives every executable its own main, and
# -sanitize=fuzzer links libFuzzer's; imu-fuzz's main hands over to libFuzzer either way.
$swift build --product imu-fuzz --build-path .build/fuzz \
    -Xswiftc -sanitize=fuzzer -Xswiftc -DFUZZING -Xswiftc -use-ld=lld -Xlinker --allow-multiple-definition
bin=$($swift build --product imu-fuzz --build-path .build/fuzz --show-bin-path \
    -Xswiftc -sanitize=fuzzer -Xswiftc -DFUZZING -Xswiftc -use-ld=lld -Xlinker --allow-multiple-definition)/imu-fuzz
status=0
for target in $targets; do
    corpus=.build/fuzz/corpus/$target
    kept=Tests/Fuzz/regressions/$target
    mkdir -p "$corpus" "$kept"
    cp Tests/Fuzz/corpus/$target/* "$corpus"/
    echo "== fuzz $target for $seconds s (corpus $corpus)"
    before=$(ls "$kept" | wc -l)
    # libFuzzer's own crash report replaces Swift's backtracer (which would wait on a crash).
    if ! SWIFT_BACKTRACE=enable=no IMU_FUZZ_TARGET=$target "$bin" -max_total_time="$seconds" -max_len=16384 \
            -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$kept/" "$corpus" \
            > ".build/fuzz/$target.log" 2>&1; then
        status=1
    fi
    grep -E '^(Done|stat::number_of_executed_units|SUMMARY)' ".build/fuzz/$target.log" || true
    after=$(ls "$kept" | wc -l)
    if [ "$after" -gt "$before" ]; then
        echo "fuzz $target: new input(s) kept in $kept (now regression tests); the report is in .build/fuzz/$target.log"
        status=1
    fi
done
exit $status

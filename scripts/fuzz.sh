#!/bin/sh
# fuzz.sh - build the libFuzzer targets (tests/fuzz) with clang, seed them, run each for a while.
set -eu

usage() {
  cat <<'TEXT'
Usage: scripts/fuzz.sh [--seconds N] [--jobs N] [--build DIR] [TARGET...]

Builds the libFuzzer targets with clang 16 (Debian 12: apt-get install
clang-16 libclang-rt-16-dev; FUZZ_CXX names another), AddressSanitizer and UBSan in DIR
(default build-fuzz), seeds each corpus from the project's own files, and
runs each TARGET for N seconds (default 600), N jobs at a time (default 1).
Targets: ptx_parser_fuzzer encoder_fuzzer cuda_source_fuzzer launch_file_fuzzer model_folder_fuzzer dataset_fuzzer
(the last needs ../shared). Without TARGET: all of them.

Corpora grow in DIR/corpus/TARGET and are reused by later runs; a crash or
a hang is written to DIR/crashes/TARGET/ and the script exits 1, naming it.
Replay one with: DIR/TARGET DIR/crashes/TARGET/crash-...
Every crash fixed becomes a regression test (tests/ptx_parser/RobustnessTest.cpp
or beside the code it broke).
TEXT
}

seconds=600
jobs=1
build=build-fuzz
targets=""
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    *) targets="$targets $1"; shift ;;
  esac
done
[ -n "$targets" ] || targets="ptx_parser_fuzzer encoder_fuzzer cuda_source_fuzzer launch_file_fuzzer model_folder_fuzzer dataset_fuzzer"
root=$(cd "$(dirname "$0")/.." && pwd)
shared="$root/../shared/datasets/gpuptxmodel-gtxtitanx"

# clang 14 (Debian 12's default) rejects the ANTLR 4.9 runtime headers; clang 16 reads them.
compiler=${FUZZ_CXX:-$(command -v clang++-16 || command -v clang++ || true)}
[ -n "$compiler" ] || { echo "fuzz.sh: needs clang 16 (apt-get install clang-16 libclang-rt-16-dev) or FUZZ_CXX" >&2; exit 2; }
mkdir -p "$build"
cmake -S "$root" -B "$build" -DCMAKE_CXX_COMPILER="$compiler" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DPTXDVFS_FUZZ=ON -DPTXDVFS_BUILD_TESTS=OFF -DPTXDVFS_BUILD_BENCH=OFF > "$build/configure.log" 2>&1 ||
  { cat "$build/configure.log" >&2; exit 1; }
# shellcheck disable=SC2086
cmake --build "$build" -j "$(nproc)" --target $targets

seed() { # seed TARGET: the starting corpus, from files of this project
  corpus="$build/corpus/$1"
  mkdir -p "$corpus"
  case "$1" in
    ptx_parser_fuzzer|encoder_fuzzer)
      find "$root/tests/fixtures" "$root/examples" -name '*.ptx' -size -16k -exec cp {} "$corpus/" \; ;;
    cuda_source_fuzzer)
      find "$root/tests/fixtures" "$root/examples" -name '*.cu' -size -16k -exec cp {} "$corpus/" \; ;;
    launch_file_fuzzer)
      find "$root/tests" -name '*launch.json' -exec cp {} "$corpus/" \; ;;
    model_folder_fuzzer)
      python3 - "$root/trained_weights/gtxtitanx" "$corpus" <<'PY'
import json, sys
model, corpus = sys.argv[1], sys.argv[2]
manifest = json.load(open(model + "/manifest.json")); manifest["metrics"] = {}
baselines = json.load(open(model + "/baselines.json")); baselines["applications"] = baselines["applications"][:3]
for selector, text in enumerate([json.dumps(manifest), open(model + "/config.json").read(),
                                 open(model + "/gpu.json").read(), json.dumps(baselines)]):
    open(f"{corpus}/seed-{selector}", "wb").write(bytes([selector]) + text.encode())
PY
      ;;
    dataset_fuzzer)
      python3 - "$shared/microbenchmarks" "$corpus" <<'PY'
import sys
data, corpus = sys.argv[1], sys.argv[2]
lines = open(data + "/aggregated_dataset_gtxtitanx.csv").read().splitlines()
blocks, current = {}, None
for line in lines:
    if "," not in line:
        current = line; blocks[current] = []
    elif current:
        blocks[current].append(line)
csv = "\n".join(["A"] + blocks["DP"] + ["B"] + blocks["DRAM"]) + "\n"
seq = lambda b: "\n".join(open(f"{data}/{b}/outputSequence_kernel_depend_0.csv").read().splitlines()[:200]) + "\n"
open(corpus + "/seed-0", "w").write(csv + "#--\n" + seq("DP") + "#--\n" + seq("DRAM"))
PY
      ;;
  esac
}

failed=""
run() { # run TARGET
  mkdir -p "$build/crashes/$1"
  echo "== $1: ${seconds}s" >&2
  if ! "$build/$1" "$build/corpus/$1" -max_total_time="$seconds" -max_len=65536 -timeout=10 \
       -rss_limit_mb=2048 -artifact_prefix="$build/crashes/$1/" -print_final_stats=1 \
       > "$build/$1.log" 2>&1; then
    failed="$failed $1"
    tail -40 "$build/$1.log" >&2
  fi
  grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+.*DONE)" "$build/$1.log" >&2 || true
}

running=0
for target in $targets; do
  [ -x "$build/$target" ] || { echo "fuzz.sh: $target was not built (dataset_fuzzer needs ../shared)" >&2; continue; }
  seed "$target"
  if [ "$jobs" -gt 1 ]; then
    run "$target" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then wait; running=0; fi
  else
    run "$target"
  fi
done
wait
# Background runs cannot update $failed: read the crash folders instead.
crashes=$(find "$build/crashes" -type f 2>/dev/null | head -20)
if [ -n "$crashes$failed" ]; then
  echo "fuzz.sh: crashes or failures:$failed" >&2
  echo "$crashes" >&2
  exit 1
fi
echo "fuzz.sh: no crash in $targets (${seconds}s each)" >&2

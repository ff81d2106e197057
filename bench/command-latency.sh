#!/usr/bin/env bash
# command-latency.sh - wall time of whole ptxdvfs commands, each in a new process (as an
# editor or a build step runs them): the start-up, model loading and prediction together.
#
# Usage: bench/command-latency.sh [BUILD_DIR] [RUNS]   (defaults: build, 10)
# Prints, per command, the fastest and the median of RUNS runs. Goals: parse well under
# 0.1 s; lint on a typical module under 0.5 s (issue 13). LibTorch's start-up alone is
# over that, so the default predictor must keep running without it (PredictorSource.h).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
runs=${2:-10}
module=tests/fixtures/ptx/numeric.nvcc13.0.sm80.lineinfo.ptx # two kernels with loops, -lineinfo

measure() {
  local label=$1
  shift
  local times=()
  for ((i = 0; i < runs; i++)); do
    local start=$EPOCHREALTIME
    "$@" >/dev/null 2>&1 || true
    times+=("$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.6f", b - a }')")
  done
  printf '%s\n' "${times[@]}" | sort -n | awk -v label="$label" '
    { t[NR] = $1 } END { printf "%-40s fastest %.3f s   median %.3f s\n", label, t[1], t[int((NR + 1) / 2)] }'
}

measure "parse (no LibTorch)" "$build/ptxdvfs" parse "$module"
measure "lint, default predictor" "$build/ptxdvfs" lint "$module"
measure "lint, --predictor lstm" "$build/ptxdvfs" lint --predictor lstm "$module"
measure "recommend examples/saxpy.ptx" "$build/ptxdvfs" recommend examples/saxpy.ptx
measure "ptxdvfs-model parse (LibTorch start-up)" "$build/ptxdvfs-model" parse "$module"

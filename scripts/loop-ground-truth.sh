#!/usr/bin/env bash
# loop-ground-truth.sh - check the loop analysis against the microbenchmarks' own unrolled PTX.
#
# Usage: scripts/loop-ground-truth.sh [--shared DIR] [--work DIR] [--jobs N] [--json]
#
# The GTX Titan X microbenchmarks were unrolled in their source (#pragma
# unroll N, repeated statements), so the PTX in
# ../shared/datasets/gpuptxmodel-gtxtitanx/ptx/<name>/<name>.ptx is the
# executed sequence. This script compiles a copy of every source with each
# `#pragma unroll` turned into `#pragma unroll 1` and without the cicc flags
# that force full unrolling, so nvcc emits real loops; then
# build/bench/loop_ground_truth compares the executed sequence that
# `--as-executed` reads from the looped PTX with the unrolled PTX as written:
# instruction-count ratio and cosine of the readable-instruction histograms,
# per benchmark, and the goal (within 5% and cosine >= 0.98 wherever every
# loop bound is a constant). Needs nvcc; exits 0 when the goal holds, 1 when
# it does not, 2 when it cannot run. The sources are never copied into the
# project: the copies live in --work (default: a temporary folder).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
shared="$repo/../shared"
work=""
jobs=$(nproc)
extra=()
while (($#)); do
  case "$1" in
    --shared) shared=$2; shift ;;
    --work) work=$2; shift ;;
    --jobs) jobs=$2; shift ;;
    --json) extra+=(--json) ;;
    -h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "loop-ground-truth: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
ptx_root="$shared/datasets/gpuptxmodel-gtxtitanx/ptx"
[ -f "$ptx_root/MAPPING.tsv" ] || { echo "loop-ground-truth: no $ptx_root/MAPPING.tsv" >&2; exit 2; }
command -v nvcc >/dev/null || { echo "loop-ground-truth: nvcc is not on PATH" >&2; exit 2; }
[ -x "$repo/build/bench/loop_ground_truth" ] ||
  { echo "loop-ground-truth: build it first: cmake --build build --target loop_ground_truth" >&2; exit 2; }
if [ -z "$work" ]; then
  work=$(mktemp -d /tmp/loop-ground-truth.XXXXXX)
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"

compile_one() {
  local name=$1 flags=$2 folder="$ptx_root/$1" out="$work/$1"
  local source
  source=$(ls "$folder"/*.cu 2>/dev/null | head -1) || true
  [ -n "$source" ] || return 0
  mkdir -p "$out"
  cp "$folder"/*.cu "$folder"/*.h "$out"/ 2>/dev/null || cp "$folder"/*.cu "$out"/
  local copy="$out/$(basename "$source")"
  # Every unroll pragma (with or without a count) keeps its loop rolled.
  sed -i -E 's/^([[:space:]]*)#pragma[[:space:]]+unroll([[:space:]].*)?$/\1#pragma unroll 1/' "$copy"
  # Drop the cicc options that force full unrolling.
  flags=$(echo "$flags" | sed -E 's/-Xcicc --Xopt -Xcicc -(pragma-unroll-threshold=[0-9]+|unroll-remainder)//g')
  # shellcheck disable=SC2086
  (cd "$out" && nvcc $flags "$(basename "$copy")" -o "$name.looped.ptx") >"$out/nvcc.log" 2>&1 ||
    echo "loop-ground-truth: $name: nvcc failed, see $out/nvcc.log" >&2
}
export -f compile_one
export ptx_root work

tail -n +2 "$ptx_root/MAPPING.tsv" | awk -F'\t' '$7 == "measured" {print $1 "\t" $3}' |
  xargs -P "$jobs" -d '\n' -I{} bash -c 'IFS=$'"'"'\t'"'"' read -r n f <<< "{}"; compile_one "$n" "$f"'

exec "$repo/build/bench/loop_ground_truth" "${extra[@]}" \
  --vocabulary "$repo/trained_weights/gtxtitanx/vocabulary" "$ptx_root" "$work"

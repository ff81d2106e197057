#!/usr/bin/env bash
# host-reading-speed.sh - how long `ptxdvfs loops` takes to read a host program that parses many
# options before it launches: the programs robustness.md times, written out here so the numbers
# can be reproduced. Each program sets 50 sizes from its command line (a getopt loop, a switch on
# the option's letter, an else-if chain of strcmp), then launches the kernel of host_reading/
# 500 times with them. Each is read bare (the declared 1024s) and with all 50 options given
# (2048, 4096, ... 102400: the launches' mean is 52224 threads). A fourth (stop 68) asks a helper
# for each option, `s7 = intOption(argc, argv, "--s7", s7);`, which returns from inside its own
# option loop: 50 calls, each read for its own flag.
#
# Usage: bench/host-reading-speed.sh [BUILD_DIR] [RUNS]   (defaults: build, 5)
# Prints, per program and command line, the fastest and the median of RUNS runs, the peak
# memory, and the first line `loops` prints (the threads and launches it read).
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(realpath "${1:-build}")
runs=${2:-5}
options=50
launches=500
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

letters=(a b c d e f g h i j k l m n o p q r s t u v w x y z A B C D E F G H I J K L M N O P Q R S T U V W X)

# The part every program shares: the kernel (its PTX is host_reading/host_options.ptx), the sizes
# declared, and after the option reading, the launches.
write_program() { # $1: folder, $2: functions before main (optional), then the option reading on standard input
  mkdir -p "$1"
  cp bench/host_reading/host_options.ptx "$1/"
  {
    cat bench/host_reading/host_options.cu
    printf '#include <cstdlib>\n#include <cstring>\n#include <unistd.h>\n\n%s\nint main(int argc, char **argv) {\n' "${2:-}"
    for ((k = 0; k < options; k++)); do printf '  int s%d = 1024;\n' "$k"; done
    cat
    printf '  float *x, *y;\n  cudaMalloc(&x, 1 << 30);\n  cudaMalloc(&y, 1 << 30);\n'
    for ((l = 0; l < launches; l++)); do
      k=$((l % options))
      printf '  saxpy<<<s%d / 256, 256>>>(2.0f, x, y, s%d);\n' "$k" "$k"
    done
    printf '  return 0;\n}\n'
  } >"$1/host_options.cu"
}

{
  printf '  int c;\n  while ((c = getopt(argc, argv, "'
  for ((k = 0; k < options; k++)); do printf '%s:' "${letters[k]}"; done
  printf '")) != -1) {\n    switch (c) {\n'
  for ((k = 0; k < options; k++)); do printf "    case '%s': s%d = atoi(optarg); break;\n" "${letters[k]}" "$k"; done
  printf '    default: return 1;\n    }\n  }\n'
} | write_program "$work/getopt"

{
  printf '  for (int i = 1; i < argc; i++) {\n    if (argv[i][0] != '"'"'-'"'"')\n      return 1;\n'
  printf '    char flag = argv[i][1];\n    switch (flag) {\n'
  for ((k = 0; k < options; k++)); do printf "    case '%s': s%d = atoi(argv[++i]); break;\n" "${letters[k]}" "$k"; done
  printf '    default: return 1;\n    }\n  }\n'
} | write_program "$work/letters"

{
  printf '  for (int i = 1; i < argc; i++) {\n    '
  for ((k = 0; k < options; k++)); do
    printf 'if (strcmp(argv[i], "--s%d") == 0)\n      s%d = atoi(argv[++i]);\n    else ' "$k" "$k"
  done
  printf '\n      return 1;\n  }\n'
} | write_program "$work/strcmp"

{
  for ((k = 0; k < options; k++)); do printf '  s%d = intOption(argc, argv, "--s%d", s%d);\n' "$k" "$k" "$k"; done
} | write_program "$work/lookup" 'static int intOption(int argc, char **argv, const char *name, int fallback) {
  for (int i = 1; i + 1 < argc; i++)
    if (strcmp(argv[i], name) == 0)
      return atoi(argv[i + 1]);
  return fallback;
}'

short_args="" long_args=""
for ((k = 0; k < options; k++)); do
  short_args+="-${letters[k]} $(((k + 1) * 2048)) "
  long_args+="--s$k $(((k + 1) * 2048)) "
done

measure() { # $1: label, then the command
  local label=$1
  shift
  local times=() first peak
  for ((i = 0; i < runs; i++)); do
    local start=$EPOCHREALTIME
    /usr/bin/time -f '%M' -o "$work/peak" "$@" >"$work/out" 2>/dev/null
    times+=("$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.6f", b - a }')")
  done
  first=$(head -n 1 "$work/out")
  peak=$(awk '{ printf "%.0f", $1 / 1024 }' "$work/peak")
  printf '%s\n' "${times[@]}" | sort -n | awk -v label="$label" -v peak="$peak" -v first="$first" '
    { t[NR] = $1 } END { printf "%-32s fastest %.3f s   median %.3f s   %s MB\n    %s\n", label, t[1], t[int((NR + 1) / 2)], peak, first }'
}

for program in getopt letters strcmp lookup; do
  ptx=$work/$program/host_options.ptx
  args=$short_args
  [[ $program == strcmp || $program == lookup ]] && args=$long_args
  measure "$program, bare" "$build/ptxdvfs" loops "$ptx"
  measure "$program, all $options options" "$build/ptxdvfs" loops "$ptx" "--program-args=$args"
done

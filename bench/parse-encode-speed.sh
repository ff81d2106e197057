#!/bin/sh
# parse-encode-speed.sh - throughput of `ptxdvfs parse` and `encode -o` on a large module, the
# numbers issue 15 sets its goal in (parse + encode at least 45 MB/s on the 2-core machine).
set -eu

usage() {
  cat <<'TEXT'
Usage: bench/parse-encode-speed.sh [PTXDVFS] [MEGABYTES]

Concatenates the committed nvcc/clang fixtures (tests/fixtures/ptx) until the
module holds at least MEGABYTES MB (default 12), then times, RUNS times each
(default 3, PTXDVFS_SPEED_RUNS), the run with the median wall time shown:
  parse -j 1, parse -j 2                 parse and check the module
  encode -j 1, -j 2 > /dev/null          parse + encode (gpuptxmodel-v1), table on stdout
  encode -j 2 -o DIR                     the same written as one file per kernel
  encode -j 2 -o tmpfs                   the same into /dev/shm: without the disk
and prints wall time, user and system CPU, peak memory and MB/s for each.
The last line says how much of `encode -o` was creating files, from a
plain shell loop creating as many.
PTXDVFS defaults to build/ptxdvfs. Run it on an idle machine: the 2-core
development VM varies by 20% between runs, and file creation there by 5x.
TEXT
}
case "${1:-}" in -h|--help) usage; exit 0 ;; esac
program=${1:-build/ptxdvfs}
megabytes=${2:-12}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/ptxdvfs-speed-XXXXXX")
trap 'rm -rf "$work"' EXIT

module="$work/module.ptx"
: > "$module"
while [ "$(wc -c < "$module")" -lt $((megabytes * 1000000)) ]; do
  for fixture in "$root"/tests/fixtures/ptx/*.ptx; do cat "$fixture"; echo; done >> "$module"
done
bytes=$(wc -c < "$module")
echo "module: $bytes bytes of concatenated fixtures"

runs=${PTXDVFS_SPEED_RUNS:-3}
echo "transparent huge pages: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo unknown)"

measure() { # measure LABEL COMMAND... ; "@OUT@" in COMMAND becomes a new folder each run
  label=$1; shift
  : > "$work/times"
  run=0
  while [ "$run" -lt "$runs" ]; do
    # A new folder each run: ext4 creates files slowly right after many were deleted.
    output="$work/encoded-$run"
    for argument in "$@"; do
      [ "$argument" = "@OUT@" ] && argument=$output
      [ "$argument" = "@SHM@" ] && argument=$shm/encoded-$run
      printf '%s\n' "$argument"
    done > "$work/command"
    # shellcheck disable=SC2046
    (IFS='
'; /usr/bin/time -f "%e %U %S %M" -o "$work/time" $(cat "$work/command")) \
      > /dev/null 2> "$work/stderr" || { echo "$label failed:"; cat "$work/stderr"; exit 1; }
    cat "$work/time" >> "$work/times"
    run=$((run + 1))
  done
  sort -n "$work/times" | sed -n "$(( (runs + 1) / 2 ))p" > "$work/median"
  read -r wall user system rss < "$work/median"
  awk -v l="$label" -v w="$wall" -v u="$user" -v s="$system" -v r="$rss" -v b="$bytes" \
    'BEGIN { printf "%-24s %6.2f s wall  %6.2f s user  %5.2f s sys  %5d MB peak  %6.1f MB/s\n",
             l, w, u, s, r / 1024, (w > 0 ? b / 1e6 / w : 0) }'
}

measure "parse -j 1" "$program" parse -j 1 "$module"
measure "parse -j 2" "$program" parse -j 2 "$module"
measure "encode -j 1 > /dev/null" "$program" encode -j 1 "$module"
measure "encode -j 2 > /dev/null" "$program" encode -j 2 "$module"
measure "encode -j 2 -o DIR" "$program" encode -j 2 -o @OUT@ "$module"
if [ -d /dev/shm ] && [ -w /dev/shm ]; then # the same without the disk's file system
  shm=$(mktemp -d /dev/shm/ptxdvfs-speed-XXXXXX)
  measure "encode -j 2 -o tmpfs" "$program" encode -j 2 -o @SHM@ "$module"
  rm -rf "$shm"
fi

# What creating that many files costs on this file system, without ptxdvfs.
files=$(ls "$work/encoded-0" | wc -l)
mkdir -p "$work/plain"
start=$(date +%s.%N)
i=0
while [ "$i" -lt "$files" ]; do echo x > "$work/plain/f$i"; i=$((i + 1)); done
end=$(date +%s.%N)
awk -v n="$files" -v s="$start" -v e="$end" \
  'BEGIN { printf "creating %d files with a shell loop: %.2f s\n", n, e - s }'

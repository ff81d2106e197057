#!/bin/sh
# parse-encode-speed.sh - throughput of `ptxdvfs parse` and `encode -o` on a large module, the
# numbers issue 15 sets its goal in (parse + encode at least 45 MB/s on the 2-core machine).
set -eu

usage() {
  cat <<'TEXT'
Usage: bench/parse-encode-speed.sh [PTXDVFS] [MEGABYTES]

Concatenates the committed nvcc/clang fixtures (tests/fixtures/ptx) until the
module holds at least MEGABYTES MB (default 12), then times, each once:
  parse -j 1, parse -j 2, and encode -o DIR (gpuptxmodel-v1 as written)
and prints wall time, user and system CPU, peak memory and MB/s for each.
PTXDVFS defaults to build/ptxdvfs. Run it on an idle machine.
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

measure() { # measure LABEL COMMAND...
  label=$1; shift
  /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$@" > /dev/null 2> "$work/stderr" ||
    { echo "$label failed:"; cat "$work/stderr"; exit 1; }
  read -r wall user system rss < "$work/time"
  awk -v l="$label" -v w="$wall" -v u="$user" -v s="$system" -v r="$rss" -v b="$bytes" \
    'BEGIN { printf "%-22s %6.2f s wall  %6.2f s user  %5.2f s sys  %5d MB peak  %6.1f MB/s\n",
             l, w, u, s, r / 1024, (w > 0 ? b / 1e6 / w : 0) }'
}

measure "parse -j 1" "$program" parse -j 1 "$module"
measure "parse -j 2" "$program" parse -j 2 "$module"
measure "encode -o DIR" "$program" encode -o "$work/encoded" "$module"

#!/usr/bin/env bash
# check-fresh-machine.sh - run the README's quick-start commands on a bare Debian 12, as a new user would.
#
# Usage: scripts/check-fresh-machine.sh [--keep] [--mirror URL] [--shared DIR]
#
# CI reuses the machine it runs on, so a package that the build needs but
# bootstrap.sh forgets to install stays invisible there. This script makes a
# minimal Debian 12 root (debootstrap --variant=minbase) in a temporary
# folder, clones this checkout's HEAD into it with ../shared beside the
# clone, and runs each quick-start command of README.md, exactly as written
# there, in its own fresh copy of that root. It prints each command's exit
# status and exits non-zero if any failed. Run it as root; it needs the
# network to reach the Debian mirror. Uncommitted changes are not tested.
#
#   --keep         leave the roots in place (their path is printed) for a look
#   --mirror URL   Debian mirror (default: http://deb.debian.org/debian)
#   --shared DIR   the shared data folder (default: ../shared beside the checkout)
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
mirror=http://deb.debian.org/debian
shared="$repo/../shared"
keep=0
while (($#)); do
  case "$1" in
    --keep) keep=1 ;;
    --mirror) mirror=$2; shift ;;
    --shared) shared=$2; shift ;;
    -h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "check-fresh-machine: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done

if [ "$(id -u)" -ne 0 ]; then
  echo "check-fresh-machine: run as root (debootstrap and chroot need it)" >&2
  exit 2
fi
if [ ! -d "$shared" ]; then
  echo "check-fresh-machine: no shared data folder at $shared (use --shared DIR)" >&2
  exit 2
fi
if ! command -v debootstrap >/dev/null; then
  echo "check-fresh-machine: installing debootstrap"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends debootstrap >/dev/null
fi
if [ -n "$(git -C "$repo" status --porcelain --untracked-files=no)" ]; then
  echo "check-fresh-machine: warning: uncommitted changes are not tested (HEAD is cloned)" >&2
fi

# The indented lines of the README's quick-start section are the commands.
mapfile -t commands < <(awk '/^## /{in_section = /^## Quick start/} in_section && /^    [^ ]/{sub(/^    /, ""); print}' "$repo/README.md")
if ((${#commands[@]} == 0)); then
  echo "check-fresh-machine: found no indented command under '## Quick start' in README.md" >&2
  exit 2
fi

work=$(mktemp -d /tmp/fresh-debian.XXXXXX)
mounts=()
cleanup() {
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -l "${mounts[i]}" 2>/dev/null || true; done
  if ((keep)); then echo "check-fresh-machine: roots kept in $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

echo "check-fresh-machine: debootstrap bookworm (minbase) from $mirror"
debootstrap --variant=minbase bookworm "$work/base" "$mirror" >"$work/debootstrap.log" 2>&1 ||
  { echo "check-fresh-machine: debootstrap failed; see $work/debootstrap.log" >&2; keep=1; exit 1; }

status=0
for index in "${!commands[@]}"; do
  command=${commands[index]}
  root="$work/root$index"
  cp -a "$work/base" "$root"
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  mkdir -p "$root/work/shared"
  git clone -q "$repo" "$root/work/ptxdvfs"
  mount --bind "$shared" "$root/work/shared" && mounts+=("$root/work/shared")
  mount -o remount,bind,ro "$root/work/shared" 2>/dev/null || true
  mount -t proc proc "$root/proc" && mounts+=("$root/proc")
  log="$work/command$index.log"
  echo "check-fresh-machine: [$((index + 1))/${#commands[@]}] $command"
  started=$SECONDS
  set +e
  chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    LANG=C.UTF-8 /bin/bash -c "cd /work/ptxdvfs && $command" >"$log" 2>&1
  rc=$?
  set -e
  echo "check-fresh-machine: exit status $rc after $((SECONDS - started)) s; last lines of $log:"
  tail -n 5 "$log" | sed 's/^/    /'
  ((rc == 0)) || { status=1; keep=1; }
  # Unmount before the next root is copied, and before removal.
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -l "${mounts[i]}" 2>/dev/null || true; done
  mounts=()
done
exit $status

#!/usr/bin/env bash
# bootstrap.sh - install what ptxdvfs needs on Debian 12 (as root), then configure and build.
#
# Usage: scripts/bootstrap.sh [BUILD_DIR]   (default: build)
# Installs only the packages that are missing, so a second run needs no network.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${1:-build}

packages=(
  build-essential cmake
  antlr4 libantlr4-runtime-dev uuid-dev default-jre-headless
  libcli11-dev libspdlog-dev libfmt-dev nlohmann-json3-dev
  libtorch-dev libopenblas0-pthread
  libcairo2-dev pkg-config fonts-dejavu-core
  libssl-dev
  libgtest-dev libbenchmark-dev
)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$package")
done
if ((${#missing[@]})); then
  echo "bootstrap: installing ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    echo "bootstrap: run as root (or install: apt-get install ${missing[*]})" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release
cmake --build "$build_dir" -j "$(nproc)"

# The SARIF schema validator the tests use (cli.lint_sarif_validates), where npm
# is present; without it that test is skipped. Not needed to build or run ptxdvfs.
validator="$build_dir/sarif-validator"
if command -v npm >/dev/null && [ ! -x "$validator/node_modules/.bin/sarif-multitool" ]; then
  if npm install --prefix "$validator" --no-audit --no-fund --loglevel=error @microsoft/sarif-multitool@5.7.0; then
    # npm may hold back the package's own postinstall, which only marks this executable.
    chmod u+x "$validator"/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool 2>/dev/null || true
  else
    echo "bootstrap: could not install the SARIF validator (npm); its test will be skipped" >&2
  fi
fi

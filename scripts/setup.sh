#!/usr/bin/env bash
# Installs what Feerie needs from Debian packages (only what is missing), then configures
# and builds it in Release mode into ./build. Safe to run again: it does only what is
# left to do. Usage: scripts/setup.sh
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(g++ cmake make pkg-config git python3
          libgtest-dev libgmock-dev libzstd-dev libboost-serialization-dev
          libcli11-dev nlohmann-json3-dev libfmt-dev libxxhash-dev
          libcpp-httplib-dev                                  # feerie serve
          chromium                                            # its browser test (tests/tools/serve_test.cpp)
          libtsan2                                            # the ThreadSanitizer test (tests/tsan)
          clang-14 libclang-rt-14-dev libomp-14-dev llvm-14   # the fuzz targets (tests/fuzz/fuzz.sh)
          clang-format-14                                     # the format check (tests/format/check.sh)
          pybind11-dev python3-dev python3-pytest             # the Python module (python/)
          openmpi-bin libopenmpi-dev)                         # feerie gen --mpi (mpi/, docs/scale.md)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"

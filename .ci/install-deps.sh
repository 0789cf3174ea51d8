#!/usr/bin/env bash
# Installs the Debian 12 packages lanelab builds and runs with, only those missing.
set -euo pipefail
packages=(
  build-essential cmake ninja-build pkg-config
  libvulkan-dev glslang-dev glslang-tools spirv-tools spirv-headers
  libboost-program-options-dev libeigen3-dev libgtest-dev libbenchmark-dev
  graphviz gnuplot-nox nlohmann-json3-dev mesa-vulkan-drivers chromium
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "lanelab: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

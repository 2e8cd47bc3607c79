#!/usr/bin/env bash
# Installs what the tests need on a fresh Debian 12 machine: Verilator and zlib (RTL tests,
# FST traces, `--engine sim`), Yosys (resource estimates), clang (acceptance cross-check), POCL and the
# OpenCL ICD loader (the outside judge of the interpreter), oclgrind (benchmarks), iverilog.
set -euo pipefail
pkgs=(verilator zlib1g-dev yosys iverilog clang pocl-opencl-icd ocl-icd-opencl-dev clinfo oclgrind)
missing=()
for p in "${pkgs[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps: all present (${pkgs[*]})"
    exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
echo "install-deps: done"

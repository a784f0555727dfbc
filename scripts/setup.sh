#!/usr/bin/env bash
# Installs every Debian package clcpu needs to build, test and run, and
# nothing when they are all there already. Must run as root (apt-get).
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config
  llvm-19-dev libclang-19-dev libclang-cpp19-dev clang-19 llvm-19-tools
  opencl-headers ocl-icd-opencl-dev ocl-icd-libopencl1 clinfo
  libtbb-dev libhwloc-dev libboost-context-dev libboost-dev libsleef-dev
  catch2 python3 python3-matplotlib
  llvm-spirv-15  # reads SPIR-V modules (IL programs) into LLVM bitcode
  spirv-tools    # spirv-as, spirv-val: the tests' SPIR-V modules
  spirv-headers  # compiler/SpirvLegalize.cpp: opcodes, HasResultAndType
  clang-15       # bench/: the *_spirv rows' SPIR-V (LLVM 15 bitcode)
  file  # cpack -G DEB finds the ELF files it computes Depends from
  gdb   # tests/CMakeLists.txt: gdb_kernel_session (docs/DEBUGGING.md)
  libclblast-dev   # bench/real_bench.cpp: CLBlast's SGEMM, SGEMV, SAXPY rows
  libclfft-dev     # bench/real_bench.cpp: clFFT's transform rows
  libopenblas-dev  # bench/real_bench.cpp: the host reference of the CLBlast rows
  libfftw3-dev     # bench/real_bench.cpp: the host reference of the clFFT rows
  python3-pyopencl # bench/real_pyopencl.py: GenericScanKernel and RadixSort rows
  hashcat          # bench/real_bench.cpp: hashcat's benchmark mode rows
  clblast-utils    # README.md: clblast_tuner_* (Tuning CLBlast for clcpu)
  clblast-tests    # docs/CONFORMANCE.md: clblast_test_* against clcpu
  clfft-client     # docs/CONFORMANCE.md: clFFT-client's checks
  python3-gpyfft   # docs/CONFORMANCE.md: gpyfft's tests (clFFT from Python)
  python3-pytest   # docs/CONFORMANCE.md: gpyfft's and pyopencl's tests
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends "${missing[@]}"

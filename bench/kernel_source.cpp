// clcpu_bench_kernel_source NAME FILE: writes the OpenCL C source of the
// bench's kernels NAME ("stream" or "scan", bench/Kernels.h) to FILE, for
// the build to compile into the SPIR-V of the *_spirv rows
// (bench/CMakeLists.txt).
#include "Kernels.h"

#include <cstdio>
#include <cstring>

int main(int Argc, char **Argv) {
  if (Argc != 3)
    return 2;
  const char *Src = std::strcmp(Argv[1], "stream") == 0 ? kernels::Stream
                    : std::strcmp(Argv[1], "scan") == 0 ? kernels::Scan
                                                        : nullptr;
  if (!Src)
    return 2;
  FILE *F = std::fopen(Argv[2], "w");
  if (!F)
    return 1;
  bool Ok = std::fputs(Src, F) >= 0;
  return std::fclose(F) == 0 && Ok ? 0 : 1;
}

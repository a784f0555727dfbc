#ifndef CLCPU_COMPILER_BINARY_H
#define CLCPU_COMPILER_BINARY_H

// clcpu's program binary format (CL_PROGRAM_BINARIES,
// clCreateProgramWithBinary) and its on-disk cache entries. Little-endian, all
// fields checked:
//
//   "CLCPUBIN"            8-byte magic
//   u32 format version    BinaryFormatVersion
//   str driver version    (str = u32 length + bytes)
//   str LLVM version
//   str CPU name
//   str CPU features      sorted "+avx2,-avx512f,..."
//   u32 binary type       CL_PROGRAM_BINARY_TYPE_*
//   str build options
//   str payload           bitcode (objects, libraries) or a serialized
//                         executable (kernel descriptions + optimized bitcode)
//   u64 checksum          FNV-1a 64 of every byte before it
//
// No LLVM header is visible from here.

#include "compiler/Compiler.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace clcpu::compiler {

/// 3: the collective Op encoding of compiler/WorkGroupContext.h changed
/// (CollSubGroup moved to bit 16 for the non-uniform and clustered
/// sub-group functions), and an executable's bitcode embeds those Ops: a
/// version-2 executable's sub-group collectives would be misread.
/// 4: non-uniform sub-group functions meet at reconvergence points
/// (compiler/passes/Reconvergence.cpp) and may take the barrier regions; a
/// version-3 executable would run them with the older active sets.
/// 5: the WorkGroupContext fields were reordered (the launch's fields
/// first, compiler/WorkGroupContext.def), and an executable's bitcode
/// embeds their word indices.
/// 6: the bounds-check mode's fields (WorkGroupContext::ArgExtents and
/// CheckReport) and site tables.
/// 7: a bounds-checked kernel's site table has one more entry after its
/// null (passes/CheckBounds.h), and checks are expanded after the work-item
/// loops are formed (passes/CheckRangeVersioning.cpp).
inline constexpr uint32_t BinaryFormatVersion = 8;

struct BinaryContents {
  cl_program_binary_type Type = CL_PROGRAM_BINARY_TYPE_NONE;
  std::string Options;
  std::string Payload;
};

/// The host's CPU name and the target features programs are compiled with
/// ("+avx2", "-avx512f", ...): the host's own, plus "+fast-gather" on an
/// AVX2 host without AVX-512. LLVM treats vector gathers as legal on AVX2
/// only for CPUs it tunes as having fast ones (Intel client cores since
/// Skylake); elsewhere (AMD Zen 1-3) a gather is scalarized into a load and
/// an insert per lane. The kernel passes rely on vector gathers: a gather
/// whose lanes turn out adjacent or equal at run time becomes one vector or
/// scalar load (compiler/passes/RuntimeConsecutiveGathers.cpp), and a
/// grid-stride loop in a barrier region is one gather per vector of work-items.
const std::string &hostCpuName();
const std::vector<std::string> &hostTargetFeatures();
/// hostTargetFeatures() sorted and joined with commas (as recorded in
/// binaries and in the cache key).
const std::string &hostCpuFeatures();
/// The sub-group size (cl_khr_subgroups) kernels are compiled for: the
/// 32-bit lanes of one vector register of hostTargetFeatures() (16 with
/// AVX-512F, 8 with AVX, 4 otherwise), the width the work-item loops
/// vectorize to. The compiler folds it into the sub-group queries and the
/// runtime reports and schedules it (runtime/Topology.h, subGroupSize), so
/// both read it here.
unsigned hostSubGroupSize();

/// FNV-1a 64 of \p Size bytes, continuing from \p Seed.
uint64_t fnv1a(const void *Data, size_t Size,
               uint64_t Seed = 0xcbf29ce484222325ull);

/// A binary for this host and \p DriverVersion.
std::string writeBinary(const BinaryContents &C,
                        const std::string &DriverVersion);
/// Parses and checks a binary: false (with \p Why) if it is truncated,
/// corrupt (checksum), of another format version, or made by another driver,
/// LLVM or CPU.
bool readBinary(const unsigned char *Data, size_t Size,
                const std::string &DriverVersion, BinaryContents &Out,
                std::string &Why);

/// The executable payload: \p Kernels' descriptions (not their code), the
/// global variable size and the optimized module's bitcode.
std::string serializeExecutable(const std::vector<KernelInfo> &Kernels,
                                size_t GlobalVarSize,
                                const std::string &Bitcode);
/// Two strings in one (a cache entry: payload and object code).
std::string packPair(const std::string &A, const std::string &B);
bool unpackPair(const std::string &In, std::string &A, std::string &B);

bool deserializeExecutable(const std::string &Payload,
                           std::vector<KernelInfo> &Kernels,
                           size_t &GlobalVarSize, std::string &Bitcode);

} // namespace clcpu::compiler

#endif

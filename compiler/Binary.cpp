//===- compiler/Binary.cpp - program binaries and cache entries -----------===//

#include "compiler/Binary.h"

#include <llvm/ADT/StringMap.h>
#include <llvm/TargetParser/Host.h>

#include <algorithm>
#include <cstring>

namespace clcpu::compiler {

namespace {
const char Magic[8] = {'C', 'L', 'C', 'P', 'U', 'B', 'I', 'N'};

class Writer {
public:
  std::string Out;
  /// \p V little-endian, whatever the host's byte order.
  template <typename T> void little(T V) {
    for (unsigned I = 0; I < sizeof(T); ++I)
      Out += static_cast<char>((V >> (8 * I)) & 0xff);
  }
  void u32(uint32_t V) { little(V); }
  void u64(uint64_t V) { little(V); }
  void str(const std::string &S) {
    u32(static_cast<uint32_t>(S.size()));
    Out += S;
  }
};

/// Bounds-checked reads; after any failure every read fails.
class Reader {
public:
  Reader(const unsigned char *D, size_t N) : D(D), N(N) {}
  bool Ok = true;
  /// A little-endian \p V (Writer::little).
  template <typename T> bool little(T &V) {
    if (!need(sizeof(T)))
      return false;
    V = 0;
    for (unsigned I = 0; I < sizeof(T); ++I)
      V |= T(D[Pos + I]) << (8 * I);
    Pos += sizeof(T);
    return true;
  }
  bool u32(uint32_t &V) { return little(V); }
  bool u64(uint64_t &V) { return little(V); }
  bool str(std::string &S) {
    uint32_t L = 0;
    if (!u32(L) || !need(L))
      return false;
    S.assign(reinterpret_cast<const char *>(D + Pos), L);
    Pos += L;
    return true;
  }
  bool atEnd() const { return Ok && Pos == N; }

private:
  const unsigned char *D;
  size_t N, Pos = 0;
  bool need(size_t K) {
    if (!Ok || N - Pos < K)
      Ok = false;
    return Ok;
  }
};
} // namespace

uint64_t fnv1a(const void *Data, size_t Size, uint64_t H) {
  auto *P = static_cast<const unsigned char *>(Data);
  for (size_t I = 0; I < Size; ++I) {
    H ^= P[I];
    H *= 0x100000001b3ull;
  }
  return H;
}

const std::string &hostCpuName() {
  static const std::string N = llvm::sys::getHostCPUName().str();
  return N;
}

const std::vector<std::string> &hostTargetFeatures() {
  static const std::vector<std::string> L = [] {
    std::vector<std::string> V;
    bool Avx2 = false, Avx512 = false;
    for (const auto &E : llvm::sys::getHostCPUFeatures()) {
      V.push_back((E.getValue() ? "+" : "-") + E.getKey().str());
      Avx2 |= E.getValue() && E.getKey() == "avx2";
      Avx512 |= E.getValue() && E.getKey() == "avx512f";
    }
    if (Avx2 && !Avx512)
      V.push_back("+fast-gather");
    // LLVM tunes Skylake-server and later Xeons to prefer 256-bit vectors
    // (512-bit code lowers the clocks of the early ones), so work-item loops
    // would run 8 lanes wide under 16-lane sub-groups and per-item loops
    // would use ymm. Full-width vectors match the sub-group size and give
    // the math builtins twice the lanes per call, and no kernel runs slower
    // with them.
    if (Avx512)
      V.push_back("-prefer-256-bit");
    return V;
  }();
  return L;
}

const std::string &hostCpuFeatures() {
  static const std::string F = [] {
    std::vector<std::string> L = hostTargetFeatures();
    std::sort(L.begin(), L.end());
    std::string S;
    for (const std::string &X : L)
      S += (S.empty() ? "" : ",") + X;
    return S;
  }();
  return F;
}

unsigned hostSubGroupSize() {
  static const unsigned N = [] {
    const std::vector<std::string> &F = hostTargetFeatures();
    auto Has = [&](const char *X) {
      return std::find(F.begin(), F.end(), X) != F.end();
    };
    return Has("+avx512f") ? 16u : Has("+avx") ? 8u : 4u;
  }();
  return N;
}

std::string writeBinary(const BinaryContents &C,
                        const std::string &DriverVersion) {
  Writer W;
  W.Out.append(Magic, sizeof Magic);
  W.u32(BinaryFormatVersion);
  W.str(DriverVersion);
  W.str(llvmVersion());
  W.str(hostCpuName());
  W.str(hostCpuFeatures());
  W.u32(static_cast<uint32_t>(C.Type));
  W.str(C.Options);
  W.str(C.Payload);
  W.u64(fnv1a(W.Out.data(), W.Out.size()));
  return W.Out;
}

bool readBinary(const unsigned char *Data, size_t Size,
                const std::string &DriverVersion, BinaryContents &Out,
                std::string &Why) {
  if (!Data || Size < sizeof Magic + 4 + 8 ||
      std::memcmp(Data, Magic, sizeof Magic) != 0) {
    Why = "not a clcpu program binary";
    return false;
  }
  uint64_t Sum = 0;
  for (int I = 0; I < 8; ++I)
    Sum |= uint64_t(Data[Size - 8 + I]) << (8 * I);
  if (Sum != fnv1a(Data, Size - 8)) {
    Why = "the binary is truncated or corrupt (checksum mismatch)";
    return false;
  }
  Reader R(Data + sizeof Magic, Size - sizeof Magic - 8);
  uint32_t Version = 0, Type = 0;
  std::string Driver, Llvm, Cpu, Features;
  if (!R.u32(Version) || Version != BinaryFormatVersion) {
    Why = "unsupported binary format version";
    return false;
  }
  if (!R.str(Driver) || !R.str(Llvm) || !R.str(Cpu) || !R.str(Features) ||
      !R.u32(Type) || !R.str(Out.Options) || !R.str(Out.Payload) ||
      !R.atEnd()) {
    Why = "the binary is malformed";
    return false;
  }
  if (Driver != DriverVersion || Llvm != llvmVersion()) {
    Why = "the binary was made by clcpu " + Driver + " with LLVM " + Llvm +
          ", not clcpu " + DriverVersion + " with LLVM " + llvmVersion();
    return false;
  }
  if (Cpu != hostCpuName() || Features != hostCpuFeatures()) {
    Why = "the binary was made for another CPU (" + Cpu + ")";
    return false;
  }
  if (Type != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT &&
      Type != CL_PROGRAM_BINARY_TYPE_LIBRARY &&
      Type != CL_PROGRAM_BINARY_TYPE_EXECUTABLE) {
    Why = "unknown binary type";
    return false;
  }
  Out.Type = Type;
  return true;
}

std::string packPair(const std::string &A, const std::string &B) {
  Writer W;
  W.str(A);
  W.str(B);
  return W.Out;
}

bool unpackPair(const std::string &In, std::string &A, std::string &B) {
  Reader R(reinterpret_cast<const unsigned char *>(In.data()), In.size());
  return R.str(A) && R.str(B) && R.atEnd();
}

std::string serializeExecutable(const std::vector<KernelInfo> &Kernels,
                                size_t GlobalVarSize,
                                const std::string &Bitcode) {
  Writer W;
  W.u32(static_cast<uint32_t>(Kernels.size()));
  for (const KernelInfo &K : Kernels) {
    W.str(K.Name);
    W.u32(static_cast<uint32_t>(K.Args.size()));
    for (const ArgInfo &A : K.Args) {
      W.u32(A.AddressSpace);
      W.str(A.AccessQual);
      W.str(A.TypeName);
      W.str(A.TypeQual);
      W.str(A.Name);
      W.u64(A.Size);
    }
    for (size_t S : K.ReqdWorkGroupSize)
      W.u64(S);
    W.str(K.Attributes);
    W.u64(K.LocalMemSize);
    W.u32(K.ArgInfoAvailable);
    W.u64(K.PrivateMemSize);
    W.u32(K.PerWorkItem);
    W.u32(K.UniformWorkGroupSize);
    W.u64(K.RegionScratch);
    W.str(K.Path);
    W.u32(K.Block);
    W.u32(K.Enqueues);
  }
  W.u64(GlobalVarSize);
  W.str(Bitcode);
  return W.Out;
}

bool deserializeExecutable(const std::string &Payload,
                           std::vector<KernelInfo> &Kernels,
                           size_t &GlobalVarSize, std::string &Bitcode) {
  Reader R(reinterpret_cast<const unsigned char *>(Payload.data()),
           Payload.size());
  uint32_t NK = 0;
  if (!R.u32(NK) || NK > Payload.size())
    return false;
  Kernels.assign(NK, KernelInfo());
  for (KernelInfo &K : Kernels) {
    uint32_t NA = 0;
    if (!R.str(K.Name) || !R.u32(NA) || NA > Payload.size())
      return false;
    K.Args.assign(NA, ArgInfo());
    for (ArgInfo &A : K.Args) {
      uint64_t Size = 0;
      if (!R.u32(A.AddressSpace) || !R.str(A.AccessQual) ||
          !R.str(A.TypeName) || !R.str(A.TypeQual) || !R.str(A.Name) ||
          !R.u64(Size))
        return false;
      A.Size = Size;
    }
    for (size_t &S : K.ReqdWorkGroupSize) {
      uint64_t V = 0;
      if (!R.u64(V))
        return false;
      S = V;
    }
    uint64_t Local = 0, Private = 0, Scratch = 0;
    uint32_t ArgInfo = 0, PerWorkItem = 0, Uniform = 0, Block = 0, Enqueues = 0;
    if (!R.str(K.Attributes) || !R.u64(Local) || !R.u32(ArgInfo) ||
        !R.u64(Private) || !R.u32(PerWorkItem) || !R.u32(Uniform) ||
        !R.u64(Scratch) || !R.str(K.Path) || !R.u32(Block) || !R.u32(Enqueues))
      return false;
    K.Block = Block != 0;
    K.Enqueues = Enqueues != 0;
    K.RegionScratch = Scratch;
    K.PerWorkItem = PerWorkItem != 0;
    K.UniformWorkGroupSize = Uniform != 0;
    K.LocalMemSize = Local;
    K.ArgInfoAvailable = ArgInfo != 0;
    K.PrivateMemSize = Private;
  }
  uint64_t GV = 0;
  if (!R.u64(GV) || !R.str(Bitcode) || !R.atEnd())
    return false;
  GlobalVarSize = GV;
  return true;
}

} // namespace clcpu::compiler

//===- compiler/Spirv.cpp - SPIR-V modules to LLVM IR, out of process -----===//
//
// IL programs (clCreateProgramWithIL, cl_khr_il_program) are SPIR-V modules.
// Khronos' SPIRV-LLVM-Translator reads them into LLVM bitcode; Debian
// builds it against LLVM 15 (llvm-spirv-15), whose bitcode LLVM 19's reader
// upgrades (typed pointers become opaque ones). The translator runs as its
// own process (posix_spawn, with a time limit): two LLVM versions cannot
// share one address space, and a module that crashes the translator must
// not take the application with it. Its options: `-r` (read SPIR-V),
// `--spirv-target-env=CL2.0` (OpenCL C builtin calls with OpenCL C 2.0
// names, the ones builtins/ defines, rather than __spirv_* calls),
// `--spirv-gen-kernel-arg-name-md` (argument names from OpName, for
// clGetKernelArgInfo) and `--spec-const` with the values the application
// set. Before it runs, compiler/SpirvLegalize.cpp rewrites the constructs
// it cannot read into equivalent SPIR-V.
//
// The bitcode then takes the shape the front end gives OpenCL C: the host
// triple and data layout, flat address spaces
// (passes/FlattenAddressSpaces.cpp), the builtins' host names
// (passes/SpirvBuiltinNames.cpp), the host CPU's function attributes;
// kernels keep spir_kernel and their kernel_arg_* metadata, which the
// translator writes as Clang does. From there the module goes through
// compiler/Pipeline.cpp like any other.

#include "compiler/Spirv.h"

#include "compiler/Binary.h"
#include "compiler/SpirvLegalize.h"
#include "compiler/passes/FlattenAddressSpaces.h"
#include "compiler/passes/SpirvBuiltinNames.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

using namespace llvm;

namespace clcpu::compiler {

namespace {
constexpr uint32_t SpirvMagic = 0x07230203;

// Opcodes and operands read here (SPIR-V 1.6 specification, 3.x).
enum : uint32_t {
  OpExtension = 10,
  OpMemoryModel = 14,
  OpCapability = 17,
  OpTypeBool = 20,
  OpTypeInt = 21,
  OpTypeFloat = 22,
  OpSpecConstantTrue = 48,
  OpSpecConstantFalse = 49,
  OpSpecConstant = 50,
  OpDecorate = 71,
  DecorationSpecId = 1,
  AddressingPhysical64 = 2,
};

/// The capabilities of the OpenCL environment (OpenCL 3.0 SPIR-V
/// environment specification, 5.1) that the device has: the full profile's
/// (Addresses, Float16Buffer, Int64, Int16, Int8, Kernel, Linkage,
/// Vector16), those of its optional features (Float64 for
/// __opencl_c_fp64, Float16 for cl_khr_fp16, GenericPointer, Groups for
/// the work-group collectives, Int64Atomics for the 64-bit atomics), and
/// the sub-group ones of its cl_khr_subgroup_* extensions, and those of its
/// other extensions. No images, pipes, device-side enqueue or sub-group
/// dispatch: the device has none. (Whether the translator reads a
/// capability's instructions is the translator's: it fails the build if
/// not.)
struct Capability {
  uint32_t Id;
  const char *Name;
  bool Supported;
};
constexpr Capability Capabilities[] = {
    {0, "Matrix", false},
    {1, "Shader", false},
    {4, "Addresses", true},
    {5, "Linkage", true},
    {6, "Kernel", true},
    {7, "Vector16", true},
    {8, "Float16Buffer", true},
    {9, "Float16", true},
    {10, "Float64", true},
    {11, "Int64", true},
    {12, "Int64Atomics", true},
    {13, "ImageBasic", false},
    {14, "ImageReadWrite", false},
    {15, "ImageMipmap", false},
    {17, "Pipes", false},
    {18, "Groups", true},
    {19, "DeviceEnqueue", false},
    {20, "LiteralSampler", false},
    {22, "Int16", true},
    {38, "GenericPointer", true},
    {39, "Int8", true},
    {43, "Sampled1D", false},
    {44, "Image1D", false},
    {46, "SampledBuffer", false},
    {47, "ImageBuffer", false},
    {58, "SubgroupDispatch", false},
    {59, "NamedBarrier", false},
    {60, "PipeStorage", false},
    {61, "GroupNonUniform", true},
    {62, "GroupNonUniformVote", true},
    {63, "GroupNonUniformArithmetic", true},
    {64, "GroupNonUniformBallot", true},
    {65, "GroupNonUniformShuffle", true},
    {66, "GroupNonUniformShuffleRelative", true},
    {67, "GroupNonUniformClustered", true},
    {4423, "SubgroupBallotKHR", false},
    // cl_ext_float_atomics.
    {5612, "AtomicFloat32MinMaxEXT", true},
    {5613, "AtomicFloat64MinMaxEXT", true},
    {5616, "AtomicFloat16MinMaxEXT", true},
    {6033, "AtomicFloat32AddEXT", true},
    {6034, "AtomicFloat64AddEXT", true},
    {6095, "AtomicFloat16AddEXT", true},
    // cl_khr_expect_assume, cl_khr_extended_bit_ops,
    // cl_khr_subgroup_rotate, cl_khr_integer_dot_product,
    // cl_khr_work_group_uniform_arithmetic.
    {5629, "ExpectAssumeKHR", true},
    {6016, "DotProductInputAllKHR", true},
    {6017, "DotProductInput4x8BitKHR", true},
    {6018, "DotProductInput4x8BitPackedKHR", true},
    {6019, "DotProductKHR", true},
    {6025, "BitInstructions", true},
    {6026, "GroupNonUniformRotateKHR", true},
    {6400, "GroupUniformArithmeticKHR", true},
};

/// The name of capability \p Id, or its number.
std::string capabilityName(uint32_t Id) {
  for (const Capability &C : Capabilities)
    if (C.Id == Id)
      return C.Name;
  return std::to_string(Id);
}

bool capabilitySupported(uint32_t Id) {
  for (const Capability &C : Capabilities)
    if (C.Id == Id)
      return C.Supported;
  return false;
}
} // namespace

bool inspectSpirv(const void *Data, size_t Size, SpirvInfo &Out,
                  std::string &Why) {
  Out = SpirvInfo();
  if (Size % 4 != 0 || Size < 20) {
    Why = "a SPIR-V module is a sequence of 32-bit words with a 5-word "
          "header; this one has " +
          std::to_string(Size) + " bytes";
    return false;
  }
  std::vector<uint32_t> W(Size / 4);
  std::memcpy(W.data(), Data, Size);
  if (W[0] != SpirvMagic) {
    char Buf[64];
    std::snprintf(Buf, sizeof Buf, "0x%08x", W[0]);
    Why = std::string("not a SPIR-V module: the magic number is ") + Buf +
          (W[0] == __builtin_bswap32(SpirvMagic)
               ? " (a big-endian module; only little-endian ones are read)"
               : ", not 0x07230203");
    return false;
  }
  Out.Version = W[1];
  uint32_t Major = (W[1] >> 16) & 0xff, Minor = (W[1] >> 8) & 0xff;
  if ((W[1] & 0xff0000ff) != 0 || Major != 1 || W[1] > MaxSpirvVersion) {
    Why = "SPIR-V version " + std::to_string(Major) + "." +
          std::to_string(Minor) + " is not supported (1.0 to 1.4 are)";
    return false;
  }
  // W[3]: the bound on ids; W[4]: reserved, 0.
  if (W[3] == 0 || W[4] != 0) {
    Why = "malformed SPIR-V header (id bound 0 or reserved word not 0)";
    return false;
  }
  std::vector<std::pair<uint32_t, uint32_t>> SpecIds; // result id → SpecId
  std::vector<std::pair<uint32_t, SpirvInfo::SpecConstant>> Types;
  std::vector<std::pair<uint32_t, uint32_t>> SpecResults; // id → type id
  bool HasMemoryModel = false;
  for (size_t I = 5; I < W.size();) {
    uint32_t Count = W[I] >> 16, Op = W[I] & 0xffff;
    if (Count == 0 || Count > W.size() - I) {
      Why = "malformed SPIR-V: the instruction at word " + std::to_string(I) +
            " has a word count of " + std::to_string(Count) +
            (Count ? " past the module's end" : "");
      return false;
    }
    const uint32_t *Ops = &W[I + 1];
    unsigned N = Count - 1;
    switch (Op) {
    case OpCapability:
      if (N < 1) {
        Why = "malformed SPIR-V: OpCapability without an operand";
        return false;
      }
      if (!capabilitySupported(Ops[0])) {
        Why = "the module declares capability " + capabilityName(Ops[0]) +
              ", which the device does not support";
        return false;
      }
      break;
    case OpMemoryModel:
      HasMemoryModel = true;
      if (N < 2 || Ops[0] != AddressingPhysical64) {
        Why = "the module's addressing model is not Physical64 (the "
              "device's address bits are 64)";
        return false;
      }
      break;
    case OpTypeBool:
      if (N >= 1)
        Types.push_back({Ops[0], {1, 'b'}});
      break;
    case OpTypeInt:
    case OpTypeFloat:
      if (N >= 2)
        Types.push_back({Ops[0], {Ops[1] / 8, Op == OpTypeInt ? 'i' : 'f'}});
      break;
    case OpSpecConstantTrue:
    case OpSpecConstantFalse:
    case OpSpecConstant:
      if (N >= 2)
        SpecResults.push_back({Ops[1], Ops[0]});
      break;
    case OpDecorate:
      if (N >= 3 && Ops[1] == DecorationSpecId)
        SpecIds.push_back({Ops[0], Ops[2]});
      break;
    default:
      break;
    }
    I += Count;
  }
  if (!HasMemoryModel) {
    Why = "malformed SPIR-V: the module has no OpMemoryModel";
    return false;
  }
  for (auto [Result, SpecId] : SpecIds)
    for (auto [R, TypeId] : SpecResults)
      if (R == Result)
        for (auto [T, C] : Types)
          if (T == TypeId)
            Out.SpecConstants.push_back({SpecId, C});
  return true;
}

namespace {
/// A temporary directory, removed with what it holds.
class TempDir {
public:
  TempDir() {
    const char *Tmp = std::getenv("TMPDIR");
    std::string Pattern =
        std::string(Tmp && *Tmp ? Tmp : "/tmp") + "/clcpu-spirv-XXXXXX";
    std::vector<char> Buf(Pattern.begin(), Pattern.end());
    Buf.push_back('\0');
    if (mkdtemp(Buf.data()))
      Path = Buf.data();
  }
  ~TempDir() {
    if (Path.empty())
      return;
    for (const char *F : {"/module.spv", "/module.bc", "/messages.txt"})
      unlink((Path + F).c_str());
    rmdir(Path.c_str());
  }
  std::string Path;
};

bool writeFile(const std::string &Path, const std::string &Bytes) {
  FILE *F = std::fopen(Path.c_str(), "wb");
  if (!F)
    return false;
  bool Ok = std::fwrite(Bytes.data(), 1, Bytes.size(), F) == Bytes.size();
  return std::fclose(F) == 0 && Ok;
}

std::string readFile(const std::string &Path, size_t Limit) {
  std::string Out;
  FILE *F = std::fopen(Path.c_str(), "rb");
  if (!F)
    return Out;
  char Buf[65536];
  size_t N;
  while (Out.size() < Limit && (N = std::fread(Buf, 1, sizeof Buf, F)) > 0)
    Out.append(Buf, N);
  std::fclose(F);
  return Out;
}

/// The --spec-const operand for \p V, whose module type is \p C:
/// "id:type:value".
bool specConstOperand(const SpecConstantValue &V,
                      const SpirvInfo::SpecConstant &C, std::string &Out) {
  uint64_t Bits = 0;
  std::memcpy(&Bits, V.Bytes.data(), std::min<size_t>(V.Bytes.size(), 8));
  std::string Id = std::to_string(V.Id);
  char Buf[64];
  if (C.Kind == 'b') {
    Out = Id + ":i1:" + (Bits & 0xff ? "1" : "0");
  } else if (C.Kind == 'i') {
    if (C.Size != 1 && C.Size != 2 && C.Size != 4 && C.Size != 8)
      return false;
    if (C.Size < 8)
      Bits &= (uint64_t(1) << (8 * C.Size)) - 1;
    Out = Id + ":i" + std::to_string(8 * C.Size) + ":" + std::to_string(Bits);
  } else if (C.Size == 4) {
    float F;
    std::memcpy(&F, &Bits, 4);
    if (!std::isfinite(F))
      return false;
    std::snprintf(Buf, sizeof Buf, "%.17g", double(F));
    Out = Id + ":f32:" + Buf;
  } else if (C.Size == 8) {
    double D;
    std::memcpy(&D, &Bits, 8);
    if (!std::isfinite(D))
      return false;
    std::snprintf(Buf, sizeof Buf, "%.17g", D);
    Out = Id + ":f64:" + Buf;
  } else if (C.Size == 2) {
    // A half's value is exact as a float.
    uint32_t H = Bits & 0xffff, Sign = H >> 15, Exp = (H >> 10) & 0x1f,
             Man = H & 0x3ff;
    if (Exp == 31)
      return false;
    double D = Exp ? std::ldexp(1.0 + Man / 1024.0, int(Exp) - 15)
                   : std::ldexp(Man / 1024.0, -14);
    std::snprintf(Buf, sizeof Buf, "%.17g", Sign ? -D : D);
    Out = Id + ":f16:" + Buf;
  } else {
    return false;
  }
  return true;
}

/// Runs \p Argv with stdout and stderr to \p Messages, for at most
/// \p Seconds. Empty if it exited with status 0, else what went wrong.
std::string runTool(const std::vector<std::string> &Argv,
                    const std::string &Messages, unsigned Seconds) {
  std::vector<char *> Args;
  for (const std::string &A : Argv)
    Args.push_back(const_cast<char *>(A.c_str()));
  Args.push_back(nullptr);
  posix_spawn_file_actions_t Files;
  posix_spawn_file_actions_init(&Files);
  posix_spawn_file_actions_addopen(&Files, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&Files, 1, Messages.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&Files, 1, 2);
  pid_t Pid;
  int Err = posix_spawn(&Pid, Args[0], &Files, nullptr, Args.data(), environ);
  posix_spawn_file_actions_destroy(&Files);
  if (Err != 0)
    return "the SPIR-V translator " + Argv[0] +
           " could not be started: " + std::strerror(Err);
  auto Deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(Seconds);
  auto Pause = std::chrono::microseconds(200);
  int Status = 0;
  for (;;) {
    pid_t R = waitpid(Pid, &Status, WNOHANG);
    if (R == Pid)
      break;
    // An application that ignores SIGCHLD has its children reaped by the
    // kernel: the status is gone, the output file tells.
    if (R < 0 && errno == ECHILD)
      return "";
    if (R < 0 && errno != EINTR)
      return std::string("waiting for the SPIR-V translator failed: ") +
             std::strerror(errno);
    if (std::chrono::steady_clock::now() > Deadline) {
      kill(Pid, SIGKILL);
      while (waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
      }
      return "the SPIR-V translator did not finish within " +
             std::to_string(Seconds) + " s";
    }
    std::this_thread::sleep_for(Pause);
    Pause = std::min(Pause * 2, std::chrono::microseconds(20000));
  }
  if (WIFSIGNALED(Status))
    return "the SPIR-V translator crashed (signal " +
           std::to_string(WTERMSIG(Status)) + ")";
  if (!WIFEXITED(Status) || WEXITSTATUS(Status) != 0)
    return "the SPIR-V translator failed (exit status " +
           std::to_string(WEXITSTATUS(Status)) + ")";
  return "";
}

/// The time one translation may take.
constexpr unsigned TranslatorSeconds = 120;
} // namespace

bool spirvTranslatorFound(const std::string &Path) {
  static const bool Found = [&] {
    const std::string &Tool = Path.empty() ? DefaultSpirvTranslator : Path;
    struct stat St;
    return stat(Tool.c_str(), &St) == 0 && S_ISREG(St.st_mode) &&
           access(Tool.c_str(), X_OK) == 0;
  }();
  return Found;
}

std::unique_ptr<Module>
translateSpirv(LLVMContext &Ctx, const std::string &Il,
               const std::vector<SpecConstantValue> &Spec, const Options &Opts,
               const std::string &Triple, const DataLayout &DL,
               const BuildSettings &S, std::string &Log) {
  SpirvInfo Info;
  std::string Why;
  if (!inspectSpirv(Il.data(), Il.size(), Info, Why)) {
    Log += "error: " + Why + "\n";
    return nullptr;
  }
  std::vector<std::string> Argv = {
      S.SpirvTranslator.empty() ? DefaultSpirvTranslator : S.SpirvTranslator,
      "-r", "--spirv-target-env=CL2.0", "--spirv-gen-kernel-arg-name-md"};
  std::string SpecList;
  for (const SpecConstantValue &V : Spec)
    for (const auto &[Id, C] : Info.SpecConstants) {
      if (Id != V.Id)
        continue;
      std::string Operand;
      if (!specConstOperand(V, C, Operand)) {
        Log += "error: specialization constant " + std::to_string(V.Id) +
               ": the value cannot be passed to the translator (not a "
               "finite number)\n";
        return nullptr;
      }
      SpecList += (SpecList.empty() ? "" : " ") + Operand;
    }
  if (!SpecList.empty())
    Argv.push_back("--spec-const=" + SpecList);
  TempDir Dir;
  if (Dir.Path.empty()) {
    Log += std::string("error: no temporary directory for the SPIR-V "
                       "translator: ") +
           std::strerror(errno) + "\n";
    return nullptr;
  }
  std::string In = Dir.Path + "/module.spv", OutBc = Dir.Path + "/module.bc",
              Messages = Dir.Path + "/messages.txt";
  if (!writeFile(In, legalizeSpirv(Il))) {
    Log += "error: cannot write the SPIR-V module to " + In + "\n";
    return nullptr;
  }
  Argv.insert(Argv.end(), {In, "-o", OutBc});
  std::string Failure = runTool(Argv, Messages, TranslatorSeconds);
  if (!Failure.empty()) {
    std::string Text = readFile(Messages, 64 << 10);
    // A crash's stack dump names the translator's internals, not the
    // module's problem: the message before it is what the log keeps.
    if (size_t Dump = Text.find("PLEASE submit a bug report");
        Dump != std::string::npos)
      Text.resize(Dump);
    Log += "error: " + Failure + (Text.empty() ? "\n" : ":\n" + Text);
    if (!Text.empty() && Text.back() != '\n')
      Log += "\n";
    return nullptr;
  }
  std::string Bitcode = readFile(OutBc, size_t(1) << 31);
  if (Bitcode.empty()) {
    Log += "error: the SPIR-V translator wrote no module:\n" +
           readFile(Messages, 64 << 10) + "\n";
    return nullptr;
  }
  auto Parsed = parseBitcodeFile(MemoryBufferRef(Bitcode, "spirv-module"), Ctx);
  if (!Parsed) {
    Log += "error: the SPIR-V translator's bitcode cannot be read: " +
           toString(Parsed.takeError()) + "\n";
    return nullptr;
  }
  std::unique_ptr<Module> M = std::move(*Parsed);
  // Initializer and Finalizer entry points become constructor lists. The
  // device runs no program-scope constructors or destructors
  // (CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT and _DTORS_PRESENT are false,
  // clSetProgramReleaseCallback is refused): such a module is not built.
  for (const char *List : {"llvm.global_ctors", "llvm.global_dtors"})
    if (M->getNamedGlobal(List)) {
      Log += "error: the module has Initializer or Finalizer entry points "
             "(program-scope constructors or destructors), which the "
             "device does not run\n";
      return nullptr;
    }
  M->setTargetTriple(Triple);
  M->setDataLayout(DL);
  ModuleAnalysisManager MAM;
  SpirvBuiltinNamesPass().run(*M, MAM);
  FlattenAddressSpacesPass().run(*M, MAM);
  // The attributes the front end gives every function (the vector ABI of
  // the builtin library that is linked depends on them), and OpenCL C 2.0's
  // work-group size rule unless the build options ask for uniform sizes.
  std::string Features = join(hostTargetFeatures(), ",");
  bool Uniform =
      std::find(Opts.ClangArgs.begin(), Opts.ClangArgs.end(),
                "-cl-uniform-work-group-size") != Opts.ClangArgs.end();
  // What the module defines is resolved within it, as the front end marks
  // its definitions (the JIT links one module; its internal copies of
  // kernels must be dso_local).
  for (GlobalVariable &G : M->globals())
    if (!G.isDeclaration())
      G.setDSOLocal(true);
  for (Function &F : *M) {
    if (F.isDeclaration())
      continue;
    F.setDSOLocal(true);
    F.addFnAttr("target-cpu", hostCpuName());
    F.addFnAttr("target-features", Features);
    if (F.getCallingConv() != CallingConv::SPIR_KERNEL)
      continue;
    F.addFnAttr("uniform-work-group-size", Uniform ? "true" : "false");
    // Argument names come from OpName; a module without them gets empty
    // strings, which would read as names: then there are none
    // (CL_KERNEL_ARG_INFO_NOT_AVAILABLE for CL_KERNEL_ARG_NAME).
    if (MDNode *Names = F.getMetadata("kernel_arg_name")) {
      bool Any = false;
      for (const MDOperand &Op : Names->operands())
        if (auto *S = dyn_cast<MDString>(Op); S && !S->getString().empty())
          Any = true;
      if (!Any)
        F.setMetadata("kernel_arg_name", nullptr);
    }
  }
  std::string Broken;
  raw_string_ostream OS(Broken);
  if (verifyModule(*M, &OS)) {
    Log += "error: the translated SPIR-V module is not valid IR: " + OS.str() +
           "\n";
    return nullptr;
  }
  return M;
}

} // namespace clcpu::compiler

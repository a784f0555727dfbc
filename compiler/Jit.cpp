//===- compiler/Jit.cpp - ORC LLJIT per program, build orchestration ------===//

#include "compiler/Internal.h"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/DynamicLibrary.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <mutex>
#include <sstream>

using namespace llvm;

namespace clcpu::compiler {

/// One LLJIT instance per built program; the generated code lives as long as
/// this object.
class JitSession {
public:
  std::unique_ptr<orc::LLJIT> J;
};

CompiledProgram::CompiledProgram() = default;
CompiledProgram::~CompiledProgram() = default;

namespace {
void initTargets() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    InitializeNativeTarget();
    InitializeNativeTargetAsmPrinter();
    InitializeNativeTargetAsmParser();
    // The process's own symbols (libc, libm) resolve library calls.
    sys::DynamicLibrary::LoadLibraryPermanently(nullptr);
  });
}

/// Optimized module with work-group functions, from \p M as the front end
/// (or the linker) left it. Returns the CL error code (\p FailCode on
/// failure).
cl_int lowerModule(Module &M, const Options &Opts, std::string &Log,
                   orc::JITTargetMachineBuilder &JTMB,
                   std::vector<KernelInfo> &Kernels, size_t &GlobalVarSize,
                   cl_int FailCode) {
  auto TM = JTMB.createTargetMachine();
  if (!TM) {
    Log += "internal error: " + toString(TM.takeError()) + "\n";
    return FailCode;
  }
  if (!lowerKernels(M, **TM, Opts, Kernels, GlobalVarSize, Log))
    return FailCode;
  return CL_SUCCESS;
}

/// Source → unoptimized module (\p M set on success).
cl_int frontEnd(LLVMContext &Ctx, const std::string &Source,
                const std::string &OptionText, const std::vector<Header> &Hs,
                std::string &Log, Options &Opts, std::unique_ptr<Module> &M,
                cl_int BadOptions, cl_int FailCode) {
  initTargets();
  std::string OptErr;
  if (!parseOptions(OptionText, Opts, OptErr)) {
    Log += "error: " + OptErr + "\n";
    return BadOptions;
  }
  M = compileSource(Ctx, Source, Opts, Hs, Log);
  return M ? CL_SUCCESS : FailCode;
}

orc::JITTargetMachineBuilder hostBuilder() {
  initTargets();
  auto JTMB = orc::JITTargetMachineBuilder::detectHost();
  if (!JTMB) // detectHost only fails for an unregistered target
    report_fatal_error(JTMB.takeError());
  JTMB->setCodeGenOptLevel(CodeGenOptLevel::Aggressive);
  return std::move(*JTMB);
}

/// Lowers \p M and JITs it into a new CompiledProgram.
cl_int makeExecutable(std::unique_ptr<LLVMContext> CtxArg,
                      std::unique_ptr<Module> MArg, const Options &Opts,
                      std::string &Log, std::unique_ptr<CompiledProgram> &Out,
                      cl_int FailCode) {
  // Parameters may be destroyed in any order; locals go module first.
  std::unique_ptr<LLVMContext> Ctx = std::move(CtxArg);
  std::unique_ptr<Module> M = std::move(MArg);
  orc::JITTargetMachineBuilder JTMB = hostBuilder();
  auto P = std::make_unique<CompiledProgram>();
  cl_int Err = lowerModule(*M, Opts, Log, JTMB, P->Kernels,
                           P->GlobalVariableTotalSize, FailCode);
  if (Err != CL_SUCCESS)
    return Err;

  const DataLayout DL = M->getDataLayout();
  auto J = orc::LLJITBuilder().setJITTargetMachineBuilder(JTMB).create();
  if (!J) {
    Log += "internal error: " + toString(J.takeError()) + "\n";
    return FailCode;
  }
  // memcpy/memset and libm calls the code generator may emit.
  auto Gen = orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      DL.getGlobalPrefix());
  if (!Gen) {
    Log += "internal error: " + toString(Gen.takeError()) + "\n";
    return FailCode;
  }
  (*J)->getMainJITDylib().addGenerator(std::move(*Gen));
  if (Error E = (*J)->addIRModule(
          orc::ThreadSafeModule(std::move(M), std::move(Ctx)))) {
    Log += "internal error: " + toString(std::move(E)) + "\n";
    return FailCode;
  }
  for (KernelInfo &K : P->Kernels) {
    auto Sym = (*J)->lookup("wg_" + K.Name);
    if (!Sym) {
      Log += "error: kernel '" + K.Name +
             "' cannot be linked: " + toString(Sym.takeError()) + "\n";
      return FailCode;
    }
    K.Fn = Sym->toPtr<WorkGroupFn>();
  }
  P->Jit = std::make_unique<JitSession>();
  P->Jit->J = std::move(*J);
  Out = std::move(P);
  return CL_SUCCESS;
}
} // namespace

cl_int build(const std::string &Source, const std::string &OptionText,
             std::string &Log, std::unique_ptr<CompiledProgram> &Out) {
  auto Ctx = std::make_unique<LLVMContext>();
  std::unique_ptr<Module> M;
  Options Opts;
  if (cl_int Err = frontEnd(*Ctx, Source, OptionText, {}, Log, Opts, M,
                            CL_INVALID_BUILD_OPTIONS, CL_BUILD_PROGRAM_FAILURE))
    return Err;
  return makeExecutable(std::move(Ctx), std::move(M), Opts, Log, Out,
                        CL_BUILD_PROGRAM_FAILURE);
}

cl_int compile(const std::string &Source, const std::string &OptionText,
               const std::vector<Header> &Headers, std::string &Log,
               std::string &Object) {
  LLVMContext Ctx;
  std::unique_ptr<Module> M;
  Options Opts;
  if (cl_int Err =
          frontEnd(Ctx, Source, OptionText, Headers, Log, Opts, M,
                   CL_INVALID_COMPILER_OPTIONS, CL_COMPILE_PROGRAM_FAILURE))
    return Err;
  Object.clear();
  raw_string_ostream OS(Object);
  WriteBitcodeToFile(*M, OS);
  OS.flush();
  return CL_SUCCESS;
}

cl_int link(const std::vector<std::string> &Objects,
            const std::string &OptionText, std::string &Log,
            std::unique_ptr<CompiledProgram> &Out, bool &IsLibrary,
            std::string &Library) {
  initTargets();
  // 5.8.7 "Linker Options": the library option and the math options (which
  // were applied when the objects were compiled).
  IsLibrary = false;
  std::istringstream In(OptionText);
  for (std::string T; In >> T;) {
    if (T == "-create-library")
      IsLibrary = true;
    else if (T != "-enable-link-options" && T != "-cl-denorms-are-zero" &&
             T != "-cl-no-signed-zeros" &&
             T != "-cl-unsafe-math-optimizations" &&
             T != "-cl-finite-math-only" && T != "-cl-fast-relaxed-math" &&
             T != "-cl-no-subgroup-ifp") {
      Log += "error: unknown link option '" + T + "'\n";
      return CL_INVALID_LINKER_OPTIONS;
    }
  }
  auto Ctx = std::make_unique<LLVMContext>();
  std::string LinkDiags;
  Ctx->setDiagnosticHandlerCallBack(
      [](const DiagnosticInfo *DI, void *Text) {
        raw_string_ostream OS(*static_cast<std::string *>(Text));
        DiagnosticPrinterRawOStream DP(OS);
        OS << "error: ";
        DI->print(DP);
        OS << "\n";
      },
      &LinkDiags);
  std::unique_ptr<Module> M;
  for (const std::string &Obj : Objects) {
    auto Parsed = parseBitcodeFile(MemoryBufferRef(Obj, "object"), *Ctx);
    if (!Parsed) {
      Log += "error: invalid compiled object: " + toString(Parsed.takeError()) +
             "\n";
      return CL_LINK_PROGRAM_FAILURE;
    }
    if (!M) {
      M = std::move(*Parsed);
      continue;
    }
    if (Linker::linkModules(*M, std::move(*Parsed))) {
      Log += LinkDiags;
      return CL_LINK_PROGRAM_FAILURE;
    }
  }
  if (!M) {
    Log += "error: nothing to link\n";
    return CL_LINK_PROGRAM_FAILURE;
  }
  if (IsLibrary) {
    Library.clear();
    raw_string_ostream OS(Library);
    WriteBitcodeToFile(*M, OS);
    OS.flush();
    return CL_SUCCESS;
  }
  return makeExecutable(std::move(Ctx), std::move(M), Options(), Log, Out,
                        CL_LINK_PROGRAM_FAILURE);
}

std::string optimizedIR(const std::string &Source,
                        const std::string &OptionText, std::string &Log) {
  orc::JITTargetMachineBuilder JTMB = hostBuilder();
  LLVMContext Ctx;
  std::unique_ptr<Module> M;
  std::vector<KernelInfo> Kernels;
  size_t GV = 0;
  Options Opts;
  if (frontEnd(Ctx, Source, OptionText, {}, Log, Opts, M,
               CL_INVALID_BUILD_OPTIONS, CL_BUILD_PROGRAM_FAILURE) ||
      lowerModule(*M, Opts, Log, JTMB, Kernels, GV, CL_BUILD_PROGRAM_FAILURE))
    return "";
  std::string S;
  raw_string_ostream OS(S);
  M->print(OS, nullptr);
  return OS.str();
}

} // namespace clcpu::compiler

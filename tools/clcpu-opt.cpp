//===- tools/clcpu-opt.cpp - clcpu's passes on LLVM IR --------------------===//
//
// `opt` for clcpu: runs any of the kernel compiler's passes, or the whole
// pipeline, on a module and prints the result. The IR tests (tests/lit) use
// it with an explicit target, so their output does not depend on the host:
//
//   clcpu-opt -mtriple=x86_64-unknown-linux-gnu -mattr=+avx2,+fma
//     -passes=clcpu-consecutive-gathers in.ll
//
// Every pass of compiler/passes/Passes.def is known by name, LLVM's own
// passes too; `default<O3>` is the optimizer of work-group functions, with
// clcpu's passes at their places (compiler/Pipeline.cpp), and
// `clcpu-kernels` runs the whole pipeline (builtins linked, work-group
// functions formed, optimized) on front-end output, printing each kernel's
// path to stderr. An input ending in .cl goes through the front end first
// (-cl-options= gives the build options); there, an explicit -mcpu or
// -mattr also replaces the functions' target-cpu and target-features.
//
// `clcpu-kernels` runs its optimizer without instrumentation; to see the IR
// around one pass of it, stop before the optimizer with
// `-cl-options=-cl-opt-disable` and run `default<O3>` with -print-before on
// the result.

#include "compiler/Frontend.h"
#include "compiler/LinkBuiltins.h"
#include "compiler/Pipeline.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/IRReader/IRReader.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/StandardInstrumentations.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/DynamicLibrary.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/InitLLVM.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/ToolOutputFile.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Host.h>

using namespace llvm;
using namespace clcpu::compiler;

static cl::opt<std::string>
    Input(cl::Positional, cl::desc("<input .ll/.bc/.cl>"), cl::init("-"));
static cl::opt<std::string>
    Output("o", cl::desc("Output file (default: stdout)"), cl::init("-"));
static cl::opt<std::string>
    Passes("passes",
           cl::desc("Pipeline: clcpu-<pass>, LLVM passes, "
                    "default<O3>, clcpu-kernels"),
           cl::init(""));
static cl::opt<std::string> TripleName("mtriple",
                                       cl::desc("Target triple (default: the "
                                                "module's, else the host)"));
static cl::opt<std::string> CPU("mcpu",
                                cl::desc("Target CPU (default: the host's for "
                                         "the host triple, else generic)"));
static cl::opt<std::string>
    Attrs("mattr", cl::desc("Target features (+avx2,-avx512f,...); without "
                            "-mcpu and for the host triple, the host's"));
static cl::opt<std::string>
    ClOptions("cl-options",
              cl::desc("Build options for a .cl input and for "
                       "clcpu-kernels"),
              cl::init(""));
static cl::opt<std::string> Bind(
    "bind",
    cl::desc(
        "clcpu-kernels: build a launch-time specialization, the "
        "argument values as compiler::ArgBindings::key() writes them "
        "(\"bind KERNEL 0:image:ORDER:TYPE:SIZE:CHANNELS 1:sampler:BITS\")"),
    cl::init(""));
static cl::opt<bool> DisableOutput("disable-output", cl::desc("Print nothing"));
static cl::opt<bool> DebugPM("debug-pass-manager",
                             cl::desc("Print each pass as it runs"));

namespace {

/// The whole kernel pipeline (compiler/Pipeline.cpp lowerKernels) as a
/// module pass.
struct KernelsPass : PassInfoMixin<KernelsPass> {
  TargetMachine *TM;
  const Options *Opts;
  bool *Failed;
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    std::vector<KernelInfo> Kernels;
    size_t GlobalVarSize = 0;
    std::string Log;
    if (!lowerKernels(M, *TM, *Opts, Kernels, GlobalVarSize, Log))
      *Failed = true;
    errs() << Log;
    for (const KernelInfo &K : Kernels)
      errs() << "clcpu-opt: kernel " << K.Name << ": " << K.Path << "\n";
    return PreservedAnalyses::none();
  }
};

std::unique_ptr<Module> readInput(LLVMContext &Ctx, const Options &Opts) {
  if (!StringRef(Input).ends_with(".cl")) {
    SMDiagnostic Err;
    std::unique_ptr<Module> M = parseIRFile(Input, Err, Ctx);
    if (!M)
      Err.print("clcpu-opt", errs());
    return M;
  }
  auto Buf = MemoryBuffer::getFileOrSTDIN(Input);
  if (!Buf) {
    errs() << "clcpu-opt: " << Input << ": " << Buf.getError().message()
           << "\n";
    return nullptr;
  }
  std::string Log;
  std::unique_ptr<Module> M =
      compileSource(Ctx, (*Buf)->getBuffer().str(), Opts, {}, Log);
  errs() << Log;
  return M;
}

std::unique_ptr<TargetMachine> targetFor(Module &M) {
  if (!TripleName.empty())
    M.setTargetTriple(Triple::normalize(TripleName));
  if (M.getTargetTriple().empty())
    M.setTargetTriple(sys::getDefaultTargetTriple());
  std::string Err;
  const Target *T = TargetRegistry::lookupTarget(M.getTargetTriple(), Err);
  if (!T) {
    errs() << "clcpu-opt: " << Err << "\n";
    return nullptr;
  }
  bool Host = Triple(M.getTargetTriple()).getArch() ==
                  Triple(sys::getDefaultTargetTriple()).getArch() &&
              CPU.empty();
  std::string Cpu = !CPU.empty() ? CPU.getValue()
                    : Host       ? sys::getHostCPUName().str()
                                 : "generic";
  std::string Features = Attrs;
  if (Host && Features.empty()) {
    SmallVector<std::string, 64> F;
    for (const auto &[Name, On] : sys::getHostCPUFeatures())
      F.push_back((On ? "+" : "-") + Name.str());
    Features = join(F, ",");
  }
  // The front end stamps the host's CPU on every function it emits, and
  // the passes read these attributes (vector widths, gathers): for a .cl
  // input an explicit target replaces them, so that a test's output does
  // not depend on the host it runs on (an .ll input keeps what it says).
  if (StringRef(Input).ends_with(".cl") && (!CPU.empty() || !Attrs.empty()))
    for (Function &F : M)
      if (!F.isDeclaration()) {
        F.addFnAttr("target-cpu", Cpu);
        F.addFnAttr("target-features", Features);
      }
  return std::unique_ptr<TargetMachine>(T->createTargetMachine(
      M.getTargetTriple(), Cpu, Features, TargetOptions(), Reloc::PIC_,
      std::nullopt, CodeGenOptLevel::Aggressive));
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  InitializeNativeTarget();
  InitializeNativeTargetAsmPrinter();
  cl::ParseCommandLineOptions(argc, argv,
                              "clcpu-opt: clcpu's kernel passes on LLVM IR\n");
  // clcpu-kernels reports calls that resolve nowhere: the process's own
  // symbols and SLEEF's, as in the driver (compiler/Jit.cpp).
  sys::DynamicLibrary::LoadLibraryPermanently(nullptr);
  sleefLibrary();

  Options Opts;
  std::string OptErr;
  if (!parseOptions(ClOptions, Opts, OptErr)) {
    errs() << "clcpu-opt: " << OptErr << "\n";
    return 1;
  }
  if (!Bind.empty() && !parseArgBindings(Bind, Opts.Bindings)) {
    errs() << "clcpu-opt: malformed -bind value\n";
    return 1;
  }
  LLVMContext Ctx;
  std::unique_ptr<Module> M = readInput(Ctx, Opts);
  if (!M)
    return 1;
  std::unique_ptr<TargetMachine> TM = targetFor(*M);
  if (!TM)
    return 1;
  M->setDataLayout(TM->createDataLayout());

  AnalysisManagers AM;
  PassInstrumentationCallbacks PIC;
  StandardInstrumentations SI(Ctx, DebugPM);
  SI.registerCallbacks(PIC, &AM.MAM);
  // As compiler/Pipeline.cpp's optimizer: both vectorizers on.
  PipelineTuningOptions PTO;
  PTO.LoopVectorization = true;
  PTO.SLPVectorization = true;
  PassBuilder PB(TM.get(), PTO, std::nullopt, &PIC);
  configureKernelPipeline(PB);
  bool Failed = false;
  PB.registerPipelineParsingCallback(
      [&](StringRef Name, ModulePassManager &MPM,
          ArrayRef<PassBuilder::PipelineElement>) {
        if (Name != "clcpu-kernels")
          return false;
        MPM.addPass(KernelsPass{{}, TM.get(), &Opts, &Failed});
        return true;
      });
  AM.registerWith(PB);

  ModulePassManager MPM;
  if (!Passes.empty())
    if (Error E = PB.parsePassPipeline(MPM, Passes)) {
      errs() << "clcpu-opt: " << toString(std::move(E)) << "\n";
      return 1;
    }
  MPM.run(*M, AM.MAM);
  if (Failed)
    return 1;
  if (verifyModule(*M, &errs())) {
    errs() << "clcpu-opt: the result is not valid IR\n";
    return 1;
  }
  if (DisableOutput)
    return 0;
  std::error_code EC;
  ToolOutputFile Out(Output, EC, sys::fs::OF_Text);
  if (EC) {
    errs() << "clcpu-opt: " << Output << ": " << EC.message() << "\n";
    return 1;
  }
  M->print(Out.os(), nullptr);
  Out.keep();
  return 0;
}

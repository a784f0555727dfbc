//===- compiler/Pipeline.cpp - the kernel compiler's pipeline -------------===//
//
// A program's life in the compiler, each step with the file that does it:
//
//  1. OpenCL C → LLVM IR with in-process Clang        (Frontend.cpp)
//  2. the builtin library functions it calls linked in (LinkBuiltins.cpp),
//     enqueue_kernel's calls made the runtime's
//     (passes/DeviceEnqueueCalls.cpp), calls given their ABI
//     (passes/BuiltinCallAbi.cpp)
//  3. integer division made trap-free        (passes/SafeIntegerDivision.cpp)
//  4. a closed world: every helper inlined into the kernels     (this file),
//     private variables' volatile accesses ordinary
//                                       (passes/OrdinaryPrivateVolatiles.cpp)
//  5. one work-group function `wg_<K>` per kernel  (WorkGroupFunction.cpp,
//     regions in regions/, fibers in Barriers.cpp)
//  6. program-scope variables checked against the device limit  (this file)
//  7. the O3 pipeline with clcpu's passes at the vectorizer's start and the
//     optimizer's end (passes/, in Passes.def order)             (this file)
//  8. builtins without an implementation reported               (this file)
//  9. machine code, JIT-linked, frame sizes read     (Jit.cpp)
//
// lowerKernels runs steps 2 to 8; compiler/Jit.cpp's build() runs 1, this,
// then 9, with the kernel cache around them.

#include "compiler/Pipeline.h"

#include "compiler/LinkBuiltins.h"
#include "compiler/WorkGroupFunction.h"
#include "compiler/passes/BlockedStores.h"
#include "compiler/passes/BuiltinCallAbi.h"
#include "compiler/passes/CheckRangeVersioning.h"
#include "compiler/passes/ConsecutiveGathers.h"
#include "compiler/passes/CountedInnerLoops.h"
#include "compiler/passes/DeferFloatAdds.h"
#include "compiler/passes/DeviceEnqueueCalls.h"
#include "compiler/passes/GridStridePrefetch.h"
#include "compiler/passes/GuardedLoopBound.h"
#include "compiler/passes/InterleavedAccesses.h"
#include "compiler/passes/InvariantDivision.h"
#include "compiler/passes/LocalIdModulo.h"
#include "compiler/passes/MaskedStoreFastPath.h"
#include "compiler/passes/MathBuiltins.h"
#include "compiler/passes/NonTemporalStores.h"
#include "compiler/passes/OrdinaryPrivateVolatiles.h"
#include "compiler/passes/ParallelWorkItemLoops.h"
#include "compiler/passes/PassRegistry.h"
#include "compiler/passes/RuntimeConsecutiveGathers.h"
#include "compiler/passes/SafeIntegerDivision.h"
#include "compiler/passes/ScalarizeWorkItemLoops.h"
#include "compiler/passes/ScanLoopVectorize.h"
#include "compiler/passes/SubGroupStepInline.h"
#include "compiler/passes/UniformVectorPhis.h"
#include "compiler/passes/VnniDotProduct.h"
#include "compiler/passes/WorkGroupDebugInfo.h"
#include "compiler/passes/WorkItemLoopCheck.h"
#include "scheduler/DeviceEnqueue.h"
#include "scheduler/PipeRing.h"

#include <llvm/IR/DiagnosticHandler.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/DynamicLibrary.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/IPO/AlwaysInliner.h>
#include <llvm/Transforms/IPO/GlobalDCE.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/LoopUnrollPass.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <mutex>

using namespace llvm;

namespace clcpu::compiler {

namespace {

/// Swallows the vectorizer's remarks and its "loop not vectorized" warning
/// for a hinted x-loop it declined (the kernel then runs scalar, correctly);
/// everything else goes to the default handler.
struct QuietVectorizer : DiagnosticHandler {
  bool handleDiagnostics(const DiagnosticInfo &DI) override {
    return DI.getSeverity() == DS_Remark ||
           DI.getKind() == DK_OptimizationFailure;
  }
};

void enableOuterLoopVectorization() {
  // The vectorizer's VPlan-native path (outer loops with an explicit hint)
  // is behind a command-line option; set it once for this process.
  static std::once_flag Once;
  std::call_once(Once, [] {
    auto &Opts = cl::getRegisteredOptions();
    auto It = Opts.find("enable-vplan-native-path");
    if (It != Opts.end())
      static_cast<cl::opt<bool> *>(It->second)->setValue(true);
  });
}

/// The passes right before the loop vectorizer, which decides per loop.
void addVectorizerStartPasses(FunctionPassManager &FPM) {
  // The bounds-check mode: a work-item loop whose checks hold for the
  // whole group runs an unchecked copy, which the passes below and the
  // vectorizer then treat like the unchecked kernel.
  FPM.addPass(CheckRangeVersioningPass());
  // Before the vectorizer decides: `i / width` then widens.
  FPM.addPass(InvariantDivisionPass());
  // Before the vectorizer's dependence analysis: work-items of one loop do
  // not depend on each other, so no run-time alias checks.
  FPM.addPass(ParallelWorkItemLoopsPass());
  // Before float4 stores are split into scalars that would look like a
  // work-item's own block of elements.
  FPM.addPass(BlockedStoresPass());
  // The vectorizer widens scalars only: float4 arithmetic in x-loops split.
  FPM.addPass(ScalarizeWorkItemLoopsPass());
  // Hand-unrolled inner loops (a step of 2, 4 ...) in the form the native
  // path requires of them.
  FPM.addPass(CountedInnerLoopsPass());
  // Outer x-loops the native path cannot widen lose their hint.
  FPM.addPass(WorkItemLoopCheckPass());
  // After the check: the x-loop keeps the path the guard gave it (a loop
  // over k strided elements is faster scalar than as gathers), and its
  // inner loops lose their per-element bound checks.
  FPM.addPass(GuardedLoopBoundPass());
  // A loop that writes out a running sum (the second half of a
  // k-elements-per-work-item scan) is a recurrence the vectorizer leaves
  // scalar: this runs it VF iterations at a time, after the guard above has
  // gone from its body.
  FPM.addPass(ScanLoopVectorizePass());
  // Last, right before the vectorizer: remainders of the local id that
  // wrap inside a group are gathered through, not versioned on.
  FPM.addPass(LocalIdModuloPass());
}

/// The passes at the optimizer's end, which repair what vectorizing across
/// work-items leaves behind and pick the stores' forms.
void addOptimizerLastPasses(ModulePassManager &MPM) {
  // Sub-group stretches: their collective steps, after the vectorizer made
  // each of their regions one vector per sub-group.
  MPM.addPass(SubGroupStepInlinePass());
  FunctionPassManager FPM;
  // Uniform inner-loop values the outer-loop path widened become scalars
  // again; InstCombine folds what hangs off them (splat arithmetic, gathers
  // of one address).
  FPM.addPass(UniformVectorPhisPass());
  FPM.addPass(InstCombinePass());
  // Byte dot products the work-item loop widened into multiply-adds become
  // one VNNI instruction per vector, where the target has one.
  FPM.addPass(VnniDotProductPass());
  // Gathers of adjacent elements become vector loads.
  FPM.addPass(ConsecutiveGathersPass());
  FPM.addPass(InstCombinePass());
  // The gathers (scatters) of a struct's fields, an RGBA texel's channels,
  // become one wide load (store) when the lanes' structs are adjacent.
  FPM.addPass(InterleavedAccessesPass());
  // Before the gathers split into their checked forms: a grid-stride loop's
  // loads prefetch the group's run a few strides ahead.
  FPM.addPass(GridStridePrefetchPass());
  // What is adjacent only at run time (`s[(lid + 1) % WG]`) checks its
  // lanes and takes a vector load when they are.
  FPM.addPass(RuntimeConsecutiveGathersPass());
  // Only the loops the pass above gave a count: the main pipeline's
  // unrolling ran before.
  FPM.addPass(LoopUnrollPass(LoopUnrollOptions(/*OptLevel=*/3,
                                               /*OnlyWhenForced=*/true,
                                               /*ForgetSCEV=*/false)));
  // Sinks the gathers' vector address arithmetic into their blocks.
  FPM.addPass(InstCombinePass());
  // AVX2's masked stores are microcoded on AMD: a mask that is all on or
  // all off at run time takes a plain store or none.
  FPM.addPass(MaskedStoreFastPathPass());
  // Last: InstCombine would not undo it, but it should see the final
  // stores (passes/NonTemporalStores.cpp).
  FPM.addPass(NonTemporalStoresPass());
  // Relaxed float atomic adds nothing else in the kernel touches are
  // queued per thread and applied in batches (passes/DeferFloatAdds.cpp).
  FPM.addPass(DeferFloatAddsPass());
  MPM.addPass(createModuleToFunctionPassAdaptor(std::move(FPM)));
}

/// Runs \p M through the O3 pipeline configured for work-group functions
/// (\p Full), or through the inliner alone; the inliner alone expands the
/// checks (the bounds-check mode's, the image builtins' coordinate checks)
/// only when it is the \p Last optimization: before the work-group
/// functions exist, CheckRangeVersioning would find no work-item loop to
/// test them for.
void optimize(Module &M, TargetMachine &TM, bool Full, bool Last) {
  AnalysisManagers AM;
  PipelineTuningOptions PTO;
  PTO.LoopVectorization = Full;
  PTO.SLPVectorization = Full;
  PassBuilder PB(&TM, PTO);
  if (Full)
    configureKernelPipeline(PB);
  AM.registerWith(PB);
  ModulePassManager MPM;
  if (Full)
    MPM = PB.buildPerModuleDefaultPipeline(OptimizationLevel::O3);
  else {
    MPM.addPass(AlwaysInlinerPass());
    MPM.addPass(GlobalDCEPass()); // the inlined kernels' originals go
    // The checks are calls until this pass expands them (at the
    // vectorizer's start in the full pipeline).
    if (Last)
      MPM.addPass(
          createModuleToFunctionPassAdaptor(CheckRangeVersioningPass()));
  }
  MPM.run(M, AM.MAM);
}

/// Step 4: a program is a closed world. A kernel may call another kernel
/// (OpenCL C 6.9: "a kernel function is a function ... that can also be
/// called by other kernel functions"): the call goes to an ordinary copy of
/// the callee, which inlines like any helper, so its work-item functions are
/// the caller's work-item's. Every helper is then inlined into the kernels
/// and disappears. Returns the kernels.
SmallVector<Function *, 8> closeWorld(Module &M, TargetMachine &TM) {
  SmallVector<Function *, 8> Kernels;
  for (Function &F : M)
    if (isKernel(F))
      Kernels.push_back(&F);
  for (Function *F : Kernels) {
    SmallVector<CallInst *, 4> Calls;
    for (User *U : F->users())
      if (auto *CI = dyn_cast<CallInst>(U); CI && CI->getCalledFunction() == F)
        Calls.push_back(CI);
    if (Calls.empty())
      continue;
    ValueToValueMapTy VMap;
    Function *Callee = CloneFunction(F, VMap);
    Callee->setName(F->getName() + ".as_function");
    Callee->setCallingConv(CallingConv::C);
    Callee->clearMetadata();
    for (CallInst *CI : Calls) {
      CI->setCalledFunction(Callee);
      CI->setCallingConv(CallingConv::C);
    }
  }
  for (Function &F : M) {
    if (F.isDeclaration() || isKernel(F))
      continue;
    F.removeFnAttr(Attribute::NoInline);
    F.removeFnAttr(Attribute::OptimizeNone);
    F.addFnAttr(Attribute::AlwaysInline);
    F.setLinkage(GlobalValue::InternalLinkage);
  }
  optimize(M, TM, /*Full=*/false, /*Last=*/false);
  return Kernels;
}

/// Step 6: the bytes of \p M's program-scope variables (not the kernels'
/// __local ones); false, with the reason in \p Log, if one is larger than
/// CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE.
bool sizeGlobalVariables(const Module &M, ArrayRef<KernelInfo> Kernels,
                         size_t &GlobalVarSize, std::string &Log) {
  const DataLayout &DL = M.getDataLayout();
  bool Ok = true;
  GlobalVarSize = 0;
  for (const GlobalVariable &G : M.globals()) {
    if (G.isDeclaration() || G.isConstant() || G.getName().starts_with("llvm."))
      continue;
    bool Local = false;
    for (const KernelInfo &K : Kernels)
      Local |= isKernelLocalVariable(G, K.Name);
    if (Local)
      continue;
    uint64_t Size = DL.getTypeAllocSize(G.getValueType());
    // CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE: "the maximum number of bytes of
    // storage that may be allocated for any single variable in program
    // scope".
    if (Size > MaxGlobalVariableSize) {
      Log += "error: program-scope variable '" + G.getName().str() +
             "' needs " + std::to_string(Size) +
             " bytes, more than CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE (" +
             std::to_string(MaxGlobalVariableSize) + ")\n";
      Ok = false;
    }
    GlobalVarSize += Size;
  }
  return Ok;
}

/// Step 8: every function still only declared must be one the JIT can
/// resolve: an OpenCL builtin left as a declaration has no implementation.
bool checkUnresolved(const Module &M, std::string &Log) {
  bool Ok = true;
  for (const Function &F : M) {
    if (!F.isDeclaration() || F.isIntrinsic() || F.use_empty())
      continue;
    // Defined by the JIT (compiler/Jit.cpp).
    if (F.getName() == DeferredAddF32 || F.getName() == DeferredAddF64 ||
        any_of(PipeRingSymbols,
               [&](const PipeRingSymbol &S) { return F.getName() == S.Name; }) ||
        isDeviceEnqueueSymbol(F.getName().data(), F.getName().size()))
      continue;
    if (F.getName().starts_with("_Z")) {
      Log += "error: builtin function '" + baseName(F.getName()).str() + "' (" +
             F.getName().str() + ") is not supported yet by clcpu\n";
      Ok = false;
    } else if (!sys::DynamicLibrary::SearchForAddressOfSymbol(
                   F.getName().str())) {
      // Neither defined by the program nor a C library function the code
      // generator may call (memcpy, sinf, ...).
      Log += "error: undefined function '" + F.getName().str() + "'\n";
      Ok = false;
    }
  }
  return Ok;
}

} // namespace

bool parseArgBindings(const std::string &Text, ArgBindings &Out) {
  Out = ArgBindings();
  std::vector<std::string> Tok;
  for (StringRef Rest = Text; !Rest.trim().empty();) {
    auto [Word, Tail] = Rest.ltrim().split(' ');
    Tok.push_back(Word.str());
    Rest = Tail;
  }
  if (Tok.size() < 2 || Tok[0] != "bind")
    return false;
  Out.Kernel = Tok[1];
  for (size_t I = 2; I < Tok.size(); ++I) {
    std::vector<uint64_t> N;
    std::string Kind;
    size_t Pos = 0;
    for (int Field = 0; Pos <= Tok[I].size(); ++Field) {
      size_t End = Tok[I].find(':', Pos);
      std::string F = Tok[I].substr(
          Pos, End == std::string::npos ? std::string::npos : End - Pos);
      if (Field == 1)
        Kind = F;
      else if (F.empty() || F.size() > 10 ||
               F.find_first_not_of("0123456789") != std::string::npos)
        return false;
      else
        N.push_back(std::stoull(F));
      if (End == std::string::npos)
        break;
      Pos = End + 1;
    }
    if (Kind == "image" && N.size() == 5)
      Out.Images.push_back({unsigned(N[0]), uint32_t(N[1]), uint32_t(N[2]),
                            uint32_t(N[3]), uint32_t(N[4])});
    else if (Kind == "sampler" && N.size() == 2)
      Out.Samplers.push_back({unsigned(N[0]), uint32_t(N[1])});
    else
      return false;
  }
  return true;
}

void configureKernelPipeline(PassBuilder &PB) {
  enableOuterLoopVectorization();
  registerPasses(PB);
  PB.registerVectorizerStartEPCallback(
      [](FunctionPassManager &FPM, OptimizationLevel) {
        addVectorizerStartPasses(FPM);
      });
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        addOptimizerLastPasses(MPM);
      });
}

void AnalysisManagers::registerWith(PassBuilder &PB) {
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
}

bool lowerKernels(Module &M, TargetMachine &TM, const Options &Opts,
                  std::vector<KernelInfo> &Kernels, size_t &GlobalVarSize,
                  std::string &Log) {
  M.setDataLayout(TM.createDataLayout());
  ModuleAnalysisManager NoAnalyses; // the passes here request none
  if (!linkBuiltins(M, Log))
    return false;
  // enqueue_kernel: calls of the runtime naming the blocks' kernels, which
  // are compiled below like the program's (passes/DeviceEnqueueCalls.cpp).
  DeviceEnqueueCallsPass(Opts.Debug).run(M, NoAnalyses);
  // Calls of a translated SPIR-V module pass wide vectors as values where
  // the library takes them in memory (passes/BuiltinCallAbi.cpp).
  BuiltinCallAbiPass().run(M, NoAnalyses);
  SafeIntegerDivisionPass().run(M, NoAnalyses);
  SmallVector<Function *, 8> KernelFns = closeWorld(M, TM);
  // With every helper inlined, a volatile access through a pointer
  // parameter shows the private variable it reaches; the kernel bodies'
  // own SROA (compiler/PromotePrivates.cpp, the O3 pipeline) then makes
  // such variables SSA values (passes/OrdinaryPrivateVolatiles.cpp).
  OrdinaryPrivateVolatilesPass().run(M, NoAnalyses);
  MathBuiltinsPass().run(M, NoAnalyses);

  bool Ok = true;
  for (Function *F : KernelFns) {
    KernelInfo K;
    if (!formWorkGroupFunction(M, *F, KernelFns, Opts, K, Log)) {
      Ok = false;
      continue;
    }
    F->setLinkage(GlobalValue::InternalLinkage);
    Kernels.push_back(std::move(K));
  }
  if (!Ok || !sizeGlobalVariables(M, Kernels, GlobalVarSize, Log))
    return false;
  // -g: the kernels' source lines and variables in the functions they
  // became.
  WorkGroupDebugInfoPass().run(M, NoAnalyses);

  std::string VerifyMsg;
  raw_string_ostream VOS(VerifyMsg);
  if (verifyModule(M, &VOS)) {
    Log += "internal error: invalid work-group function IR: " + VOS.str();
    return false;
  }
  // -cl-opt-disable: only the inliner the work-group functions need.
  M.getContext().setDiagnosticHandler(std::make_unique<QuietVectorizer>());
  optimize(M, TM, /*Full=*/!Opts.OptDisable, /*Last=*/true);
  return checkUnresolved(M, Log);
}

} // namespace clcpu::compiler

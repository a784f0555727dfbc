//===- compiler/LinkBuiltins.cpp - link the OpenCL C builtin library ------===//
//
// The builtin library (builtins/*.cl) is LLVM bitcode embedded in the driver.
// Only the functions a program references (and what they call) are linked
// in; they become internal, always-inline helpers like the program's own.
//
// Math functions the SLEEF library provides (builtins/math.cl calls its
// scalar Sleef_* functions) get SLEEF's SIMD variants for the host's ISA as
// "vector-function-abi-variant"s, so LoopVectorize widens a loop calling
// sin() into calls of, e.g., Sleef_sinf16_u10avx512f.

#include "compiler/LinkBuiltins.h"

#include "compiler/Compiler.h"
#include "scheduler/PipeRing.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringSet.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/DynamicLibrary.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>

#include <dlfcn.h>
#include <mutex>
#include <set>

// builtins/Embed.cpp.in: one library per vector-argument ABI.
extern "C" const char clcpu_builtins_sse2[], clcpu_builtins_avx[],
    clcpu_builtins_avx512[];
extern "C" const unsigned long long clcpu_builtins_sse2_size,
    clcpu_builtins_avx_size, clcpu_builtins_avx512_size;

// libsleef (linked into the driver): one of its symbols locates the library.
extern "C" float Sleef_sinf_u10(float);

using namespace llvm;

namespace clcpu::compiler {

const std::string &sleefLibrary() {
  static std::string Path;
  static std::once_flag Once;
  std::call_once(Once, [] {
    Dl_info Info;
    if (dladdr(reinterpret_cast<void *>(&Sleef_sinf_u10), &Info) &&
        Info.dli_fname &&
        !sys::DynamicLibrary::LoadLibraryPermanently(Info.dli_fname))
      Path = Info.dli_fname;
  });
  return Path;
}

namespace {
/// The enabled target features ("avx2", ...) of \p M's code.
StringSet<> featuresOf(const Module &M) {
  StringSet<> Set;
  for (const Function &F : M) {
    if (F.isDeclaration() || !F.hasFnAttribute("target-features"))
      continue;
    StringRef Features = F.getFnAttribute("target-features").getValueAsString();
    for (StringRef Feature : llvm::split(Features, ','))
      if (Feature.consume_front("+"))
        Set.insert(Feature);
    break;
  }
  return Set;
}

/// The library built for the same x86-64 vector ABI as \p M's code: vectors
/// wider than 16 bytes travel in registers only with AVX (32 bytes) or
/// AVX-512F (64 bytes), so the caller's features pick the library.
StringRef libraryFor(const StringSet<> &Features) {
  if (Features.contains("avx512f"))
    return StringRef(clcpu_builtins_avx512, clcpu_builtins_avx512_size);
  if (Features.contains("avx"))
    return StringRef(clcpu_builtins_avx, clcpu_builtins_avx_size);
  return StringRef(clcpu_builtins_sse2, clcpu_builtins_sse2_size);
}

/// SLEEF's SIMD variants of scalar function \p F (`Sleef_sinf_u10`:
/// float, or `Sleef_sin_u10`: double) that \p Features can run, widest
/// first, as (lanes, name): `Sleef_sinf16_u10avx512f`, `Sleef_sinf8_u10avx2`,
/// ... Only those the loaded library defines.
SmallVector<std::pair<unsigned, std::string>, 3>
sleefVariants(const Function &F, const StringSet<> &Features) {
  SmallVector<std::pair<unsigned, std::string>, 3> Out;
  Type *Ty = F.getReturnType();
  if (!Ty->isFloatTy() && !Ty->isDoubleTy())
    return Out;
  for (const Argument &A : F.args())
    if (A.getType() != Ty)
      return Out;
  bool Float = Ty->isFloatTy();
  StringRef Name = F.getName();
  size_t Sep = Name.rfind('_');
  if (!Name.starts_with("Sleef_") || Sep == StringRef::npos || Sep < 6)
    return Out;
  StringRef Base = Name.slice(6, Sep), Accuracy = Name.substr(Sep + 1);
  if (Float && !Base.consume_back("f"))
    return Out;
  bool Avx2 = Features.contains("avx2") && Features.contains("fma");
  // (lanes of a float vector, ISA suffix); doubles have half the lanes.
  SmallVector<std::pair<unsigned, const char *>, 3> Isas;
  if (Features.contains("avx512f"))
    Isas.push_back({16, "avx512f"});
  if (Avx2)
    Isas.push_back({8, "avx2"});
  else if (Features.contains("avx"))
    Isas.push_back({8, "avx"});
  if (Avx2)
    Isas.push_back({4, "avx2128"}); // VEX-encoded: no SSE/AVX transitions
  else if (Features.contains("sse4.1"))
    Isas.push_back({4, "sse4"});
  else
    Isas.push_back({4, "sse2"});
  for (auto [Lanes, Isa] : Isas) {
    unsigned N = Float ? Lanes : Lanes / 2;
    std::string V = ("Sleef_" + Base + (Float ? "f" : "d") + Twine(N) + "_" +
                     Accuracy + Isa)
                        .str();
    if (sys::DynamicLibrary::SearchForAddressOfSymbol(V))
      Out.push_back({N, V});
  }
  return Out;
}

/// -cl-unsafe-math-optimizations (and -cl-fast-relaxed-math) relax float
/// sin, cos and tan to an absolute error of 2^-11 and asin, acos, atan,
/// atan2 to 4096 ulp (OpenCL 3.0 environment, 7.4, table 38): SLEEF's
/// 3.5-ulp functions, about twice as fast, replace the 1.0-ulp ones.
void relaxFloatFunctions(Module &M) {
  for (const char *Name :
       {"sinf", "cosf", "tanf", "asinf", "acosf", "atanf", "atan2f"}) {
    Function *F = M.getFunction(std::string("Sleef_") + Name + "_u10");
    std::string Fast = std::string("Sleef_") + Name + "_u35";
    if (!F || !F->isDeclaration() ||
        !sys::DynamicLibrary::SearchForAddressOfSymbol(Fast))
      continue;
    FunctionCallee G =
        M.getOrInsertFunction(Fast, F->getFunctionType(), F->getAttributes());
    F->replaceAllUsesWith(G.getCallee());
    F->eraseFromParent();
  }
}

/// Declares the SIMD variants of every Sleef_* function \p M calls and
/// names them in the function's "vector-function-abi-variant" attribute
/// (LLVM's VFABI: `_ZGV_LLVM_N16v_Sleef_sinf_u10(Sleef_sinf16_u10avx512f)`),
/// where the loop and SLP vectorizers find them.
void addSleefVariants(Module &M, const StringSet<> &Features, bool Relaxed) {
  if (sleefLibrary().empty())
    return;
  if (Relaxed)
    relaxFloatFunctions(M);
  LLVMContext &C = M.getContext();
  SmallVector<GlobalValue *, 16> Used;
  for (Function &F : M) {
    if (!F.isDeclaration() || !F.getName().starts_with("Sleef_") ||
        F.use_empty())
      continue;
    // Pure functions of their arguments: vectorizable, speculatable calls.
    auto Pure = [](Function &G) {
      G.removeFnAttr(Attribute::Convergent);
      G.setDoesNotAccessMemory();
      G.setDoesNotThrow();
      G.setWillReturn();
      G.setNoSync();
      G.setDoesNotFreeMemory();
    };
    Pure(F);
    std::string Mappings;
    for (auto &[N, VName] : sleefVariants(F, Features)) {
      Type *VTy = FixedVectorType::get(F.getReturnType(), N);
      SmallVector<Type *, 2> Params(F.arg_size(), VTy);
      FunctionCallee VF =
          M.getOrInsertFunction(VName, FunctionType::get(VTy, Params, false));
      auto *VFn = dyn_cast<Function>(VF.getCallee());
      if (!VFn)
        continue;
      Pure(*VFn);
      Used.push_back(VFn);
      Mappings += (Mappings.empty() ? "" : ",") +
                  ("_ZGV_LLVM_N" + Twine(N) + std::string(F.arg_size(), 'v') +
                   "_" + F.getName() + "(" + VName + ")")
                      .str();
    }
    if (Mappings.empty())
      continue;
    Attribute A = Attribute::get(C, "vector-function-abi-variant", Mappings);
    F.addFnAttr(A);
    for (User *U : F.users())
      if (auto *CB = dyn_cast<CallBase>(U))
        if (CB->getCalledFunction() == &F) {
          CB->removeFnAttr(Attribute::Convergent);
          CB->addFnAttr(A);
        }
  }
  // The declarations must survive until the vectorizers run.
  if (!Used.empty())
    appendToCompilerUsed(M, Used);
}
} // namespace

bool linkBuiltins(Module &M, std::string &Log) {
  bool Needed = false;
  std::set<std::string> Defined;
  for (const Function &F : M) {
    if (!F.isDeclaration())
      Defined.insert(F.getName().str());
    else if (!F.isIntrinsic() && !F.use_empty())
      Needed = true;
  }
  if (!Needed)
    return true;
  StringSet<> Features = featuresOf(M);
  // The program's own functions carry its floating-point options.
  bool Relaxed = false;
  for (const Function &F : M)
    if (!F.isDeclaration()) {
      Relaxed = F.getFnAttribute("unsafe-fp-math").getValueAsString() == "true";
      break;
    }
  MemoryBufferRef Buf(libraryFor(Features), "clcpu_builtins");
  Expected<std::unique_ptr<Module>> Lib =
      getLazyBitcodeModule(Buf, M.getContext());
  if (!Lib) {
    Log +=
        "internal error: builtin library: " + toString(Lib.takeError()) + "\n";
    return false;
  }
  (*Lib)->setTargetTriple(M.getTargetTriple());
  (*Lib)->setDataLayout(M.getDataLayout());
  if (Linker::linkModules(M, std::move(*Lib), Linker::LinkOnlyNeeded)) {
    Log += "internal error: cannot link the builtin library\n";
    return false;
  }
  // Library functions never synchronize work-items: `convergent` (which
  // OpenCL C puts on every function and call) would only block
  // optimizations.
  for (Function &F : M) {
    if (F.isDeclaration() || Defined.count(F.getName().str()))
      continue;
    F.removeFnAttr(Attribute::Convergent);
    for (BasicBlock &BB : F)
      for (Instruction &I : BB)
        if (auto *CB = dyn_cast<CallBase>(&I))
          CB->removeFnAttr(Attribute::Convergent);
  }
  addSleefVariants(M, Features, Relaxed);
  // The pipe layout functions (scheduler/PipeRing.h) read what never
  // changes after the pipe is created, and a pipe argument is always a
  // pipe: calls of them may run anywhere in the kernel, so LICM takes
  // them out of the work-item loop even from the branch that copies the
  // packets.
  for (const PipeRingSymbol &S : PipeRingSymbols)
    if (S.Layout)
      if (Function *F = M.getFunction(S.Name); F && F->isDeclaration()) {
        F->setDoesNotAccessMemory();
        F->setDoesNotThrow();
        F->setWillReturn();
        F->addFnAttr(Attribute::Speculatable);
        F->removeFnAttr(Attribute::Convergent);
      }
  return true;
}

} // namespace clcpu::compiler

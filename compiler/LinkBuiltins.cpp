//===- compiler/LinkBuiltins.cpp - link the OpenCL C builtin library ------===//
//
// The builtin library (builtins/*.cl) is LLVM bitcode embedded in the driver.
// Only the functions a program references (and what they call) are linked
// in; they become internal, always-inline helpers like the program's own.

#include "compiler/Internal.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>

#include <set>

// builtins/Embed.cpp.in: one library per vector-argument ABI.
extern "C" const char clcpu_builtins_sse2[], clcpu_builtins_avx[],
    clcpu_builtins_avx512[];
extern "C" const unsigned long long clcpu_builtins_sse2_size,
    clcpu_builtins_avx_size, clcpu_builtins_avx512_size;

using namespace llvm;

namespace clcpu::compiler {

namespace {
/// The library built for the same x86-64 vector ABI as \p M's code: vectors
/// wider than 16 bytes travel in registers only with AVX (32 bytes) or
/// AVX-512F (64 bytes), so the caller's features pick the library.
StringRef libraryFor(const Module &M) {
  bool Avx = false, Avx512 = false;
  for (const Function &F : M) {
    if (F.isDeclaration() || !F.hasFnAttribute("target-features"))
      continue;
    StringRef Features = F.getFnAttribute("target-features").getValueAsString();
    for (StringRef Feature : llvm::split(Features, ',')) {
      Avx |= Feature == "+avx";
      Avx512 |= Feature == "+avx512f";
    }
    break;
  }
  if (Avx512)
    return StringRef(clcpu_builtins_avx512, clcpu_builtins_avx512_size);
  if (Avx)
    return StringRef(clcpu_builtins_avx, clcpu_builtins_avx_size);
  return StringRef(clcpu_builtins_sse2, clcpu_builtins_sse2_size);
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
  MemoryBufferRef Buf(libraryFor(M), "clcpu_builtins");
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
  return true;
}

} // namespace clcpu::compiler

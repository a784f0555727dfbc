//===- SpirvBuiltinNames.cpp - SPIR mangled names to the host's -----------===//
//
// The SPIR-V translator (compiler/Spirv.cpp, --spirv-target-env=CL2.0)
// turns the OpenCL extended instructions and the core instructions with an
// OpenCL C equivalent into calls of OpenCL C functions, mangled as SPIR
// mangles them: address spaces are the vendor qualifiers `U3AS1` (global),
// `U3AS2` (constant), `U3AS3` (local), `U3AS4` (generic), and a pointer to
// private memory has none (`_Z5fractfPf`). The front end compiles OpenCL C
// for the host target, where Clang spells them `U8CLglobal`,
// `U10CLconstant`, `U7CLlocal`, `U9CLgeneric` and `U9CLprivate`; the
// builtin library (builtins/) has those names.
//
// Each function's name is rewritten: a vendor qualifier keeps its place (one
// substitution candidate for another, so the `S<n>_` references that follow
// stay right); a private pointer gains a qualifier, which adds a candidate,
// so it is added only where no substitution follows it (otherwise the name
// stays, and the build reports the call as a builtin without an
// implementation). A function the module defines is renamed too: it may be
// called by, or call into, an OpenCL C object it is linked with.
//
// printf (the OpenCL.std extended instruction) is called with its operands
// as they are; C's variadic calls, which the front end emits and the
// driver's printf reads (compiler/Printf.cpp), promote float and half
// arguments to double (the default argument promotions): the translated
// calls get the same promotion.

#include "compiler/passes/SpirvBuiltinNames.h"

#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Debug.h>

#include <cctype>

using namespace llvm;

#define DEBUG_TYPE "clcpu-spirv-builtin-names"

namespace clcpu::compiler {

namespace {
/// The host's spelling of SPIR address-space qualifier \p Qual ("AS1").
StringRef hostQualifier(StringRef Qual) {
  if (Qual == "AS1")
    return "8CLglobal";
  if (Qual == "AS2")
    return "10CLconstant";
  if (Qual == "AS3")
    return "7CLlocal";
  if (Qual == "AS4")
    return "9CLgeneric";
  if (Qual == "AS0")
    return "9CLprivate";
  return "";
}

/// Reads the decimal number at \p S[I], advancing \p I; false if none.
bool readNumber(StringRef S, size_t &I, size_t &N) {
  size_t Start = I;
  N = 0;
  while (I < S.size() && std::isdigit(static_cast<unsigned char>(S[I]))) {
    N = N * 10 + (S[I] - '0');
    if (N > S.size())
      return false;
    ++I;
  }
  return I > Start;
}
} // namespace

std::string hostMangledName(StringRef Name) {
  if (!Name.starts_with("_Z"))
    return Name.str();
  size_t I = 2, Len = 0;
  // The function's own name, then its parameters.
  if (!readNumber(Name, I, Len) || I + Len > Name.size())
    return Name.str();
  I += Len;
  std::string Out = Name.substr(0, I).str();
  bool PendingPrivate = false; // a private qualifier was added
  while (I < Name.size()) {
    char C = Name[I];
    if (std::isdigit(static_cast<unsigned char>(C))) {
      size_t Start = I;
      if (!readNumber(Name, I, Len) || I + Len > Name.size())
        return Name.str();
      I += Len;
      Out += Name.slice(Start, I);
    } else if (C == 'U') { // vendor qualifier: U<len><name>
      size_t Start = I++;
      if (!readNumber(Name, I, Len) || I + Len > Name.size())
        return Name.str();
      StringRef Qual = Name.substr(I, Len);
      I += Len;
      StringRef Host = hostQualifier(Qual);
      Out += Host.empty() ? Name.slice(Start, I).str() : ("U" + Host).str();
    } else if (C == 'P') {
      ++I;
      Out += 'P';
      if (I < Name.size() && Name[I] != 'U') {
        Out += "U9CLprivate";
        PendingPrivate = true;
      }
    } else if (C == 'D' && I + 1 < Name.size() && Name[I + 1] == 'v') {
      // Dv<lanes>_<element>: the lane count is no length prefix.
      size_t Start = I;
      I += 2;
      if (!readNumber(Name, I, Len) || I >= Name.size() || Name[I] != '_')
        return Name.str();
      ++I;
      Out += Name.slice(Start, I);
    } else if (C == 'D' || C == 'S') {
      // Dh and the like; S_ / S<seq>_ substitutions.
      if (C == 'S' && PendingPrivate)
        return Name.str(); // its index may have moved
      size_t Start = I++;
      if (C == 'S')
        while (I < Name.size() && Name[I - 1] != '_')
          ++I;
      else
        ++I;
      Out += Name.slice(Start, std::min(I, Name.size()));
    } else {
      Out += C;
      ++I;
    }
  }
  return Out;
}

namespace {
/// Promotes the float and half variadic arguments of \p M's printf calls to
/// double. True if any changed.
bool promotePrintfArguments(Module &M) {
  Function *Printf = M.getFunction("printf");
  if (!Printf || !Printf->isVarArg())
    return false;
  bool Changed = false;
  unsigned Fixed = Printf->getFunctionType()->getNumParams();
  for (User *U : Printf->users()) {
    auto *Call = dyn_cast<CallInst>(U);
    if (!Call || Call->getCalledFunction() != Printf)
      continue;
    for (unsigned I = Fixed; I < Call->arg_size(); ++I) {
      Value *A = Call->getArgOperand(I);
      if (!A->getType()->isFloatTy() && !A->getType()->isHalfTy())
        continue;
      Call->setArgOperand(I, new FPExtInst(A, Type::getDoubleTy(M.getContext()),
                                           "", Call->getIterator()));
      Changed = true;
    }
  }
  return Changed;
}
} // namespace

PreservedAnalyses SpirvBuiltinNamesPass::run(Module &M,
                                             ModuleAnalysisManager &) {
  bool Changed = promotePrintfArguments(M);
  SmallVector<Function *, 32> Fns;
  for (Function &F : M)
    if (!F.isIntrinsic() && F.getCallingConv() != CallingConv::SPIR_KERNEL)
      Fns.push_back(&F);
  for (Function *F : Fns) {
    std::string New = hostMangledName(F->getName());
    if (New == F->getName())
      continue;
    LLVM_DEBUG(dbgs() << F->getName() << " -> " << New << "\n");
    Changed = true;
    if (Function *Existing = M.getFunction(New)) {
      // Two SPIR spellings of one function (the translator declared both).
      if (Existing->getFunctionType() == F->getFunctionType() &&
          F->isDeclaration()) {
        F->replaceAllUsesWith(Existing);
        F->eraseFromParent();
      }
      continue;
    }
    F->setName(New);
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace clcpu::compiler

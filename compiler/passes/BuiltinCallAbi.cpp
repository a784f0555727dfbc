//===- BuiltinCallAbi.cpp - calls in the builtin library's ABI ------------===//
//
// The builtin library (builtins/) is OpenCL C compiled by Clang, which
// lowers each function for the x86-64 ABI of its target features: a vector
// wider than the widest vector register (a double16 with AVX-512, a float16
// without it) is passed in memory, the IR parameter a pointer with
// byval(<16 x double>). The front end lowers a program's calls the same
// way, so its calls match the library's definitions. A module translated
// from SPIR-V (compiler/Spirv.cpp) calls with the values themselves:
// `call <16 x double> @_Z3sinDv16_d(<16 x double> %x)`. Linked against the
// library's `@_Z3sinDv16_d(ptr byval(<16 x double>))`, such a call has
// another type than its callee, which the inliner refuses and the code
// generator lowers as the call's own type: the callee reads a pointer that
// is a vector register.
//
// Each direct call whose function type differs from its callee's is given
// the callee's: an argument the callee takes byval(T) where the call
// passes a T is stored in a stack slot of the caller (its entry block) and
// the slot passed; the call takes the callee's attributes and calling
// convention. A call that differs otherwise (another return type, a
// different parameter) is left alone.

#include "compiler/passes/BuiltinCallAbi.h"

#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Debug.h>

using namespace llvm;

#define DEBUG_TYPE "clcpu-builtin-call-abi"

namespace clcpu::compiler {

namespace {
/// Rewrites \p Call to \p Callee's type; false if it cannot.
bool adaptCall(CallInst &Call, Function &Callee) {
  FunctionType *FT = Callee.getFunctionType();
  if (FT->isVarArg() || FT->getNumParams() != Call.arg_size() ||
      FT->getReturnType() != Call.getType())
    return false;
  for (unsigned I = 0; I < Call.arg_size(); ++I) {
    Type *Have = Call.getArgOperand(I)->getType();
    if (Have != FT->getParamType(I) && Callee.getParamByValType(I) != Have)
      return false;
  }
  Function &Caller = *Call.getFunction();
  IRBuilder<> Entry(&*Caller.getEntryBlock().getFirstInsertionPt());
  IRBuilder<> B(&Call);
  SmallVector<Value *, 8> Args;
  for (unsigned I = 0; I < Call.arg_size(); ++I) {
    Value *A = Call.getArgOperand(I);
    if (A->getType() == FT->getParamType(I)) {
      Args.push_back(A);
      continue;
    }
    MaybeAlign Align = Callee.getParamAlign(I);
    AllocaInst *Slot = Entry.CreateAlloca(A->getType());
    if (Align && *Align > Slot->getAlign())
      Slot->setAlignment(*Align);
    B.CreateAlignedStore(A, Slot, Slot->getAlign());
    Args.push_back(Slot);
  }
  CallInst *New = B.CreateCall(FT, &Callee, Args);
  New->setAttributes(Callee.getAttributes());
  New->setCallingConv(Callee.getCallingConv());
  New->takeName(&Call);
  Call.replaceAllUsesWith(New);
  Call.eraseFromParent();
  return true;
}
} // namespace

PreservedAnalyses BuiltinCallAbiPass::run(Module &M, ModuleAnalysisManager &) {
  SmallVector<std::pair<CallInst *, Function *>, 8> Mismatched;
  for (Function &F : M)
    for (User *U : F.users())
      if (auto *Call = dyn_cast<CallInst>(U);
          Call && Call->getCalledOperand() == &F &&
          Call->getFunctionType() != F.getFunctionType())
        Mismatched.push_back({Call, &F});
  bool Changed = false;
  for (auto [Call, F] : Mismatched) {
    bool Done = adaptCall(*Call, *F);
    LLVM_DEBUG(dbgs() << (Done ? "adapted" : "left") << " a call of "
                      << F->getName() << "\n");
    Changed |= Done;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace clcpu::compiler

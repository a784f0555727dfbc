//===- WorkItemDebugVariables.cpp - work-item ids for debuggers -----------===//
//
// Stopped in a kernel, the first question is which work-item this is. A
// kernel body built with -g (its code has debug locations) gets three
// artificial variables of the kernel's scope, each a size_t[3] held in
// private memory and filled at the body's entry:
//
//   __global_id  get_global_id(0..2)
//   __local_id   get_local_id(0..2)
//   __group_id   get_group_id(0..2)
//
// so that `print __global_id` in gdb answers it. The names are reserved
// to the implementation (C11 7.1.3), so no kernel variable can clash. The
// calls become context loads and local-id arithmetic like any other
// (clcpu-work-item-calls, which runs next). With optimization, SROA turns
// the variables into values only debug records use: they cost nothing
// and show as optimized out where the code has no copy left; with
// -cl-opt-disable they stay in memory, always readable.

#include "compiler/passes/WorkItemDebugVariables.h"

#include <llvm/BinaryFormat/Dwarf.h>
#include <llvm/IR/DIBuilder.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Module.h>

using namespace llvm;

namespace clcpu::compiler {

PreservedAnalyses WorkItemDebugVariablesPass::run(Function &F,
                                                  FunctionAnalysisManager &) {
  // The kernel's subprogram: the one its code's locations end in.
  DISubprogram *SP = F.getSubprogram();
  for (Instruction &I : instructions(F)) {
    if (SP)
      break;
    if (const DILocation *L = I.getDebugLoc().get()) {
      while (const DILocation *At = L->getInlinedAt())
        L = At;
      SP = L->getScope()->getSubprogram();
    }
  }
  if (!SP || !SP->getUnit())
    return PreservedAnalyses::all();
  Module &M = *F.getParent();
  LLVMContext &C = M.getContext();
  DIBuilder DIB(M, /*AllowUnresolved=*/false, SP->getUnit());
  DIType *SizeT = DIB.createBasicType("size_t", 64, dwarf::DW_ATE_unsigned);
  DIType *Ids = DIB.createArrayType(
      3 * 64, 64, SizeT, DIB.getOrCreateArray({DIB.getOrCreateSubrange(0, 3)}));
  DILocation *At = DILocation::get(C, SP->getScopeLine(), 0, SP);
  IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
  Type *I64 = B.getInt64Ty();
  ArrayType *Arr = ArrayType::get(I64, 3);
  FunctionType *Query = FunctionType::get(I64, {B.getInt32Ty()}, false);
  static const struct {
    const char *Variable, *Builtin;
  } Vars[] = {{"__global_id", "_Z13get_global_idj"},
              {"__local_id", "_Z12get_local_idj"},
              {"__group_id", "_Z12get_group_idj"}};
  for (const auto &V : Vars) {
    AllocaInst *Slot = B.CreateAlloca(Arr, nullptr, V.Variable);
    FunctionCallee Get = M.getOrInsertFunction(V.Builtin, Query);
    for (unsigned D = 0; D < 3; ++D)
      B.CreateStore(B.CreateCall(Get, {B.getInt32(D)}),
                    B.CreateConstInBoundsGEP2_32(Arr, Slot, 0, D));
    DILocalVariable *Var = DIB.createAutoVariable(
        SP, V.Variable, SP->getFile(), SP->getLine(), Ids,
        /*AlwaysPreserve=*/false, DINode::FlagArtificial);
    DIB.insertDeclare(Slot, Var, DIB.createExpression(), At,
                      &*B.GetInsertPoint());
  }
  DIB.finalize();
  return PreservedAnalyses::none();
}

} // namespace clcpu::compiler

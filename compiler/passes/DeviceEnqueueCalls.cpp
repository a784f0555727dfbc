//===- DeviceEnqueueCalls.cpp - enqueue_kernel as runtime calls -----------===//
//
// OpenCL C 2.0 6.13.17 (enqueuing kernels). For an x86 target Clang lowers
// `enqueue_kernel(q, flags, range, ^{...})` to a call of one of
// __enqueue_kernel_basic, __enqueue_kernel_basic_events,
// __enqueue_kernel_varargs and __enqueue_kernel_events_varargs, whose
// arguments are the queue, the flags, the ndrange_t (by pointer), the
// events, a pointer to the block's *kernel* (a spir_kernel function Clang
// makes of each enqueued block: its first argument the block literal, then
// one pointer per `local void *` parameter of the block) and a pointer to
// the block literal on the enqueuing work-item's stack (its first word its
// size), then the __local sizes. The block queries
// (get_kernel_work_group_size, ...) are __get_kernel_*_impl calls with the
// same pair.
//
// This pass makes those one call of the runtime's
// clcpu_device_enqueue_kernel (or clcpu_device_query), which takes the
// block's kernel by name: the runtime finds it among the program's
// kernels, each a work-group function like any other. The block kernels
// get the metadata Clang gives kernels only (arguments: the literal's
// address as a private value, then __local pointers) and the
// BlockKernelAttr attribute. The invoke functions the block literals point
// at are never called through the literal (OpenCL C blocks are called
// directly), so those pointers become null: the functions then exist only
// where they are inlined.

#include "compiler/passes/DeviceEnqueueCalls.h"

#include <llvm/ADT/StringSwitch.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>

using namespace llvm;

#define DEBUG_TYPE "clcpu-device-enqueue-calls"

namespace clcpu::compiler {

namespace {

/// The argument positions of one of Clang's device-enqueue functions.
struct EnqueueShape {
  int Range, NumEvents, WaitList, EventRet, Kernel, Block, NumLocals, Sizes;
  int Query; // the block query's number (scheduler's BlockQuery), or -1
};

std::optional<EnqueueShape> shapeOf(StringRef Name) {
  return StringSwitch<std::optional<EnqueueShape>>(Name)
      .Case("__enqueue_kernel_basic",
            EnqueueShape{2, -1, -1, -1, 3, 4, -1, -1, -1})
      .Case("__enqueue_kernel_basic_events",
            EnqueueShape{2, 3, 4, 5, 6, 7, -1, -1, -1})
      .Case("__enqueue_kernel_varargs",
            EnqueueShape{2, -1, -1, -1, 3, 4, 5, 6, -1})
      .Case("__enqueue_kernel_events_varargs",
            EnqueueShape{2, 3, 4, 5, 6, 7, 8, 9, -1})
      .Case("__get_kernel_work_group_size_impl",
            EnqueueShape{-1, -1, -1, -1, 0, 1, -1, -1, 0})
      .Case("__get_kernel_preferred_work_group_size_multiple_impl",
            EnqueueShape{-1, -1, -1, -1, 0, 1, -1, -1, 1})
      .Case("__get_kernel_max_sub_group_size_for_ndrange_impl",
            EnqueueShape{0, -1, -1, -1, 1, 2, -1, -1, 2})
      .Case("__get_kernel_sub_group_count_for_ndrange_impl",
            EnqueueShape{0, -1, -1, -1, 1, 2, -1, -1, 3})
      .Default(std::nullopt);
}

/// Gives block kernel \p F the kernel argument metadata Clang gives only
/// the program's kernels: the block literal's address (a private value),
/// then one `local void *` per __local parameter of the block.
void describeBlockKernel(Function &F) {
  LLVMContext &C = F.getContext();
  SmallVector<Metadata *, 4> AS, Access, Ty, Qual;
  for (unsigned I = 0; I < F.arg_size(); ++I) {
    AS.push_back(ConstantAsMetadata::get(
        ConstantInt::get(Type::getInt32Ty(C), I == 0 ? 0 : 3)));
    Access.push_back(MDString::get(C, "none"));
    Ty.push_back(MDString::get(C, "void*"));
    Qual.push_back(MDString::get(C, ""));
  }
  F.setMetadata("kernel_arg_addr_space", MDNode::get(C, AS));
  F.setMetadata("kernel_arg_access_qual", MDNode::get(C, Access));
  F.setMetadata("kernel_arg_type", MDNode::get(C, Ty));
  F.setMetadata("kernel_arg_base_type", MDNode::get(C, Ty));
  F.setMetadata("kernel_arg_type_qual", MDNode::get(C, Qual));
  F.addFnAttr(BlockKernelAttr);
  // Clang marks the program's kernels dso_local, not the blocks' (the
  // verifier requires it of the internal copies made of them).
  F.setDSOLocal(true);
  // Work-groups of a child follow the program's rule (OpenCL C 1.x or
  // -cl-uniform-work-group-size: uniform), which Clang writes on kernels.
  for (Function &K : *F.getParent())
    if (&K != &F && K.getCallingConv() == CallingConv::SPIR_KERNEL &&
        K.hasFnAttribute("uniform-work-group-size")) {
      F.addFnAttr(K.getFnAttribute("uniform-work-group-size"));
      break;
    }
}

} // namespace

PreservedAnalyses DeviceEnqueueCallsPass::run(Module &M,
                                              ModuleAnalysisManager &) {
  LLVMContext &C = M.getContext();
  Type *I32 = Type::getInt32Ty(C);
  PointerType *Ptr = PointerType::getUnqual(C);
  FunctionCallee Enqueue = M.getOrInsertFunction(
      "clcpu_device_enqueue_kernel",
      FunctionType::get(
          I32, {Ptr, I32, Ptr, I32, Ptr, Ptr, Ptr, Ptr, I32, Ptr, I32}, false));
  FunctionCallee Query = M.getOrInsertFunction(
      "clcpu_device_query", FunctionType::get(I32, {I32, Ptr, Ptr}, false));

  bool Changed = false;
  DenseMap<Function *, Constant *> Names;
  for (Function &Callee : make_early_inc_range(M)) {
    std::optional<EnqueueShape> S = shapeOf(Callee.getName());
    if (!S)
      continue;
    for (User *U : make_early_inc_range(Callee.users())) {
      auto *CI = dyn_cast<CallInst>(U);
      if (!CI || CI->getCalledFunction() != &Callee)
        continue;
      // Clang passes the block's kernel itself: a block enqueue_kernel
      // takes is always known where it is enqueued (OpenCL C 2.0 6.12.5).
      auto *Kernel =
          dyn_cast<Function>(CI->getArgOperand(S->Kernel)->stripPointerCasts());
      if (!Kernel)
        continue;
      Constant *&Name = Names[Kernel];
      if (!Name) {
        describeBlockKernel(*Kernel);
        Name = IRBuilder<>(C).CreateGlobalString(
            Kernel->getName(), "clcpu.block." + Kernel->getName(), 0, &M);
      }
      IRBuilder<> B(CI);
      auto Arg = [&](int I, Type *T) -> Value * {
        if (I < 0)
          return Constant::getNullValue(T);
        return B.CreateZExtOrTrunc(CI->getArgOperand(I), T);
      };
      auto PtrArg = [&](int I) -> Value * {
        return I < 0 ? Constant::getNullValue(Ptr) : CI->getArgOperand(I);
      };
      Value *R;
      if (S->Query >= 0)
        R = B.CreateCall(Query, {B.getInt32(S->Query), Name, PtrArg(S->Range)});
      else
        R = B.CreateCall(Enqueue,
                         {CI->getArgOperand(0), Arg(1, I32), PtrArg(S->Range),
                          Arg(S->NumEvents, I32), PtrArg(S->WaitList),
                          PtrArg(S->EventRet), Name, PtrArg(S->Block),
                          Arg(S->NumLocals, I32), PtrArg(S->Sizes),
                          B.getInt32(Detailed)});
      CI->replaceAllUsesWith(B.CreateZExtOrTrunc(R, CI->getType()));
      CI->eraseFromParent();
      Changed = true;
    }
    if (Callee.use_empty())
      Callee.eraseFromParent();
  }

  // The literals' invoke pointers: never read (see above).
  for (Function &F : M) {
    if (F.isDeclaration() || !F.getName().contains("_block_invoke") ||
        F.hasFnAttribute(BlockKernelAttr))
      continue;
    auto NotCallee = [&](Use &U) {
      auto *CB = dyn_cast<CallBase>(U.getUser());
      return !(CB && CB->isCallee(&U));
    };
    bool Any = false;
    for (Use &U : F.uses())
      Any |= NotCallee(U);
    if (!Any)
      continue;
    F.replaceUsesWithIf(Constant::getNullValue(F.getType()), NotCallee);
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace clcpu::compiler

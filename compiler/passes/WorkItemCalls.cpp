//===- WorkItemCalls.cpp - work-item functions as context loads -----------===//
//
// OpenCL C 6.15.1 (work-item functions): in a kernel body, get_global_id,
// get_local_id, get_group_id, get_local_size, get_enqueued_local_size,
// get_global_offset, get_global_size, get_num_groups, get_work_dim, the
// linear ids, the sub-group queries (cl_khr_subgroups) and the address
// space functions (to_global, to_local, to_private, get_fence) become
// arithmetic on the body's local id parameters and invariant loads of the
// WorkGroupContext fields (compiler/ContextFields.h). What remains is plain
// integer arithmetic the vectorizer widens across work-items. A constant
// dimension computes only its own value; the barrier regions recompute such
// values after a sync point instead of keeping them (regions/Liveness.cpp).

#include "compiler/passes/WorkItemCalls.h"

#include "compiler/Binary.h"
#include "compiler/ContextFields.h"
#include "compiler/KernelBody.h"
#include "compiler/WorkGroupFunction.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>

#include <functional>

using namespace llvm;

#define DEBUG_TYPE "clcpu-work-item-calls"

namespace clcpu::compiler {

namespace {

using CF = ContextField;

/// get_sub_group_size() and the other sub-group queries (cl_khr_subgroups):
/// sub-group i holds linear local ids [i * S, (i + 1) * S), S the device's
/// sub-group size, a constant (hostSubGroupSize(), what the runtime puts in
/// WorkGroupContext::SubGroupSize): the local id and the sub-group id are a
/// mask and a shift, not a division per work-item; the last sub-group may
/// be partial. Null for other names.
Value *subGroupQuery(IRBuilder<> &B, StringRef Name,
                     function_ref<Value *(CF, unsigned)> Word, Value *Lid[3]) {
  auto Linear = [&] {
    return B.CreateAdd(
        B.CreateMul(
            B.CreateAdd(B.CreateMul(Lid[2], Word(CF::LocalSize, 1)), Lid[1]),
            Word(CF::LocalSize, 0)),
        Lid[0]);
  };
  auto Total = [&](CF F) {
    return B.CreateMul(B.CreateMul(Word(F, 0), Word(F, 1)), Word(F, 2));
  };
  auto CeilDiv = [&](Value *A, Value *D) {
    return B.CreateUDiv(B.CreateAdd(A, B.CreateSub(D, B.getInt64(1))), D);
  };
  auto Min = [&](Value *A, Value *C) {
    return B.CreateSelect(B.CreateICmpULT(A, C), A, C);
  };
  Value *S = B.getInt64(hostSubGroupSize());
  if (Name == "get_sub_group_local_id")
    return B.CreateURem(Linear(), S);
  if (Name == "get_sub_group_id")
    return B.CreateUDiv(Linear(), S);
  if (Name == "get_num_sub_groups")
    return CeilDiv(Total(CF::LocalSize), S);
  if (Name == "get_enqueued_num_sub_groups")
    return CeilDiv(Total(CF::EnqueuedLocalSize), S);
  if (Name == "get_max_sub_group_size")
    // Invariant for the dispatch: the sub-groups of a full-size group.
    return Min(Total(CF::EnqueuedLocalSize), S);
  if (Name == "get_sub_group_size") {
    Value *First = B.CreateMul(B.CreateUDiv(Linear(), S), S);
    return Min(B.CreateSub(Total(CF::LocalSize), First), S);
  }
  return nullptr;
}

/// Replaces the work-item function calls in \p Body, whose context is
/// \p Ctx and local ids \p Lid. True if there was any.
bool replaceWorkItemCalls(Function &Body, Value *Ctx, Value *Lid[3]) {
  LLVMContext &C = Body.getContext();
  Type *I64 = Type::getInt64Ty(C), *I32 = Type::getInt32Ty(C);
  bool Changed = false;

  for (Instruction &I : make_early_inc_range(instructions(Body))) {
    auto *CI = dyn_cast<CallInst>(&I);
    if (!CI || !CI->getCalledFunction())
      continue;
    StringRef Name = baseName(CI->getCalledFunction()->getName());
    IRBuilder<> B(CI);
    auto Word = [&](CF F, unsigned D) {
      return loadContextField(B, Ctx, F, D);
    };
    // Dimension-indexed query: out-of-range dimensions give \p Default.
    auto PerDim = [&](std::function<Value *(unsigned)> Get,
                      uint64_t Default) -> Value * {
      // A constant dimension (nearly always) computes only its own: the
      // barrier regions recompute such an expression after a sync point
      // instead of keeping it (regions/Liveness.cpp, rematerializable), within
      // a budget the three dimensions' selects would exceed.
      if (auto *K = dyn_cast<ConstantInt>(CI->getArgOperand(0)))
        return K->getZExtValue() < 3 ? Get(unsigned(K->getZExtValue()))
                                     : ConstantInt::get(I64, Default);
      Value *D = B.CreateZExtOrTrunc(CI->getArgOperand(0), I32);
      Value *R = ConstantInt::get(I64, Default);
      for (int Dim = 2; Dim >= 0; --Dim)
        R = B.CreateSelect(B.CreateICmpEQ(D, B.getInt32(Dim)), Get(Dim), R);
      return R;
    };
    auto GlobalId = [&](unsigned D) {
      // Groups start at multiples of the enqueued size (the last one of a
      // non-uniform NDRange is smaller).
      return B.CreateAdd(
          B.CreateAdd(
              B.CreateMul(Word(CF::GroupId, D), Word(CF::EnqueuedLocalSize, D)),
              Lid[D]),
          Word(CF::GlobalOffset, D));
    };
    Value *R = nullptr;
    if (Name == "get_global_id")
      R = PerDim(GlobalId, 0);
    else if (Name == "get_local_id")
      R = PerDim([&](unsigned D) { return Lid[D]; }, 0);
    else if (Name == "get_group_id")
      R = PerDim([&](unsigned D) { return Word(CF::GroupId, D); }, 0);
    else if (Name == "get_local_size")
      R = PerDim([&](unsigned D) { return Word(CF::LocalSize, D); }, 1);
    else if (Name == "get_enqueued_local_size")
      R = PerDim([&](unsigned D) { return Word(CF::EnqueuedLocalSize, D); }, 1);
    else if (Name == "get_global_offset")
      R = PerDim([&](unsigned D) { return Word(CF::GlobalOffset, D); }, 0);
    else if (Name == "get_global_size")
      R = PerDim([&](unsigned D) { return Word(CF::GlobalSize, D); }, 1);
    else if (Name == "get_num_groups")
      R = PerDim([&](unsigned D) { return Word(CF::NumGroups, D); }, 1);
    else if (Name == "get_work_dim") {
      R = Word(CF::WorkDim, 0);
    } else if (Name == "get_local_linear_id") {
      R = B.CreateAdd(
          B.CreateMul(
              B.CreateAdd(B.CreateMul(Lid[2], Word(CF::LocalSize, 1)), Lid[1]),
              Word(CF::LocalSize, 0)),
          Lid[0]);
    } else if (Name == "get_global_linear_id") {
      Value *G[3];
      for (unsigned D = 0; D < 3; ++D)
        G[D] = B.CreateSub(GlobalId(D), Word(CF::GlobalOffset, D));
      R = B.CreateAdd(
          B.CreateMul(
              B.CreateAdd(B.CreateMul(G[2], Word(CF::GlobalSize, 1)), G[1]),
              Word(CF::GlobalSize, 0)),
          G[0]);
    } else if (Name.contains("sub_group")) {
      R = subGroupQuery(B, Name, Word, Lid);
    } else if (Name == "__to_global" || Name == "__to_local" ||
               Name == "__to_private" || Name == "get_fence") {
      // OpenCL C 6.15.9 (address space qualifier functions): one flat
      // address space; the named space of a generic pointer is where it
      // points: the group's local block, the work-item's stack, or else
      // global memory.
      Value *P = B.CreatePtrToInt(CI->getArgOperand(0), I64);
      auto In = [&](CF Lo, CF Hi) {
        return B.CreateAnd(
            B.CreateICmpUGE(P, B.CreatePtrToInt(Word(Lo, 0), I64)),
            B.CreateICmpULT(P, B.CreatePtrToInt(Word(Hi, 0), I64)));
      };
      Value *Local = In(CF::LocalMem, CF::LocalEnd);
      // Barrier regions keep escaping private variables in the scratch.
      Value *Private = B.CreateOr(In(CF::PrivateLo, CF::PrivateHi),
                                  In(CF::Scratch, CF::ScratchEnd));
      if (Name == "get_fence") {
        // CLK_LOCAL_MEM_FENCE (1) or CLK_GLOBAL_MEM_FENCE (2); private
        // memory needs no fence (0).
        R = B.CreateSelect(
            Local, B.getInt64(1),
            B.CreateSelect(Private, B.getInt64(0), B.getInt64(2)));
      } else {
        // "Returns NULL if ptr does not point to" the named space.
        Value *Match = Name == "__to_local" ? Local
                       : Name == "__to_private"
                           ? Private
                           : B.CreateNot(B.CreateOr(Local, Private));
        Value *Null =
            ConstantPointerNull::get(cast<PointerType>(CI->getType()));
        CI->replaceAllUsesWith(
            B.CreateSelect(Match, CI->getArgOperand(0), Null));
        CI->eraseFromParent();
        Changed = true;
        continue;
      }
    }
    if (!R)
      continue;
    CI->replaceAllUsesWith(B.CreateZExtOrTrunc(R, CI->getType()));
    CI->eraseFromParent();
    Changed = true;
  }
  return Changed;
}

} // namespace

PreservedAnalyses WorkItemCallsPass::run(Function &F,
                                         FunctionAnalysisManager &) {
  Value *Ctx = contextParam(F);
  Value *Lid[3];
  if (!Ctx || !localIdParams(F, Lid))
    return PreservedAnalyses::all(); // not a kernel body
  if (!replaceWorkItemCalls(F, Ctx, Lid))
    return PreservedAnalyses::all();
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

} // namespace clcpu::compiler

//===- compiler/NonTemporalStores.cpp - streaming stores -------*- C++ -*-===//
//
// A kernel such as `b[i] = a[i]` over a buffer larger than the caches is
// bound by memory bandwidth, and an ordinary store costs more of it than it
// seems: the cache first reads the line it is about to overwrite (a
// read-for-ownership), so a copy moves 3 bytes for every 2 it counts, vadd
// 4 for every 3. A non-temporal store writes the line without reading it.
// Measured on a 2-core Zen 4 VM with 64 MiB buffers (a host loop of AVX-512
// loads and stores, two threads): copy with ordinary stores 27.8 GB/s, with
// non-temporal stores 39.6 GB/s (read + written bytes); clcpu_bench's copy
// went from 17-21 to 28-34 GB/s, vadd from 17-21 to 27-31.
//
// Non-temporal stores bypass the cache, which is a loss when the output is
// read again soon (by the next kernel, from the cache). So this pass turns a
// work-group function's full-register vector stores into
//
//   if (launch writes more than the last-level cache && address aligned)
//     non-temporal store
//   else
//     the store as it was
//
// only for stores into a kernel argument the function never reads through
// (an output buffer, not saxpy's y, whose lines are in the cache anyway),
// and only in functions without atomics, fences or calls (whose ordering
// against the weakly ordered non-temporal stores would need thought). The
// condition is loop-invariant and the alignment almost always true or
// always false, so the branch predicts perfectly (no measurable cost
// against unconditional non-temporal stores). The stores are weakly
// ordered: the scheduler issues one sfence per thread at the end of its share
// of the launch (scheduler/NDRange.cpp, Participant::run), before the launch
// is reported done. (An sfence before each return of the work-group function
// drained the write-combining buffers once per 16 KiB of copy output and
// cost about 8% of copy's bandwidth.)

#include "compiler/Internal.h"
#include "compiler/WorkGroupContext.h"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/IntrinsicsX86.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/TargetParser/Triple.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <cstddef>
#include <fstream>
#include <string>

using namespace llvm;

namespace clcpu::compiler {

namespace {

/// Launches writing fewer bytes through one store than this keep ordinary
/// stores: their output may still be in the cache for the next command.
/// The last-level cache of CPU 0 from sysfs (glibc's
/// sysconf(_SC_LEVEL3_CACHE_SIZE) says 320 MiB for a 32 MiB L3 in a VM).
uint64_t nonTemporalMinBytes() {
  static const uint64_t N = [] {
    uint64_t Best = 0;
    unsigned BestLevel = 0;
    for (unsigned I = 0; I < 8; ++I) {
      std::string Dir =
          "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(I);
      std::ifstream Level(Dir + "/level"), Size(Dir + "/size");
      unsigned L = 0;
      uint64_t S = 0;
      std::string Unit;
      if (!(Level >> L) || !(Size >> S))
        continue;
      Size >> Unit;
      S <<= Unit == "K" ? 10 : Unit == "M" ? 20 : Unit == "G" ? 30 : 0;
      if (L >= BestLevel && S > 0)
        Best = S, BestLevel = L;
    }
    return Best ? Best : uint64_t(8) << 20;
  }();
  return N;
}

/// Whether \p V is a kernel argument's value in a work-group function:
/// `load (load (Args + 8 * i))` (compiler/WorkGroupFunction.cpp).
bool isArgumentValue(const Value *V, const Argument *Args) {
  const auto *L = dyn_cast<LoadInst>(V);
  if (!L)
    return false;
  const auto *Slot = dyn_cast<LoadInst>(L->getPointerOperand());
  return Slot && getUnderlyingObject(Slot->getPointerOperand()) == Args;
}

/// Whether memory reached through \p Base is only ever written (by plain
/// stores) in its function: every use is address arithmetic or a store's
/// address, never a load, a call or a stored pointer.
bool writeOnly(const Value *Base) {
  SmallVector<const Value *, 16> Work{Base};
  SmallPtrSet<const Value *, 16> Seen{Base};
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      if (const auto *S = dyn_cast<StoreInst>(U)) {
        if (S->getValueOperand() == V || !S->isSimple())
          return false;
        continue;
      }
      if (isa<ICmpInst>(U))
        continue;
      if (isa<GetElementPtrInst, PHINode, SelectInst, BitCastInst>(U)) {
        if (Seen.insert(U).second)
          Work.push_back(U);
        continue;
      }
      return false; // loads, calls, ptrtoint, ...
    }
  }
  return true;
}

/// Whether \p F has an instruction whose ordering against non-temporal
/// stores matters or whose effect cannot be seen: atomics, fences, calls.
bool hasOrderingOrCalls(const Function &F) {
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      if (I.isAtomic() || isa<FenceInst>(I))
        return true;
      if (const auto *CB = dyn_cast<CallBase>(&I)) {
        const Function *Callee = CB->getCalledFunction();
        if (!Callee || !Callee->isIntrinsic())
          return true;
        if (!isa<DbgInfoIntrinsic, AssumeInst, NoAliasScopeDeclInst>(I) &&
            !I.isLifetimeStartOrEnd() &&
            (CB->mayReadOrWriteMemory() && !CB->onlyReadsMemory()))
          return true; // memset, memcpy, masked stores ...
      }
    }
  return false;
}

struct NonTemporalStores : PassInfoMixin<NonTemporalStores> {
  PreservedAnalyses run(Function &F, FunctionAnalysisManager &) {
    Module &M = *F.getParent();
    if (F.isDeclaration() || !F.getName().starts_with("wg_") ||
        F.arg_size() != 2 || !Triple(M.getTargetTriple()).isX86() ||
        hasOrderingOrCalls(F))
      return PreservedAnalyses::all();
    const DataLayout &DL = M.getDataLayout();
    const Argument *Args = F.getArg(0);
    SmallVector<StoreInst *, 16> Stores;
    SmallDenseMap<const Value *, bool> WriteOnly;
    for (BasicBlock &BB : F)
      for (Instruction &I : BB) {
        auto *S = dyn_cast<StoreInst>(&I);
        if (!S || !S->isSimple())
          continue;
        auto *VT = dyn_cast<FixedVectorType>(S->getValueOperand()->getType());
        if (!VT)
          continue;
        uint64_t Bytes = DL.getTypeStoreSize(VT).getFixedValue();
        if ((Bytes != 16 && Bytes != 32 && Bytes != 64) ||
            Bytes != DL.getTypeAllocSize(VT).getFixedValue())
          continue;
        const Value *Base = getUnderlyingObject(S->getPointerOperand());
        if (!isArgumentValue(Base, Args))
          continue;
        auto [It, New] = WriteOnly.try_emplace(Base, false);
        if (New)
          It->second = writeOnly(Base);
        if (It->second)
          Stores.push_back(S);
      }
    if (Stores.empty())
      return PreservedAnalyses::all();

    // The launch's work-item count, from the context (the second argument).
    LLVMContext &C = F.getContext();
    Type *I64 = Type::getInt64Ty(C);
    IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
    Value *Items = nullptr;
    for (unsigned D = 0; D < 3; ++D) {
      Value *P = B.CreateConstInBoundsGEP1_64(
          B.getInt8Ty(), F.getArg(1),
          offsetof(WorkGroupContext, GlobalSize) + D * sizeof(size_t));
      auto *L = B.CreateAlignedLoad(I64, P, Align(8));
      L->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(C, {}));
      Items = Items ? B.CreateMul(Items, L) : L;
    }
    // Whether the launch writes at least nonTemporalMinBytes() through a
    // store of Elem-byte elements.
    SmallDenseMap<uint64_t, Value *> LargeFor;
    auto ElemBytes = [&](StoreInst *S) {
      Type *T = S->getValueOperand()->getType()->getScalarType();
      return std::max<uint64_t>(1, DL.getTypeStoreSize(T).getFixedValue());
    };
    for (StoreInst *S : Stores) {
      uint64_t Elem = ElemBytes(S);
      Value *&L = LargeFor[Elem];
      if (L)
        continue;
      L = B.CreateICmpUGE(Items,
                          ConstantInt::get(I64, nonTemporalMinBytes() / Elem));
    }
    MDNode *NT = MDNode::get(
        C, ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(C), 1)));
    for (StoreInst *S : Stores) {
      uint64_t Bytes =
          DL.getTypeStoreSize(S->getValueOperand()->getType()).getFixedValue();
      IRBuilder<> SB(S);
      Value *Addr = SB.CreatePtrToInt(S->getPointerOperand(), I64);
      Value *Aligned =
          SB.CreateICmpEQ(SB.CreateAnd(Addr, ConstantInt::get(I64, Bytes - 1)),
                          ConstantInt::get(I64, 0));
      Instruction *Then = nullptr, *Else = nullptr;
      SplitBlockAndInsertIfThenElse(
          SB.CreateAnd(LargeFor[ElemBytes(S)], Aligned), S, &Then, &Else);
      auto *Stream = cast<StoreInst>(S->clone());
      Stream->insertBefore(Then);
      Stream->setAlignment(Align(Bytes));
      Stream->setMetadata(LLVMContext::MD_nontemporal, NT);
      S->moveBefore(Else);
    }
    return PreservedAnalyses::none();
  }
};

} // namespace

void addNonTemporalStorePass(FunctionPassManager &FPM) {
  FPM.addPass(NonTemporalStores());
}

} // namespace clcpu::compiler

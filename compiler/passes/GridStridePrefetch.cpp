//===- GridStridePrefetch.cpp - prefetch the next grid stride -------------===//
//
// A grid-stride loop in a barrier kernel runs one region per iteration for
// the whole group (compiler/passes/LoopSyncPoints.cpp): iteration t of a group
// reads in[first + t * stride + lid], one run of WG elements, then the next
// run a whole stride (256 KiB in bench/'s reduce_local) further on. The
// hardware prefetchers follow a stream within a page but do not guess the
// jump, so each iteration starts with cache misses, and waiting for its
// loads is most of reduce_local's time. Prefetching a few strides ahead
// starts those misses early enough to overlap the iterations before.
//
// After vectorization such a loop's counter lives in a per-work-item slot:
// the region loads it (X = load P), reads memory at base[X] (a gather of
// base + sext(X), which compiler/passes/RuntimeConsecutiveGathers.cpp later
// turns into a vector load when the lanes are adjacent) and stores X + splat(S)
// back to P for the next iteration. This pass finds that shape and, before
// the gather, prefetches lane 0's element PrefetchStrides iterations ahead,
// base[X0 + PrefetchStrides * S]. A prefetch never faults and changes no
// value, so a wrong guess costs only the instruction.

#include "compiler/passes/GridStridePrefetch.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/IR/PatternMatch.h>

using namespace llvm;

#define DEBUG_TYPE "clcpu-grid-stride-prefetch"
using namespace llvm::PatternMatch;

namespace clcpu::compiler {

namespace {

/// How many iterations ahead to prefetch: enough lines in flight to cover
/// the memory latency (prefetching further ahead gains nothing).
constexpr int PrefetchStrides = 4;

/// The pointer a (masked) vector load \p X reads, or null.
Value *loadedFrom(Value *X) {
  if (auto *LI = dyn_cast<LoadInst>(X))
    return LI->isSimple() ? LI->getPointerOperand() : nullptr;
  if (auto *II = dyn_cast<IntrinsicInst>(X))
    if (II->getIntrinsicID() == Intrinsic::masked_load)
      return II->getArgOperand(0);
  return nullptr;
}

/// The uniform step S if some store in \p X's loop writes X + splat(S)
/// back to the slot X was loaded from, or null.
Value *slotStep(Value *X, const Loop &L) {
  Value *Slot = loadedFrom(X);
  if (!Slot)
    return nullptr;
  for (User *U : X->users()) {
    Value *Step;
    if (!match(U, m_c_Add(m_Specific(X), m_Value(Step))))
      continue;
    Value *S = getSplatValue(Step);
    if (!S)
      continue;
    for (User *SU : U->users()) {
      auto *I = dyn_cast<Instruction>(SU);
      if (!I || !L.contains(I))
        continue;
      if (auto *St = dyn_cast<StoreInst>(I))
        if (St->getValueOperand() == U && St->getPointerOperand() == Slot)
          return S;
      if (auto *II = dyn_cast<IntrinsicInst>(I))
        if (II->getIntrinsicID() == Intrinsic::masked_store &&
            II->getArgOperand(0) == U && II->getArgOperand(1) == Slot)
          return S;
    }
  }
  return nullptr;
}

/// Prefetches ahead of gather \p G if its addresses are base + ext(X) for
/// a slot-held counter X (see the file comment). True if it did.
bool prefetchAhead(IntrinsicInst *G, const Loop &L) {
  auto *GEP = dyn_cast<GetElementPtrInst>(G->getArgOperand(0));
  if (!GEP || GEP->getNumIndices() != 1 ||
      GEP->getPointerOperand()->getType()->isVectorTy())
    return false;
  Value *Idx = GEP->getOperand(1), *X;
  bool Signed = match(Idx, m_SExt(m_Value(X)));
  if (!Signed && !match(Idx, m_ZExt(m_Value(X))))
    X = Idx;
  auto *XT = dyn_cast<FixedVectorType>(X->getType());
  if (!XT || !XT->getElementType()->isIntegerTy())
    return false;
  Value *S = slotStep(X, L);
  if (!S)
    return false;
  IRBuilder<> B(G);
  Type *I64 = B.getInt64Ty();
  auto Ext = [&](Value *V) {
    return Signed ? B.CreateSExtOrTrunc(V, I64) : B.CreateZExtOrTrunc(V, I64);
  };
  Value *Lane0 = Ext(B.CreateExtractElement(X, uint64_t(0)));
  Value *Ahead = B.CreateAdd(
      Lane0, B.CreateMul(Ext(S), ConstantInt::get(I64, PrefetchStrides)));
  Value *Addr = B.CreateGEP(GEP->getSourceElementType(),
                            GEP->getPointerOperand(), Ahead, "prefetch.addr");
  // llvm.prefetch(address, read, high locality, data cache).
  B.CreateIntrinsic(Intrinsic::prefetch, {Addr->getType()},
                    {Addr, B.getInt32(0), B.getInt32(3), B.getInt32(1)});
  return true;
}

} // namespace

PreservedAnalyses GridStridePrefetchPass::run(Function &F,
                                              FunctionAnalysisManager &FAM) {
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  SmallVector<std::pair<IntrinsicInst *, Loop *>, 8> Work;
  for (BasicBlock &BB : F)
    if (Loop *L = LI.getLoopFor(&BB))
      for (Instruction &I : BB)
        if (auto *II = dyn_cast<IntrinsicInst>(&I))
          if (II->getIntrinsicID() == Intrinsic::masked_gather)
            Work.emplace_back(II, L);
  bool Changed = false;
  for (auto [G, L] : Work)
    Changed |= prefetchAhead(G, *L);
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace clcpu::compiler

//===- GuardedLoopBound.cpp - a bounds guard becomes the trip count -------===//
//
// CPU-style OpenCL C hands each work-item k consecutive elements and guards
// every access against the end of the data:
//
//   for (int j = 0; j < k; ++j)
//     if (base + j < n) { v = in[base + j]; out[base + j] = pre; pre += v; }
//
// The guard `base + j < n` only goes from true to false as j grows, and the
// iterations where it is false do nothing. So the loop may stop at the first
// false guard instead of running them out:
//
//   if (base < n)                    // preheader: the first guard
//     for (j = 0; j <= min(k - 1, n - base - 1); ++j) body;
//
// The body then has no branch of its own and the loop unrolls and
// vectorizes like an unguarded one (the scan bench's scan_blocks, whose
// per-work-item loops run scalar).
//
// What a loop must look like (anything else is left alone):
//  * rotated, one latch that is also the only exiting block, a
//    backedge-taken count SCEV can compute (a preheader and dedicated exits
//    are made first, LoopSimplify's);
//  * the header ends in the guard: `br (icmp pred X, Inv), then, latch` (or
//    the other way round), Inv loop-invariant, X an affine recurrence
//    {Start,+,1} of the loop for which SCEV proves the "then" predicate
//    (<, <= signed or unsigned) monotonically decreasing: true, then false,
//    never true again (no wrap);
//  * the guard's skipped iterations have no effect: the header and latch
//    compute only values without side effects, and every value the loop
//    hands out (its exit block's LCSSA phis) is loop-invariant or a latch
//    phi that passes a header phi through unchanged when the guard is false.
//
// The last iteration, min(backedge-taken count, Bound - Start [- 1]), is
// computed in the loop's type where the subtraction provably cannot
// overflow (SCEV ranges), else in a type twice as wide; a new counter from
// 0 to it replaces the latch's condition.

#include "compiler/passes/GuardedLoopBound.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

#include <optional>

using namespace llvm;

#define DEBUG_TYPE "clcpu-guarded-loop-bound"

namespace clcpu::compiler {

namespace {

/// A loop whose iterations after the first false header guard may be
/// dropped, and how many iterations run the guarded body.
struct GuardedLoop {
  BasicBlock *Then = nullptr; // the guard's "then" successor
  ICmpInst *Guard = nullptr;
  const SCEV *Start = nullptr;         // the guard's recurrence {Start,+,1}
  const SCEV *Bound = nullptr;         // ... compared with this
  ICmpInst::Predicate Pred;            // the "then" predicate, slt/sle/ult/ule
  const SCEV *BackedgeTaken = nullptr; // the original loop's
  const SCEV *Last = nullptr;          // the last iteration to run
};

/// (\p Changed: set if forming LCSSA changed the IR, match or not.)
std::optional<GuardedLoop> matchGuardedLoop(Loop &L, ScalarEvolution &SE,
                                            DominatorTree &DT, LoopInfo &LI,
                                            bool &Changed) {
  BasicBlock *Header = L.getHeader(), *Latch = L.getLoopLatch();
  BasicBlock *Pre = L.getLoopPreheader(), *Exit = L.getExitBlock();
  if (!Latch || !Pre || !Exit || Header == Latch ||
      L.getExitingBlock() != Latch || !L.hasDedicatedExits())
    return std::nullopt;
  auto *LatchBr = dyn_cast<BranchInst>(Latch->getTerminator());
  auto *HeaderBr = dyn_cast<BranchInst>(Header->getTerminator());
  auto *PreBr = dyn_cast<BranchInst>(Pre->getTerminator());
  if (!LatchBr || !LatchBr->isConditional() || !HeaderBr ||
      !HeaderBr->isConditional() || !PreBr || PreBr->isConditional())
    return std::nullopt;
  GuardedLoop G;
  G.Guard = dyn_cast<ICmpInst>(HeaderBr->getCondition());
  if (!G.Guard)
    return std::nullopt;
  bool ThenOnTrue = HeaderBr->getSuccessor(1) == Latch;
  if (!ThenOnTrue && HeaderBr->getSuccessor(0) != Latch)
    return std::nullopt;
  G.Then = HeaderBr->getSuccessor(ThenOnTrue ? 0 : 1);
  if (G.Then == Latch || !L.contains(G.Then))
    return std::nullopt;

  // The "then" predicate as `{Start,+,1} pred Bound`, true for a prefix of
  // the iterations.
  G.Pred =
      ThenOnTrue ? G.Guard->getPredicate() : G.Guard->getInversePredicate();
  Value *X = G.Guard->getOperand(0), *Inv = G.Guard->getOperand(1);
  if (L.isLoopInvariant(X)) {
    std::swap(X, Inv);
    G.Pred = ICmpInst::getSwappedPredicate(G.Pred);
  }
  if (!L.isLoopInvariant(Inv) || !X->getType()->isIntegerTy())
    return std::nullopt;
  if (G.Pred != ICmpInst::ICMP_SLT && G.Pred != ICmpInst::ICMP_SLE &&
      G.Pred != ICmpInst::ICMP_ULT && G.Pred != ICmpInst::ICMP_ULE)
    return std::nullopt;
  auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(X));
  if (!AR || AR->getLoop() != &L || !AR->isAffine() ||
      !AR->getStepRecurrence(SE)->isOne())
    return std::nullopt;
  // (No wrap: what makes the predicate monotonic.)
  auto Mono = SE.getMonotonicPredicateType(AR, G.Pred);
  if (!Mono || *Mono != ScalarEvolution::MonotonicallyDecreasing)
    return std::nullopt;
  G.Start = AR->getStart();
  G.Bound = SE.getSCEV(Inv);
  const SCEV *BTC = SE.getBackedgeTakenCount(&L);
  if (isa<SCEVCouldNotCompute>(BTC))
    return std::nullopt;
  G.BackedgeTaken = BTC;
  // The last iteration whose guard holds, given that the first one's does:
  // Bound - Start - 1 (<) or Bound - Start (<=), >= 0 then. In the loop's
  // type where that provably cannot overflow, else in one twice as wide
  // (whose extra instructions run once per entry into the loop).
  bool Signed = ICmpInst::isSigned(G.Pred);
  Type *T = SE.getWiderType(BTC->getType(), AR->getType());
  ConstantRange::OverflowResult Sub =
      Signed ? SE.getSignedRange(G.Bound).signedSubMayOverflow(
                   SE.getSignedRange(G.Start))
             : SE.getUnsignedRange(G.Bound).unsignedSubMayOverflow(
                   SE.getUnsignedRange(G.Start));
  if (Sub != ConstantRange::OverflowResult::NeverOverflows)
    T = IntegerType::get(Header->getContext(), 2 * SE.getTypeSizeInBits(T));
  auto Ext = [&](const SCEV *X) {
    return Signed ? SE.getNoopOrSignExtend(X, T) : SE.getNoopOrZeroExtend(X, T);
  };
  const SCEV *LastHolds = SE.getMinusSCEV(Ext(G.Bound), Ext(G.Start));
  if (G.Pred == ICmpInst::ICMP_SLT || G.Pred == ICmpInst::ICMP_ULT)
    LastHolds = SE.getMinusSCEV(LastHolds, SE.getOne(T));
  G.Last = SE.getUMinExpr(SE.getNoopOrZeroExtend(BTC, T), LastHolds);

  // The dropped iterations run the header and the latch only: both must
  // be free of effects.
  for (BasicBlock *BB : {Header, Latch})
    for (Instruction &I : *BB)
      if (!I.isTerminator() && I.mayHaveSideEffects())
        return std::nullopt;
  // Loop values used outside go through the exit block's phis (LCSSA, which
  // the function passes since the loop passes need not have kept), and
  // those hand out pass-through values only.
  Changed |= formLCSSA(L, DT, &LI, &SE);
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      for (User *U : I.users()) {
        auto *UI = cast<Instruction>(U);
        if (!L.contains(UI) && !(isa<PHINode>(UI) && UI->getParent() == Exit))
          return std::nullopt;
      }
  for (PHINode &P : Exit->phis()) {
    Value *V = P.getIncomingValueForBlock(Latch);
    if (L.isLoopInvariant(V))
      continue;
    auto *LP = dyn_cast<PHINode>(V);
    if (!LP || LP->getParent() != Latch || LP->getBasicBlockIndex(Header) < 0)
      return std::nullopt;
    auto *HP = dyn_cast<PHINode>(LP->getIncomingValueForBlock(Header));
    if (!HP || HP->getParent() != Header ||
        HP->getIncomingValueForBlock(Latch) != LP)
      return std::nullopt;
  }
  return G;
}

/// Rewrites \p L as the file comment says: the loop runs
/// min(trip count, iterations whose guard holds) times, without the guard.
bool boundByGuard(Loop &L, const GuardedLoop &G, ScalarEvolution &SE,
                  DominatorTree &DT) {
  BasicBlock *Header = L.getHeader(), *Latch = L.getLoopLatch();
  BasicBlock *Pre = L.getLoopPreheader(), *Exit = L.getExitBlock();
  auto *LatchBr = cast<BranchInst>(Latch->getTerminator());
  auto *PreBr = cast<BranchInst>(Pre->getTerminator());

  SCEVExpander Expander(SE, Header->getModule()->getDataLayout(), "guarded");
  if (!Expander.isSafeToExpandAt(G.Last, PreBr) ||
      !Expander.isSafeToExpandAt(G.Start, PreBr) ||
      !Expander.isSafeToExpandAt(G.Bound, PreBr))
    return false;

  // Values handed out when no iteration runs its body: each header phi's
  // value from the preheader.
  SmallVector<std::pair<PHINode *, Value *>, 4> FromPre;
  for (PHINode &P : Exit->phis()) {
    Value *V = P.getIncomingValueForBlock(Latch);
    if (auto *LP = dyn_cast<PHINode>(V); LP && LP->getParent() == Latch) {
      auto *HP = cast<PHINode>(LP->getIncomingValueForBlock(Header));
      V = HP->getIncomingValueForBlock(Pre);
    }
    FromPre.push_back({&P, V});
  }

  // Preheader: enter if the first iteration's guard holds; the last
  // iteration (<= the original backedge-taken count) fits the loop's type.
  Type *CounterTy = G.BackedgeTaken->getType();
  Value *Start = Expander.expandCodeFor(G.Start, G.Start->getType(), PreBr);
  Value *Bound = Expander.expandCodeFor(G.Bound, G.Bound->getType(), PreBr);
  IRBuilder<> B(PreBr);
  Value *Enter = B.CreateICmp(G.Pred, Start, Bound, "guarded.enter");
  Value *Last =
      B.CreateTrunc(Expander.expandCodeFor(G.Last, G.Last->getType(), PreBr),
                    CounterTy, "guarded.last");
  BranchInst::Create(Header, Exit, Enter, PreBr);
  PreBr->eraseFromParent();
  for (auto [P, V] : FromPre)
    P->addIncoming(V, Pre);

  // Header: an iteration counter; the guard now always holds.
  PHINode *It = PHINode::Create(CounterTy, 2, "guarded.iter");
  It->insertBefore(Header->getFirstNonPHIIt());
  It->addIncoming(ConstantInt::get(CounterTy, 0), Pre);
  Latch->removePredecessor(Header);
  BranchInst::Create(G.Then, Header->getTerminator());
  Header->getTerminator()->eraseFromParent();
  if (G.Guard->use_empty())
    G.Guard->eraseFromParent();

  // Latch: the counter decides.
  B.SetInsertPoint(LatchBr);
  Value *ItNext = B.CreateAdd(It, ConstantInt::get(CounterTy, 1),
                              "guarded.next", /*HasNUW=*/true);
  It->addIncoming(ItNext, Latch);
  // A plain compare either way round (the vectorizer runs next, before
  // InstCombine could fold a `not`, and SCEV counts no iterations through
  // one).
  Value *Cond = LatchBr->getSuccessor(0) == Header
                    ? B.CreateICmpNE(It, Last, "guarded.more")
                    : B.CreateICmpEQ(It, Last, "guarded.done");
  Value *OldCond = LatchBr->getCondition();
  LatchBr->setCondition(Cond);
  if (auto *I = dyn_cast<Instruction>(OldCond); I && I->use_empty())
    I->eraseFromParent();

  DT.insertEdge(Pre, Exit);
  DT.deleteEdge(Header, Latch);
  return true;
}

} // namespace

PreservedAnalyses GuardedLoopBoundPass::run(Function &F,
                                            FunctionAnalysisManager &FAM) {
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  DominatorTree &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  bool Changed = false;
  for (Loop *L : LI.getLoopsInPreorder()) {
    // Preheader and dedicated exits first: the passes before need not
    // leave them (with a reqd_work_group_size of (N, 1, 1) the scan
    // bench's item_sum loop shares its exit block, and would run
    // predicated).
    Changed |= simplifyLoop(L, &DT, &LI, &SE, nullptr, nullptr,
                            /*PreserveLCSSA=*/false);
    std::optional<GuardedLoop> G = matchGuardedLoop(*L, SE, DT, LI, Changed);
    if (G && boundByGuard(*L, *G, SE, DT)) {
      SE.forgetTopmostLoop(L);
      Changed = true;
    }
  }
  if (!Changed)
    return PreservedAnalyses::all();
  PreservedAnalyses PA;
  PA.preserve<DominatorTreeAnalysis>();
  PA.preserve<LoopAnalysis>();
  return PA;
}

} // namespace clcpu::compiler

//===- ProgressYields.cpp - yields in loops that wait for a work-item -----===//
//
// Independent forward progress of sub-groups (cl_khr_subgroups,
// CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS): a work-item may wait
// in a loop for a
// value another work-item of its group writes (a spin lock, a flag set
// after a compare-and-swap). The work-item loop and the barrier regions
// run a group's work-items one after another on one thread, so the waiter
// would spin for ever. This pass finds such loops (an exit that depends on
// an atomic or volatile load, followed through private variables) and puts
// a call through WorkGroupContext::Yield on their back edges; a kernel with
// one runs one fiber per work-item, and the yield switches to the next
// fiber. -cl-no-subgroup-ifp turns the search off (compiler/Compiler.h).
//
// An exit may also depend on shared state through control flow: a flag
// that is a phi of constants (a function's `return -1` and `return 0`,
// inlined) follows the branches that chose it. The result of a pipe
// operation (read_pipe on an empty pipe) is shared state too.
//
// A compare-and-swap retry loop is not such a wait, and gets no yield:
// OpenCL C 1.2 programs build float atomics and atomic maxima that way
// (`while ((seen = atomic_cmpxchg(p, old, f(old))) != old) old = seen;`),
// and one fiber per work-item costs them several times their speed. Such a
// loop goes round again only when a compare-exchange failed on a value
// just read from its location, that is, when some other thread changed it
// in between; the work-items of a group run one at a time on one thread,
// so that thread is another group's and makes progress by itself. A spin
// lock (`while (atomic_cmpxchg(lock, 0, 1) != 0);`) compares with a fixed
// value instead and keeps its yield.

#include "compiler/passes/ProgressYields.h"

#include "compiler/ContextFields.h"
#include "compiler/KernelBody.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

using namespace llvm;

#define DEBUG_TYPE "clcpu-progress-yields"

namespace clcpu::compiler {

namespace {
/// A pipe operation of the runtime (scheduler/PipeRing.h, called by
/// builtins/pipe.cl): whether a reservation, read or write succeeds depends
/// on the other side of the pipe, which may be a work-item of the same
/// group. So does a sub-group's reservation (another sub-group may be the
/// other side); a work-group's may not: the whole group is at the call.
bool isPipeOperation(const Instruction &I) {
  const auto *CI = dyn_cast<CallInst>(&I);
  const Function *F = CI ? CI->getCalledFunction() : nullptr;
  return F && (F->getName() == "clcpu_pipe_reserve" ||
               F->getName() == "clcpu_pipe_read" ||
               F->getName() == "clcpu_pipe_write" ||
               F->getName().contains("clcpu_sub_group_reserve_"));
}

/// True if \p V is computed from an atomic or volatile memory access: a
/// value another work-item may change. Values read from a private variable
/// (an alloca: the IR is not optimized yet) are followed to what was stored
/// there; values read from other ordinary memory are not (waiting on them
/// is a data race).
bool dependsOnSharedState(
    Value *V, const DenseMap<Value *, SmallVector<Value *, 4>> &Stored) {
  SmallVector<Value *, 16> Work = {V};
  SmallPtrSet<Value *, 32> Seen;
  while (!Work.empty()) {
    auto *I = dyn_cast<Instruction>(Work.pop_back_val());
    if (!I || !Seen.insert(I).second)
      continue;
    if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I))
      return true;
    if (isPipeOperation(*I))
      return true;
    if (auto *L = dyn_cast<LoadInst>(I)) {
      if (L->isAtomic() || L->isVolatile())
        return true;
      auto It = Stored.find(getUnderlyingObject(L->getPointerOperand()));
      if (It != Stored.end())
        Work.append(It->second.begin(), It->second.end());
      continue;
    }
    // A flag that control flow sets (`return -1` on one path, `return 0`
    // on another, as the pipe built-ins' results after inlining): a phi of
    // constants depends on the branches that chose its incoming edge, the
    // nearest conditional one up each single-predecessor chain.
    if (auto *Phi = dyn_cast<PHINode>(I);
        Phi && all_of(Phi->incoming_values(),
                      [](Value *V) { return isa<Constant>(V); }))
      for (BasicBlock *In : Phi->blocks()) {
        BasicBlock *B = In;
        for (unsigned Depth = 0; B && Depth < 8; ++Depth) {
          if (auto *Br = dyn_cast<BranchInst>(B->getTerminator());
              Br && Br->isConditional()) {
            Work.push_back(Br->getCondition());
            break;
          }
          B = B->getSinglePredecessor();
        }
      }
    for (Value *Op : I->operands())
      Work.push_back(Op);
  }
  return false;
}

/// \p V with integer and bit casts looked through.
Value *stripCasts(Value *V) {
  while (auto *C = dyn_cast<CastInst>(V)) {
    if (!isa<BitCastInst, ZExtInst, SExtInst, TruncInst>(C))
      break;
    V = C->getOperand(0);
  }
  return V;
}

/// The private variable \p V was loaded from, if it is such a load.
AllocaInst *loadedAlloca(Value *V) {
  if (auto *L = dyn_cast<LoadInst>(V); L && L->isSimple())
    return dyn_cast<AllocaInst>(getUnderlyingObject(L->getPointerOperand()));
  return nullptr;
}

/// True if \p A and \p B are the same value: the same instruction, or two
/// loads of one private variable (unoptimized IR reloads a variable at each
/// use).
bool sameValue(Value *A, Value *B) {
  A = stripCasts(A);
  B = stripCasts(B);
  if (A == B)
    return true;
  AllocaInst *VA = loadedAlloca(A);
  return VA && VA == loadedAlloca(B);
}

/// Recognizes compare-and-swap retry loops (see the top of the file).
class RetryLoops {
public:
  explicit RetryLoops(const DominatorTree &DT) : DT(DT) {}

  /// True if \p L goes round again only after a retry compare-exchange in
  /// it failed: no path from its header back to it avoids the failure side
  /// of a branch on such a compare-exchange's success.
  bool isRetryLoop(const Loop &L) {
    BasicBlock *Header = L.getHeader();
    // Edges, not blocks: a condition that is a phi (C's `a && !cas(...)`)
    // has the value of the edge it was reached by.
    SmallSet<std::pair<BasicBlock *, BasicBlock *>, 16> Seen;
    SmallVector<std::pair<BasicBlock *, BasicBlock *>, 16> Work = {
        {Header, nullptr}};
    bool AnyFailureEdge = false;
    while (!Work.empty()) {
      auto [BB, Pred] = Work.pop_back_val();
      if (!Seen.insert({BB, Pred}).second)
        continue;
      SmallVector<BasicBlock *, 2> Next(successors(BB));
      auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
      if (Br && Br->isConditional()) {
        Value *Cond = Br->getCondition();
        // Where the tested compare-exchange must have run in this round.
        Instruction *At = Br;
        if (auto *Phi = dyn_cast<PHINode>(Cond);
            Phi && Pred && Phi->getParent() == BB) {
          Cond = Phi->getIncomingValueForBlock(Pred);
          At = Pred->getTerminator();
        }
        bool SuccessOnTrue = false;
        if (auto *K = dyn_cast<ConstantInt>(Cond)) {
          Next = {Br->getSuccessor(K->isOne() ? 0 : 1)};
        } else if (AtomicCmpXchgInst *X = successTest(Cond, SuccessOnTrue);
                   X && L.contains(X) && DT.dominates(X, At) &&
                   isRetry(*X, L)) {
          AnyFailureEdge = true;
          Next = {Br->getSuccessor(SuccessOnTrue ? 0 : 1)};
        }
      }
      for (BasicBlock *Succ : Next) {
        if (Succ == Header)
          return false; // round again without a failed compare-exchange
        if (L.contains(Succ))
          Work.push_back({Succ, BB});
      }
    }
    return AnyFailureEdge;
  }

private:
  const DominatorTree &DT;
  /// freshRead's answers; false while one is being worked out, so that a
  /// value that only feeds itself round the loop is not fresh.
  DenseMap<Value *, bool> Fresh;

  /// The compare-exchange whose success \p Cond tests, if it is such a
  /// test; \p SuccessOnTrue says which way. Recognized: its success flag
  /// (negated, widened or compared with 0 or 1 as C's bool is), and its
  /// loaded value compared with its expected one (OpenCL C 1.2's
  /// atomic_cmpxchg returns only the value).
  AtomicCmpXchgInst *successTest(Value *Cond, bool &SuccessOnTrue) {
    SuccessOnTrue = true;
    for (unsigned Depth = 0; Depth < 8; ++Depth) {
      Cond = stripCasts(Cond);
      if (auto *E = dyn_cast<ExtractValueInst>(Cond)) {
        if (E->getNumIndices() == 1 && E->getIndices()[0] == 1)
          return dyn_cast<AtomicCmpXchgInst>(E->getAggregateOperand());
        return nullptr;
      }
      auto *BO = dyn_cast<BinaryOperator>(Cond);
      if (BO && BO->getOpcode() == Instruction::Xor) {
        auto *One = dyn_cast<ConstantInt>(BO->getOperand(1));
        if (!One || !One->isOne())
          return nullptr;
        SuccessOnTrue = !SuccessOnTrue;
        Cond = BO->getOperand(0);
        continue;
      }
      auto *Cmp = dyn_cast<ICmpInst>(Cond);
      if (!Cmp || !Cmp->isEquality())
        return nullptr;
      bool Eq = Cmp->getPredicate() == ICmpInst::ICMP_EQ;
      Value *A = Cmp->getOperand(0), *B = Cmp->getOperand(1);
      // A flag compared with 0 or 1 (a bool as an int).
      if (auto *K = dyn_cast<ConstantInt>(B); K && K->getValue().ule(1)) {
        if (K->isZero() == Eq)
          SuccessOnTrue = !SuccessOnTrue;
        Cond = A;
        continue;
      }
      // The loaded value compared with the expected one.
      for (int Swap = 0; Swap < 2; ++Swap, std::swap(A, B)) {
        auto *E = dyn_cast<ExtractValueInst>(stripCasts(A));
        if (!E || E->getNumIndices() != 1 || E->getIndices()[0] != 0)
          continue;
        auto *X = dyn_cast<AtomicCmpXchgInst>(E->getAggregateOperand());
        if (X && sameValue(B, X->getCompareOperand())) {
          if (!Eq)
            SuccessOnTrue = !SuccessOnTrue;
          return X;
        }
      }
      return nullptr;
    }
    return nullptr;
  }

  /// True if the pointers \p A and \p B are the same: the same value, or
  /// loads of one private variable that \p L does not store to.
  bool samePointer(Value *A, Value *B, const Loop &L) {
    A = A->stripPointerCasts();
    B = B->stripPointerCasts();
    if (A == B)
      return true;
    AllocaInst *VA = loadedAlloca(A);
    if (!VA || VA != loadedAlloca(B))
      return false;
    for (User *U : VA->users())
      if (auto *St = dyn_cast<StoreInst>(U); St && L.contains(St))
        return false;
    return true;
  }

  /// True if \p V, as computed in \p L, is a value just read from \p X's
  /// location: \p X's own loaded value or a load of its pointer, followed
  /// through private variables and phis. What the loop starts with (stores
  /// and phi inputs from outside it) is a first guess and does not matter.
  bool freshRead(Value *V, AtomicCmpXchgInst &X, const Loop &L) {
    V = stripCasts(V);
    if (auto It = Fresh.find(V); It != Fresh.end())
      return It->second;
    Fresh[V] = false;
    bool Result = computeFresh(V, X, L);
    Fresh[V] = Result;
    return Result;
  }

  bool computeFresh(Value *V, AtomicCmpXchgInst &X, const Loop &L) {
    if (auto *E = dyn_cast<ExtractValueInst>(V)) {
      auto *Y = dyn_cast<AtomicCmpXchgInst>(E->getAggregateOperand());
      return Y && E->getNumIndices() == 1 && E->getIndices()[0] == 0 &&
             samePointer(Y->getPointerOperand(), X.getPointerOperand(), L);
    }
    if (auto *Phi = dyn_cast<PHINode>(V)) {
      for (unsigned I = 0; I < Phi->getNumIncomingValues(); ++I)
        if (L.contains(Phi->getIncomingBlock(I)) &&
            !freshRead(Phi->getIncomingValue(I), X, L))
          return false;
      return true;
    }
    if (AllocaInst *A = loadedAlloca(V)) {
      // A private variable: what the loop stores into it. Anything else
      // that could write it (a call it is passed to) is not followed.
      for (User *U : A->users()) {
        auto *I = dyn_cast<Instruction>(U);
        if (!I || !L.contains(I) || isa<LoadInst>(I) ||
            I->isLifetimeStartOrEnd())
          continue;
        auto *St = dyn_cast<StoreInst>(I);
        if (!St || St->getPointerOperand() != A ||
            !freshRead(St->getValueOperand(), X, L))
          return false;
      }
      return true;
    }
    if (auto *Ld = dyn_cast<LoadInst>(V))
      return samePointer(Ld->getPointerOperand(), X.getPointerOperand(), L);
    return false;
  }

  /// True if \p X is a retry: the value it expects is, in \p L, one just
  /// read from its location.
  bool isRetry(AtomicCmpXchgInst &X, const Loop &L) {
    Fresh.clear();
    return freshRead(X.getCompareOperand(), X, L);
  }
};

/// Puts the yields into \p Body, whose context is \p Ctx. True if there
/// was any.
bool insertProgressYields(Function &Body, Value *Ctx) {
  LLVMContext &C = Body.getContext();
  // What is stored into each private variable.
  DenseMap<Value *, SmallVector<Value *, 4>> Stored;
  bool Shared = false;
  for (Instruction &I : instructions(Body)) {
    if (auto *St = dyn_cast<StoreInst>(&I)) {
      if (auto *A = dyn_cast<AllocaInst>(
              getUnderlyingObject(St->getPointerOperand())))
        Stored[A].push_back(St->getValueOperand());
    }
    Shared |= isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I) ||
              isPipeOperation(I);
    if (auto *L = dyn_cast<LoadInst>(&I))
      Shared |= L->isAtomic() || L->isVolatile();
  }
  if (!Shared)
    return false; // nothing another work-item could change
  DominatorTree DT(Body);
  LoopInfo LI(DT);
  RetryLoops Retry(DT);
  SmallVector<std::pair<BasicBlock *, BasicBlock *>, 4> BackEdges;
  for (Loop *L : LI.getLoopsInPreorder()) {
    if (Retry.isRetryLoop(*L))
      continue;
    SmallVector<BasicBlock *, 4> Exiting;
    L->getExitingBlocks(Exiting);
    bool Waits = false;
    for (BasicBlock *BB : Exiting) {
      Instruction *T = BB->getTerminator();
      if (auto *Br = dyn_cast<BranchInst>(T); Br && Br->isConditional())
        Waits |= dependsOnSharedState(Br->getCondition(), Stored);
      else if (auto *Sw = dyn_cast<SwitchInst>(T))
        Waits |= dependsOnSharedState(Sw->getCondition(), Stored);
    }
    if (!Waits)
      continue;
    SmallVector<BasicBlock *, 4> Latches;
    L->getLoopLatches(Latches);
    for (BasicBlock *Latch : Latches)
      BackEdges.push_back({Latch, L->getHeader()});
  }
  if (BackEdges.empty())
    return false;
  PointerType *Ptr = PointerType::getUnqual(C);
  auto *YieldTy = FunctionType::get(Type::getVoidTy(C), {Ptr}, false);
  for (auto [Latch, Header] : BackEdges) {
    // Only when the loop goes round again: a loop that exits at once (a
    // compare-and-swap that succeeds) costs nothing.
    BasicBlock *Edge = SplitEdge(Latch, Header);
    IRBuilder<> B(Edge->getTerminator());
    CallInst *Y = B.CreateCall(
        YieldTy, loadContextField(B, Ctx, ContextField::Yield), {Ctx});
    Y->addFnAttr(Attribute::NoUnwind);
  }
  return true;
}

} // namespace

PreservedAnalyses ProgressYieldsPass::run(Function &F,
                                          FunctionAnalysisManager &) {
  Value *Ctx = contextParam(F);
  if (!Ctx || !insertProgressYields(F, Ctx))
    return PreservedAnalyses::all();
  return PreservedAnalyses::none();
}

} // namespace clcpu::compiler

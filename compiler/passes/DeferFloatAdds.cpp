//===- DeferFloatAdds.cpp - batch relaxed float atomic adds ---------------===//
//
// A float histogram (`atomic_fetch_add_explicit(&bins[h(x)], w,
// memory_order_relaxed)`, cl_ext_float_atomics) spends its time moving the
// bins' cache lines between cores: x86 has no floating-point atomic add, so
// each add is a compare-exchange loop, and under contention from every
// worker a whole machine does fewer adds per second than one core alone.
//
// This pass turns such an add into a call that queues it in the running
// thread (scheduler/DeferredAdds.cpp). At the end of the thread's share of
// the launch, before the launch is reported done (or when the queue fills),
// the thread applies each bin's queued adds in one step: it reads the bin,
// performs the adds one after another in float (or double), each rounded
// as the atomic add would have rounded it, and writes the result with one
// compare-exchange, starting over from the bin's new value if another
// thread changed it meanwhile. The bin's final value is the one of the
// same adds executed atomically back to back, in the order the thread
// queued them: one of the orders the atomics could have run in. The adds
// are never summed first, which would round differently.
//
// Why that is allowed (OpenCL C 3.0 6.15.12, the C11 memory model): a
// relaxed atomic add whose result is unused orders nothing and tells its
// work-item nothing. Applying it later, together with other such adds,
// looks the same as a schedule in which the work-items ran their adds back
// to back, provided nothing in between could see a difference. So the pass
// transforms a work-group function only when
//  - every atomic operation in it is such an add (no other atomic, fence,
//    barrier or collective, which could order or observe it), of float or
//    double, relaxed (memory_order_relaxed: builtins/c11atomic.cl keeps it
//    in the IR), its result unused;
//  - each such add targets a __global buffer argument (memory that outlives
//    the work-group; __local memory is reused by the thread's next group);
//  - no other load, store or call of the work-item may touch the memory of
//    any of those adds (alias analysis on the work-item function before it
//    becomes the work-group loop, where a `restrict` argument tells:
//    markDeferrableAdds): a work-item reading a bin would have to see its
//    own add. Another work-item's plain access to a bin while adds run is
//    a data race, whose result the memory model leaves undefined, so the
//    loop's unrolled and vectorized copies need not be compared.
// Other kernels or the host may read the bins while the launch runs; a
// relaxed add guarantees them no particular moment either, and the launch
// completes only after every queued add is applied.
//
// Only work-item-loop work-group functions carry the metadata naming their
// __global arguments (compiler/WorkGroupFunction.cpp); kernels on barrier
// regions or fibers are left alone.

#include "compiler/passes/DeferFloatAdds.h"
#include "compiler/WorkGroupFunction.h"

#include <llvm/ADT/SmallBitVector.h>
#include <llvm/Analysis/AliasAnalysis.h>
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/BasicAliasAnalysis.h>
#include <llvm/Analysis/MemoryLocation.h>
#include <llvm/Analysis/ScopedNoAliasAA.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/TargetParser/Triple.h>
#include <llvm/Transforms/Utils/PromoteMemToReg.h>

using namespace llvm;

namespace clcpu::compiler {

namespace {

/// fadd or fsub of float or double.
bool floatAdd(const AtomicRMWInst &A) {
  Type *T = A.getValOperand()->getType();
  return (A.getOperation() == AtomicRMWInst::FAdd ||
          A.getOperation() == AtomicRMWInst::FSub) &&
         (T->isFloatTy() || T->isDoubleTy());
}

/// An add the pass may defer: marked by markDeferrableAdds, relaxed, its
/// old value unused, into a __global argument.
bool deferrable(const AtomicRMWInst &A, const SmallBitVector &GlobalArgs,
                const Argument *Args, const DataLayout &DL) {
  if (!floatAdd(A) || !A.getMetadata(DeferrableMetadata))
    return false;
  // Volatile is no obstacle: every OpenCL C atomic function takes a
  // volatile pointer, so every atomic is (builtins/c11atomic.cl), and the
  // device has no memory whose accesses act by themselves.
  if (A.getOrdering() != AtomicOrdering::Monotonic || !A.use_empty())
    return false;
  int Slot =
      argumentIndex(getUnderlyingObject(A.getPointerOperand(), 0), Args, DL);
  return Slot >= 0 && unsigned(Slot) < GlobalArgs.size() &&
         GlobalArgs.test(unsigned(Slot));
}

} // namespace

void markDeferrableAdds(Function &Body) {
  if (none_of(instructions(Body), [](const Instruction &I) {
        const auto *A = dyn_cast<AtomicRMWInst>(&I);
        return A && floatAdd(*A);
      }))
    return;
  // The work-item function is as Clang emitted it, its arguments and
  // variables in allocas: promoted first, so that alias analysis sees a
  // `restrict` argument's pointer rather than a load of it.
  DominatorTree DT(Body);
  AssumptionCache AC(Body);
  SmallVector<AllocaInst *, 8> Allocas;
  for (Instruction &I : Body.getEntryBlock())
    if (auto *AI = dyn_cast<AllocaInst>(&I); AI && isAllocaPromotable(AI))
      Allocas.push_back(AI);
  if (!Allocas.empty())
    PromoteMemToReg(Allocas, DT, &AC);

  SmallVector<AtomicRMWInst *, 4> Adds;
  SmallVector<Instruction *, 32> Others;
  for (Instruction &I : instructions(Body)) {
    if (auto *A = dyn_cast<AtomicRMWInst>(&I); A && floatAdd(*A))
      Adds.push_back(A);
    // The context's fields are read with !invariant.load: memory nothing
    // writes while the kernel runs.
    else if (I.mayReadOrWriteMemory() &&
             !I.hasMetadata(LLVMContext::MD_invariant_load))
      Others.push_back(&I);
  }
  // Basic and scoped-noalias alias analysis, built here: the work-item
  // function is analysed outside any module pipeline.
  TargetLibraryInfoImpl TLII(Triple(Body.getParent()->getTargetTriple()));
  TargetLibraryInfo TLI(TLII, &Body);
  BasicAAResult Basic(Body.getDataLayout(), Body, TLI, AC, &DT);
  ScopedNoAliasAAResult Scoped;
  AAResults AA(TLI);
  AA.addAAResult(Basic);
  AA.addAAResult(Scoped);
  MDNode *Mark = MDNode::get(Body.getContext(), {});
  for (AtomicRMWInst *A : Adds) {
    MemoryLocation Loc = MemoryLocation::get(A);
    bool Alone = true;
    for (Instruction *I : Others)
      if (isModOrRefSet(AA.getModRefInfo(I, Loc))) {
        Alone = false;
        break;
      }
    if (Alone)
      A->setMetadata(DeferrableMetadata, Mark);
  }
}

PreservedAnalyses DeferFloatAddsPass::run(Function &F,
                                          FunctionAnalysisManager &) {
  MDNode *MD = F.getMetadata(GlobalArgsMetadata);
  if (!MD || F.arg_size() != 2)
    return PreservedAnalyses::all();
  const DataLayout &DL = F.getDataLayout();
  SmallBitVector GlobalArgs;
  for (const MDOperand &Op : MD->operands()) {
    auto *C = mdconst::dyn_extract<ConstantInt>(Op);
    if (!C)
      return PreservedAnalyses::all();
    unsigned I = unsigned(C->getZExtValue());
    if (I >= GlobalArgs.size())
      GlobalArgs.resize(I + 1);
    GlobalArgs.set(I);
  }

  // Every atomic a deferrable add, no fence, no barrier or collective.
  SmallVector<AtomicRMWInst *, 4> Adds;
  for (Instruction &I : instructions(F)) {
    if (auto *A = dyn_cast<AtomicRMWInst>(&I)) {
      if (!deferrable(*A, GlobalArgs, F.getArg(0), DL))
        return PreservedAnalyses::all();
      Adds.push_back(A);
    } else if (I.isAtomic() || isa<FenceInst>(I)) {
      return PreservedAnalyses::all();
    } else if (auto *CB = dyn_cast<CallBase>(&I); CB && CB->isConvergent()) {
      return PreservedAnalyses::all();
    }
  }
  if (Adds.empty())
    return PreservedAnalyses::all();

  Module &M = *F.getParent();
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  auto Declare = [&](const char *Name, Type *T) {
    FunctionCallee FC = M.getOrInsertFunction(
        Name, FunctionType::get(Type::getVoidTy(C), {Ptr, T}, false));
    if (auto *Fn = dyn_cast<Function>(FC.getCallee())) {
      // It returns and throws nothing (scheduler/DeferredAdds.cpp); no
      // memory attribute: when its queue fills it writes the bins.
      Fn->addFnAttr(Attribute::NoUnwind);
      Fn->addFnAttr(Attribute::WillReturn);
    }
    return FC;
  };
  for (AtomicRMWInst *A : Adds) {
    IRBuilder<> B(A);
    Value *V = A->getValOperand();
    // x - v is x + (-v) exactly, signed zeros included.
    if (A->getOperation() == AtomicRMWInst::FSub)
      V = B.CreateFNeg(V);
    bool Double = V->getType()->isDoubleTy();
    B.CreateCall(
        Declare(Double ? DeferredAddF64 : DeferredAddF32, V->getType()),
        {A->getPointerOperand(), V});
    A->eraseFromParent();
  }
  return PreservedAnalyses::none();
}

} // namespace clcpu::compiler

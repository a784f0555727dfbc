//===- compiler/WorkItemLoopVectorize.cpp - vectorizing across work-items -===//
//
// A barrier-free kernel becomes a loop over the work-items of a group
// (compiler/WorkGroupFunction.cpp). When the kernel body has no loop of its
// own, that x-loop is innermost and LLVM's loop vectorizer widens it as it
// is. When the body has loops (nbody's loop over bodies, a naive sgemm's loop
// over k) the x-loop is an OUTER loop, which the vectorizer only takes on its
// VPlan-native path and only when told to: this file
//
//  * marks the x-loop of such a kernel for vectorization across work-items
//    with a width of one vector register of 32-bit lanes (work-items are
//    independent between barriers, so any width is legal),
//  * splits the body's OpenCL vector operations (float4 ...) into scalars
//    first, because the vectorizer widens scalars only, and
//  * right before the vectorizer, withdraws the mark from an x-loop the
//    native path cannot widen (calls other than vectorizable intrinsics,
//    atomics, volatile accesses, vector-typed values, switches, values used
//    after the loop ...): such a
//    kernel then runs scalar, which is correct, instead of reaching an
//    unsupported shape in the vectorizer.
//
// Loads and stores on the native path are gathers and scatters, and values
// the same for every work-item are widened too; two passes after the
// vectorizer repair both (UniformVectorPhis.cpp: uniform values back to
// scalars, a gather of one address to a load; ConsecutiveGathers.cpp: a
// gather of adjacent elements to a vector load).

#include "compiler/Internal.h"

#include <llvm/Analysis/CFG.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DiagnosticHandler.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Metadata.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/Scalarizer.h>

#include <mutex>

using namespace llvm;

namespace clcpu::compiler {

namespace {

const char *const MarkName = "clcpu.work_item_loop";

/// The loop ID operand named \p Name, or null.
MDNode *loopProperty(MDNode *LoopID, StringRef Name) {
  if (!LoopID)
    return nullptr;
  for (const MDOperand &Op : drop_begin(LoopID->operands()))
    if (auto *N = dyn_cast<MDNode>(Op.get()))
      if (auto *S = dyn_cast_or_null<MDString>(N->getOperand(0).get());
          S && S->getString() == Name)
        return N;
  return nullptr;
}

/// Why the native path cannot widen \p I, or null if it can.
const char *unsupported(const Instruction &I) {
  if (I.getType()->isVectorTy())
    return "vector-typed value";
  for (const Value *Op : I.operands())
    if (Op->getType()->isVectorTy())
      return "vector-typed operand";
  if (const auto *CI = dyn_cast<CallInst>(&I)) {
    Intrinsic::ID ID = CI->getIntrinsicID();
    if (ID == Intrinsic::not_intrinsic || !isTriviallyVectorizable(ID))
      return "call";
    // An operand that stays scalar (llvm.powi's exponent, is.fpclass's
    // class mask) must be the same for every work-item.
    for (unsigned A = 0; A < CI->arg_size(); ++A)
      if (isVectorIntrinsicWithScalarOpAtArg(ID, A) &&
          !isa<Constant>(CI->getArgOperand(A)))
        return "intrinsic with a varying scalar operand";
    return nullptr;
  }
  // The native path widens without dependence checks. Global and local
  // memory is fine (work-items that touch each other's data without a
  // barrier race in OpenCL anyway), but a private array is one alloca the
  // x-loop reuses for every work-item: widened, the lanes would share it.
  if (const auto *L = dyn_cast<LoadInst>(&I)) {
    if (!L->isSimple())
      return "atomic or volatile load";
    return isa<AllocaInst>(getUnderlyingObject(L->getPointerOperand()))
               ? "private array"
               : nullptr;
  }
  if (const auto *S = dyn_cast<StoreInst>(&I)) {
    if (!S->isSimple())
      return "atomic or volatile store";
    return isa<AllocaInst>(getUnderlyingObject(S->getPointerOperand()))
               ? "private array"
               : nullptr;
  }
  if (isa<BinaryOperator>(I) || isa<BranchInst>(I) || isa<CastInst>(I) ||
      isa<CmpInst>(I) || isa<SelectInst>(I) || isa<PHINode>(I) ||
      isa<GetElementPtrInst>(I) || isa<UnaryOperator>(I) || isa<FreezeInst>(I))
    return nullptr;
  return "instruction kind";
}

} // namespace

bool isOptimizerHint(const Instruction &I) {
  const auto *II = dyn_cast<IntrinsicInst>(&I);
  if (!II)
    return false;
  switch (II->getIntrinsicID()) {
  case Intrinsic::experimental_noalias_scope_decl:
  case Intrinsic::lifetime_start:
  case Intrinsic::lifetime_end:
  case Intrinsic::assume:
  case Intrinsic::sideeffect:
  case Intrinsic::dbg_declare:
  case Intrinsic::dbg_value:
  case Intrinsic::dbg_label:
    return true;
  default:
    return false;
  }
}

namespace {

/// Whether every load and store of some innermost loop in the work-item
/// loop \p X moves one element per iteration of that loop, from a start
/// that is neither the same for all work-items nor one element further
/// per work-item: `in[gid * k + j]`, each work-item's own k consecutive
/// elements (across work-items: gathers of stride k, which on the Zen 4
/// host made scan_blocks' sum loop 42% of its time in one gather).
bool walksOwnElements(const Loop &X, ScalarEvolution &SE) {
  for (const Loop *I : X.getLoopsInPreorder()) {
    if (!I->isInnermost())
      continue;
    bool Any = false, All = true;
    for (BasicBlock *BB : I->blocks())
      for (Instruction &Ins : *BB) {
        if (!isa<LoadInst>(Ins) && !isa<StoreInst>(Ins))
          continue;
        Any = true;
        Type *Ty = getLoadStoreType(&Ins);
        const auto *AR = dyn_cast<SCEVAddRecExpr>(
            SE.getSCEV(getLoadStorePointerOperand(&Ins)));
        const auto *Step =
            AR && AR->getLoop() == I && AR->isAffine()
                ? dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE))
                : nullptr;
        if (!Step ||
            Step->getAPInt() !=
                Ins.getDataLayout().getTypeAllocSize(Ty).getFixedValue()) {
          All = false;
          continue;
        }
        const SCEV *Start = AR->getStart();
        const auto *XR = dyn_cast<SCEVAddRecExpr>(Start);
        if (SE.isLoopInvariant(Start, &X) ||
            (XR && XR->getLoop() == &X && XR->getStepRecurrence(SE) == Step))
          All = false;
      }
    if (Any && All)
      return true;
  }
  return false;
}

/// Runs right before the loop vectorizer: drops the vectorize hint of a
/// marked x-loop that contains loops the native path cannot widen.
/// Whether an instruction of \p L has a user outside it.
bool hasLiveOut(const Loop &L) {
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      for (const User *U : I.users())
        if (!L.contains(cast<Instruction>(U)->getParent()))
          return true;
  return false;
}

struct WorkItemLoopCheck : PassInfoMixin<WorkItemLoopCheck> {
  PreservedAnalyses run(Function &F, FunctionAnalysisManager &FAM) {
    LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
    ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
    bool Changed = false;
    for (Loop *L : LI.getLoopsInPreorder()) {
      MDNode *ID = L->getLoopID();
      if (!loopProperty(ID, MarkName) || L->isInnermost())
        continue;
      const char *Why = nullptr;
      SmallVector<Instruction *, 4> Droppable;
      for (BasicBlock *BB : L->blocks()) {
        for (Instruction &I : *BB)
          if (isOptimizerHint(I))
            Droppable.push_back(&I);
          else if ((Why = unsupported(I)))
            break;
        // The native path's own rule: a conditional branch must be uniform
        // across work-items or a loop's back or exit edge.
        auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
        if (!Why && Br && Br->isConditional() &&
            !L->isLoopInvariant(Br->getCondition()) &&
            !LI.isLoopHeader(Br->getSuccessor(0)) &&
            !LI.isLoopHeader(Br->getSuccessor(1)))
          Why = "branch that differs between work-items";
        if (Why)
          break;
      }
      // A value computed in the x-loop and used after it (LICM promotes a
      // store to a work-item-independent address, `*result = count`, to one
      // store after the loop of the last work-item's value): the native
      // path does not carry live-outs out of the widened loop, so the store
      // got the value from before the loop (Boost.Compute's count_if
      // returned 0). Such a loop stays scalar.
      if (!Why && hasLiveOut(*L))
        Why = "a value computed in the loop is used after it";
      // Each work-item walking its own consecutive elements is faster
      // per work-item (vector loads of its elements, ScanLoopVectorize.cpp
      // for running sums) than across work-items as strided gathers and
      // scatters.
      if (!Why && walksOwnElements(*L, SE))
        Why = "inner loop walks each work-item's own consecutive elements";
      if (!Why) {
        // Hints only: the native path would try to widen them.
        for (Instruction *I : Droppable)
          I->eraseFromParent();
        Changed |= !Droppable.empty();
        continue;
      }
      // Without the vectorize hints the x-loop stays scalar and its inner
      // loops are vectorized as usual.
      replaceVectorizeHints(*L);
    }
    if (!Changed)
      return PreservedAnalyses::all();
    PreservedAnalyses PA;
    PA.preserveSet<CFGAnalyses>();
    return PA;
  }
};

/// Whether \p F has a loop marked by markWorkItemLoop.
bool hasWorkItemLoop(Function &F, FunctionAnalysisManager &FAM) {
  for (Loop *L : FAM.getResult<LoopAnalysis>(F).getLoopsInPreorder())
    if (loopProperty(L->getLoopID(), MarkName))
      return true;
  return false;
}

/// float4 arithmetic → four scalar streams the vectorizer can widen across
/// work-items (loads and stores included); only in work-group functions
/// with a work-item loop, so the per-work-item (fiber) code keeps its
/// vector operations.
struct ScalarizeWorkItemLoops : PassInfoMixin<ScalarizeWorkItemLoops> {
  PreservedAnalyses run(Function &F, FunctionAnalysisManager &FAM) {
    if (!hasWorkItemLoop(F, FAM))
      return PreservedAnalyses::all();
    ScalarizerPassOptions O;
    O.ScalarizeLoadStore = true;
    return ScalarizerPass(O).run(F, FAM);
  }
};

} // namespace

namespace {
/// Swallows the vectorizer's remarks and its "loop not vectorized" warning
/// for a hinted x-loop it declined (the kernel then runs scalar, correctly);
/// everything else goes to the default handler.
struct QuietVectorizer : DiagnosticHandler {
  bool handleDiagnostics(const DiagnosticInfo &DI) override {
    return DI.getSeverity() == DS_Remark ||
           DI.getKind() == DK_OptimizationFailure;
  }
};
} // namespace

void quietVectorizerDiagnostics(LLVMContext &C) {
  C.setDiagnosticHandler(std::make_unique<QuietVectorizer>());
}

void enableOuterLoopVectorization() {
  // The vectorizer's VPlan-native path (outer loops with an explicit hint)
  // is behind a command-line option; set it once for this process.
  static std::once_flag Once;
  std::call_once(Once, [] {
    auto &Opts = cl::getRegisteredOptions();
    auto It = Opts.find("enable-vplan-native-path");
    if (It != Opts.end())
      static_cast<cl::opt<bool> *>(It->second)->setValue(true);
  });
}

void replaceVectorizeHints(Loop &L, ArrayRef<Metadata *> Hints) {
  SmallVector<Metadata *, 4> Ops = {nullptr};
  if (MDNode *ID = L.getLoopID())
    for (const MDOperand &Op : drop_begin(ID->operands()))
      if (auto *N = dyn_cast<MDNode>(Op.get());
          !N || !isa<MDString>(N->getOperand(0)) ||
          !cast<MDString>(N->getOperand(0))
               ->getString()
               .starts_with("llvm.loop.vectorize."))
        Ops.push_back(Op.get());
  append_range(Ops, Hints);
  MDNode *NewID = MDNode::getDistinct(L.getHeader()->getContext(), Ops);
  NewID->replaceOperandWith(0, NewID);
  L.setLoopID(NewID);
}

bool isWorkItemLoop(const Loop &L) {
  return loopProperty(L.getLoopID(), MarkName);
}

void markWorkItemLoop(BranchInst &Latch, const Function &Body, unsigned Lanes) {
  SmallVector<std::pair<const BasicBlock *, const BasicBlock *>, 4> Backedges;
  FindFunctionBackedges(Body, Backedges);
  markWorkItemLoop(Latch, !Backedges.empty(), Lanes);
}

void markWorkItemLoop(BranchInst &Latch, bool BodyHasLoops, unsigned Lanes,
                      bool NoUnroll) {
  LLVMContext &C = Latch.getContext();
  SmallVector<Metadata *, 4> Ops = {nullptr,
                                    MDNode::get(C, MDString::get(C, MarkName))};
  if (BodyHasLoops && Lanes > 1) {
    Type *I1 = Type::getInt1Ty(C), *I32 = Type::getInt32Ty(C);
    Ops.push_back(
        MDNode::get(C, {MDString::get(C, "llvm.loop.vectorize.enable"),
                        ConstantAsMetadata::get(ConstantInt::get(I1, 1))}));
    Ops.push_back(MDNode::get(
        C, {MDString::get(C, "llvm.loop.vectorize.width"),
            ConstantAsMetadata::get(ConstantInt::get(I32, Lanes))}));
    Ops.push_back(
        MDNode::get(C, {MDString::get(C, "llvm.loop.interleave.count"),
                        ConstantAsMetadata::get(ConstantInt::get(I32, 1))}));
  }
  if (NoUnroll)
    Ops.push_back(MDNode::get(C, MDString::get(C, "llvm.loop.unroll.disable")));
  MDNode *ID = MDNode::getDistinct(C, Ops);
  ID->replaceOperandWith(0, ID);
  Latch.setMetadata(LLVMContext::MD_loop, ID);
}

void registerWorkItemLoopPasses(PassBuilder &PB) {
  PB.registerVectorizerStartEPCallback(
      [](FunctionPassManager &FPM, OptimizationLevel) {
        // Before the vectorizer decides: `i / width` then widens.
        addInvariantDivisionPass(FPM);
        // Before the vectorizer's dependence analysis: work-items of one
        // loop do not depend on each other, so no run-time alias checks.
        addParallelWorkItemLoopPass(FPM);
        // Before float4 stores are split into scalars that would look like
        // a work-item's own block of elements.
        addBlockedStorePass(FPM);
        FPM.addPass(ScalarizeWorkItemLoops());
        FPM.addPass(WorkItemLoopCheck());
        // After the check: the x-loop keeps the path the guard gave it (a
        // loop over k strided elements is faster scalar than as gathers),
        // and its inner loops lose their per-element bound checks.
        addGuardedLoopBoundPass(FPM);
        // A loop that writes out a running sum (the second half of a
        // k-elements-per-work-item scan) is a recurrence the vectorizer
        // leaves scalar: this runs it VF iterations at a time, after the
        // guard above has gone from its body.
        addScanLoopVectorizePass(FPM);
      });
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        // Sub-group stretches: their collective steps, after the vectorizer
        // made each of their regions one vector per sub-group.
        addSubGroupStepInlinePass(MPM);
        // Uniform inner-loop values the outer-loop path widened become
        // scalars again; InstCombine folds what hangs off them (splat
        // arithmetic, gathers of one address).
        FunctionPassManager FPM;
        addUniformVectorPhiPass(FPM);
        FPM.addPass(InstCombinePass());
        addConsecutiveGatherPass(FPM);
        FPM.addPass(InstCombinePass());
        // Before the gathers split into their checked forms: a grid-stride
        // loop's loads prefetch the group's run a few strides ahead.
        addGridStridePrefetchPass(FPM);
        // What is adjacent only at run time (`s[(lid + 1) % WG]`) checks
        // its lanes and takes a vector load when they are.
        addRuntimeConsecutiveGatherPass(FPM);
        // Sinks the gathers' vector address arithmetic into their blocks.
        FPM.addPass(InstCombinePass());
        // AVX2's masked stores are microcoded on AMD: a mask that is all
        // on or all off at run time takes a plain store or none.
        addMaskedStoreFastPathPass(FPM);
        // Last: InstCombine would not undo it, but it should see the
        // final stores (compiler/NonTemporalStores.cpp).
        addNonTemporalStorePass(FPM);
        MPM.addPass(createModuleToFunctionPassAdaptor(std::move(FPM)));
      });
}

} // namespace clcpu::compiler

//===- UniformVectorPhis.cpp - uniform vector values to scalars -----------===//
//
// The loop vectorizer's outer-loop path (compiler/WorkItemLoops.cpp)
// widens every value of a work-item loop, including the values of a loop
// inside the kernel that are the same for every work-item (nbody's `j` and
// `pos[j]`, sgemm's `k` and `A[row * n + k]`). Such a value becomes a vector
// whose lanes are always equal: its induction variable a vector PHI, each
// load from it a gather of sixteen copies of one address.
//
// This pass finds those uniform vector values (splat constants and
// broadcasts; PHIs, arithmetic, comparisons, casts, selects and GEPs of
// uniform operands; gathers with all lanes enabled from a uniform address),
// computes each once as a scalar, and broadcasts it where a non-uniform
// value uses it. A gather of one address becomes one scalar load.

#include "compiler/passes/UniformVectorPhis.h"

#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/ADT/SetVector.h>
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/PassManager.h>

using namespace llvm;

#define DEBUG_TYPE "clcpu-uniform-vector-phis"

namespace clcpu::compiler {

namespace {

bool isSplatShuffle(const Instruction &I) {
  const auto *SV = dyn_cast<ShuffleVectorInst>(&I);
  return SV && isa<FixedVectorType>(SV->getType()) &&
         all_of(SV->getShuffleMask(), [](int M) { return M == 0; });
}

/// A gather with every lane enabled: operands (ptrs, align, mask, passthru).
bool isFullGather(const Instruction &I) {
  const auto *II = dyn_cast<IntrinsicInst>(&I);
  if (!II || II->getIntrinsicID() != Intrinsic::masked_gather)
    return false;
  const auto *Mask = dyn_cast<Constant>(II->getArgOperand(2));
  return Mask && Mask->isAllOnesValue();
}

/// A cast that maps each lane to one lane: not a bitcast that regroups the
/// bits (`<8 x i32>` to `<4 x i64>`), whose scalar form would be invalid.
bool isLaneCast(const Instruction &I) {
  const auto *From = dyn_cast<FixedVectorType>(I.getOperand(0)->getType());
  return isa<CastInst>(I) && From &&
         From->getNumElements() ==
             cast<FixedVectorType>(I.getType())->getNumElements();
}

bool isCandidate(const Instruction &I) {
  if (!isa<FixedVectorType>(I.getType()))
    return false;
  return isa<PHINode>(I) || isa<BinaryOperator>(I) || isa<UnaryOperator>(I) ||
         isa<CmpInst>(I) || isLaneCast(I) || isa<SelectInst>(I) ||
         isa<GetElementPtrInst>(I) || isSplatShuffle(I) || isFullGather(I);
}

class Uniformity {
public:
  explicit Uniformity(Function &F) : F(F) {}

  bool run() {
    ReversePostOrderTraversal<Function *> RPOT(&F);
    for (BasicBlock *BB : RPOT)
      for (Instruction &I : *BB)
        if (isCandidate(I))
          Uniform.insert(&I);
    // Optimistic fixed point: PHIs are assumed uniform until an incoming
    // value proves otherwise.
    for (bool Changed = true; Changed;) {
      Changed = false;
      SmallVector<Instruction *, 32> Failed;
      for (Instruction *I : Uniform)
        if (!holds(*I))
          Failed.push_back(I);
      for (Instruction *I : Failed)
        Uniform.remove(I);
      Changed = !Failed.empty();
    }
    if (Uniform.empty())
      return false;
    rewrite();
    return true;
  }

private:
  Function &F;
  SetVector<Instruction *> Uniform;
  DenseMap<Value *, Value *> Scalar;

  bool uniformOperand(const Value *V) const {
    if (!V->getType()->isVectorTy())
      return true; // a scalar operand (GEP base, select condition)
    if (const auto *C = dyn_cast<Constant>(V))
      return C->getSplatValue() != nullptr;
    const auto *I = dyn_cast<Instruction>(V);
    return I && Uniform.contains(const_cast<Instruction *>(I));
  }

  bool holds(const Instruction &I) const {
    if (isSplatShuffle(I))
      return true;
    if (isFullGather(I))
      return uniformOperand(cast<CallInst>(I).getArgOperand(0));
    return all_of(I.operands(),
                  [&](const Use &U) { return uniformOperand(U.get()); });
  }

  Value *scalarOf(Value *V, IRBuilder<> &B) {
    if (!V->getType()->isVectorTy())
      return V;
    if (auto *C = dyn_cast<Constant>(V))
      return C->getSplatValue();
    return Scalar.lookup(V);
  }

  void rewrite() {
    // Scalar PHIs first, so that loop-carried operands have a definition.
    for (Instruction *I : Uniform)
      if (auto *P = dyn_cast<PHINode>(I))
        Scalar[P] = PHINode::Create(
            P->getType()->getScalarType(), P->getNumIncomingValues(),
            P->getName() + ".uniform", P->getParent()->getFirstNonPHIIt());
    for (Instruction *I : Uniform) {
      if (isa<PHINode>(I))
        continue;
      IRBuilder<> B(I);
      Value *S = nullptr;
      if (isSplatShuffle(*I)) {
        Value *Src = I->getOperand(0);
        auto *Ins = dyn_cast<InsertElementInst>(Src);
        auto *Idx = Ins ? dyn_cast<ConstantInt>(Ins->getOperand(2)) : nullptr;
        S = Idx && Idx->isZero() ? Ins->getOperand(1)
                                 : B.CreateExtractElement(Src, uint64_t(0));
      } else if (isFullGather(*I)) {
        auto *G = cast<CallInst>(I);
        Align A(cast<ConstantInt>(G->getArgOperand(1))->getZExtValue());
        auto *L = B.CreateAlignedLoad(I->getType()->getScalarType(),
                                      scalarOf(G->getArgOperand(0), B), A);
        L->copyMetadata(*G, {LLVMContext::MD_tbaa, LLVMContext::MD_noalias,
                             LLVMContext::MD_alias_scope});
        S = L;
      } else {
        // The same operation on lane 0: clone, then swap in scalar operands.
        Instruction *C = I->clone();
        for (Use &U : C->operands())
          U.set(scalarOf(U.get(), B));
        C->mutateType(I->getType()->getScalarType());
        if (auto *GEP = dyn_cast<GetElementPtrInst>(C))
          GEP->setResultElementType(
              cast<GetElementPtrInst>(I)->getResultElementType());
        C->setName(I->getName() + ".uniform");
        B.Insert(C);
        S = C;
      }
      Scalar[I] = S;
    }
    for (Instruction *I : Uniform)
      if (auto *P = dyn_cast<PHINode>(I)) {
        auto *SP = cast<PHINode>(Scalar[P]);
        for (unsigned K = 0; K < P->getNumIncomingValues(); ++K) {
          IRBuilder<> B(P->getIncomingBlock(K)->getTerminator());
          SP->addIncoming(scalarOf(P->getIncomingValue(K), B),
                          P->getIncomingBlock(K));
        }
      }
    // Users outside the uniform set get a broadcast of the scalar.
    for (Instruction *I : Uniform) {
      Value *S = Scalar[I];
      Value *Splat = nullptr;
      for (Use &U : make_early_inc_range(I->uses())) {
        auto *User = cast<Instruction>(U.getUser());
        if (Uniform.contains(User))
          continue;
        if (!Splat) {
          // Where I was: after the scalar, dominating every use of I.
          IRBuilder<> B(I->getParent(), isa<PHINode>(I)
                                            ? I->getParent()->getFirstNonPHIIt()
                                            : I->getIterator());
          Splat = B.CreateVectorSplat(
              cast<FixedVectorType>(I->getType())->getNumElements(), S);
        }
        U.set(Splat);
      }
    }
    for (Instruction *I : Uniform)
      I->dropAllReferences();
    for (Instruction *I : Uniform)
      I->eraseFromParent();
  }
};

} // namespace

PreservedAnalyses UniformVectorPhisPass::run(Function &F,
                                             FunctionAnalysisManager &) {
  if (F.isDeclaration())
    return PreservedAnalyses::all();
  return Uniformity(F).run() ? PreservedAnalyses::none()
                             : PreservedAnalyses::all();
}

} // namespace clcpu::compiler

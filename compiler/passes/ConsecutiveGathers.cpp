//===- ConsecutiveGathers.cpp - gathers of adjacent lanes to loads --------===//
//===//
//
// The loop vectorizer's outer-loop path (compiler/WorkItemLoops.cpp)
// turns every load and store of a work-item loop into a gather or scatter,
// even `B[k * n + col]`, where lane i reads the element right after lane
// i - 1's. This pass proves that from the pointer vector's lane stride and
// turns such a gather (every lane enabled) into one vector load, such a
// scatter into one vector store.
//
// The stride is computed lane-wise through adds, subtracts, multiplies and
// shifts by constants, integer casts and GEPs; like the scalar code the
// vectorizer started from, it assumes the index arithmetic of neighbouring
// work-items does not wrap (the OpenCL C source computed the same indices in
// int/size_t, where a wrap would already have made them wrong).

#include "compiler/passes/ConsecutiveGathers.h"

#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GetElementPtrTypeIterator.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>

#include <optional>

using namespace llvm;

#define DEBUG_TYPE "clcpu-consecutive-gathers"

namespace clcpu::compiler {

namespace {

class LaneStride {
public:
  explicit LaneStride(const DataLayout &DL) : DL(DL) {}

  /// The difference between neighbouring lanes of \p V (bytes for pointer
  /// vectors), if it is the same constant for all lanes.
  std::optional<int64_t> of(const Value *V, unsigned Depth = 0) {
    if (Depth > 12)
      return std::nullopt;
    if (!V->getType()->isVectorTy())
      return 0; // a scalar operand: the same in every lane
    if (isSplatValue(V))
      return 0;
    if (const auto *CDV = dyn_cast<ConstantDataVector>(V)) {
      if (!CDV->getElementType()->isIntegerTy() || CDV->getNumElements() < 2)
        return std::nullopt;
      int64_t D = static_cast<int64_t>(CDV->getElementAsInteger(1) -
                                       CDV->getElementAsInteger(0));
      for (unsigned I = 1; I < CDV->getNumElements(); ++I)
        if (static_cast<int64_t>(CDV->getElementAsInteger(I) -
                                 CDV->getElementAsInteger(I - 1)) != D)
          return std::nullopt;
      return D;
    }
    const auto *I = dyn_cast<Instruction>(V);
    if (!I)
      return std::nullopt;
    auto Const = [](const Value *C) -> std::optional<int64_t> {
      if (const auto *K = dyn_cast<Constant>(C))
        if (const auto *S = dyn_cast_or_null<ConstantInt>(K->getSplatValue()))
          return S->getSExtValue();
      return std::nullopt;
    };
    switch (I->getOpcode()) {
    case Instruction::Add:
    case Instruction::Sub: {
      auto A = of(I->getOperand(0), Depth + 1);
      auto B = of(I->getOperand(1), Depth + 1);
      if (!A || !B)
        return std::nullopt;
      return I->getOpcode() == Instruction::Add ? *A + *B : *A - *B;
    }
    case Instruction::Mul: {
      for (unsigned K = 0; K < 2; ++K)
        if (auto C = Const(I->getOperand(K)))
          if (auto A = of(I->getOperand(1 - K), Depth + 1))
            return *A * *C;
      return std::nullopt;
    }
    case Instruction::Shl: {
      auto C = Const(I->getOperand(1));
      auto A = of(I->getOperand(0), Depth + 1);
      if (!C || !A || *C < 0 || *C > 62)
        return std::nullopt;
      return static_cast<int64_t>(static_cast<uint64_t>(*A) << *C);
    }
    case Instruction::AShr:
    case Instruction::LShr: {
      // Exact shifts only: no lane loses bits, so the stride divides.
      auto C = Const(I->getOperand(1));
      auto A = of(I->getOperand(0), Depth + 1);
      if (!C || !A || !I->isExact() || *C < 0 || *C > 62 ||
          (*A & ((int64_t(1) << *C) - 1)) != 0)
        return std::nullopt;
      return *A >> *C;
    }
    case Instruction::SExt:
    case Instruction::ZExt:
    case Instruction::Trunc:
      return of(I->getOperand(0), Depth + 1);
    case Instruction::GetElementPtr: {
      const auto *GEP = cast<GetElementPtrInst>(I);
      auto S = of(GEP->getPointerOperand(), Depth + 1);
      if (!S)
        return std::nullopt;
      int64_t Total = *S;
      gep_type_iterator GTI = gep_type_begin(GEP);
      for (auto Idx = GEP->idx_begin(); Idx != GEP->idx_end(); ++Idx, ++GTI) {
        if (GTI.isStruct()) {
          if (!isSplatValue(*Idx) && (*Idx)->getType()->isVectorTy())
            return std::nullopt;
          continue; // the same field in every lane
        }
        auto D = of(*Idx, Depth + 1);
        if (!D)
          return std::nullopt;
        Total += *D * static_cast<int64_t>(
                          GTI.getSequentialElementStride(DL).getFixedValue());
      }
      return Total;
    }
    case Instruction::PHI: {
      // An induction: every incoming value (the start and start + step * VF)
      // has the same stride.
      if (!Visiting.insert(I).second) {
        auto It = Assumed.find(I);
        return It == Assumed.end() ? std::nullopt
                                   : std::optional<int64_t>(It->second);
      }
      std::optional<int64_t> R;
      const auto *P = cast<PHINode>(I);
      for (const Value *In : P->incoming_values()) {
        if (In == P)
          continue;
        auto S = of(In, Depth + 1);
        if (!S || (R && *R != *S)) {
          R = std::nullopt;
          break;
        }
        if (!R) {
          R = S;
          Assumed[I] = *S; // for the loop-carried operand
        }
      }
      Visiting.erase(I);
      Assumed.erase(I);
      return R;
    }
    default:
      return std::nullopt;
    }
  }

private:
  const DataLayout &DL;
  SmallPtrSet<const Instruction *, 4> Visiting;
  DenseMap<const Instruction *, int64_t> Assumed;
};

bool allOnes(const Value *Mask) {
  const auto *C = dyn_cast<Constant>(Mask);
  return C && C->isAllOnesValue();
}

} // namespace

PreservedAnalyses ConsecutiveGathersPass::run(Function &F,
                                              FunctionAnalysisManager &) {
  const DataLayout &DL = F.getParent()->getDataLayout();
  SmallVector<IntrinsicInst *, 16> Work;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *II = dyn_cast<IntrinsicInst>(&I))
        if (II->getIntrinsicID() == Intrinsic::masked_gather ||
            II->getIntrinsicID() == Intrinsic::masked_scatter)
          Work.push_back(II);
  bool Changed = false;
  for (IntrinsicInst *II : Work) {
    bool Gather = II->getIntrinsicID() == Intrinsic::masked_gather;
    // gather(ptrs, align, mask, passthru); scatter(value, ptrs, align, mask)
    Value *Ptrs = II->getArgOperand(Gather ? 0 : 1);
    uint64_t AlignV =
        cast<ConstantInt>(II->getArgOperand(Gather ? 1 : 2))->getZExtValue();
    if (!allOnes(II->getArgOperand(Gather ? 2 : 3)))
      continue;
    auto *VT = cast<FixedVectorType>(Gather ? II->getType()
                                            : II->getArgOperand(0)->getType());
    LaneStride LS(DL);
    auto S = LS.of(Ptrs);
    if (!S ||
        *S != static_cast<int64_t>(
                  DL.getTypeStoreSize(VT->getElementType()).getFixedValue()) ||
        DL.getTypeStoreSize(VT->getElementType()) !=
            DL.getTypeAllocSize(VT->getElementType()))
      continue;
    IRBuilder<> B(II);
    Value *Base = B.CreateExtractElement(Ptrs, uint64_t(0));
    Instruction *New;
    if (Gather) {
      New = B.CreateAlignedLoad(VT, Base, Align(AlignV));
      II->replaceAllUsesWith(New);
    } else {
      New = B.CreateAlignedStore(II->getArgOperand(0), Base, Align(AlignV));
    }
    New->copyMetadata(*II, {LLVMContext::MD_tbaa, LLVMContext::MD_noalias,
                            LLVMContext::MD_alias_scope,
                            LLVMContext::MD_access_group});
    II->eraseFromParent();
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace clcpu::compiler

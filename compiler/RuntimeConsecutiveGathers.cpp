//===- compiler/RuntimeConsecutiveGathers.cpp - gathers checked at run time
//===//
//
// compiler/ConsecutiveGathers.cpp turns a gather into a vector load when the
// lanes' addresses are adjacent by construction. Many work-item loops gather
// from addresses that are adjacent almost always but not provably so:
// `s[(lid + 1) % WG]` (adjacent except where the index wraps),
// `in[min(gid + 1, n - 1)]` (except at the clamp), `a[idx[i]]` with a sorted
// index array. A gather of 16 lanes costs a dozen cycles or more on x86;
// comparing 16 addresses against lane 0's plus i * element size costs a few.
//
// Every remaining gather and scatter inside a loop gets that comparison: when
// all lanes are adjacent it runs as a (masked) vector load or store from lane
// 0's address, otherwise as the original gather or scatter. A gather also
// checks whether all lanes read one address (`offsets[i / chunk]`): then it
// is one scalar load and a broadcast. The two are
// equivalent whenever the check passes (the same lanes read or write the same
// addresses, and adjacent addresses never repeat, so a scatter's lane order
// does not matter), and a masked load or store never touches a disabled
// lane's address, just like the gather.

#include "compiler/Internal.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

using namespace llvm;

namespace clcpu::compiler {

namespace {

/// Whether \p II is worth guarding: a gather or scatter of 4 to 64 lanes of
/// an element whose size is a power of two no larger than 8 bytes.
bool candidate(const IntrinsicInst &II, const DataLayout &DL) {
  bool Gather = II.getIntrinsicID() == Intrinsic::masked_gather;
  auto *VT = dyn_cast<FixedVectorType>(Gather ? II.getType()
                                              : II.getArgOperand(0)->getType());
  if (!VT || VT->getNumElements() < 4 || VT->getNumElements() > 64)
    return false;
  Type *E = VT->getElementType();
  uint64_t Size = DL.getTypeStoreSize(E).getFixedValue();
  return Size == DL.getTypeAllocSize(E).getFixedValue() && Size <= 8 &&
         isPowerOf2_64(Size) &&
         isa<FixedVectorType>(II.getArgOperand(Gather ? 0 : 1)->getType());
}

/// Splits at \p II: `if (all lanes adjacent) masked load/store else II`.
void guard(IntrinsicInst *II, const DataLayout &DL) {
  bool Gather = II->getIntrinsicID() == Intrinsic::masked_gather;
  // gather(ptrs, align, mask, passthru); scatter(value, ptrs, align, mask)
  Value *Ptrs = II->getArgOperand(Gather ? 0 : 1);
  Align A(cast<ConstantInt>(II->getArgOperand(Gather ? 1 : 2))->getZExtValue());
  Value *Mask = II->getArgOperand(Gather ? 2 : 3);
  auto *VT = cast<FixedVectorType>(Gather ? II->getType()
                                          : II->getArgOperand(0)->getType());
  unsigned N = VT->getNumElements();
  uint64_t Size = DL.getTypeStoreSize(VT->getElementType()).getFixedValue();

  IRBuilder<> B(II);
  Type *I64 = B.getInt64Ty();
  auto *IntVT = FixedVectorType::get(I64, N);
  Value *Base = B.CreateExtractElement(Ptrs, uint64_t(0), "lane0.addr");
  Value *Addrs = B.CreatePtrToInt(Ptrs, IntVT);
  SmallVector<Constant *, 16> Offsets;
  for (unsigned I = 0; I < N; ++I)
    Offsets.push_back(ConstantInt::get(I64, I * Size));
  Value *Expected =
      B.CreateAdd(B.CreateVectorSplat(N, B.CreatePtrToInt(Base, I64)),
                  ConstantVector::get(Offsets));
  Value *Eq = B.CreateICmpEQ(Addrs, Expected);
  Value *All = B.CreateICmpEQ(B.CreateBitCast(Eq, B.getIntNTy(N)),
                              ConstantInt::getAllOnesValue(B.getIntNTy(N)),
                              "lanes.adjacent");

  // Head: the check; Then: the vector access; II stays in Else.
  Instruction *ThenTerm, *ElseTerm;
  SplitBlockAndInsertIfThenElse(All, II, &ThenTerm, &ElseTerm);
  // II starts the tail block; it moves to the else block.
  BasicBlock *Tail = II->getParent();
  II->moveBefore(ElseTerm);
  IRBuilder<> TB(ThenTerm);
  bool AllOn = isa<Constant>(Mask) && cast<Constant>(Mask)->isAllOnesValue();
  auto Keep = [&](Instruction *New) {
    New->copyMetadata(*II, {LLVMContext::MD_tbaa, LLVMContext::MD_noalias,
                            LLVMContext::MD_alias_scope,
                            LLVMContext::MD_access_group,
                            LLVMContext::MD_nontemporal});
    return New;
  };
  if (!Gather) {
    if (AllOn)
      Keep(TB.CreateAlignedStore(II->getArgOperand(0), Base, A));
    else
      Keep(TB.CreateMaskedStore(II->getArgOperand(0), Base, A, Mask));
    return;
  }
  Instruction *Adjacent =
      AllOn ? static_cast<Instruction *>(TB.CreateAlignedLoad(VT, Base, A))
            : TB.CreateMaskedLoad(VT, Base, A, Mask, II->getArgOperand(3));
  Keep(Adjacent);

  // A gather whose lanes all read one address (`offsets[i / chunk]`, the
  // same for a whole chunk of work-items) is one load and a broadcast.
  IRBuilder<> EB(II);
  Value *Same = EB.CreateICmpEQ(
      EB.CreateBitCast(
          EB.CreateICmpEQ(
              Addrs, EB.CreateVectorSplat(N, EB.CreatePtrToInt(Base, I64))),
          EB.getIntNTy(N)),
      ConstantInt::getAllOnesValue(EB.getIntNTy(N)), "lanes.same");
  Instruction *SameTerm, *GatherTerm;
  SplitBlockAndInsertIfThenElse(Same, II, &SameTerm, &GatherTerm);
  BasicBlock *GatherTail = II->getParent();
  II->moveBefore(GatherTerm);
  IRBuilder<> SB(SameTerm);
  Value *One = Keep(SB.CreateAlignedLoad(VT->getElementType(), Base, A));
  Value *Splat = SB.CreateVectorSplat(N, One);
  if (!AllOn)
    Splat = SB.CreateSelect(Mask, Splat, II->getArgOperand(3));

  IRBuilder<> GB(GatherTail, GatherTail->getFirstInsertionPt());
  PHINode *Inner = GB.CreatePHI(VT, 2);
  IRBuilder<> PB(Tail, Tail->getFirstInsertionPt());
  PHINode *Phi = PB.CreatePHI(VT, 2);
  // Uses first, then the PHIs' own incoming II (RAUW would rewrite it).
  II->replaceAllUsesWith(Phi);
  Inner->addIncoming(Splat, SameTerm->getParent());
  Inner->addIncoming(II, GatherTerm->getParent());
  Phi->addIncoming(Adjacent, ThenTerm->getParent());
  Phi->addIncoming(Inner, GatherTail);
}

struct RuntimeConsecutiveGathers : PassInfoMixin<RuntimeConsecutiveGathers> {
  PreservedAnalyses run(Function &F, FunctionAnalysisManager &FAM) {
    const DataLayout &DL = F.getParent()->getDataLayout();
    LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
    SmallVector<IntrinsicInst *, 16> Work;
    for (BasicBlock &BB : F) {
      if (!LI.getLoopFor(&BB))
        continue; // once-only code: not worth the branch
      for (Instruction &I : BB)
        if (auto *II = dyn_cast<IntrinsicInst>(&I))
          if ((II->getIntrinsicID() == Intrinsic::masked_gather ||
               II->getIntrinsicID() == Intrinsic::masked_scatter) &&
              candidate(*II, DL))
            Work.push_back(II);
    }
    for (IntrinsicInst *II : Work)
      guard(II, DL);
    return Work.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
  }
};

} // namespace

void addRuntimeConsecutiveGatherPass(FunctionPassManager &FPM) {
  FPM.addPass(RuntimeConsecutiveGathers());
}

} // namespace clcpu::compiler

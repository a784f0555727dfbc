//===- InterleavedAccesses.cpp - structs of adjacent lanes at once --------===//
//
// A work-item that reads or writes a small struct, the four channels of an
// RGBA texel (builtins/image.cl loads and stores each channel) or the
// components of a float4 it indexes, becomes after vectorizing across
// work-items one gather (scatter) per field: K gathers of N lanes whose
// addresses are the lanes' struct addresses plus 0, E, ..., (K - 1) * E.
// When the lanes' structs are adjacent, as they are for a kernel that
// writes the pixel of its work-item, those K gathers read exactly the
// N * K elements from lane 0's struct on, and the fields come out of one
// wide load by K shuffles; the K scatters are one wide store of the fields
// interleaved. A gather or scatter of 16 lanes costs a dozen cycles or more
// on x86 and several times that on AMD's Zen 4, where an image kernel's
// RGBA float writes were its largest cost.
//
// Adjacency is known only at run time (an image's row, a clamped index), so
// each such group gets a check, as compiler/passes/
// RuntimeConsecutiveGathers.cpp gives single gathers: lane i's struct
// address equals lane 0's plus i * K * E for every lane. If it holds the
// group runs as a wide (masked) load or store, whose mask repeats each
// lane's bit K times, so it touches exactly the bytes the gathers or
// scatters would. Otherwise (a resampling kernel's texels, a transposed
// write) each lane's struct is one small vector load or store, N of them,
// with the same shuffles: N loads and a few shuffles cost less than K
// gathers of N lanes wherever a gather costs more than a cycle a lane
// (image_bilinear's texel gathers were two thirds of its time on Zen 4).
// A disabled lane's access goes to a private spare struct, so it touches
// nothing the gathers or scatters would not. A group is K = 2 or 4 gathers
// (scatters) in one block of one element type, with one mask and the same
// vector of struct addresses, offsets 0 to (K - 1) * E; between the first
// and the last, nothing else writes memory (gathers), or touches it
// (scatters), since the fast path moves them together.
//
// Runs after compiler/passes/ConsecutiveGathers.cpp (gathers adjacent by
// construction are vector loads by then) and before
// RuntimeConsecutiveGathers.cpp, which checks the slow path's gathers for
// adjacency of their own.

#include "compiler/passes/InterleavedAccesses.h"

#include <llvm/ADT/MapVector.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Support/Debug.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <algorithm>
#include <map>
#include <tuple>

using namespace llvm;

#define DEBUG_TYPE "clcpu-interleaved-accesses"

namespace clcpu::compiler {

namespace {

/// The most bytes one group's wide access may span (16 lanes of RGBA
/// float: 256).
constexpr uint64_t MaxGroupBytes = 512;

/// One gather or scatter: its call and its constant byte offset from the
/// group's vector of struct addresses.
struct Member {
  IntrinsicInst *II;
  int64_t Offset;
};

/// What a group shares: gathers or scatters, the struct addresses, the
/// mask, the element type and the block.
struct GroupKey {
  bool Scatter;
  Value *Base, *Mask;
  Type *Elem;
  BasicBlock *BB;
  bool operator<(const GroupKey &O) const {
    return std::tie(Scatter, Base, Mask, Elem, BB) <
           std::tie(O.Scatter, O.Base, O.Mask, O.Elem, O.BB);
  }
};

bool isGather(const IntrinsicInst *II) {
  return II->getIntrinsicID() == Intrinsic::masked_gather;
}

Value *pointers(IntrinsicInst *II) {
  return II->getArgOperand(isGather(II) ? 0 : 1);
}
Value *mask(IntrinsicInst *II) {
  return II->getArgOperand(isGather(II) ? 2 : 3);
}
Align alignment(IntrinsicInst *II) {
  return Align(
      cast<ConstantInt>(II->getArgOperand(isGather(II) ? 1 : 2))
          ->getZExtValue());
}
FixedVectorType *valueType(IntrinsicInst *II) {
  return dyn_cast<FixedVectorType>(isGather(II)
                                       ? II->getType()
                                       : II->getArgOperand(0)->getType());
}

/// \p Ptrs as a vector of struct addresses and a constant byte offset:
/// `gep T, <N x ptr> B, constant indices` is (B, the indices' bytes);
/// anything else is itself at offset 0.
std::pair<Value *, int64_t> baseAndOffset(Value *Ptrs, const DataLayout &DL) {
  if (auto *G = dyn_cast<GEPOperator>(Ptrs))
    if (G->getPointerOperand()->getType()->isVectorTy()) {
      APInt Off(DL.getIndexSizeInBits(0), 0);
      if (G->accumulateConstantOffset(DL, Off))
        return {G->getPointerOperand(), Off.getSExtValue()};
    }
  return {Ptrs, 0};
}

/// Whether \p V is available at \p At.
bool availableAt(Value *V, Instruction *At, const DominatorTree &DT) {
  auto *I = dyn_cast<Instruction>(V);
  return !I || DT.dominates(I, At);
}

/// The group's members ordered by offset if they make one whole struct
/// per lane: K = 2 or 4 members at offsets 0, E, ..., (K - 1) * E, all in
/// one block with nothing between the first and the last that the fast
/// path would reorder them with.
bool wholeStructs(SmallVectorImpl<Member> &Ms, uint64_t E) {
  size_t K = Ms.size();
  if (K != 2 && K != 4)
    return false;
  // (An earlier group's rewrite may have split the block between them.)
  for (const Member &M : Ms)
    if (M.II->getParent() != Ms[0].II->getParent())
      return false;
  llvm::sort(Ms, [](const Member &A, const Member &B) {
    return A.Offset < B.Offset;
  });
  for (size_t C = 0; C < K; ++C)
    if (Ms[C].Offset != int64_t(C * E))
      return false;
  // The first and last in block order, and what lies between.
  Instruction *First = Ms[0].II, *Last = Ms[0].II;
  for (const Member &M : Ms) {
    if (M.II->comesBefore(First))
      First = M.II;
    if (Last->comesBefore(M.II))
      Last = M.II;
  }
  bool Scatter = !isGather(Ms[0].II);
  for (Instruction *I = First->getNextNode(); I != Last;
       I = I->getNextNode()) {
    if (llvm::any_of(Ms, [&](const Member &M) { return M.II == I; }))
      continue;
    if (Scatter ? I->mayReadOrWriteMemory() : I->mayWriteToMemory())
      return false;
  }
  return true;
}

/// Lane i's bit of \p Mask (N lanes) repeated \p K times.
Value *repeatLanes(IRBuilder<> &B, Value *Mask, unsigned N, unsigned K) {
  SmallVector<int, 64> Idx;
  for (unsigned I = 0; I < N; ++I)
    for (unsigned C = 0; C < K; ++C)
      Idx.push_back(int(I));
  return B.CreateShuffleVector(Mask, Idx, "mask.repeated");
}

/// The fields \p Vs (K vectors of N lanes) interleaved: lane i's field c
/// at i * K + c.
Value *interleaveFields(IRBuilder<> &B, ArrayRef<Value *> Vs, unsigned N) {
  unsigned K = Vs.size();
  Value *Lo = Vs[0], *Hi = Vs[1];
  if (K == 4) {
    SmallVector<int, 64> Concat;
    for (unsigned I = 0; I < 2 * N; ++I)
      Concat.push_back(int(I));
    Lo = B.CreateShuffleVector(Vs[0], Vs[1], Concat);
    Hi = B.CreateShuffleVector(Vs[2], Vs[3], Concat);
  }
  // Field c of lane i is element c * N + i of Lo ++ Hi.
  SmallVector<int, 64> Idx;
  for (unsigned I = 0; I < N; ++I)
    for (unsigned C = 0; C < K; ++C)
      Idx.push_back(int(C * N + I));
  return B.CreateShuffleVector(Lo, Hi, Idx, "interleaved");
}

/// The check: lane i of \p Base (N struct addresses) is lane 0's plus
/// i * \p Stride bytes.
Value *structsAdjacent(IRBuilder<> &B, Value *Base, unsigned N,
                       uint64_t Stride) {
  Type *I64 = B.getInt64Ty();
  Value *Addr = B.CreatePtrToInt(Base, FixedVectorType::get(I64, N));
  Value *Lane0 = B.CreateVectorSplat(N, B.CreateExtractElement(Addr, uint64_t(0)));
  SmallVector<Constant *, 64> Steps;
  for (unsigned I = 0; I < N; ++I)
    Steps.push_back(ConstantInt::get(I64, I * Stride));
  Value *Want = B.CreateAdd(Lane0, ConstantVector::get(Steps));
  Value *Diff = B.CreateICmpNE(Addr, Want);
  Value *Bits = B.CreateBitCast(Diff, B.getIntNTy(N));
  return B.CreateICmpEQ(Bits, ConstantInt::get(Bits->getType(), 0),
                        "structs.adjacent");
}

bool allOnes(Value *Mask) {
  auto *C = dyn_cast<Constant>(Mask);
  return C && C->isAllOnesValue();
}

/// Members \p Ms in block order (they share one block).
SmallVector<IntrinsicInst *, 4> inBlockOrder(ArrayRef<Member> Ms) {
  SmallVector<IntrinsicInst *, 4> R;
  for (const Member &M : Ms)
    R.push_back(M.II);
  llvm::sort(R, [](IntrinsicInst *X, IntrinsicInst *Y) {
    return X->comesBefore(Y);
  });
  return R;
}

/// The alignment the wide access may assume: the least of its members'.
Align groupAlignment(ArrayRef<IntrinsicInst *> Members) {
  Align A = alignment(Members[0]);
  for (IntrinsicInst *II : Members)
    A = std::min(A, alignment(II));
  return A;
}

/// A private struct of \p K elements of \p Elem (a scalar or a vector's
/// element type) in \p F's entry block: where a disabled lane's load or
/// store goes; none when \p Mask has every lane on.
Value *spareStruct(Function &F, Value *Mask, Type *Elem, unsigned K) {
  if (allOnes(Mask))
    return nullptr;
  Elem = Elem->getScalarType();
  IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
  return B.CreateAlloca(FixedVectorType::get(Elem, K), nullptr, "spare.struct");
}

/// Lane \p I's struct address: its address in \p Base, or \p Spare
/// where its bit of \p Mask is clear.
Value *laneAddress(IRBuilder<> &B, Value *Base, Value *Mask, unsigned I,
                   Value *Spare) {
  Value *Addr = B.CreateExtractElement(Base, uint64_t(I));
  if (allOnes(Mask))
    return Addr;
  return B.CreateSelect(B.CreateExtractElement(Mask, uint64_t(I)), Addr, Spare);
}

/// The K fields of \p N lanes' structs at \p Base, one <K x Elem> load
/// per lane: the loads concatenated pairwise into lane i's struct at
/// i * K, each field taken out by a shuffle; a disabled lane reads
/// \p Spare and keeps its pass-through value \p Pass.
SmallVector<Value *, 4> loadPerLane(IRBuilder<> &B, Value *Base, Value *Mask,
                                    unsigned N, unsigned K, Type *Elem, Align A,
                                    ArrayRef<Value *> Pass, Value *Spare) {
  auto *StructTy = FixedVectorType::get(Elem, K);
  SmallVector<Value *, 64> Parts;
  for (unsigned I = 0; I < N; ++I)
    Parts.push_back(B.CreateAlignedLoad(
        StructTy, laneAddress(B, Base, Mask, I, Spare), A, "lane.struct"));
  // N is a power of two (checked by the caller): halve the list by
  // concatenating neighbours until one vector of N * K elements is left.
  while (Parts.size() > 1) {
    unsigned Len = cast<FixedVectorType>(Parts[0]->getType())->getNumElements();
    SmallVector<int, 64> Concat;
    for (unsigned J = 0; J < 2 * Len; ++J)
      Concat.push_back(int(J));
    SmallVector<Value *, 64> Next;
    for (size_t J = 0; J < Parts.size(); J += 2)
      Next.push_back(B.CreateShuffleVector(Parts[J], Parts[J + 1], Concat));
    Parts = std::move(Next);
  }
  SmallVector<Value *, 4> Fields;
  for (unsigned C = 0; C < K; ++C) {
    SmallVector<int, 64> Idx;
    for (unsigned I = 0; I < N; ++I)
      Idx.push_back(int(I * K + C));
    Value *F = B.CreateShuffleVector(Parts[0], Idx);
    if (!allOnes(Mask))
      F = B.CreateSelect(Mask, F, Pass[C]);
    Fields.push_back(F);
  }
  return Fields;
}

/// Stores \p Wide (N lanes' K-element structs, lane i's at i * K) one
/// <K x Elem> store per lane, in lane order; a disabled lane writes
/// \p Spare.
void storePerLane(IRBuilder<> &B, Value *Wide, Value *Base, Value *Mask,
                  unsigned N, unsigned K, Align A, Value *Spare) {
  for (unsigned I = 0; I < N; ++I) {
    SmallVector<int, 4> Idx;
    for (unsigned C = 0; C < K; ++C)
      Idx.push_back(int(I * K + C));
    B.CreateAlignedStore(B.CreateShuffleVector(Wide, Idx),
                         laneAddress(B, Base, Mask, I, Spare), A);
  }
}

/// Rewrites one group of scatters (\p Ms by offset) of \p N lanes of
/// \p E-byte elements.
void rewriteScatters(ArrayRef<Member> Ms, Value *Base, unsigned N,
                     uint64_t E) {
  unsigned K = Ms.size();
  SmallVector<IntrinsicInst *, 4> Order = inBlockOrder(Ms);
  Instruction *Last = Order.back();
  Value *Mask = mask(Order[0]);
  Align A = groupAlignment(Order);
  IRBuilder<> B(Last);
  // The fields interleaved, lane i's struct at i * K: what both paths
  // store.
  SmallVector<Value *, 4> Vals;
  for (const Member &M : Ms)
    Vals.push_back(M.II->getArgOperand(0));
  Value *Wide = interleaveFields(B, Vals, N);
  Value *Adjacent = structsAdjacent(B, Base, N, K * E);
  Instruction *ThenTerm, *ElseTerm;
  SplitBlockAndInsertIfThenElse(Adjacent, Last, &ThenTerm, &ElseTerm);
  // The fast path: one store from lane 0's struct on.
  IRBuilder<> TB(ThenTerm);
  Value *Lane0 = TB.CreateExtractElement(Base, uint64_t(0), "struct0");
  if (allOnes(Mask))
    TB.CreateAlignedStore(Wide, Lane0, A);
  else
    TB.CreateMaskedStore(Wide, Lane0, A, repeatLanes(TB, Mask, N, K));
  // The other path: each lane's struct stored by itself, in lane order (a
  // scatter's order where two lanes write one address).
  IRBuilder<> EB(ElseTerm);
  storePerLane(EB, Wide, Base, Mask, N, K, A,
               spareStruct(*Last->getFunction(), Mask, Vals[0]->getType(), K));
  for (IntrinsicInst *II : Order)
    II->eraseFromParent();
}

/// Rewrites one group of gathers (\p Ms by offset) of \p N lanes of
/// \p E-byte elements of type \p Elem.
void rewriteGathers(ArrayRef<Member> Ms, Value *Base, unsigned N, uint64_t E,
                    Type *Elem) {
  unsigned K = Ms.size();
  SmallVector<IntrinsicInst *, 4> Order = inBlockOrder(Ms);
  Instruction *First = Order.front();
  Value *Mask = mask(Order[0]);
  Align A = groupAlignment(Order);
  IRBuilder<> B(First);
  Value *Adjacent = structsAdjacent(B, Base, N, K * E);
  Instruction *ThenTerm, *ElseTerm;
  SplitBlockAndInsertIfThenElse(Adjacent, First, &ThenTerm, &ElseTerm);
  BasicBlock *Tail = First->getParent();
  // The fast path: one load from lane 0's struct on, each field taken out
  // by a shuffle; disabled lanes keep their gather's pass-through value.
  IRBuilder<> TB(ThenTerm);
  Value *Lane0 = TB.CreateExtractElement(Base, uint64_t(0), "struct0");
  auto *WideTy = FixedVectorType::get(Elem, N * K);
  Value *Wide;
  if (allOnes(Mask)) {
    Wide = TB.CreateAlignedLoad(WideTy, Lane0, A, "interleaved");
  } else {
    SmallVector<Value *, 4> Pass;
    for (const Member &M : Ms)
      Pass.push_back(M.II->getArgOperand(3));
    Wide = TB.CreateMaskedLoad(WideTy, Lane0, A, repeatLanes(TB, Mask, N, K),
                               interleaveFields(TB, Pass, N), "interleaved");
  }
  SmallVector<Value *, 4> Fast;
  for (unsigned C = 0; C < K; ++C) {
    SmallVector<int, 64> Idx;
    for (unsigned I = 0; I < N; ++I)
      Idx.push_back(int(I * K + C));
    Fast.push_back(TB.CreateShuffleVector(Wide, Idx, "field"));
  }
  // The other path: one load per lane's struct, the same shuffles.
  // The phis go first in the tail, before any member is erased (the first
  // member is the tail's first instruction).
  IRBuilder<> EB(ElseTerm);
  SmallVector<Value *, 4> Pass;
  for (const Member &M : Ms)
    Pass.push_back(M.II->getArgOperand(3));
  SmallVector<Value *, 4> Slows =
      loadPerLane(EB, Base, Mask, N, K, Elem, A, Pass,
                  spareStruct(*First->getFunction(), Mask, Elem, K));
  IRBuilder<> PB(&Tail->front());
  SmallVector<PHINode *, 4> Phis;
  for (unsigned C = 0; C < K; ++C) {
    IntrinsicInst *II = Ms[C].II;
    Value *Slow = Slows[C];
    if (auto *SI = dyn_cast<Instruction>(Slow))
      SI->setName(II->getName() + ".slow");
    PHINode *Phi = PB.CreatePHI(II->getType(), 2);
    Phi->addIncoming(Fast[C], ThenTerm->getParent());
    Phi->addIncoming(Slow, ElseTerm->getParent());
    Phis.push_back(Phi);
  }
  for (unsigned C = 0; C < K; ++C) {
    Phis[C]->takeName(Ms[C].II);
    Ms[C].II->replaceAllUsesWith(Phis[C]);
    Ms[C].II->eraseFromParent();
  }
}

} // namespace

PreservedAnalyses InterleavedAccessesPass::run(Function &F,
                                               FunctionAnalysisManager &FAM) {
  const DataLayout &DL = F.getParent()->getDataLayout();
  // Candidates by what they share, in the order they were found.
  MapVector<GroupKey, SmallVector<Member, 4>,
            std::map<GroupKey, unsigned>>
      Groups;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      auto *II = dyn_cast<IntrinsicInst>(&I);
      if (!II || (II->getIntrinsicID() != Intrinsic::masked_gather &&
                  II->getIntrinsicID() != Intrinsic::masked_scatter))
        continue;
      FixedVectorType *VT = valueType(II);
      if (!VT || VT->getNumElements() < 2)
        continue;
      Type *Elem = VT->getElementType();
      uint64_t E = DL.getTypeStoreSize(Elem);
      if (!(Elem->isIntegerTy() || Elem->isFloatingPointTy()) ||
          DL.getTypeAllocSize(Elem) != E || (E != 4 && E != 8))
        continue;
      auto [Base, Offset] = baseAndOffset(pointers(II), DL);
      Groups[{!isGather(II), Base, mask(II), Elem, &BB}].push_back(
          {II, Offset});
    }
  bool Changed = false;
  for (auto &[Key, Ms] : Groups) {
    unsigned N = valueType(Ms[0].II)->getNumElements();
    uint64_t E = DL.getTypeStoreSize(Key.Elem);
    // (N a power of two: the per-lane path concatenates pairwise.)
    if (N * Ms.size() * E > MaxGroupBytes || !isPowerOf2_32(N) ||
        !wholeStructs(Ms, E))
      continue;
    // The fast path is built at the first gather (the last scatter): what
    // it uses must be there. (Earlier rewrites split blocks, which moves
    // instructions but keeps their order and dominance.)
    SmallVector<IntrinsicInst *, 4> Order = inBlockOrder(Ms);
    Instruction *At = Key.Scatter ? Order.back() : Order.front();
    DominatorTree DT(F);
    bool Available = availableAt(Key.Base, At, DT) &&
                     availableAt(Key.Mask, At, DT);
    if (!Key.Scatter) // the gathers' pass-through values
      for (const Member &M : Ms)
        Available &= availableAt(M.II->getArgOperand(3), At, DT);
    if (!Available)
      continue;
    LLVM_DEBUG(dbgs() << "interleaved " << (Key.Scatter ? "scatters" : "gathers")
                      << ": " << Ms.size() << " x " << N << " lanes\n");
    if (Key.Scatter)
      rewriteScatters(Ms, Key.Base, N, E);
    else
      rewriteGathers(Ms, Key.Base, N, E, Key.Elem);
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace clcpu::compiler

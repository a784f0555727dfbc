//===- ImageArguments.cpp - image descriptors as constants ----------------===//
//
// An image argument is a pointer to the image's descriptor (data pointer,
// pitches, sizes, channel order and data type: runtime/Image.h's
// DeviceImage), which builtins/image.cl reads at every access: the format
// picks the conversion with a switch, the element size scales the address.
// Two things keep such reads out of the loop vectorizer's reach when the
// kernel body sits in a work-item loop:
//
//  - The descriptor's loads look like any global load: a kernel that
//    writes an image (stores through the data pointer) may, for alias
//    analysis, write the descriptor too, so its fields are loaded again in
//    every iteration and LICM cannot hoist the format out of the loop.
//    The runtime makes the descriptor once, when the image is created, and
//    never changes it: every load of it is marked `!invariant.load`.
//
//  - With the format unknown, each access is a switch over channel orders
//    and data types with loops over the channels inside: the vectorizer
//    takes neither. A launch knows the formats of the images it binds (and
//    the bits of its samplers), so the runtime builds a specialization of
//    the kernel for them (runtime/Kernel.cpp, compiler::ArgBindings): here
//    the loads of the order, data type, element size and channel count
//    become constants, the switches fold to the one conversion of that
//    format, the channel loops unroll, and what remains is straight-line
//    coordinate arithmetic, gathers and conversions that vectorize across
//    work-items like any buffer code. A sampler parameter with known bits
//    becomes the constant, so the addressing and filter mode fold too.
//
// What is an image or sampler parameter, and what is fixed, comes from the
// function's ImageArgumentsMetadata. The body is still the front end's
// code (parameters spilled to allocas): loads of a spill slot that only
// ever holds the parameter are the parameter too.

#include "compiler/passes/ImageArguments.h"

#include "compiler/Compiler.h"
#include "compiler/passes/PassResult.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/Statistic.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Debug.h>

using namespace llvm;

#define DEBUG_TYPE "clcpu-image-arguments"

STATISTIC(NumInvariant, "Image descriptor loads marked invariant");
STATISTIC(NumFolded, "Image format fields replaced by their launch's value");
STATISTIC(NumSamplers, "Sampler parameters replaced by their launch's bits");

namespace clcpu::compiler {

namespace {

/// \p N's operand \p I as an integer, if it is one.
std::optional<uint64_t> intOperand(const MDNode &N, unsigned I) {
  if (I >= N.getNumOperands())
    return std::nullopt;
  if (auto *C = mdconst::dyn_extract_or_null<ConstantInt>(N.getOperand(I)))
    return C->getZExtValue();
  return std::nullopt;
}

/// Whether every user of \p Slot is a load, a lifetime marker, or a store
/// into it of a value in \p Same: a spill slot of the parameter.
bool isSpillSlot(const AllocaInst &Slot, const SmallPtrSetImpl<Value *> &Same) {
  for (const User *U : Slot.users()) {
    if (const auto *S = dyn_cast<StoreInst>(U)) {
      if (S->getPointerOperand() != &Slot ||
          !Same.contains(S->getValueOperand()))
        return false;
    } else if (const auto *L = dyn_cast<LoadInst>(U)) {
      if (L->getPointerOperand() != &Slot)
        return false;
    } else if (const auto *II = dyn_cast<IntrinsicInst>(U)) {
      if (!II->isLifetimeStartOrEnd())
        return false;
    } else {
      return false;
    }
  }
  return true;
}

/// The values that are parameter \p A: \p A and the loads of its spill
/// slots (a slot may hold a copy loaded from another).
SmallPtrSet<Value *, 8> copiesOf(Argument &A) {
  SmallPtrSet<Value *, 8> Same{&A};
  SmallVector<Value *, 8> Work{&A};
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    for (User *U : V->users()) {
      auto *S = dyn_cast<StoreInst>(U);
      if (!S || S->getValueOperand() != V)
        continue;
      auto *Slot = dyn_cast<AllocaInst>(S->getPointerOperand());
      if (!Slot || !isSpillSlot(*Slot, Same))
        continue;
      for (User *SU : Slot->users())
        if (auto *L = dyn_cast<LoadInst>(SU); L && Same.insert(L).second)
          Work.push_back(L);
    }
  }
  return Same;
}

/// The loads through the pointers of \p Copies (at a constant offset or
/// not).
SmallVector<LoadInst *, 16>
descriptorLoads(const SmallPtrSet<Value *, 8> &Copies) {
  SmallVector<LoadInst *, 16> Loads;
  SmallPtrSet<Value *, 16> Seen;
  SmallVector<Value *, 16> Work(Copies.begin(), Copies.end());
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (User *U : V->users()) {
      if (isa<GetElementPtrInst>(U) || isa<BitCastInst>(U) ||
          isa<AddrSpaceCastInst>(U))
        Work.push_back(U);
      else if (auto *L = dyn_cast<LoadInst>(U);
               L && L->getPointerOperand() == V && !L->isVolatile())
        Loads.push_back(L);
    }
  }
  return Loads;
}

/// The constant that field load \p L reads, given the fixed format \p N
/// (`!{i32 Index, !"image", i32 Order, i32 Type, i32 ElementSize, i32
/// Channels}`), or null if \p L reads another field.
Constant *fixedField(LoadInst &L, const MDNode &N,
                     const SmallPtrSet<Value *, 8> &Copies) {
  const DataLayout &DL = L.getDataLayout();
  APInt Offset(DL.getIndexTypeSizeInBits(L.getPointerOperandType()), 0);
  Value *Base = L.getPointerOperand()->stripAndAccumulateConstantOffsets(
      DL, Offset, /*AllowNonInbounds=*/true);
  if (!Copies.contains(Base) || !L.getType()->isIntegerTy(32))
    return nullptr;
  unsigned Operand;
  switch (Offset.getSExtValue()) {
  case ImageDescriptorLayout::Order:
    Operand = 2;
    break;
  case ImageDescriptorLayout::Type:
    Operand = 3;
    break;
  case ImageDescriptorLayout::ElementSize:
    Operand = 4;
    break;
  case ImageDescriptorLayout::Channels:
    Operand = 5;
    break;
  default:
    return nullptr;
  }
  std::optional<uint64_t> V = intOperand(N, Operand);
  return V ? ConstantInt::get(L.getType(), *V) : nullptr;
}

} // namespace

PreservedAnalyses ImageArgumentsPass::run(Function &F,
                                          FunctionAnalysisManager &) {
  MDNode *List = F.getMetadata(ImageArgumentsMetadata);
  if (!List)
    return PreservedAnalyses::all();
  LLVMContext &C = F.getContext();
  for (const MDOperand &Op : List->operands()) {
    auto *N = dyn_cast_or_null<MDNode>(Op.get());
    if (!N || N->getNumOperands() < 2)
      continue;
    std::optional<uint64_t> Index = intOperand(*N, 0);
    auto *Kind = dyn_cast_or_null<MDString>(N->getOperand(1).get());
    if (!Index || !Kind || *Index >= F.arg_size())
      continue;
    Argument *A = F.getArg(*Index);
    if (!A->getType()->isPointerTy())
      continue;
    if (Kind->getString() == "sampler") {
      // A sampler is its bits in a pointer (builtins/image.cl).
      std::optional<uint64_t> Bits = intOperand(*N, 2);
      if (!Bits || A->use_empty())
        continue;
      A->replaceAllUsesWith(ConstantExpr::getIntToPtr(
          ConstantInt::get(Type::getInt64Ty(C), *Bits), A->getType()));
      ++NumSamplers;
      continue;
    }
    if (Kind->getString() != "image")
      continue;
    SmallPtrSet<Value *, 8> Copies = copiesOf(*A);
    bool Fixed = N->getNumOperands() >= 6;
    for (LoadInst *L : descriptorLoads(Copies)) {
      if (Constant *V = Fixed ? fixedField(*L, *N, Copies) : nullptr) {
        LLVM_DEBUG(dbgs() << "clcpu-image-arguments: " << *L << " = " << *V
                          << "\n");
        L->replaceAllUsesWith(V);
        L->eraseFromParent();
        ++NumFolded;
        continue;
      }
      if (!L->hasMetadata(LLVMContext::MD_invariant_load)) {
        L->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(C, {}));
        ++NumInvariant;
      }
    }
  }
  // Applied: the metadata has no further reader (its removal is a change
  // in itself).
  F.setMetadata(ImageArgumentsMetadata, nullptr);
  return keptCFG(true);
}

} // namespace clcpu::compiler

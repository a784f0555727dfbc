//===- NonTemporalStores.cpp - streaming stores ---------------------------===//
//
// A kernel such as `b[i] = a[i]` over a buffer larger than the caches is
// bound by memory bandwidth, and an ordinary store costs more of it than it
// seems: the cache first reads the line it is about to overwrite (a
// read-for-ownership), so a copy moves 3 bytes for every 2 it counts, vadd
// 4 for every 3. A non-temporal store writes the line without reading it:
// a third less memory traffic for copy, a quarter less for vadd.
//
// Non-temporal stores bypass the cache, which is a loss when the output is
// read again soon (by the next kernel, from the cache). So this pass turns a
// work-group function's full-register vector stores into
//
//   if (output large && address aligned)
//     non-temporal store
//   else
//     the store as it was
//
// only for stores into a kernel argument the function never reads through
// (an output buffer, not saxpy's y, whose lines are in the cache anyway),
// or into the pixels of an image argument it only writes. A masked store
// (an image write of adjacent pixels, masked by the image's bounds) streams
// when every lane is on, as a plain store: x86 has no masked non-temporal
// store, and a row's vectors are whole but for the row's end.
// "Large" is decided per launch: the argument is a buffer at least as large
// as the last-level cache (WorkGroupContext::StreamArgs, set by the
// runtime), or the launch has that many work-items times the stored element
// size (for SVM pointers, whose size is not known). A scan writing k
// elements per work-item has few work-items for its output, so the buffer
// size is what tells. The condition is loop-invariant and the alignment
// almost always true or always false, so the branch predicts perfectly (no
// measurable cost against unconditional non-temporal stores). A store whose
// address advances through its loop by a multiple of its size (a scan's
// running-sum loop) has its alignment tested once, before the loop, from
// the address's start (ScalarEvolution). An innermost loop whose stores all
// test such a flag then runs in two versions, chosen before it: one with
// the stores non-temporal, one with them as they were, and no branch per
// store (a loop of at most MaxVersionedLoopSize instructions; LLVM's
// unswitching would do the same but finds the loops too large at its
// default threshold). A versioned loop such as the look-back scan's prefix
// loop tests neither the address at each store nor the flag in the loop.
//
// Non-temporal stores are weakly ordered: another thread may see them after
// a later release. The scheduler issues one sfence per thread at the end of
// its share of the launch (scheduler/NDRange.cpp, Participant::run), before
// the launch is reported done. (An sfence before each return of the
// work-group function would drain the write-combining buffers once per
// 16 KiB of copy output and stall the stream each time.) Inside the launch,
// a kernel that publishes to other work-groups (a look-back scan: a flag
// set with an atomic after a fence) needs the stores visible before the
// release, so an sfence goes right before each release fence, release
// atomic and call that may contain one. A seq_cst fence is an mfence on
// x86, which orders non-temporal stores itself, so it needs none, and
// neither does a release right after it or another sfence with no store in
// between (OpenCL 1.2's write_mem_fence + atomic_xchg). Barriers and
// collectives are calls through the work-group context (also from the
// barrier regions' collective step, a function of the module) that stay on
// the group's own thread and order nothing for other threads, so they need
// none; work-group pipe reservations and commits are the exception, they
// hand packets to other threads and count as releases. A release inside a loop
// that also holds a non-temporal store would drain the buffers on every
// iteration: such functions keep ordinary stores.

#include "compiler/passes/NonTemporalStores.h"
#include "compiler/ContextFields.h"
#include "compiler/WorkGroupContext.h"
#include "compiler/WorkGroupFunction.h"

#include <llvm/ADT/MapVector.h>
#include <llvm/ADT/STLExtras.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/IntrinsicsX86.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/TargetParser/Triple.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <algorithm>
#include <cstddef>
#include <exception>
#include <fstream>
#include <string>

using namespace llvm;

#define DEBUG_TYPE "clcpu-non-temporal-stores"

namespace clcpu::compiler {

unsigned countCpuList(const std::string &List) {
  unsigned N = 0;
  size_t Pos = 0;
  while (Pos < List.size()) {
    size_t End = List.find(',', Pos);
    if (End == std::string::npos)
      End = List.size();
    std::string Part = List.substr(Pos, End - Pos);
    size_t Dash = Part.find('-');
    unsigned long First = 0, Last = 0;
    try {
      First = std::stoul(Part.substr(0, Dash));
      Last =
          Dash == std::string::npos ? First : std::stoul(Part.substr(Dash + 1));
    } catch (const std::exception &) {
      return 0;
    }
    if (Last < First)
      return 0;
    N += unsigned(Last - First + 1);
    Pos = End + 1;
  }
  return N;
}

uint64_t streamingThreshold(uint64_t LastLevelBytes, unsigned SharingCpus) {
  if (LastLevelBytes == 0)
    return uint64_t(8) << 20;
  // No CPU has more than 12 MiB of last-level cache per core (AMD's
  // stacked-cache parts). A larger share per CPU is a hypervisor reporting
  // the host's whole cache to a VM's few CPUs, while the host's other cores
  // use it too: the VM's buffers get only a part of it, so a buffer far
  // smaller than the reported size already streams from memory, where
  // non-temporal stores are faster than ordinary ones. Such a cache counts
  // as 12 MiB per CPU sharing it.
  constexpr uint64_t MaxPerCpu = uint64_t(12) << 20;
  if (SharingCpus > 0)
    return std::min(LastLevelBytes, MaxPerCpu * SharingCpus);
  return LastLevelBytes;
}

uint64_t streamingStoreMinBytes() {
  static const uint64_t N = [] {
    uint64_t Best = 0;
    unsigned BestLevel = 0, BestSharing = 0;
    for (unsigned I = 0; I < 8; ++I) {
      std::string Dir =
          "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(I);
      std::ifstream Level(Dir + "/level"), Size(Dir + "/size"),
          Shared(Dir + "/shared_cpu_list");
      unsigned L = 0;
      uint64_t S = 0;
      std::string Unit, List;
      if (!(Level >> L) || !(Size >> S))
        continue;
      Size >> Unit;
      S <<= Unit == "K" ? 10 : Unit == "M" ? 20 : Unit == "G" ? 30 : 0;
      Shared >> List;
      if (L >= BestLevel && S > 0)
        Best = S, BestLevel = L, BestSharing = countCpuList(List);
    }
    return streamingThreshold(Best, BestSharing);
  }();
  return N;
}

namespace {

/// Whether the integer \p I (an address as an integer) only goes into
/// arithmetic and comparisons, never back into a pointer, a store or a call.
bool onlyArithmetic(const Value *I) {
  SmallVector<const Value *, 16> Work{I};
  SmallPtrSet<const Value *, 16> Seen{I};
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      if (isa<ICmpInst>(U))
        continue;
      if (isa<IntToPtrInst>(U))
        return false;
      if (!isa<BinaryOperator, CastInst, ExtractElementInst, InsertElementInst,
               ShuffleVectorInst, SelectInst, PHINode, FreezeInst>(U))
        return false;
      if (Seen.insert(U).second)
        Work.push_back(U);
    }
  }
  return true;
}

/// Whether memory reached through \p Base is only ever written (by plain
/// or masked stores) in its function and the functions of this module it
/// is passed to (a barrier-regions function the work-group function falls
/// back to): every use is address arithmetic, a store's address or such a
/// call's argument, never a load, another call or a stored pointer.
bool writeOnly(const Value *Base) {
  SmallVector<const Value *, 16> Work{Base};
  SmallPtrSet<const Value *, 16> Seen{Base};
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const Use &Op : V->uses()) {
      const User *U = Op.getUser();
      if (const auto *S = dyn_cast<StoreInst>(U)) {
        if (S->getValueOperand() == V || !S->isSimple())
          return false;
        continue;
      }
      if (isa<ICmpInst>(U))
        continue;
      if (const auto *CB = dyn_cast<CallBase>(U)) {
        if (const auto *II = dyn_cast<IntrinsicInst>(CB)) {
          // llvm.masked.store(value, ptr, align, mask) and
          // llvm.masked.scatter(value, ptrs, align, mask): V as the address.
          if ((II->getIntrinsicID() == Intrinsic::masked_store ||
               II->getIntrinsicID() == Intrinsic::masked_scatter) &&
              Op.getOperandNo() == 1)
            continue;
          return false;
        }
        const Function *Callee = CB->getCalledFunction();
        if (!Callee || Callee->isDeclaration() || !Callee->hasLocalLinkage() ||
            !CB->isArgOperand(&Op) || Callee->isVarArg())
          return false;
        const Argument *Param = Callee->getArg(CB->getArgOperandNo(&Op));
        if (Seen.insert(Param).second)
          Work.push_back(Param);
        continue;
      }
      // (Vectors of addresses: a gather's or scatter's, or a wide access's
      // lane 0.)
      if (isa<GetElementPtrInst, PHINode, SelectInst, BitCastInst,
              ExtractElementInst, InsertElementInst, ShuffleVectorInst>(U)) {
        if (Seen.insert(U).second)
          Work.push_back(U);
        continue;
      }
      // An address compared as an integer (a check that lanes' addresses
      // are adjacent) reads nothing.
      if (isa<PtrToIntInst>(U) && onlyArithmetic(U))
        continue;
      return false; // loads, calls, ...
    }
  }
  return true;
}

/// Whether \p I makes earlier stores visible to other threads: a fence or
/// an atomic of release (or stronger) ordering at system or device scope.
bool isRelease(const Instruction &I) {
  AtomicOrdering O = AtomicOrdering::NotAtomic;
  SyncScope::ID Scope = SyncScope::System;
  if (const auto *F = dyn_cast<FenceInst>(&I)) {
    O = F->getOrdering();
    Scope = F->getSyncScopeID();
  } else if (const auto *S = dyn_cast<StoreInst>(&I)) {
    O = S->getOrdering();
    Scope = S->getSyncScopeID();
  } else if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    O = RMW->getOrdering();
    Scope = RMW->getSyncScopeID();
  } else if (const auto *X = dyn_cast<AtomicCmpXchgInst>(&I)) {
    O = X->getSuccessOrdering();
    Scope = X->getSyncScopeID();
  }
  return Scope != SyncScope::SingleThread && isReleaseOrStronger(O);
}

/// Whether \p I is a seq_cst fence at system scope: an mfence on x86, which
/// orders non-temporal stores as well.
bool isMFence(const Instruction &I) {
  const auto *F = dyn_cast<FenceInst>(&I);
  return F && F->getOrdering() == AtomicOrdering::SequentiallyConsistent &&
         F->getSyncScopeID() == SyncScope::System;
}

/// Whether \p I needs no sfence before it: it is an mfence, or an mfence or
/// sfence comes before it in its block with no instruction writing memory
/// in between.
bool drainedBefore(const Instruction &I) {
  if (isMFence(I))
    return true;
  for (const Instruction *P = I.getPrevNode(); P; P = P->getPrevNode()) {
    if (isMFence(*P))
      return true;
    if (const auto *II = dyn_cast<IntrinsicInst>(P))
      if (II->getIntrinsicID() == Intrinsic::x86_sse_sfence)
        return true;
    if (P->mayWriteToMemory())
      return false;
  }
  return false;
}

/// Whether a call from \p CB may make earlier stores visible to another
/// thread. Calls through the work-group context (barriers, collectives,
/// yields: compiler/WorkGroupContext.h) run on the group's own thread;
/// intrinsics only compute or touch memory; functions of the module are
/// looked into, with the parameter the context is passed in as their
/// context (the barrier regions' collective step calls the runtime's
/// collective through it); anything else (a runtime helper) may. The
/// exception among collectives: a work-group pipe reservation or commit
/// (its Op, the call's second argument) hands packets to other threads
/// with locked instructions, which wait for the write-combining buffers to
/// drain: a pipe consumer streaming its output would drain them at every
/// group's commit, as a release in the store's loop would.
bool callMayRelease(const CallBase &CB, const Value *Context,
                    SmallPtrSetImpl<const Function *> &Visiting) {
  if (CB.isInlineAsm())
    return true;
  const Function *Callee = CB.getCalledFunction();
  if (!Callee) {
    const auto *Slot = dyn_cast<LoadInst>(CB.getCalledOperand());
    if (!Slot || !Context ||
        getUnderlyingObject(Slot->getPointerOperand()) != Context)
      return true;
    const auto *Op = CB.arg_size() > 1
                         ? dyn_cast<ConstantInt>(CB.getArgOperand(1))
                         : nullptr;
    if (!Op)
      return false; // a barrier or a yield
    uint64_t Kind = (Op->getZExtValue() % CollSubGroup) / 16;
    return Kind == CollPipeReserveRead || Kind == CollPipeReserveWrite ||
           Kind == CollPipeCommitRead || Kind == CollPipeCommitWrite;
  }
  if (Callee->isIntrinsic())
    return false;
  if (Callee->isDeclaration())
    return true;
  if (!Visiting.insert(Callee).second)
    return false; // already being looked at further up
  // The callee's parameter that receives the context, if one does.
  const Value *CalleeContext = nullptr;
  if (Context)
    for (unsigned A = 0; A < CB.arg_size() && A < Callee->arg_size(); ++A)
      if (getUnderlyingObject(CB.getArgOperand(A)) == Context)
        CalleeContext = Callee->getArg(A);
  for (const BasicBlock &BB : *Callee)
    for (const Instruction &I : BB) {
      if (isRelease(I))
        return true;
      if (const auto *C = dyn_cast<CallBase>(&I))
        if (callMayRelease(*C, CalleeContext, Visiting))
          return true;
    }
  return false;
}

/// A vector store into output-only kernel argument \p Arg.
struct Candidate {
  Instruction *S; // a store or an llvm.masked.store
  int Arg;
};

bool isMaskedStore(const Instruction *I) {
  const auto *II = dyn_cast<IntrinsicInst>(I);
  return II && II->getIntrinsicID() == Intrinsic::masked_store;
}
Value *storedValue(Instruction *I) {
  return isMaskedStore(I) ? cast<IntrinsicInst>(I)->getArgOperand(0)
                          : cast<StoreInst>(I)->getValueOperand();
}
Value *storeAddress(Instruction *I) {
  return isMaskedStore(I) ? cast<IntrinsicInst>(I)->getArgOperand(1)
                          : cast<StoreInst>(I)->getPointerOperand();
}

/// The object \p Ptr points into: getUnderlyingObject's, also through a
/// lane of a vector of addresses computed from one pointer (the address
/// of a wide access whose lanes were found adjacent at run time).
const Value *underlyingBase(const Value *Ptr) {
  for (unsigned Steps = 0; Steps < 8; ++Steps) {
    Ptr = getUnderlyingObject(Ptr);
    const auto *E = dyn_cast<ExtractElementInst>(Ptr);
    if (!E)
      return Ptr;
    const auto *G = dyn_cast<GetElementPtrInst>(E->getVectorOperand());
    if (!G || G->getPointerOperand()->getType()->isVectorTy())
      return Ptr;
    Ptr = G->getPointerOperand();
  }
  return Ptr;
}

/// The argument whose image's pixels \p V points to: a load of the data
/// pointer, the first field of the image descriptor (runtime/Image.h,
/// DeviceImage) argument \p Args passes; -1 otherwise.
int imageDataArgumentIndex(const Value *V, const Argument *Args,
                           const DataLayout &DL) {
  const auto *L = dyn_cast<LoadInst>(V);
  if (!L)
    return -1;
  APInt Offset(64, 0);
  const Value *Desc = L->getPointerOperand()->stripAndAccumulateConstantOffsets(
      DL, Offset, /*AllowNonInbounds=*/true);
  if (!Offset.isZero())
    return -1;
  return argumentIndex(Desc, Args, DL);
}

/// Loops larger than this many instructions keep a branch per store
/// rather than a second copy of their body.
constexpr unsigned MaxVersionedLoopSize = 400;

/// Splits \p L's preheader and puts a copy of \p L in front: the preheader
/// then branches on \p Stream to \p L (true) or the copy (false), which
/// meet again in \p L's exit block.
void versionLoop(Loop &L, Value *Stream, LoopInfo &LI, DominatorTree &DT) {
  BasicBlock *Check = L.getLoopPreheader(), *Exit = L.getExitBlock();
  BasicBlock *PH = SplitBlock(Check, Check->getTerminator(), &DT, &LI, nullptr,
                              L.getHeader()->getName() + ".nt.ph");
  ValueToValueMapTy VMap;
  SmallVector<BasicBlock *, 8> Blocks;
  Loop *Copy =
      cloneLoopWithPreheader(PH, Check, &L, VMap, ".st", &LI, &DT, Blocks);
  remapInstructionsInBlocks(Blocks, VMap);
  Instruction *Term = Check->getTerminator();
  BranchInst::Create(PH, Copy->getLoopPreheader(), Stream, Term);
  Term->eraseFromParent();
  // The exit's phis (LCSSA: every value the loop defines and uses outside)
  // take the copy's values from the copy's exiting blocks.
  for (PHINode &P : Exit->phis())
    for (unsigned I = 0, E = P.getNumIncomingValues(); I != E; ++I) {
      BasicBlock *From = P.getIncomingBlock(I);
      if (!L.contains(From))
        continue;
      Value *V = P.getIncomingValue(I), *InCopy = VMap.lookup(V);
      P.addIncoming(InCopy ? InCopy : V, cast<BasicBlock>(VMap.lookup(From)));
    }
  DT.changeImmediateDominator(Exit, Check);
}

/// For each innermost loop whose candidate stores (\p Stores, with their
/// flags \p Streams) all test a flag computed before the loop: a version
/// of the loop with those stores non-temporal and one with them as they
/// were (versionLoop). Adds the stores it handled to \p Done.
void versionLoops(ArrayRef<Candidate> Stores, ArrayRef<Value *> Streams,
                  LoopInfo &LI, DominatorTree &DT, ScalarEvolution &SE,
                  MDNode *NT, const DataLayout &DL,
                  SmallPtrSetImpl<Instruction *> &Done) {
  MapVector<Loop *, SmallVector<unsigned, 4>> ByLoop;
  SmallPtrSet<Loop *, 4> Mixed;
  for (auto [I, Cand] : enumerate(Stores)) {
    Loop *L = LI.getLoopFor(Cand.S->getParent());
    if (!L)
      continue;
    auto *Flag = dyn_cast<Instruction>(Streams[I]);
    if (Flag && L->contains(Flag))
      Mixed.insert(L); // a test at the store: keeps its branch
    else
      ByLoop[L].push_back(I);
  }
  for (auto &[L, Idx] : ByLoop) {
    if (Mixed.contains(L) || !L->isInnermost() || !L->getExitBlock() ||
        !L->isSafeToClone())
      continue;
    // (A loop the scan or the loop vectorizer made is entered from a block
    // that also branches past it: it gets a preheader of its own.)
    simplifyLoop(L, &DT, &LI, &SE, nullptr, nullptr, /*PreserveLCSSA=*/false);
    formLCSSA(*L, DT, &LI, &SE);
    if (!L->getLoopPreheader() || !L->hasDedicatedExits() || !L->getExitBlock())
      continue;
    unsigned Size = 0;
    for (BasicBlock *BB : L->blocks())
      Size += BB->size();
    if (Size > MaxVersionedLoopSize)
      continue;
    // The flags are invariant in L; their conjunction picks the version.
    IRBuilder<> B(L->getLoopPreheader()->getTerminator());
    Value *Stream = nullptr;
    for (unsigned I : Idx)
      Stream = Stream ? B.CreateAnd(Stream, Streams[I]) : Streams[I];
    versionLoop(*L, Stream, LI, DT);
    for (unsigned I : Idx) {
      auto *S = cast<StoreInst>(Stores[I].S);
      uint64_t Bytes =
          DL.getTypeStoreSize(S->getValueOperand()->getType()).getFixedValue();
      S->setAlignment(Align(Bytes));
      S->setMetadata(LLVMContext::MD_nontemporal, NT);
      Done.insert(S);
    }
  }
}

/// The candidate stores of work-group function \p F (full-register vector
/// stores into arguments it never reads through) and its releases (fences,
/// atomics and calls that may release).
void findCandidates(Function &F, SmallVectorImpl<Candidate> &Stores,
                    SmallVectorImpl<Instruction *> &Releases) {
  const DataLayout &DL = F.getParent()->getDataLayout();
  const Argument *Args = F.getArg(0), *Context = F.getArg(1);
  SmallDenseMap<const Value *, bool> WriteOnly;
  SmallPtrSet<const Function *, 8> Visiting;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      if (isRelease(I)) {
        Releases.push_back(&I);
        continue;
      }
      auto *CB = dyn_cast<CallBase>(&I);
      if (CB && !isMaskedStore(CB)) {
        Visiting.clear();
        if (callMayRelease(*CB, Context, Visiting))
          Releases.push_back(&I);
        continue;
      }
      auto *S = dyn_cast<StoreInst>(&I);
      if (!(S && S->isSimple()) && !isMaskedStore(&I))
        continue;
      auto *VT = dyn_cast<FixedVectorType>(storedValue(&I)->getType());
      if (!VT)
        continue;
      uint64_t Bytes = DL.getTypeStoreSize(VT).getFixedValue();
      if ((Bytes != 16 && Bytes != 32 && Bytes != 64) ||
          Bytes != DL.getTypeAllocSize(VT).getFixedValue())
        continue;
      // Into a buffer argument, or into the pixels of an image argument (a
      // write_imagef of adjacent pixels: a masked store whose mask is the
      // image's bounds).
      const Value *Base = underlyingBase(storeAddress(&I));
      int Arg = argumentIndex(Base, Args, DL);
      if (Arg < 0)
        Arg = imageDataArgumentIndex(Base, Args, DL);
      if (Arg < 0)
        continue;
      auto [It, New] = WriteOnly.try_emplace(Base, false);
      if (New)
        It->second = writeOnly(Base);
      if (It->second)
        Stores.push_back({&I, Arg});
    }
}

/// Whether one of \p Releases is in a loop with one of \p Stores.
bool releaseInStoreLoop(ArrayRef<Instruction *> Releases,
                        ArrayRef<Candidate> Stores, LoopInfo &LI) {
  for (Instruction *R : Releases)
    if (Loop *L = LI.getLoopFor(R->getParent()))
      for (const Candidate &Cand : Stores)
        if (L->contains(Cand.S))
          return true;
  return false;
}

/// Whether stores of Elem-byte elements into an argument go past the
/// last-level cache: the argument is a large buffer, or the launch has
/// streamingStoreMinBytes() / Elem work-items. Computed at the function's
/// entry, from the context (the second argument), once per element size and
/// argument.
class LargeOutput {
public:
  explicit LargeOutput(Function &F)
      : F(F), DL(F.getParent()->getDataLayout()),
        B(&*F.getEntryBlock().getFirstInsertionPt()) {
    // The launch's work-item count and its large buffer arguments.
    for (unsigned D = 0; D < 3; ++D) {
      Value *N = loadContextField(B, F.getArg(1), ContextField::GlobalSize, D);
      Items = Items ? B.CreateMul(Items, N) : N;
    }
    StreamArgs = loadContextField(B, F.getArg(1), ContextField::StreamArgs);
  }

  Value *get(Instruction *S, int Arg) {
    Type *I64 = B.getInt64Ty();
    Type *T = storedValue(S)->getType()->getScalarType();
    uint64_t Elem =
        std::max<uint64_t>(1, DL.getTypeStoreSize(T).getFixedValue());
    Value *&L = LargeFor[{Elem, Arg}];
    if (L)
      return L;
    Value *&Many = ManyItems[Elem];
    if (!Many)
      Many = B.CreateICmpUGE(
          Items, ConstantInt::get(I64, streamingStoreMinBytes() / Elem));
    L = Many;
    if (Arg < 64) {
      Value *Bit =
          B.CreateAnd(B.CreateLShr(StreamArgs, Arg), ConstantInt::get(I64, 1));
      L = B.CreateOr(Many, B.CreateICmpNE(Bit, ConstantInt::get(I64, 0)));
    }
    return L;
  }

private:
  Function &F;
  const DataLayout &DL;
  IRBuilder<> B;
  Value *Items = nullptr, *StreamArgs = nullptr;
  SmallDenseMap<uint64_t, Value *> ManyItems;
  SmallDenseMap<std::pair<uint64_t, int>, Value *> LargeFor;
};

/// Each store's stream flag (large output and aligned address), all before
/// the CFG changes: the alignment tested at the store, or, when its address
/// advances through a loop by a multiple of the store size (a scan's
/// running-sum loop, one vector per iteration), once before the loop from
/// the address's start (the branch in the loop then tests a loop-invariant
/// flag: 4 instructions fewer per vector).
SmallVector<Value *, 16> streamFlags(ArrayRef<Candidate> Stores,
                                     LargeOutput &Large, LoopInfo &LI,
                                     ScalarEvolution &SE,
                                     const DataLayout &DL) {
  Type *I64 = Type::getInt64Ty(SE.getContext());
  SCEVExpander Expander(SE, DL, "nt");
  SmallVector<Value *, 16> AlignedFor;
  for (const Candidate &Cand : Stores) {
    Instruction *S = Cand.S;
    uint64_t Bytes =
        DL.getTypeStoreSize(storedValue(S)->getType()).getFixedValue();
    Instruction *At = S;
    Value *Ptr = storeAddress(S);
    Loop *L = LI.getLoopFor(S->getParent());
    const auto *AR = L ? dyn_cast<SCEVAddRecExpr>(SE.getSCEV(Ptr)) : nullptr;
    if (AR && AR->getLoop() == L && AR->isAffine() && L->getLoopPredecessor()) {
      const auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
      Instruction *Pre = L->getLoopPredecessor()->getTerminator();
      if (Step && Step->getAPInt().srem(Bytes) == 0 &&
          Expander.isSafeToExpandAt(AR->getStart(), Pre)) {
        At = Pre;
        Ptr = Expander.expandCodeFor(AR->getStart(), Ptr->getType(), Pre);
      }
    }
    IRBuilder<> AB(At);
    Value *Addr = AB.CreatePtrToInt(Ptr, I64);
    // The start is computed even where the loop does not run, and an
    // inbounds address there may be poison: the branch must not see it.
    if (At != S)
      Addr = AB.CreateFreeze(Addr);
    Value *Aligned =
        AB.CreateICmpEQ(AB.CreateAnd(Addr, ConstantInt::get(I64, Bytes - 1)),
                        ConstantInt::get(I64, 0));
    Value *Flag = AB.CreateAnd(Large.get(S, Cand.Arg), Aligned);
    // A masked store streams only with every lane on (there is no masked
    // non-temporal store): the whole vector of a row of pixels, not the
    // row's ragged end.
    if (isMaskedStore(S)) {
      IRBuilder<> SB(S);
      Value *Mask = cast<IntrinsicInst>(S)->getArgOperand(3);
      unsigned N = cast<FixedVectorType>(Mask->getType())->getNumElements();
      Value *Bits = SB.CreateBitCast(Mask, SB.getIntNTy(N));
      Flag = SB.CreateAnd(
          Flag, SB.CreateICmpEQ(Bits, ConstantInt::getAllOnesValue(
                                          Bits->getType())));
    }
    AlignedFor.push_back(Flag);
  }
  return AlignedFor;
}

/// Each store \p Versioned does not hold: a branch on its flag (\p Streams)
/// to a non-temporal copy of it or to the store as it was.
void branchPerStore(ArrayRef<Candidate> Stores, ArrayRef<Value *> Streams,
                    const SmallPtrSetImpl<Instruction *> &Versioned,
                    MDNode *NT, const DataLayout &DL) {
  for (auto [Cand, Stream] : zip(Stores, Streams)) {
    Instruction *S = Cand.S;
    if (Versioned.contains(S))
      continue;
    uint64_t Bytes =
        DL.getTypeStoreSize(storedValue(S)->getType()).getFixedValue();
    Instruction *Then = nullptr, *Else = nullptr;
    SplitBlockAndInsertIfThenElse(Stream, S, &Then, &Else);
    // (A masked store's copy is a plain store: its flag holds only with
    // every lane on.)
    StoreInst *NTStore;
    if (isMaskedStore(S)) {
      NTStore = new StoreInst(storedValue(S), storeAddress(S), Then);
      NTStore->copyMetadata(*S);
    } else {
      NTStore = cast<StoreInst>(S->clone());
      NTStore->insertBefore(Then);
    }
    NTStore->setAlignment(Align(Bytes));
    NTStore->setMetadata(LLVMContext::MD_nontemporal, NT);
    S->moveBefore(Else);
  }
}

} // namespace

PreservedAnalyses NonTemporalStoresPass::run(Function &F,
                                             FunctionAnalysisManager &FAM) {
  Module &M = *F.getParent();
  if (F.isDeclaration() || !F.getName().starts_with("wg_") ||
      F.arg_size() != 2 || !Triple(M.getTargetTriple()).isX86())
    return PreservedAnalyses::all();
  const DataLayout &DL = M.getDataLayout();
  SmallVector<Candidate, 16> Stores;
  SmallVector<Instruction *, 8> Releases;
  findCandidates(F, Stores, Releases);
  if (Stores.empty())
    return PreservedAnalyses::all();
  // A release in a loop that also stores non-temporally would drain the
  // write-combining buffers on every iteration.
  if (!Releases.empty() &&
      releaseInStoreLoop(Releases, Stores, FAM.getResult<LoopAnalysis>(F)))
    return PreservedAnalyses::all();

  LLVMContext &C = F.getContext();
  LargeOutput Large(F);
  for (const Candidate &Cand : Stores)
    Large.get(Cand.S, Cand.Arg);
  MDNode *NT = MDNode::get(
      C, ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(C), 1)));
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  SmallVector<Value *, 16> AlignedFor = streamFlags(Stores, Large, LI, SE, DL);
  // Loops whose every candidate store tests a loop-invariant flag run in
  // two versions, one with non-temporal stores and one with ordinary ones,
  // chosen once before the loop (versionLoops): no branch per store.
  DominatorTree &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  SmallPtrSet<Instruction *, 16> Versioned;
  versionLoops(Stores, AlignedFor, LI, DT, SE, NT, DL, Versioned);
  branchPerStore(Stores, AlignedFor, Versioned, NT, DL);
  // Earlier non-temporal stores become visible before each release
  // (drainedBefore: unless it is or follows an mfence or sfence).
  Function *SFence = Intrinsic::getDeclaration(&M, Intrinsic::x86_sse_sfence);
  for (Instruction *R : Releases)
    if (!drainedBefore(*R))
      CallInst::Create(SFence, "", R);
  return PreservedAnalyses::none();
}

} // namespace clcpu::compiler

//===- compiler/Barriers.cpp - barriers and work-group collectives --------===//
//
// Kernels that call barrier()/work_group_barrier() or a work_group_*
// collective (OpenCL C 2.0, 6.13.15) do not get the work-item loop: their
// `wg_<kernel>` runs ONE work-item, the one at Ctx->LocalId, and the
// scheduler (scheduler/Fiber.h) runs each work-item of a group on a fiber of
// its own. A barrier becomes a call through Ctx->Barrier, which switches to
// the next fiber and returns once every work-item of the group arrived;
// private variables simply live on each fiber's stack across it. A
// collective becomes a call through Ctx->Collective (value in, result out),
// which the scheduler computes in one pass over the group.
//
// Sub-groups (cl_khr_subgroups, __opencl_c_subgroups): sub_group_barrier()
// becomes a call through Ctx->SubGroupBarrier, which waits for the caller's
// sub-group only; a sub_group_* collective is the work_group_* one with
// CollSubGroup added to its Op, computed over the caller's sub-group. The
// non-uniform ones, shuffles and rotations also pass their call site's
// number and the kernel's table of which sites can follow which
// (CollNonUniform): they run over the work-items that reach the call
// together (scheduler/Fiber.cpp).

#include "compiler/Barriers.h"

#include "compiler/ContextFields.h"
#include "compiler/KernelBody.h"
#include "compiler/SiteReach.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <cstring>
#include <optional>
#include <string>

using namespace llvm;

namespace clcpu::compiler {

namespace {

/// The kind of the reduction or scan \p Mode ("reduce", "scan_inclusive",
/// "scan_exclusive") of operation \p Operation ("add" ... "logical_xor").
std::optional<uint32_t> arithmeticKind(StringRef Mode, StringRef Operation) {
  static const char *Modes[] = {"reduce", "scan_inclusive", "scan_exclusive"};
  static const char *Operations[] = {
      "add", "min", "max",         "mul",        "and",
      "or",  "xor", "logical_and", "logical_or", "logical_xor"};
  for (uint32_t M = 0; M < 3; ++M) {
    if (Mode != Modes[M])
      continue;
    for (uint32_t O = 0; O < 10; ++O)
      if (Operation == Operations[O])
        return O < 3 ? CollReduceAdd + M * 3 + O
                     : CollReduceMul + M * 7 + (O - 3);
  }
  return std::nullopt;
}

/// "reduce_add" -> CollReduceAdd, ..., "scan_exclusive_logical_xor".
std::optional<uint32_t> arithmeticKind(StringRef Name) {
  for (StringRef Mode : {"reduce_", "scan_inclusive_", "scan_exclusive_"})
    if (Name.starts_with(Mode))
      return arithmeticKind(Mode.drop_back(), Name.drop_front(Mode.size()));
  return std::nullopt;
}

/// The Op bits of a work_group_* or sub_group_* collective: its kind, plus
/// CollSubGroup for the sub-group ones (and CollNonUniform, CollClustered).
std::optional<uint32_t> collectiveKind(StringRef Name) {
  // cl_khr_subgroup_non_uniform_vote, _non_uniform_arithmetic, _ballot and
  // _clustered_reduce.
  const uint32_t NonUniform = CollSubGroup | CollNonUniform;
  // The reconvergence point compiler/passes/Reconvergence.cpp inserts.
  if (Name == ReconvergeName)
    return CollReconverge * 16 + NonUniform;
  if (Name == "sub_group_elect")
    return CollElect * 16 + NonUniform;
  // builtins/pipe.cl's work-group and sub-group reservations, and the
  // work-group commits.
  static const std::pair<const char *, uint32_t> PipeReserves[] = {
      {"clcpu_work_group_reserve_read_pipe", CollPipeReserveRead * 16},
      {"clcpu_work_group_reserve_write_pipe", CollPipeReserveWrite * 16},
      {"clcpu_work_group_commit_read_pipe", CollPipeCommitRead * 16},
      {"clcpu_work_group_commit_write_pipe", CollPipeCommitWrite * 16},
      {"clcpu_sub_group_reserve_read_pipe",
       CollPipeReserveRead * 16 + CollSubGroup},
      {"clcpu_sub_group_reserve_write_pipe",
       CollPipeReserveWrite * 16 + CollSubGroup},
  };
  for (auto [N, Op] : PipeReserves)
    if (Name == N)
      return Op;
  if (Name == "sub_group_ballot")
    return CollBallot * 16 + NonUniform;
  if (Name == "sub_group_broadcast_first")
    return CollBroadcastFirst * 16 + NonUniform;
  // cl_khr_subgroup_rotate (the clustered form's cluster size is added from
  // the call: clusterBits).
  if (Name == "sub_group_rotate")
    return CollRotate * 16 + CollSubGroup;
  if (Name == "sub_group_clustered_rotate")
    return CollRotate * 16 + CollSubGroup + CollClustered;
  if (Name.consume_front("sub_group_non_uniform_")) {
    static const std::pair<const char *, CollectiveKind> Votes[] = {
        {"all", CollAll},
        {"any", CollAny},
        {"all_equal", CollAllEqual},
        {"broadcast", CollBroadcast},
    };
    for (auto [N, K] : Votes)
      if (Name == N)
        return K * 16 + NonUniform;
    if (auto K = arithmeticKind(Name))
      return *K * 16 + NonUniform;
    return std::nullopt;
  }
  if (Name.consume_front("sub_group_clustered_reduce_")) {
    if (auto K = arithmeticKind("reduce", Name))
      return *K * 16 + CollSubGroup + CollClustered;
    return std::nullopt;
  }
  std::string WG;
  uint32_t Scope = 0;
  if (Name.starts_with("sub_group_")) {
    WG = "work_group_" + Name.drop_front(strlen("sub_group_")).str();
    Name = WG;
    Scope = CollSubGroup;
  }
  static const std::pair<const char *, CollectiveKind> Kinds[] = {
      {"work_group_all", CollAll},
      {"work_group_any", CollAny},
      {"work_group_broadcast", CollBroadcast},
  };
  for (auto [N, K] : Kinds)
    if (Name == N)
      return K * 16 + Scope;
  // work_group_reduce_<op> and work_group_scan_{in,ex}clusive_<op>: add,
  // min and max (OpenCL C 2.0, and cl_khr_subgroups' sub_group_* forms),
  // and at work-group scope cl_khr_work_group_uniform_arithmetic's mul,
  // and, or, xor and logical_and/or/xor, whose sub-group forms are only
  // the non-uniform and clustered ones above.
  if (StringRef Op = Name; Op.consume_front("work_group_"))
    if (std::optional<uint32_t> K = arithmeticKind(Op);
        K && (!Scope || *K <= CollScanExclusiveMax))
      return *K * 16 + Scope;
  static const std::pair<const char *, CollectiveKind> Shuffles[] = {
      {"work_group_shuffle", CollShuffle},
      {"work_group_shuffle_xor", CollShuffleXor},
      {"work_group_shuffle_up", CollShuffleUp},
      {"work_group_shuffle_down", CollShuffleDown},
  };
  for (auto [N, K] : Shuffles)
    if (Scope && Name == N) // sub_group_shuffle*, never work_group_*
      return K * 16 + Scope;
  return std::nullopt;
}

/// sub_group_clustered_rotate's cluster size as Op bits (CollClusterShift);
/// null if it is not a power-of-two integer constant (undefined behaviour:
/// the call is then left alone and reported as unsupported). 0 for every
/// other collective.
std::optional<uint32_t> clusterBits(const CallInst &CI, uint32_t Op) {
  if ((Op % CollSubGroup) / 16 != CollRotate || !(Op & CollClustered))
    return 0;
  auto *C =
      CI.arg_size() > 2 ? dyn_cast<ConstantInt>(CI.getArgOperand(2)) : nullptr;
  if (!C || !C->getValue().isPowerOf2() || C->getZExtValue() > 128)
    return std::nullopt;
  return (C->getValue().logBase2() + 1) << CollClusterShift;
}

/// Collectives the fiber path computes per call site, over the work-items
/// that reach it together: the non-uniform ones, and the shuffles and
/// rotations, which "need not be encountered by all work items in a
/// sub-group" (OpenCL C 3.0 6.15.19.7-8).
bool perCallSite(uint32_t Op) {
  uint32_t Kind = (Op % CollSubGroup) / 16;
  return (Op & CollNonUniform) ||
         ((Op & CollSubGroup) &&
          ((Kind >= CollShuffle && Kind <= CollShuffleDown) ||
           Kind == CollRotate));
}

/// The CollectiveType of the first of Itanium-mangled parameters \p P.
std::optional<uint32_t> collectiveType(StringRef P) {
  if (P.starts_with("Dh"))
    return CollHalf;
  switch (P.empty() ? '\0' : P[0]) {
  case 'i':
    return CollInt;
  case 'j':
    return CollUInt;
  case 'l':
    return CollLong;
  case 'm':
    return CollULong;
  case 'f':
    return CollFloat;
  case 'd':
    return CollDouble;
  case 'c':
  case 'a':
    return CollChar;
  case 'h':
    return CollUChar;
  case 's':
    return CollShort;
  case 't':
    return CollUShort;
  default:
    return std::nullopt;
  }
}

} // namespace

std::optional<std::pair<StringRef, StringRef>> demangleBuiltin(StringRef N) {
  if (!N.consume_front("_Z"))
    return std::nullopt;
  unsigned Len = 0;
  size_t Digits = 0;
  while (Digits < N.size() && isdigit(static_cast<unsigned char>(N[Digits])))
    Len = Len * 10 + (N[Digits++] - '0');
  if (!Digits || Digits + Len > N.size())
    return std::nullopt;
  return std::make_pair(N.substr(Digits, Len), N.substr(Digits + Len));
}

Type *builtinScalarType(LLVMContext &C, char M) {
  switch (M) {
  case 'c':
  case 'a':
  case 'h':
    return Type::getInt8Ty(C);
  case 's':
  case 't':
    return Type::getInt16Ty(C);
  case 'i':
  case 'j':
    return Type::getInt32Ty(C);
  case 'l':
  case 'm':
    return Type::getInt64Ty(C);
  case 'f':
    return Type::getFloatTy(C);
  case 'd':
    return Type::getDoubleTy(C);
  default:
    return nullptr;
  }
}

std::optional<SyncCall> classifySyncCall(const CallInst &CI) {
  const Function *F = CI.getCalledFunction();
  if (!F)
    return std::nullopt;
  auto Parts = demangleBuiltin(F->getName());
  if (!Parts)
    return std::nullopt;
  auto [Name, Params] = *Parts;
  SyncCall S;
  if (Name == "barrier" || Name == "work_group_barrier") {
    S.Kind = SyncCall::Barrier;
    return S;
  }
  if (Name == "sub_group_barrier") {
    S.Kind = SyncCall::SubGroupBarrier;
    return S;
  }
  std::optional<uint32_t> Kind = collectiveKind(Name);
  std::optional<uint32_t> Cluster = Kind ? clusterBits(CI, *Kind) : 0;
  if (!Kind || !Cluster)
    return std::nullopt;
  *Kind |= *Cluster;
  S.Kind = SyncCall::Collective;
  uint32_t KindOnly = (*Kind % CollSubGroup) / 16;
  // sub_group_elect() has no operand: an int 0 stands in.
  uint32_t Type = CollInt;
  bool Typed = KindOnly == CollElect;
  if (!Typed && !Params.empty())
    if (std::optional<uint32_t> T = collectiveType(Params))
      Type = *T, Typed = true;
  // A vector operand splitVectorCollectives left (one the ABI returns
  // through memory) or a type without a CollectiveType: the regions
  // leave these to the fiber path, which reports them as unsupported
  // builtins. The one vector result the 64 bits carry is sub_group_ballot's
  // uint4 mask. A pipe commit has no result.
  auto *VT = dyn_cast<FixedVectorType>(CI.getType());
  bool BallotMask = KindOnly == CollBallot && VT && VT->getNumElements() == 4 &&
                    VT->getElementType()->isIntegerTy(32);
  bool Commit =
      KindOnly == CollPipeCommitRead || KindOnly == CollPipeCommitWrite;
  S.Scalar = Typed && (CI.getType()->isVoidTy()
                           ? Commit
                           : !CI.getType()->isVectorTy() || BallotMask);
  S.Op = *Kind + (Typed ? Type : 0);
  S.PerCallSite = perCallSite(S.Op);
  return S;
}

Value *collectiveToBits(IRBuilder<> &B, Value *V) {
  Type *Ty = V->getType();
  if (Ty->isHalfTy())
    V = B.CreateBitCast(V, B.getInt16Ty());
  else if (Ty->isFloatTy())
    V = B.CreateBitCast(V, B.getInt32Ty());
  else if (Ty->isDoubleTy())
    V = B.CreateBitCast(V, B.getInt64Ty());
  return B.CreateZExtOrTrunc(V, B.getInt64Ty());
}

Value *collectiveFromBits(IRBuilder<> &B, Value *V, Type *Ty) {
  if (auto *VT = dyn_cast<FixedVectorType>(Ty)) {
    // sub_group_ballot's uint4 mask: bits 0-31 in x, 32-63 in y (sub-groups
    // are at most 64 wide), z and w 0.
    Type *I32 = B.getInt32Ty();
    Value *R = Constant::getNullValue(VT);
    R = B.CreateInsertElement(R, B.CreateTrunc(V, I32), uint64_t(0));
    return B.CreateInsertElement(R, B.CreateTrunc(B.CreateLShr(V, 32), I32),
                                 uint64_t(1));
  }
  if (Ty->isHalfTy())
    return B.CreateBitCast(B.CreateTrunc(V, B.getInt16Ty()), Ty);
  if (Ty->isFloatTy())
    return B.CreateBitCast(B.CreateTrunc(V, B.getInt32Ty()), Ty);
  if (Ty->isDoubleTy())
    return B.CreateBitCast(V, Ty);
  return B.CreateZExtOrTrunc(V, Ty);
}

namespace {
Value *toBits(IRBuilder<> &B, Value *V) { return collectiveToBits(B, V); }
Value *fromBits(IRBuilder<> &B, Value *V, Type *Ty) {
  return collectiveFromBits(B, V, Ty);
}
} // namespace

bool lowerWorkGroupSync(Function &Body) {
  LLVMContext &C = Body.getContext();
  Value *Ctx = contextParam(Body);
  Type *I64 = Type::getInt64Ty(C), *I32 = Type::getInt32Ty(C);
  PointerType *Ptr = PointerType::getUnqual(C);
  auto *BarrierTy = FunctionType::get(Type::getVoidTy(C), {Ptr}, false);
  auto *CollTy = FunctionType::get(I64, {Ptr, I32, I64, I64, I64, I64}, false);
  // Non-uniform sub-group collectives: each call site's number, in reverse
  // post-order of the blocks, and the table of the sites each one can reach
  // (bit j of entry i: site j can run after site i). scheduler/Fiber.cpp
  // releases first a site that no other waiting work-item can reach.
  DenseMap<const CallInst *, uint64_t> Sites;
  SmallVector<const CallInst *, 8> SiteCalls;
  for (BasicBlock *BB : ReversePostOrderTraversal<Function *>(&Body))
    for (Instruction &I : *BB)
      if (auto *CI = dyn_cast<CallInst>(&I))
        if (auto S = classifySyncCall(*CI);
            S && S->Kind == SyncCall::Collective && perCallSite(S->Op) &&
            Sites.try_emplace(CI, Sites.size()).second)
          SiteCalls.push_back(CI);
  Value *ReachTable = nullptr;
  if (!SiteCalls.empty()) {
    SmallVector<uint64_t, 8> Reach(SiteCalls.size(), 0);
    SmallVector<const BasicBlock *, 8> Blocks;
    for (const CallInst *CI : SiteCalls)
      Blocks.push_back(CI->getParent());
    // Not through the back edge of a loop around the later site
    // (compiler/passes/Reconvergence.cpp).
    SmallVector<uint64_t, 8> After = siteReach(Blocks);
    for (size_t I = 0; I < SiteCalls.size(); ++I) {
      const BasicBlock *From = SiteCalls[I]->getParent();
      for (size_t J = 0; J < SiteCalls.size() && J < 64; ++J) {
        const CallInst *To = SiteCalls[J];
        bool Later = To->getParent() == From && SiteCalls[I]->comesBefore(To);
        if (Later || (To->getParent() != From && (After[I] >> J & 1)))
          Reach[I] |= uint64_t(1) << J;
      }
    }
    auto *TableTy = ArrayType::get(I64, Reach.size());
    auto *Table = new GlobalVariable(
        *Body.getParent(), TableTy, /*isConstant=*/true,
        GlobalValue::PrivateLinkage, ConstantDataArray::get(C, Reach),
        Body.getName() + ".nonuniform.reach");
    ReachTable = Table;
  }
  bool Any = false;
  for (Instruction &I : make_early_inc_range(instructions(Body))) {
    auto *CI = dyn_cast<CallInst>(&I);
    if (!CI || !CI->getCalledFunction())
      continue;
    auto Parts = demangleBuiltin(CI->getCalledFunction()->getName());
    if (!Parts)
      continue;
    auto [Name, Params] = *Parts;
    IRBuilder<> B(CI);
    bool SubGroupBarrier = Name == "sub_group_barrier";
    if (Name == "barrier" || Name == "work_group_barrier" || SubGroupBarrier) {
      // The memory scope and fences do not matter: every work-item of the
      // group runs on this thread, and the call is opaque to the optimizer.
      CallInst *New = B.CreateCall(
          BarrierTy,
          loadContextField(B, Ctx,
                           SubGroupBarrier ? ContextField::SubGroupBarrier
                                           : ContextField::Barrier),
          {Ctx});
      New->addFnAttr(Attribute::Convergent);
      New->addFnAttr(Attribute::NoUnwind);
      CI->eraseFromParent();
      Any = true;
      continue;
    }
    std::optional<uint32_t> Kind = collectiveKind(Name);
    std::optional<uint32_t> Cluster = Kind ? clusterBits(*CI, *Kind) : 0;
    if (!Kind || !Cluster)
      continue;
    *Kind |= *Cluster;
    // Vector broadcasts were split per component (splitVectorCollectives);
    // one left (returned through memory) stays a declaration, reported as
    // unsupported.
    if (Params.starts_with("Dv"))
      continue;
    uint32_t KindOnly = (*Kind % CollSubGroup) / 16;
    // sub_group_elect() has no operand ("v"): an int 0 stands in.
    bool Elect = KindOnly == CollElect;
    std::optional<uint32_t> Type =
        Elect ? CollInt
              : (Params.empty() ? std::nullopt : collectiveType(Params));
    if (!Type)
      continue; // left as a declaration, reported as unsupported
    auto It = Sites.find(CI);
    uint64_t Site = It == Sites.end() ? 0 : It->second;
    auto Collective = [&](Value *V) {
      Value *Args[6] = {Ctx,           B.getInt32(*Kind + *Type),
                        toBits(B, V),  B.getInt64(0),
                        B.getInt64(0), B.getInt64(0)};
      for (unsigned A = 1; A < CI->arg_size() && A < 4; ++A)
        Args[A + 2] = B.CreateZExtOrTrunc(CI->getArgOperand(A), I64);
      if (perCallSite(*Kind)) {
        Args[1] = B.getInt32((*Kind + *Type) | CollNonUniform);
        Args[4] = B.CreatePtrToInt(ReachTable, I64);
        Args[5] = B.getInt64(Site);
      }
      CallInst *New = B.CreateCall(
          CollTy, loadContextField(B, Ctx, ContextField::Collective), Args);
      New->addFnAttr(Attribute::Convergent);
      New->addFnAttr(Attribute::NoUnwind);
      return New;
    };
    Value *Result;
    if (CI->getType()->isVoidTy()) {
      // A pipe commit: nothing comes back.
      Collective(CI->getArgOperand(0));
      CI->eraseFromParent();
      Any = true;
      continue;
    }
    if (Elect) {
      Result = B.CreateTrunc(Collective(B.getInt32(0)), I32);
    } else if (KindOnly == CollBallot) {
      // The uint4 mask (collectiveFromBits).
      auto *VT = dyn_cast<FixedVectorType>(CI->getType());
      if (!VT || VT->getNumElements() != 4 ||
          !VT->getElementType()->isIntegerTy(32))
        continue;
      Result = fromBits(B, Collective(CI->getArgOperand(0)), VT);
    } else {
      // The result's type: the operand's, or int (all, any, all_equal).
      Result = fromBits(B, Collective(CI->getArgOperand(0)), CI->getType());
    }
    CI->replaceAllUsesWith(Result);
    CI->eraseFromParent();
    Any = true;
  }
  return Any;
}

void emitWorkItemFunction(Module &M, Function &Kernel, Function &Body,
                          const std::string &Name) {
  LLVMContext &C = M.getContext();
  PointerType *Ptr = PointerType::getUnqual(C);
  auto *FT = FunctionType::get(Type::getVoidTy(C), {Ptr, Ptr}, false);
  Function *WI =
      Function::Create(FT, GlobalValue::ExternalLinkage, "wg_" + Name, M);
  for (const char *A : {"target-cpu", "target-features"})
    if (Kernel.hasFnAttribute(A))
      WI->addFnAttr(Kernel.getFnAttribute(A));
  WI->addFnAttr(Attribute::NoUnwind);
  WI->addParamAttr(0, Attribute::NoAlias);
  WI->addParamAttr(0, Attribute::ReadOnly);
  Value *ArgsArr = WI->getArg(0), *Ctx = WI->getArg(1);
  IRBuilder<> B(BasicBlock::Create(C, "entry", WI));
  SmallVector<Value *, 16> CallArgs;
  for (unsigned I = 0; I < Kernel.arg_size(); ++I) {
    Value *Slot =
        B.CreateLoad(Ptr, B.CreateConstInBoundsGEP1_64(Ptr, ArgsArr, I));
    if (Kernel.getParamByValType(I))
      CallArgs.push_back(Slot);
    else
      CallArgs.push_back(B.CreateLoad(Kernel.getArg(I)->getType(), Slot));
  }
  CallArgs.push_back(Ctx);
  for (unsigned D = 0; D < 3; ++D)
    CallArgs.push_back(loadContextField(B, Ctx, ContextField::LocalId, D));
  B.CreateCall(&Body, CallArgs);
  B.CreateRetVoid();
}

} // namespace clcpu::compiler

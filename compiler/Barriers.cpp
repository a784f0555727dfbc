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

#include "compiler/Internal.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <optional>

using namespace llvm;

namespace clcpu::compiler {

namespace {

// WorkGroupContext word indices (compiler/WorkGroupContext.h).
enum : unsigned {
  WLocalId = 20,
  WBarrier = 23,
  WCollective = 24,
};

/// "_Z20work_group_reduce_addi" → {"work_group_reduce_add", "i"}.
std::optional<std::pair<StringRef, StringRef>> demangle(StringRef N) {
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

std::optional<uint32_t> collectiveKind(StringRef Name) {
  static const std::pair<const char *, CollectiveKind> Kinds[] = {
      {"work_group_all", CollAll},
      {"work_group_any", CollAny},
      {"work_group_broadcast", CollBroadcast},
      {"work_group_reduce_add", CollReduceAdd},
      {"work_group_reduce_min", CollReduceMin},
      {"work_group_reduce_max", CollReduceMax},
      {"work_group_scan_inclusive_add", CollScanInclusiveAdd},
      {"work_group_scan_inclusive_min", CollScanInclusiveMin},
      {"work_group_scan_inclusive_max", CollScanInclusiveMax},
      {"work_group_scan_exclusive_add", CollScanExclusiveAdd},
      {"work_group_scan_exclusive_min", CollScanExclusiveMin},
      {"work_group_scan_exclusive_max", CollScanExclusiveMax},
  };
  for (auto [N, K] : Kinds)
    if (Name == N)
      return K;
  return std::nullopt;
}

/// The CollectiveType of an Itanium-mangled scalar parameter.
std::optional<uint32_t> collectiveType(char C) {
  switch (C) {
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
  default:
    return std::nullopt;
  }
}

Value *ctxWord(IRBuilder<> &B, Value *Ctx, unsigned W, Type *Ty) {
  return B.CreateLoad(Ty, B.CreateConstInBoundsGEP1_64(B.getInt64Ty(), Ctx, W));
}

Value *toBits(IRBuilder<> &B, Value *V) {
  Type *Ty = V->getType();
  if (Ty->isFloatTy())
    V = B.CreateBitCast(V, B.getInt32Ty());
  else if (Ty->isDoubleTy())
    V = B.CreateBitCast(V, B.getInt64Ty());
  return B.CreateZExtOrTrunc(V, B.getInt64Ty());
}

Value *fromBits(IRBuilder<> &B, Value *V, Type *Ty) {
  if (Ty->isFloatTy())
    return B.CreateBitCast(B.CreateTrunc(V, B.getInt32Ty()), Ty);
  if (Ty->isDoubleTy())
    return B.CreateBitCast(V, Ty);
  return B.CreateZExtOrTrunc(V, Ty);
}

} // namespace

bool lowerWorkGroupSync(Function &Body) {
  LLVMContext &C = Body.getContext();
  Value *Ctx = Body.getArg(Body.arg_size() - 4);
  Type *I64 = Type::getInt64Ty(C), *I32 = Type::getInt32Ty(C);
  PointerType *Ptr = PointerType::getUnqual(C);
  auto *BarrierTy = FunctionType::get(Type::getVoidTy(C), {Ptr}, false);
  auto *CollTy = FunctionType::get(I64, {Ptr, I32, I64, I64, I64, I64}, false);
  bool Any = false;
  for (Instruction &I : make_early_inc_range(instructions(Body))) {
    auto *CI = dyn_cast<CallInst>(&I);
    if (!CI || !CI->getCalledFunction())
      continue;
    auto Parts = demangle(CI->getCalledFunction()->getName());
    if (!Parts)
      continue;
    auto [Name, Params] = *Parts;
    IRBuilder<> B(CI);
    if (Name == "barrier" || Name == "work_group_barrier") {
      // The memory scope and fences do not matter: every work-item of the
      // group runs on this thread, and the call is opaque to the optimizer.
      CallInst *New =
          B.CreateCall(BarrierTy, ctxWord(B, Ctx, WBarrier, Ptr), {Ctx});
      New->addFnAttr(Attribute::Convergent);
      New->addFnAttr(Attribute::NoUnwind);
      CI->eraseFromParent();
      Any = true;
      continue;
    }
    std::optional<uint32_t> Kind = collectiveKind(Name);
    if (!Kind)
      continue;
    std::optional<uint32_t> Type =
        Params.empty() ? std::nullopt : collectiveType(Params[0]);
    if (!Type)
      continue; // (half): left as a declaration, reported as unsupported
    Any = true;
    Value *Args[6] = {Ctx,
                      B.getInt32(*Kind * 16 + *Type),
                      toBits(B, CI->getArgOperand(0)),
                      B.getInt64(0),
                      B.getInt64(0),
                      B.getInt64(0)};
    for (unsigned A = 1; A < CI->arg_size() && A < 4; ++A)
      Args[A + 2] = B.CreateZExtOrTrunc(CI->getArgOperand(A), I64);
    CallInst *New =
        B.CreateCall(CollTy, ctxWord(B, Ctx, WCollective, Ptr), Args);
    New->addFnAttr(Attribute::Convergent);
    New->addFnAttr(Attribute::NoUnwind);
    CI->replaceAllUsesWith(fromBits(B, New, CI->getType()));
    CI->eraseFromParent();
    Any = true;
  }
  return Any;
}

void emitWorkItemFunction(Module &M, Function &Kernel, Function &Body,
                          const std::string &Name) {
  LLVMContext &C = M.getContext();
  Type *I64 = Type::getInt64Ty(C);
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
    CallArgs.push_back(ctxWord(B, Ctx, WLocalId + D, I64));
  B.CreateCall(&Body, CallArgs);
  B.CreateRetVoid();
}

} // namespace clcpu::compiler

//===- compiler/WorkGroupFunction.cpp - kernels to work-group functions ---===//
//
// For each kernel K this generates
//
//   void wg_K(void **Args, const WorkGroupContext *Ctx)
//
// which loops over the work-group's local ids (z, y, x; x innermost) and
// calls an always-inline copy of K's body in which every work-item function
// (get_global_id, get_local_size, ...) is replaced by IR computed from the
// loop induction variables and Ctx. The optimizer (compiler/Pipeline.cpp)
// then vectorizes the x-loop for the host CPU.

#include "compiler/WorkGroupFunction.h"

#include "compiler/Binary.h"
#include "compiler/ContextWords.h"
#include "compiler/Internal.h"
#include "compiler/WorkItemLoops.h"
#include "compiler/passes/Reconvergence.h"
#include "compiler/passes/VectorCollectives.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/IR/ReplaceConstant.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <functional>

using namespace llvm;

namespace clcpu::compiler {

/// The unmangled name of an Itanium-mangled free function (`_Z13get_global_idj`
/// → "get_global_id"); the name itself if it is not mangled.
StringRef baseName(StringRef N) {
  if (!N.consume_front("_Z"))
    return N;
  unsigned Len = 0;
  size_t Digits = 0;
  while (Digits < N.size() && isdigit(static_cast<unsigned char>(N[Digits])))
    Len = Len * 10 + (N[Digits++] - '0');
  if (!Digits || Digits + Len > N.size())
    return N;
  return N.substr(Digits, Len);
}

static unsigned mdInt(MDNode *N, unsigned I) {
  return static_cast<unsigned>(
      mdconst::extract<ConstantInt>(N->getOperand(I))->getZExtValue());
}
static std::string mdStr(MDNode *N, unsigned I) {
  if (auto *S = dyn_cast<MDString>(N->getOperand(I)))
    return S->getString().str();
  return "";
}

bool isKernel(const Function &F) {
  return !F.isDeclaration() && F.getCallingConv() == CallingConv::SPIR_KERNEL;
}

// For sin/exp/..., a libm call after scalarization.
void lowerMathBuiltins(Module &M) {
  static const std::pair<const char *, Intrinsic::ID> Map[] = {
      {"sqrt", Intrinsic::sqrt},   {"fabs", Intrinsic::fabs},
      {"floor", Intrinsic::floor}, {"ceil", Intrinsic::ceil},
      {"trunc", Intrinsic::trunc}, {"rint", Intrinsic::rint},
      {"round", Intrinsic::round}, {"fma", Intrinsic::fma},
      {"mad", Intrinsic::fmuladd}, {"fmin", Intrinsic::minnum},
      {"fmax", Intrinsic::maxnum}, {"copysign", Intrinsic::copysign},
      {"sin", Intrinsic::sin},     {"cos", Intrinsic::cos},
      {"exp", Intrinsic::exp},     {"exp2", Intrinsic::exp2},
      {"log", Intrinsic::log},     {"log2", Intrinsic::log2},
      {"log10", Intrinsic::log10}, {"pow", Intrinsic::pow},
  };
  for (Function &F : M) {
    if (!F.isDeclaration() || !F.getName().starts_with("_Z"))
      continue;
    StringRef Name = baseName(F.getName());
    Type *Ty = F.getReturnType();
    if (!Ty->isFPOrFPVectorTy())
      continue;
    bool SameTypes = F.arg_size() > 0;
    for (const Argument &A : F.args())
      SameTypes &= A.getType() == Ty;
    if (!SameTypes)
      continue;
    for (auto [N, ID] : Map) {
      if (Name != N)
        continue;
      Function *Intr = Intrinsic::getDeclaration(&M, ID, {Ty});
      if (Intr->getFunctionType()->getNumParams() != F.arg_size())
        break;
      F.replaceAllUsesWith(Intr);
      break;
    }
  }
}

namespace {

/// get_sub_group_size() and the other sub-group queries (cl_khr_subgroups):
/// sub-group i holds linear local ids [i * S, (i + 1) * S), S the device's
/// sub-group size, a constant (hostSubGroupSize(), what the runtime puts in
/// WorkGroupContext::SubGroupSize): the local id and the sub-group id are a
/// mask and a shift, not a division per work-item; the last sub-group may
/// be partial. Null for other names.
Value *subGroupQuery(IRBuilder<> &B, StringRef Name,
                     function_ref<Value *(unsigned)> Word, Value *Lid[3]) {
  auto Linear = [&] {
    return B.CreateAdd(
        B.CreateMul(
            B.CreateAdd(B.CreateMul(Lid[2], Word(WLocalSize + 1)), Lid[1]),
            Word(WLocalSize)),
        Lid[0]);
  };
  auto Total = [&](unsigned W) {
    return B.CreateMul(B.CreateMul(Word(W), Word(W + 1)), Word(W + 2));
  };
  auto CeilDiv = [&](Value *A, Value *D) {
    return B.CreateUDiv(B.CreateAdd(A, B.CreateSub(D, B.getInt64(1))), D);
  };
  auto Min = [&](Value *A, Value *C) {
    return B.CreateSelect(B.CreateICmpULT(A, C), A, C);
  };
  Value *S = B.getInt64(hostSubGroupSize());
  if (Name == "get_sub_group_local_id")
    return B.CreateURem(Linear(), S);
  if (Name == "get_sub_group_id")
    return B.CreateUDiv(Linear(), S);
  if (Name == "get_num_sub_groups")
    return CeilDiv(Total(WLocalSize), S);
  if (Name == "get_enqueued_num_sub_groups")
    return CeilDiv(Total(WEnqueuedLocalSize), S);
  if (Name == "get_max_sub_group_size")
    // Invariant for the dispatch: the sub-groups of a full-size group.
    return Min(Total(WEnqueuedLocalSize), S);
  if (Name == "get_sub_group_size") {
    Value *First = B.CreateMul(B.CreateUDiv(Linear(), S), S);
    return Min(B.CreateSub(Total(WLocalSize), First), S);
  }
  return nullptr;
}

/// Replaces the work-item function calls in \p Body, whose last four
/// parameters are (ctx, lx, ly, lz). Barriers and collectives were lowered
/// before (compiler/Barriers.cpp).
void replaceWorkItemCalls(Function &Body) {
  LLVMContext &C = Body.getContext();
  Type *I64 = Type::getInt64Ty(C), *I32 = Type::getInt32Ty(C);
  unsigned N = Body.arg_size();
  Value *Ctx = Body.getArg(N - 4);
  Value *Lid[3] = {Body.getArg(N - 3), Body.getArg(N - 2), Body.getArg(N - 1)};
  MDNode *Invariant = MDNode::get(C, {});

  for (Instruction &I : make_early_inc_range(instructions(Body))) {
    auto *CI = dyn_cast<CallInst>(&I);
    if (!CI || !CI->getCalledFunction())
      continue;
    StringRef Name = baseName(CI->getCalledFunction()->getName());
    IRBuilder<> B(CI);
    auto Word = [&](unsigned W) -> Value * {
      auto *L = B.CreateLoad(I64, B.CreateConstInBoundsGEP1_64(I64, Ctx, W));
      L->setMetadata(LLVMContext::MD_invariant_load, Invariant);
      return L;
    };
    // Dimension-indexed query: out-of-range dimensions give \p Default.
    auto PerDim = [&](std::function<Value *(unsigned)> Get,
                      uint64_t Default) -> Value * {
      // A constant dimension (nearly always) computes only its own: the
      // barrier regions recompute such an expression after a sync point
      // instead of keeping it (regions/Liveness.cpp, rematerializable), within
      // a budget the three dimensions' selects would exceed.
      if (auto *K = dyn_cast<ConstantInt>(CI->getArgOperand(0)))
        return K->getZExtValue() < 3 ? Get(unsigned(K->getZExtValue()))
                                     : ConstantInt::get(I64, Default);
      Value *D = B.CreateZExtOrTrunc(CI->getArgOperand(0), I32);
      Value *R = ConstantInt::get(I64, Default);
      for (int Dim = 2; Dim >= 0; --Dim)
        R = B.CreateSelect(B.CreateICmpEQ(D, B.getInt32(Dim)), Get(Dim), R);
      return R;
    };
    auto GlobalId = [&](unsigned D) {
      // Groups start at multiples of the enqueued size (the last one of a
      // non-uniform NDRange is smaller).
      return B.CreateAdd(B.CreateAdd(B.CreateMul(Word(WGroupId + D),
                                                 Word(WEnqueuedLocalSize + D)),
                                     Lid[D]),
                         Word(WGlobalOffset + D));
    };
    Value *R = nullptr;
    if (Name == "get_global_id")
      R = PerDim(GlobalId, 0);
    else if (Name == "get_local_id")
      R = PerDim([&](unsigned D) { return Lid[D]; }, 0);
    else if (Name == "get_group_id")
      R = PerDim([&](unsigned D) { return Word(WGroupId + D); }, 0);
    else if (Name == "get_local_size")
      R = PerDim([&](unsigned D) { return Word(WLocalSize + D); }, 1);
    else if (Name == "get_enqueued_local_size")
      R = PerDim([&](unsigned D) { return Word(WEnqueuedLocalSize + D); }, 1);
    else if (Name == "get_global_offset")
      R = PerDim([&](unsigned D) { return Word(WGlobalOffset + D); }, 0);
    else if (Name == "get_global_size")
      R = PerDim([&](unsigned D) { return Word(WGlobalSize + D); }, 1);
    else if (Name == "get_num_groups")
      R = PerDim([&](unsigned D) { return Word(WNumGroups + D); }, 1);
    else if (Name == "get_work_dim") {
      auto *L =
          B.CreateLoad(I32, B.CreateConstInBoundsGEP1_64(I64, Ctx, WWorkDim));
      L->setMetadata(LLVMContext::MD_invariant_load, Invariant);
      R = L;
    } else if (Name == "get_local_linear_id") {
      R = B.CreateAdd(
          B.CreateMul(
              B.CreateAdd(B.CreateMul(Lid[2], Word(WLocalSize + 1)), Lid[1]),
              Word(WLocalSize)),
          Lid[0]);
    } else if (Name == "get_global_linear_id") {
      Value *G[3];
      for (unsigned D = 0; D < 3; ++D)
        G[D] = B.CreateSub(GlobalId(D), Word(WGlobalOffset + D));
      R = B.CreateAdd(
          B.CreateMul(
              B.CreateAdd(B.CreateMul(G[2], Word(WGlobalSize + 1)), G[1]),
              Word(WGlobalSize)),
          G[0]);
    } else if (Name.contains("sub_group")) {
      R = subGroupQuery(B, Name, Word, Lid);
    } else if (Name == "__to_global" || Name == "__to_local" ||
               Name == "__to_private" || Name == "get_fence") {
      // OpenCL C 6.15.9 (address space qualifier functions): one flat
      // address space; the named space of a generic pointer is where it
      // points: the group's local block, the work-item's stack, or else
      // global memory.
      Value *P = B.CreatePtrToInt(CI->getArgOperand(0), I64);
      auto In = [&](unsigned Lo, unsigned Hi) {
        return B.CreateAnd(B.CreateICmpUGE(P, Word(Lo)),
                           B.CreateICmpULT(P, Word(Hi)));
      };
      Value *Local = In(WLocalMem, WLocalEnd);
      // Barrier regions keep escaping private variables in the scratch.
      Value *Private =
          B.CreateOr(In(WPrivateLo, WPrivateHi), In(WScratch, WScratchEnd));
      if (Name == "get_fence") {
        // CLK_LOCAL_MEM_FENCE (1) or CLK_GLOBAL_MEM_FENCE (2); private
        // memory needs no fence (0).
        R = B.CreateSelect(
            Local, B.getInt64(1),
            B.CreateSelect(Private, B.getInt64(0), B.getInt64(2)));
      } else {
        // "Returns NULL if ptr does not point to" the named space.
        Value *Match = Name == "__to_local" ? Local
                       : Name == "__to_private"
                           ? Private
                           : B.CreateNot(B.CreateOr(Local, Private));
        Value *Null =
            ConstantPointerNull::get(cast<PointerType>(CI->getType()));
        CI->replaceAllUsesWith(
            B.CreateSelect(Match, CI->getArgOperand(0), Null));
        CI->eraseFromParent();
        continue;
      }
    }
    if (!R)
      continue;
    CI->replaceAllUsesWith(B.CreateZExtOrTrunc(R, CI->getType()));
    CI->eraseFromParent();
  }
}

/// Fills \p K from the kernel's metadata. False if the IR signature does not
/// map one-to-one onto the OpenCL arguments.
bool readKernelInfo(Function &F, const DataLayout &DL, KernelInfo &K,
                    std::string &Log) {
  K.Name = F.getName().str();
  MDNode *AS = F.getMetadata("kernel_arg_addr_space");
  MDNode *Access = F.getMetadata("kernel_arg_access_qual");
  MDNode *Ty = F.getMetadata("kernel_arg_type");
  MDNode *Qual = F.getMetadata("kernel_arg_type_qual");
  MDNode *Names = F.getMetadata("kernel_arg_name");
  unsigned N = AS ? AS->getNumOperands() : 0;
  K.ArgInfoAvailable = Names != nullptr;
  if (N != F.arg_size()) {
    Log += "error: kernel '" + K.Name +
           "': argument passing convention not supported\n";
    return false;
  }
  for (unsigned I = 0; I < N; ++I) {
    ArgInfo A;
    A.AddressSpace = mdInt(AS, I);
    A.AccessQual = Access ? mdStr(Access, I) : "none";
    A.TypeName = Ty ? mdStr(Ty, I) : "";
    A.TypeQual = Qual ? mdStr(Qual, I) : "";
    A.Name = Names && I < Names->getNumOperands() ? mdStr(Names, I) : "";
    Argument *Arg = F.getArg(I);
    if (A.AddressSpace == ArgLocal)
      A.Size = 0;
    else if (A.isPointer())
      A.Size = sizeof(void *);
    else if (Type *BV = F.getParamByValType(I))
      A.Size = DL.getTypeAllocSize(BV);
    else
      A.Size = DL.getTypeAllocSize(Arg->getType());
    K.Args.push_back(std::move(A));
  }
  std::string Attrs;
  if (MDNode *R = F.getMetadata("reqd_work_group_size")) {
    for (unsigned D = 0; D < 3; ++D)
      K.ReqdWorkGroupSize[D] = mdInt(R, D);
    Attrs += "reqd_work_group_size(" + std::to_string(mdInt(R, 0)) + "," +
             std::to_string(mdInt(R, 1)) + "," + std::to_string(mdInt(R, 2)) +
             ")";
  }
  if (MDNode *H = F.getMetadata("work_group_size_hint")) {
    if (!Attrs.empty())
      Attrs += " ";
    Attrs += "work_group_size_hint(" + std::to_string(mdInt(H, 0)) + "," +
             std::to_string(mdInt(H, 1)) + "," + std::to_string(mdInt(H, 2)) +
             ")";
  }
  if (MDNode *V = F.getMetadata("vec_type_hint")) {
    // !{<type> undef, i32 signed}: the OpenCL C spelling, e.g. "uint4".
    Type *T = cast<ConstantAsMetadata>(V->getOperand(0))->getType();
    bool Signed = mdInt(V, 1) != 0;
    unsigned Lanes = 1;
    if (auto *VT = dyn_cast<FixedVectorType>(T)) {
      Lanes = VT->getNumElements();
      T = VT->getElementType();
    }
    std::string Name;
    if (T->isHalfTy())
      Name = "half";
    else if (T->isFloatTy())
      Name = "float";
    else if (T->isDoubleTy())
      Name = "double";
    else if (T->isIntegerTy())
      Name = std::string(Signed ? "" : "u") + (T->isIntegerTy(8)    ? "char"
                                               : T->isIntegerTy(16) ? "short"
                                               : T->isIntegerTy(32) ? "int"
                                                                    : "long");
    if (!Name.empty()) {
      if (!Attrs.empty())
        Attrs += " ";
      Attrs += "vec_type_hint(" + Name +
               (Lanes > 1 ? std::to_string(Lanes) : std::string()) + ")";
    }
  }
  K.Attributes = Attrs;
  // OpenCL C 1.x and -cl-uniform-work-group-size: "true"; 2.0+: "false".
  K.UniformWorkGroupSize =
      F.getFnAttribute("uniform-work-group-size").getValueAsString() != "false";
  return true;
}

} // namespace

Function *beginWorkGroupFunction(Module &M, Function &Kernel,
                                 const std::string &Name, IRBuilder<> &B,
                                 SmallVectorImpl<Value *> &CallArgs) {
  LLVMContext &C = M.getContext();
  PointerType *Ptr = PointerType::getUnqual(C);
  auto *FT = FunctionType::get(Type::getVoidTy(C), {Ptr, Ptr}, false);
  Function *WG =
      Function::Create(FT, GlobalValue::ExternalLinkage, "wg_" + Name, M);
  // The target and the floating-point model the build options chose
  // (-cl-denorms-are-zero, -cl-fast-relaxed-math, ...) for code generation.
  for (const char *A :
       {"target-cpu", "target-features", "denormal-fp-math",
        "denormal-fp-math-f32", "no-signed-zeros-fp-math", "no-nans-fp-math",
        "no-infs-fp-math", "unsafe-fp-math", "approx-func-fp-math",
        "less-precise-fpmad", "frame-pointer"})
    if (Kernel.hasFnAttribute(A))
      WG->addFnAttr(Kernel.getFnAttribute(A));
  WG->addFnAttr(Attribute::NoUnwind);
  WG->addParamAttr(0, Attribute::NoAlias);
  WG->addParamAttr(0, Attribute::ReadOnly);
  WG->addParamAttr(1, Attribute::NoAlias);
  WG->addParamAttr(1, Attribute::ReadOnly);
  // The whole context can be read anywhere: a get_global_size() under a
  // branch that differs between work-items is hoisted, not gathered per lane.
  WG->addParamAttr(
      1, Attribute::getWithDereferenceableBytes(C, sizeof(WorkGroupContext)));
  WG->addParamAttr(
      1, Attribute::getWithAlignment(C, Align(alignof(WorkGroupContext))));
  Value *ArgsArr = WG->getArg(0), *Ctx = WG->getArg(1);
  MDNode *Invariant = MDNode::get(C, {});
  B.SetInsertPoint(BasicBlock::Create(C, "entry", WG));
  for (unsigned I = 0; I < Kernel.arg_size(); ++I) {
    auto *Slot =
        B.CreateLoad(Ptr, B.CreateConstInBoundsGEP1_64(Ptr, ArgsArr, I));
    Slot->setMetadata(LLVMContext::MD_invariant_load, Invariant);
    if (Kernel.getParamByValType(I))
      CallArgs.push_back(Slot);
    else
      CallArgs.push_back(B.CreateLoad(Kernel.getArg(I)->getType(), Slot));
  }
  CallArgs.push_back(Ctx);
  return WG;
}

/// The group's local size. A dimension that reqd_work_group_size sets to 1
/// is the constant 1 (a launch must use that size, and a group of one
/// work-item cannot be a smaller last group): its loop folds away.
void loadLocalSize(IRBuilder<> &B, Value *Ctx, Value *Size[3],
                   const KernelInfo &K) {
  MDNode *Invariant = MDNode::get(B.getContext(), {});
  for (unsigned D = 0; D < 3; ++D) {
    if (K.ReqdWorkGroupSize[D] == 1) {
      Size[D] = B.getInt64(1);
      continue;
    }
    auto *L = B.CreateLoad(
        B.getInt64Ty(),
        B.CreateConstInBoundsGEP1_64(B.getInt64Ty(), Ctx, WLocalSize + D));
    L->setMetadata(LLVMContext::MD_invariant_load, Invariant);
    Size[D] = L;
  }
}

BranchInst *emitLocalIdLoops(
    IRBuilder<> &B, Value *const Size[3],
    function_ref<void(IRBuilder<> &, Value *, Value *, Value *)> EmitBody) {
  LLVMContext &C = B.getContext();
  Function *F = B.GetInsertBlock()->getParent();
  Type *I64 = B.getInt64Ty();
  // Bottom-tested loops: the runtime guarantees every local size is >= 1.
  BasicBlock *Pre = B.GetInsertBlock();
  BasicBlock *ZHead = BasicBlock::Create(C, "z", F);
  BasicBlock *YHead = BasicBlock::Create(C, "y", F);
  BasicBlock *XBody = BasicBlock::Create(C, "x", F);
  BasicBlock *YLatch = BasicBlock::Create(C, "y.latch", F);
  BasicBlock *ZLatch = BasicBlock::Create(C, "z.latch", F);
  BasicBlock *Exit = BasicBlock::Create(C, "exit", F);
  B.CreateBr(ZHead);

  B.SetInsertPoint(ZHead);
  PHINode *Z = B.CreatePHI(I64, 2, "lz");
  Z->addIncoming(B.getInt64(0), Pre);
  B.CreateBr(YHead);

  B.SetInsertPoint(YHead);
  PHINode *Y = B.CreatePHI(I64, 2, "ly");
  Y->addIncoming(B.getInt64(0), ZHead);
  B.CreateBr(XBody);

  B.SetInsertPoint(XBody);
  PHINode *X = B.CreatePHI(I64, 2, "lx");
  X->addIncoming(B.getInt64(0), YHead);
  EmitBody(B, X, Y, Z);
  Value *XN = B.CreateAdd(X, B.getInt64(1), "lx.next", true, true);
  X->addIncoming(XN, B.GetInsertBlock());
  BranchInst *XLatch =
      B.CreateCondBr(B.CreateICmpULT(XN, Size[0]), XBody, YLatch);

  B.SetInsertPoint(YLatch);
  Value *YN = B.CreateAdd(Y, B.getInt64(1), "ly.next", true, true);
  Y->addIncoming(YN, YLatch);
  B.CreateCondBr(B.CreateICmpULT(YN, Size[1]), YHead, ZLatch);

  B.SetInsertPoint(ZLatch);
  Value *ZN = B.CreateAdd(Z, B.getInt64(1), "lz.next", true, true);
  Z->addIncoming(ZN, ZLatch);
  B.CreateCondBr(B.CreateICmpULT(ZN, Size[2]), ZHead, Exit);

  B.SetInsertPoint(Exit);
  return XLatch;
}

unsigned workItemLanes(const Function &Kernel) {
  // One vector register of 32-bit lanes.
  StringRef Features =
      Kernel.getFnAttribute("target-features").getValueAsString();
  return Features.contains("+avx512f") ? 16 : Features.contains("+avx") ? 8 : 4;
}

namespace {

bool hasLoop(const Function &F) {
  SmallVector<std::pair<const BasicBlock *, const BasicBlock *>, 4> Backedges;
  FindFunctionBackedges(F, Backedges);
  return !Backedges.empty();
}

/// `wg_<K>`: loads the arguments, loops over local ids, calls \p Body.
void emitWorkGroupFunction(Module &M, Function &Kernel, Function &Body,
                           const KernelInfo &K) {
  IRBuilder<> B(M.getContext());
  SmallVector<Value *, 16> CallArgs;
  Function *WG = beginWorkGroupFunction(M, Kernel, K.Name, B, CallArgs);
  Value *Size[3];
  loadLocalSize(B, WG->getArg(1), Size, K);
  BranchInst *XLatch = emitLocalIdLoops(
      B, Size, [&](IRBuilder<> &XB, Value *X, Value *Y, Value *Z) {
        SmallVector<Value *, 16> Full(CallArgs);
        Full.append({X, Y, Z});
        XB.CreateCall(&Body, Full);
      });
  markWorkItemLoop(*XLatch, Body, workItemLanes(Kernel));
  B.CreateRetVoid();
}

/// A __local variable of any kernel of \p Kernels (a kernel that calls
/// another kernel uses the callee's __local variables as its own).
bool isAnyKernelLocalVariable(const GlobalVariable &G,
                              ArrayRef<Function *> Kernels) {
  for (const Function *K : Kernels)
    if (isKernelLocalVariable(G, K->getName()))
      return true;
  return false;
}

/// Whether \p V is used by an instruction of \p F, directly or through
/// constant expressions.
bool usedIn(const Value &V, const Function &F) {
  for (const User *U : V.users()) {
    if (const auto *I = dyn_cast<Instruction>(U)) {
      if (I->getFunction() == &F)
        return true;
    } else if (isa<ConstantExpr>(U) && usedIn(*U, F)) {
      return true;
    }
  }
  return false;
}

/// Offsets of \p F's __local variables in the work-group's local block
/// (also those of the kernels it calls, whose __local variables are its
/// own); sets K.LocalMemSize.
SmallVector<std::pair<GlobalVariable *, uint64_t>, 4>
layOutLocalVariables(Module &M, Function &F, ArrayRef<Function *> KernelFns,
                     KernelInfo &K) {
  const DataLayout &DL = M.getDataLayout();
  SmallVector<std::pair<GlobalVariable *, uint64_t>, 4> Locals;
  for (GlobalVariable &G : M.globals())
    if (isKernelLocalVariable(G, K.Name) ||
        (isAnyKernelLocalVariable(G, KernelFns) && usedIn(G, F))) {
      uint64_t Align =
          std::max<uint64_t>(G.getAlign().valueOrOne().value(),
                             DL.getPrefTypeAlign(G.getValueType()).value());
      K.LocalMemSize = alignTo(K.LocalMemSize, std::max<uint64_t>(Align, 16));
      Locals.push_back({&G, K.LocalMemSize});
      K.LocalMemSize += DL.getTypeAllocSize(G.getValueType());
    }
  return Locals;
}

/// `<K>.body`: \p F's code with (ctx, lx, ly, lz) appended to its
/// parameters, its __local variables (\p Locals) at their offsets from
/// WorkGroupContext::LocalMem.
Function *cloneBody(Module &M, Function &F, const KernelInfo &K,
                    ArrayRef<std::pair<GlobalVariable *, uint64_t>> Locals) {
  LLVMContext &C = M.getContext();
  SmallVector<Type *, 16> Params(F.getFunctionType()->params());
  Params.push_back(PointerType::getUnqual(C));
  for (int I = 0; I < 3; ++I)
    Params.push_back(Type::getInt64Ty(C));
  Function *Body =
      Function::Create(FunctionType::get(Type::getVoidTy(C), Params, false),
                       GlobalValue::InternalLinkage, K.Name + ".body", M);
  ValueToValueMapTy VMap;
  for (unsigned I = 0; I < F.arg_size(); ++I)
    VMap[F.getArg(I)] = Body->getArg(I);
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(Body, &F, VMap, CloneFunctionChangeType::LocalChangesOnly,
                    Returns);
  Body->setCallingConv(CallingConv::C);
  Body->clearMetadata();
  Body->removeFnAttr(Attribute::NoInline);
  Body->addFnAttr(Attribute::AlwaysInline);
  if (Locals.empty())
    return Body;
  // Each launch (and, later, each worker) has its own local block: the
  // variables' uses become offsets from WorkGroupContext::LocalMem.
  IRBuilder<> B(&*Body->getEntryBlock().getFirstInsertionPt());
  Value *Ctx = Body->getArg(Body->arg_size() - 4);
  Type *I8 = Type::getInt8Ty(C);
  auto *Base = B.CreateLoad(
      PointerType::getUnqual(C),
      B.CreateConstInBoundsGEP1_64(Type::getInt64Ty(C), Ctx, WLocalMem));
  Base->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(C, {}));
  for (auto [G, Offset] : Locals) {
    convertUsersOfConstantsToInstructions({G}, Body);
    Value *Addr = B.CreateConstInBoundsGEP1_64(I8, Base, Offset);
    G->replaceUsesWithIf(Addr, [&](Use &U) {
      auto *I = dyn_cast<Instruction>(U.getUser());
      return I && I->getFunction() == Body;
    });
  }
  return Body;
}

} // namespace

bool isKernelLocalVariable(const GlobalVariable &G, StringRef Kernel) {
  return G.hasInternalLinkage() && !G.isConstant() && G.hasInitializer() &&
         isa<UndefValue>(G.getInitializer()) &&
         G.getName().starts_with((Kernel + ".").str());
}

bool formWorkGroupFunction(Module &M, Function &F,
                           ArrayRef<Function *> KernelFns, const Options &Opts,
                           KernelInfo &K, std::string &Log) {
  if (!readKernelInfo(F, M.getDataLayout(), K, Log))
    return false;
  Function *Body = cloneBody(M, F, K, layOutLocalVariables(M, F, KernelFns, K));
  // Three ways to run a kernel (K.Path says which, CLCPU_LOG_KERNEL_PATHS
  // prints it): without barriers, one loop over the work-items; with
  // barriers or collectives, barrier regions (regions/); with
  // a work-item waiting for another (a spin loop on an atomic), or a shape
  // the regions do not handle, one fiber per work-item (Barriers.cpp).
  replaceWorkItemCalls(*Body);
  // The body passes request no analyses: an empty manager serves them.
  FunctionAnalysisManager NoAnalyses;
  // Vector broadcasts as scalar ones: the collectives compute on 64 bits,
  // and both paths then take them.
  VectorCollectivesPass().run(*Body, NoAnalyses);
  // Where the work-items of a sub-group meet again after a divergent
  // branch to a non-uniform sub-group function: both paths below release
  // those calls by it.
  ReconvergencePass().run(*Body, NoAnalyses);
  bool Sync = false;
  for (Instruction &I : instructions(*Body))
    if (auto *CI = dyn_cast<CallInst>(&I))
      Sync |= classifySyncCall(*CI).has_value();
  std::string Why;
  if (!Opts.NoSubgroupIfp && insertProgressYields(*Body))
    Why = "a loop waits for another work-item (independent forward "
          "progress)";
  else if (Sync && Opts.ForceFibers)
    Why = "-clcpu-force-fibers";
  if (Sync && Why.empty() && emitBarrierRegions(M, F, *Body, K, Why)) {
    // K.Path set by the regions
  } else if (Sync || !Why.empty()) {
    lowerWorkGroupSync(*Body);
    K.PerWorkItem = true;
    K.RegionScratch = 0;
    K.Path = "fibers: " + Why;
    emitWorkItemFunction(M, F, *Body, K.Name);
  } else if (hasLoop(*Body) && emitBarrierRegions(M, F, *Body, K, Why)) {
    // No barrier but a grid-stride loop (LoopSyncPoints.cpp): one region
    // per iteration, vectorized across work-items, beats each work-item
    // striding through memory alone.
  } else {
    K.Path = "work-item loop";
    emitWorkGroupFunction(M, F, *Body, K);
  }
  return true;
}

} // namespace clcpu::compiler

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
#include "compiler/WorkGroupContext.h"

#include "compiler/Barriers.h"
#include "compiler/Binary.h"
#include "compiler/ContextFields.h"
#include "compiler/KernelBody.h"
#include "compiler/WorkItemLoops.h"
#include "compiler/analyses/SyncCalls.h"
#include "compiler/passes/CheckBounds.h"
#include "compiler/passes/DeferFloatAdds.h"
#include "compiler/passes/DeviceEnqueueCalls.h"
#include "compiler/passes/FlattenAddressSpaces.h"
#include "compiler/passes/ImageArguments.h"
#include "compiler/passes/LowerWorkGroupSync.h"
#include "compiler/passes/PassRegistry.h"
#include "compiler/passes/ProgressYields.h"
#include "compiler/passes/Reconvergence.h"
#include "compiler/passes/VectorCollectives.h"
#include "compiler/passes/WorkItemCalls.h"
#include "compiler/passes/WorkItemDebugVariables.h"
#include "compiler/regions/BarrierRegions.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/bit.h>
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
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <functional>

using namespace llvm;

namespace clcpu::compiler {

using CF = ContextField;

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

namespace {

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
  K.Block = F.hasFnAttribute(BlockKernelAttr);
  // Every helper is inlined by now: the runtime calls are the kernel's own.
  for (const Instruction &I : instructions(F))
    if (const auto *CI = dyn_cast<CallInst>(&I))
      if (const Function *Callee = CI->getCalledFunction())
        K.Enqueues |= Callee->getName().starts_with("clcpu_device_");
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
  // An image argument points to its descriptor, which the runtime always
  // passes (clSetKernelArg refuses a NULL image): loads of it may be
  // hoisted out of the work-item loop also from under a branch.
  MDNode *Types = Kernel.getMetadata("kernel_arg_type");
  auto IsImage = [&](unsigned I) {
    auto *S = Types && I < Types->getNumOperands()
                  ? dyn_cast_or_null<MDString>(Types->getOperand(I).get())
                  : nullptr;
    return S && isImageTypeName(std::string_view(S->getString()));
  };
  Type *I64 = Type::getInt64Ty(C);
  MDNode *Descriptor = MDNode::get(C, ConstantAsMetadata::get(ConstantInt::get(
                                          I64, ImageDescriptorLayout::Size)));
  MDNode *DescriptorAlign =
      MDNode::get(C, ConstantAsMetadata::get(ConstantInt::get(I64, 8)));
  B.SetInsertPoint(BasicBlock::Create(C, "entry", WG));
  for (unsigned I = 0; I < Kernel.arg_size(); ++I) {
    auto *Slot =
        B.CreateLoad(Ptr, B.CreateConstInBoundsGEP1_64(Ptr, ArgsArr, I));
    Slot->setMetadata(LLVMContext::MD_invariant_load, Invariant);
    if (Kernel.getParamByValType(I)) {
      CallArgs.push_back(Slot);
      continue;
    }
    LoadInst *V = B.CreateLoad(Kernel.getArg(I)->getType(), Slot);
    if (IsImage(I) && V->getType()->isPointerTy()) {
      V->setMetadata(LLVMContext::MD_dereferenceable, Descriptor);
      V->setMetadata(LLVMContext::MD_align, DescriptorAlign);
      V->setMetadata(LLVMContext::MD_nonnull, Invariant);
      V->setMetadata(LLVMContext::MD_noundef, Invariant);
    }
    CallArgs.push_back(V);
  }
  CallArgs.push_back(Ctx);
  return WG;
}

int argumentIndex(const Value *V, const Argument *Args, const DataLayout &DL) {
  const auto *L = dyn_cast<LoadInst>(V);
  if (!L)
    return -1;
  const auto *Slot = dyn_cast<LoadInst>(L->getPointerOperand());
  if (!Slot)
    return -1;
  APInt Offset(64, 0);
  const Value *Base =
      Slot->getPointerOperand()->stripAndAccumulateConstantOffsets(
          DL, Offset, /*AllowNonInbounds=*/true);
  if (Base != Args || Offset.isNegative() || Offset.getZExtValue() % 8)
    return -1;
  return int(Offset.getZExtValue() / 8);
}

/// The group's local size. A dimension that reqd_work_group_size sets to 1
/// is the constant 1 (a launch must use that size, and a group of one
/// work-item cannot be a smaller last group): its loop folds away. A small
/// required size R (at most a register's 16 lanes, pyopencl's groups of 16
/// and 12) bounds the loaded size to [1, R] (a smaller last group is
/// smaller still): its local ids are known to be small and non-negative,
/// so `(k * 16 + lid) / 256` on ints is a shift, not a signed division
/// that kept pyopencl's transposing loops scalar.
void loadLocalSize(IRBuilder<> &B, Value *Ctx, Value *Size[3],
                   const KernelInfo &K) {
  for (unsigned D = 0; D < 3; ++D) {
    size_t R = K.ReqdWorkGroupSize[D];
    if (R == 1) {
      Size[D] = B.getInt64(1);
      continue;
    }
    Size[D] = loadContextField(B, Ctx, ContextField::LocalSize, D);
    if (R > 1 && R <= 16)
      if (auto *L = dyn_cast<LoadInst>(Size[D]))
        L->setMetadata(
            LLVMContext::MD_range,
            MDNode::get(B.getContext(),
                        {ConstantAsMetadata::get(B.getInt64(1)),
                         ConstantAsMetadata::get(B.getInt64(R + 1))}));
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

unsigned xLoopLanes(const Function &Kernel, bool &Capped) {
  unsigned Lanes = workItemLanes(Kernel);
  Capped = false;
  // reqd_work_group_size(X, ...) fixes the x-loop at X iterations (fewer
  // in a remainder group). A vector of more lanes than that would never
  // run: the loop would take its scalar remainder every time (CLBlast's
  // Xgemm, tuned to 8 x 16 work-items, ran all its regions scalar). At X
  // lanes exactly, the cost model's choice of two vectors per iteration
  // would never run either (pyopencl's scans, 16 work-items of ints, ran
  // each region as two iterations of an 8-lane epilogue).
  if (MDNode *R = Kernel.getMetadata("reqd_work_group_size"))
    if (unsigned X = mdInt(R, 0); X >= 1 && X <= Lanes) {
      Lanes = llvm::bit_floor(X);
      Capped = true;
    }
  return Lanes;
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
  bool Capped = false;
  unsigned Lanes = xLoopLanes(Kernel, Capped);
  markWorkItemLoop(*XLatch, Body, Lanes, Capped,
                   unsigned(K.ReqdWorkGroupSize[0]));
  B.CreateRetVoid();
  // Which arguments are __global buffers (their slots look alike for
  // __local ones): passes/DeferFloatAdds.cpp defers adds into those only.
  LLVMContext &C = M.getContext();
  SmallVector<Metadata *, 8> Global;
  for (size_t I = 0; I < K.Args.size(); ++I)
    if (K.Args[I].AddressSpace == ArgGlobal)
      Global.push_back(ConstantAsMetadata::get(
          ConstantInt::get(Type::getInt32Ty(C), unsigned(I))));
  WG->setMetadata(GlobalArgsMetadata, MDNode::get(C, Global));
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
    if ((isKernelLocalVariable(G, K.Name) &&
         !G.hasMetadata(WorkGroupVariableMetadata)) ||
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
  Type *I64 = Type::getInt64Ty(C);
  SmallVector<ReturnInst *, 4> Returns;
  Function *Body =
      cloneWithParams(F, {PointerType::getUnqual(C), I64, I64, I64},
                      Type::getVoidTy(C), K.Name + ".body", Returns);
  Body->setCallingConv(CallingConv::C);
  Body->clearMetadata();
  // The parameters' source names, for the bounds-check mode's reports.
  for (unsigned I = 0; I < F.arg_size(); ++I)
    Body->getArg(I)->setName(F.getArg(I)->getName());
  Body->removeFnAttr(Attribute::NoInline);
  Body->addFnAttr(Attribute::AlwaysInline);
  markBodyParams(*Body, F.arg_size());
  if (Locals.empty())
    return Body;
  // Each launch (and, later, each worker) has its own local block: the
  // variables' uses become offsets from WorkGroupContext::LocalMem.
  IRBuilder<> B(&*Body->getEntryBlock().getFirstInsertionPt());
  Value *Ctx = Body->getArg(Body->arg_size() - 4);
  Type *I8 = Type::getInt8Ty(C);
  Value *Base = loadContextField(B, Ctx, ContextField::LocalMem);
  for (auto [G, Offset] : Locals) {
    convertUsersOfConstantsToInstructions({G}, Body);
    Value *Addr = B.CreateConstInBoundsGEP1_64(I8, Base, Offset);
    // The bounds-check mode's object and extent (passes/CheckBounds.cpp).
    if (auto *I = dyn_cast<Instruction>(Addr)) {
      StringRef Name = G->getName();
      Name.consume_front(K.Name + ".");
      I->setMetadata(
          LocalVariableMetadata,
          MDNode::get(
              C,
              {ConstantAsMetadata::get(ConstantInt::get(
                   I64, M.getDataLayout().getTypeAllocSize(G->getValueType()))),
               MDString::get(C, Name)}));
    }
    G->replaceUsesWithIf(Addr, [&](Use &U) {
      auto *I = dyn_cast<Instruction>(U.getUser());
      return I && I->getFunction() == Body;
    });
  }
  return Body;
}

/// Names \p K's image and sampler parameters in \p Body's
/// ImageArgumentsMetadata, with the values \p Bindings fixes if it is a
/// specialization of this kernel; false if the kernel has neither.
bool describeImageArguments(Function &Body, const KernelInfo &K,
                            const ArgBindings &Bindings) {
  LLVMContext &C = Body.getContext();
  Type *I32 = Type::getInt32Ty(C);
  auto Int = [&](uint64_t V) {
    return ConstantAsMetadata::get(ConstantInt::get(I32, V));
  };
  bool Mine = Bindings.Kernel == K.Name;
  SmallVector<Metadata *, 4> Args;
  for (unsigned I = 0; I < K.Args.size(); ++I) {
    if (K.Args[I].isImage()) {
      SmallVector<Metadata *, 6> Ops{Int(I), MDString::get(C, "image")};
      for (const ArgBindings::Image &B : Bindings.Images)
        if (Mine && B.Index == I)
          Ops.append(
              {Int(B.Order), Int(B.Type), Int(B.ElementSize), Int(B.Channels)});
      Args.push_back(MDNode::get(C, Ops));
    } else if (K.Args[I].isSampler()) {
      SmallVector<Metadata *, 3> Ops{Int(I), MDString::get(C, "sampler")};
      for (const ArgBindings::Sampler &B : Bindings.Samplers)
        if (Mine && B.Index == I)
          Ops.push_back(Int(B.Bits));
      Args.push_back(MDNode::get(C, Ops));
    }
  }
  if (Args.empty())
    return false;
  Body.setMetadata(ImageArgumentsMetadata, MDNode::get(C, Args));
  return true;
}

} // namespace

bool isKernelLocalVariable(const GlobalVariable &G, StringRef Kernel) {
  // A module-scope variable of local memory from a SPIR-V module
  // (passes/FlattenAddressSpaces.cpp) is every kernel's that uses it.
  if (G.hasMetadata(WorkGroupVariableMetadata))
    return true;
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
  //
  // The body passes (compiler/passes/Passes.def), with the analyses they
  // request (clcpu-uniformity, LLVM's); true if the pass changed the body.
  FunctionAnalysisManager FAM;
  PassBuilder PB;
  registerPasses(PB);
  PB.registerFunctionAnalyses(FAM);
  auto Run = [&](auto &&Pass) {
    PreservedAnalyses PA = Pass.run(*Body, FAM);
    FAM.invalidate(*Body, PA);
    return !PA.areAllPreserved();
  };
  // Image accesses: the descriptors' loads invariant, and in a launch's
  // specialization the formats and samplers it fixes as constants, so that
  // every access folds to one conversion the work-item loop vectorizes.
  if (describeImageArguments(*Body, K, Opts.Bindings))
    Run(ImageArgumentsPass());
  // -g: the work-item's ids as variables a debugger prints.
  Run(WorkItemDebugVariablesPass());
  // get_global_id and the other work-item functions as context loads and
  // local-id arithmetic, which every path vectorizes.
  Run(WorkItemCallsPass());
  // -fclcpu-check-bounds: each access checked against its object's extent.
  // The local ids' ranges (reqd_work_group_size, else the largest group)
  // let it prove accesses in bounds: a tile index such as `tile[ly][k]`.
  if (Opts.CheckBounds) {
    Value *Lid[3];
    if (localIdParams(*Body, Lid))
      for (unsigned D = 0; D < 3; ++D) {
        size_t Max =
            K.ReqdWorkGroupSize[D] ? K.ReqdWorkGroupSize[D] : CheckReportSlots;
        cast<Argument>(Lid[D])->addAttr(
            Attribute::get(M.getContext(), Attribute::Range,
                           ConstantRange(APInt(64, 0), APInt(64, Max))));
      }
    Run(CheckBoundsPass());
  }
  // Vector broadcasts as scalar ones: the collectives compute on 64 bits,
  // and both paths then take them.
  Run(VectorCollectivesPass());
  // Where the work-items of a sub-group meet again after a divergent
  // branch to a non-uniform sub-group function: both paths below release
  // those calls by it.
  Run(ReconvergencePass());
  bool Sync = !FAM.getResult<SyncCallsAnalysis>(*Body).empty();
  std::string Why;
  // A loop that waits for another work-item gets a yield, and fibers.
  if (!Opts.NoSubgroupIfp && Run(ProgressYieldsPass()))
    Why = "a loop waits for another work-item (independent forward "
          "progress)";
  else if (Sync && Opts.ForceFibers)
    Why = "-clcpu-force-fibers";
  if (Sync && Why.empty() && emitBarrierRegions(M, F, *Body, K, Why)) {
    // K.Path set by the regions
  } else if (Sync || !Why.empty()) {
    // The regions may have tried and changed the body (SROA).
    FAM.invalidate(*Body, PreservedAnalyses::none());
    Run(LowerWorkGroupSyncPass());
    K.PerWorkItem = true;
    K.RegionScratch = 0;
    K.Path = "fibers: " + Why;
    emitWorkItemFunction(M, F, *Body, K.Name);
  } else if (hasLoop(*Body) && emitBarrierRegions(M, F, *Body, K, Why)) {
    // No barrier but a grid-stride loop (passes/LoopSyncPoints.cpp): one region
    // per iteration, vectorized across work-items, beats each work-item
    // striding through memory alone.
  } else {
    K.Path = "work-item loop";
    // Float atomic adds no other access of the work-item touches, found
    // while the work-item is still one function (passes/DeferFloatAdds.cpp).
    markDeferrableAdds(*Body);
    FAM.invalidate(*Body, PreservedAnalyses::none());
    emitWorkGroupFunction(M, F, *Body, K);
  }
  return true;
}

} // namespace clcpu::compiler

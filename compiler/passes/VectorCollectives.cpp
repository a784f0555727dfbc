//===- VectorCollectives.cpp - vector broadcasts per component ------------===//
//
// cl_khr_subgroup_extended_types lets sub_group_broadcast and
// sub_group_non_uniform_broadcast take vectors (a float4, a char16). The
// collectives compute on 64 bits per work-item (compiler/WorkGroupContext.h),
// so this pass splits such a call into one scalar broadcast per component,
// with the same index, before the kernel takes either path: the barrier
// regions keep the kernel (a fiber per work-item would be about a hundred
// times slower), and the fiber path sees only scalars. A vector the ABI
// returns through memory (a void call with an sret pointer) is left alone
// and reported as an unsupported builtin.

#include "compiler/passes/VectorCollectives.h"

#include "compiler/Barriers.h"

#include <llvm/ADT/StringRef.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <cctype>
#include <string>

using namespace llvm;

#define DEBUG_TYPE "clcpu-vector-collectives"

namespace clcpu::compiler {

namespace {

bool splitVectorCollectives(Function &Body) {
  Module &M = *Body.getParent();
  LLVMContext &C = M.getContext();
  const DataLayout &DL = M.getDataLayout();
  bool Any = false;
  for (Instruction &I : make_early_inc_range(instructions(Body))) {
    auto *CI = dyn_cast<CallInst>(&I);
    Function *Callee = CI ? CI->getCalledFunction() : nullptr;
    if (!Callee || CI->getType()->isVoidTy() || CI->arg_size() != 2)
      continue;
    // <name>(Dv<lanes>_<element>, <index>)
    auto Parts = demangleBuiltin(Callee->getName());
    if (!Parts)
      continue;
    auto [Name, Params] = *Parts;
    if (Name != "sub_group_broadcast" &&
        Name != "sub_group_non_uniform_broadcast")
      continue;
    if (!Params.consume_front("Dv"))
      continue;
    while (!Params.empty() && isdigit(static_cast<unsigned char>(Params[0])))
      Params = Params.drop_front();
    if (!Params.consume_front("_") || Params.empty())
      continue;
    // One letter, or "Dh" for half.
    StringRef EltCode = Params.take_front(Params.starts_with("Dh") ? 2 : 1);
    Type *Elt =
        EltCode == "Dh" ? Type::getHalfTy(C) : builtinScalarType(C, EltCode[0]);
    if (!Elt)
      continue;
    IRBuilder<> B(CI);
    Value *Arg = CI->getArgOperand(0);
    // The x86-64 ABI passes small vectors as integers or doubles and large
    // ones by pointer (byval); the result comes back by value.
    if (Type *ByVal = CI->getParamByValType(0))
      Arg = B.CreateLoad(ByVal, Arg);
    uint64_t Bits = DL.getTypeSizeInBits(Arg->getType());
    uint64_t EltBits = DL.getTypeSizeInBits(Elt);
    if (Bits % EltBits || DL.getTypeSizeInBits(CI->getType()) != Bits)
      continue;
    // The scalar builtin of the same name: <element> then the index's
    // mangled type.
    std::string ScalarName = "_Z" + std::to_string(Name.size()) + Name.str() +
                             EltCode.str() +
                             Params.drop_front(EltCode.size()).str();
    Value *Index = CI->getArgOperand(1);
    FunctionCallee Scalar = M.getOrInsertFunction(
        ScalarName, FunctionType::get(Elt, {Elt, Index->getType()}, false));
    if (auto *F = dyn_cast<Function>(Scalar.getCallee())) {
      F->addFnAttr(Attribute::Convergent);
      F->addFnAttr(Attribute::NoUnwind);
    }
    // The argument's bits as a vector of the element type (a 3-component
    // vector's padding lane is broadcast too: harmless).
    auto *VT = FixedVectorType::get(Elt, static_cast<unsigned>(Bits / EltBits));
    Value *Vec = B.CreateBitCast(Arg, VT);
    Value *Result = PoisonValue::get(VT);
    for (unsigned L = 0; L < VT->getNumElements(); ++L) {
      CallInst *One =
          B.CreateCall(Scalar, {B.CreateExtractElement(Vec, L), Index});
      One->addFnAttr(Attribute::Convergent);
      Result = B.CreateInsertElement(Result, One, L);
    }
    CI->replaceAllUsesWith(B.CreateBitCast(Result, CI->getType()));
    CI->eraseFromParent();
    Any = true;
  }
  return Any;
}

} // namespace

PreservedAnalyses VectorCollectivesPass::run(Function &F,
                                             FunctionAnalysisManager &) {
  return splitVectorCollectives(F) ? PreservedAnalyses::none()
                                   : PreservedAnalyses::all();
}

} // namespace clcpu::compiler

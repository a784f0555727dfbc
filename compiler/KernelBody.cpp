//===- compiler/KernelBody.cpp - a kernel body's extra parameters ---------===//

#include "compiler/KernelBody.h"

#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <string>

using namespace llvm;

namespace clcpu::compiler {

void markBodyParams(Function &F, unsigned Ctx) {
  F.addParamAttr(
      Ctx, Attribute::get(F.getContext(), StringRef(ContextParamAttr), ""));
  for (unsigned D = 0; D < 3; ++D)
    F.addParamAttr(Ctx + 1 + D, Attribute::get(F.getContext(), LocalIdParamAttr,
                                               std::to_string(D)));
}

Argument *contextParam(const Function &F) {
  for (const Argument &A : F.args())
    if (F.getAttributes().hasParamAttr(A.getArgNo(), ContextParamAttr))
      return const_cast<Argument *>(&A);
  return nullptr;
}

bool localIdParams(const Function &F, Value *Lid[3]) {
  Value *Found[3] = {};
  for (const Argument &A : F.args()) {
    Attribute Dim =
        F.getAttributes().getParamAttr(A.getArgNo(), LocalIdParamAttr);
    if (!Dim.isValid())
      continue;
    StringRef V = Dim.getValueAsString();
    if (V.size() == 1 && V[0] >= '0' && V[0] <= '2')
      Found[V[0] - '0'] = const_cast<Argument *>(&A);
  }
  if (!Found[0] || !Found[1] || !Found[2])
    return false;
  for (unsigned D = 0; D < 3; ++D)
    Lid[D] = Found[D];
  return true;
}

Function *cloneWithParams(Function &F, ArrayRef<Type *> Extra, Type *Ret,
                          const Twine &Name,
                          SmallVectorImpl<ReturnInst *> &Returns) {
  SmallVector<Type *, 16> Params(F.getFunctionType()->params());
  Params.append(Extra.begin(), Extra.end());
  Function *Copy =
      Function::Create(FunctionType::get(Ret, Params, false),
                       GlobalValue::InternalLinkage, Name, F.getParent());
  ValueToValueMapTy VMap;
  for (unsigned I = 0; I < F.arg_size(); ++I)
    VMap[F.getArg(I)] = Copy->getArg(I);
  CloneFunctionInto(Copy, &F, VMap, CloneFunctionChangeType::LocalChangesOnly,
                    Returns);
  return Copy;
}

} // namespace clcpu::compiler

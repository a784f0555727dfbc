//===- compiler/ContextFields.cpp - context fields in the IR --------------===//

#include "compiler/ContextFields.h"

#include <llvm/IR/IRBuilder.h>

#include <type_traits>

using namespace llvm;

namespace clcpu::compiler {

namespace {
/// The IR type of a context field's element of C++ type \p T.
template <typename T> Type *irType(LLVMContext &C) {
  if constexpr (std::is_pointer_v<T>)
    return PointerType::getUnqual(C);
  else
    return IntegerType::get(C, 8 * sizeof(T));
}

Type *fieldType(LLVMContext &C, ContextField F) {
  switch (F) {
#define CLCPU_LAUNCH_FIELD(Name, T, ...)                                       \
  case ContextField::Name:                                                     \
    return irType<T>(C);
#define CLCPU_GROUP_FIELD(Name, T, ...)                                        \
  case ContextField::Name:                                                     \
    return irType<T>(C);
#include "compiler/WorkGroupContext.def"
  }
  return nullptr;
}
} // namespace

Value *loadContextField(IRBuilderBase &B, Value *Ctx, ContextField F,
                        unsigned Index) {
  LoadInst *L = B.CreateLoad(fieldType(B.getContext(), F),
                             B.CreateConstInBoundsGEP1_64(
                                 B.getInt64Ty(), Ctx, contextWord(F) + Index));
  L->setMetadata(LLVMContext::MD_invariant_load,
                 MDNode::get(B.getContext(), {}));
  return L;
}

} // namespace clcpu::compiler

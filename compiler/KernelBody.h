//===- compiler/KernelBody.h - a kernel body's extra parameters -*- C++ -*-===//
//
// A kernel body `<K>.body` is the kernel's code with four parameters
// appended: the WorkGroupContext pointer and the work-item's local ids x,
// y and z. Those parameters carry string attributes, and the functions the
// barrier regions clone from a body keep them, so that every pass and
// analysis that works on bodies finds them by attribute rather than by
// position, and an IR test can write a body by hand.

#ifndef CLCPU_COMPILER_KERNELBODY_H
#define CLCPU_COMPILER_KERNELBODY_H

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/SmallVector.h>

namespace llvm {
class Argument;
class Function;
class ReturnInst;
class Twine;
class Type;
class Value;
} // namespace llvm

namespace clcpu::compiler {

/// The attribute of a body's WorkGroupContext parameter.
inline constexpr const char ContextParamAttr[] = "clcpu-context";
/// The attribute of a body's local id parameters; its value is the
/// dimension ("0", "1" or "2").
inline constexpr const char LocalIdParamAttr[] = "clcpu-local-id";

/// Marks parameter \p Ctx of \p F as the context and the three after it as
/// the local ids x, y and z.
void markBodyParams(llvm::Function &F, unsigned Ctx);

/// \p F's context parameter; null if \p F is not a kernel body.
llvm::Argument *contextParam(const llvm::Function &F);

/// \p F's local id parameters, x, y and z, in \p Lid; false (and \p Lid
/// unchanged) if \p F is not a kernel body.
bool localIdParams(const llvm::Function &F, llvm::Value *Lid[3]);

/// An internal copy of \p F named \p Name, returning \p Ret, with \p Extra
/// parameters after F's own (which keep their attributes): how a kernel
/// becomes its body and a body its barrier regions' function. \p Returns:
/// the copy's returns, for a caller that changes the return type.
llvm::Function *
cloneWithParams(llvm::Function &F, llvm::ArrayRef<llvm::Type *> Extra,
                llvm::Type *Ret, const llvm::Twine &Name,
                llvm::SmallVectorImpl<llvm::ReturnInst *> &Returns);

} // namespace clcpu::compiler

#endif

//===- compiler/ContextFields.h - context fields in the IR ------*- C++ -*-===//
//
// Generated code reads the WorkGroupContext its work-group function gets
// (compiler/WorkGroupContext.h) as an array of 64-bit words. Every field
// of compiler/WorkGroupContext.def has an id here, its word index computed
// from the structure's own layout, and one accessor that emits its load,
// so no file that emits IR knows an offset.

#ifndef CLCPU_COMPILER_CONTEXTFIELDS_H
#define CLCPU_COMPILER_CONTEXTFIELDS_H

#include "compiler/WorkGroupContext.h"

#include <cstddef>

namespace llvm {
class Value;
class IRBuilderBase;
} // namespace llvm

namespace clcpu::compiler {

/// One field of the WorkGroupContext, in the order of the .def.
enum class ContextField : unsigned {
#define CLCPU_LAUNCH_FIELD(Name, ...) Name,
#define CLCPU_GROUP_FIELD(Name, ...) Name,
#include "compiler/WorkGroupContext.def"
};

/// The index of \p F's first word in the context.
constexpr unsigned contextWord(ContextField F) {
  switch (F) {
#define CLCPU_LAUNCH_FIELD(Name, ...)                                          \
  case ContextField::Name:                                                     \
    return (offsetof(WorkGroupContext, Launch) +                               \
            offsetof(LaunchDescription, Name)) /                               \
           sizeof(uint64_t);
#define CLCPU_GROUP_FIELD(Name, ...)                                           \
  case ContextField::Name:                                                     \
    return offsetof(WorkGroupContext, Name) / sizeof(uint64_t);
#include "compiler/WorkGroupContext.def"
  }
  return ~0u;
}

/// An invariant load of element \p Index of context field \p F (the
/// context is constant while a work-group function runs), at the field's
/// type: i64 for sizes and masks, i32 for WorkDim, ptr for pointers.
llvm::Value *loadContextField(llvm::IRBuilderBase &B, llvm::Value *Ctx,
                              ContextField F, unsigned Index = 0);

} // namespace clcpu::compiler

#endif

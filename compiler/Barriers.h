//===- compiler/Barriers.h - sync calls and the fiber path ------*- C++ -*-===//
//
// The interface of compiler/Barriers.cpp: what a synchronizing builtin call is,
// and the fiber path's lowering of barriers and collectives.

#ifndef CLCPU_COMPILER_BARRIERS_H
#define CLCPU_COMPILER_BARRIERS_H

#include <llvm/ADT/StringRef.h>
#include <llvm/IR/IRBuilder.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace llvm {
class CallInst;
class Function;
class LLVMContext;
class Module;
class Type;
class Value;
} // namespace llvm

namespace clcpu::compiler {

/// Replaces barrier()/work_group_barrier() and the
/// work_group_* collectives in \p Body (a kernel body, compiler/
/// KernelBody.h) by calls through WorkGroupContext::Barrier and
/// ::Collective. True if there was any: the kernel must then run one fiber
/// per work-item (emitWorkItemFunction). Collectives of a type clcpu does
/// not handle (half) stay calls, reported later as unsupported builtins.
bool lowerWorkGroupSync(llvm::Function &Body);

/// An Itanium-mangled builtin's name and parameter codes
/// ("_Z21work_group_reduce_addi" -> {"work_group_reduce_add", "i"}).
std::optional<std::pair<llvm::StringRef, llvm::StringRef>>
demangleBuiltin(llvm::StringRef Mangled);
/// The LLVM type of an Itanium-mangled scalar type code
/// ('i' -> i32, 'f' -> float; null for the others, half included).
llvm::Type *builtinScalarType(llvm::LLVMContext &C, char Code);

/// The builtin compiler/passes/Reconvergence.cpp calls at a reconvergence point
/// (`int __clcpu_reconverge(int)`, a CollReconverge collective).
inline constexpr const char ReconvergeName[] = "__clcpu_reconverge";

/// What a call to a synchronizing builtin is: barrier() or
/// work_group_barrier(), sub_group_barrier(), or a work_group_* /
/// sub_group_* collective with its WorkGroupContext Op (Kind * 16 + Type,
/// plus CollSubGroup).
struct SyncCall {
  enum KindT { Barrier, SubGroupBarrier, Collective } Kind = Barrier;
  uint32_t Op = 0;
  /// False for a collective of a vector (one splitVectorCollectives left:
  /// returned through memory) or half operand: the regions leave it to the
  /// fiber path (lowerWorkGroupSync), which reports it unsupported.
  bool Scalar = true;
  /// Computed over the work-items that reach the call together (the
  /// non-uniform functions, shuffles and rotations): the fibers release it
  /// per call site.
  bool PerCallSite = false;
};
/// Null if \p CI calls no synchronizing builtin.
std::optional<SyncCall> classifySyncCall(const llvm::CallInst &CI);

/// A collective's operand as the 64 bits the scheduler
/// computes on (compiler/WorkGroupContext.h), and back (sub_group_ballot's
/// uint4 mask from its 64 bits).
llvm::Value *collectiveToBits(llvm::IRBuilder<> &B, llvm::Value *V);
llvm::Value *collectiveFromBits(llvm::IRBuilder<> &B, llvm::Value *Bits,
                                llvm::Type *Ty);

/// `wg_<Name>` running the one work-item at Ctx->LocalId.
void emitWorkItemFunction(llvm::Module &M, llvm::Function &Kernel,
                          llvm::Function &Body, const std::string &Name);

} // namespace clcpu::compiler

#endif

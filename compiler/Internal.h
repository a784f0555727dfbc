#ifndef CLCPU_COMPILER_INTERNAL_H
#define CLCPU_COMPILER_INTERNAL_H

// Interfaces between the compiler's stages (Frontend → Pipeline →
// WorkGroupFunction → Jit) and the barrier-region code. Only the compiler's
// own .cpp files include this; each pass has its own header in
// compiler/passes/.

#include "compiler/Compiler.h"

#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/PassManager.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class BranchInst;
class Function;
class LLVMContext;
class Loop;
class Module;
class PassBuilder;
class TargetMachine;
} // namespace llvm

namespace clcpu::compiler {

class WorkItemUniformity;

/// OpenCL C → unoptimized LLVM IR for the host, with in-process Clang.
/// nullptr on error; diagnostics (file:line:col) are appended to \p Log.
std::unique_ptr<llvm::Module> compileSource(llvm::LLVMContext &Ctx,
                                            const std::string &Source,
                                            const Options &Opts,
                                            const std::vector<Header> &Headers,
                                            std::string &Log);

/// Links the builtin library functions \p M uses (builtins/, embedded
/// bitcode) into \p M. False (with the reason in \p Log) on failure.
bool linkBuiltins(llvm::Module &M, std::string &Log);

/// LinkBuiltins.cpp: the path of the loaded SLEEF library (libsleef, which
/// the driver links against), made searchable by llvm::sys::DynamicLibrary;
/// empty if it cannot be found. The JIT resolves Sleef_* symbols there.
const std::string &sleefLibrary();

/// Barriers.cpp: replaces barrier()/work_group_barrier() and the
/// work_group_* collectives in \p Body (a kernel body, compiler/
/// KernelBody.h) by calls through WorkGroupContext::Barrier and
/// ::Collective. True if there was any: the kernel must then run one fiber
/// per work-item (emitWorkItemFunction). Collectives of a type clcpu does
/// not handle (half) stay calls, reported later as unsupported builtins.
bool lowerWorkGroupSync(llvm::Function &Body);

/// SiteReach.cpp: bit j of entry i says a work-item waiting at the end
/// of block \p Sites[i] can still reach block \p Sites[j] (all of one
/// function) in this round of every loop around Sites[j]: along a path
/// that takes no back edge of a loop containing Sites[j]. A sub-group
/// releases a non-uniform call that none of its other waiting work-items
/// can reach: after a loop of varying trip count, the calls in the loop go
/// first; inside a loop, a work-item waiting at a reconvergence point does
/// not hold back the call on the other side of the branch.
llvm::SmallVector<uint64_t, 8>
siteReach(llvm::ArrayRef<const llvm::BasicBlock *> Sites);

/// Barriers.cpp: an Itanium-mangled builtin's name and parameter codes
/// ("_Z21work_group_reduce_addi" -> {"work_group_reduce_add", "i"}).
std::optional<std::pair<llvm::StringRef, llvm::StringRef>>
demangleBuiltin(llvm::StringRef Mangled);
/// Barriers.cpp: the LLVM type of an Itanium-mangled scalar type code
/// ('i' -> i32, 'f' -> float; null for the others, half included).
llvm::Type *builtinScalarType(llvm::LLVMContext &C, char Code);

/// The builtin compiler/passes/Reconvergence.cpp calls at a reconvergence point
/// (`int __clcpu_reconverge(int)`, a CollReconverge collective).
inline constexpr const char ReconvergeName[] = "__clcpu_reconverge";

/// Barriers.cpp: what a call to a synchronizing builtin is: barrier() or
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

/// PromotePrivates.cpp: \p F's private variables to SSA values where it
/// can (SROA), before the uniformity analysis (compiler/analyses/
/// WorkItemUniformity.h), which takes every load from a private variable as
/// divergent.
void promotePrivates(llvm::Function &F);

/// Barriers.cpp: a collective's operand as the 64 bits the scheduler
/// computes on (compiler/WorkGroupContext.h), and back (sub_group_ballot's
/// uint4 mask from its 64 bits).
llvm::Value *collectiveToBits(llvm::IRBuilder<> &B, llvm::Value *V);
llvm::Value *collectiveFromBits(llvm::IRBuilder<> &B, llvm::Value *Bits,
                                llvm::Type *Ty);

/// InlineCollectives.cpp: whether the barrier regions compute sub-group
/// collective \p Op in the kernel's code when every work-item of the group
/// is at it (and, if \p Diverged, when only some are: the others' states
/// name other sync points); and the code: at \p B, over the full
/// sub-groups of the \p N 64-bit value slots at \p Values (index arguments
/// at \p Args), one vector of hostSubGroupSize() lanes per sub-group, over
/// every work-item (\p States null) or those whose i32 state is \p Region.
/// Returns how many work-items that covered (N rounded down to whole
/// sub-groups); the rest, a partial last sub-group, is the caller's.
bool inlineSubGroupOp(uint32_t Op, bool Diverged = false);
llvm::Value *emitInlineSubGroupOp(llvm::IRBuilder<> &B, uint32_t Op,
                                  llvm::Value *Values, llvm::Value *Args,
                                  llvm::Value *N, llvm::Value *States,
                                  llvm::Value *Region);

/// regions/BarrierRegions.cpp: the barrier fast path. Splits \p Body (a
/// kernel body whose last parameters are ctx, lx, ly, lz, with barriers or
/// collectives) at its barriers and collectives into regions and emits
/// `wg_<Name>` running each region as a loop over the group's work-items
/// (vectorized like a barrier-free kernel), with values live across a
/// barrier in per-work-item scratch (WorkGroupContext::Scratch). Sets
/// K.RegionScratch and K.Path. False, with the reason in \p Why and \p Body
/// still a valid (possibly SROA-optimized) body for the fiber path, when the
/// kernel has a shape the regions do not handle.
bool emitBarrierRegions(llvm::Module &M, llvm::Function &Kernel,
                        llvm::Function &Body, KernelInfo &K, std::string &Why);

/// LoopSyncPoints.cpp: in a barrier-region kernel's body \p R, a sync point
/// (a fence-less barrier call marked clcpu.loop_sync) at the header of each
/// loop whose trip count differs between work-items only through the start
/// of a strided induction (grid-stride loops), so each iteration runs as a
/// vectorized region. \p Uniform: R's uniform values. Returns how many were
/// inserted.
unsigned insertLoopSyncPoints(llvm::Function &R,
                              const WorkItemUniformity &Uniform);
/// Whether \p CI is a sync point insertLoopSyncPoints made.
bool isLoopSyncPoint(const llvm::CallInst &CI);

/// The attribute of a sub-group stretch's collective step, kept out of the
/// scalarizer's way until the vectorizer ran: passes/SubGroupStepInline.cpp
/// inlines the functions that have it at the end of the optimizer.
inline constexpr const char *LateInlineAttr = "clcpu-late-inline";

/// WorkGroupFunction.cpp: creates `wg_<Name>` for \p Kernel (its target and
/// floating-point attributes), loads the kernel's arguments into
/// \p CallArgs followed by the WorkGroupContext pointer, and leaves \p B at
/// the end of the entry block.
llvm::Function *
beginWorkGroupFunction(llvm::Module &M, llvm::Function &Kernel,
                       const std::string &Name, llvm::IRBuilder<> &B,
                       llvm::SmallVectorImpl<llvm::Value *> &CallArgs);

/// WorkGroupFunction.cpp: the group's local sizes from \p Ctx (constant 1
/// where \p K's reqd_work_group_size says 1).
void loadLocalSize(llvm::IRBuilder<> &B, llvm::Value *Ctx, llvm::Value *Size[3],
                   const KernelInfo &K);

/// WorkGroupFunction.cpp: loops z, y, x over the local ids [0, Size[d])
/// at \p B (x innermost), with \p EmitBody's code in the x-loop; returns the
/// x-loop's latch and leaves \p B after the loops.
llvm::BranchInst *
emitLocalIdLoops(llvm::IRBuilder<> &B, llvm::Value *const Size[3],
                 llvm::function_ref<void(llvm::IRBuilder<> &, llvm::Value *,
                                         llvm::Value *, llvm::Value *)>
                     EmitBody);

/// WorkGroupFunction.cpp: work-items per vector register of 32-bit lanes on
/// \p Kernel's target.
unsigned workItemLanes(const llvm::Function &Kernel);

/// Barriers.cpp: `wg_<Name>` running the one work-item at Ctx->LocalId.
void emitWorkItemFunction(llvm::Module &M, llvm::Function &Kernel,
                          llvm::Function &Body, const std::string &Name);

} // namespace clcpu::compiler

#endif

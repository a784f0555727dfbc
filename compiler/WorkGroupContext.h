#ifndef CLCPU_COMPILER_WORKGROUPCONTEXT_H
#define CLCPU_COMPILER_WORKGROUPCONTEXT_H

// The one structure the runtime hands to a generated work-group function
// `void wg_<kernel>(void **Args, const WorkGroupContext *Ctx)`. Its fields
// are listed once, in compiler/WorkGroupContext.def; the generated code
// reads them by word index (compiler/ContextFields.h).

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace clcpu {

struct WorkGroupContext;

/// barrier(), sub_group_barrier() and the progress yield of the fiber path.
using BarrierFn = void (*)(const WorkGroupContext *Ctx);
/// Work-item path: work_group_<op>(Value [, lx, ly, lz]). \p Op is
/// `Kind * 16 + Type` (CollectiveKind, CollectiveType) plus the flags below
/// (CollSubGroup, CollNonUniform, CollClustered); the value and the result
/// are the operand's bits zero-extended to 64.
using CollectiveFn = uint64_t (*)(const WorkGroupContext *Ctx, uint32_t Op,
                                  uint64_t Value, uint64_t X, uint64_t Y,
                                  uint64_t Z);
/// Barrier regions: computes collective \p Op over the \p N work-items'
/// values \p Values in place; \p Args holds each work-item's index argument
/// (the broadcast source as a linear local id for work_group_broadcast, a
/// sub-group local id for sub_group_broadcast, the shuffle index, mask or
/// delta). If \p States is not null (work-items stopped at different sync
/// points), a sub-group collective is computed only for the sub-groups whose
/// first work-item's state is \p Region.
using GroupCollectiveFn = void (*)(const WorkGroupContext *Ctx, uint32_t Op,
                                   uint64_t *Values, const uint64_t *Args,
                                   size_t N, const uint32_t *States,
                                   uint32_t Region);

/// A field of \p Count elements of \p T: an array for Count > 1.
template <typename T, unsigned Count> struct ContextFieldOf {
  using Type = T[Count];
};
template <typename T> struct ContextFieldOf<T, 1> {
  using Type = T;
};

/// What is the same for every work-group of one launch: filled once by
/// clEnqueueNDRangeKernel (runtime/api/KernelApi.cpp, runtime/Kernel.cpp),
/// carried by the launch (scheduler/NDRange.h) and copied whole into each
/// thread's context.
struct LaunchDescription {
#define CLCPU_LAUNCH_FIELD(Name, T, Count, ...)                                \
  ContextFieldOf<T, Count>::Type Name = __VA_ARGS__;
#include "compiler/WorkGroupContext.def"
};

struct WorkGroupContext {
  LaunchDescription Launch;
#define CLCPU_GROUP_FIELD(Name, T, Count, ...)                                 \
  ContextFieldOf<T, Count>::Type Name = __VA_ARGS__;
#include "compiler/WorkGroupContext.def"
};

/// The groups of one dimension of \p Global work-items in groups of
/// \p Local (LaunchDescription::NumGroups): not (Global + Local - 1) /
/// Local, which wraps for global sizes near SIZE_MAX.
/// Words per array of WorkGroupContext::CheckReport: at least
/// CL_DEVICE_MAX_WORK_GROUP_SIZE (runtime/Device.cpp checks).
inline constexpr size_t CheckReportSlots = 4096;
/// The word of WorkGroupContext::CheckReport after its three arrays: set
/// to 1 by a work-item that failed a check, in a kernel whose site table
/// says it does (passes/CheckBounds.h), so that the scheduler reads one
/// word, not the arrays, after a group without failure.
inline constexpr size_t CheckReportFailed = 3 * CheckReportSlots;
/// Words of WorkGroupContext::CheckReport.
inline constexpr size_t CheckReportWords = CheckReportFailed + 1;

constexpr size_t groupsIn(size_t Global, size_t Local) {
  return Global / Local + (Global % Local != 0);
}

/// work_group_* functions (OpenCL C 2.0, 6.13.15), as CollectiveOp kinds.
enum CollectiveKind : uint32_t {
  CollAll,
  CollAny,
  CollBroadcast,
  CollReduceAdd,
  CollReduceMin,
  CollReduceMax,
  CollScanInclusiveAdd,
  CollScanInclusiveMin,
  CollScanInclusiveMax,
  CollScanExclusiveAdd,
  CollScanExclusiveMin,
  CollScanExclusiveMax,
  // cl_khr_subgroup_shuffle and cl_khr_subgroup_shuffle_relative (sub-group
  // scope only): X is each work-item's own index, mask or delta.
  CollShuffle,
  CollShuffleXor,
  CollShuffleUp,
  CollShuffleDown,
  // cl_khr_subgroup_non_uniform_arithmetic and
  // cl_khr_subgroup_clustered_reduce: the operations beyond add, min and
  // max, each as a reduction and an inclusive and exclusive scan (the
  // logical ones on int: 0 or 1).
  CollReduceMul,
  CollReduceAnd,
  CollReduceOr,
  CollReduceXor,
  CollReduceLogicalAnd,
  CollReduceLogicalOr,
  CollReduceLogicalXor,
  CollScanInclusiveMul,
  CollScanInclusiveAnd,
  CollScanInclusiveOr,
  CollScanInclusiveXor,
  CollScanInclusiveLogicalAnd,
  CollScanInclusiveLogicalOr,
  CollScanInclusiveLogicalXor,
  CollScanExclusiveMul,
  CollScanExclusiveAnd,
  CollScanExclusiveOr,
  CollScanExclusiveXor,
  CollScanExclusiveLogicalAnd,
  CollScanExclusiveLogicalOr,
  CollScanExclusiveLogicalXor,
  // Non-uniform only (cl_khr_subgroup_non_uniform_vote,
  // cl_khr_subgroup_ballot): sub_group_elect (1 in the active work-item of
  // the lowest sub-group local id, else 0), sub_group_non_uniform_all_equal,
  // sub_group_ballot (the bit mask of the active work-items whose predicate
  // is not 0, bit i for sub-group local id i) and sub_group_broadcast_first
  // (the value of the active work-item of the lowest sub-group local id).
  CollElect,
  CollAllEqual,
  CollBallot,
  CollBroadcastFirst,
  // cl_khr_subgroup_rotate (sub-group scope only): X is the delta; with
  // CollClustered, sub_group_clustered_rotate, the cluster size in the Op
  // (CollClusterShift).
  CollRotate,
  // A reconvergence point (compiler/passes/Reconvergence.cpp): the sub-group's
  // work-items meet there after a divergent branch; nothing is computed.
  CollReconverge,
  // work_group_reserve_{read,write}_pipe and the sub-group ones (OpenCL C
  // 3.0 6.15.16.3, builtins/pipe.cl): one reservation for the group (or
  // sub-group), made by the runtime when the collective is computed
  // (scheduler/PipeRing.h); the value is the pipe, X the packet count, and
  // every work-item gets the reservation's id.
  CollPipeReserveRead,
  CollPipeReserveWrite,
  // work_group_commit_{read,write}_pipe (6.15.16.3): the group's commit of
  // the reservation X of the pipe given as the value, made once by the
  // runtime when every work-item has reached it (its copies are then done);
  // no result. A sync point of its own rather than a barrier followed by a
  // call in the first work-item: that call kept the work-item loop after
  // the barrier scalar, one iteration per work-item to reach one call.
  CollPipeCommitRead,
  CollPipeCommitWrite,
};
/// Added to an Op: the collective is the sub_group_* one, over the
/// work-items of the caller's sub-group only (broadcast's X is a sub-group
/// local id).
constexpr uint32_t CollSubGroup = 0x10000;
/// Added to a sub-group Op: the sub_group_non_uniform_* (and elect, ballot,
/// broadcast_first) form, over the sub-group's active work-items only: those
/// that reach the call together (compiler/passes/Reconvergence.cpp). On fibers
/// Y is the kernel's table of which call sites can follow which and Z the call
/// site's number (compiler/Barriers.cpp).
constexpr uint32_t CollNonUniform = 0x20000;
/// Added to a sub-group reduction: sub_group_clustered_reduce_*, one result
/// per cluster of X consecutive sub-group local ids.
constexpr uint32_t CollClustered = 0x40000;
/// sub_group_clustered_rotate: bits 24-31 of the Op hold log2 of the
/// cluster size (an integer constant expression) plus 1.
constexpr uint32_t CollClusterShift = 24;
/// How a reduction or scan kind combines values (CollReduceAdd ...
/// CollScanExclusiveLogicalXor) and which result it gives; the scheduler's
/// collectives (scheduler/Collectives.cpp) and the ones the compiler emits
/// into kernels (compiler/InlineCollectives.cpp) decode kinds with it.
enum class CollCombine { Add, Min, Max, Mul, And, Or, Xor, LAnd, LOr, LXor };
enum class CollMode { Reduce, Inclusive, Exclusive };
/// \p Kind's operation and mode; false if it is not a reduction or scan.
inline bool collectiveArithmetic(uint32_t Kind, CollCombine &C, CollMode &M) {
  if (Kind >= CollReduceAdd && Kind <= CollScanExclusiveMax) {
    static const CollCombine Basic[] = {CollCombine::Add, CollCombine::Min,
                                        CollCombine::Max};
    C = Basic[(Kind - CollReduceAdd) % 3];
    M = CollMode((Kind - CollReduceAdd) / 3);
    return true;
  }
  if (Kind >= CollReduceMul && Kind <= CollScanExclusiveLogicalXor) {
    static const CollCombine Extra[] = {
        CollCombine::Mul,  CollCombine::And, CollCombine::Or,  CollCombine::Xor,
        CollCombine::LAnd, CollCombine::LOr, CollCombine::LXor};
    C = Extra[(Kind - CollReduceMul) % 7];
    M = CollMode((Kind - CollReduceMul) / 7);
    return true;
  }
  return false;
}

enum CollectiveType : uint32_t {
  CollInt,
  CollUInt,
  CollLong,
  CollULong,
  CollFloat,
  CollDouble,
  CollChar,
  CollUChar,
  CollShort,
  CollUShort,
  CollHalf, // cl_khr_fp16 (combined in float, rounded once per step)
};

// The generated code addresses the context as an array of 64-bit words
// (compiler/ContextFields.h): each field starts at a word, and an array's
// elements are whole words.
static_assert(sizeof(size_t) == 8, "clcpu targets 64-bit hosts");
static_assert(std::is_standard_layout_v<WorkGroupContext>);
static_assert(offsetof(WorkGroupContext, Launch) == 0);
#define CLCPU_LAUNCH_FIELD(Name, T, Count, ...)                                \
  static_assert(offsetof(LaunchDescription, Name) % 8 == 0 &&                  \
                sizeof(T) <= 8 && (Count == 1 || sizeof(T) == 8));
#define CLCPU_GROUP_FIELD(Name, T, Count, ...)                                 \
  static_assert(offsetof(WorkGroupContext, Name) % 8 == 0 && sizeof(T) <= 8 && \
                (Count == 1 || sizeof(T) == 8));
#include "compiler/WorkGroupContext.def"
static_assert(sizeof(LaunchDescription) % 8 == 0);

/// For kernels with barriers (KernelInfo::PerWorkItem) the same signature
/// runs one work-item: the one at Ctx->LocalId.
/// Args[i] points at the value of kernel argument i: for a buffer, at the
/// `void *` holding its address; for __local, at the `void *` holding the
/// work-group's local block; otherwise at the argument's bytes.
using WorkGroupFn = void (*)(void **Args, const WorkGroupContext *Ctx);

} // namespace clcpu

#endif

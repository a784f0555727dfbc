#ifndef CLCPU_COMPILER_WORKGROUPCONTEXT_H
#define CLCPU_COMPILER_WORKGROUPCONTEXT_H

// The one structure the runtime hands to a generated work-group function
// `void wg_<kernel>(void **Args, const WorkGroupContext *Ctx)`. The layout is
// fixed: the generated code reads these fields by index
// (compiler/ContextWords.h; size_t words 0..14, the 32-bit work_dim at word
// 15, LocalMem at word 16, EnqueuedLocalSize at 17..19, LocalId at 20..22,
// Barrier at 23, Collective at 24, Group at 25, SubGroupSize at 26,
// SubGroupBarrier at 27, Yield at 28, LocalEnd at 29, PrivateLo at 30,
// PrivateHi at 31, Scratch at 32, GroupCollective at 33, ScratchEnd at 34).

#include <cstddef>
#include <cstdint>

namespace clcpu {

struct WorkGroupContext {
  size_t GroupId[3];
  size_t LocalSize[3];
  size_t GlobalOffset[3];
  size_t GlobalSize[3];
  size_t NumGroups[3];
  uint32_t WorkDim;
  /// The work-group's block for the kernel's own __local variables
  /// (KernelInfo::LocalMemSize bytes, 16-byte aligned); one per work-group
  /// running at the same time.
  void *LocalMem;
  /// The local size clEnqueueNDRangeKernel asked for (get_enqueued_local_size);
  /// LocalSize is the actual size, smaller in the last group of a dimension
  /// of a non-uniform NDRange.
  size_t EnqueuedLocalSize[3];
  /// Work-item path only (kernels with barriers or collectives, run as one
  /// fiber per work-item): this work-item's local id.
  size_t LocalId[3];
  /// Work-item path: barrier()/work_group_barrier() calls this; it returns
  /// once every work-item of the group reached the barrier.
  void (*Barrier)(const WorkGroupContext *Ctx);
  /// Work-item path: work_group_<op>(Value [, lx, ly, lz]). \p Op is
  /// `Kind * 16 + Type` (CollectiveKind, CollectiveType) plus the flags
  /// below (CollSubGroup, CollNonUniform, CollClustered); the value and the
  /// result are the operand's bits zero-extended to 64.
  uint64_t (*Collective)(const WorkGroupContext *Ctx, uint32_t Op,
                         uint64_t Value, uint64_t X, uint64_t Y, uint64_t Z);
  /// The scheduler's state for this work-group (opaque to the kernel).
  void *Group;
  /// The device's sub-group size (cl_khr_subgroups): the 32-bit SIMD width
  /// of the host CPU. Sub-group i of a work-group holds the work-items of
  /// linear local ids [i * SubGroupSize, (i + 1) * SubGroupSize); the last
  /// one may be partial. Set on both paths, for the scheduler's collectives
  /// and sub-group barriers; compiled kernels use the constant it always
  /// equals (compiler::hostSubGroupSize).
  size_t SubGroupSize;
  /// Work-item path: sub_group_barrier() calls this; it returns once every
  /// work-item of the caller's sub-group reached a sub-group barrier (the
  /// other sub-groups are not waited for).
  void (*SubGroupBarrier)(const WorkGroupContext *Ctx);
  /// Work-item path: called on the back edge of a loop that waits for
  /// another work-item (its exit depends on an atomic): lets the other
  /// work-items of the group run (independent forward progress).
  void (*Yield)(const WorkGroupContext *Ctx);
  /// The end of this work-group's local memory [LocalMem, LocalEnd): the
  /// kernel's __local variables and its __local arguments. Generic
  /// pointers into it are local (to_local, get_fence).
  void *LocalEnd;
  /// The memory of the running work-item's private variables: the
  /// thread's stack on the work-item loop, the fiber's stack on the fiber
  /// path. Generic pointers into it are private (to_private).
  void *PrivateLo;
  void *PrivateHi;
  /// Barrier regions only (KernelInfo::RegionScratch > 0): the group's
  /// per-work-item scratch, RegionScratch bytes per work-item of the
  /// enqueued local size, 64-byte aligned (compiler/regions/ScratchLayout.cpp
  /// has the layout).
  void *Scratch;
  /// Barrier regions: computes collective \p Op (as for Collective) over the
  /// \p N work-items' values \p Values in place; \p Args holds each
  /// work-item's index argument (the broadcast source as a linear local id
  /// for work_group_broadcast, a sub-group local id for sub_group_broadcast,
  /// the shuffle index, mask or delta). If \p States is not null (work-items
  /// stopped at different sync points), a sub-group collective is computed
  /// only for the sub-groups whose first work-item's state is \p Region.
  void (*GroupCollective)(const WorkGroupContext *Ctx, uint32_t Op,
                          uint64_t *Values, const uint64_t *Args, size_t N,
                          const uint32_t *States, uint32_t Region);
  /// Barrier regions: the end of the thread's scratch. Private variables
  /// whose address escapes live there, so generic pointers into
  /// [Scratch, ScratchEnd) are private too (to_private, get_fence).
  void *ScratchEnd;
  /// Bit i set: kernel argument i (i < 64) is a buffer of at least
  /// compiler::streamingStoreMinBytes() bytes, whose full vector stores may
  /// bypass the cache (compiler/passes/NonTemporalStores.cpp).
  uint64_t StreamArgs;
};

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
};

static_assert(sizeof(size_t) == 8, "clcpu targets 64-bit hosts");
static_assert(offsetof(WorkGroupContext, WorkDim) == 15 * sizeof(size_t));
static_assert(offsetof(WorkGroupContext, LocalMem) == 16 * sizeof(size_t));
static_assert(offsetof(WorkGroupContext, EnqueuedLocalSize) ==
              17 * sizeof(size_t));
static_assert(offsetof(WorkGroupContext, LocalId) == 20 * sizeof(size_t));
static_assert(offsetof(WorkGroupContext, Barrier) == 23 * sizeof(size_t));
static_assert(offsetof(WorkGroupContext, Collective) == 24 * sizeof(size_t));
static_assert(offsetof(WorkGroupContext, Group) == 25 * sizeof(size_t));
static_assert(offsetof(WorkGroupContext, SubGroupSize) == 26 * sizeof(size_t));
static_assert(offsetof(WorkGroupContext, SubGroupBarrier) ==
              27 * sizeof(size_t));
static_assert(offsetof(WorkGroupContext, Yield) == 28 * sizeof(size_t));
static_assert(offsetof(WorkGroupContext, LocalEnd) == 29 * sizeof(size_t));
static_assert(offsetof(WorkGroupContext, PrivateLo) == 30 * sizeof(size_t));
static_assert(offsetof(WorkGroupContext, PrivateHi) == 31 * sizeof(size_t));
static_assert(offsetof(WorkGroupContext, Scratch) == 32 * sizeof(size_t));
static_assert(offsetof(WorkGroupContext, GroupCollective) ==
              33 * sizeof(size_t));
static_assert(offsetof(WorkGroupContext, ScratchEnd) == 34 * sizeof(size_t));
static_assert(offsetof(WorkGroupContext, StreamArgs) == 35 * sizeof(size_t));

/// For kernels with barriers (KernelInfo::PerWorkItem) the same signature
/// runs one work-item: the one at Ctx->LocalId.
/// Args[i] points at the value of kernel argument i: for a buffer, at the
/// `void *` holding its address; for __local, at the `void *` holding the
/// work-group's local block; otherwise at the argument's bytes.
using WorkGroupFn = void (*)(void **Args, const WorkGroupContext *Ctx);

} // namespace clcpu

#endif

#ifndef CLCPU_SCHEDULER_COLLECTIVES_H
#define CLCPU_SCHEDULER_COLLECTIVES_H

// Work-group and sub-group collectives (OpenCL C 2.0 6.13.15,
// cl_khr_subgroups, cl_khr_subgroup_shuffle[_relative],
// cl_khr_subgroup_non_uniform_vote/_arithmetic, cl_khr_subgroup_ballot,
// cl_khr_subgroup_clustered_reduce) computed in one pass
// over the values of the work-items, in increasing linear local id: the
// fiber path runs them when the last work-item arrives, the barrier-region
// path between two regions (WorkGroupContext::GroupCollective).

#include "compiler/WorkGroupContext.h"

#include <cstddef>
#include <cstdint>

namespace clcpu {

/// Collective \p Op (CollectiveKind * 16 + CollectiveType [+ CollSubGroup])
/// over the \p N values at \p S (their bits, zero-extended to 64), in place.
/// \p A holds each work-item's index argument (shuffles); a broadcast takes
/// the value at \p BroadcastFrom. \p MaxSubGroup: get_max_sub_group_size()
/// (sub_group_rotate; 0: \p N).
void runCollective(uint64_t *S, const uint64_t *A, size_t N, uint32_t Op,
                   size_t BroadcastFrom, size_t MaxSubGroup = 0);

/// A non-uniform sub-group collective (Op with CollNonUniform) over the
/// work-items of a sub-group whose \p Active entry is true, in increasing
/// sub-group local id; the others' values at \p S are left alone. \p N
/// is the sub-group's size; \p A holds each work-item's index argument.
void runNonUniform(uint64_t *S, const uint64_t *A, size_t N,
                   const uint8_t *Active, uint32_t Op, size_t MaxSubGroup = 0);

/// WorkGroupContext::GroupCollective: \p Op over the work-group (its \p N
/// work-items) or, with CollSubGroup, over each of its sub-groups
/// (Ctx->SubGroupSize consecutive work-items); a broadcast's source is the
/// index of the sub-group's (or group's) first work-item.
void groupCollective(const WorkGroupContext *Ctx, uint32_t Op,
                     uint64_t *Values, const uint64_t *Args, size_t N,
                     const uint32_t *States, uint32_t Region);

} // namespace clcpu

#endif

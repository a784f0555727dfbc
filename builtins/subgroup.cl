//===- builtins/subgroup.cl - sub-group ballot bit operations ------------===//
//
// cl_khr_subgroup_ballot's functions of a ballot value (OpenCL C 3.0,
// 6.15.19.5): bit i of a uint4 is bit i % 32 of component i / 32, one bit
// per sub-group local id. sub_group_ballot itself and the non-uniform
// broadcasts are collectives (compiler/Barriers.cpp); these only read the
// caller's sub-group local id. The scans and counts look at the bits of the
// sub-group's work-items only (below get_max_sub_group_size()).

#include "Builtins.h"

/// Bit \p i of \p v (0 past bit 127).
static uint ballot_bit(uint4 v, uint i) {
  if (i >= 128)
    return 0;
  uint w = i < 64 ? (i < 32 ? v.x : v.y) : (i < 96 ? v.z : v.w);
  return (w >> (i % 32)) & 1;
}

/// The mask of bits [lo, hi) (both at most 128) as a uint4.
static uint4 ballot_range(uint lo, uint hi) {
  uint4 r = (uint4)(0);
  for (uint c = 0; c < 4; ++c) {
    uint b = c * 32;
    uint l = lo > b ? lo - b : 0, h = hi > b ? hi - b : 0;
    l = min(l, 32u);
    h = min(h, 32u);
    uint m = 0;
    if (h > l)
      m = (h - l == 32 ? 0xffffffffu : ((1u << (h - l)) - 1)) << l;
    if (c == 0)
      r.x = m;
    else if (c == 1)
      r.y = m;
    else if (c == 2)
      r.z = m;
    else
      r.w = m;
  }
  return r;
}

/// The bits of \p v that belong to the sub-group's work-items.
static uint4 ballot_members(uint4 v) {
  return v & ballot_range(0, min(get_max_sub_group_size(), 128u));
}

static uint ballot_popcount(uint4 v) {
  return popcount(v.x) + popcount(v.y) + popcount(v.z) + popcount(v.w);
}

OVL int sub_group_inverse_ballot(uint4 value) {
  return ballot_bit(value, get_sub_group_local_id());
}

OVL int sub_group_ballot_bit_extract(uint4 value, uint index) {
  return ballot_bit(value, index);
}

OVL uint sub_group_ballot_bit_count(uint4 value) {
  return ballot_popcount(ballot_members(value));
}

OVL uint sub_group_ballot_inclusive_scan(uint4 value) {
  return ballot_popcount(value & ballot_range(0, get_sub_group_local_id() + 1));
}

OVL uint sub_group_ballot_exclusive_scan(uint4 value) {
  return ballot_popcount(value & ballot_range(0, get_sub_group_local_id()));
}

// "If no bits ... are set, the result is undefined": the members' lowest
// and highest set bits.
OVL uint sub_group_ballot_find_lsb(uint4 value) {
  uint4 v = ballot_members(value);
  if (v.x)
    return ctz(v.x);
  if (v.y)
    return 32 + ctz(v.y);
  if (v.z)
    return 64 + ctz(v.z);
  return 96 + ctz(v.w);
}

OVL uint sub_group_ballot_find_msb(uint4 value) {
  uint4 v = ballot_members(value);
  if (v.w)
    return 127 - clz(v.w);
  if (v.z)
    return 95 - clz(v.z);
  if (v.y)
    return 63 - clz(v.y);
  return 31 - clz(v.x);
}

// The masks of the sub-group local ids equal to, at least, above, at most
// and below the caller's, among [0, get_max_sub_group_size()).
OVL uint4 get_sub_group_eq_mask(void) {
  uint id = get_sub_group_local_id();
  return ballot_range(id, id + 1);
}
OVL uint4 get_sub_group_ge_mask(void) {
  return ballot_range(get_sub_group_local_id(),
                      min(get_max_sub_group_size(), 128u));
}
OVL uint4 get_sub_group_gt_mask(void) {
  return ballot_range(get_sub_group_local_id() + 1,
                      min(get_max_sub_group_size(), 128u));
}
OVL uint4 get_sub_group_le_mask(void) {
  return ballot_range(0, get_sub_group_local_id() + 1);
}
OVL uint4 get_sub_group_lt_mask(void) {
  return ballot_range(0, get_sub_group_local_id());
}

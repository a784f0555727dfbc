//===- builtins/extended_bit_ops.cl - cl_khr_extended_bit_ops -------------===//
//
// bitfield_insert, bitfield_extract_signed / _unsigned and bit_reverse
// (OpenCL C 3.0, 6.15.4.1 "Extended Bit Operations") for every integer type
// and vector width.
//
// The field is shifted to the top of a 32-bit (64-bit for long) word and
// back, so char and short take the same variable shifts as int: AVX2 and
// AVX-512 have them for 32- and 64-bit lanes only, and the work-item loop
// widens these scalar bodies across work-items. A count of 0 is a select,
// not a branch, for the same reason: "If count equals 0, the return value
// will be equal to base" (insert) and "the result is 0" (extract), where a
// shift by the word's width would wrap (OpenCL C takes shift counts modulo
// the width). Counts and offsets beyond the type's bits are undefined by
// the spec; the modulo shifts give some value and nothing traps.

#include "Builtins.h"

// M(T, ST, UT, W, SW, WBITS): the type, its signed and unsigned types, the
// word the field moves in and its signed type and width.
#define FOR_BIT_OPS_TYPES(M)                                                   \
  M(char, char, uchar, uint, int, 32)                                          \
  M(uchar, char, uchar, uint, int, 32)                                         \
  M(short, short, ushort, uint, int, 32)                                       \
  M(ushort, short, ushort, uint, int, 32)                                      \
  M(int, int, uint, uint, int, 32)                                             \
  M(uint, int, uint, uint, int, 32)                                            \
  M(long, long, ulong, ulong, long, 64)                                        \
  M(ulong, long, ulong, ulong, long, 64)

#define BIT_OPS(T, ST, UT, W, SW, WBITS)                                       \
  CONST T bitfield_insert(T base, T insert, uint offset, uint count) {         \
    W mask = count ? ((W)~(W)0 >> (WBITS - count)) << offset : (W)0;           \
    return (T)(((W)(UT)base & ~mask) | (((W)(UT)insert << offset) & mask));    \
  }                                                                            \
  CONST UT bitfield_extract_unsigned(T base, uint offset, uint count) {        \
    W top = (W)(UT)base << (WBITS - offset - count);                           \
    return count ? (UT)(top >> (WBITS - count)) : (UT)0;                       \
  }                                                                            \
  CONST ST bitfield_extract_signed(T base, uint offset, uint count) {          \
    W top = (W)(UT)base << (WBITS - offset - count);                           \
    return count ? (ST)((SW)top >> (WBITS - count)) : (ST)0;                   \
  }                                                                            \
  VEC_33UU(T, bitfield_insert, T)                                              \
  VEC_3UU(UT, bitfield_extract_unsigned, T)                                    \
  VEC_3UU(ST, bitfield_extract_signed, T)
FOR_BIT_OPS_TYPES(BIT_OPS)

// llvm.bitreverse, which the vectorizer widens (a nibble table lookup with
// pshufb, or one GFNI affine step where the CPU has it).
#define BIT_REVERSE(T, UT, BITS)                                               \
  CONST T bit_reverse(T x) { return (T)__builtin_bitreverse##BITS((UT)x); }    \
  VEC_1(T, bit_reverse, T)
BIT_REVERSE(char, uchar, 8)
BIT_REVERSE(uchar, uchar, 8)
BIT_REVERSE(short, ushort, 16)
BIT_REVERSE(ushort, ushort, 16)
BIT_REVERSE(int, uint, 32)
BIT_REVERSE(uint, uint, 32)
BIT_REVERSE(long, ulong, 64)
BIT_REVERSE(ulong, ulong, 64)

//===- builtins/integer_dot_product.cl - cl_khr_integer_dot_product -------===//
//
// dot and dot_acc_sat of uchar4 / char4 and their 4x8-bit packed forms
// (cl_khr_integer_dot_product 2.0.0: "The components of a and b are sign-
// or zero-extended to the width of the destination type and the vectors
// with extended components are multiplied component-wise. All the
// components of the resulting vectors are added together"; dot_acc_sat is
// add_sat(dot(a, b), acc)).
//
// Every form is one body on two packed 32-bit words, scalar code the
// work-item loop widens across work-items: each byte is shifted out of the
// word and zero- or sign-extended to 32 bits, the four products (each at
// most 2^16 in magnitude, so the sum is exact in 32 bits) are added, and
// the accumulation is Clang's saturating add (llvm.sadd.sat / uadd.sat).
// The vectorized shape of an unsigned-by-signed product sum is what
// compiler/passes/VnniDotProduct.cpp turns into vpdpbusd / vpdpbusds where
// the CPU has AVX-512 VNNI or AVX-VNNI; the other combinations stay the
// widened multiply-adds (vpmaddwd) the code generator makes of them.
// uchar4 and char4 arguments are reinterpreted as their packed word, so a
// char4 loaded from memory is one 32-bit load per work-item.

#include "Builtins.h"

// Byte K of the packed word W, zero- (U) or sign-extended (S) to 32 bits.
#define BYTE_U(W, K) ((int)(((W) >> (8 * (K))) & 0xffu))
#define BYTE_S(W, K) ((int)(char)((W) >> (8 * (K))))

#define PACKED_DOT(XA, XB, a, b)                                               \
  (BYTE_##XA(a, 0) * BYTE_##XB(b, 0) + BYTE_##XA(a, 1) * BYTE_##XB(b, 1) +     \
   BYTE_##XA(a, 2) * BYTE_##XB(b, 2) + BYTE_##XA(a, 3) * BYTE_##XB(b, 3))

CONST uint dot_4x8packed_uu_uint(uint a, uint b) {
  return (uint)PACKED_DOT(U, U, a, b);
}
CONST int dot_4x8packed_ss_int(uint a, uint b) {
  return PACKED_DOT(S, S, a, b);
}
CONST int dot_4x8packed_us_int(uint a, uint b) {
  return PACKED_DOT(U, S, a, b);
}
CONST int dot_4x8packed_su_int(uint a, uint b) {
  return PACKED_DOT(S, U, a, b);
}

CONST uint dot_acc_sat_4x8packed_uu_uint(uint a, uint b, uint acc) {
  return __builtin_elementwise_add_sat(dot_4x8packed_uu_uint(a, b), acc);
}
CONST int dot_acc_sat_4x8packed_ss_int(uint a, uint b, int acc) {
  return __builtin_elementwise_add_sat(dot_4x8packed_ss_int(a, b), acc);
}
CONST int dot_acc_sat_4x8packed_us_int(uint a, uint b, int acc) {
  return __builtin_elementwise_add_sat(dot_4x8packed_us_int(a, b), acc);
}
CONST int dot_acc_sat_4x8packed_su_int(uint a, uint b, int acc) {
  return __builtin_elementwise_add_sat(dot_4x8packed_su_int(a, b), acc);
}

CONST uint dot(uchar4 a, uchar4 b) {
  return dot_4x8packed_uu_uint(as_uint(a), as_uint(b));
}
CONST int dot(char4 a, char4 b) {
  return dot_4x8packed_ss_int(as_uint(a), as_uint(b));
}
CONST int dot(uchar4 a, char4 b) {
  return dot_4x8packed_us_int(as_uint(a), as_uint(b));
}
CONST int dot(char4 a, uchar4 b) {
  return dot_4x8packed_su_int(as_uint(a), as_uint(b));
}

CONST uint dot_acc_sat(uchar4 a, uchar4 b, uint acc) {
  return dot_acc_sat_4x8packed_uu_uint(as_uint(a), as_uint(b), acc);
}
CONST int dot_acc_sat(char4 a, char4 b, int acc) {
  return dot_acc_sat_4x8packed_ss_int(as_uint(a), as_uint(b), acc);
}
CONST int dot_acc_sat(uchar4 a, char4 b, int acc) {
  return dot_acc_sat_4x8packed_us_int(as_uint(a), as_uint(b), acc);
}
CONST int dot_acc_sat(char4 a, uchar4 b, int acc) {
  return dot_acc_sat_4x8packed_su_int(as_uint(a), as_uint(b), acc);
}

//===- builtins/vload.cl - OpenCL C 3.0 6.15.9/6.15.10, shuffle -----------===//

#include "Builtins.h"

// vloadn / vstoren: element-wise, so only the element alignment is needed.
#define VLOAD_N(AS, T, n)                                                      \
  OVL T##n vload##n(size_t offset, const AS T *p) {                            \
    T##n r;                                                                    \
    for (int i = 0; i < n; ++i)                                                \
      r[i] = p[offset * n + i];                                                \
    return r;                                                                  \
  }
#define VSTORE_N(AS, T, n)                                                     \
  OVL void vstore##n(T##n data, size_t offset, AS T *p) {                      \
    for (int i = 0; i < n; ++i)                                                \
      p[offset * n + i] = data[i];                                             \
  }
#define VLOAD_AS(AS, T) FOR_N(VLOAD_N, AS, T)
#define VSTORE_AS(AS, T) FOR_N(VSTORE_N, AS, T)
#define VLOADSTORE(T)                                                          \
  FOR_AS(VLOAD_AS, T)                                                          \
  VLOAD_AS(__constant, T)                                                      \
  FOR_AS(VSTORE_AS, T)
VLOADSTORE(char)
VLOADSTORE(uchar)
VLOADSTORE(short)
VLOADSTORE(ushort)
VLOADSTORE(int)
VLOADSTORE(uint)
VLOADSTORE(long)
VLOADSTORE(ulong)
VLOADSTORE(float)
VLOADSTORE(double)
VLOADSTORE(half)

// half <-> float without cl_khr_fp16: halfs are read and written as bits.
static float half_to_float(ushort h) {
  uint sign = (uint)(h & 0x8000) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e == 0) {
    float f = (float)m * 0x1p-24f; // exact
    return as_float(as_uint(f) | sign);
  }
  if (e == 31)
    return as_float(sign | 0x7f800000u | (m << 13));
  return as_float(sign | ((e + 112) << 23) | (m << 13));
}

// Rounding modes of vstore_half*: 0 rte, 1 rtz, 2 rtp, 3 rtn.
// |x| = M * 2^E exactly (M < 2^53); the result is Q half-ulps of size
// 2^(max(floor(log2|x|), -14) - 10), rounded by the remainder.
static ushort to_half_bits(ulong M, int E, int L, uint sign, int mode) {
  // L = floor(log2|x|) (only meaningful if M != 0).
  if (M == 0)
    return (ushort)sign;
  int UlpE = (L < -14 ? -14 : L) - 10;
  ulong Q, Rem, Half;
  int Shift = UlpE - E;
  int Inexact;
  if (L > 15) {
    Q = 0x800; // overflow
    Inexact = 1;
    Rem = 1;
    Half = 2;
  } else if (Shift <= 0) {
    Q = M << -Shift; // cannot happen for float/double inputs with L <= 15
    Rem = 0;
    Half = 1;
  } else if (Shift > 60) {
    Q = 0;
    Rem = 1;      // non-zero, far below half an ulp
    Half = 1UL << 62;
  } else {
    Q = M >> Shift;
    Rem = M & ((1UL << Shift) - 1);
    Half = 1UL << (Shift - 1);
  }
  Inexact = Rem != 0;
  int Up;
  switch (mode) {
  case 0:
    Up = Rem > Half || (Rem == Half && (Q & 1));
    break;
  case 1:
    Up = 0;
    break;
  case 2:
    Up = Inexact && !sign;
    break;
  default:
    Up = Inexact && sign;
    break;
  }
  Q += Up;
  uint Bits;
  if (L > 15)
    Bits = 0x7c00;
  else if (L < -14)
    Bits = (uint)Q; // subnormal (0x400 is the smallest normal)
  else
    Bits = ((uint)(L + 15) << 10) + (uint)Q - 0x400;
  if (Bits >= 0x7c00) {
    // Overflow: infinity unless the mode rounds toward zero here.
    if (mode == 1 || (mode == 2 && sign) || (mode == 3 && !sign))
      Bits = 0x7bff;
    else
      Bits = 0x7c00;
  }
  return (ushort)(sign | Bits);
}

static ushort float_to_half(float f, int mode) {
  uint u = as_uint(f), sign = (u >> 16) & 0x8000, a = u & 0x7fffffff;
  if (a >= 0x7f800000)
    return (ushort)(sign | 0x7c00 | (a > 0x7f800000 ? 0x200 | ((a >> 13) & 0x3ff) : 0));
  int e = a >> 23;
  if (e == 0) // float subnormal: far below the smallest half subnormal
    return to_half_bits(a, -149, -127, sign, mode);
  return to_half_bits((a & 0x7fffff) | 0x800000, e - 150, e - 127, sign, mode);
}

static ushort double_to_half(double d, int mode) {
  ulong u = as_ulong(d), a = u & 0x7fffffffffffffffUL;
  uint sign = (uint)(u >> 48) & 0x8000;
  if (a >= 0x7ff0000000000000UL)
    return (ushort)(sign | 0x7c00 | (a > 0x7ff0000000000000UL ? 0x200 | (uint)((a >> 42) & 0x3ff) : 0));
  int e = (int)(a >> 52);
  if (e == 0)
    return to_half_bits(a, -1074, -1023, sign, mode);
  return to_half_bits((a & 0xfffffffffffffUL) | 0x10000000000000UL, e - 1075,
                      e - 1023, sign, mode);
}

#define VLOAD_HALF_N(AS, n)                                                    \
  OVL float##n vload_half##n(size_t offset, const AS half *p) {               \
    const AS ushort *q = (const AS ushort *)p;                                 \
    float##n r;                                                                \
    for (int i = 0; i < n; ++i)                                                \
      r[i] = half_to_float(q[offset * n + i]);                                 \
    return r;                                                                  \
  }                                                                            \
  OVL float##n vloada_half##n(size_t offset, const AS half *p) {              \
    const AS ushort *q = (const AS ushort *)p;                                 \
    float##n r;                                                                \
    for (int i = 0; i < n; ++i)                                                \
      r[i] = half_to_float(q[offset * (n == 3 ? 4 : n) + i]);                  \
    return r;                                                                  \
  }
#define VLOAD_HALF(AS, _)                                                      \
  OVL float vload_half(size_t offset, const AS half *p) {                      \
    return half_to_float(((const AS ushort *)p)[offset]);                      \
  }                                                                            \
  OVL float vloada_half(size_t offset, const AS half *p) {                     \
    return half_to_float(((const AS ushort *)p)[offset]);                      \
  }                                                                            \
  FOR_N(VLOAD_HALF_N, AS)
FOR_AS(VLOAD_HALF, _)
VLOAD_HALF(__constant, _)

#define VSTORE_HALF_N(AS, T, SUF, MODE, n)                                     \
  OVL void vstore_half##n##SUF(T##n data, size_t offset, AS half *p) {         \
    AS ushort *q = (AS ushort *)p;                                             \
    for (int i = 0; i < n; ++i)                                                \
      q[offset * n + i] = T##_to_half(data[i], MODE);                          \
  }                                                                            \
  OVL void vstorea_half##n##SUF(T##n data, size_t offset, AS half *p) {        \
    AS ushort *q = (AS ushort *)p;                                             \
    for (int i = 0; i < n; ++i)                                                \
      q[offset * (n == 3 ? 4 : n) + i] = T##_to_half(data[i], MODE);           \
  }
#define VSTORE_HALF_MODE(AS, T, SUF, MODE)                                     \
  OVL void vstore_half##SUF(T data, size_t offset, AS half *p) {               \
    ((AS ushort *)p)[offset] = T##_to_half(data, MODE);                        \
  }                                                                            \
  OVL void vstorea_half##SUF(T data, size_t offset, AS half *p) {              \
    ((AS ushort *)p)[offset] = T##_to_half(data, MODE);                        \
  }                                                                            \
  FOR_N(VSTORE_HALF_N, AS, T, SUF, MODE)
#define VSTORE_HALF(AS, T)                                                     \
  VSTORE_HALF_MODE(AS, T, , 0)                                                 \
  VSTORE_HALF_MODE(AS, T, _rte, 0)                                             \
  VSTORE_HALF_MODE(AS, T, _rtz, 1)                                             \
  VSTORE_HALF_MODE(AS, T, _rtp, 2)                                             \
  VSTORE_HALF_MODE(AS, T, _rtn, 3)
FOR_AS(VSTORE_HALF, float)
FOR_AS(VSTORE_HALF, double)

// shuffle(x, mask) / shuffle2(x, y, mask): only the low bits of each mask
// element that can index the input are used.
#define SHUFFLE_NM(T, U, n, m)                                                 \
  CONST T##n shuffle(T##m x, U##n mask) {                                      \
    T##n r;                                                                    \
    for (int i = 0; i < n; ++i)                                                \
      r[i] = x[mask[i] & (m - 1)];                                             \
    return r;                                                                  \
  }                                                                            \
  CONST T##n shuffle2(T##m x, T##m y, U##n mask) {                             \
    T##n r;                                                                    \
    for (int i = 0; i < n; ++i) {                                              \
      uint k = mask[i] & (2 * m - 1);                                          \
      r[i] = k < m ? x[k] : y[k - m];                                          \
    }                                                                          \
    return r;                                                                  \
  }
#define SHUFFLE_N(T, U, n)                                                     \
  SHUFFLE_NM(T, U, n, 2)                                                       \
  SHUFFLE_NM(T, U, n, 4) SHUFFLE_NM(T, U, n, 8) SHUFFLE_NM(T, U, n, 16)
#define SHUFFLE(T, U)                                                          \
  SHUFFLE_N(T, U, 2)                                                           \
  SHUFFLE_N(T, U, 4) SHUFFLE_N(T, U, 8) SHUFFLE_N(T, U, 16)
SHUFFLE(char, uchar)
SHUFFLE(uchar, uchar)
SHUFFLE(short, ushort)
SHUFFLE(ushort, ushort)
SHUFFLE(int, uint)
SHUFFLE(uint, uint)
SHUFFLE(long, ulong)
SHUFFLE(ulong, ulong)
SHUFFLE(float, uint)
SHUFFLE(double, ulong)
SHUFFLE(half, ushort)

//===- builtins/relational.cl - OpenCL C 3.0 6.15.6 relational functions --===//
//
// Scalar forms return 0 or 1; vector forms return 0 or -1 (all bits set) in
// an integer vector with the argument's element size.

#include "Builtins.h"

#define REL_VEC_N(F, T, R, n)                                                  \
  CONST R##n F(T##n a) {                                                       \
    R##n r;                                                                    \
    for (int i = 0; i < n; ++i)                                                \
      r[i] = F(a[i]) ? -1 : 0;                                                 \
    return r;                                                                  \
  }
#define REL2_VEC_N(F, T, R, n)                                                 \
  CONST R##n F(T##n a, T##n b) {                                               \
    R##n r;                                                                    \
    for (int i = 0; i < n; ++i)                                                \
      r[i] = F(a[i], b[i]) ? -1 : 0;                                           \
    return r;                                                                  \
  }
#define REL1(F, T, R, EXPR)                                                    \
  CONST int F(T x) { return (EXPR) ? 1 : 0; }                                  \
  FOR_N(REL_VEC_N, F, T, R)
#define REL2(F, T, R, EXPR)                                                    \
  CONST int F(T x, T y) { return (EXPR) ? 1 : 0; }                             \
  FOR_N(REL2_VEC_N, F, T, R)

#define RELATIONAL(T, R, UR, MINNORM, SHIFT)                                   \
  REL2(isequal, T, R, x == y)                                                  \
  REL2(isnotequal, T, R, x != y)                                               \
  REL2(isgreater, T, R, x > y)                                                 \
  REL2(isgreaterequal, T, R, x >= y)                                           \
  REL2(isless, T, R, x < y)                                                    \
  REL2(islessequal, T, R, x <= y)                                              \
  REL2(islessgreater, T, R, x < y || x > y)                                    \
  REL2(isordered, T, R, x == x && y == y)                                      \
  REL2(isunordered, T, R, x != x || y != y)                                    \
  REL1(isnan, T, R, x != x)                                                    \
  REL1(isinf, T, R, __builtin_fabs(x) == (T)INFINITY)                          \
  REL1(isfinite, T, R, __builtin_fabs(x) < (T)INFINITY)                        \
  REL1(isnormal, T, R,                                                         \
       __builtin_fabs(x) >= MINNORM && __builtin_fabs(x) < (T)INFINITY)        \
  REL1(signbit, T, R, (as_##UR(x) >> SHIFT) != 0)
RELATIONAL(float, int, uint, FLT_MIN, 31)
RELATIONAL(double, long, ulong, DBL_MIN, 63)
RELATIONAL(half, short, ushort, HALF_MIN, 15)

// any/all: the most significant bit of (every) element.
#define ANY_ALL_N(T, n)                                                        \
  CONST int any(T##n x) {                                                      \
    for (int i = 0; i < n; ++i)                                                \
      if (x[i] < 0)                                                            \
        return 1;                                                              \
    return 0;                                                                  \
  }                                                                            \
  CONST int all(T##n x) {                                                      \
    for (int i = 0; i < n; ++i)                                                \
      if (x[i] >= 0)                                                           \
        return 0;                                                              \
    return 1;                                                                  \
  }
#define ANY_ALL(T)                                                             \
  CONST int any(T x) { return x < 0; }                                         \
  CONST int all(T x) { return x < 0; }                                         \
  FOR_N(ANY_ALL_N, T)
ANY_ALL(char)
ANY_ALL(short)
ANY_ALL(int)
ANY_ALL(long)

// bitselect and select for every scalar type T with integer twins S, U.
#define SELECT_N(T, S, U, n)                                                   \
  CONST T##n bitselect(T##n a, T##n b, T##n c) {                               \
    T##n r;                                                                    \
    for (int i = 0; i < n; ++i)                                                \
      r[i] = bitselect(a[i], b[i], c[i]);                                      \
    return r;                                                                  \
  }                                                                            \
  CONST T##n select(T##n a, T##n b, S##n c) {                                  \
    T##n r;                                                                    \
    for (int i = 0; i < n; ++i)                                                \
      r[i] = c[i] < 0 ? b[i] : a[i];                                           \
    return r;                                                                  \
  }                                                                            \
  CONST T##n select(T##n a, T##n b, U##n c) {                                  \
    return select(a, b, as_##S##n(c));                                        \
  }
#define SELECT(T, S, U)                                                        \
  CONST T bitselect(T a, T b, T c) {                                           \
    U ua = as_##U(a), ub = as_##U(b), uc = as_##U(c);                          \
    return as_##T((U)((ua & ~uc) | (ub & uc)));                                \
  }                                                                            \
  CONST T select(T a, T b, S c) { return c ? b : a; }                          \
  CONST T select(T a, T b, U c) { return c ? b : a; }                          \
  FOR_N(SELECT_N, T, S, U)
SELECT(char, char, uchar)
SELECT(uchar, char, uchar)
SELECT(short, short, ushort)
SELECT(ushort, short, ushort)
SELECT(int, int, uint)
SELECT(uint, int, uint)
SELECT(long, long, ulong)
SELECT(ulong, long, ulong)
SELECT(float, int, uint)
SELECT(double, long, ulong)
SELECT(half, short, ushort)

//===- builtins/geometric.cl - OpenCL C 3.0 6.15.7 geometric functions ----===//

#include "Builtins.h"

// Scalars count as one-element vectors; E(x, i) reads element i.
#define ELEM1(x, i) (x)
#define ELEMN(x, i) (x)[i]

#define GEOM(T, VT, n, ELEM, BIG, SMALL)                                       \
  CONST T dot(VT a, VT b) {                                                    \
    T s = 0;                                                                   \
    for (int i = 0; i < n; ++i)                                                \
      s = __builtin_fma(ELEM(a, i), ELEM(b, i), s);                            \
    return s;                                                                  \
  }                                                                            \
  CONST T length(VT x) {                                                       \
    T s = dot(x, x);                                                           \
    /* Rescale by a power of two when the squares overflow or underflow. */   \
    if (s == (T)INFINITY) {                                                    \
      VT y = x * (T)SMALL;                                                     \
      return __builtin_sqrt(dot(y, y)) * (T)BIG;                               \
    }                                                                          \
    if (s < (T)SMALL) {                                                        \
      VT y = x * (T)BIG;                                                       \
      return __builtin_sqrt(dot(y, y)) * (T)SMALL;                             \
    }                                                                          \
    return __builtin_sqrt(s);                                                  \
  }                                                                            \
  CONST T distance(VT a, VT b) { return length(a - b); }                       \
  CONST VT normalize(VT x) {                                                   \
    int inf = 0;                                                               \
    for (int i = 0; i < n; ++i)                                                \
      inf |= __builtin_fabs(ELEM(x, i)) == (T)INFINITY;                        \
    if (inf) {                                                                 \
      VT r;                                                                    \
      for (int i = 0; i < n; ++i)                                              \
        ELEM(r, i) = __builtin_fabs(ELEM(x, i)) == (T)INFINITY                 \
                         ? __builtin_copysign((T)1, ELEM(x, i))                \
                         : __builtin_copysign((T)0, ELEM(x, i));               \
      return normalize(r);                                                     \
    }                                                                          \
    /* Scale by a power of two (exact) so that the largest element is in   \
       [1, 2): the length of x itself may overflow (x near FLT_MAX) or the  \
       squares underflow.                                                   \
     */                                                                     \
    T m = 0;                                                                   \
    for (int i = 0; i < n; ++i)                                                \
      m = __builtin_fmax(m, __builtin_fabs(ELEM(x, i)));                       \
    if (m == (T)0)                                                             \
      return x;                                                                \
    int e = __builtin_ilogb(m);                                                \
    VT y;                                                                      \
    for (int i = 0; i < n; ++i)                                                \
      ELEM(y, i) = __builtin_ldexp(ELEM(x, i), -e);                            \
    return y / (T)__builtin_sqrt(dot(y, y));                                   \
  }
#define GEOM_F(VT)                                                             \
  CONST float fast_length(VT x) { return length(x); }                          \
  CONST float fast_distance(VT a, VT b) { return distance(a, b); }             \
  CONST VT fast_normalize(VT x) { return normalize(x); }

GEOM(float, float, 1, ELEM1, 0x1p70f, 0x1p-70f)
GEOM(float, float2, 2, ELEMN, 0x1p70f, 0x1p-70f)
GEOM(float, float3, 3, ELEMN, 0x1p70f, 0x1p-70f)
GEOM(float, float4, 4, ELEMN, 0x1p70f, 0x1p-70f)
GEOM(double, double, 1, ELEM1, 0x1p600, 0x1p-600)
GEOM(double, double2, 2, ELEMN, 0x1p600, 0x1p-600)
GEOM(double, double3, 3, ELEMN, 0x1p600, 0x1p-600)
GEOM(double, double4, 4, ELEMN, 0x1p600, 0x1p-600)
GEOM_F(float)
GEOM_F(float2)
GEOM_F(float3)
GEOM_F(float4)

#define CROSS(T)                                                               \
  CONST T##3 cross(T##3 a, T##3 b) {                                           \
    return (T##3)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z,                \
                  a.x * b.y - a.y * b.x);                                      \
  }                                                                            \
  CONST T##4 cross(T##4 a, T##4 b) {                                           \
    return (T##4)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z,                \
                  a.x * b.y - a.y * b.x, (T)0);                                \
  }
CROSS(float)
CROSS(double)

#ifndef CLCPU_TESTS_E2E_SAMPLERREFERENCE_H
#define CLCPU_TESTS_E2E_SAMPLERREFERENCE_H

// The host reference sampler's coordinate rules, written from OpenCL C 3.0
// 8.2 "Addressing and Filter Modes", for the image tests (ImageTests.cpp,
// ImageKernelTests.cpp): which element(s) a coordinate selects in one
// dimension of \p Size elements, with normalized (\p Norm) or unnormalized
// coordinates and addressing mode \p Mode.

#include <CL/cl.h>

#include <algorithm>
#include <cmath>

namespace sampler_ref {

/// Nearest filtering: the element index of coordinate \p S; -1 for the
/// border color.
inline int nearest(float S, int Size, bool Norm, cl_addressing_mode Mode) {
  if (Mode == CL_ADDRESS_REPEAT) {
    float U = (S - std::floor(S)) * Size;
    int I = static_cast<int>(std::floor(U));
    return I > Size - 1 ? I - Size : I;
  }
  if (Mode == CL_ADDRESS_MIRRORED_REPEAT) {
    float M = std::fabs(S - 2.0f * std::rint(0.5f * S));
    return std::min(static_cast<int>(std::floor(M * Size)), Size - 1);
  }
  float U = Norm ? S * Size : S;
  int I = static_cast<int>(std::floor(U));
  if (Mode == CL_ADDRESS_CLAMP)
    return I < 0 || I >= Size ? -1 : I;
  return std::clamp(I, 0, Size - 1); // CLAMP_TO_EDGE (NONE: kept inside)
}

/// Linear filtering: indices \p I0 and \p I1 (-1: border) and the weight
/// of \p I1.
inline float linear(float S, int Size, bool Norm, cl_addressing_mode Mode,
                    int &I0, int &I1) {
  float U;
  if (Mode == CL_ADDRESS_REPEAT) {
    U = (S - std::floor(S)) * Size;
    I0 = static_cast<int>(std::floor(U - 0.5f));
    I1 = I0 + 1;
    if (I0 < 0)
      I0 += Size;
    if (I1 > Size - 1)
      I1 -= Size;
  } else if (Mode == CL_ADDRESS_MIRRORED_REPEAT) {
    U = std::fabs(S - 2.0f * std::rint(0.5f * S)) * Size;
    I0 = std::max(static_cast<int>(std::floor(U - 0.5f)), 0);
    I1 = std::min(static_cast<int>(std::floor(U - 0.5f)) + 1, Size - 1);
  } else {
    U = Norm ? S * Size : S;
    I0 = static_cast<int>(std::floor(U - 0.5f));
    I1 = I0 + 1;
    if (Mode == CL_ADDRESS_CLAMP) {
      I0 = I0 < 0 || I0 >= Size ? -1 : I0;
      I1 = I1 < 0 || I1 >= Size ? -1 : I1;
    } else {
      I0 = std::clamp(I0, 0, Size - 1);
      I1 = std::clamp(I1, 0, Size - 1);
    }
  }
  float F = U - 0.5f;
  return F - std::floor(F);
}

} // namespace sampler_ref

#endif

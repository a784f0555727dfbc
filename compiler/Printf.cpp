//===- Printf.cpp - The OpenCL C printf of JIT-compiled kernels -----------===//
//
// Kernels call `printf` as a host variadic function (the kernel is compiled
// for the host triple). The JIT resolves it here rather than to the C
// library's printf, because OpenCL C's printf (6.15.14) differs from C's:
//  - the vector specifier `%vNlm` prints N elements separated by commas,
//    with a length modifier hh/h/hl/l giving the element size;
//  - it returns 0 on success and -1 on failure, not a character count.
// Scalar conversions are formatted by the C library, one at a time.
//
//===----------------------------------------------------------------------===//

#include "compiler/Printf.h"

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

namespace clcpu::compiler {
namespace {

// Vector arguments of a variadic call are passed by the host ABI like GCC
// vector types of the same size: up to 16 bytes in registers, larger ones in
// memory (AMD64 ABI 3.5.7: only named arguments use YMM/ZMM registers).
typedef uint8_t V2 __attribute__((vector_size(2)));
typedef uint8_t V4 __attribute__((vector_size(4)));
typedef uint8_t V8 __attribute__((vector_size(8)));
typedef uint8_t V16 __attribute__((vector_size(16)));
typedef uint8_t V32 __attribute__((vector_size(32)));
typedef uint8_t V64 __attribute__((vector_size(64)));
typedef uint8_t V128 __attribute__((vector_size(128)));
// An 8-byte half vector (half4, half3) is floating point to the ABI (SSE
// class) as Clang passes it; 4-byte vectors (half2 too) are integers to both
// compilers, so a byte vector reads them.
typedef _Float16 H8 __attribute__((vector_size(8)));

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
/// Reads one vector argument of \p Bytes bytes into \p Out; \p Half: of
/// half elements.
bool readVector(va_list &Ap, unsigned Bytes, uint8_t *Out, bool Half) {
  if (Half && Bytes == 8) {
    H8 V = va_arg(Ap, H8);
    std::memcpy(Out, &V, 8);
    return true;
  }
  switch (Bytes) {
#define CLCPU_VEC(N)                                                           \
  case N: {                                                                    \
    V##N V = va_arg(Ap, V##N);                                                 \
    std::memcpy(Out, &V, N);                                                   \
    return true;                                                               \
  }
    CLCPU_VEC(2)
    CLCPU_VEC(4)
    CLCPU_VEC(8)
    CLCPU_VEC(16)
    CLCPU_VEC(32)
    CLCPU_VEC(64)
    CLCPU_VEC(128)
#undef CLCPU_VEC
  default:
    return false;
  }
}
#pragma GCC diagnostic pop

void appendf(std::string &Out, const char *Spec, ...) {
  char Buf[512];
  va_list Ap;
  va_start(Ap, Spec);
  int N = std::vsnprintf(Buf, sizeof Buf, Spec, Ap);
  va_end(Ap);
  if (N < 0)
    return;
  if (static_cast<size_t>(N) < sizeof Buf) {
    Out.append(Buf, N);
    return;
  }
  std::string Big(static_cast<size_t>(N) + 1, '\0');
  va_start(Ap, Spec);
  std::vsnprintf(Big.data(), Big.size(), Spec, Ap);
  va_end(Ap);
  Out.append(Big.data(), N);
}

bool isFloatConv(char C) { return std::strchr("fFeEgGaA", C) != nullptr; }

/// Formats one element of a vector, \p Elem of \p Size bytes.
void appendElement(std::string &Out, const std::string &Spec, char Conv,
                   unsigned Size, const uint8_t *Elem) {
  if (isFloatConv(Conv)) {
    double D;
    if (Size == 2) { // half (cl_khr_fp16: "%v4hf")
      _Float16 H;
      std::memcpy(&H, Elem, 2);
      D = H;
    } else if (Size == 4) {
      float F;
      std::memcpy(&F, Elem, 4);
      D = F;
    } else {
      std::memcpy(&D, Elem, 8);
    }
    appendf(Out, Spec.c_str(), D);
    return;
  }
  bool Signed = Conv == 'd' || Conv == 'i';
  int64_t S = 0;
  uint64_t U = 0;
  switch (Size) {
  case 1:
    S = static_cast<int8_t>(Elem[0]);
    U = Elem[0];
    break;
  case 2: {
    uint16_t V;
    std::memcpy(&V, Elem, 2);
    S = static_cast<int16_t>(V);
    U = V;
    break;
  }
  case 4: {
    uint32_t V;
    std::memcpy(&V, Elem, 4);
    S = static_cast<int32_t>(V);
    U = V;
    break;
  }
  default:
    std::memcpy(&U, Elem, 8);
    S = static_cast<int64_t>(U);
    break;
  }
  // Spec ends in "ll<conv>": print the element at its own width.
  if (Signed)
    appendf(Out, Spec.c_str(), static_cast<long long>(S));
  else
    appendf(Out, Spec.c_str(), static_cast<unsigned long long>(U));
}

} // namespace

int printfImpl(const char *Fmt, va_list ApIn) {
  if (!Fmt)
    return -1;
  va_list Ap;
  va_copy(Ap, ApIn);
  std::string Out;
  bool Ok = true;
  for (const char *P = Fmt; *P && Ok;) {
    if (*P != '%') {
      Out.push_back(*P++);
      continue;
    }
    if (P[1] == '%') {
      Out.push_back('%');
      P += 2;
      continue;
    }
    // %[flags][width][.precision][vN][length]conversion
    const char *Start = P++;
    std::string Flags, Width, Prec;
    while (*P && std::strchr("-+ #0", *P))
      Flags.push_back(*P++);
    if (*P == '*') {
      Width = std::to_string(va_arg(Ap, int));
      ++P;
    } else {
      while (*P >= '0' && *P <= '9')
        Width.push_back(*P++);
    }
    bool HasPrec = false;
    if (*P == '.') {
      HasPrec = true;
      ++P;
      if (*P == '*') {
        Prec = std::to_string(va_arg(Ap, int));
        ++P;
      } else {
        while (*P >= '0' && *P <= '9')
          Prec.push_back(*P++);
      }
    }
    unsigned VecN = 0;
    if (*P == 'v') {
      ++P;
      while (*P >= '0' && *P <= '9')
        VecN = VecN * 10 + static_cast<unsigned>(*P++ - '0');
      if (VecN != 2 && VecN != 3 && VecN != 4 && VecN != 8 && VecN != 16) {
        Ok = false;
        break;
      }
    }
    std::string Len;
    while (*P && std::strchr("hlzjtL", *P))
      Len.push_back(*P++);
    char Conv = *P;
    if (!Conv) {
      Ok = false;
      break;
    }
    ++P;
    std::string Base = "%" + Flags + Width + (HasPrec ? "." + Prec : "");
    if (VecN) {
      // The length modifier is mandatory and gives the element size.
      unsigned Size = Len == "hh"   ? 1
                      : Len == "h"  ? 2
                      : Len == "hl" ? 4
                      : Len == "l"  ? 8
                                    : 0;
      bool Float = isFloatConv(Conv);
      // h with a floating conversion is half (cl_khr_fp16), hl float.
      if (!Size || (Float && Size < 2) ||
          (!Float && !std::strchr("diouxXc", Conv))) {
        Ok = false;
        break;
      }
      unsigned Stored = VecN == 3 ? 4 : VecN;
      uint8_t Buf[128];
      if (!readVector(Ap, Size * Stored, Buf, Float && Size == 2)) {
        Ok = false;
        break;
      }
      std::string Spec = Base + (Float ? "" : "ll") + Conv;
      for (unsigned I = 0; I < VecN; ++I) {
        if (I)
          Out.push_back(',');
        appendElement(Out, Spec, Conv, Size, Buf + I * Size);
      }
      continue;
    }
    std::string Spec(Start, P);
    switch (Conv) {
    case 'd':
    case 'i':
      if (Len == "l" || Len == "ll")
        appendf(Out, Spec.c_str(), va_arg(Ap, long));
      else if (Len == "z" || Len == "t" || Len == "j")
        appendf(Out, Spec.c_str(), va_arg(Ap, long));
      else
        appendf(Out, Spec.c_str(), va_arg(Ap, int));
      break;
    case 'o':
    case 'u':
    case 'x':
    case 'X':
      if (Len == "l" || Len == "ll" || Len == "z" || Len == "t" || Len == "j")
        appendf(Out, Spec.c_str(), va_arg(Ap, unsigned long));
      else
        appendf(Out, Spec.c_str(), va_arg(Ap, unsigned));
      break;
    case 'c':
      appendf(Out, Spec.c_str(), va_arg(Ap, int));
      break;
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
    case 'a':
    case 'A':
      appendf(Out, (Base + Conv).c_str(), va_arg(Ap, double));
      break;
    case 's':
      appendf(Out, Spec.c_str(), va_arg(Ap, const char *));
      break;
    case 'p':
      appendf(Out, Spec.c_str(), va_arg(Ap, void *));
      break;
    default:
      Ok = false;
      break;
    }
  }
  va_end(Ap);
  if (!Ok)
    return -1;
  // One write per call: output of concurrent work-items does not interleave
  // within a line.
  if (std::fwrite(Out.data(), 1, Out.size(), stdout) != Out.size())
    return -1;
  return 0;
}

extern "C" int clcpu_printf(const char *Fmt, ...) {
  va_list Ap;
  va_start(Ap, Fmt);
  int R = printfImpl(Fmt, Ap);
  va_end(Ap);
  return R;
}

} // namespace clcpu::compiler

#ifndef CLCPU_RUNTIME_INFO_H
#define CLCPU_RUNTIME_INFO_H

#include "runtime/Error.h"

#include <CL/cl.h>

#include <cstring>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

namespace clcpu {

/// The one implementation of the clGet*Info output rules:
/// "param_value_size_ret returns the actual size in bytes of data being
/// queried. If param_value_size_ret is NULL, it is ignored."
/// "CL_INVALID_VALUE if ... size in bytes specified by param_value_size is <
/// size of return type ... and param_value is not a NULL value."
class InfoOut {
public:
  InfoOut(size_t Size, void *Value, size_t *SizeRet)
      : Size(Size), Value(Value), SizeRet(SizeRet) {}

  cl_int bytes(const void *Data, size_t N) {
    if (SizeRet)
      *SizeRet = N;
    if (!Value)
      return CL_SUCCESS;
    if (Size < N)
      return fail(CL_INVALID_VALUE, "param_value_size " + std::to_string(Size) +
                                        " is smaller than the " +
                                        std::to_string(N) +
                                        " bytes of the result");
    if (N)
      std::memcpy(Value, Data, N);
    return CL_SUCCESS;
  }
  template <typename T>
  requires std::is_trivially_copyable_v<T> cl_int value(const T &V) {
    return bytes(&V, sizeof(T));
  }
  template <typename T> cl_int array(std::span<const T> V) {
    return bytes(V.data(), V.size_bytes());
  }
  template <typename T> cl_int array(const std::vector<T> &V) {
    return bytes(V.data(), V.size() * sizeof(T));
  }
  /// A NUL-terminated string.
  cl_int string(std::string_view S) {
    std::vector<char> Buf(S.begin(), S.end());
    Buf.push_back('\0');
    return bytes(Buf.data(), Buf.size());
  }

private:
  size_t Size;
  void *Value;
  size_t *SizeRet;
};

/// "CL_INVALID_VALUE if param_name is not one of the supported values".
inline cl_int unknownParam(cl_uint Param, Context *Ctx = nullptr) {
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, "unknown param_name 0x%x", Param);
  return fail(CL_INVALID_VALUE, Buf, Ctx);
}

} // namespace clcpu

#endif

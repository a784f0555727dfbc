#ifndef CLCPU_RUNTIME_INFO_H
#define CLCPU_RUNTIME_INFO_H

#include "runtime/Error.h"

#include <CL/cl.h>

#include <cstring>
#include <span>
#include <string>
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
    requires std::is_trivially_copyable_v<T>
  cl_int value(const T &V) {
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

/// One entry of a name and version list (extensions, OpenCL C versions).
struct NamedVersion {
  const char *Name;
  cl_version Version;
};

/// The names of \p L (NamedVersion entries) separated by spaces: a
/// CL_*_EXTENSIONS string.
template <typename List> std::string joinNames(const List &L) {
  std::string S;
  for (const auto &E : L)
    S += (S.empty() ? "" : " ") + std::string(E.Name);
  return S;
}

/// \p L (NamedVersion entries) as the cl_name_version array of a
/// CL_*_WITH_VERSION query.
template <typename List>
std::vector<cl_name_version> nameVersions(const List &L) {
  std::vector<cl_name_version> V;
  for (const auto &E : L) {
    cl_name_version NV{};
    NV.version = E.Version;
    std::strncpy(NV.name, E.Name, CL_NAME_VERSION_MAX_NAME_SIZE - 1);
    V.push_back(NV);
  }
  return V;
}

/// "CL_INVALID_VALUE if param_name is not one of the supported values".
inline cl_int unknownParam(cl_uint Param, Context *Ctx = nullptr) {
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, "unknown param_name 0x%x", Param);
  return fail(CL_INVALID_VALUE, Buf, Ctx);
}

} // namespace clcpu

#endif

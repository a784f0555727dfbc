//===- icd/Dispatch.cpp - the cl_icd_dispatch table -----------------------===//
//
// Expands icd/EntryPoints.def three ways: the dispatch table (each slot set by
// its field name, so the order of the list can never put a function in the
// wrong slot), the extension-function lookup, and the list of entry points
// still to be implemented.
//
//===----------------------------------------------------------------------===//

#include "icd/Dispatch.h"
#include "runtime/Error.h"
#include "runtime/api/CommandBufferApi.h"

#include <cstring>
#include <tuple>
#include <type_traits>

namespace clcpu::icd {
namespace {

/// A stub with exactly the signature of the entry point it stands for. It
/// logs the entry point's name, sets `*errcode_ret` when the last parameter is
/// one, and returns CL_INVALID_OPERATION (or NULL for handle results).
template <typename Sig> struct Stub;
template <typename R, typename... Args> struct Stub<R CL_API_CALL(Args...)> {
  template <const char *Name> static R CL_API_CALL entry(Args... As) {
    logUnimplemented(Name);
    if constexpr (sizeof...(Args) > 0) {
      using Last =
          std::tuple_element_t<sizeof...(Args) - 1, std::tuple<Args...>>;
      if constexpr (std::is_same_v<Last, cl_int *>) {
        cl_int *Err = std::get<sizeof...(Args) - 1>(std::tie(As...));
        if (Err)
          *Err = CL_INVALID_OPERATION;
      }
    }
    if constexpr (std::is_same_v<R, cl_int>)
      return CL_INVALID_OPERATION;
    else if constexpr (!std::is_void_v<R>)
      return R{};
  }
};

/// D3D and DX9 slots are `void *` outside Windows; nothing can call them with
/// a known signature, so they share one stub.
cl_int CL_API_CALL windowsOnlyEntry() {
  logUnimplemented("a Direct3D/DX9 sharing entry point");
  return CL_INVALID_OPERATION;
}

namespace names {
#define CLCPU_NAME(N) constexpr char N[] = #N;
#define CLCPU_TODO(N) CLCPU_NAME(N)
#define CLCPU_UNADVERTISED(N) CLCPU_NAME(N)
#include "icd/EntryPoints.def"
#undef CLCPU_NAME
} // namespace names

consteval cl_icd_dispatch makeDispatch() {
  cl_icd_dispatch D{};
#define CLCPU_API(N) D.N = &::N;
#define CLCPU_STUB(N)                                                          \
  D.N = &Stub<std::remove_pointer_t<cl_api_##N>>::entry<names::N>;
#define CLCPU_TODO(N) CLCPU_STUB(N)
#define CLCPU_UNADVERTISED(N) CLCPU_STUB(N)
#include "icd/EntryPoints.def"
#undef CLCPU_STUB
  return D;
}

constinit cl_icd_dispatch Table = makeDispatch();

struct NamedFunction {
  const char *Name;
  void *Fn;
};

/// Every named entry point: the ICD loader (ocl-icd) looks up core functions
/// such as clGetPlatformInfo through clGetExtensionFunctionAddress too, so the
/// lookup covers the whole dispatch table plus the extension functions.
const NamedFunction *namedFunctions(size_t &Count) {
  static const NamedFunction Fns[] = {
#define CLCPU_SLOT(N) {#N, reinterpret_cast<void *>(dispatchTable().N)},
#define CLCPU_API(N) CLCPU_SLOT(N)
#define CLCPU_TODO(N) CLCPU_SLOT(N)
#define CLCPU_UNADVERTISED(N) CLCPU_SLOT(N)
#define CLCPU_EXTENSION(N) {#N, reinterpret_cast<void *>(&::N)},
#define CLCPU_KHR_EXTENSION(N) {#N, reinterpret_cast<void *>(&khr::N)},
#include "icd/EntryPoints.def"
#undef CLCPU_SLOT
  };
  Count = std::size(Fns);
  return Fns;
}

const char *const TodoNames[] = {
#define CLCPU_TODO(N) #N,
#include "icd/EntryPoints.def"
    nullptr};

const char *const AllNames[] = {
#define CLCPU_ALL(N) #N,
#define CLCPU_API(N) CLCPU_ALL(N)
#define CLCPU_TODO(N) CLCPU_ALL(N)
#define CLCPU_UNADVERTISED(N) CLCPU_ALL(N)
#define CLCPU_WINDOWS_ONLY(N) CLCPU_ALL(N)
#include "icd/EntryPoints.def"
#undef CLCPU_ALL
};

/// Windows-only slots cannot be set in a consteval function (they need a
/// reinterpret_cast), so they are filled once, before the first handle exists.
struct WindowsSlots {
  WindowsSlots() {
#define CLCPU_WINDOWS_ONLY(N)                                                  \
  Table.N = reinterpret_cast<void *>(&windowsOnlyEntry);
#include "icd/EntryPoints.def"
  }
};

} // namespace

const cl_icd_dispatch &dispatchTable() {
  static WindowsSlots Once; // thread-safe lazy init, no global constructor
  return Table;
}

void *extensionFunction(std::string_view Name) {
  size_t Count;
  const NamedFunction *Fns = namedFunctions(Count);
  for (size_t I = 0; I < Count; ++I)
    if (Name == Fns[I].Name)
      return Fns[I].Fn;
  return nullptr;
}

std::span<const char *const> unimplementedEntryPoints() {
  return {TodoNames, std::size(TodoNames) - 1};
}

std::span<const char *const> allEntryPoints() { return AllNames; }

} // namespace clcpu::icd

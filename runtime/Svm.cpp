#include "runtime/Svm.h"

#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>

namespace clcpu::svm {

namespace {
struct Registry {
  std::mutex Lock;
  // Keyed by base address: a pointer resolves with one upper_bound.
  std::map<uintptr_t, SvmAllocation> Allocs;
};
Registry &registry() {
  static Registry *R = new Registry; // lives until exit, like the platform
  return *R;
}

// Caller holds the lock.
const SvmAllocation *lookup(Registry &R, const Context *Ctx, const void *Ptr) {
  auto P = reinterpret_cast<uintptr_t>(Ptr);
  auto It = R.Allocs.upper_bound(P);
  if (It == R.Allocs.begin())
    return nullptr;
  --It;
  const SvmAllocation &A = It->second;
  if (P - It->first >= A.Size)
    return nullptr;
  if (Ctx && A.Ctx != Ctx)
    return nullptr;
  return &A;
}
} // namespace

bool validFlags(cl_svm_mem_flags Flags) {
  const cl_svm_mem_flags Access =
      CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
  const cl_svm_mem_flags Known =
      Access | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS;
  if (Flags & ~Known)
    return false;
  cl_svm_mem_flags A = Flags & Access;
  if (A & (A - 1))
    return false;
  if ((Flags & CL_MEM_SVM_ATOMICS) && !(Flags & CL_MEM_SVM_FINE_GRAIN_BUFFER))
    return false;
  return true;
}

void *allocate(Context *Ctx, cl_svm_mem_flags Flags, size_t Size,
               cl_uint Alignment) {
  size_t Align = Alignment < 128 ? 128 : Alignment;
  void *P = nullptr;
  if (posix_memalign(&P, Align, Size) != 0)
    return nullptr;
  Registry &R = registry();
  std::lock_guard<std::mutex> G(R.Lock);
  R.Allocs[reinterpret_cast<uintptr_t>(P)] = {P, Size, Flags, Ctx};
  return P;
}

bool free(Context *Ctx, void *Ptr) {
  Registry &R = registry();
  {
    std::lock_guard<std::mutex> G(R.Lock);
    auto It = R.Allocs.find(reinterpret_cast<uintptr_t>(Ptr));
    if (It == R.Allocs.end() || It->second.Ctx != Ctx)
      return false;
    R.Allocs.erase(It);
  }
  std::free(Ptr);
  return true;
}

bool find(const Context *Ctx, const void *Ptr, SvmAllocation *Out) {
  Registry &R = registry();
  std::lock_guard<std::mutex> G(R.Lock);
  const SvmAllocation *A = lookup(R, Ctx, Ptr);
  if (A && Out)
    *Out = *A;
  return A != nullptr;
}

bool contains(const Context *Ctx, const void *Ptr, size_t Size) {
  SvmAllocation A;
  if (!find(Ctx, Ptr, &A))
    return false;
  size_t Off = static_cast<const char *>(Ptr) - static_cast<char *>(A.Base);
  return Size <= A.Size - Off;
}

} // namespace clcpu::svm

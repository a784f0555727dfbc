#ifndef CLCPU_SCHEDULER_COMMANDMEMORY_H
#define CLCPU_SCHEDULER_COMMANDMEMORY_H

// Memory of commands: objects made by the thread that enqueues a command and
// freed by the worker that ran it (the event, the launch, its argument
// block). glibc's malloc returns such a block to the allocating thread's
// arena under that arena's lock, the lock the enqueuing thread takes for its
// next allocation, so a host thread enqueuing launches and a worker
// finishing them wait on each other's futex at every command (about half
// the time of a batch of empty launches). TBB's scalable allocator hands
// blocks freed elsewhere back to their owner without a lock.
//
// Under a sanitizer the plain allocator stays, so that AddressSanitizer
// sees every block and ThreadSanitizer sees no uninstrumented hand-off.

#include <oneapi/tbb/scalable_allocator.h>

#include <cstddef>
#include <new>

namespace clcpu {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CLCPU_COMMAND_MEMORY_PLAIN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define CLCPU_COMMAND_MEMORY_PLAIN 1
#endif
#endif

inline void *allocateCommandMemory(size_t Bytes, size_t Align) {
#ifdef CLCPU_COMMAND_MEMORY_PLAIN
  void *P = ::operator new(Bytes, std::align_val_t(Align), std::nothrow);
#else
  void *P = scalable_aligned_malloc(Bytes ? Bytes : 1, Align);
#endif
  if (!P)
    throw std::bad_alloc();
  return P;
}

inline void freeCommandMemory(void *P, size_t Align) noexcept {
#ifdef CLCPU_COMMAND_MEMORY_PLAIN
  ::operator delete(P, std::align_val_t(Align));
#else
  (void)Align;
  scalable_aligned_free(P);
#endif
}

/// Base of a class whose objects are command memory: `new T` and
/// `delete T` (also when std::function stores a T) use it.
struct CommandMemory {
  static void *operator new(size_t Bytes) {
    return allocateCommandMemory(Bytes, __STDCPP_DEFAULT_NEW_ALIGNMENT__);
  }
  static void operator delete(void *P) noexcept {
    freeCommandMemory(P, __STDCPP_DEFAULT_NEW_ALIGNMENT__);
  }
};

/// A standard allocator of command memory, for the containers and shared
/// objects of a command (std::allocate_shared, std::vector).
template <typename T> struct CommandAllocator {
  using value_type = T;
  CommandAllocator() = default;
  template <typename U> CommandAllocator(const CommandAllocator<U> &) {}
  T *allocate(size_t N) {
    if (N > size_t(-1) / sizeof(T))
      throw std::bad_array_new_length();
    return static_cast<T *>(allocateCommandMemory(N * sizeof(T), alignof(T)));
  }
  void deallocate(T *P, size_t) noexcept { freeCommandMemory(P, alignof(T)); }
  template <typename U> bool operator==(const CommandAllocator<U> &) const {
    return true;
  }
};

} // namespace clcpu

#endif

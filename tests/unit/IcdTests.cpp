// Unit tests for icd/: the dispatch table generated from EntryPoints.def and
// the handle layout the ICD loader relies on (cl_khr_icd).

#include "icd/Dispatch.h"
#include "runtime/Context.h"
#include "runtime/Device.h"
#include "runtime/Platform.h"

#include <catch2/catch.hpp>

#include <cstring>
#include <iostream>

using namespace clcpu;

TEST_CASE("cl_khr_icd: every dispatch slot is filled", "[icd]") {
  const cl_icd_dispatch &D = icd::dispatchTable();
  const void *const *Slots = reinterpret_cast<const void *const *>(&D);
  size_t N = sizeof(cl_icd_dispatch) / sizeof(void *);
  for (size_t I = 0; I < N; ++I) {
    INFO("slot " << I);
    CHECK(Slots[I] != nullptr);
  }
  // The list covers the whole struct: one name per slot.
  CHECK(icd::allEntryPoints().size() == N);
}

TEST_CASE("cl_khr_icd: slots are filled by name", "[icd]") {
  const cl_icd_dispatch &D = icd::dispatchTable();
  CHECK(reinterpret_cast<void *>(D.clGetPlatformIDs) ==
        reinterpret_cast<void *>(&clGetPlatformIDs));
  CHECK(reinterpret_cast<void *>(D.clGetDeviceInfo) ==
        reinterpret_cast<void *>(&clGetDeviceInfo));
  CHECK(icd::extensionFunction("clGetDeviceInfo") ==
        reinterpret_cast<void *>(&clGetDeviceInfo));
  CHECK(icd::extensionFunction("clIcdGetPlatformIDsKHR") != nullptr);
  CHECK(icd::extensionFunction("clNoSuchFunction") == nullptr);
}

TEST_CASE("unimplemented entry points return CL_INVALID_OPERATION", "[icd]") {
  const cl_icd_dispatch &D = icd::dispatchTable();
  auto Todo = icd::unimplementedEntryPoints();
  bool EnqueueMarkerTodo =
      std::find_if(Todo.begin(), Todo.end(), [](const char *N) {
        return std::strcmp(N, "clEnqueueMarker") == 0;
      }) != Todo.end();
  if (EnqueueMarkerTodo)
    CHECK(D.clEnqueueMarker(nullptr, nullptr) == CL_INVALID_OPERATION);
  // A stub that returns a handle sets errcode_ret.
  cl_int Err = CL_SUCCESS;
  CHECK(D.clCreateFromGLBuffer(nullptr, 0, 0, &Err) == nullptr);
  CHECK(Err == CL_INVALID_OPERATION);
}

TEST_CASE("Unimplemented entry points remaining", "[entry-points-remaining]") {
  auto Todo = icd::unimplementedEntryPoints();
  std::cout << "Unimplemented OpenCL 3.0 entry points: " << Todo.size()
            << " of " << icd::allEntryPoints().size() << " dispatch slots\n";
  for (const char *N : Todo)
    std::cout << "  " << N << "\n";
  // Every OpenCL 3.0 entry point answers per spec now; a new CLCPU_TODO in
  // icd/EntryPoints.def is a regression.
  CHECK(Todo.empty());
}

TEST_CASE("cl_khr_icd: every object kind starts with the dispatch pointer",
          "[icd]") {
  const cl_icd_dispatch *Expected = &icd::dispatchTable();
  auto FirstWord = [](const void *Handle) {
    const cl_icd_dispatch *W;
    std::memcpy(&W, Handle, sizeof W);
    return W;
  };
  Platform &P = Platform::get();
  CHECK(FirstWord(P.handle()) == Expected);
  Device *D = P.devices().front();
  CHECK(FirstWord(D->handle()) == Expected);
  auto *C = new Context({D}, {}, nullptr, nullptr);
  CHECK(FirstWord(C->handle()) == Expected);
  CHECK(C->release());
}

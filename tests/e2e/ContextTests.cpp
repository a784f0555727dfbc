// End-to-end: contexts through the ICD loader (OpenCL 3.0 API spec, 4.4
// "Contexts").

#include "Common.h"

#include <catch2/catch.hpp>

#include <string>

namespace {
void CL_CALLBACK collect(const char *Msg, const void *, size_t, void *User) {
  static_cast<std::vector<std::string> *>(User)->push_back(Msg);
}
void CL_CALLBACK onDestroy(cl_context, void *User) {
  static_cast<std::vector<int> *>(User)->push_back(
      static_cast<int>(static_cast<std::vector<int> *>(User)->size()));
}
} // namespace

TEST_CASE("4.4: create, query, retain and release a context", "[context]") {
  cl_platform_id P = clcpuPlatform();
  cl_device_id D = clcpuDevice();
  cl_context_properties Props[] = {
      CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(P), 0};
  cl_int Err = -1;
  cl_context C = clCreateContext(Props, 1, &D, nullptr, nullptr, &Err);
  REQUIRE(Err == CL_SUCCESS);
  REQUIRE(C);
  cl_uint N = 0;
  CHECK(clGetContextInfo(C, CL_CONTEXT_NUM_DEVICES, sizeof N, &N, nullptr) ==
        CL_SUCCESS);
  CHECK(N == 1);
  cl_device_id Got = nullptr;
  CHECK(clGetContextInfo(C, CL_CONTEXT_DEVICES, sizeof Got, &Got, nullptr) ==
        CL_SUCCESS);
  CHECK(Got == D);
  size_t Size = 0;
  CHECK(clGetContextInfo(C, CL_CONTEXT_PROPERTIES, 0, nullptr, &Size) ==
        CL_SUCCESS);
  CHECK(Size == sizeof Props);
  CHECK(clRetainContext(C) == CL_SUCCESS);
  cl_uint Refs = 0;
  clGetContextInfo(C, CL_CONTEXT_REFERENCE_COUNT, sizeof Refs, &Refs, nullptr);
  CHECK(Refs == 2);
  CHECK(clReleaseContext(C) == CL_SUCCESS);
  CHECK(clReleaseContext(C) == CL_SUCCESS);
}

TEST_CASE("4.4: context destructor callbacks run in reverse order",
          "[context]") {
  cl_device_id D = clcpuDevice();
  cl_context C = clCreateContext(nullptr, 1, &D, nullptr, nullptr, nullptr);
  REQUIRE(C);
  std::vector<int> A, B;
  CHECK(clSetContextDestructorCallback(C, onDestroy, &A) == CL_SUCCESS);
  CHECK(clSetContextDestructorCallback(C, onDestroy, &B) == CL_SUCCESS);
  CHECK(clSetContextDestructorCallback(C, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(A.empty());
  CHECK(clReleaseContext(C) == CL_SUCCESS);
  CHECK(A.size() == 1);
  CHECK(B.size() == 1);
}

TEST_CASE("4.4: bad context arguments get the spec's error", "[context]") {
  cl_device_id D = clcpuDevice();
  cl_int Err = 0;
  CHECK(clCreateContext(nullptr, 0, &D, nullptr, nullptr, &Err) == nullptr);
  CHECK(Err == CL_INVALID_VALUE);
  CHECK(clCreateContext(nullptr, 1, nullptr, nullptr, nullptr, &Err) ==
        nullptr);
  CHECK(Err == CL_INVALID_VALUE);
  cl_device_id Bad = nullptr;
  CHECK(clCreateContext(nullptr, 1, &Bad, nullptr, nullptr, &Err) == nullptr);
  CHECK(Err == CL_INVALID_DEVICE);
  int User = 0;
  CHECK(clCreateContext(nullptr, 1, &D, nullptr, &User, &Err) == nullptr);
  CHECK(Err == CL_INVALID_VALUE);
  cl_context_properties Unknown[] = {0x7777, 0, 0};
  CHECK(clCreateContext(Unknown, 1, &D, nullptr, nullptr, &Err) == nullptr);
  CHECK(Err == CL_INVALID_PROPERTY);
  cl_context_properties Twice[] = {
      CL_CONTEXT_PLATFORM,
      reinterpret_cast<cl_context_properties>(clcpuPlatform()),
      CL_CONTEXT_PLATFORM,
      reinterpret_cast<cl_context_properties>(clcpuPlatform()), 0};
  CHECK(clCreateContext(Twice, 1, &D, nullptr, nullptr, &Err) == nullptr);
  CHECK(Err == CL_INVALID_PROPERTY);
  CHECK(clCreateContextFromType(nullptr, CL_DEVICE_TYPE_GPU, nullptr, nullptr,
                                &Err) == nullptr);
  CHECK(Err == CL_DEVICE_NOT_FOUND);
  cl_context C = clCreateContextFromType(nullptr, CL_DEVICE_TYPE_CPU, nullptr,
                                         nullptr, &Err);
  CHECK(Err == CL_SUCCESS);
  cl_uint V;
  CHECK(clGetContextInfo(C, 0x1, sizeof V, &V, nullptr) == CL_INVALID_VALUE);
  clReleaseContext(C);
  CHECK(clRetainContext(nullptr) == CL_INVALID_CONTEXT);
  CHECK(clReleaseContext(nullptr) == CL_INVALID_CONTEXT);
}

TEST_CASE("4.4: pfn_notify receives the reason of a context's error",
          "[context]") {
  cl_device_id D = clcpuDevice();
  std::vector<std::string> Msgs;
  cl_context C = clCreateContext(nullptr, 1, &D, collect, &Msgs, nullptr);
  REQUIRE(C);
  CHECK(clSetContextDestructorCallback(C, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  REQUIRE(Msgs.size() == 1);
  CHECK(Msgs[0].find("CL_INVALID_VALUE") != std::string::npos);
  CHECK(Msgs[0].find("pfn_notify") != std::string::npos);
  clReleaseContext(C);
}

TEST_CASE("5.3.2: no image formats while images are not supported",
          "[.no-images]") {
  cl_device_id D = clcpuDevice();
  REQUIRE(deviceInfo<cl_bool>(D, CL_DEVICE_IMAGE_SUPPORT) == CL_FALSE);
  cl_context C = clCreateContext(nullptr, 1, &D, nullptr, nullptr, nullptr);
  REQUIRE(C);
  cl_uint N = 99;
  CHECK(clGetSupportedImageFormats(C, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D,
                                   0, nullptr, &N) == CL_SUCCESS);
  CHECK(N == 0);
  cl_image_format F;
  CHECK(clGetSupportedImageFormats(C, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D,
                                   0, &F, &N) == CL_INVALID_VALUE);
  CHECK(clGetSupportedImageFormats(C, CL_MEM_READ_ONLY, CL_MEM_OBJECT_BUFFER, 1,
                                   &F, &N) == CL_INVALID_VALUE);
  CHECK(clGetSupportedImageFormats(nullptr, CL_MEM_READ_ONLY,
                                   CL_MEM_OBJECT_IMAGE2D, 1, &F,
                                   &N) == CL_INVALID_CONTEXT);
  clReleaseContext(C);
}

TEST_CASE("4.4: pfn_notify hears errors of every object of the context",
          "[context]") {
  // "pfn_notify ... used by the OpenCL implementation to report information
  // on errors during context creation as well as errors that occur at
  // runtime in this context."
  cl_device_id D = clcpuDevice();
  std::vector<std::string> Msgs;
  cl_context C = clCreateContext(nullptr, 1, &D, collect, &Msgs, nullptr);
  REQUIRE(C);
  cl_int Err = 0;
  cl_command_queue Q = clCreateCommandQueueWithProperties(C, D, nullptr, &Err);
  REQUIRE(Err == CL_SUCCESS);
  cl_mem B = clCreateBuffer(C, CL_MEM_READ_WRITE, 64, nullptr, &Err);
  REQUIRE(Err == CL_SUCCESS);
  char Host[128];
  // Out of range read: CL_INVALID_VALUE, reported through the queue's
  // context.
  CHECK(clEnqueueReadBuffer(Q, B, CL_TRUE, 32, 64, Host, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  REQUIRE(!Msgs.empty());
  CHECK(Msgs.back().find("clEnqueueReadBuffer") != std::string::npos);
  size_t Before = Msgs.size();
  cl_uint V;
  CHECK(clGetMemObjectInfo(B, 0x7777, sizeof V, &V, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(Msgs.size() == Before + 1);
  // Errors of other contexts do not reach this callback.
  cl_context Other = clCreateContext(nullptr, 1, &D, nullptr, nullptr, &Err);
  CHECK(clGetContextInfo(Other, 0x7777, sizeof V, &V, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(Msgs.size() == Before + 1);
  clReleaseContext(Other);
  clReleaseMemObject(B);
  clReleaseCommandQueue(Q);
  clReleaseContext(C);
}

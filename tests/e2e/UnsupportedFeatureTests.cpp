// Entry points of optional features the device does not report (images
// and samplers with CLCPU_IMAGES=0: the "[.no-images]" cases, run by the
// e2e_no_images test; native kernels, changing queue properties):
// each returns the spec's error for a device without the feature, after the
// checks that come before it. Every case first checks that the device really
// reports the feature as absent, so the expectations follow from the queries.

#include "Common.h"

#include <catch2/catch.hpp>

namespace {
struct Fixture {
  cl_device_id Dev = clcpuDevice();
  cl_context Ctx = nullptr;
  cl_command_queue Q = nullptr;
  cl_mem Buf = nullptr;

  Fixture() {
    REQUIRE(Dev);
    cl_int Err = CL_OUT_OF_RESOURCES;
    Ctx = clCreateContext(nullptr, 1, &Dev, nullptr, nullptr, &Err);
    REQUIRE(Err == CL_SUCCESS);
    Q = clCreateCommandQueue(Ctx, Dev, 0, &Err);
    REQUIRE(Err == CL_SUCCESS);
    Buf = clCreateBuffer(Ctx, CL_MEM_READ_WRITE, 256, nullptr, &Err);
    REQUIRE(Err == CL_SUCCESS);
  }
  ~Fixture() {
    clReleaseMemObject(Buf);
    clReleaseCommandQueue(Q);
    clReleaseContext(Ctx);
  }
};

const cl_image_format Rgba8 = {CL_RGBA, CL_UNORM_INT8};

cl_image_desc desc2D(size_t W, size_t H) {
  cl_image_desc D{};
  D.image_type = CL_MEM_OBJECT_IMAGE2D;
  D.image_width = W;
  D.image_height = H;
  return D;
}
} // namespace

TEST_CASE("5.3.1: image creation fails with CL_INVALID_OPERATION without "
          "image support",
          "[.no-images]") {
  Fixture F;
  REQUIRE(deviceInfo<cl_bool>(F.Dev, CL_DEVICE_IMAGE_SUPPORT) == CL_FALSE);
  cl_image_desc Desc = desc2D(16, 16);
  cl_int Err = CL_SUCCESS;

  SECTION("the context is checked first") {
    CHECK(clCreateImage(nullptr, CL_MEM_READ_WRITE, &Rgba8, &Desc, nullptr,
                        &Err) == nullptr);
    CHECK(Err == CL_INVALID_CONTEXT);
    Err = CL_SUCCESS;
    CHECK(clCreateImageWithProperties(nullptr, nullptr, CL_MEM_READ_WRITE,
                                      &Rgba8, &Desc, nullptr, &Err) == nullptr);
    CHECK(Err == CL_INVALID_CONTEXT);
    Err = CL_SUCCESS;
    CHECK(clCreateImage2D(reinterpret_cast<cl_context>(F.Q), CL_MEM_READ_WRITE,
                          &Rgba8, 16, 16, 0, nullptr, &Err) == nullptr);
    CHECK(Err == CL_INVALID_CONTEXT);
    Err = CL_SUCCESS;
    CHECK(clCreateImage3D(nullptr, CL_MEM_READ_WRITE, &Rgba8, 4, 4, 4, 0, 0,
                          nullptr, &Err) == nullptr);
    CHECK(Err == CL_INVALID_CONTEXT);
  }
  SECTION("valid arguments: no device in the context supports images") {
    CHECK(clCreateImage(F.Ctx, CL_MEM_READ_WRITE, &Rgba8, &Desc, nullptr,
                        &Err) == nullptr);
    CHECK(Err == CL_INVALID_OPERATION);
    Err = CL_SUCCESS;
    CHECK(clCreateImageWithProperties(F.Ctx, nullptr, CL_MEM_READ_WRITE, &Rgba8,
                                      &Desc, nullptr, &Err) == nullptr);
    CHECK(Err == CL_INVALID_OPERATION);
    Err = CL_SUCCESS;
    CHECK(clCreateImage2D(F.Ctx, CL_MEM_READ_WRITE, &Rgba8, 16, 16, 0, nullptr,
                          &Err) == nullptr);
    CHECK(Err == CL_INVALID_OPERATION);
    Err = CL_SUCCESS;
    CHECK(clCreateImage3D(F.Ctx, CL_MEM_READ_WRITE, &Rgba8, 4, 4, 4, 0, 0,
                          nullptr, &Err) == nullptr);
    CHECK(Err == CL_INVALID_OPERATION);
    // An image from a buffer (CTS test_api/consistency_2d_image_from_buffer).
    Desc.buffer = F.Buf;
    Desc.image_width = 16;
    Desc.image_height = 4;
    CHECK(clCreateImage(F.Ctx, CL_MEM_READ_ONLY, &Rgba8, &Desc, nullptr,
                        &Err) == nullptr);
    CHECK(Err == CL_INVALID_OPERATION);
  }
  SECTION("a NULL errcode_ret is allowed") {
    CHECK(clCreateImage(F.Ctx, CL_MEM_READ_WRITE, &Rgba8, &Desc, nullptr,
                        nullptr) == nullptr);
  }
}

TEST_CASE("5.3.7: clGetImageInfo rejects every memory object", "[image]") {
  Fixture F;
  size_t V = 0;
  CHECK(clGetImageInfo(nullptr, CL_IMAGE_WIDTH, sizeof V, &V, nullptr) ==
        CL_INVALID_MEM_OBJECT);
  // A buffer is a valid memory object but not an image object.
  CHECK(clGetImageInfo(F.Buf, CL_IMAGE_WIDTH, sizeof V, &V, nullptr) ==
        CL_INVALID_MEM_OBJECT);
}

TEST_CASE("5.3.3: image commands check the queue, then the image", "[image]") {
  Fixture F;
  size_t Origin[3] = {0, 0, 0}, Region[3] = {1, 1, 1};
  char Host[64] = {};
  float Color[4] = {};

  SECTION("an invalid queue is reported first") {
    CHECK(clEnqueueReadImage(nullptr, F.Buf, CL_TRUE, Origin, Region, 0, 0,
                             Host, 0, nullptr,
                             nullptr) == CL_INVALID_COMMAND_QUEUE);
    CHECK(clEnqueueWriteImage(nullptr, F.Buf, CL_TRUE, Origin, Region, 0, 0,
                              Host, 0, nullptr,
                              nullptr) == CL_INVALID_COMMAND_QUEUE);
    CHECK(clEnqueueCopyImage(nullptr, F.Buf, F.Buf, Origin, Origin, Region, 0,
                             nullptr, nullptr) == CL_INVALID_COMMAND_QUEUE);
    CHECK(clEnqueueCopyImageToBuffer(nullptr, F.Buf, F.Buf, Origin, Region, 0,
                                     0, nullptr,
                                     nullptr) == CL_INVALID_COMMAND_QUEUE);
    CHECK(clEnqueueCopyBufferToImage(nullptr, F.Buf, F.Buf, 0, Origin, Region,
                                     0, nullptr,
                                     nullptr) == CL_INVALID_COMMAND_QUEUE);
    CHECK(clEnqueueFillImage(nullptr, F.Buf, Color, Origin, Region, 0, nullptr,
                             nullptr) == CL_INVALID_COMMAND_QUEUE);
    size_t RowPitch = 0;
    cl_int Err = CL_SUCCESS;
    CHECK(clEnqueueMapImage(nullptr, F.Buf, CL_TRUE, CL_MAP_READ, Origin,
                            Region, &RowPitch, nullptr, 0, nullptr, nullptr,
                            &Err) == nullptr);
    CHECK(Err == CL_INVALID_COMMAND_QUEUE);
  }
  SECTION("a buffer is not an image object") {
    CHECK(clEnqueueReadImage(F.Q, F.Buf, CL_TRUE, Origin, Region, 0, 0, Host, 0,
                             nullptr, nullptr) == CL_INVALID_MEM_OBJECT);
    CHECK(clEnqueueWriteImage(F.Q, F.Buf, CL_TRUE, Origin, Region, 0, 0, Host,
                              0, nullptr, nullptr) == CL_INVALID_MEM_OBJECT);
    CHECK(clEnqueueCopyImage(F.Q, F.Buf, F.Buf, Origin, Origin, Region, 0,
                             nullptr, nullptr) == CL_INVALID_MEM_OBJECT);
    CHECK(clEnqueueCopyImageToBuffer(F.Q, F.Buf, F.Buf, Origin, Region, 0, 0,
                                     nullptr,
                                     nullptr) == CL_INVALID_MEM_OBJECT);
    CHECK(clEnqueueCopyBufferToImage(F.Q, F.Buf, F.Buf, 0, Origin, Region, 0,
                                     nullptr,
                                     nullptr) == CL_INVALID_MEM_OBJECT);
    CHECK(clEnqueueFillImage(F.Q, F.Buf, Color, Origin, Region, 0, nullptr,
                             nullptr) == CL_INVALID_MEM_OBJECT);
    size_t RowPitch = 0;
    cl_int Err = CL_SUCCESS;
    CHECK(clEnqueueMapImage(F.Q, F.Buf, CL_TRUE, CL_MAP_READ, Origin, Region,
                            &RowPitch, nullptr, 0, nullptr, nullptr,
                            &Err) == nullptr);
    CHECK(Err == CL_INVALID_MEM_OBJECT);
    CHECK(clEnqueueReadImage(F.Q, nullptr, CL_TRUE, Origin, Region, 0, 0, Host,
                             0, nullptr, nullptr) == CL_INVALID_MEM_OBJECT);
  }
  SECTION("no command was enqueued") {
    cl_event E = nullptr;
    CHECK(clEnqueueFillImage(F.Q, F.Buf, Color, Origin, Region, 0, nullptr,
                             &E) == CL_INVALID_MEM_OBJECT);
    CHECK(E == nullptr);
    CHECK(clFinish(F.Q) == CL_SUCCESS);
  }
}

TEST_CASE("OpenCL C 6.12: __IMAGE_SUPPORT__ is undefined without image "
          "support",
          "[.no-images]") {
  Fixture F;
  REQUIRE(deviceInfo<cl_bool>(F.Dev, CL_DEVICE_IMAGE_SUPPORT) == CL_FALSE);
  const char *Src = "#ifdef __IMAGE_SUPPORT__\n#error images\n#endif\n"
                    "kernel void k(global int *p) { *p = 1; }";
  for (const char *Std : {"-cl-std=CL1.2", "-cl-std=CL3.0"}) {
    INFO(Std);
    cl_int Err = CL_OUT_OF_RESOURCES;
    cl_program P = clCreateProgramWithSource(F.Ctx, 1, &Src, nullptr, &Err);
    REQUIRE(Err == CL_SUCCESS);
    CHECK(clBuildProgram(P, 1, &F.Dev, Std, nullptr, nullptr) == CL_SUCCESS);
    clReleaseProgram(P);
  }
}

TEST_CASE("5.7.1: samplers cannot be created without image support",
          "[.no-images]") {
  Fixture F;
  REQUIRE(deviceInfo<cl_bool>(F.Dev, CL_DEVICE_IMAGE_SUPPORT) == CL_FALSE);
  cl_int Err = CL_SUCCESS;
  CHECK(clCreateSampler(nullptr, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST,
                        &Err) == nullptr);
  CHECK(Err == CL_INVALID_CONTEXT);
  Err = CL_SUCCESS;
  CHECK(clCreateSampler(F.Ctx, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST,
                        &Err) == nullptr);
  CHECK(Err == CL_INVALID_OPERATION);
  const cl_sampler_properties Props[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_TRUE,
                                         0};
  Err = CL_SUCCESS;
  CHECK(clCreateSamplerWithProperties(nullptr, Props, &Err) == nullptr);
  CHECK(Err == CL_INVALID_CONTEXT);
  Err = CL_SUCCESS;
  CHECK(clCreateSamplerWithProperties(F.Ctx, Props, &Err) == nullptr);
  CHECK(Err == CL_INVALID_OPERATION);
}

TEST_CASE("5.7.2: no handle is a valid sampler object", "[sampler]") {
  Fixture F;
  // Handles of other kinds must not be taken for samplers.
  cl_sampler NotSamplers[] = {nullptr, reinterpret_cast<cl_sampler>(F.Ctx),
                              reinterpret_cast<cl_sampler>(F.Buf)};
  for (cl_sampler S : NotSamplers) {
    CHECK(clRetainSampler(S) == CL_INVALID_SAMPLER);
    CHECK(clReleaseSampler(S) == CL_INVALID_SAMPLER);
    cl_bool V = CL_FALSE;
    CHECK(clGetSamplerInfo(S, CL_SAMPLER_NORMALIZED_COORDS, sizeof V, &V,
                           nullptr) == CL_INVALID_SAMPLER);
  }
}

TEST_CASE("5.10: clEnqueueNativeKernel without CL_EXEC_NATIVE_KERNEL",
          "[native-kernel]") {
  Fixture F;
  REQUIRE(!(deviceInfo<cl_device_exec_capabilities>(
                F.Dev, CL_DEVICE_EXECUTION_CAPABILITIES) &
            CL_EXEC_NATIVE_KERNEL));
  static bool Ran = false;
  auto Fn = [](void *) { Ran = true; };
  int Arg = 0;
  CHECK(clEnqueueNativeKernel(nullptr, Fn, &Arg, sizeof Arg, 0, nullptr,
                              nullptr, 0, nullptr,
                              nullptr) == CL_INVALID_COMMAND_QUEUE);
  cl_event E = nullptr;
  CHECK(clEnqueueNativeKernel(F.Q, Fn, &Arg, sizeof Arg, 0, nullptr, nullptr, 0,
                              nullptr, &E) == CL_INVALID_OPERATION);
  CHECK(E == nullptr);
  CHECK(clFinish(F.Q) == CL_SUCCESS);
  CHECK_FALSE(Ran);
}

TEST_CASE("5.1: clSetCommandQueueProperty is not supported by an OpenCL 3.0 "
          "device",
          "[queue]") {
  Fixture F;
  cl_command_queue_properties Old = 0;
  CHECK(clSetCommandQueueProperty(nullptr, CL_QUEUE_PROFILING_ENABLE, CL_TRUE,
                                  &Old) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clSetCommandQueueProperty(F.Q, CL_QUEUE_PROFILING_ENABLE, CL_TRUE,
                                  &Old) == CL_INVALID_OPERATION);
  // The queue keeps the properties it was created with.
  cl_command_queue_properties Now = ~cl_command_queue_properties(0);
  REQUIRE(clGetCommandQueueInfo(F.Q, CL_QUEUE_PROPERTIES, sizeof Now, &Now,
                                nullptr) == CL_SUCCESS);
  CHECK(Now == 0);
}

// End-to-end: image and sampler objects through the ICD loader (OpenCL 3.0
// API spec, 5.3 "Image Objects" and 5.7 "Sampler Objects"). Hidden
// ("[.images]"): the e2e_images test runs them.

#include "Common.h"
#include "SamplerReference.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace {
struct Env {
  cl_device_id D = clcpuDevice();
  cl_context C = nullptr;
  cl_command_queue Q = nullptr;
  std::vector<cl_mem> Mems;
  Env() {
    REQUIRE(D);
    REQUIRE(deviceInfo<cl_bool>(D, CL_DEVICE_IMAGE_SUPPORT) == CL_TRUE);
    C = clCreateContext(nullptr, 1, &D, nullptr, nullptr, nullptr);
    Q = clCreateCommandQueueWithProperties(C, D, nullptr, nullptr);
    REQUIRE(Q);
  }
  ~Env() {
    for (cl_mem M : Mems)
      clReleaseMemObject(M);
    clReleaseCommandQueue(Q);
    clReleaseContext(C);
  }
  /// clCreateImage that must succeed; released with the Env.
  cl_mem image(const cl_image_format &F, const cl_image_desc &Desc,
               cl_mem_flags Flags = CL_MEM_READ_WRITE, void *Host = nullptr) {
    cl_int Err = -1;
    cl_mem M = clCreateImage(C, Flags, &F, &Desc, Host, &Err);
    REQUIRE(Err == CL_SUCCESS);
    REQUIRE(M);
    Mems.push_back(M);
    return M;
  }
  /// The error clCreateImage returns (and no object).
  cl_int imageError(const cl_image_format *F, const cl_image_desc *Desc,
                    cl_mem_flags Flags = CL_MEM_READ_WRITE,
                    void *Host = nullptr) {
    cl_int Err = CL_SUCCESS;
    cl_mem M = clCreateImage(C, Flags, F, Desc, Host, &Err);
    CHECK(M == nullptr);
    if (M)
      clReleaseMemObject(M);
    return Err;
  }
  cl_mem buffer(size_t Size, cl_mem_flags Flags = CL_MEM_READ_WRITE,
                void *Host = nullptr) {
    cl_int Err = -1;
    cl_mem M = clCreateBuffer(C, Flags, Size, Host, &Err);
    REQUIRE(Err == CL_SUCCESS);
    Mems.push_back(M);
    return M;
  }
};

const cl_image_format Rgba8 = {CL_RGBA, CL_UNORM_INT8};
const cl_image_format RgbaF = {CL_RGBA, CL_FLOAT};

cl_image_desc desc(cl_mem_object_type T, size_t W, size_t H = 0, size_t D = 0,
                   size_t A = 0) {
  cl_image_desc X{};
  X.image_type = T;
  X.image_width = W;
  X.image_height = H;
  X.image_depth = D;
  X.image_array_size = A;
  return X;
}

template <typename T> T imageInfo(cl_mem M, cl_image_info P) {
  T V{};
  REQUIRE(clGetImageInfo(M, P, sizeof V, &V, nullptr) == CL_SUCCESS);
  return V;
}

template <typename T> T memInfo(cl_mem M, cl_mem_info P) {
  T V{};
  REQUIRE(clGetMemObjectInfo(M, P, sizeof V, &V, nullptr) == CL_SUCCESS);
  return V;
}

std::vector<unsigned char> pattern(size_t N, unsigned Seed) {
  std::vector<unsigned char> V(N);
  for (size_t I = 0; I < N; ++I)
    V[I] = static_cast<unsigned char>((I * 131 + Seed) % 251);
  return V;
}

bool hasFormat(const std::vector<cl_image_format> &L, cl_channel_order O,
               cl_channel_type T) {
  return std::any_of(L.begin(), L.end(), [&](const cl_image_format &F) {
    return F.image_channel_order == O && F.image_channel_data_type == T;
  });
}

std::vector<cl_image_format> formats(cl_context C, cl_mem_flags Flags,
                                     cl_mem_object_type T) {
  cl_uint N = 0;
  REQUIRE(clGetSupportedImageFormats(C, Flags, T, 0, nullptr, &N) ==
          CL_SUCCESS);
  std::vector<cl_image_format> L(N);
  if (N)
    REQUIRE(clGetSupportedImageFormats(C, Flags, T, N, L.data(), nullptr) ==
            CL_SUCCESS);
  return L;
}

/// One image type with dimensions small enough to check every byte: the
/// origin/region coordinates (x, y or layer, z or layer).
struct Shape {
  const char *Name;
  cl_mem_object_type Type;
  size_t Ext[3];
};
const Shape Shapes[] = {
    {"1D", CL_MEM_OBJECT_IMAGE1D, {37, 1, 1}},
    {"1D array", CL_MEM_OBJECT_IMAGE1D_ARRAY, {29, 5, 1}},
    {"2D", CL_MEM_OBJECT_IMAGE2D, {19, 13, 1}},
    {"2D array", CL_MEM_OBJECT_IMAGE2D_ARRAY, {11, 7, 3}},
    {"3D", CL_MEM_OBJECT_IMAGE3D, {9, 6, 4}},
};

cl_image_desc descOf(const Shape &S) {
  switch (S.Type) {
  case CL_MEM_OBJECT_IMAGE1D:
    return desc(S.Type, S.Ext[0]);
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    return desc(S.Type, S.Ext[0], 0, 0, S.Ext[1]);
  case CL_MEM_OBJECT_IMAGE2D:
    return desc(S.Type, S.Ext[0], S.Ext[1]);
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    return desc(S.Type, S.Ext[0], S.Ext[1], 0, S.Ext[2]);
  default:
    return desc(S.Type, S.Ext[0], S.Ext[1], S.Ext[2]);
  }
}

/// Byte offset of pixel (X, Y, Z) in a linear layout with the given strides
/// of the second and third coordinates.
size_t at(size_t X, size_t Y, size_t Z, size_t ES, size_t S1, size_t S2) {
  return X * ES + Y * S1 + Z * S2;
}
} // namespace

TEST_CASE("5.3.2.2: clGetSupportedImageFormats lists the minimum formats",
          "[.images]") {
  Env E;
  for (cl_mem_object_type T :
       {CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_BUFFER,
        CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_MEM_OBJECT_IMAGE2D,
        CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE3D}) {
    // Read-write images: at least 64 arguments, and "Minimum list of
    // required image formats: read-write" (CL_R and CL_RGBA).
    CHECK(deviceInfo<cl_uint>(E.D, CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS) >= 64);
    auto RW = formats(E.C, CL_MEM_KERNEL_READ_AND_WRITE, T);
    for (cl_channel_type Ty :
         {CL_UNORM_INT8, CL_SIGNED_INT8, CL_SIGNED_INT16, CL_SIGNED_INT32,
          CL_UNSIGNED_INT8, CL_UNSIGNED_INT16, CL_UNSIGNED_INT32, CL_HALF_FLOAT,
          CL_FLOAT}) {
      CHECK(hasFormat(RW, CL_RGBA, Ty));
      CHECK(hasFormat(RW, CL_R, Ty));
    }
    // cl_khr_srgb_image_writes: sRGB formats are written by kernels too,
    // read-write images included.
    CHECK(hasFormat(RW, CL_sRGBA, CL_UNORM_INT8));
    CHECK(hasFormat(RW, CL_sBGRA, CL_UNORM_INT8));
    for (cl_mem_flags F :
         {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE}) {
      auto L = formats(E.C, F, T);
      // "Minimum list of required image formats for reading or writing"
      // (CL_RGBA), and CL_R of the OpenCL 2.0 list.
      for (cl_channel_type Ty :
           {CL_UNORM_INT8, CL_SIGNED_INT8, CL_SIGNED_INT16, CL_SIGNED_INT32,
            CL_UNSIGNED_INT8, CL_UNSIGNED_INT16, CL_UNSIGNED_INT32,
            CL_HALF_FLOAT, CL_FLOAT}) {
        CHECK(hasFormat(L, CL_RGBA, Ty));
        CHECK(hasFormat(L, CL_R, Ty));
      }
      CHECK(hasFormat(L, CL_RGBA, CL_UNORM_INT16));
      CHECK(hasFormat(L, CL_BGRA, CL_UNORM_INT8));
      // sRGB formats for every access (cl_khr_srgb_image_writes: "The sRGB
      // image formats that may be written to will be returned by
      // clGetSupportedImageFormats"); depth images are 2D images and 2D
      // image arrays.
      CHECK(hasFormat(L, CL_sRGBA, CL_UNORM_INT8));
      CHECK(hasFormat(L, CL_sBGRA, CL_UNORM_INT8));
      bool Depth =
          T == CL_MEM_OBJECT_IMAGE2D || T == CL_MEM_OBJECT_IMAGE2D_ARRAY;
      CHECK(hasFormat(L, CL_DEPTH, CL_FLOAT) == Depth);
    }
  }
  // num_entries smaller than the list: only that many are written.
  cl_image_format Two[3] = {};
  Two[2].image_channel_order = 0x1234;
  cl_uint N = 0;
  CHECK(clGetSupportedImageFormats(E.C, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D,
                                   2, Two, &N) == CL_SUCCESS);
  CHECK(N > 2);
  CHECK(Two[2].image_channel_order == 0x1234);
  // CL_INVALID_VALUE if flags or image_type are not valid, or if
  // num_entries is 0 and image_formats is not NULL.
  CHECK(clGetSupportedImageFormats(E.C, CL_MEM_READ_ONLY, CL_MEM_OBJECT_BUFFER,
                                   2, Two, nullptr) == CL_INVALID_VALUE);
  CHECK(clGetSupportedImageFormats(E.C, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D,
                                   0, Two, nullptr) == CL_INVALID_VALUE);
}

TEST_CASE("4.2: device image limits are at least the spec's minimums",
          "[.images]") {
  Env E;
  CHECK(deviceInfo<size_t>(E.D, CL_DEVICE_IMAGE2D_MAX_WIDTH) >= 16384);
  CHECK(deviceInfo<size_t>(E.D, CL_DEVICE_IMAGE2D_MAX_HEIGHT) >= 16384);
  CHECK(deviceInfo<size_t>(E.D, CL_DEVICE_IMAGE3D_MAX_WIDTH) >= 2048);
  CHECK(deviceInfo<size_t>(E.D, CL_DEVICE_IMAGE3D_MAX_HEIGHT) >= 2048);
  CHECK(deviceInfo<size_t>(E.D, CL_DEVICE_IMAGE3D_MAX_DEPTH) >= 2048);
  CHECK(deviceInfo<size_t>(E.D, CL_DEVICE_IMAGE_MAX_BUFFER_SIZE) >= 65536);
  CHECK(deviceInfo<size_t>(E.D, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE) >= 2048);
  CHECK(deviceInfo<cl_uint>(E.D, CL_DEVICE_MAX_READ_IMAGE_ARGS) >= 128);
  CHECK(deviceInfo<cl_uint>(E.D, CL_DEVICE_MAX_WRITE_IMAGE_ARGS) >= 64);
  CHECK(deviceInfo<cl_uint>(E.D, CL_DEVICE_MAX_SAMPLERS) >= 16);
  cl_uint Pitch = deviceInfo<cl_uint>(E.D, CL_DEVICE_IMAGE_PITCH_ALIGNMENT);
  CHECK(Pitch != 0);
  CHECK((Pitch & (Pitch - 1)) == 0);
}

TEST_CASE("5.3.1, 5.3.7: every image type is created and reports its "
          "descriptor",
          "[.images]") {
  Env E;
  for (const Shape &S : Shapes) {
    INFO(S.Name);
    cl_image_desc D = descOf(S);
    cl_mem M = E.image(RgbaF, D);
    CHECK(memInfo<cl_mem_object_type>(M, CL_MEM_TYPE) == S.Type);
    CHECK(memInfo<cl_mem_flags>(M, CL_MEM_FLAGS) == CL_MEM_READ_WRITE);
    CHECK(memInfo<size_t>(M, CL_MEM_SIZE) >=
          S.Ext[0] * S.Ext[1] * S.Ext[2] * 16);
    CHECK(memInfo<cl_mem>(M, CL_MEM_ASSOCIATED_MEMOBJECT) == nullptr);
    cl_image_format F = imageInfo<cl_image_format>(M, CL_IMAGE_FORMAT);
    CHECK(F.image_channel_order == CL_RGBA);
    CHECK(F.image_channel_data_type == CL_FLOAT);
    CHECK(imageInfo<size_t>(M, CL_IMAGE_ELEMENT_SIZE) == 16);
    CHECK(imageInfo<size_t>(M, CL_IMAGE_WIDTH) == D.image_width);
    CHECK(imageInfo<size_t>(M, CL_IMAGE_HEIGHT) == D.image_height);
    CHECK(imageInfo<size_t>(M, CL_IMAGE_DEPTH) == D.image_depth);
    CHECK(imageInfo<size_t>(M, CL_IMAGE_ARRAY_SIZE) == D.image_array_size);
    // "calculated as CL_IMAGE_WIDTH x CL_IMAGE_ELEMENT_SIZE"; the slice
    // pitch is the row pitch for 1D image arrays, height x row pitch for 3D
    // images and 2D image arrays, 0 otherwise.
    size_t RP = D.image_width * 16;
    CHECK(imageInfo<size_t>(M, CL_IMAGE_ROW_PITCH) == RP);
    size_t SP = S.Type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? RP
                : S.Type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                        S.Type == CL_MEM_OBJECT_IMAGE3D
                    ? RP * D.image_height
                    : 0;
    CHECK(imageInfo<size_t>(M, CL_IMAGE_SLICE_PITCH) == SP);
    CHECK(imageInfo<cl_mem>(M, CL_IMAGE_BUFFER) == nullptr);
    CHECK(imageInfo<cl_uint>(M, CL_IMAGE_NUM_MIP_LEVELS) == 0);
    CHECK(imageInfo<cl_uint>(M, CL_IMAGE_NUM_SAMPLES) == 0);
  }
  // The 1.x entry points.
  cl_int Err = -1;
  cl_mem M2 = clCreateImage2D(E.C, 0, &Rgba8, 8, 4, 0, nullptr, &Err);
  REQUIRE(Err == CL_SUCCESS);
  CHECK(memInfo<cl_mem_object_type>(M2, CL_MEM_TYPE) == CL_MEM_OBJECT_IMAGE2D);
  // "if the value specified for flags is 0, the default is used which is
  // CL_MEM_READ_WRITE".
  CHECK(memInfo<cl_mem_flags>(M2, CL_MEM_FLAGS) == CL_MEM_READ_WRITE);
  clReleaseMemObject(M2);
  cl_mem M3 = clCreateImage3D(E.C, 0, &Rgba8, 8, 4, 2, 0, 0, nullptr, &Err);
  REQUIRE(Err == CL_SUCCESS);
  CHECK(imageInfo<size_t>(M3, CL_IMAGE_DEPTH) == 2);
  clReleaseMemObject(M3);
  // CL_INVALID_IMAGE_SIZE if ... image_depth <= 1 (clCreateImage3D).
  CHECK(clCreateImage3D(E.C, 0, &Rgba8, 8, 4, 1, 0, 0, nullptr, &Err) ==
        nullptr);
  CHECK(Err == CL_INVALID_IMAGE_SIZE);
  // clCreateImageWithProperties: an empty list is kept, an unknown
  // property is CL_INVALID_PROPERTY.
  cl_mem_properties Empty[] = {0};
  cl_image_desc D2 = desc(CL_MEM_OBJECT_IMAGE2D, 4, 4);
  cl_mem M4 =
      clCreateImageWithProperties(E.C, Empty, 0, &Rgba8, &D2, nullptr, &Err);
  REQUIRE(Err == CL_SUCCESS);
  size_t N = 99;
  CHECK(clGetMemObjectInfo(M4, CL_MEM_PROPERTIES, 0, nullptr, &N) ==
        CL_SUCCESS);
  CHECK(N == sizeof(cl_mem_properties));
  clReleaseMemObject(M4);
  cl_mem_properties Bad[] = {0x7777, 1, 0};
  CHECK(clCreateImageWithProperties(E.C, Bad, 0, &Rgba8, &D2, nullptr, &Err) ==
        nullptr);
  CHECK(Err == CL_INVALID_PROPERTY);
}

TEST_CASE("5.3.3: clEnqueueWriteImage / clEnqueueReadImage with host pitches "
          "for every image type",
          "[.images]") {
  Env E;
  const size_t ES = 4;
  for (const Shape &S : Shapes) {
    INFO(S.Name);
    cl_mem M = E.image(Rgba8, descOf(S));
    bool OneDArray = S.Type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
    bool Layered = S.Type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                   S.Type == CL_MEM_OBJECT_IMAGE3D;
    // The whole image from a padded host layout: rows of RP bytes, slices
    // (or 1D array layers) of SP bytes.
    size_t RP = S.Ext[0] * ES + 12;
    size_t SP = OneDArray ? RP + 20 : RP * S.Ext[1] + 40;
    size_t S1 = OneDArray ? SP : RP, S2 = SP;
    std::vector<unsigned char> Src = pattern(S2 * S.Ext[2] + S1 * S.Ext[1], 3);
    size_t Zero[3] = {0, 0, 0};
    REQUIRE(clEnqueueWriteImage(E.Q, M, CL_TRUE, Zero, S.Ext, RP,
                                OneDArray || Layered ? SP : 0, Src.data(), 0,
                                nullptr, nullptr) == CL_SUCCESS);
    // A sub-box back, tightly packed (pitches 0).
    size_t O[3] = {1, size_t(S.Ext[1] > 1), size_t(S.Ext[2] > 1)};
    size_t R[3] = {S.Ext[0] - 1 - (S.Ext[0] > 3),
                   S.Ext[1] - O[1] - (S.Ext[1] > 3), S.Ext[2] - O[2]};
    std::vector<unsigned char> Out(R[0] * R[1] * R[2] * ES, 0xee);
    REQUIRE(clEnqueueReadImage(E.Q, M, CL_TRUE, O, R, 0, 0, Out.data(), 0,
                               nullptr, nullptr) == CL_SUCCESS);
    bool Ok = true;
    for (size_t Z = 0; Z < R[2]; ++Z)
      for (size_t Y = 0; Y < R[1]; ++Y)
        for (size_t X = 0; X < R[0]; ++X)
          for (size_t B = 0; B < ES; ++B) {
            size_t Want = at(O[0] + X, O[1] + Y, O[2] + Z, ES, S1, S2) + B;
            size_t Got = ((Z * R[1] + Y) * R[0] + X) * ES + B;
            Ok &= Out[Got] == Src[Want];
          }
    CHECK(Ok);
  }
  // A 1D image buffer reads and writes its buffer's bytes.
  cl_mem Buf = E.buffer(64 * ES);
  cl_image_desc D = desc(CL_MEM_OBJECT_IMAGE1D_BUFFER, 64);
  D.buffer = Buf;
  cl_mem M = E.image(Rgba8, D, 0);
  CHECK(imageInfo<cl_mem>(M, CL_IMAGE_BUFFER) == Buf);
  CHECK(memInfo<cl_mem>(M, CL_MEM_ASSOCIATED_MEMOBJECT) == Buf);
  // Flags are inherited from the buffer.
  CHECK(memInfo<cl_mem_flags>(M, CL_MEM_FLAGS) == CL_MEM_READ_WRITE);
  std::vector<unsigned char> Src = pattern(64 * ES, 9), Out(64 * ES);
  size_t O[3] = {0, 0, 0}, R[3] = {64, 1, 1};
  REQUIRE(clEnqueueWriteImage(E.Q, M, CL_TRUE, O, R, 0, 0, Src.data(), 0,
                              nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueReadBuffer(E.Q, Buf, CL_TRUE, 0, Out.size(), Out.data(), 0,
                              nullptr, nullptr) == CL_SUCCESS);
  CHECK(Out == Src);
}

TEST_CASE("5.3.1: CL_MEM_USE_HOST_PTR images use the host memory, "
          "CL_MEM_COPY_HOST_PTR copies it",
          "[.images]") {
  Env E;
  const size_t W = 10, H = 6, D = 3, ES = 4, RP = 48, SP = RP * (H + 1);
  std::vector<unsigned char> Host = pattern(SP * D, 5);
  cl_image_desc Desc = desc(CL_MEM_OBJECT_IMAGE3D, W, H, D);
  Desc.image_row_pitch = RP;
  Desc.image_slice_pitch = SP;
  SECTION("CL_MEM_USE_HOST_PTR: zero copy, the application's pitches") {
    cl_mem M = E.image(Rgba8, Desc, CL_MEM_USE_HOST_PTR, Host.data());
    CHECK(memInfo<void *>(M, CL_MEM_HOST_PTR) == Host.data());
    CHECK(imageInfo<size_t>(M, CL_IMAGE_ROW_PITCH) == RP);
    CHECK(imageInfo<size_t>(M, CL_IMAGE_SLICE_PITCH) == SP);
    size_t O[3] = {2, 1, 1}, R[3] = {3, 2, 2}, RowPitch = 0, SlicePitch = 0;
    cl_int Err = -1;
    void *P = clEnqueueMapImage(E.Q, M, CL_TRUE, CL_MAP_WRITE, O, R, &RowPitch,
                                &SlicePitch, 0, nullptr, nullptr, &Err);
    REQUIRE(Err == CL_SUCCESS);
    // "The pointer value returned by clEnqueueMapImage will be derived from
    // the host_ptr specified when the image object is created."
    CHECK(P == Host.data() + 1 * SP + 1 * RP + 2 * ES);
    CHECK(RowPitch == RP);
    CHECK(SlicePitch == SP);
    CHECK(memInfo<cl_uint>(M, CL_MEM_MAP_COUNT) == 1);
    static_cast<unsigned char *>(P)[0] = 0x42;
    REQUIRE(clEnqueueUnmapMemObject(E.Q, M, P, 0, nullptr, nullptr) ==
            CL_SUCCESS);
    REQUIRE(clFinish(E.Q) == CL_SUCCESS);
    CHECK(memInfo<cl_uint>(M, CL_MEM_MAP_COUNT) == 0);
    // A write lands in the host memory.
    unsigned char Px[4] = {1, 2, 3, 4};
    size_t O2[3] = {9, 5, 2}, R1[3] = {1, 1, 1};
    REQUIRE(clEnqueueWriteImage(E.Q, M, CL_TRUE, O2, R1, 0, 0, Px, 0, nullptr,
                                nullptr) == CL_SUCCESS);
    CHECK(std::memcmp(Host.data() + 2 * SP + 5 * RP + 9 * ES, Px, 4) == 0);
  }
  SECTION("CL_MEM_COPY_HOST_PTR: a copy that reports the given pitches") {
    cl_mem M = E.image(Rgba8, Desc, CL_MEM_COPY_HOST_PTR, Host.data());
    CHECK(memInfo<void *>(M, CL_MEM_HOST_PTR) == nullptr);
    // "If image was created with a non-zero value for image_row_pitch, then
    // the value provided for image_row_pitch by the application is
    // returned".
    CHECK(imageInfo<size_t>(M, CL_IMAGE_ROW_PITCH) == RP);
    CHECK(imageInfo<size_t>(M, CL_IMAGE_SLICE_PITCH) == SP);
    Host[0] ^= 0xff; // the image is a copy
    std::vector<unsigned char> Out(W * H * D * ES);
    size_t O[3] = {0, 0, 0}, R[3] = {W, H, D};
    REQUIRE(clEnqueueReadImage(E.Q, M, CL_TRUE, O, R, 0, 0, Out.data(), 0,
                               nullptr, nullptr) == CL_SUCCESS);
    Host[0] ^= 0xff;
    bool Ok = true;
    for (size_t Z = 0; Z < D; ++Z)
      for (size_t Y = 0; Y < H; ++Y)
        Ok &= std::memcmp(&Out[(Z * H + Y) * W * ES], &Host[Z * SP + Y * RP],
                          W * ES) == 0;
    CHECK(Ok);
  }
}

TEST_CASE("5.3.3: clEnqueueCopyImage between image types; overlap and "
          "format rules",
          "[.images]") {
  Env E;
  const size_t ES = 4;
  cl_mem A = E.image(Rgba8, desc(CL_MEM_OBJECT_IMAGE2D, 16, 8));
  cl_mem B = E.image(Rgba8, desc(CL_MEM_OBJECT_IMAGE3D, 8, 8, 4));
  std::vector<unsigned char> Src = pattern(16 * 8 * ES, 11);
  size_t Zero[3] = {0, 0, 0}, All[3] = {16, 8, 1};
  REQUIRE(clEnqueueWriteImage(E.Q, A, CL_TRUE, Zero, All, 0, 0, Src.data(), 0,
                              nullptr, nullptr) == CL_SUCCESS);
  // "one can copy a rectangular region from a 2D image to a slice of a 3D
  // image".
  size_t SO[3] = {4, 2, 0}, DO[3] = {1, 3, 2}, R[3] = {5, 4, 1};
  cl_event Ev = nullptr;
  REQUIRE(clEnqueueCopyImage(E.Q, A, B, SO, DO, R, 0, nullptr, &Ev) ==
          CL_SUCCESS);
  cl_command_type CT = 0;
  REQUIRE(clGetEventInfo(Ev, CL_EVENT_COMMAND_TYPE, sizeof CT, &CT, nullptr) ==
          CL_SUCCESS);
  CHECK(CT == CL_COMMAND_COPY_IMAGE);
  std::vector<unsigned char> Out(5 * 4 * ES);
  REQUIRE(clEnqueueReadImage(E.Q, B, CL_FALSE, DO, R, 0, 0, Out.data(), 1, &Ev,
                             nullptr) == CL_SUCCESS);
  REQUIRE(clFinish(E.Q) == CL_SUCCESS);
  clReleaseEvent(Ev);
  bool Ok = true;
  for (size_t Y = 0; Y < 4; ++Y)
    Ok &= std::memcmp(&Out[Y * 5 * ES], &Src[((2 + Y) * 16 + 4) * ES],
                      5 * ES) == 0;
  CHECK(Ok);
  // CL_MEM_COPY_OVERLAP if src_image and dst_image are the same image object
  // and the source and destination regions overlap.
  size_t O1[3] = {0, 0, 0}, O2[3] = {2, 1, 0}, R2[3] = {4, 4, 1};
  CHECK(clEnqueueCopyImage(E.Q, A, A, O1, O2, R2, 0, nullptr, nullptr) ==
        CL_MEM_COPY_OVERLAP);
  size_t O3[3] = {8, 0, 0};
  CHECK(clEnqueueCopyImage(E.Q, A, A, O1, O3, R2, 0, nullptr, nullptr) ==
        CL_SUCCESS);
  // CL_IMAGE_FORMAT_MISMATCH if src_image and dst_image do not use the same
  // image format.
  cl_mem F = E.image(RgbaF, desc(CL_MEM_OBJECT_IMAGE2D, 16, 8));
  CHECK(clEnqueueCopyImage(E.Q, A, F, O1, O1, R2, 0, nullptr, nullptr) ==
        CL_IMAGE_FORMAT_MISMATCH);
  // CL_INVALID_VALUE if the region refers to a region outside dst_image
  // (the 3D image is 8 wide).
  size_t R3[3] = {9, 1, 1};
  CHECK(clEnqueueCopyImage(E.Q, A, B, O1, O1, R3, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  REQUIRE(clFinish(E.Q) == CL_SUCCESS);
}

TEST_CASE("5.3.5: clEnqueueCopyImageToBuffer / clEnqueueCopyBufferToImage",
          "[.images]") {
  Env E;
  const size_t ES = 4;
  cl_mem M = E.image(Rgba8, desc(CL_MEM_OBJECT_IMAGE2D_ARRAY, 6, 5, 0, 3));
  cl_mem Buf = E.buffer(1024);
  std::vector<unsigned char> Src = pattern(1024, 13);
  REQUIRE(clEnqueueWriteBuffer(E.Q, Buf, CL_TRUE, 0, 1024, Src.data(), 0,
                               nullptr, nullptr) == CL_SUCCESS);
  size_t O[3] = {1, 1, 1}, R[3] = {4, 3, 2};
  REQUIRE(clEnqueueCopyBufferToImage(E.Q, Buf, M, 100, O, R, 0, nullptr,
                                     nullptr) == CL_SUCCESS);
  cl_mem Dst = E.buffer(1024);
  REQUIRE(clEnqueueCopyImageToBuffer(E.Q, M, Dst, O, R, 8, 0, nullptr,
                                     nullptr) == CL_SUCCESS);
  std::vector<unsigned char> Out(1024);
  REQUIRE(clEnqueueReadBuffer(E.Q, Dst, CL_TRUE, 0, 1024, Out.data(), 0,
                              nullptr, nullptr) == CL_SUCCESS);
  // "src_cb is computed as width x height x arraysize x bytes/image
  // element": tightly packed on the buffer side.
  size_t Cb = 4 * 3 * 2 * ES;
  CHECK(std::memcmp(&Out[8], &Src[100], Cb) == 0);
  // And in the image, at the origin.
  std::vector<unsigned char> Px(ES);
  size_t O2[3] = {1 + 3, 1 + 2, 1 + 1}, R1[3] = {1, 1, 1};
  REQUIRE(clEnqueueReadImage(E.Q, M, CL_TRUE, O2, R1, 0, 0, Px.data(), 0,
                             nullptr, nullptr) == CL_SUCCESS);
  CHECK(std::memcmp(Px.data(), &Src[100 + ((1 * 3 + 2) * 4 + 3) * ES], ES) ==
        0);
  // CL_INVALID_VALUE if the region specified by dst_offset and the computed
  // dst_cb is out of bounds of dst_buffer (also when the offset wraps).
  CHECK(clEnqueueCopyImageToBuffer(E.Q, M, Dst, O, R, 1024 - Cb + 1, 0, nullptr,
                                   nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueCopyImageToBuffer(E.Q, M, Dst, O, R, SIZE_MAX - 4, 0, nullptr,
                                   nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueCopyBufferToImage(E.Q, Buf, M, SIZE_MAX, O, R, 0, nullptr,
                                   nullptr) == CL_INVALID_VALUE);
  // CL_INVALID_MEM_OBJECT if src_image is a 1D image buffer object created
  // from dst_buffer; an image is not a buffer object.
  cl_image_desc D = desc(CL_MEM_OBJECT_IMAGE1D_BUFFER, 16);
  D.buffer = Buf;
  cl_mem IB = E.image(Rgba8, D, 0);
  size_t O0[3] = {0, 0, 0}, R0[3] = {4, 1, 1};
  CHECK(clEnqueueCopyImageToBuffer(E.Q, IB, Buf, O0, R0, 0, 0, nullptr,
                                   nullptr) == CL_INVALID_MEM_OBJECT);
  CHECK(clEnqueueCopyBufferToImage(E.Q, Buf, IB, 0, O0, R0, 0, nullptr,
                                   nullptr) == CL_INVALID_MEM_OBJECT);
  CHECK(clEnqueueCopyImageToBuffer(E.Q, IB, M, O0, R0, 0, 0, nullptr,
                                   nullptr) == CL_INVALID_MEM_OBJECT);
  CHECK(clEnqueueCopyBuffer(E.Q, M, Buf, 0, 0, 4, 0, nullptr, nullptr) ==
        CL_INVALID_MEM_OBJECT);
  CHECK(clEnqueueReadBuffer(E.Q, M, CL_TRUE, 0, 4, Px.data(), 0, nullptr,
                            nullptr) == CL_INVALID_MEM_OBJECT);
  REQUIRE(clFinish(E.Q) == CL_SUCCESS);
}

TEST_CASE("5.3.4: clEnqueueFillImage converts the color to the format",
          "[.images]") {
  Env E;
  size_t O[3] = {1, 1, 0}, R[3] = {2, 2, 1}, All[3] = {4, 4, 1},
         Origin0[3] = {0, 0, 0};
  auto fillAndRead = [&](const cl_image_format &F, const void *Color,
                         size_t ES) {
    cl_mem M = E.image(F, desc(CL_MEM_OBJECT_IMAGE2D, 4, 4));
    std::vector<unsigned char> Zero(16 * ES, 0);
    REQUIRE(clEnqueueWriteImage(E.Q, M, CL_TRUE, Origin0, All, 0, 0,
                                Zero.data(), 0, nullptr,
                                nullptr) == CL_SUCCESS);
    REQUIRE(clEnqueueFillImage(E.Q, M, Color, O, R, 0, nullptr, nullptr) ==
            CL_SUCCESS);
    std::vector<unsigned char> Out(16 * ES);
    REQUIRE(clEnqueueReadImage(E.Q, M, CL_TRUE, Origin0, All, 0, 0, Out.data(),
                               0, nullptr, nullptr) == CL_SUCCESS);
    // Only the region is filled.
    for (size_t Y = 0; Y < 4; ++Y)
      for (size_t X = 0; X < 4; ++X) {
        bool In = X >= 1 && X < 3 && Y >= 1 && Y < 3;
        if (!In)
          CHECK(std::all_of(&Out[(Y * 4 + X) * ES], &Out[(Y * 4 + X) * ES] + ES,
                            [](unsigned char B) { return B == 0; }));
      }
    return std::vector<unsigned char>(&Out[5 * ES], &Out[6 * ES]);
  };
  // Normalized: "round to nearest even" of c x 255 after clamping.
  float Cf[4] = {1.0f, 0.5f, -3.0f, 0.2f};
  CHECK(fillAndRead(Rgba8, Cf, 4) ==
        std::vector<unsigned char>{255, 128, 0, 51});
  CHECK(fillAndRead({CL_BGRA, CL_UNORM_INT8}, Cf, 4) ==
        std::vector<unsigned char>{0, 128, 255, 51});
  std::vector<unsigned char> F = fillAndRead(RgbaF, Cf, 16);
  CHECK(std::memcmp(F.data(), Cf, 16) == 0);
  int32_t Ci[4] = {-200, 70000, 5, -1};
  std::vector<unsigned char> I8 = fillAndRead({CL_RGBA, CL_SIGNED_INT8}, Ci, 4);
  CHECK(static_cast<int8_t>(I8[0]) == -128);
  CHECK(static_cast<int8_t>(I8[1]) == 127);
  CHECK(static_cast<int8_t>(I8[2]) == 5);
  CHECK(static_cast<int8_t>(I8[3]) == -1);
  uint32_t Cu[4] = {70000, 65535, 1, 0};
  std::vector<unsigned char> U16 =
      fillAndRead({CL_RGBA, CL_UNSIGNED_INT16}, Cu, 8);
  uint16_t U[4];
  std::memcpy(U, U16.data(), 8);
  CHECK(U[0] == 65535);
  CHECK(U[1] == 65535);
  CHECK(U[2] == 1);
  CHECK(U[3] == 0);
  float Ch[4] = {1.0f, -2.0f, 65504.0f, 1e-7f};
  std::vector<unsigned char> Hf = fillAndRead({CL_RGBA, CL_HALF_FLOAT}, Ch, 8);
  uint16_t Hv[4];
  std::memcpy(Hv, Hf.data(), 8);
  CHECK(Hv[0] == 0x3c00);
  CHECK(Hv[1] == 0xc000);
  CHECK(Hv[2] == 0x7bff);
  CHECK(Hv[3] == 0x0002); // 1e-7 is 1.68 units of 2^-24: denormal 2
  // CL_UNORM_SHORT_565: "R is in bits 15:11, G is in bits 10:5 and B is in
  // bits 4:0".
  float C565[4] = {1.0f, 0.0f, 1.0f, 0.0f};
  std::vector<unsigned char> P =
      fillAndRead({CL_RGB, CL_UNORM_SHORT_565}, C565, 2);
  uint16_t V;
  std::memcpy(&V, P.data(), 2);
  CHECK(V == 0xf81f);
  // CL_DEPTH: "The fill color is a single floating-point value".
  float Depth = 0.25f;
  std::vector<unsigned char> Dp = fillAndRead({CL_DEPTH, CL_FLOAT}, &Depth, 4);
  CHECK(std::memcmp(Dp.data(), &Depth, 4) == 0);
  // CL_INVALID_VALUE if fill_color is NULL.
  cl_mem M = E.image(Rgba8, desc(CL_MEM_OBJECT_IMAGE2D, 4, 4));
  CHECK(clEnqueueFillImage(E.Q, M, nullptr, O, R, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
}

TEST_CASE("5.3.1.1, 5.3.2: CL_sRGB with CL_UNORM_INT8 (3-byte elements) is "
          "listed for every image type and access, reports its element size, "
          "and keeps its bytes through write, read, copy, map and fill "
          "(which encodes linear to sRGB); CL_sRGBx is not listed",
          "[.images]") {
  Env E;
  // "CL_sRGB, CL_sRGBx, CL_sRGBA, CL_sBGRA: This format can only be used if
  // channel data type = CL_UNORM_INT8"; cl_khr_srgb_image_writes lists the
  // sRGB formats kernels write.
  for (cl_mem_object_type T :
       {CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_BUFFER,
        CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_MEM_OBJECT_IMAGE2D,
        CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE3D})
    for (cl_mem_flags F : {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY,
                           CL_MEM_READ_WRITE, CL_MEM_KERNEL_READ_AND_WRITE}) {
      INFO("type 0x" << std::hex << T << " flags 0x" << F);
      auto L = formats(E.C, F, T);
      CHECK(hasFormat(L, CL_sRGB, CL_UNORM_INT8));
      CHECK_FALSE(hasFormat(L, CL_RGB, CL_UNORM_INT8));
      // CL_sRGBx's border color: the spec's and the CTS's differ
      // (runtime/Image.cpp).
      CHECK_FALSE(hasFormat(L, CL_sRGBx, CL_UNORM_INT8));
    }
  cl_image_desc D2 = desc(CL_MEM_OBJECT_IMAGE2D, 16, 16);
  const cl_image_format Srgbx = {CL_sRGBx, CL_UNORM_INT8};
  CHECK(E.imageError(&Srgbx, &D2) == CL_IMAGE_FORMAT_NOT_SUPPORTED);
  for (cl_channel_order O : {CL_sRGB, CL_sRGBx})
    for (cl_channel_type T : {CL_UNORM_INT16, CL_SNORM_INT8, CL_UNSIGNED_INT8,
                              CL_FLOAT, CL_UNORM_SHORT_565}) {
      const cl_image_format Bad = {O, T};
      CHECK(E.imageError(&Bad, &D2) == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    }

  // The host-side commands on every image type: the bytes are the host's.
  {
    const cl_image_format Fm = {CL_sRGB, CL_UNORM_INT8};
    const size_t ES = 3;
    for (const Shape &S : Shapes) {
      INFO(S.Name);
      cl_mem M = E.image(Fm, descOf(S));
      CHECK(imageInfo<size_t>(M, CL_IMAGE_ELEMENT_SIZE) == ES);
      CHECK(imageInfo<size_t>(M, CL_IMAGE_ROW_PITCH) == S.Ext[0] * ES);
      bool OneDArray = S.Type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
      bool Layered = S.Type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                     S.Type == CL_MEM_OBJECT_IMAGE3D;
      // The whole image from a padded host layout, rows not a multiple of
      // 4 bytes apart.
      size_t RP = S.Ext[0] * ES + 7;
      size_t SP = OneDArray ? RP + 5 : RP * S.Ext[1] + 11;
      size_t S1 = OneDArray ? SP : RP, S2 = SP;
      std::vector<unsigned char> Src =
          pattern(S2 * S.Ext[2] + S1 * S.Ext[1], 5);
      size_t Zero[3] = {0, 0, 0};
      REQUIRE(clEnqueueWriteImage(E.Q, M, CL_TRUE, Zero, S.Ext, RP,
                                  OneDArray || Layered ? SP : 0, Src.data(), 0,
                                  nullptr, nullptr) == CL_SUCCESS);
      // A sub-box back, tightly packed.
      size_t O[3] = {1, size_t(S.Ext[1] > 1), size_t(S.Ext[2] > 1)};
      size_t R[3] = {S.Ext[0] - 2, S.Ext[1] - O[1], S.Ext[2] - O[2]};
      auto wantBox = [&] {
        std::vector<unsigned char> W;
        for (size_t Z = 0; Z < R[2]; ++Z)
          for (size_t Y = 0; Y < R[1]; ++Y)
            for (size_t X = 0; X < R[0]; ++X)
              for (size_t B = 0; B < ES; ++B)
                W.push_back(
                    Src[at(O[0] + X, O[1] + Y, O[2] + Z, ES, S1, S2) + B]);
        return W;
      };
      std::vector<unsigned char> Want = wantBox();
      std::vector<unsigned char> Out(Want.size(), 0xee);
      REQUIRE(clEnqueueReadImage(E.Q, M, CL_TRUE, O, R, 0, 0, Out.data(), 0,
                                 nullptr, nullptr) == CL_SUCCESS);
      CHECK(Out == Want);
      // The same box copied to a buffer (5.3.5), and through a map (5.5.3).
      cl_mem B = E.buffer(Want.size());
      REQUIRE(clEnqueueCopyImageToBuffer(E.Q, M, B, O, R, 0, 0, nullptr,
                                         nullptr) == CL_SUCCESS);
      std::vector<unsigned char> Copied(Want.size());
      REQUIRE(clEnqueueReadBuffer(E.Q, B, CL_TRUE, 0, Copied.size(),
                                  Copied.data(), 0, nullptr,
                                  nullptr) == CL_SUCCESS);
      CHECK(Copied == Want);
      size_t MRP = 0, MSP = 0;
      cl_int Err = -1;
      auto *P = static_cast<unsigned char *>(
          clEnqueueMapImage(E.Q, M, CL_TRUE, CL_MAP_READ, O, R, &MRP, &MSP, 0,
                            nullptr, nullptr, &Err));
      REQUIRE(Err == CL_SUCCESS);
      std::vector<unsigned char> Mapped;
      size_t M1 = OneDArray ? MSP : MRP;
      for (size_t Z = 0; Z < R[2]; ++Z)
        for (size_t Y = 0; Y < R[1]; ++Y)
          Mapped.insert(Mapped.end(), P + Z * MSP + Y * M1,
                        P + Z * MSP + Y * M1 + R[0] * ES);
      CHECK(Mapped == Want);
      REQUIRE(clEnqueueUnmapMemObject(E.Q, M, P, 0, nullptr, nullptr) ==
              CL_SUCCESS);
      // Fill (5.3.4): "The fill color will be converted to the
      // appropriate image channel format and order": R, G, B encoded
      // linear to sRGB ("Conversion Rules for sRGBA and sBGRA Images"),
      // then rounded to nearest even; the rest of the image unchanged.
      const float Color[4] = {0.002f, 0.25f, 0.8f, 0.5f};
      REQUIRE(clEnqueueFillImage(E.Q, M, Color, O, R, 0, nullptr, nullptr) ==
              CL_SUCCESS);
      std::vector<unsigned char> All(S.Ext[0] * S.Ext[1] * S.Ext[2] * ES);
      REQUIRE(clEnqueueReadImage(E.Q, M, CL_TRUE, Zero, S.Ext, 0, 0, All.data(),
                                 0, nullptr, nullptr) == CL_SUCCESS);
      unsigned char Enc[3];
      for (int C = 0; C < 3; ++C) {
        double L = Color[C];
        double V =
            L < 0.0031308 ? 12.92 * L : 1.055 * std::pow(L, 1.0 / 2.4) - 0.055;
        Enc[C] = static_cast<unsigned char>(std::nearbyint(V * 255.0));
      }
      bool Ok = true;
      for (size_t Z = 0; Z < S.Ext[2]; ++Z)
        for (size_t Y = 0; Y < S.Ext[1]; ++Y)
          for (size_t X = 0; X < S.Ext[0]; ++X) {
            bool In = X >= O[0] && X < O[0] + R[0] && Y >= O[1] &&
                      Y < O[1] + R[1] && Z >= O[2] && Z < O[2] + R[2];
            const unsigned char *G =
                &All[((Z * S.Ext[1] + Y) * S.Ext[0] + X) * ES];
            for (size_t C = 0; C < ES; ++C)
              Ok &= G[C] == (In ? Enc[C] : Src[at(X, Y, Z, ES, S1, S2) + C]);
          }
      CHECK(Ok);
    }
    // A 1D image buffer of 3-byte elements is its buffer's bytes.
    const size_t W = 41;
    std::vector<unsigned char> Src = pattern(W * ES, 17);
    cl_mem Buf =
        E.buffer(W * ES, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, Src.data());
    cl_image_desc D = desc(CL_MEM_OBJECT_IMAGE1D_BUFFER, W);
    D.buffer = Buf;
    cl_mem M = E.image(Fm, D, 0);
    CHECK(imageInfo<size_t>(M, CL_IMAGE_ELEMENT_SIZE) == ES);
    std::vector<unsigned char> Out(W * ES);
    size_t O[3] = {0, 0, 0}, R[3] = {W, 1, 1};
    REQUIRE(clEnqueueReadImage(E.Q, M, CL_TRUE, O, R, 0, 0, Out.data(), 0,
                               nullptr, nullptr) == CL_SUCCESS);
    CHECK(Out == Src);
  }
}

TEST_CASE("5.3.1: 2D images from buffers and from other 2D images",
          "[.images]") {
  Env E;
  const size_t W = 8, H = 4, ES = 4, RP = 48;
  cl_mem Buf = E.buffer(RP * H);
  cl_image_desc D = desc(CL_MEM_OBJECT_IMAGE2D, W, H);
  D.buffer = Buf;
  D.image_row_pitch = RP;
  cl_mem M = E.image(Rgba8, D, CL_MEM_READ_ONLY);
  CHECK(imageInfo<size_t>(M, CL_IMAGE_ROW_PITCH) == RP);
  CHECK(imageInfo<cl_mem>(M, CL_IMAGE_BUFFER) == Buf);
  // The image's pixels are the buffer's bytes.
  std::vector<unsigned char> Src = pattern(RP * H, 21);
  REQUIRE(clEnqueueWriteBuffer(E.Q, Buf, CL_TRUE, 0, Src.size(), Src.data(), 0,
                               nullptr, nullptr) == CL_SUCCESS);
  unsigned char Px[4];
  size_t O[3] = {3, 2, 0}, R1[3] = {1, 1, 1};
  REQUIRE(clEnqueueReadImage(E.Q, M, CL_TRUE, O, R1, 0, 0, Px, 0, nullptr,
                             nullptr) == CL_SUCCESS);
  CHECK(std::memcmp(Px, &Src[2 * RP + 3 * ES], ES) == 0);
  // "image_row_pitch x image_height must be <= size of the buffer object".
  D.image_height = H + 1;
  CHECK(E.imageError(&Rgba8, &D, CL_MEM_READ_ONLY) == CL_INVALID_IMAGE_SIZE);
  D.image_height = H;
  // A row pitch that is not a multiple of the element size.
  D.image_row_pitch = RP + 2;
  CHECK(E.imageError(&Rgba8, &D, CL_MEM_READ_ONLY) ==
        CL_INVALID_IMAGE_DESCRIPTOR);
  D.image_row_pitch = RP;
  // CL_INVALID_VALUE: mem_object was created with CL_MEM_READ_ONLY and flags
  // specifies CL_MEM_READ_WRITE; flags specifies CL_MEM_USE_HOST_PTR.
  cl_mem RO = E.buffer(RP * H, CL_MEM_READ_ONLY);
  D.buffer = RO;
  CHECK(E.imageError(&Rgba8, &D, CL_MEM_READ_WRITE) == CL_INVALID_VALUE);
  CHECK(E.imageError(&Rgba8, &D, CL_MEM_ALLOC_HOST_PTR) == CL_INVALID_VALUE);
  // Other image types cannot take a buffer here.
  cl_image_desc D3 = desc(CL_MEM_OBJECT_IMAGE3D, 2, 2, 2);
  D3.buffer = Buf;
  CHECK(E.imageError(&Rgba8, &D3) == CL_INVALID_IMAGE_DESCRIPTOR);

  // A view with a compatible channel order: the same bytes.
  cl_mem Lin = E.image(Rgba8, desc(CL_MEM_OBJECT_IMAGE2D, W, H));
  cl_image_desc DV = desc(CL_MEM_OBJECT_IMAGE2D, W, H);
  DV.mem_object = Lin;
  const cl_image_format Srgb = {CL_sRGBA, CL_UNORM_INT8};
  cl_mem View = E.image(Srgb, DV, CL_MEM_READ_ONLY);
  CHECK(memInfo<cl_mem>(View, CL_MEM_ASSOCIATED_MEMOBJECT) == Lin);
  unsigned char In[4] = {9, 8, 7, 6};
  REQUIRE(clEnqueueWriteImage(E.Q, Lin, CL_TRUE, O, R1, 0, 0, In, 0, nullptr,
                              nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueReadImage(E.Q, View, CL_TRUE, O, R1, 0, 0, Px, 0, nullptr,
                             nullptr) == CL_SUCCESS);
  CHECK(std::memcmp(Px, In, 4) == 0);
  // "The image channel data type specified in image_format must match";
  // the order must be compatible; the descriptor must match.
  const cl_image_format Other = {CL_sRGBA, CL_UNORM_INT16};
  CHECK(E.imageError(&Other, &DV, CL_MEM_READ_ONLY) ==
        CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  const cl_image_format Bgra = {CL_BGRA, CL_UNORM_INT8};
  CHECK(E.imageError(&Bgra, &DV) == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  DV.image_width = W - 1;
  CHECK(E.imageError(&Srgb, &DV, CL_MEM_READ_ONLY) ==
        CL_INVALID_IMAGE_DESCRIPTOR);
}

TEST_CASE("5.3.1: clCreateImage bad inputs get the spec's errors",
          "[.images]") {
  Env E;
  cl_image_desc D = desc(CL_MEM_OBJECT_IMAGE2D, 16, 16);
  // CL_INVALID_IMAGE_FORMAT_DESCRIPTOR if image_format is NULL / not valid.
  CHECK(E.imageError(nullptr, &D) == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  const cl_image_format BadOrder = {0x1234, CL_UNORM_INT8};
  CHECK(E.imageError(&BadOrder, &D) == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  // "The number of bits per element ... must be a power of two" (3 bytes).
  const cl_image_format Rgb8 = {CL_RGB, CL_UNORM_INT8};
  CHECK(E.imageError(&Rgb8, &D) == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  // CL_UNORM_SHORT_565 "The channel order must be CL_RGB or CL_RGBx."
  const cl_image_format Bad565 = {CL_RGBA, CL_UNORM_SHORT_565};
  CHECK(E.imageError(&Bad565, &D) == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  // CL_IMAGE_FORMAT_NOT_SUPPORTED: a valid format the device lacks.
  const cl_image_format Argb16 = {CL_ARGB, CL_UNORM_INT8};
  CHECK(E.imageError(&Argb16, &D) == CL_IMAGE_FORMAT_NOT_SUPPORTED);
  const cl_image_format Depth = {CL_DEPTH, CL_FLOAT};
  cl_image_desc D1 = desc(CL_MEM_OBJECT_IMAGE1D, 16);
  CHECK(E.imageError(&Depth, &D1) == CL_IMAGE_FORMAT_NOT_SUPPORTED);
  // CL_INVALID_IMAGE_DESCRIPTOR if image_desc is NULL or not valid.
  CHECK(E.imageError(&Rgba8, nullptr) == CL_INVALID_IMAGE_DESCRIPTOR);
  cl_image_desc DT = desc(CL_MEM_OBJECT_BUFFER, 16, 16);
  CHECK(E.imageError(&Rgba8, &DT) == CL_INVALID_IMAGE_DESCRIPTOR);
  cl_image_desc DM = D;
  DM.num_mip_levels = 2;
  CHECK(E.imageError(&Rgba8, &DM) == CL_INVALID_IMAGE_DESCRIPTOR);
  cl_image_desc DS = D;
  DS.num_samples = 4;
  CHECK(E.imageError(&Rgba8, &DS) == CL_INVALID_IMAGE_DESCRIPTOR);
  cl_image_desc DB = desc(CL_MEM_OBJECT_IMAGE1D_BUFFER, 16);
  CHECK(E.imageError(&Rgba8, &DB) == CL_INVALID_IMAGE_DESCRIPTOR);
  // "The image_row_pitch must be zero if host_ptr is NULL".
  cl_image_desc DR = D;
  DR.image_row_pitch = 64;
  CHECK(E.imageError(&Rgba8, &DR) == CL_INVALID_IMAGE_DESCRIPTOR);
  std::vector<unsigned char> Host(16 * 1024);
  // Less than image_width x element size; not a multiple of it.
  DR.image_row_pitch = 60;
  CHECK(E.imageError(&Rgba8, &DR, CL_MEM_COPY_HOST_PTR, Host.data()) ==
        CL_INVALID_IMAGE_DESCRIPTOR);
  DR.image_row_pitch = 66;
  CHECK(E.imageError(&Rgba8, &DR, CL_MEM_COPY_HOST_PTR, Host.data()) ==
        CL_INVALID_IMAGE_DESCRIPTOR);
  // The slice pitch of a 3D image: at least row pitch x height, a multiple
  // of the row pitch.
  cl_image_desc D3 = desc(CL_MEM_OBJECT_IMAGE3D, 4, 4, 4);
  D3.image_slice_pitch = 60;
  CHECK(E.imageError(&Rgba8, &D3, CL_MEM_USE_HOST_PTR, Host.data()) ==
        CL_INVALID_IMAGE_DESCRIPTOR);
  D3.image_slice_pitch = 72;
  CHECK(E.imageError(&Rgba8, &D3, CL_MEM_USE_HOST_PTR, Host.data()) ==
        CL_INVALID_IMAGE_DESCRIPTOR);
  // clCreateImage2D reports pitch rules as CL_INVALID_IMAGE_SIZE.
  cl_int Err = CL_SUCCESS;
  CHECK(clCreateImage2D(E.C, 0, &Rgba8, 16, 16, 64, nullptr, &Err) == nullptr);
  CHECK(Err == CL_INVALID_IMAGE_SIZE);
  // CL_INVALID_IMAGE_SIZE: 0 or above the device limits (and huge values
  // that would overflow a size computation).
  for (size_t W : {size_t(0), size_t(16385), SIZE_MAX}) {
    cl_image_desc DW = desc(CL_MEM_OBJECT_IMAGE2D, W, 4);
    CHECK(E.imageError(&Rgba8, &DW) == CL_INVALID_IMAGE_SIZE);
  }
  cl_image_desc DH = desc(CL_MEM_OBJECT_IMAGE3D, 4, 4, 0);
  CHECK(E.imageError(&Rgba8, &DH) == CL_INVALID_IMAGE_SIZE);
  cl_image_desc DA = desc(CL_MEM_OBJECT_IMAGE2D_ARRAY, 4, 4, 0, 0);
  CHECK(E.imageError(&Rgba8, &DA) == CL_INVALID_IMAGE_SIZE);
  cl_image_desc DA2 = desc(CL_MEM_OBJECT_IMAGE1D_ARRAY, 4, 0, 0, 2049);
  CHECK(E.imageError(&Rgba8, &DA2) == CL_INVALID_IMAGE_SIZE);
  // A huge slice pitch makes the image bigger than any allocation.
  cl_image_desc DP = desc(CL_MEM_OBJECT_IMAGE3D, 4, 4, 4);
  DP.image_row_pitch = 16;
  DP.image_slice_pitch = size_t(1) << 62;
  CHECK(E.imageError(&Rgba8, &DP, CL_MEM_USE_HOST_PTR, Host.data()) ==
        CL_INVALID_IMAGE_SIZE);
  // CL_INVALID_HOST_PTR.
  CHECK(E.imageError(&Rgba8, &D, CL_MEM_USE_HOST_PTR, nullptr) ==
        CL_INVALID_HOST_PTR);
  CHECK(E.imageError(&Rgba8, &D, CL_MEM_READ_WRITE, Host.data()) ==
        CL_INVALID_HOST_PTR);
  // CL_INVALID_VALUE: bad flags (CL_MEM_KERNEL_READ_AND_WRITE is for
  // clGetSupportedImageFormats only).
  CHECK(E.imageError(&Rgba8, &D, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY) ==
        CL_INVALID_VALUE);
  CHECK(E.imageError(&Rgba8, &D, CL_MEM_KERNEL_READ_AND_WRITE) ==
        CL_INVALID_VALUE);
  // An sRGB image kernels write (cl_khr_srgb_image_writes).
  const cl_image_format Srgb = {CL_sRGBA, CL_UNORM_INT8};
  cl_mem S = E.image(Srgb, D, CL_MEM_WRITE_ONLY);
  CHECK(S);
  // clCreateSubBuffer of an image, clGetImageInfo of a buffer.
  cl_buffer_region Reg{0, 4};
  CHECK(clCreateSubBuffer(S, 0, CL_BUFFER_CREATE_TYPE_REGION, &Reg, &Err) ==
        nullptr);
  CHECK(Err == CL_INVALID_MEM_OBJECT);
  cl_mem Buf = E.buffer(64);
  size_t V = 0;
  CHECK(clGetImageInfo(Buf, CL_IMAGE_WIDTH, sizeof V, &V, nullptr) ==
        CL_INVALID_MEM_OBJECT);
  CHECK(clGetImageInfo(S, 0x7777, sizeof V, &V, nullptr) == CL_INVALID_VALUE);
  CHECK(clGetImageInfo(S, CL_IMAGE_WIDTH, 1, &V, nullptr) == CL_INVALID_VALUE);
}

TEST_CASE("5.3.3: image command origin, region and pitch rules", "[.images]") {
  Env E;
  cl_mem M2 = E.image(Rgba8, desc(CL_MEM_OBJECT_IMAGE2D, 8, 8));
  cl_mem M1 = E.image(Rgba8, desc(CL_MEM_OBJECT_IMAGE1D, 8));
  cl_mem MA = E.image(Rgba8, desc(CL_MEM_OBJECT_IMAGE1D_ARRAY, 8, 0, 0, 4));
  cl_mem M3 = E.image(Rgba8, desc(CL_MEM_OBJECT_IMAGE3D, 4, 4, 4));
  std::vector<unsigned char> Host(8 * 8 * 4 * 4);
  auto read = [&](cl_mem M, std::initializer_list<size_t> O,
                  std::initializer_list<size_t> R, size_t RP = 0, size_t SP = 0,
                  void *P = nullptr) {
    size_t Ov[3], Rv[3];
    std::copy(O.begin(), O.end(), Ov);
    std::copy(R.begin(), R.end(), Rv);
    return clEnqueueReadImage(E.Q, M, CL_TRUE, Ov, Rv, RP, SP,
                              P ? P : Host.data(), 0, nullptr, nullptr);
  };
  CHECK(read(M2, {0, 0, 0}, {8, 8, 1}) == CL_SUCCESS);
  // "If image is a 2D image object, origin[2] must be 0 ... region[2] must
  // be 1."
  CHECK(read(M2, {0, 0, 1}, {1, 1, 1}) == CL_INVALID_VALUE);
  CHECK(read(M2, {0, 0, 0}, {1, 1, 2}) == CL_INVALID_VALUE);
  // 1D: origin[1], origin[2] 0 and region[1], region[2] 1.
  CHECK(read(M1, {0, 1, 0}, {1, 1, 1}) == CL_INVALID_VALUE);
  CHECK(read(M1, {0, 0, 0}, {1, 2, 1}) == CL_INVALID_VALUE);
  // 1D array: origin[1] is the layer.
  CHECK(read(MA, {0, 3, 0}, {8, 1, 1}) == CL_SUCCESS);
  CHECK(read(MA, {0, 3, 0}, {8, 2, 1}) == CL_INVALID_VALUE);
  CHECK(read(MA, {0, 0, 1}, {8, 1, 1}) == CL_INVALID_VALUE);
  // Out of bounds, and components that would wrap around.
  CHECK(read(M2, {1, 0, 0}, {8, 1, 1}) == CL_INVALID_VALUE);
  CHECK(read(M2, {SIZE_MAX, 0, 0}, {2, 1, 1}) == CL_INVALID_VALUE);
  CHECK(read(M3, {0, 0, 2}, {1, 1, SIZE_MAX}) == CL_INVALID_VALUE);
  // "The values in region cannot be 0."
  CHECK(read(M3, {0, 0, 0}, {1, 0, 1}) == CL_INVALID_VALUE);
  // CL_INVALID_VALUE if image is a 1D or 2D image and slice_pitch is not 0.
  CHECK(read(M2, {0, 0, 0}, {2, 2, 1}, 0, 64) == CL_INVALID_VALUE);
  // row_pitch below the row; slice_pitch below row_pitch x height.
  CHECK(read(M2, {0, 0, 0}, {2, 2, 1}, 4) == CL_INVALID_VALUE);
  CHECK(read(M3, {0, 0, 0}, {2, 2, 2}, 8, 12) == CL_INVALID_VALUE);
  CHECK(read(MA, {0, 0, 0}, {2, 2, 1}, 8, 4) == CL_INVALID_VALUE);
  // Host pitches whose extent overflows the address space.
  CHECK(read(M3, {0, 0, 0}, {2, 2, 3}, 8, SIZE_MAX / 2) == CL_INVALID_VALUE);
  // NULL origin, region, ptr.
  size_t R[3] = {1, 1, 1};
  CHECK(clEnqueueReadImage(E.Q, M2, CL_TRUE, nullptr, R, 0, 0, Host.data(), 0,
                           nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueReadImage(E.Q, M2, CL_TRUE, R, nullptr, 0, 0, Host.data(), 0,
                           nullptr, nullptr) == CL_INVALID_VALUE);
  size_t Z[3] = {0, 0, 0};
  CHECK(clEnqueueReadImage(E.Q, M2, CL_TRUE, Z, R, 0, 0, nullptr, 0, nullptr,
                           nullptr) == CL_INVALID_VALUE);
  // Event wait list rules as for every command.
  CHECK(clEnqueueReadImage(E.Q, M2, CL_TRUE, Z, R, 0, 0, Host.data(), 1,
                           nullptr, nullptr) == CL_INVALID_EVENT_WAIT_LIST);
  // Host access flags.
  cl_mem NoRead =
      E.image(Rgba8, desc(CL_MEM_OBJECT_IMAGE2D, 8, 8), CL_MEM_HOST_WRITE_ONLY);
  CHECK(read(NoRead, {0, 0, 0}, {1, 1, 1}) == CL_INVALID_OPERATION);
  cl_mem NoWrite =
      E.image(Rgba8, desc(CL_MEM_OBJECT_IMAGE2D, 8, 8), CL_MEM_HOST_READ_ONLY);
  CHECK(clEnqueueWriteImage(E.Q, NoWrite, CL_TRUE, Z, R, 0, 0, Host.data(), 0,
                            nullptr, nullptr) == CL_INVALID_OPERATION);
  size_t RP = 0, SP = 0;
  cl_int Err = CL_SUCCESS;
  CHECK(clEnqueueMapImage(E.Q, NoWrite, CL_TRUE, CL_MAP_WRITE, Z, R, &RP,
                          nullptr, 0, nullptr, nullptr, &Err) == nullptr);
  CHECK(Err == CL_INVALID_OPERATION);
  // Map: image_row_pitch must not be NULL; nor image_slice_pitch for a 3D
  // image or an image array; map_flags must be valid.
  CHECK(clEnqueueMapImage(E.Q, M2, CL_TRUE, CL_MAP_READ, Z, R, nullptr, nullptr,
                          0, nullptr, nullptr, &Err) == nullptr);
  CHECK(Err == CL_INVALID_VALUE);
  CHECK(clEnqueueMapImage(E.Q, M3, CL_TRUE, CL_MAP_READ, Z, R, &RP, nullptr, 0,
                          nullptr, nullptr, &Err) == nullptr);
  CHECK(Err == CL_INVALID_VALUE);
  CHECK(clEnqueueMapImage(E.Q, M2, CL_TRUE, CL_MAP_READ | 0x100, Z, R, &RP,
                          nullptr, 0, nullptr, nullptr, &Err) == nullptr);
  CHECK(Err == CL_INVALID_VALUE);
  // A 2D map returns slice pitch 0 when asked.
  SP = 99;
  void *P = clEnqueueMapImage(E.Q, M2, CL_TRUE, CL_MAP_READ, Z, R, &RP, &SP, 0,
                              nullptr, nullptr, &Err);
  REQUIRE(Err == CL_SUCCESS);
  CHECK(RP == 32);
  CHECK(SP == 0);
  CHECK(clEnqueueUnmapMemObject(E.Q, M2, P, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(clEnqueueUnmapMemObject(E.Q, M2, P, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  // An image of another context.
  cl_context C2 = clCreateContext(nullptr, 1, &E.D, nullptr, nullptr, nullptr);
  cl_image_desc D = desc(CL_MEM_OBJECT_IMAGE2D, 4, 4);
  cl_mem Other = clCreateImage(C2, 0, &Rgba8, &D, nullptr, &Err);
  REQUIRE(Err == CL_SUCCESS);
  CHECK(read(Other, {0, 0, 0}, {1, 1, 1}) == CL_INVALID_CONTEXT);
  clReleaseMemObject(Other);
  clReleaseContext(C2);
  REQUIRE(clFinish(E.Q) == CL_SUCCESS);
}

TEST_CASE("5.3.3: a non-blocking image read waits for its wait list and "
          "signals its event",
          "[.images]") {
  Env E;
  cl_mem M = E.image(Rgba8, desc(CL_MEM_OBJECT_IMAGE2D, 4, 4));
  cl_int Err = -1;
  cl_event Gate = clCreateUserEvent(E.C, &Err);
  REQUIRE(Err == CL_SUCCESS);
  unsigned char In[4] = {1, 2, 3, 4}, Out[4] = {};
  size_t Z[3] = {0, 0, 0}, R[3] = {1, 1, 1};
  cl_event W = nullptr, Rd = nullptr;
  REQUIRE(clEnqueueWriteImage(E.Q, M, CL_FALSE, Z, R, 0, 0, In, 1, &Gate, &W) ==
          CL_SUCCESS);
  REQUIRE(clEnqueueReadImage(E.Q, M, CL_FALSE, Z, R, 0, 0, Out, 1, &W, &Rd) ==
          CL_SUCCESS);
  cl_int St = 0;
  REQUIRE(clGetEventInfo(Rd, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof St, &St,
                         nullptr) == CL_SUCCESS);
  CHECK(St != CL_COMPLETE);
  REQUIRE(clSetUserEventStatus(Gate, CL_COMPLETE) == CL_SUCCESS);
  REQUIRE(clWaitForEvents(1, &Rd) == CL_SUCCESS);
  CHECK(std::memcmp(In, Out, 4) == 0);
  cl_command_type CT = 0;
  REQUIRE(clGetEventInfo(Rd, CL_EVENT_COMMAND_TYPE, sizeof CT, &CT, nullptr) ==
          CL_SUCCESS);
  CHECK(CT == CL_COMMAND_READ_IMAGE);
  clReleaseEvent(W);
  clReleaseEvent(Rd);
  clReleaseEvent(Gate);
}

TEST_CASE("5.9.2: an image is not a buffer kernel argument", "[.images]") {
  Env E;
  const char *Src = "kernel void k(global int *p) { p[0] = 1; }";
  cl_int Err = -1;
  cl_program P = clCreateProgramWithSource(E.C, 1, &Src, nullptr, &Err);
  REQUIRE(clBuildProgram(P, 1, &E.D, nullptr, nullptr, nullptr) == CL_SUCCESS);
  cl_kernel K = clCreateKernel(P, "k", &Err);
  REQUIRE(Err == CL_SUCCESS);
  cl_mem M = E.image(Rgba8, desc(CL_MEM_OBJECT_IMAGE2D, 4, 4));
  CHECK(clSetKernelArg(K, 0, sizeof M, &M) == CL_INVALID_MEM_OBJECT);
  clReleaseKernel(K);
  clReleaseProgram(P);
}

TEST_CASE("5.7: samplers are created, queried, retained and released",
          "[.images]") {
  Env E;
  cl_int Err = -1;
  cl_sampler S =
      clCreateSampler(E.C, CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR, &Err);
  REQUIRE(Err == CL_SUCCESS);
  auto info = [](cl_sampler S, cl_sampler_info P) {
    cl_uint V = 0;
    REQUIRE(clGetSamplerInfo(S, P, sizeof V, &V, nullptr) == CL_SUCCESS);
    return V;
  };
  CHECK(info(S, CL_SAMPLER_NORMALIZED_COORDS) == CL_TRUE);
  CHECK(info(S, CL_SAMPLER_ADDRESSING_MODE) == CL_ADDRESS_REPEAT);
  CHECK(info(S, CL_SAMPLER_FILTER_MODE) == CL_FILTER_LINEAR);
  CHECK(info(S, CL_SAMPLER_REFERENCE_COUNT) == 1);
  cl_context Ctx = nullptr;
  REQUIRE(clGetSamplerInfo(S, CL_SAMPLER_CONTEXT, sizeof Ctx, &Ctx, nullptr) ==
          CL_SUCCESS);
  CHECK(Ctx == E.C);
  // "If sampler was created using clCreateSampler ... param_value_size_ret
  // equal to 0".
  size_t N = 99;
  REQUIRE(clGetSamplerInfo(S, CL_SAMPLER_PROPERTIES, 0, nullptr, &N) ==
          CL_SUCCESS);
  CHECK(N == 0);
  CHECK(clRetainSampler(S) == CL_SUCCESS);
  CHECK(info(S, CL_SAMPLER_REFERENCE_COUNT) == 2);
  CHECK(clReleaseSampler(S) == CL_SUCCESS);
  CHECK(clGetSamplerInfo(S, 0x7777, 4, &N, nullptr) == CL_INVALID_VALUE);
  CHECK(clReleaseSampler(S) == CL_SUCCESS);

  // Defaults: CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST; the list is
  // returned as given.
  const cl_sampler_properties P[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR,
                                     0};
  S = clCreateSamplerWithProperties(E.C, P, &Err);
  REQUIRE(Err == CL_SUCCESS);
  CHECK(info(S, CL_SAMPLER_NORMALIZED_COORDS) == CL_TRUE);
  CHECK(info(S, CL_SAMPLER_ADDRESSING_MODE) == CL_ADDRESS_CLAMP);
  CHECK(info(S, CL_SAMPLER_FILTER_MODE) == CL_FILTER_LINEAR);
  cl_sampler_properties Back[4] = {};
  REQUIRE(clGetSamplerInfo(S, CL_SAMPLER_PROPERTIES, sizeof Back, Back, &N) ==
          CL_SUCCESS);
  CHECK(N == 3 * sizeof(cl_sampler_properties));
  CHECK(Back[0] == CL_SAMPLER_FILTER_MODE);
  CHECK(Back[1] == CL_FILTER_LINEAR);
  CHECK(clReleaseSampler(S) == CL_SUCCESS);
  S = clCreateSamplerWithProperties(E.C, nullptr, &Err);
  REQUIRE(Err == CL_SUCCESS);
  CHECK(info(S, CL_SAMPLER_ADDRESSING_MODE) == CL_ADDRESS_CLAMP);
  CHECK(clReleaseSampler(S) == CL_SUCCESS);

  // CL_INVALID_VALUE: bad values, unknown or repeated properties, repeat
  // addressing with unnormalized coordinates.
  CHECK(clCreateSampler(E.C, 2, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &Err) ==
        nullptr);
  CHECK(Err == CL_INVALID_VALUE);
  CHECK(clCreateSampler(E.C, CL_TRUE, 0x9999, CL_FILTER_NEAREST, &Err) ==
        nullptr);
  CHECK(Err == CL_INVALID_VALUE);
  CHECK(clCreateSampler(E.C, CL_TRUE, CL_ADDRESS_CLAMP, 0x9999, &Err) ==
        nullptr);
  CHECK(Err == CL_INVALID_VALUE);
  CHECK(clCreateSampler(E.C, CL_FALSE, CL_ADDRESS_MIRRORED_REPEAT,
                        CL_FILTER_NEAREST, &Err) == nullptr);
  CHECK(Err == CL_INVALID_VALUE);
  const cl_sampler_properties Twice[] = {
      CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, CL_SAMPLER_FILTER_MODE,
      CL_FILTER_LINEAR, 0};
  CHECK(clCreateSamplerWithProperties(E.C, Twice, &Err) == nullptr);
  CHECK(Err == CL_INVALID_VALUE);
  const cl_sampler_properties Unknown[] = {0x7777, 1, 0};
  CHECK(clCreateSamplerWithProperties(E.C, Unknown, &Err) == nullptr);
  CHECK(Err == CL_INVALID_VALUE);
  // CL_INVALID_SAMPLER for handles that are not samplers.
  CHECK(clRetainSampler(nullptr) == CL_INVALID_SAMPLER);
  CHECK(clReleaseSampler(reinterpret_cast<cl_sampler>(E.C)) ==
        CL_INVALID_SAMPLER);
}

TEST_CASE("cl_khr_command_buffer: image commands are recorded and replayed",
          "[.images]") {
  Env E;
  using CreateFn = cl_command_buffer_khr(CL_API_CALL *)(
      cl_uint, const cl_command_queue *,
      const cl_command_buffer_properties_khr *, cl_int *);
  auto Create = extensionFunction<CreateFn>("clCreateCommandBufferKHR");
  auto Finalize =
      extensionFunction<cl_int(CL_API_CALL *)(cl_command_buffer_khr)>(
          "clFinalizeCommandBufferKHR");
  auto Enqueue = extensionFunction<cl_int(CL_API_CALL *)(
      cl_uint, cl_command_queue *, cl_command_buffer_khr, cl_uint,
      const cl_event *, cl_event *)>("clEnqueueCommandBufferKHR");
  auto Release =
      extensionFunction<cl_int(CL_API_CALL *)(cl_command_buffer_khr)>(
          "clReleaseCommandBufferKHR");
  auto Fill = extensionFunction<cl_int(CL_API_CALL *)(
      cl_command_buffer_khr, cl_command_queue, const void *, cl_mem,
      const void *, const size_t *, const size_t *, cl_uint,
      const cl_sync_point_khr *, cl_sync_point_khr *,
      cl_mutable_command_khr *)>("clCommandFillImageKHR");
  auto Copy = extensionFunction<cl_int(CL_API_CALL *)(
      cl_command_buffer_khr, cl_command_queue, const void *, cl_mem, cl_mem,
      const size_t *, const size_t *, const size_t *, cl_uint,
      const cl_sync_point_khr *, cl_sync_point_khr *,
      cl_mutable_command_khr *)>("clCommandCopyImageKHR");
  auto ToBuffer = extensionFunction<cl_int(CL_API_CALL *)(
      cl_command_buffer_khr, cl_command_queue, const void *, cl_mem, cl_mem,
      const size_t *, const size_t *, size_t, cl_uint,
      const cl_sync_point_khr *, cl_sync_point_khr *,
      cl_mutable_command_khr *)>("clCommandCopyImageToBufferKHR");
  REQUIRE(Create);
  REQUIRE(Fill);
  REQUIRE(Copy);
  REQUIRE(ToBuffer);
  cl_int Err = -1;
  cl_command_buffer_khr B = Create(1, &E.Q, nullptr, &Err);
  REQUIRE(Err == CL_SUCCESS);
  cl_mem A = E.image(Rgba8, desc(CL_MEM_OBJECT_IMAGE2D, 4, 4));
  cl_mem C = E.image(Rgba8, desc(CL_MEM_OBJECT_IMAGE2D, 4, 4));
  cl_mem Buf = E.buffer(64);
  float Color[4] = {0.0f, 1.0f, 0.0f, 1.0f};
  size_t Z[3] = {0, 0, 0}, R[3] = {4, 4, 1};
  cl_sync_point_khr S1 = 0, S2 = 0;
  REQUIRE(Fill(B, nullptr, nullptr, A, Color, Z, R, 0, nullptr, &S1, nullptr) ==
          CL_SUCCESS);
  REQUIRE(Copy(B, nullptr, nullptr, A, C, Z, Z, R, 1, &S1, &S2, nullptr) ==
          CL_SUCCESS);
  REQUIRE(ToBuffer(B, nullptr, nullptr, C, Buf, Z, R, 0, 1, &S2, nullptr,
                   nullptr) == CL_SUCCESS);
  // The same checks as the clEnqueue* commands.
  CHECK(Fill(B, nullptr, nullptr, A, nullptr, Z, R, 0, nullptr, nullptr,
             nullptr) == CL_INVALID_VALUE);
  REQUIRE(Finalize(B) == CL_SUCCESS);
  REQUIRE(Enqueue(0, nullptr, B, 0, nullptr, nullptr) == CL_SUCCESS);
  unsigned char Out[64] = {};
  REQUIRE(clEnqueueReadBuffer(E.Q, Buf, CL_TRUE, 0, 64, Out, 0, nullptr,
                              nullptr) == CL_SUCCESS);
  bool Ok = true;
  for (int P = 0; P < 16; ++P)
    Ok &= Out[P * 4] == 0 && Out[P * 4 + 1] == 255 && Out[P * 4 + 2] == 0 &&
          Out[P * 4 + 3] == 255;
  CHECK(Ok);
  Release(B);
}

//===----------------------------------------------------------------------===//
// Kernels (OpenCL C 3.0, 6.15.15; 8 "Image Addressing and Filtering"),
// against a host reference sampler written from the spec.
//===----------------------------------------------------------------------===//

namespace {
using sampler_ref::linear;
using sampler_ref::nearest;

struct RefImage {
  int W, H;
  std::vector<float> Px; // RGBA per element, already converted to float
  std::array<float, 4> at(int X, int Y) const {
    if (X < 0 || Y < 0) // CL_RGBA has alpha: the border color is 0
      return {0, 0, 0, 0};
    const float *P = &Px[(Y * W + X) * 4];
    return {P[0], P[1], P[2], P[3]};
  }
  std::array<float, 4> sample(float S, float T, bool Norm,
                              cl_addressing_mode Mode, bool Linear) const {
    if (!Linear)
      return at(nearest(S, W, Norm, Mode), nearest(T, H, Norm, Mode));
    int X0, X1, Y0, Y1;
    float A = linear(S, W, Norm, Mode, X0, X1);
    float B = linear(T, H, Norm, Mode, Y0, Y1);
    std::array<float, 4> R{};
    auto T00 = at(X0, Y0), T10 = at(X1, Y0), T01 = at(X0, Y1), T11 = at(X1, Y1);
    for (int C = 0; C < 4; ++C)
      R[C] = (1 - A) * (1 - B) * T00[C] + A * (1 - B) * T10[C] +
             (1 - A) * B * T01[C] + A * B * T11[C];
    return R;
  }
};

cl_kernel buildKernel(Env &E, const char *Src, const char *Name,
                      cl_program &P) {
  cl_int Err = -1;
  P = clCreateProgramWithSource(E.C, 1, &Src, nullptr, &Err);
  REQUIRE(Err == CL_SUCCESS);
  cl_int B = clBuildProgram(P, 1, &E.D, "-cl-std=CL3.0", nullptr, nullptr);
  if (B != CL_SUCCESS) {
    char Log[8192] = {};
    clGetProgramBuildInfo(P, E.D, CL_PROGRAM_BUILD_LOG, sizeof Log, Log,
                          nullptr);
    INFO(Log);
    REQUIRE(B == CL_SUCCESS);
  }
  cl_kernel K = clCreateKernel(P, Name, &Err);
  REQUIRE(Err == CL_SUCCESS);
  return K;
}
} // namespace

TEST_CASE("6.15.15, 8.2: read_imagef of a 2D image with every sampler "
          "matches the spec's sampling rules",
          "[.images]") {
  Env E;
  const int W = 7, H = 5;
  // CL_RGBA / CL_UNORM_INT8 and CL_RGBA / CL_FLOAT.
  std::vector<unsigned char> Bytes = pattern(W * H * 4, 17);
  std::vector<float> Floats(W * H * 4);
  for (size_t I = 0; I < Floats.size(); ++I)
    Floats[I] = static_cast<float>((I * 37) % 101) / 7.0f - 3.0f;
  cl_image_desc D = desc(CL_MEM_OBJECT_IMAGE2D, W, H);
  cl_mem U8 =
      E.image(Rgba8, D, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, Bytes.data());
  cl_mem F32 =
      E.image(RgbaF, D, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, Floats.data());
  RefImage RU8{W, H, {}}, RF32{W, H, Floats};
  for (unsigned char B : Bytes)
    RU8.Px.push_back(B / 255.0f);

  const char *Src = R"(
    kernel void sample(read_only image2d_t img, sampler_t s,
                       global const float2 *coord, global float4 *out) {
      size_t i = get_global_id(0);
      out[i] = read_imagef(img, s, coord[i]);
    })";
  cl_program P;
  cl_kernel K = buildKernel(E, Src, "sample", P);
  // Coordinates inside, on texel edges and centers, and outside on both
  // sides (normalized ones are scaled below).
  std::vector<float> Raw = {0.0f, 0.5f,  1.0f,  2.25f, 3.5f, 6.99f, 7.0f,
                            7.5f, -0.5f, -1.3f, 9.75f, 4.0f, 2.6f,  5.0f};
  const size_t N = Raw.size() * Raw.size();
  cl_mem Out = E.buffer(N * 16);
  cl_mem Coords = E.buffer(N * 8);
  for (cl_bool Norm : {CL_FALSE, CL_TRUE})
    for (cl_addressing_mode Mode :
         {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP,
          CL_ADDRESS_REPEAT, CL_ADDRESS_MIRRORED_REPEAT})
      for (cl_filter_mode Filter : {CL_FILTER_NEAREST, CL_FILTER_LINEAR}) {
        if (!Norm &&
            (Mode == CL_ADDRESS_REPEAT || Mode == CL_ADDRESS_MIRRORED_REPEAT))
          continue;
        cl_int Err = -1;
        cl_sampler S = clCreateSampler(E.C, Norm, Mode, Filter, &Err);
        REQUIRE(Err == CL_SUCCESS);
        std::vector<float> C;
        for (float X : Raw)
          for (float Y : Raw) {
            C.push_back(Norm ? X / W : X);
            C.push_back(Norm ? Y / H : Y);
          }
        REQUIRE(clEnqueueWriteBuffer(E.Q, Coords, CL_TRUE, 0, N * 8, C.data(),
                                     0, nullptr, nullptr) == CL_SUCCESS);
        for (int Fmt = 0; Fmt < 2; ++Fmt) {
          cl_mem Img = Fmt ? F32 : U8;
          const RefImage &Ref = Fmt ? RF32 : RU8;
          REQUIRE(clSetKernelArg(K, 0, sizeof Img, &Img) == CL_SUCCESS);
          REQUIRE(clSetKernelArg(K, 1, sizeof S, &S) == CL_SUCCESS);
          REQUIRE(clSetKernelArg(K, 2, sizeof Coords, &Coords) == CL_SUCCESS);
          REQUIRE(clSetKernelArg(K, 3, sizeof Out, &Out) == CL_SUCCESS);
          REQUIRE(clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, &N, nullptr, 0,
                                         nullptr, nullptr) == CL_SUCCESS);
          std::vector<float> Got(N * 4);
          REQUIRE(clEnqueueReadBuffer(E.Q, Out, CL_TRUE, 0, N * 16, Got.data(),
                                      0, nullptr, nullptr) == CL_SUCCESS);
          int Bad = 0;
          for (size_t I = 0; I < N; ++I) {
            // CL_ADDRESS_NONE: out-of-range coordinates are undefined.
            float U = Norm ? C[2 * I] * W : C[2 * I];
            float V = Norm ? C[2 * I + 1] * H : C[2 * I + 1];
            if (Mode == CL_ADDRESS_NONE &&
                (U < 0.5f || V < 0.5f || U > W - 0.5f || V > H - 0.5f))
              continue;
            auto Want = Ref.sample(C[2 * I], C[2 * I + 1], Norm, Mode,
                                   Filter == CL_FILTER_LINEAR);
            for (int Ch = 0; Ch < 4; ++Ch)
              if (std::fabs(Got[I * 4 + Ch] - Want[Ch]) >
                  1e-5f * std::max(1.0f, std::fabs(Want[Ch])))
                if (Bad++ < 3)
                  UNSCOPED_INFO("norm "
                                << Norm << " mode 0x" << std::hex << Mode
                                << " filter 0x" << Filter << std::dec << " fmt "
                                << Fmt << " coord (" << C[2 * I] << ", "
                                << C[2 * I + 1] << ") ch " << Ch << ": got "
                                << Got[I * 4 + Ch] << ", want " << Want[Ch]);
          }
          CHECK(Bad == 0);
        }
        clReleaseSampler(S);
      }
  clReleaseKernel(K);
  clReleaseProgram(P);
}

TEST_CASE("6.15.15: sampler constants, sampler-less and integer reads, "
          "writes and queries of 2D images",
          "[.images]") {
  Env E;
  const int W = 6, H = 4;
  std::vector<uint32_t> In(W * H * 4);
  for (size_t I = 0; I < In.size(); ++I)
    In[I] = static_cast<uint32_t>(I * 2654435761u);
  cl_image_desc D = desc(CL_MEM_OBJECT_IMAGE2D, W, H);
  const cl_image_format Ui32 = {CL_RGBA, CL_UNSIGNED_INT32};
  const cl_image_format Ui8 = {CL_RGBA, CL_UNSIGNED_INT8};
  cl_mem Src =
      E.image(Ui32, D, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, In.data());
  cl_mem Dst = E.image(Ui8, D, CL_MEM_WRITE_ONLY);
  cl_mem DstF = E.image(Rgba8, D, CL_MEM_WRITE_ONLY);
  cl_mem Info = E.buffer(8 * sizeof(int));
  const char *Code = R"(
    const sampler_t edge = CLK_NORMALIZED_COORDS_FALSE |
                           CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
    kernel void copy(read_only image2d_t src, write_only image2d_t dst,
                     write_only image2d_t dstf, global int *info) {
      int2 c = (int2)(get_global_id(0), get_global_id(1));
      // The pixel to the right (clamped at the edge) through the sampler
      // constant, this one without a sampler; saturated to 8 bits.
      uint4 a = read_imageui(src, edge, c + (int2)(1, 0));
      uint4 b = read_imageui(src, c);
      write_imageui(dst, c, a - b);
      write_imagef(dstf, c, (float4)(0.25f, 0.5f, 1.5f, -1.0f));
      if (c.x == 0 && c.y == 0) {
        info[0] = get_image_width(src);
        info[1] = get_image_height(src);
        info[2] = get_image_dim(dst).x;
        info[3] = get_image_dim(dst).y;
        info[4] = get_image_channel_data_type(src);
        info[5] = get_image_channel_order(dst);
      }
    })";
  cl_program P;
  cl_kernel K = buildKernel(E, Code, "copy", P);
  REQUIRE(clSetKernelArg(K, 0, sizeof Src, &Src) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(K, 1, sizeof Dst, &Dst) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(K, 2, sizeof DstF, &DstF) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(K, 3, sizeof Info, &Info) == CL_SUCCESS);
  // A buffer where an image goes, a sampler where an image goes.
  cl_mem Buf = E.buffer(64);
  CHECK(clSetKernelArg(K, 0, sizeof Buf, &Buf) == CL_INVALID_MEM_OBJECT);
  size_t G[2] = {W, H};
  REQUIRE(clEnqueueNDRangeKernel(E.Q, K, 2, nullptr, G, nullptr, 0, nullptr,
                                 nullptr) == CL_SUCCESS);
  std::vector<unsigned char> Out(W * H * 4), OutF(W * H * 4);
  size_t Z[3] = {0, 0, 0}, R[3] = {W, H, 1};
  REQUIRE(clEnqueueReadImage(E.Q, Dst, CL_TRUE, Z, R, 0, 0, Out.data(), 0,
                             nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueReadImage(E.Q, DstF, CL_TRUE, Z, R, 0, 0, OutF.data(), 0,
                             nullptr, nullptr) == CL_SUCCESS);
  int Got[8] = {};
  REQUIRE(clEnqueueReadBuffer(E.Q, Info, CL_TRUE, 0, sizeof Got, Got, 0,
                              nullptr, nullptr) == CL_SUCCESS);
  bool Ok = true;
  for (int Y = 0; Y < H; ++Y)
    for (int X = 0; X < W; ++X)
      for (int C = 0; C < 4; ++C) {
        uint32_t A = In[(Y * W + std::min(X + 1, W - 1)) * 4 + C];
        uint32_t B = In[(Y * W + X) * 4 + C];
        // 8.3.4: "saturated to the range of the channel type".
        Ok &= Out[(Y * W + X) * 4 + C] == std::min<uint32_t>(A - B, 255);
      }
  CHECK(Ok);
  // 8.3.1.2: round to nearest even, then saturate.
  const unsigned char WantF[4] = {64, 128, 255, 0};
  Ok = true;
  for (int I = 0; I < W * H; ++I)
    Ok &= std::memcmp(&OutF[I * 4], WantF, 4) == 0;
  CHECK(Ok);
  CHECK(Got[0] == W);
  CHECK(Got[1] == H);
  CHECK(Got[2] == W);
  CHECK(Got[3] == H);
  CHECK(Got[4] == CL_UNSIGNED_INT32);
  CHECK(Got[5] == CL_RGBA);
  // CL_INVALID_SAMPLER: a sampler argument that is not a sampler.
  const char *SCode = R"(
    kernel void s(read_only image2d_t i, sampler_t s, global float4 *o) {
      o[0] = read_imagef(i, s, (float2)(0.5f, 0.5f));
    })";
  cl_program P2;
  cl_kernel K2 = buildKernel(E, SCode, "s", P2);
  CHECK(clSetKernelArg(K2, 1, sizeof Buf, &Buf) == CL_INVALID_SAMPLER);
  cl_sampler Smp = clCreateSampler(E.C, CL_TRUE, CL_ADDRESS_CLAMP,
                                   CL_FILTER_NEAREST, nullptr);
  CHECK(clSetKernelArg(K2, 1, 4, &Smp) == CL_INVALID_ARG_SIZE);
  CHECK(clSetKernelArg(K2, 1, sizeof Smp, &Smp) == CL_SUCCESS);
  clReleaseSampler(Smp);
  clReleaseKernel(K2);
  clReleaseProgram(P2);
  clReleaseKernel(K);
  clReleaseProgram(P);
}

TEST_CASE("6.15.15: one kernel object launched with images of other "
          "formats and other samplers reads each launch's own (launch-time "
          "specializations, compiler/passes/ImageArguments.cpp)",
          "[.images]") {
  Env E;
  // Wider than a vector and no multiple of one: vector and remainder.
  const int W = 37, H = 3;
  std::vector<unsigned char> In(W * H * 4);
  for (size_t I = 0; I < In.size(); ++I)
    In[I] = static_cast<unsigned char>(I * 37 + 11);
  cl_image_desc D = desc(CL_MEM_OBJECT_IMAGE2D, W, H);
  const cl_image_format Bgra8 = {CL_BGRA, CL_UNORM_INT8};
  const cl_image_format RgbaF = {CL_RGBA, CL_FLOAT};
  cl_mem Rgba =
      E.image(Rgba8, D, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, In.data());
  cl_mem Bgra =
      E.image(Bgra8, D, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, In.data());
  cl_mem Dst = E.image(RgbaF, D, CL_MEM_WRITE_ONLY);
  const char *Code = R"(
    kernel void shift(read_only image2d_t src, sampler_t s,
                      write_only image2d_t dst) {
      int2 c = (int2)(get_global_id(0), get_global_id(1));
      write_imagef(dst, c, read_imagef(src, s, c + (int2)(1, 0)));
    })";
  cl_program P;
  cl_kernel K = buildKernel(E, Code, "shift", P);
  // 5.9.2: an image argument takes an image; NULL is for buffers only.
  cl_mem Null = nullptr;
  CHECK(clSetKernelArg(K, 0, sizeof Null, &Null) == CL_INVALID_MEM_OBJECT);
  cl_sampler Edge = clCreateSampler(E.C, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE,
                                    CL_FILTER_NEAREST, nullptr);
  cl_sampler Border = clCreateSampler(E.C, CL_FALSE, CL_ADDRESS_CLAMP,
                                      CL_FILTER_NEAREST, nullptr);
  REQUIRE(Edge);
  REQUIRE(Border);
  REQUIRE(clSetKernelArg(K, 2, sizeof Dst, &Dst) == CL_SUCCESS);
  struct Launch {
    cl_mem Src;
    cl_sampler S;
    bool Swap;   // BGRA: the stored bytes are B, G, R, A
    bool Border; // CL_ADDRESS_CLAMP: the last column reads the border
  } Launches[] = {{Rgba, Edge, false, false},
                  {Bgra, Edge, true, false},
                  {Rgba, Border, false, true},
                  {Rgba, Edge, false, false}};
  for (const Launch &L : Launches) {
    REQUIRE(clSetKernelArg(K, 0, sizeof L.Src, &L.Src) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(K, 1, sizeof L.S, &L.S) == CL_SUCCESS);
    size_t G[2] = {W, H};
    REQUIRE(clEnqueueNDRangeKernel(E.Q, K, 2, nullptr, G, nullptr, 0, nullptr,
                                   nullptr) == CL_SUCCESS);
    std::vector<float> Out(W * H * 4);
    size_t Z[3] = {0, 0, 0}, R[3] = {W, H, 1};
    REQUIRE(clEnqueueReadImage(E.Q, Dst, CL_TRUE, Z, R, 0, 0, Out.data(), 0,
                               nullptr, nullptr) == CL_SUCCESS);
    bool Ok = true;
    for (int Y = 0; Y < H; ++Y)
      for (int X = 0; X < W; ++X)
        for (int C = 0; C < 4; ++C) {
          // 8.2: clamp-to-edge repeats the last column; clamp reads the
          // border color, (0, 0, 0, 0) for an order with alpha.
          int SX = std::min(X + 1, W - 1);
          int Stored = L.Swap && C < 3 ? 2 - C : C;
          float Want = L.Border && X + 1 == W
                           ? 0.0f
                           : In[(Y * W + SX) * 4 + Stored] / 255.0f;
          Ok &= Out[(Y * W + X) * 4 + C] == Want;
        }
    CHECK(Ok);
  }
  clReleaseSampler(Edge);
  clReleaseSampler(Border);
  clReleaseKernel(K);
  clReleaseProgram(P);
}

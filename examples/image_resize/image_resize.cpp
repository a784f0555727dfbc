// image_resize: a bilinear resize of an RGBA image (8 bits per channel,
// CL_UNORM_INT8) through a linear, normalized, clamp-to-edge sampler, one
// work-item per output pixel, each sampling the source at its centre. The
// source is a generated photo-sized image (default 4096x4096, resized to
// 2560x1440); the result is checked against a host reference written from
// the OpenCL C spec's linear-filtering formulas (section 8.2) in double
// precision, within one step of 8 bits (the float coordinates and the
// conversion's rounding may move a channel by one), and the throughput is
// reported in output megapixels and bytes per second (best of three runs).
//
// Usage: image_resize [W H OW OH] [--platform NAME]
// CLCPU_EXAMPLE_PLATFORM=NAME also chooses the platform; it is the first
// whose name or vendor contains NAME, ignoring case (default "clcpu";
// "pocl" picks the Portable Computing Language).
#define CL_TARGET_OPENCL_VERSION 300
#include "ExampleSetup.h"

#include <CL/cl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

static const char *Source = R"CLC(
__kernel void resize(__read_only image2d_t src, sampler_t smp,
                     __write_only image2d_t dst, float2 inv_size) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  float2 c = (convert_float2(p) + 0.5f) * inv_size;
  write_imagef(dst, p, read_imagef(src, smp, c));
}
)CLC";

// The source pattern: smooth gradients with rings, different per channel,
// opaque alpha (what a photo's channels look like to a filter).
static uint8_t pattern(size_t X, size_t Y, int C, size_t W, size_t H) {
  if (C == 3)
    return 255;
  double U = double(X) / W, V = double(Y) / H;
  double R = std::sqrt((U - 0.5) * (U - 0.5) + (V - 0.5) * (V - 0.5));
  double S = 0.5 + 0.5 * std::sin(40.0 * R + 2.0 * C) * (C == 1 ? U : 1 - V);
  return static_cast<uint8_t>(std::lround(255.0 * std::clamp(S, 0.0, 1.0)));
}

// Section 8.2, CLK_FILTER_LINEAR with CLK_ADDRESS_CLAMP_TO_EDGE and
// normalized coordinates: channel C of output pixel (X, Y) as a float in
// [0, 1] (CL_UNORM_INT8 reads as c / 255).
static double bilinear(const std::vector<uint8_t> &Src, size_t W, size_t H,
                       size_t OW, size_t OH, size_t X, size_t Y, int C) {
  double U = (X + 0.5) / OW * W - 0.5, V = (Y + 0.5) / OH * H - 0.5;
  double I0 = std::floor(U), J0 = std::floor(V);
  double A = U - I0, B = V - J0;
  auto T = [&](double I, double J) {
    long XI = std::clamp(long(I), 0L, long(W) - 1);
    long YJ = std::clamp(long(J), 0L, long(H) - 1);
    return Src[(size_t(YJ) * W + size_t(XI)) * 4 + C] / 255.0;
  };
  return (1 - A) * (1 - B) * T(I0, J0) + A * (1 - B) * T(I0 + 1, J0) +
         (1 - A) * B * T(I0, J0 + 1) + A * B * T(I0 + 1, J0 + 1);
}

int main(int Argc, char **Argv) {
  std::string Want;
  std::vector<std::string> Args = parseArgs(Argc, Argv, Want);
  size_t W = 4096, H = 4096, OW = 2560, OH = 1440;
  if (Args.size() >= 4) {
    W = std::strtoull(Args[0].c_str(), nullptr, 10);
    H = std::strtoull(Args[1].c_str(), nullptr, 10);
    OW = std::strtoull(Args[2].c_str(), nullptr, 10);
    OH = std::strtoull(Args[3].c_str(), nullptr, 10);
  }
  if (!W || !H || !OW || !OH || W > 16384 || H > 16384 || OW > 16384 ||
      OH > 16384) {
    std::fprintf(stderr, "sizes must be in 1..16384\n");
    return 2;
  }
  Device Dev;
  if (!openDevice(Want, Dev))
    return 2;
  cl_bool Images = CL_FALSE;
  CHECK(clGetDeviceInfo(Dev.Id, CL_DEVICE_IMAGE_SUPPORT, sizeof Images, &Images,
                        nullptr));
  if (!Images) {
    std::fprintf(stderr,
                 "%s: the device has no image support (clcpu: unset "
                 "CLCPU_IMAGES=0)\n",
                 Dev.PlatformName.c_str());
    return 2;
  }

  std::vector<uint8_t> Src(W * H * 4), Out(OW * OH * 4);
  for (size_t Y = 0; Y < H; ++Y)
    for (size_t X = 0; X < W; ++X)
      for (int C = 0; C < 4; ++C)
        Src[(Y * W + X) * 4 + C] = pattern(X, Y, C, W, H);

  cl_image_format Format = {CL_RGBA, CL_UNORM_INT8};
  cl_image_desc Desc = {};
  Desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  Desc.image_width = W;
  Desc.image_height = H;
  cl_int Err;
  cl_mem SrcImg =
      clCreateImage(Dev.Ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &Format,
                    &Desc, Src.data(), &Err);
  CHECK(Err);
  Desc.image_width = OW;
  Desc.image_height = OH;
  cl_mem DstImg =
      clCreateImage(Dev.Ctx, CL_MEM_WRITE_ONLY, &Format, &Desc, nullptr, &Err);
  CHECK(Err);
  cl_sampler Smp = clCreateSampler(Dev.Ctx, CL_TRUE, CL_ADDRESS_CLAMP_TO_EDGE,
                                   CL_FILTER_LINEAR, &Err);
  CHECK(Err);
  cl_program P = buildProgram(Dev, Source, "");
  cl_kernel K = makeKernel(P, "resize");
  cl_float2 Inv = {{1.0f / float(OW), 1.0f / float(OH)}};
  setArg(K, 0, SrcImg);
  setArg(K, 1, Smp);
  setArg(K, 2, DstImg);
  setArg(K, 3, Inv);
  size_t Global[2] = {OW, OH};
  // The first launch pays for compiling (clcpu builds the kernel for the
  // formats it binds then), so it is not timed.
  CHECK(clEnqueueNDRangeKernel(Dev.Q, K, 2, nullptr, Global, nullptr, 0,
                               nullptr, nullptr));
  CHECK(clFinish(Dev.Q));
  double Best = 1e30;
  for (int R = 0; R < 3; ++R) {
    auto T0 = std::chrono::steady_clock::now();
    CHECK(clEnqueueNDRangeKernel(Dev.Q, K, 2, nullptr, Global, nullptr, 0,
                                 nullptr, nullptr));
    CHECK(clFinish(Dev.Q));
    Best = std::min(Best, seconds(T0));
  }
  size_t Origin[3] = {0, 0, 0}, Region[3] = {OW, OH, 1};
  CHECK(clEnqueueReadImage(Dev.Q, DstImg, CL_TRUE, Origin, Region, 0, 0,
                           Out.data(), 0, nullptr, nullptr));

  size_t Bad = 0, First = 0;
  int MaxDiff = 0;
  double FirstRef = 0;
  for (size_t Y = 0; Y < OH; ++Y)
    for (size_t X = 0; X < OW; ++X)
      for (int C = 0; C < 4; ++C) {
        size_t I = (Y * OW + X) * 4 + C;
        double Ref = 255.0 * bilinear(Src, W, H, OW, OH, X, Y, C);
        int Diff = std::abs(int(Out[I]) - int(std::lround(Ref)));
        MaxDiff = std::max(MaxDiff, Diff);
        if (Diff > 1 && !Bad++) {
          First = I;
          FirstRef = Ref;
        }
      }
  double Pixels = double(OW) * OH;
  // Bytes: every source texel once (a resize reads each about once) plus
  // the output.
  double Bytes = 4.0 * (double(W) * H + Pixels);
  std::printf("image_resize on %s: %zux%zu -> %zux%zu RGBA8, bilinear "
              "sampler: %.2f ms, %.1f Mpixel/s, %.2f GB/s, max |difference| "
              "%d/255\n",
              Dev.PlatformName.c_str(), W, H, OW, OH, Best * 1e3,
              Pixels / Best / 1e6, Bytes / Best / 1e9, MaxDiff);
  if (Bad)
    std::printf("  %zu wrong, first pixel (%zu, %zu) channel %zu = %d, "
                "expected %.2f\n",
                Bad, First / 4 % OW, First / 4 / OW, First % 4, Out[First],
                FirstRef);
  std::printf("%s\n", Bad ? "FAILED" : "verified");
  clReleaseKernel(K);
  clReleaseProgram(P);
  clReleaseSampler(Smp);
  clReleaseMemObject(SrcImg);
  clReleaseMemObject(DstImg);
  clReleaseCommandQueue(Dev.Q);
  clReleaseContext(Dev.Ctx);
  return Bad ? 1 : 0;
}

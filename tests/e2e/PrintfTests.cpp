// printf's vector specifiers and return value (OpenCL C 6.15.14):
// regression tests for failures the CTS binary test_printf found.

#include "Common.h"
#include "SchedulerCommon.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using sched::runCapturingStdout;

TEST_CASE("6.15.14: printf prints vectors with the vN specifier and its "
          "element-size length modifier (CTS test_printf/vector)",
          "[cts][printf]") {
  sched::Env E;
  cl_kernel K = E.kernel(R"(
    kernel void p(global int *ret) {
      float4 f4 = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
      uchar2 c2 = (uchar2)(0xFA, 0xFB);
      ushort2 s2 = (ushort2)(0x1234, 0x8765);
      long2 l2 = (long2)(12345678, 98765432);
      float3 f3 = (float3)(1234.25f, 987654.5f, 0.0005f);
      float8 f8 = (float8)(1.f, 2.f, 3.f, 4.f, 1.5f, 3.14f, 2.5f, 3.5f);
      uint16 u16 = (uint16)(1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 32, 64, 128, 256,
                            512, 1024);
      int8 i8 = (int8)(1, -2, 3, -4, 5, -6, 7, -8);
      ret[0] = printf("%2.2v4hlf|%#v2hhx|%#v2hx|%v2ld\n", f4, c2, s2, l2);
      ret[1] = printf("%.2v3hle|%v8hlg\n", f3, f8);
      ret[2] = printf("%v16hlo|%+v8hli|%d %s\n", u16, i8, 7, "end");
      // Flags and field width apply to each element.
      ret[3] = printf("%05v4hlu|%-3v2hd|\n",
                      (uint4)(512, 1024, 262144, 1048576), (short2)(-1, 7));
    })",
                         "p");
  cl_mem Ret = E.buffer(std::vector<int>(4, 99));
  E.arg(K, 0, Ret);
  std::string Out = runCapturingStdout(E, K);
  CHECK(Out == "1.00,2.00,3.00,4.00|0xfa,0xfb|0x1234,0x8765|12345678,98765432\n"
               "1.23e+03,9.88e+05,5.00e-04|1,2,3,4,1.5,3.14,2.5,3.5\n"
               "1,2,3,4,5,6,7,10,11,0,40,100,200,400,1000,2000|"
               "+1,-2,+3,-4,+5,-6,+7,-8|7 end\n"
               "00512,01024,262144,1048576|-1 ,7  |\n");
  std::vector<int> R = E.read<int>(Ret, 4);
  CHECK(R == std::vector<int>{0, 0, 0, 0});
}

TEST_CASE("6.15.14: printf returns 0 on success, not a character count "
          "(CTS test_printf/return_value)",
          "[cts][printf]") {
  sched::Env E;
  cl_kernel K = E.kernel(R"(
    kernel void p(global int *ret) {
      ret[0] = printf("printf return value test\n");
    })",
                         "p");
  cl_mem Ret = E.buffer(std::vector<int>(1, 99));
  E.arg(K, 0, Ret);
  std::string Out = runCapturingStdout(E, K);
  CHECK(Out == "printf return value test\n");
  CHECK(E.read<int>(Ret, 1)[0] == 0);
}

TEST_CASE("6.15.14 with cl_khr_fp16: printf prints half vectors with the h "
          "length modifier (%v4hf) and scalar halves as doubles",
          "[printf][half]") {
  sched::Env E;
  cl_kernel K = E.kernel(R"(
    #pragma OPENCL EXTENSION cl_khr_fp16 : enable
    kernel void p(global const half *in, global int *ret) {
      half4 v = vload4(0, in);
      ret[0] = printf("%v4hf|%.3v2ha|%f\n", v, v.zw, in[1]);
      // In registers (half8) and in memory (half16).
      ret[1] = printf("%v8hg|%v16hg\n", (half8)(v, v * 2.0h),
                      (half16)(v, v, v, v));
    })",
                         "p");
  // 1, 2, -3, 1/3 (0x3555 is 0.333251953125)
  cl_mem In = E.buffer(std::vector<uint16_t>{0x3c00, 0x4000, 0xc200, 0x3555});
  cl_mem Ret = E.buffer(std::vector<int>(2, 99));
  E.arg(K, 0, In);
  E.arg(K, 1, Ret);
  std::string Out = runCapturingStdout(E, K);
  char Want[400];
  int N = std::snprintf(Want, sizeof Want, "%f,%f,%f,%f|%.3a,%.3a|%f\n", 1.0,
                        2.0, -3.0, 0.333251953125, -3.0, 0.333251953125, 2.0);
  const double V[4] = {1.0, 2.0, -3.0, 0.333251953125};
  std::string Want2;
  for (int I = 0; I < 8; ++I) {
    char B[32];
    std::snprintf(B, sizeof B, "%s%g", I ? "," : "",
                  I < 4 ? V[I] : 2 * V[I - 4]);
    Want2 += B;
  }
  Want2 += "|";
  for (int I = 0; I < 16; ++I) {
    char B[32];
    std::snprintf(B, sizeof B, "%s%g", I ? "," : "", V[I % 4]);
    Want2 += B;
  }
  CHECK(Out == std::string(Want, size_t(N)) + Want2 + "\n");
  CHECK(E.read<int>(Ret, 2) == std::vector<int>{0, 0});
}

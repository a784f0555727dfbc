// Unit tests for runtime/Info.h: the clGet*Info size rules (OpenCL 3.0 API
// spec, 4.1 "Querying Platform Info" and every other clGet*Info).

#include "runtime/Info.h"

#include <catch2/catch.hpp>

using namespace clcpu;

TEST_CASE("clGet*Info: size query with NULL param_value", "[info]") {
  size_t Ret = 0;
  CHECK(InfoOut(0, nullptr, &Ret).value<cl_uint>(7) == CL_SUCCESS);
  CHECK(Ret == sizeof(cl_uint));
  CHECK(InfoOut(0, nullptr, &Ret).string("abc") == CL_SUCCESS);
  CHECK(Ret == 4);
}

TEST_CASE("clGet*Info: too small param_value_size is CL_INVALID_VALUE",
          "[info]") {
  char Buf[2] = {'x', 'y'};
  size_t Ret = 0;
  CHECK(InfoOut(2, Buf, &Ret).string("abc") == CL_INVALID_VALUE);
  CHECK(Buf[0] == 'x'); // nothing written
  cl_uint V = 0;
  CHECK(InfoOut(sizeof V, &V, nullptr).value<cl_uint>(42) == CL_SUCCESS);
  CHECK(V == 42);
}

TEST_CASE("clGet*Info: unknown param_name is CL_INVALID_VALUE", "[info]") {
  CHECK(unknownParam(0xdead) == CL_INVALID_VALUE);
}

#ifndef CLCPU_EXAMPLES_COMMON_EXAMPLESETUP_H
#define CLCPU_EXAMPLES_COMMON_EXAMPLESETUP_H

// Platform, device and program set-up shared by the examples (header-only;
// each example is still one program linked only against OpenCL::OpenCL):
// choosing the platform by name (--platform NAME, CLCPU_EXAMPLE_PLATFORM),
// building with the build log on failure, buffers, arguments, local sizes.

#include <CL/cl.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CHECK(Call)                                                            \
  do {                                                                         \
    cl_int E_ = (Call);                                                        \
    if (E_ != CL_SUCCESS) {                                                    \
      std::fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__,       \
                   #Call, E_);                                                 \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

[[maybe_unused]] static std::string lower(std::string S) {
  for (char &C : S)
    C = static_cast<char>(std::tolower(static_cast<unsigned char>(C)));
  return S;
}

struct Device {
  cl_platform_id Platform = nullptr;
  cl_device_id Id = nullptr;
  cl_context Ctx = nullptr;
  cl_command_queue Q = nullptr;
  std::string PlatformName;
  // Build options for OpenCL C with work-group collective functions, empty
  // when the device has none.
  std::string CollectiveStd;
};

// Takes --platform NAME / -p NAME / --platform=NAME out of the arguments and
// returns the rest; CLCPU_EXAMPLE_PLATFORM is the default, then "clcpu".
[[maybe_unused]] static std::vector<std::string>
parseArgs(int Argc, char **Argv, std::string &Want) {
  const char *Env = std::getenv("CLCPU_EXAMPLE_PLATFORM");
  Want = Env && *Env ? Env : "clcpu";
  std::vector<std::string> Rest;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if ((A == "--platform" || A == "-p") && I + 1 < Argc)
      Want = Argv[++I];
    else if (A.rfind("--platform=", 0) == 0)
      Want = A.substr(11);
    else
      Rest.push_back(A);
  }
  return Rest;
}

[[maybe_unused]] static bool openDevice(const std::string &Want, Device &Dev) {
  cl_uint NP = 0;
  if (clGetPlatformIDs(0, nullptr, &NP) != CL_SUCCESS || NP == 0) {
    std::fprintf(stderr, "no OpenCL platforms\n");
    return false;
  }
  std::vector<cl_platform_id> Ps(NP);
  CHECK(clGetPlatformIDs(NP, Ps.data(), nullptr));
  for (cl_platform_id P : Ps) {
    char Name[256] = {}, Vendor[256] = {};
    clGetPlatformInfo(P, CL_PLATFORM_NAME, sizeof Name - 1, Name, nullptr);
    clGetPlatformInfo(P, CL_PLATFORM_VENDOR, sizeof Vendor - 1, Vendor,
                      nullptr);
    if (lower(Name).find(lower(Want)) != std::string::npos ||
        lower(Vendor).find(lower(Want)) != std::string::npos) {
      Dev.Platform = P;
      Dev.PlatformName = Name;
      break;
    }
  }
  if (!Dev.Platform) {
    std::fprintf(stderr, "no platform matching \"%s\"; available:\n",
                 Want.c_str());
    for (cl_platform_id P : Ps) {
      char Name[256] = {};
      clGetPlatformInfo(P, CL_PLATFORM_NAME, sizeof Name - 1, Name, nullptr);
      std::fprintf(stderr, "  %s\n", Name);
    }
    return false;
  }
  CHECK(clGetDeviceIDs(Dev.Platform, CL_DEVICE_TYPE_ALL, 1, &Dev.Id, nullptr));
  cl_int Err;
  Dev.Ctx = clCreateContext(nullptr, 1, &Dev.Id, nullptr, nullptr, &Err);
  CHECK(Err);
  Dev.Q = clCreateCommandQueueWithProperties(Dev.Ctx, Dev.Id, nullptr, &Err);
  CHECK(Err);

  // Work-group collective functions: optional in OpenCL C 3.0 (feature
  // macro), mandatory in OpenCL C 2.x.
  char Version[256] = {};
  CHECK(clGetDeviceInfo(Dev.Id, CL_DEVICE_VERSION, sizeof Version - 1, Version,
                        nullptr));
  if (std::strncmp(Version, "OpenCL 3.", 9) == 0) {
    size_t Size = 0;
    CHECK(clGetDeviceInfo(Dev.Id, CL_DEVICE_OPENCL_C_FEATURES, 0, nullptr,
                          &Size));
    std::vector<cl_name_version> Features(Size / sizeof(cl_name_version));
    CHECK(clGetDeviceInfo(Dev.Id, CL_DEVICE_OPENCL_C_FEATURES, Size,
                          Features.data(), nullptr));
    for (const cl_name_version &F : Features)
      if (std::strcmp(F.name, "__opencl_c_work_group_collective_functions") ==
          0)
        Dev.CollectiveStd = "-cl-std=CL3.0";
  } else {
    char CVersion[256] = {};
    CHECK(clGetDeviceInfo(Dev.Id, CL_DEVICE_OPENCL_C_VERSION,
                          sizeof CVersion - 1, CVersion, nullptr));
    if (std::strncmp(CVersion, "OpenCL C 2.", 11) == 0)
      Dev.CollectiveStd = "-cl-std=CL2.0";
  }
  return true;
}

[[maybe_unused]] static cl_program
buildProgram(const Device &Dev, const char *Src, const std::string &Options) {
  cl_int Err;
  cl_program P = clCreateProgramWithSource(Dev.Ctx, 1, &Src, nullptr, &Err);
  CHECK(Err);
  if (clBuildProgram(P, 1, &Dev.Id, Options.c_str(), nullptr, nullptr) !=
      CL_SUCCESS) {
    size_t Size = 0;
    clGetProgramBuildInfo(P, Dev.Id, CL_PROGRAM_BUILD_LOG, 0, nullptr, &Size);
    std::string Log(Size, '\0');
    clGetProgramBuildInfo(P, Dev.Id, CL_PROGRAM_BUILD_LOG, Size, Log.data(),
                          nullptr);
    std::fprintf(stderr, "build failed (%s):\n%s\n", Options.c_str(),
                 Log.c_str());
    std::exit(2);
  }
  return P;
}

[[maybe_unused]] static cl_kernel makeKernel(cl_program P, const char *Name) {
  cl_int Err;
  cl_kernel K = clCreateKernel(P, Name, &Err);
  CHECK(Err);
  return K;
}

// The largest power of two <= Want that the kernel can run as a work-group.
[[maybe_unused]] static size_t localSize(cl_kernel K, const Device &Dev,
                                         size_t Want) {
  size_t Max = 0;
  CHECK(clGetKernelWorkGroupInfo(K, Dev.Id, CL_KERNEL_WORK_GROUP_SIZE,
                                 sizeof Max, &Max, nullptr));
  size_t L = 1;
  while (L * 2 <= std::min(Want, Max))
    L *= 2;
  return L;
}

[[maybe_unused]] static cl_mem makeBuffer(const Device &Dev, size_t Bytes,
                                          const void *Init = nullptr) {
  cl_int Err;
  cl_mem M = clCreateBuffer(
      Dev.Ctx, CL_MEM_READ_WRITE | (Init ? CL_MEM_COPY_HOST_PTR : 0),
      std::max<size_t>(Bytes, 4), const_cast<void *>(Init), &Err);
  CHECK(Err);
  return M;
}

template <typename T>
[[maybe_unused]] static void setArg(cl_kernel K, cl_uint I, const T &V) {
  CHECK(clSetKernelArg(K, I, sizeof(T), &V));
}

[[maybe_unused]] static double
seconds(std::chrono::steady_clock::time_point T0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - T0)
      .count();
}

#endif

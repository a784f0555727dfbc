// clcpu_bench: the same verified kernels on two OpenCL platforms, side by
// side. Every repetition runs A then B, so machine noise hits both alike.
// Per benchmark it prints both medians, the speedup of A over B (B's time
// divided by A's), and for the memory-bound ones the fraction of the host
// copy bandwidth measured in the same run. A result that does not verify
// prints FAIL and no time; a kernel a platform cannot build prints n/a with
// the reason. With --threads, each row runs instead on sub-devices of each
// given number of compute units (workers), in a table per row: the speedup
// over the fewest workers and the fraction of the host copy with as many
// threads. Without --quick, the streaming and scan arrays are 4 x the
// host's last-level cache each, so that they stream from memory. The rows
// *_spirv build their kernels from SPIR-V that clang-15 and llvm-spirv-15
// compiled when the bench was built (bench/CMakeLists.txt); without those
// tools the rows are left out.
//
// Usage: clcpu_bench [--a NAME] [--b NAME|none] [--reps N] [--quick]
//                    [--only LIST] [--threads COUNTS] [--json FILE] [--list]
//                    [--tries]
// NAME is a substring of CL_PLATFORM_NAME (defaults "clcpu" and "Portable
// Computing Language", i.e. PoCL). Exit status 1 if anything FAILed or a
// benchmark was n/a on A.
#include "bench/BenchCommon.h"
#include "bench/Kernels.h"

#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <random>
#include <sched.h>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#if defined(__SSE__)
#include <immintrin.h>
#endif

namespace {

using namespace bench;

//===----------------------------------------------------------------------===//
// Platforms
//===----------------------------------------------------------------------===//

/// \p Root restricted to \p N compute units (--threads): Root itself when N
/// is all of them, else a sub-device of N (CL_DEVICE_PARTITION_BY_COUNTS)
/// with its own context and queue in Sub. Why says why not when P is null.
struct Workers {
  Platform *P = nullptr;
  std::unique_ptr<Platform> Sub;
  std::string Why;
};

Workers restrictTo(Platform &Root, cl_uint N) {
  Workers W;
  if (N == Root.ComputeUnits) {
    W.P = &Root;
    return W;
  }
  if (N > Root.ComputeUnits) {
    W.Why = "the device has only " + std::to_string(Root.ComputeUnits) +
            (Root.ComputeUnits == 1 ? " compute unit" : " compute units");
    return W;
  }
  auto Sub = std::make_unique<Platform>();
  Sub->Label = Root.Label, Sub->Query = Root.Query, Sub->Name = Root.Name;
  Sub->Version = Root.Version, Sub->Id = Root.Id;
  const cl_device_partition_property Props[] = {
      CL_DEVICE_PARTITION_BY_COUNTS, cl_device_partition_property(N),
      CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
  cl_uint Got = 0;
  cl_int Err = clCreateSubDevices(Root.Dev, Props, 1, &Sub->Dev, &Got);
  const char *What = "clCreateSubDevices";
  if (Err == CL_SUCCESS && Got != 1)
    Err = CL_DEVICE_PARTITION_FAILED;
  if (Err == CL_SUCCESS) {
    Sub->SubDevice = true;
    What = "clCreateContext";
    Sub->Ctx = clCreateContext(nullptr, 1, &Sub->Dev, nullptr, nullptr, &Err);
  }
  if (Err == CL_SUCCESS) {
    What = "clCreateCommandQueueWithProperties";
    Sub->Queue =
        clCreateCommandQueueWithProperties(Sub->Ctx, Sub->Dev, nullptr, &Err);
  }
  if (Err != CL_SUCCESS) {
    W.Why = std::string(What) + " for " + std::to_string(N) +
            " compute units failed (" + std::to_string(Err) + ")";
    return W;
  }
  Sub->Device = deviceString(Sub->Dev, CL_DEVICE_NAME);
  Sub->Collectives =
      hasCFeature(Sub->Dev, "__opencl_c_work_group_collective_functions");
  Sub->DotProduct = hasCFeature(
      Sub->Dev, "__opencl_c_integer_dot_product_input_4x8bit_packed");
  Sub->ComputeUnits = N;
  W.Sub = std::move(Sub);
  W.P = W.Sub.get();
  return W;
}

//===----------------------------------------------------------------------===//
// Benchmark base: one instance per platform and benchmark
//===----------------------------------------------------------------------===//

struct Sizes {
  size_t Stream;     // floats per array for copy / vadd / saxpy / reduce
  size_t Compute;    // floats for math; Compute / 4 ints for compact
  int NBody;         // bodies
  int Gemm;          // matrix order
  int Dot;           // dot_int8's matrix order (outputs: Dot^2)
  int DotK;          // dot_int8's packed words per dot product
  int Scan;          // ints
  int BarrierGroups; // work-groups of 256 in the barrier stress
  int BarrierIters;  // rounds of 2 barriers each
  size_t MapBytes;
  int BlockingLaunches; // per repetition
  int BatchLaunches;    // per repetition (one clFinish)
  int CmdbufReplays;    // cmdbuf_replay: replays of 100 kernels per repetition
  int Maps;             // map/unmap pairs per repetition
  int Builds;           // (cold/warm builds: one per repetition)
  int LargeLines;       // statements of build_large's kernel
  size_t PipeInts;      // pipe_stream: ints through the pipe
  int Image;            // image rows: the source's width and height
  int ImageOut;         // image_bilinear / image_nearest_u8: the output's
};

/// The host's last-level cache in bytes (0: not found) and where the size
/// was read.
struct CacheSize {
  size_t Bytes = 0;
  std::string From = "not found";
};

/// "32768K", "1M", "512" (sysfs cache sizes) in bytes; 0 if unreadable.
size_t parseCacheSize(const std::string &S) {
  char *End = nullptr;
  unsigned long long V = std::strtoull(S.c_str(), &End, 10);
  switch (End && *End ? *End : ' ') {
  case 'K':
    return size_t(V) << 10;
  case 'M':
    return size_t(V) << 20;
  case 'G':
    return size_t(V) << 30;
  default:
    return size_t(V);
  }
}

/// sysconf's level-3 cache, else the highest level cpu0 lists in sysfs.
CacheSize lastLevelCache() {
  CacheSize C;
#ifdef _SC_LEVEL3_CACHE_SIZE
  long L3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
  if (L3 > 0) {
    C.Bytes = size_t(L3), C.From = "L3, sysconf";
    return C;
  }
#endif
  int Best = 0;
  for (int I = 0;; ++I) {
    std::string Dir =
        "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(I);
    std::ifstream LevelIn(Dir + "/level"), SizeIn(Dir + "/size");
    int Level = 0;
    std::string Size;
    if (!(LevelIn >> Level) || !(SizeIn >> Size))
      break;
    size_t Bytes = parseCacheSize(Size);
    if (Bytes == 0 || Level < Best)
      continue;
    if (Level > Best)
      C.Bytes = 0;
    Best = Level;
    C.Bytes = std::max(C.Bytes, Bytes);
    C.From = "L" + std::to_string(Level) + ", sysfs";
  }
  return C;
}

/// The full-size streaming and scan arrays' bounds (fullSizes).
constexpr size_t FixedStream = size_t(16) << 20; // floats, cache unknown
constexpr int FixedScan = 16 << 20;              // ints, cache unknown
/// Sums of the scan's inputs stay within int below this many.
constexpr size_t MaxScan = size_t(1) << 30;

/// Elements (4 bytes each) of one full-size streaming or scan array: 4 x
/// the last-level cache in bytes, never fewer than \p Fixed, at most
/// \p MaxBytes unless that is below Fixed, rounded up to a multiple of
/// 2^20 elements, which the streaming kernels' work-group sizes and the
/// scans' chunks (256 work-items x k of 8-1024 ints) divide. \p Capped is
/// set when MaxBytes kept it below 4 x the cache.
size_t cacheSized(size_t LlcBytes, size_t Fixed, size_t MaxBytes,
                  bool &Capped) {
  constexpr size_t Grain = size_t(1) << 20;
  size_t Want = (LlcBytes + Grain - 1) / Grain * Grain; // 4 x LLC bytes / 4
  size_t Max = MaxBytes / 4 / Grain * Grain;
  if (Want > Max && Max >= Fixed)
    Capped = true;
  return std::max(Fixed, std::min(Want, Max));
}

/// The sizes without --quick: the streaming arrays (copy, vadd, saxpy,
/// reduce_local) and the scan's as cacheSized, so that every array is
/// read from memory rather than the last-level cache; the rest fixed.
Sizes fullSizes(const CacheSize &Llc, size_t MaxArrayBytes, bool &Capped) {
  return {.Stream = cacheSized(Llc.Bytes, FixedStream, MaxArrayBytes, Capped),
          .Compute = size_t(16) << 20,
          .NBody = 16384,
          .Gemm = 1024,
          .Dot = 2048,
          .DotK = 64,
          .Scan = int(cacheSized(Llc.Bytes, FixedScan,
                                 std::min(MaxArrayBytes, MaxScan * 4), Capped)),
          .BarrierGroups = 512,
          .BarrierIters = 64,
          .MapBytes = size_t(64) << 20,
          .BlockingLaunches = 200,
          .BatchLaunches = 1000,
          .CmdbufReplays = 1000,
          .Maps = 20,
          .Builds = 1,
          .LargeLines = 2500,
          .PipeInts = size_t(64) << 20,
          .Image = 4096,
          .ImageOut = 3000};
}

Sizes quickSizes() {
  return {.Stream = size_t(1) << 16,
          .Compute = size_t(1) << 16,
          .NBody = 1024,
          .Gemm = 128,
          .Dot = 128,
          .DotK = 16,
          .Scan = 1 << 18,
          .BarrierGroups = 8,
          .BarrierIters = 8,
          .MapBytes = size_t(1) << 20,
          .BlockingLaunches = 20,
          .BatchLaunches = 100,
          .CmdbufReplays = 10,
          .Maps = 4,
          .Builds = 1,
          .LargeLines = 100,
          .PipeInts = size_t(1) << 20,
          .Image = 256,
          .ImageOut = 187};
}

/// Physical memory in bytes (0 if unknown).
size_t physicalMemory() {
  long Pages = sysconf(_SC_PHYS_PAGES), Page = sysconf(_SC_PAGESIZE);
  return Pages > 0 && Page > 0 ? size_t(Pages) * size_t(Page) : 0;
}

/// "16M", "256K" or "1000" elements.
std::string countStr(size_t N) {
  if (N >= (size_t(1) << 20) && N % (size_t(1) << 20) == 0)
    return std::to_string(N >> 20) + "M";
  if (N >= 1024 && N % 1024 == 0)
    return std::to_string(N >> 10) + "K";
  return std::to_string(N);
}

/// "512 MiB", "256 KiB".
std::string mib(size_t Bytes) {
  if (Bytes >= (size_t(1) << 20))
    return std::to_string(Bytes >> 20) + " MiB";
  return std::to_string(Bytes >> 10) + " KiB";
}

class Bench {
public:
  explicit Bench(Platform &P) : P(P) {}
  virtual ~Bench() {
    for (cl_kernel K : Kernels)
      clReleaseKernel(K);
    for (cl_program Pr : Programs)
      clReleaseProgram(Pr);
    for (cl_mem M : Mems)
      clReleaseMemObject(M);
  }
  Bench(const Bench &) = delete;
  Bench &operator=(const Bench &) = delete;

  // Builds and allocates; throws NotAvailable or ClError.
  virtual void setUp() = 0;
  // One repetition; returns the seconds of one unit (see Spec).
  virtual double run() = 0;
  // "" when the last run's results are right, else what is wrong.
  virtual std::string verify() = 0;

  std::string Note; // shown beside the result (e.g. a substituted variant)

protected:
  Platform &P;
  std::vector<cl_mem> Mems;
  std::vector<cl_program> Programs;
  std::vector<cl_kernel> Kernels;

  cl_mem buffer(size_t Bytes, const void *Init = nullptr) {
    cl_int Err = CL_SUCCESS;
    cl_mem M = clCreateBuffer(P.Ctx, CL_MEM_READ_WRITE, Bytes, nullptr, &Err);
    check(Err, "clCreateBuffer");
    Mems.push_back(M);
    if (Init)
      check(clEnqueueWriteBuffer(P.Queue, M, CL_TRUE, 0, Bytes, Init, 0,
                                 nullptr, nullptr),
            "clEnqueueWriteBuffer");
    return M;
  }

  // Builds Src; a build failure is NotAvailable with the first error line.
  cl_program program(const std::string &Src, const std::string &Options,
                     bool Keep = true) {
    const char *S = Src.c_str();
    cl_int Err = CL_SUCCESS;
    cl_program Pr = clCreateProgramWithSource(P.Ctx, 1, &S, nullptr, &Err);
    check(Err, "clCreateProgramWithSource");
    return build(Pr, Options, Keep);
  }

  // Builds the SPIR-V module Il (clCreateProgramWithIL); NotAvailable if
  // the device takes no SPIR-V or the build fails.
  cl_program programIL(const std::string &Il, const std::string &Options,
                       bool Keep = true) {
    size_t Size = 0;
    std::string Versions;
    if (clGetDeviceInfo(P.Dev, CL_DEVICE_IL_VERSION, 0, nullptr, &Size) ==
        CL_SUCCESS) {
      Versions.resize(Size);
      clGetDeviceInfo(P.Dev, CL_DEVICE_IL_VERSION, Size, Versions.data(),
                      nullptr);
    }
    if (Versions.find("SPIR-V") == std::string::npos)
      throw NotAvailable("no SPIR-V programs (CL_DEVICE_IL_VERSION: \"" +
                         std::string(Versions.c_str()) + "\")");
    cl_int Err = CL_SUCCESS;
    cl_program Pr = clCreateProgramWithIL(P.Ctx, Il.data(), Il.size(), &Err);
    check(Err, "clCreateProgramWithIL");
    return build(Pr, Options, Keep);
  }

  // The bench's kernels as SPIR-V, compiled when the bench was built
  // (bench/CMakeLists.txt): "stream" or "scan".
  static std::string spirvModule(const char *Name) {
#ifdef CLCPU_BENCH_SPIRV_DIR
    std::string Path = std::string(CLCPU_BENCH_SPIRV_DIR) + "/" + Name + ".spv";
    std::ifstream In(Path, std::ios::binary);
    if (!In)
      throw NotAvailable("no SPIR-V module " + Path);
    return std::string(std::istreambuf_iterator<char>(In), {});
#else
    throw NotAvailable(std::string("no SPIR-V module ") + Name +
                       " (clang-15 or llvm-spirv-15 missing at build time)");
#endif
  }

  cl_program build(cl_program Pr, const std::string &Options, bool Keep) {
    std::string All = Options + P.ExtraOptions;
    cl_int Err = clBuildProgram(Pr, 1, &P.Dev, All.c_str(), nullptr, nullptr);
    if (Err != CL_SUCCESS) {
      size_t Size = 0;
      clGetProgramBuildInfo(Pr, P.Dev, CL_PROGRAM_BUILD_LOG, 0, nullptr, &Size);
      std::string Log(Size, '\0');
      clGetProgramBuildInfo(Pr, P.Dev, CL_PROGRAM_BUILD_LOG, Size, Log.data(),
                            nullptr);
      clReleaseProgram(Pr);
      std::string Line;
      std::istringstream In(Log);
      for (std::string L; std::getline(In, L);)
        if (L.find("error") != std::string::npos) {
          Line = L;
          break;
        }
      if (Line.size() > 160)
        Line = Line.substr(0, 160) + "...";
      throw NotAvailable("build failed (" + std::to_string(Err) + ")" +
                         (Line.empty() ? "" : ": " + Line));
    }
    if (Keep)
      Programs.push_back(Pr);
    return Pr;
  }

  cl_kernel kernel(cl_program Pr, const char *Name) {
    cl_int Err = CL_SUCCESS;
    cl_kernel K = clCreateKernel(Pr, Name, &Err);
    check(Err, "clCreateKernel");
    Kernels.push_back(K);
    return K;
  }

  template <class... Ts> void args(cl_kernel K, const Ts &...As) {
    cl_uint I = 0;
    (check(clSetKernelArg(K, I++, sizeof(Ts), &As), "clSetKernelArg"), ...);
  }

  /// Sets the arguments from index First on.
  template <class... Ts>
  void argsFrom(cl_kernel K, cl_uint First, const Ts &...As) {
    cl_uint I = First;
    (check(clSetKernelArg(K, I++, sizeof(Ts), &As), "clSetKernelArg"), ...);
  }

  void launch(cl_kernel K, cl_uint Dims, const size_t *Global,
              const size_t *Local = nullptr) {
    check(clEnqueueNDRangeKernel(P.Queue, K, Dims, nullptr, Global, Local, 0,
                                 nullptr, nullptr),
          "clEnqueueNDRangeKernel");
  }

  void finish() { check(clFinish(P.Queue), "clFinish"); }

  template <class T> std::vector<T> read(cl_mem M, size_t Count) {
    std::vector<T> V(Count);
    check(clEnqueueReadBuffer(P.Queue, M, CL_TRUE, 0, Count * sizeof(T),
                              V.data(), 0, nullptr, nullptr),
          "clEnqueueReadBuffer");
    return V;
  }

  static std::string mismatch(const char *What, size_t I, double Got,
                              double Want) {
    char Buf[160];
    std::snprintf(Buf, sizeof Buf, "%s[%zu] = %.9g, expected %.9g", What, I,
                  Got, Want);
    return Buf;
  }
};

//===----------------------------------------------------------------------===//
// The benchmarks
//===----------------------------------------------------------------------===//

class LaunchBench : public Bench {
public:
  LaunchBench(Platform &P, bool Batched, int Count)
      : Bench(P), Batched(Batched), Count(Count) {}
  void setUp() override { K = kernel(program(kernels::Empty, ""), "empty"); }
  double run() override {
    size_t One = 1;
    double T0 = nowSec();
    if (Batched) {
      for (int I = 0; I < Count; ++I)
        launch(K, 1, &One, &One);
      finish();
    } else {
      for (int I = 0; I < Count; ++I) {
        launch(K, 1, &One, &One);
        finish();
      }
    }
    return (nowSec() - T0) / Count;
  }
  std::string verify() override { return ""; } // clFinish succeeded

private:
  bool Batched;
  int Count;
  cl_kernel K = nullptr;
};

// enqueue_tree: one launch of a parent of Children work-items, each
// enqueuing one child kernel of 64 work-items on the default device queue
// (device-side enqueue, OpenCL C 2.0 6.13.17), until clFinish: the time
// per child. Its goal: at most twice launch_batched's time per launch.
class EnqueueTreeBench : public Bench {
public:
  EnqueueTreeBench(Platform &P, size_t Children)
      : Bench(P), Children(Children) {}
  ~EnqueueTreeBench() override {
    if (DevQ)
      clReleaseCommandQueue(DevQ);
  }
  void setUp() override {
    cl_device_device_enqueue_capabilities Caps = 0;
    if (clGetDeviceInfo(P.Dev, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES,
                        sizeof Caps, &Caps, nullptr) != CL_SUCCESS ||
        !(Caps & CL_DEVICE_QUEUE_SUPPORTED))
      throw NotAvailable("no device-side enqueue "
                         "(CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES)");
    cl_uint Max = 0;
    check(clGetDeviceInfo(P.Dev, CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, sizeof Max,
                          &Max, nullptr),
          "clGetDeviceInfo");
    cl_queue_properties Props[] = {CL_QUEUE_PROPERTIES,
                                   CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE |
                                       CL_QUEUE_ON_DEVICE |
                                       CL_QUEUE_ON_DEVICE_DEFAULT,
                                   CL_QUEUE_SIZE, Max, 0};
    cl_int Err = CL_SUCCESS;
    DevQ = clCreateCommandQueueWithProperties(P.Ctx, P.Dev, Props, &Err);
    check(Err, "clCreateCommandQueueWithProperties(CL_QUEUE_ON_DEVICE)");
    Out = buffer(Children * 64 * 4);
    Status = buffer(Children * 4);
    K = kernel(program(kernels::EnqueueTree, "-cl-std=CL2.0"), "tree");
    args(K, Out, Status);
  }
  double run() override {
    cl_int Fill = -1;
    check(clEnqueueFillBuffer(P.Queue, Out, &Fill, 4, 0, Children * 64 * 4, 0,
                              nullptr, nullptr),
          "clEnqueueFillBuffer");
    finish();
    size_t Local = 64;
    double T0 = nowSec();
    launch(K, 1, &Children, &Local);
    finish();
    return (nowSec() - T0) / double(Children);
  }
  std::string verify() override {
    std::vector<cl_int> St = read<cl_int>(Status, Children);
    for (size_t I = 0; I < Children; ++I)
      if (St[I] != 0)
        return mismatch("enqueue_kernel status", I, St[I], 0);
    std::vector<cl_int> O = read<cl_int>(Out, Children * 64);
    for (size_t I = 0; I < O.size(); ++I)
      if (O[I] != cl_int(I / 64 + I % 64))
        return mismatch("out", I, O[I], cl_int(I / 64 + I % 64));
    return "";
  }

private:
  size_t Children;
  cl_command_queue DevQ = nullptr;
  cl_mem Out = nullptr, Status = nullptr;
  cl_kernel K = nullptr;
};

// cmdbuf_replay: a command-buffer (cl_khr_command_buffer) of Count launches
// of 1024 work-items each, replayed Replays times, timed per launch. The
// same launches enqueued one by one (then one clFinish) are timed in setUp
// for the note. A platform without the extension enqueues them in the run
// too. The entry points it uses have the same parameters in every revision
// of the extension (0.9.0 to 0.9.8), so the installed header's types fit
// any driver's.
class CmdbufBench : public Bench {
public:
  CmdbufBench(Platform &P, int Replays) : Bench(P), Replays(Replays) {}
  ~CmdbufBench() override {
    if (CB)
      Release(CB);
  }
  void setUp() override {
    std::vector<cl_uint> Zero(Items, 0);
    X = buffer(Items * 4, Zero.data());
    K = kernel(program(kernels::CmdbufStep, ""), "increment");
    args(K, X);
    // The reference: the same launches enqueued.
    const int RefRounds = std::max(1, Replays / 10);
    double T0 = nowSec();
    for (int R = 0; R < RefRounds; ++R)
      enqueueAll();
    finish();
    double Enqueued = (nowSec() - T0) / (RefRounds * Count);
    Runs += RefRounds;
    char Buf[160];
    std::snprintf(Buf, sizeof Buf, "enqueued one by one: %.2f us per kernel",
                  Enqueued * 1e6);
    Note = Buf;
    if (!hasExtension(P.Dev, "cl_khr_command_buffer")) {
      Note += "; no cl_khr_command_buffer: the run enqueues them too";
      return;
    }
    cl_platform_id Plat = nullptr;
    clGetDeviceInfo(P.Dev, CL_DEVICE_PLATFORM, sizeof Plat, &Plat, nullptr);
    auto Fn = [&](const char *Name) {
      void *F = clGetExtensionFunctionAddressForPlatform(Plat, Name);
      if (!F)
        throw NotAvailable(std::string("no ") + Name);
      return F;
    };
    auto Create = reinterpret_cast<clCreateCommandBufferKHR_fn>(
        Fn("clCreateCommandBufferKHR"));
    auto Record = reinterpret_cast<clCommandNDRangeKernelKHR_fn>(
        Fn("clCommandNDRangeKernelKHR"));
    auto Finalize = reinterpret_cast<clFinalizeCommandBufferKHR_fn>(
        Fn("clFinalizeCommandBufferKHR"));
    Replay = reinterpret_cast<clEnqueueCommandBufferKHR_fn>(
        Fn("clEnqueueCommandBufferKHR"));
    Release = reinterpret_cast<clReleaseCommandBufferKHR_fn>(
        Fn("clReleaseCommandBufferKHR"));
    // Replays are enqueued back to back, each pending while the next is
    // enqueued: simultaneous use, which revisions before 0.9.8 refuse
    // without the flag.
    cl_device_command_buffer_capabilities_khr Caps = 0;
    clGetDeviceInfo(P.Dev, CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR,
                    sizeof Caps, &Caps, nullptr);
    if (!(Caps & CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR))
      throw NotAvailable("no simultaneous use of command-buffers");
    const cl_command_buffer_properties_khr Props[] = {
        CL_COMMAND_BUFFER_FLAGS_KHR, CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR, 0};
    cl_int Err = CL_SUCCESS;
    CB = Create(1, &P.Queue, Props, &Err);
    check(Err, "clCreateCommandBufferKHR");
    for (int I = 0; I < Count; ++I)
      check(Record(CB, nullptr, nullptr, K, 1, nullptr, &Items, nullptr, 0,
                   nullptr, nullptr, nullptr),
            "clCommandNDRangeKernelKHR");
    check(Finalize(CB), "clFinalizeCommandBufferKHR");
    Note +=
        "; replayed: command-buffer of " + std::to_string(Count) + " kernels";
  }
  double run() override {
    double T0 = nowSec();
    for (int R = 0; R < Replays; ++R) {
      if (CB)
        check(Replay(0, nullptr, CB, 0, nullptr, nullptr),
              "clEnqueueCommandBufferKHR");
      else
        enqueueAll();
    }
    finish();
    Runs += Replays;
    return (nowSec() - T0) / (double(Replays) * Count);
  }
  std::string verify() override {
    std::vector<cl_uint> Got = read<cl_uint>(X, Items);
    cl_uint Want = cl_uint(Runs * Count);
    for (size_t I = 0; I < Items; ++I)
      if (Got[I] != Want)
        return mismatch("x", I, Got[I], Want);
    return "";
  }

private:
  void enqueueAll() {
    for (int I = 0; I < Count; ++I)
      launch(K, 1, &Items);
  }
  static constexpr int Count = 100;
  size_t Items = 1024;
  int Replays;
  long Runs = 0; // replays (or rounds of Count enqueues) so far
  cl_mem X = nullptr;
  cl_kernel K = nullptr;
  cl_command_buffer_khr CB = nullptr;
  clEnqueueCommandBufferKHR_fn Replay = nullptr;
  clReleaseCommandBufferKHR_fn Release = nullptr;
};

// copy, vadd, saxpy over N floats (integer values: every result is exact).
class StreamBench : public Bench {
public:
  enum Kind { Copy, Vadd, Saxpy };
  StreamBench(Platform &P, Kind Which, size_t N, bool Spirv = false)
      : Bench(P), Which(Which), N(N), Spirv(Spirv) {}
  void setUp() override {
    X.resize(N);
    Y.resize(N);
    for (size_t I = 0; I < N; ++I) {
      X[I] = float(I % 1000);
      Y[I] = float((I * 7) % 1000);
    }
    BX = buffer(N * 4, X.data());
    BY = buffer(N * 4, Y.data());
    if (Which == Vadd)
      BZ = buffer(N * 4, Y.data());
    cl_program Pr = Spirv ? programIL(spirvModule("stream"), "")
                          : program(kernels::Stream, "");
    static const char *const Names[] = {"copy", "vadd", "saxpy"};
    K = kernel(Pr, Names[Which]);
    if (Which == Copy)
      args(K, BX, BY);
    else if (Which == Vadd)
      args(K, BX, BY, BZ);
    else
      args(K, BY, BX, A);
  }
  double run() override {
    double T0 = nowSec();
    launch(K, 1, &N);
    finish();
    ++Runs;
    return nowSec() - T0;
  }
  std::string verify() override {
    std::vector<float> Out = read<float>(Which == Vadd ? BZ : BY, N);
    for (size_t I = 0; I < N; ++I) {
      float Want = Which == Copy   ? X[I]
                   : Which == Vadd ? X[I] + Y[I]
                                   : Y[I] + float(Runs) * A * X[I];
      if (Out[I] != Want)
        return mismatch("out", I, Out[I], Want);
    }
    return "";
  }

private:
  Kind Which;
  size_t N;
  bool Spirv;
  float A = 2.0f;
  int Runs = 0;
  std::vector<float> X, Y;
  cl_mem BX = nullptr, BY = nullptr, BZ = nullptr;
  cl_kernel K = nullptr;
};

class NBodyBench : public Bench {
public:
  NBodyBench(Platform &P, int N) : Bench(P), N(N) {}
  void setUp() override {
    Lcg R(42);
    Pos.resize(size_t(N) * 4);
    for (int I = 0; I < N; ++I) {
      Pos[4 * I] = R.uniform(-1, 1);
      Pos[4 * I + 1] = R.uniform(-1, 1);
      Pos[4 * I + 2] = R.uniform(-1, 1);
      Pos[4 * I + 3] = R.uniform(0.5f, 1);
    }
    BPos = buffer(Pos.size() * 4, Pos.data());
    BAcc = buffer(Pos.size() * 4);
    K = kernel(program(kernels::NBody, ""), "nbody");
    args(K, BPos, BAcc, N, Eps2);
  }
  double run() override {
    size_t G = N;
    double T0 = nowSec();
    launch(K, 1, &G);
    finish();
    return nowSec() - T0;
  }
  std::string verify() override {
    std::vector<float> Acc = read<float>(BAcc, size_t(N) * 4);
    int Step = N > 1024 ? N / 61 : 1; // a sample of bodies at full size
    for (int I = 0; I < N; I += Step) {
      double A[3] = {}, Mag[3] = {};
      for (int J = 0; J < N; ++J) {
        double D[3];
        for (int C = 0; C < 3; ++C)
          D[C] = double(Pos[4 * J + C]) - Pos[4 * I + C];
        double R2 = D[0] * D[0] + D[1] * D[1] + D[2] * D[2] + Eps2;
        double S = Pos[4 * J + 3] / (R2 * std::sqrt(R2));
        for (int C = 0; C < 3; ++C) {
          A[C] += D[C] * S;
          Mag[C] += std::fabs(D[C] * S);
        }
      }
      for (int C = 0; C < 3; ++C)
        if (!(std::fabs(Acc[4 * I + C] - A[C]) <= 1e-4 * Mag[C] + 1e-6))
          return mismatch("acc", 4 * I + C, Acc[4 * I + C], A[C]);
    }
    return "";
  }

private:
  int N;
  float Eps2 = 0.01f;
  std::vector<float> Pos;
  cl_mem BPos = nullptr, BAcc = nullptr;
  cl_kernel K = nullptr;
};

// Naive or tiled n x n sgemm; small integer inputs make every sum exact.
class GemmBench : public Bench {
public:
  GemmBench(Platform &P, bool Tiled, int N) : Bench(P), Tiled(Tiled), N(N) {}
  void setUp() override {
    A.resize(size_t(N) * N);
    B.resize(size_t(N) * N);
    for (int I = 0; I < N; ++I)
      for (int J = 0; J < N; ++J) {
        A[size_t(I) * N + J] = float((I * 7 + J * 3) % 5 - 2);
        B[size_t(I) * N + J] = float((I * 5 + J * 11) % 7 - 3);
      }
    BA = buffer(A.size() * 4, A.data());
    BB = buffer(B.size() * 4, B.data());
    BC = buffer(A.size() * 4);
    K = kernel(program(kernels::Sgemm, ""),
               Tiled ? "sgemm_tiled" : "sgemm_naive");
    args(K, N, BA, BB, BC);
  }
  double run() override {
    size_t G[2] = {size_t(N), size_t(N)}, L[2] = {16, 16};
    double T0 = nowSec();
    launch(K, 2, G, Tiled ? L : nullptr);
    finish();
    return nowSec() - T0;
  }
  std::string verify() override {
    std::vector<float> C = read<float>(BC, size_t(N) * N);
    int Step = N > 256 ? N / 13 : 1; // whole rows, a sample at full size
    for (int I = 0; I < N; I += Step)
      for (int J = 0; J < N; ++J) {
        float Want = 0;
        for (int K2 = 0; K2 < N; ++K2)
          Want += A[size_t(I) * N + K2] * B[size_t(K2) * N + J];
        if (C[size_t(I) * N + J] != Want)
          return mismatch("C", size_t(I) * N + J, C[size_t(I) * N + J], Want);
      }
    return "";
  }

private:
  bool Tiled;
  int N;
  std::vector<float> A, B;
  cl_mem BA = nullptr, BB = nullptr, BC = nullptr;
  cl_kernel K = nullptr;
};

// int8 matrix product (kernels::DotInt8): N x N outputs, each the
// saturating dot product of K packed words of A's row and B's column.
class DotInt8Bench : public Bench {
public:
  DotInt8Bench(Platform &P, int N, int K) : Bench(P), N(N), K(K) {}
  void setUp() override {
    Lcg R(11);
    A.resize(size_t(N) * K);
    B.resize(size_t(K) * N);
    for (uint32_t &W : A)
      W = R.next();
    for (uint32_t &W : B)
      W = R.next();
    BA = buffer(A.size() * 4, A.data());
    BB = buffer(B.size() * 4, B.data());
    BC = buffer(size_t(N) * N * 4);
    Kern = kernel(
        program(kernels::DotInt8, P.DotProduct ? "-DUSE_DOT_PRODUCT" : ""),
        "dot_int8");
    Note = P.DotProduct ? "dot_acc_sat_4x8packed_us_int"
                        : "no cl_khr_integer_dot_product: int4 multiplies, "
                          "a sum and add_sat";
    args(Kern, K, BA, BB, BC);
  }
  double run() override {
    size_t G[2] = {size_t(N), size_t(N)};
    double T0 = nowSec();
    launch(Kern, 2, G);
    finish();
    return nowSec() - T0;
  }
  std::string verify() override {
    std::vector<int32_t> C = read<int32_t>(BC, size_t(N) * N);
    int Step = N > 256 ? N / 13 : 1; // whole rows, a sample at full size
    for (int I = 0; I < N; I += Step)
      for (int J = 0; J < N; ++J) {
        int64_t Acc = 0;
        for (int Kk = 0; Kk < K; ++Kk) {
          uint32_t X = A[size_t(I) * K + Kk], Y = B[size_t(Kk) * N + J];
          int64_t D = 0;
          for (int Byte = 0; Byte < 4; ++Byte)
            D += int64_t(uint8_t(X >> 8 * Byte)) * int8_t(Y >> 8 * Byte);
          Acc = std::clamp<int64_t>(Acc + D, INT32_MIN, INT32_MAX);
        }
        if (C[size_t(I) * N + J] != Acc)
          return mismatch("C", size_t(I) * N + J, C[size_t(I) * N + J],
                          double(Acc));
      }
    return "";
  }

private:
  int N, K;
  std::vector<uint32_t> A, B;
  cl_mem BA = nullptr, BB = nullptr, BC = nullptr;
  cl_kernel Kern = nullptr;
};

// Sum of N floats into one partial sum per work-group of 256.
class ReduceBench : public Bench {
public:
  ReduceBench(Platform &P, size_t N) : Bench(P), N(N) {}
  void setUp() override {
    G = std::max<size_t>(256, std::min<size_t>(65536, N / 256) / 256 * 256);
    In.resize(N);
    for (size_t I = 0; I < N; ++I)
      In[I] = float((I * 7) % 16);
    BIn = buffer(N * 4, In.data());
    BOut = buffer(G / 256 * 4);
    K = kernel(program(kernels::Reduce, ""), "reduce");
    args(K, BIn, BOut, int(N));
  }
  double run() override {
    size_t L = 256;
    double T0 = nowSec();
    launch(K, 1, &G, &L);
    finish();
    return nowSec() - T0;
  }
  std::string verify() override {
    // Every partial sum is an integer below 2^24: exact in any order.
    std::vector<double> Want(G / 256);
    for (size_t I = 0; I < N; ++I)
      Want[(I % G) / 256] += In[I];
    std::vector<float> Got = read<float>(BOut, G / 256);
    for (size_t I = 0; I < Want.size(); ++I)
      if (Got[I] != Want[I])
        return mismatch("partial", I, Got[I], Want[I]);
    return "";
  }

private:
  size_t N, G = 0;
  std::vector<float> In;
  cl_mem BIn = nullptr, BOut = nullptr;
  cl_kernel K = nullptr;
};

class BarrierBench : public Bench {
public:
  /// \p Fibers: on clcpu, build with -clcpu-force-fibers (its fallback
  /// path, for comparison); other platforms run their default.
  BarrierBench(Platform &P, int Groups, int Iters, bool Fibers = false)
      : Bench(P), Groups(Groups), Iters(Iters), Fibers(Fibers) {}
  void setUp() override {
    BOut = buffer(size_t(Groups) * 256 * 4);
    std::string Options;
    if (Fibers && P.Name.find("clcpu") != std::string::npos) {
      Options = "-clcpu-force-fibers";
      Note = "clcpu forced onto fibers (-clcpu-force-fibers)";
    }
    K = kernel(program(kernels::Reduce, Options), "barriers");
    args(K, BOut, Iters);
  }
  double run() override {
    size_t G = size_t(Groups) * 256, L = 256;
    double T0 = nowSec();
    launch(K, 1, &G, &L);
    finish();
    return nowSec() - T0;
  }
  std::string verify() override {
    std::vector<int> Out = read<int>(BOut, size_t(Groups) * 256);
    for (int Gr = 0; Gr < Groups; ++Gr)
      for (int L = 0; L < 256; ++L) {
        int Want = Gr * 256 + (L + Iters) % 256 + Iters;
        if (Out[size_t(Gr) * 256 + L] != Want)
          return mismatch("out", size_t(Gr) * 256 + L,
                          Out[size_t(Gr) * 256 + L], Want);
      }
    return "";
  }

private:
  int Groups, Iters;
  bool Fibers;
  cl_mem BOut = nullptr;
  cl_kernel K = nullptr;
};

// Stream compaction with sub-group ballots (kernels::Compact): the odd
// values of N ints, in any order of the sub-groups but in order within each.
class CompactBench : public Bench {
public:
  /// \p Fibers: on clcpu, build with -clcpu-force-fibers.
  CompactBench(Platform &P, int N, bool Fibers = false)
      : Bench(P), N(N), Fibers(Fibers) {}
  void setUp() override {
    In.resize(N);
    for (int I = 0; I < N; ++I)
      In[I] = static_cast<int>((uint32_t(I) * 2654435761u) >> 7);
    BIn = buffer(size_t(N) * 4, In.data());
    BOut = buffer(size_t(N) * 4);
    int Zero = 0;
    BCount = buffer(4, &Zero);
    std::string Options = "-cl-std=CL3.0";
    if (Fibers && P.Name.find("clcpu") != std::string::npos) {
      Options += " -clcpu-force-fibers";
      Note = "clcpu forced onto fibers (-clcpu-force-fibers)";
    }
    K = kernel(program(kernels::Compact, Options), "compact");
    args(K, BIn, BOut, BCount);
  }
  double run() override {
    size_t G = size_t(N), L = 256;
    int Zero = 0;
    double T0 = nowSec();
    check(clEnqueueFillBuffer(P.Queue, BCount, &Zero, 4, 0, 4, 0, nullptr,
                              nullptr),
          "clEnqueueFillBuffer");
    launch(K, 1, &G, &L);
    finish();
    return nowSec() - T0;
  }
  std::string verify() override {
    std::vector<int> Want;
    for (int V : In)
      if (V & 1)
        Want.push_back(V);
    std::vector<int> Count = read<int>(BCount, 1);
    if (Count[0] != static_cast<int>(Want.size()))
      return mismatch("count", 0, Count[0], static_cast<int>(Want.size()));
    std::vector<int> Out = read<int>(BOut, Want.size());
    std::sort(Out.begin(), Out.end());
    std::sort(Want.begin(), Want.end());
    for (size_t I = 0; I < Want.size(); ++I)
      if (Out[I] != Want[I])
        return mismatch("sorted out", I, Out[I], Want[I]);
    return "";
  }

private:
  int N;
  bool Fibers;
  std::vector<int> In;
  cl_mem BIn = nullptr, BOut = nullptr, BCount = nullptr;
  cl_kernel K = nullptr;
};

// Exclusive scan of N ints: three passes with work-group collectives (or,
// without them, the local-memory group scan), three passes with the local
// memory group scan, or one pass with decoupled look-back. Each work-item
// scans k consecutive ints, a group 256 * k. The three-pass scans run one of
// three schemes: scan-then-add (scan the chunks, scan their totals, add
// those to every element), reduce-then-scan (sum the chunks, scan the
// totals, scan the chunks from them), reduce-then-scan keeping each
// work-item's sum from the first pass for the last, or that last scheme
// pipelined over 8, 16, 32 or 64 blocks of chunks (the last pass of one
// block and the first pass of the next in one launch, the middle pass
// between them). The best k and scheme differ between implementations (a
// vectorizing compiler wants long per-item loops, a scalar one short ones;
// reduce-then-scan moves less memory but has more group steps), so each
// platform runs its own fastest combination, found in setUp (the median of
// 3 runs each, then of 7 more for the four fastest) and named in the note:
// "PoCL's best scan" is PoCL's best k and scheme. Each try runs after the row's
// host copy (rowHostCopy), as each measured repetition does: run back to back,
// part of the scan's arrays may stay in the last-level cache (all of them at
// --quick sizes), and the tries would pick what is fastest from the cache
// while the repetitions read from memory. The inputs are -8..7 (a sum of
// every 16 in a row is -8), so that no prefix of up to 2^30 of them leaves
// the range of int.
/// --tries: the scans print each scheme, block count and k they try, and
/// every row each measured repetition.
bool ShowTries = false;

/// The host copy that runs between a row's measured repetitions (runRow);
/// declared here for the scans' tries.
void rowHostCopy();

class ScanBench : public Bench {
public:
  enum Kind { Collective, Local, LookBack };
  enum Scheme { ScanThenAdd, ReduceThenScan, ReduceKeepThenScan, Pipelined };
  ScanBench(Platform &P, Kind Which, int N, bool Spirv = false)
      : Bench(P), Which(Which), N(N), Spirv(Spirv) {}
  void setUp() override {
    In.resize(N);
    for (int I = 0; I < N; ++I)
      In[I] = (I * 7 + 3) % 16 - 8;
    int MaxChunks = chunks(KChoices[0]);
    BIn = buffer(size_t(N) * 4, In.data());
    BOut = buffer(size_t(N) * 4);
    std::string Options = "-cl-std=CL1.2";
    if (Which == Collective) {
      if (P.Collectives)
        Options = "-cl-std=CL3.0 -DUSE_COLLECTIVES";
      else
        Note = "no work-group collectives: ran the local-memory scan; ";
    }
    // From SPIR-V: the collective scan, compiled with -DUSE_COLLECTIVES.
    if (Spirv && (Which != Collective || !P.Collectives))
      throw NotAvailable("the SPIR-V scan needs work-group collectives");
    cl_program Pr = Spirv ? programIL(spirvModule("scan"), "")
                          : program(kernels::Scan, Options);
    if (Which == LookBack) {
      int Zero = 0;
      BCounter = buffer(4, &Zero);
      BFlags = buffer(size_t(MaxChunks) * 4);
      BAggs = buffer(size_t(MaxChunks) * 4);
      BIncls = buffer(size_t(MaxChunks) * 4);
      KLook = kernel(Pr, "scan_lookback");
    } else {
      BSums = buffer(size_t(MaxChunks) * 4);
      BItemSums = buffer(size_t(MaxChunks) * 256 * 4);
      BOffsets = buffer(size_t(MaxChunks) * 4);
      BDummy = buffer(4);
      KBlocks = kernel(Pr, "scan_blocks");
      KSums = kernel(Pr, "scan_blocks");
      KAdd = kernel(Pr, "add_offsets");
      KReduce = kernel(Pr, "reduce_blocks");
      KFrom = kernel(Pr, "scan_blocks_from");
      KReduceKeep = kernel(Pr, "reduce_blocks_keep");
      KKept = kernel(Pr, "scan_blocks_kept");
      KPipe = kernel(Pr, "scan_pipelined");
    }
    struct Candidate {
      double T;
      int K;
      Scheme S;
      int Blocks;
    };
    std::vector<Candidate> Tried;
    // Each try after the row's host copy; the median of Reps of them.
    auto measure = [&](const Candidate &C, int Reps) {
      configure(C.K, C.S, C.Blocks);
      std::vector<double> Ts;
      for (int R = 0; R < Reps; ++R) {
        rowHostCopy();
        Ts.push_back(run());
      }
      std::sort(Ts.begin(), Ts.end());
      return Ts[Ts.size() / 2];
    };
    for (Scheme Try :
         {ScanThenAdd, ReduceThenScan, ReduceKeepThenScan, Pipelined}) {
      if (Try != ScanThenAdd && Which == LookBack)
        break;
      std::vector<int> BlockTries = {0};
      if (Try == Pipelined)
        BlockTries.assign(std::begin(BlockChoices), std::end(BlockChoices));
      for (int TryBlocks : BlockTries)
        for (int Choice : KChoices) {
          Candidate C{0, Choice, Try, TryBlocks};
          C.T = measure(C, 3);
          if (ShowTries)
            std::fprintf(stderr, "  %s %s: %s, %d blocks, k = %d: %.3f ms\n",
                         P.Label.c_str(), P.Name.c_str(), schemeName(Try),
                         TryBlocks, Choice, C.T * 1e3);
          Tried.push_back(C);
        }
    }
    // The four fastest again, 7 times each: the best of 3 alone lets a
    // combination that is fast only now and then win on one lucky run, and
    // the row's repetitions then run it at its usual speed, below what
    // another combination reaches.
    std::sort(Tried.begin(), Tried.end(),
              [](const Candidate &A, const Candidate &B) { return A.T < B.T; });
    Tried.resize(std::min<size_t>(Tried.size(), 4));
    for (Candidate &C : Tried) {
      C.T = measure(C, 7);
      if (ShowTries)
        std::fprintf(stderr, "  %s %s: again: %s, %d blocks, k = %d: %.3f ms\n",
                     P.Label.c_str(), P.Name.c_str(), schemeName(C.S), C.Blocks,
                     C.K, C.T * 1e3);
    }
    const Candidate &Best = *std::min_element(
        Tried.begin(), Tried.end(),
        [](const Candidate &A, const Candidate &B) { return A.T < B.T; });
    configure(Best.K, Best.S, Best.Blocks);
    std::string Range = std::to_string(KChoices[0]) + "-" +
                        std::to_string(std::end(KChoices)[-1]);
    if (Which == LookBack)
      Note += "k = " + std::to_string(K) + " (fastest of " + Range + ")";
    else
      Note +=
          std::string(schemeName(Sc)) +
          (Sc == Pipelined ? " in " + std::to_string(Blocks) + " blocks" : "") +
          ", k = " + std::to_string(K) + " (fastest of 4 schemes x k " + Range +
          ")";
  }
  double run() override {
    size_t L = 256, G = size_t(Chunks) * 256, GN = size_t(N);
    double T0 = nowSec();
    if (Which == LookBack) {
      int Zero = 0;
      check(clEnqueueFillBuffer(P.Queue, BCounter, &Zero, 4, 0, 4, 0, nullptr,
                                nullptr),
            "clEnqueueFillBuffer");
      check(clEnqueueFillBuffer(P.Queue, BFlags, &Zero, 4, 0,
                                size_t(Chunks) * 4, 0, nullptr, nullptr),
            "clEnqueueFillBuffer");
      launch(KLook, 1, &G, &L);
    } else if (Sc == ReduceThenScan) {
      launch(KReduce, 1, &G, &L);
      launch(KSums, 1, &L, &L);
      launch(KFrom, 1, &G, &L);
    } else if (Sc == ReduceKeepThenScan) {
      launch(KReduceKeep, 1, &G, &L);
      launch(KSums, 1, &L, &L);
      launch(KKept, 1, &G, &L);
    } else if (Sc == Pipelined) {
      // Launch J: pass 3 of block J - 1 and pass 1 of block J; then pass 2
      // over the totals of every chunk so far.
      int PerBlock = (Chunks + Blocks - 1) / Blocks;
      int NumBlocks = (Chunks + PerBlock - 1) / PerBlock;
      for (int J = 0; J <= NumBlocks; ++J) {
        int First3 = std::max(J - 1, 0) * PerBlock, First1 = J * PerBlock;
        int Count3 = J > 0 ? std::min(PerBlock, Chunks - First3) : 0;
        int Count1 = J < NumBlocks ? std::min(PerBlock, Chunks - First1) : 0;
        argsFrom(KPipe, 7, First3, Count3, First1, Count1);
        size_t GP = size_t(2 * std::max(Count3, Count1)) * 256;
        launch(KPipe, 1, &GP, &L);
        if (Count1 > 0) {
          int Done = First1 + Count1, SumsPerItem = (Done + 255) / 256;
          argsFrom(KSums, 3, Done, SumsPerItem);
          launch(KSums, 1, &L, &L);
        }
      }
    } else {
      launch(KBlocks, 1, &G, &L);
      launch(KSums, 1, &L, &L);
      launch(KAdd, 1, &GN);
    }
    finish();
    return nowSec() - T0;
  }
  std::string verify() override {
    std::vector<int> Out = read<int>(BOut, N);
    int Sum = 0;
    for (int I = 0; I < N; ++I) {
      if (Out[I] != Sum)
        return mismatch("out", I, Out[I], Sum);
      Sum += In[I];
    }
    return "";
  }

private:
  static constexpr int KChoices[] = {8, 16, 32, 64, 128, 256, 512, 1024};
  static constexpr int BlockChoices[] = {8, 16, 32, 64};
  Kind Which;
  int N, K = 0, Chunks = 0, Blocks = 0;
  bool Spirv;
  Scheme Sc = ScanThenAdd;
  std::vector<int> In;
  cl_mem BIn = nullptr, BOut = nullptr, BCounter = nullptr, BFlags = nullptr,
         BAggs = nullptr, BIncls = nullptr, BSums = nullptr, BOffsets = nullptr,
         BDummy = nullptr, BItemSums = nullptr;
  cl_kernel KBlocks = nullptr, KSums = nullptr, KAdd = nullptr, KLook = nullptr,
            KReduce = nullptr, KFrom = nullptr, KReduceKeep = nullptr,
            KKept = nullptr, KPipe = nullptr;

  static const char *schemeName(Scheme S) {
    switch (S) {
    case ScanThenAdd:
      return "scan-then-add";
    case ReduceThenScan:
      return "reduce-then-scan";
    case ReduceKeepThenScan:
      return "reduce-then-scan, item sums kept";
    case Pipelined:
      return "reduce-then-scan, item sums kept, pipelined";
    }
    return "";
  }

  int chunks(int PerItem) const {
    int Chunk = 256 * PerItem;
    return (N + Chunk - 1) / Chunk;
  }
  // k ints per work-item, the three-pass scheme and (pipelined) the number
  // of blocks: the chunk count and the kernels' arguments.
  void configure(int PerItem, Scheme S, int NumBlocks) {
    K = PerItem;
    Sc = S;
    Blocks = NumBlocks;
    Chunks = chunks(K);
    if (Which == LookBack) {
      args(KLook, BIn, BOut, N, K, BCounter, BFlags, BAggs, BIncls);
      return;
    }
    int Chunk = 256 * K, SumsPerItem = (Chunks + 255) / 256;
    args(KBlocks, BIn, BOut, BSums, N, K);
    args(KSums, BSums, BOffsets, BDummy, Chunks, SumsPerItem);
    args(KAdd, BOut, BOffsets, Chunk, N);
    args(KReduce, BIn, BSums, N, K);
    args(KFrom, BIn, BOut, BOffsets, N, K);
    args(KReduceKeep, BIn, BItemSums, BSums, N, K);
    args(KKept, BIn, BOut, BItemSums, BOffsets, N, K);
    args(KPipe, BIn, BOut, BItemSums, BSums, BOffsets, N, K);
  }
};

double mathRef(float X) {
  double V = X;
  return std::sin(V) + std::exp(double(X * 0.25f)) + std::log(V) +
         std::pow(V, 1.5);
}

double mathMag(float X) {
  double V = X;
  return std::fabs(std::sin(V)) + std::exp(double(X * 0.25f)) +
         std::fabs(std::log(V)) + std::pow(V, 1.5);
}

// sin + exp + log + pow; each within a few ulp of the exact value.
std::string checkMath(const std::vector<float> &X, const std::vector<float> &Y,
                      size_t Step) {
  for (size_t I = 0; I < X.size(); I += Step)
    if (!(std::fabs(Y[I] - mathRef(X[I])) <= 1e-5 * mathMag(X[I])))
      return "y[" + std::to_string(I) + "] = " + std::to_string(Y[I]) +
             ", expected " + std::to_string(mathRef(X[I])) +
             " (x = " + std::to_string(X[I]) + ")";
  return "";
}

// The math row on elements of type T: float, or half (_Float16) on a
// platform with cl_khr_fp16, stored as half and computed by clcpu in float
// lanes. The same inputs rounded to T; a half result within 8 half ulps
// (2^-8 relative) of the float reference of those inputs (each of the four
// terms is within a few half ulps, and the sum is rounded four times).
template <typename T> class MathBench : public Bench {
  static constexpr bool Half = std::is_same_v<T, _Float16>;

public:
  MathBench(Platform &P, size_t N) : Bench(P), N(N) {}
  void setUp() override {
    if (Half && !hasExtension(P.Dev, "cl_khr_fp16"))
      throw NotAvailable("no cl_khr_fp16");
    Lcg R(7);
    X.resize(N);
    for (T &V : X)
      V = T(R.uniform(0.1f, 20.0f));
    BX = buffer(N * sizeof(T), X.data());
    BY = buffer(N * sizeof(T));
    K = kernel(program(Half ? kernels::MathHalf : kernels::Math, ""),
               Half ? "math_half" : "math");
    args(K, BX, BY);
  }
  double run() override {
    double T0 = nowSec();
    launch(K, 1, &N);
    finish();
    return nowSec() - T0;
  }
  std::string verify() override {
    size_t Step = N > 65536 ? 7 : 1;
    if constexpr (!Half) {
      return checkMath(X, read<float>(BY, N), Step);
    } else {
      std::vector<T> Y = read<T>(BY, N);
      for (size_t I = 0; I < N; I += Step) {
        float Want = mathRef(float(X[I]));
        if (!(std::fabs(float(Y[I]) - Want) <= 0x1p-8f * mathMag(float(X[I]))))
          return mismatch("y", I, float(Y[I]), Want);
      }
      return "";
    }
  }

private:
  size_t N;
  std::vector<T> X;
  cl_mem BX = nullptr, BY = nullptr;
  cl_kernel K = nullptr;
};

// A float histogram of N values into 256 bins with atomic adds (16M: the
// bins, 1 KiB, stay in cache, so the row measures the atomics and their
// contention between workers). Platform A, given cl_ext_float_atomics,
// runs atomic_fetch_add on atomic_float; B (and A without the extension)
// the OpenCL C 1.2 compare-exchange loop, named in the note. The values are
// multiples of 1/8 below 1, so every bin's sum is exact whatever the order.
class HistBench : public Bench {
public:
  HistBench(Platform &P, size_t N) : Bench(P), N(N) {}
  void setUp() override {
    X.resize(N);
    for (size_t I = 0; I < N; ++I)
      X[I] = float((I * 7) % 8) * 0.125f;
    BX = buffer(N * 4, X.data());
    std::vector<float> Zero(256, 0.0f);
    BBins = buffer(256 * 4, Zero.data());
    // The reference (B) always runs the loop: the row measures what the
    // extension gains over what programs without it write.
    bool Native = P.Label == "A" && hasExtension(P.Dev, "cl_ext_float_atomics");
    Note = Native ? "atomic_fetch_add on atomic_float (cl_ext_float_atomics)"
                  : "compare-exchange loop (OpenCL C 1.2 atomic_cmpxchg)";
    K = kernel(program(Native ? kernels::HistFloatAtomics : kernels::HistCas,
                       Native ? "-cl-std=CL3.0" : ""),
               "hist");
    args(K, BX, BBins);
  }
  double run() override {
    float Zero = 0.0f;
    double T0 = nowSec();
    check(clEnqueueFillBuffer(P.Queue, BBins, &Zero, 4, 0, 256 * 4, 0, nullptr,
                              nullptr),
          "clEnqueueFillBuffer");
    size_t L = 256;
    launch(K, 1, &N, &L);
    finish();
    return nowSec() - T0;
  }
  std::string verify() override {
    std::vector<double> Want(256, 0.0);
    for (size_t I = 0; I < N; ++I)
      Want[uint32_t(uint32_t(I) * 2654435761u) >> 24] += X[I];
    std::vector<float> Got = read<float>(BBins, 256);
    for (size_t B = 0; B < 256; ++B)
      if (Got[B] != Want[B])
        return mismatch("bins", B, Got[B], Want[B]);
    return "";
  }

private:
  size_t N;
  std::vector<float> X;
  cl_mem BX = nullptr, BBins = nullptr;
  cl_kernel K = nullptr;
};

// pipe_stream: N ints from src to dst through a pipe, a producer kernel on
// the platform's queue and a consumer kernel on a second queue, running at
// once (OpenCL C 3.0 6.15.16, __opencl_c_pipes). The pipe holds Capacity
// packets, a few MiB, so producer and consumer meet in the cache while
// src and dst stream from memory. Each group of Local work-items moves one
// reservation of Local packets; a consumer group's packets are therefore
// one producer group's, in order: dst is src with its blocks of Local ints
// permuted, which verify() checks block by block.
class PipeStreamBench : public Bench {
public:
  PipeStreamBench(Platform &P, size_t N) : Bench(P), N(N) {}
  ~PipeStreamBench() override {
    if (Q2)
      clReleaseCommandQueue(Q2);
  }
  void setUp() override {
    cl_bool Pipes = CL_FALSE;
    if (clGetDeviceInfo(P.Dev, CL_DEVICE_PIPE_SUPPORT, sizeof Pipes, &Pipes,
                        nullptr) != CL_SUCCESS ||
        !Pipes || !P.Collectives)
      throw NotAvailable("no pipes (CL_DEVICE_PIPE_SUPPORT) or no "
                         "work-group collective functions");
    std::vector<cl_int> Src(N);
    for (size_t I = 0; I < N; ++I)
      Src[I] = cl_int(I);
    BSrc = buffer(N * 4, Src.data());
    BDst = buffer(N * 4);
    cl_int Err = CL_SUCCESS;
    Pipe = clCreatePipe(P.Ctx, 0, 4, Capacity, nullptr, &Err);
    check(Err, "clCreatePipe");
    Mems.push_back(Pipe);
    Q2 = clCreateCommandQueue(P.Ctx, P.Dev, 0, &Err);
    check(Err, "clCreateCommandQueue");
    // The kernels' loops wait for the other kernel, never for a work-item
    // of their own group: -cl-no-subgroup-ifp (cl_khr_subgroups) says so,
    // and keeps them off one fiber per work-item.
    cl_program Pr =
        program(kernels::PipeStream, "-cl-std=CL3.0 -cl-no-subgroup-ifp");
    KProd = kernel(Pr, "produce");
    KCons = kernel(Pr, "consume");
    args(KProd, BSrc, Pipe);
    args(KCons, Pipe, BDst);
  }
  double run() override {
    cl_int Fill = -1;
    check(clEnqueueFillBuffer(P.Queue, BDst, &Fill, 4, 0, N * 4, 0, nullptr,
                              nullptr),
          "clEnqueueFillBuffer");
    finish();
    double T0 = nowSec();
    check(clEnqueueNDRangeKernel(P.Queue, KProd, 1, nullptr, &N, &Local, 0,
                                 nullptr, nullptr),
          "clEnqueueNDRangeKernel");
    check(clFlush(P.Queue), "clFlush");
    check(clEnqueueNDRangeKernel(Q2, KCons, 1, nullptr, &N, &Local, 0, nullptr,
                                 nullptr),
          "clEnqueueNDRangeKernel");
    check(clFinish(Q2), "clFinish");
    finish();
    return nowSec() - T0;
  }
  std::string verify() override {
    std::vector<cl_int> Dst = read<cl_int>(BDst, N);
    std::vector<bool> Seen(N / Local, false);
    for (size_t B = 0; B < N / Local; ++B) {
      cl_int First = Dst[B * Local];
      if (First < 0 || size_t(First) % Local || size_t(First) >= N ||
          Seen[size_t(First) / Local])
        return mismatch("dst block start", B * Local, First, -1);
      Seen[size_t(First) / Local] = true;
      for (size_t L = 1; L < Local; ++L)
        if (Dst[B * Local + L] != First + cl_int(L))
          return mismatch("dst", B * Local + L, Dst[B * Local + L],
                          First + cl_int(L));
    }
    return "";
  }

private:
  static constexpr cl_uint Capacity = 1 << 18; // 1 KiB of packets per group
  size_t N, Local = 256;
  cl_mem BSrc = nullptr, BDst = nullptr, Pipe = nullptr;
  cl_command_queue Q2 = nullptr;
  cl_kernel KProd = nullptr, KCons = nullptr;
};

// A large generated kernel from source to its first result: Lines
// statements of straight-line float and integer arithmetic, math calls and
// branches over eight variables (what code generators emit), a new nonce
// each time so no cache helps; clBuildProgram, then one launch of 64
// work-items until clFinish (a driver that compiles the work-group
// function at the first launch, as PoCL does, pays for it there). The
// row's note is the reference: clang-19 -O3 compiling the same statements
// as C, in a loop over the elements (the loop the work-item loop is),
// measured once per row.
class BuildLargeBench : public Bench {
public:
  BuildLargeBench(Platform &P, int Lines) : Bench(P), Lines(Lines) {}
  /// The kernel (\p AsC: the same statements as a C function).
  static std::string source(int Lines, uint64_t Nonce, bool AsC) {
    static const char *V[] = {"a", "b", "c", "d", "e", "f", "g", "h"};
    std::ostringstream O;
    if (AsC)
      O << "#include <math.h>\nvoid large_" << Nonce
        << "(const float *in, float *out, long n) {\n"
           "  for (long i = 0; i < n; i++) {\n";
    else
      O << "kernel void large_" << Nonce
        << "(global const float *in, global float *out) {\n"
           "  size_t i = get_global_id(0);\n";
    O << "  float a = in[i];\n";
    for (int K = 1; K < 8; ++K)
      O << "  float " << V[K] << " = a * " << K + 1 << ".5f + " << K
        << ".25f;\n";
    for (int K = 0; K < Lines; ++K) {
      const char *X = V[K % 8], *Y = V[(K * 3 + 1) % 8],
                 *Z = V[(K * 5 + 2) % 8];
      std::string C = std::to_string(1.0 + (K % 97) / 1000.0) + "f";
      switch (K % 5) {
      case 0:
        O << "  " << X << " = " << X << " * " << C << " + " << Y << ";\n";
        break;
      case 1:
        O << "  " << X << " = (float)((int)(" << Y << " * 3.0f) / "
          << K % 13 + 1 << " ^ (int)" << Z << ");\n";
        break;
      case 2:
        O << "  if (" << Y << " > " << Z << ") " << X << " = " << X << " * "
          << C << "; else " << X << " = " << Z << " - " << X << ";\n";
        break;
      case 3:
        O << "  " << X << " = " << (AsC ? "sqrtf(fabsf(" : "sqrt(fabs(") << Y
          << ")) + " << Z << " * " << C << ";\n";
        break;
      default:
        O << "  " << X << " = fma(" << X << ", " << Y << ", " << Z
          << ") * 0.5f;\n";
      }
    }
    O << "  out[i] = a + b + c + d + e + f + g + h;\n";
    O << (AsC ? "  }\n}\n" : "}\n");
    return O.str();
  }
  void setUp() override {
    std::random_device Rd;
    Nonce = (uint64_t(Rd()) << 32) ^ Rd() ^ uint64_t(nowSec() * 1e9);
    Note = clangReference();
    std::vector<float> In(64, 0.5f);
    BIn = buffer(In.size() * 4, In.data());
    BOut = buffer(In.size() * 4);
  }
  double run() override {
    uint64_t N = Nonce + Count++;
    std::string Src = source(Lines, N, false);
    double T0 = nowSec();
    cl_program Pr = program(Src, "", false);
    cl_int Err = CL_SUCCESS;
    cl_kernel K =
        clCreateKernel(Pr, ("large_" + std::to_string(N)).c_str(), &Err);
    if (Err == CL_SUCCESS)
      Err = clSetKernelArg(K, 0, sizeof BIn, &BIn);
    if (Err == CL_SUCCESS)
      Err = clSetKernelArg(K, 1, sizeof BOut, &BOut);
    size_t G = 64;
    if (Err == CL_SUCCESS)
      Err = clEnqueueNDRangeKernel(P.Queue, K, 1, nullptr, &G, nullptr, 0,
                                   nullptr, nullptr);
    if (Err == CL_SUCCESS)
      Err = clFinish(P.Queue);
    double T1 = nowSec();
    if (K)
      clReleaseKernel(K);
    clReleaseProgram(Pr);
    check(Err, "large kernel launch");
    return T1 - T0;
  }
  std::string verify() override { return ""; } // a failure throws

private:
  /// "clang -O3: <ms>" for the same statements as C, or why not.
  std::string clangReference() {
    char Dir[] = "/tmp/clcpu-bench-XXXXXX";
    if (!mkdtemp(Dir))
      return "clang -O3: n/a";
    std::string C = std::string(Dir) + "/large.c";
    std::ofstream(C) << source(Lines, Nonce, true);
    std::string Cmd = "clang-19 -O3 -march=native -c " + C + " -o " + Dir +
                      "/large.o 2>/dev/null";
    double T0 = nowSec();
    int Rc = std::system(Cmd.c_str());
    double T1 = nowSec();
    std::remove(C.c_str());
    std::remove((std::string(Dir) + "/large.o").c_str());
    rmdir(Dir);
    if (Rc != 0)
      return "clang -O3: n/a";
    char Buf[64];
    std::snprintf(Buf, sizeof Buf, "clang -O3 of the same C: %.0f ms",
                  (T1 - T0) * 1e3);
    return Buf;
  }
  int Lines;
  uint64_t Nonce = 0, Count = 0;
  cl_mem BIn = nullptr, BOut = nullptr;
};

// clBuildProgram of a realistic program (nbody + math kernels):
//   Cold:  a source no cache can hold (a fresh nonce kernel every time);
//   Warm:  the same source as before, in a new program object;
//   First: cold build plus clCreateKernel and the first launch of `math`
//          (1024 items) until clFinish: what a user waits for.
class BuildBench : public Bench {
public:
  enum Kind { Cold, Warm, First, SpirvCold, SpirvWarm };
  BuildBench(Platform &P, Kind Which) : Bench(P), Which(Which) {}
  void setUp() override {
    if (Which == SpirvCold || Which == SpirvWarm) {
      Il = spirvModule("scan");
      std::random_device Rd;
      Nonce = (uint64_t(Rd()) << 32) ^ Rd() ^ uint64_t(nowSec() * 1e9);
      // Built once now, as the warm source (fills caches).
      clReleaseProgram(programIL(Il, "", false));
      return;
    }
    std::random_device Rd;
    Nonce = (uint64_t(Rd()) << 32) ^ Rd() ^ uint64_t(nowSec() * 1e9);
    Lcg R(3);
    X.resize(1024);
    for (float &V : X)
      V = R.uniform(0.1f, 20.0f);
    BX = buffer(X.size() * 4, X.data());
    BY = buffer(X.size() * 4);
    Same = source(); // the warm source, built once now (fills caches)
    cl_program Pr = program(Same, "", false);
    clReleaseProgram(Pr);
    if (Which == First) // the first launch also warms the launch path
      run();
  }
  double run() override {
    if (Which == SpirvCold || Which == SpirvWarm) {
      std::string Module = Which == SpirvWarm ? Il : uniqueModule();
      double T0 = nowSec();
      cl_program Pr = programIL(Module, "", false);
      double T1 = nowSec();
      clReleaseProgram(Pr);
      return T1 - T0;
    }
    std::string Src = Which == Warm ? Same : source();
    double T0 = nowSec();
    cl_program Pr = program(Src, "", false);
    double T1 = nowSec();
    if (Which != First) {
      clReleaseProgram(Pr);
      return T1 - T0;
    }
    cl_int Err = CL_SUCCESS;
    cl_kernel K = clCreateKernel(Pr, "math", &Err);
    if (Err == CL_SUCCESS)
      Err = clSetKernelArg(K, 0, sizeof BX, &BX);
    if (Err == CL_SUCCESS)
      Err = clSetKernelArg(K, 1, sizeof BY, &BY);
    size_t G = X.size();
    if (Err == CL_SUCCESS)
      Err = clEnqueueNDRangeKernel(P.Queue, K, 1, nullptr, &G, nullptr, 0,
                                   nullptr, nullptr);
    if (Err == CL_SUCCESS)
      Err = clFinish(P.Queue);
    double T2 = nowSec();
    if (K)
      clReleaseKernel(K);
    clReleaseProgram(Pr);
    check(Err, "first launch");
    return T2 - T0;
  }
  std::string verify() override {
    if (Which != First)
      return ""; // a failing build throws
    return checkMath(X, read<float>(BY, X.size()), 1);
  }

private:
  std::string source() {
    uint64_t N = Nonce + Count++;
    return std::string(kernels::NBody) + kernels::Math + "kernel void nonce_" +
           std::to_string(N) +
           "(global ulong *p) { p[0] = " + std::to_string(N) + "ul; }\n";
  }
  /// The scan module with a generator word of its own (header word 2, the
  /// producing tool's id and version, which nothing reads): a module no
  /// cache has seen.
  std::string uniqueModule() {
    std::string M = Il;
    uint32_t Word = uint32_t(Nonce + Count++);
    std::memcpy(&M[8], &Word, 4);
    return M;
  }
  Kind Which;
  uint64_t Nonce = 0, Count = 0;
  std::string Same, Il;
  std::vector<float> X;
  cl_mem BX = nullptr, BY = nullptr;
};

// Image kernels (kernels::Images) on W x H sources, resized to OW x OH:
// image_copy (CL_RGBA / CL_UNSIGNED_INT8, byte for byte), image_bilinear
// (CL_RGBA / CL_FLOAT through a linear, normalized, clamp-to-edge sampler;
// the host reference samples with the spec's formulas in double, within the
// coordinate rounding of float) and image_nearest_u8 (CL_RGBA /
// CL_UNORM_INT8 through a nearest, unnormalized, clamp-to-edge sampler with
// integer coordinates: exact).
class ImageBench : public Bench {
public:
  enum Kind { Copy, Bilinear, Nearest };
  ImageBench(Platform &P, Kind Which, int W, int H, int OW, int OH)
      : Bench(P), Which(Which), W(W), H(H), OW(Which == Copy ? W : OW),
        OH(Which == Copy ? H : OH) {}
  ~ImageBench() override {
    if (Smp)
      clReleaseSampler(Smp);
  }
  void setUp() override {
    cl_bool Images = CL_FALSE;
    clGetDeviceInfo(P.Dev, CL_DEVICE_IMAGE_SUPPORT, sizeof Images, &Images,
                    nullptr);
    if (!Images)
      throw NotAvailable("no images (CL_DEVICE_IMAGE_SUPPORT is CL_FALSE)");
    cl_channel_type Type = Which == Copy       ? CL_UNSIGNED_INT8
                           : Which == Bilinear ? CL_FLOAT
                                               : CL_UNORM_INT8;
    cl_image_format F = {CL_RGBA, Type};
    size_t Texel = Which == Bilinear ? 16 : 4;
    size_t N = size_t(W) * H * 4;
    // Smooth data for the filter (a texel off by one is still far outside
    // the tolerance), bytes for the others.
    if (Which == Bilinear) {
      SrcF.resize(N);
      for (int Y = 0; Y < H; ++Y)
        for (int X = 0; X < W; ++X)
          for (int C = 0; C < 4; ++C)
            SrcF[(size_t(Y) * W + X) * 4 + C] =
                0.5f + 0.5f * std::sin(0.17f * X + 0.11f * Y + 1.3f * C);
    } else {
      Lcg R(7);
      SrcB.resize(N);
      for (uint8_t &B : SrcB)
        B = uint8_t(R.next());
    }
    Src = image(F, W, H,
                Which == Bilinear ? static_cast<const void *>(SrcF.data())
                                  : SrcB.data());
    Dst = image(F, OW, OH, nullptr);
    OutBytes = size_t(OW) * OH * Texel;
    cl_program Pr = program(kernels::Images, "");
    static const char *const Names[] = {"image_copy", "image_bilinear",
                                        "image_nearest"};
    K = kernel(Pr, Names[Which]);
    if (Which == Copy) {
      args(K, Src, Dst);
      return;
    }
    cl_int Err = CL_SUCCESS;
    Smp = clCreateSampler(
        P.Ctx, Which == Bilinear ? CL_TRUE : CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE,
        Which == Bilinear ? CL_FILTER_LINEAR : CL_FILTER_NEAREST, &Err);
    check(Err, "clCreateSampler");
    args(K, Src, Smp, Dst);
    if (Which == Bilinear) {
      cl_float2 Inv = {{1.0f / float(OW), 1.0f / float(OH)}};
      argsFrom(K, 3, Inv);
    }
  }
  double run() override {
    size_t G[2] = {size_t(OW), size_t(OH)};
    double T0 = nowSec();
    launch(K, 2, G);
    finish();
    return nowSec() - T0;
  }
  std::string verify() override {
    std::vector<unsigned char> Out(OutBytes);
    size_t Origin[3] = {0, 0, 0}, Region[3] = {size_t(OW), size_t(OH), 1};
    check(clEnqueueReadImage(P.Queue, Dst, CL_TRUE, Origin, Region, 0, 0,
                             Out.data(), 0, nullptr, nullptr),
          "clEnqueueReadImage");
    if (Which == Copy) {
      for (size_t I = 0; I < Out.size(); ++I)
        if (Out[I] != SrcB[I])
          return mismatch("dst byte", I, Out[I], SrcB[I]);
      return "";
    }
    if (Which == Nearest) {
      for (int Y = 0; Y < OH; ++Y)
        for (int X = 0; X < OW; ++X) {
          size_t SX = size_t(X) * W / OW, SY = size_t(Y) * H / OH;
          for (int C = 0; C < 4; ++C) {
            size_t I = (size_t(Y) * OW + X) * 4 + C;
            uint8_t Want = SrcB[(SY * W + SX) * 4 + C];
            if (Out[I] != Want)
              return mismatch("dst byte", I, Out[I], Want);
          }
        }
      return "";
    }
    const float *Got = reinterpret_cast<const float *>(Out.data());
    for (int Y = 0; Y < OH; ++Y)
      for (int X = 0; X < OW; ++X)
        for (int C = 0; C < 4; ++C) {
          size_t I = (size_t(Y) * OW + X) * 4 + C;
          double Want = bilinear(X, Y, C);
          // The weights follow the coordinate, which the kernel computes in
          // float ((x + 0.5) / width, times the source width): a few ulp of
          // a coordinate near 4096, times a neighbour difference of at
          // most 0.17 here, stays well below this.
          if (!(std::fabs(Got[I] - Want) <= 1e-3))
            return mismatch("dst", I, Got[I], Want);
        }
    return "";
  }

private:
  /// OpenCL C 8.2 "Linear filtering", CLK_ADDRESS_CLAMP_TO_EDGE, channel
  /// \p C of output pixel (\p X, \p Y), in double.
  double bilinear(int X, int Y, int C) const {
    double U = (X + 0.5) / OW * W - 0.5, V = (Y + 0.5) / OH * H - 0.5;
    double FU = std::floor(U), FV = std::floor(V);
    double A = U - FU, B = V - FV;
    auto At = [&](double I, double J) {
      int XI = std::clamp(int(I), 0, W - 1), YJ = std::clamp(int(J), 0, H - 1);
      return double(SrcF[(size_t(YJ) * W + XI) * 4 + C]);
    };
    return (1 - A) * (1 - B) * At(FU, FV) + A * (1 - B) * At(FU + 1, FV) +
           (1 - A) * B * At(FU, FV + 1) + A * B * At(FU + 1, FV + 1);
  }
  cl_mem image(const cl_image_format &F, int Width, int Height,
               const void *Init) {
    cl_image_desc D = {};
    D.image_type = CL_MEM_OBJECT_IMAGE2D;
    D.image_width = size_t(Width);
    D.image_height = size_t(Height);
    cl_int Err = CL_SUCCESS;
    cl_mem M = clCreateImage(
        P.Ctx, CL_MEM_READ_WRITE | (Init ? CL_MEM_COPY_HOST_PTR : 0), &F, &D,
        const_cast<void *>(Init), &Err);
    if (Err == CL_IMAGE_FORMAT_NOT_SUPPORTED)
      throw NotAvailable("image format not supported");
    check(Err, "clCreateImage");
    Mems.push_back(M);
    return M;
  }
  Kind Which;
  int W, H, OW, OH;
  size_t OutBytes = 0;
  std::vector<uint8_t> SrcB;
  std::vector<float> SrcF;
  cl_mem Src = nullptr, Dst = nullptr;
  cl_sampler Smp = nullptr;
  cl_kernel K = nullptr;
};

// Blocking clEnqueueMapBuffer (read/write, whole buffer) + unmap + clFinish.
class MapBench : public Bench {
public:
  MapBench(Platform &P, size_t Bytes, int Count)
      : Bench(P), Bytes(Bytes), Count(Count) {}
  void setUp() override {
    std::vector<uint32_t> Init(Bytes / 4);
    for (size_t I = 0; I < Init.size(); ++I)
      Init[I] = uint32_t(I * 2654435761u);
    B = buffer(Bytes, Init.data());
  }
  double run() override {
    double T0 = nowSec();
    for (int I = 0; I < Count; ++I) {
      cl_int Err = CL_SUCCESS;
      void *Ptr =
          clEnqueueMapBuffer(P.Queue, B, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                             Bytes, 0, nullptr, nullptr, &Err);
      check(Err, "clEnqueueMapBuffer");
      check(clEnqueueUnmapMemObject(P.Queue, B, Ptr, 0, nullptr, nullptr),
            "clEnqueueUnmapMemObject");
      finish();
    }
    return (nowSec() - T0) / Count;
  }
  std::string verify() override {
    cl_int Err = CL_SUCCESS;
    auto *Ptr = static_cast<uint32_t *>(clEnqueueMapBuffer(
        P.Queue, B, CL_TRUE, CL_MAP_READ, 0, Bytes, 0, nullptr, nullptr, &Err));
    check(Err, "clEnqueueMapBuffer");
    std::string Why;
    for (size_t I = 0; I < Bytes / 4 && Why.empty(); I += 1021)
      if (Ptr[I] != uint32_t(I * 2654435761u))
        Why = mismatch("mapped", I, Ptr[I], uint32_t(I * 2654435761u));
    check(clEnqueueUnmapMemObject(P.Queue, B, Ptr, 0, nullptr, nullptr),
          "clEnqueueUnmapMemObject");
    finish();
    return Why;
  }

private:
  size_t Bytes;
  int Count;
  cl_mem B = nullptr;
};

//===----------------------------------------------------------------------===//
// Host copy bandwidth
//===----------------------------------------------------------------------===//

// Runs Part(Begin, End) over [0, N) split into Threads contiguous shares
// (multiples of 16 elements), one per thread; returns seconds.
template <typename Fn> double onThreads(size_t N, int Threads, Fn &&Part) {
  size_t Per = N / Threads / 16 * 16;
  double T0 = nowSec();
  std::vector<std::thread> Ts;
  for (int T = 1; T < Threads; ++T)
    Ts.emplace_back(Part, Per * T, T + 1 == Threads ? N : Per * (T + 1));
  Part(0, Threads == 1 ? N : Per);
  for (std::thread &T : Ts)
    T.join();
  return nowSec() - T0;
}

// Copies Bytes from Src to Dst with non-temporal stores, split over Threads
// threads; returns seconds.
double streamCopy(float *Dst, const float *Src, size_t Bytes, int Threads) {
  auto Part = [&](size_t Begin, size_t End) {
#if defined(__SSE__)
    for (size_t I = Begin; I < End; I += 16) {
      __m128 A = _mm_load_ps(Src + I), B = _mm_load_ps(Src + I + 4),
             C = _mm_load_ps(Src + I + 8), D = _mm_load_ps(Src + I + 12);
      _mm_stream_ps(Dst + I, A);
      _mm_stream_ps(Dst + I + 4, B);
      _mm_stream_ps(Dst + I + 8, C);
      _mm_stream_ps(Dst + I + 12, D);
    }
    _mm_sfence();
#else
    std::memcpy(Dst + Begin, Src + Begin, (End - Begin) * 4);
#endif
  };
  return onThreads(Bytes / 4, Threads, Part);
}

// c = a + b over Bytes / 4 floats per array with non-temporal stores, split
// over Threads threads; returns seconds. The ceiling for vadd's pattern (two
// streams in, one out) on this machine.
double streamAdd(float *C, const float *A, const float *B, size_t Bytes,
                 int Threads) {
  auto Part = [&](size_t Begin, size_t End) {
#if defined(__SSE__)
    for (size_t I = Begin; I < End; I += 8) {
      __m128 X = _mm_add_ps(_mm_load_ps(A + I), _mm_load_ps(B + I)),
             Y = _mm_add_ps(_mm_load_ps(A + I + 4), _mm_load_ps(B + I + 4));
      _mm_stream_ps(C + I, X);
      _mm_stream_ps(C + I + 4, Y);
    }
    _mm_sfence();
#else
    for (size_t I = Begin; I < End; ++I)
      C[I] = A[I] + B[I];
#endif
  };
  return onThreads(Bytes / 4, Threads, Part);
}

// The scan_lookback kernel's algorithm written for the host: what this
// machine allows for its memory pattern (each chunk read twice, the second
// time from the cache, written once), against which the kernel's %copy
// reads. Threads take chunks of Chunk ints in order from a counter; each
// sums its chunk, publishes the sum, looks back through its predecessors
// for its prefix (a published inclusive prefix ends the walk), publishes
// its own inclusive prefix, and writes the chunk's exclusive prefixes with
// non-temporal stores. AVX2 loops (as the kernel compiles on this machine)
// when the CPU has AVX2.
struct LookBackState {
  // 0: nothing yet; 1: Sum published; 2: Incl published.
  std::atomic<int> Flag{0};
  int Sum = 0, Incl = 0;
};

#if defined(__x86_64__)
__attribute__((target("avx2"))) int chunkSumAvx2(const int *In, size_t N) {
  __m256i A = _mm256_setzero_si256(), B = A, C = A, D = A;
  size_t I = 0;
  const auto *V = reinterpret_cast<const __m256i *>(In);
  for (; I + 32 <= N; I += 32, V += 4) {
    A = _mm256_add_epi32(A, _mm256_loadu_si256(V));
    B = _mm256_add_epi32(B, _mm256_loadu_si256(V + 1));
    C = _mm256_add_epi32(C, _mm256_loadu_si256(V + 2));
    D = _mm256_add_epi32(D, _mm256_loadu_si256(V + 3));
  }
  alignas(32) int Lanes[8];
  _mm256_store_si256(
      reinterpret_cast<__m256i *>(Lanes),
      _mm256_add_epi32(_mm256_add_epi32(A, B), _mm256_add_epi32(C, D)));
  int S = 0;
  for (int L : Lanes)
    S += L;
  for (; I < N; ++I)
    S += In[I];
  return S;
}

// Out must be 32-byte aligned.
__attribute__((target("avx2"))) void chunkPrefixAvx2(int *Out, const int *In,
                                                     size_t N, int Pre) {
  __m256i Carry = _mm256_set1_epi32(Pre);
  size_t I = 0;
  for (; I + 8 <= N; I += 8) {
    __m256i X = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(In + I));
    __m256i Y = _mm256_add_epi32(X, _mm256_slli_si256(X, 4));
    Y = _mm256_add_epi32(Y, _mm256_slli_si256(Y, 8));
    // The low block's total added to the high block.
    __m256i Low =
        _mm256_shuffle_epi32(_mm256_permute2x128_si256(Y, Y, 0x08), 0xff);
    Y = _mm256_add_epi32(Y, Low);
    __m256i Total =
        _mm256_permute4x64_epi64(_mm256_shuffle_epi32(Y, 0xff), 0xaa);
    _mm256_stream_si256(reinterpret_cast<__m256i *>(Out + I),
                        _mm256_sub_epi32(_mm256_add_epi32(Y, Carry), X));
    Carry = _mm256_add_epi32(Carry, Total);
  }
  Pre = _mm256_cvtsi256_si32(Carry);
  for (; I < N; ++I) {
    Out[I] = Pre;
    Pre += In[I];
  }
}
#endif

int chunkSum(const int *In, size_t N, bool Avx2) {
#if defined(__x86_64__)
  if (Avx2)
    return chunkSumAvx2(In, N);
#endif
  int S = 0;
  for (size_t I = 0; I < N; ++I)
    S += In[I];
  return S;
}

void chunkPrefix(int *Out, const int *In, size_t N, int Pre, bool Avx2) {
#if defined(__x86_64__)
  if (Avx2)
    return chunkPrefixAvx2(Out, In, N, Pre);
#endif
  for (size_t I = 0; I < N; ++I) {
    Out[I] = Pre;
    Pre += In[I];
  }
}

/// Seconds for one host look-back scan of \p N ints (Out 32-byte aligned).
double hostLookBackScan(int *Out, const int *In, size_t N, size_t Chunk,
                        int Threads) {
#if defined(__x86_64__)
  static const bool Avx2 = __builtin_cpu_supports("avx2");
#else
  const bool Avx2 = false;
#endif
  size_t Chunks = (N + Chunk - 1) / Chunk;
  std::vector<LookBackState> St(Chunks);
  std::atomic<size_t> Next{0};
  auto Worker = [&] {
    for (;;) {
      size_t C = Next.fetch_add(1, std::memory_order_relaxed);
      if (C >= Chunks)
        break;
      size_t Begin = C * Chunk, Len = std::min(Chunk, N - Begin);
      int Total = chunkSum(In + Begin, Len, Avx2), Prefix = 0;
      if (C > 0) {
        St[C].Sum = Total;
        St[C].Flag.store(1, std::memory_order_release);
        for (size_t J = C - 1;; --J) {
          int F;
          while ((F = St[J].Flag.load(std::memory_order_acquire)) == 0)
            ;
          if (F == 2) {
            Prefix += St[J].Incl;
            break;
          }
          Prefix += St[J].Sum;
        }
      }
      St[C].Incl = Prefix + Total;
      St[C].Flag.store(2, std::memory_order_release);
      chunkPrefix(Out + Begin, In + Begin, Len, Prefix, Avx2);
    }
#if defined(__SSE__)
    _mm_sfence();
#endif
  };
  double T0 = nowSec();
  std::vector<std::thread> Ts;
  for (int T = 1; T < Threads; ++T)
    Ts.emplace_back(Worker);
  Worker();
  for (std::thread &T : Ts)
    T.join();
  return nowSec() - T0;
}

/// The host look-back scan of \p N ints: the fastest chunk size (of the
/// kernel's k choices, 256 work-items each) and thread count (of
/// \p ThreadChoices: 1 or all, or with --threads the device's workers),
/// found once; then one scan per call.
class HostScan {
public:
  HostScan(int N, const std::vector<int> &ThreadChoices) : N(N) {
    In = static_cast<int *>(std::aligned_alloc(64, size_t(N) * 4));
    Out = static_cast<int *>(std::aligned_alloc(64, size_t(N) * 4));
    for (int I = 0; I < N; ++I)
      In[I] = (I * 7 + 3) % 16 - 8, Out[I] = 0;
    double Best = 0;
    for (int K : {64, 128, 256, 512, 1024})
      for (int T : ThreadChoices) {
        double S = hostLookBackScan(Out, In, N, size_t(K) * 256, T);
        for (int R = 0; R < 2; ++R)
          S = std::min(S, hostLookBackScan(Out, In, N, size_t(K) * 256, T));
        if (Best == 0 || S < Best)
          Best = S, Chunk = size_t(K) * 256, Use = T;
      }
    int Sum = 0;
    for (int I = 0; I < N && Ok; ++I) {
      Ok = Out[I] == Sum;
      Sum += In[I];
    }
  }
  ~HostScan() {
    std::free(In);
    std::free(Out);
  }
  double run() { return hostLookBackScan(Out, In, N, Chunk, Use); }
  std::string what() const {
    return "k = " + std::to_string(Chunk / 256) + ", " + std::to_string(Use) +
           (Use == 1 ? " thread" : " threads") + (Ok ? "" : ", WRONG RESULT");
  }

private:
  int N, Use = 1;
  size_t Chunk = 0;
  int *In = nullptr, *Out = nullptr;
  bool Ok = true;
};

/// GB/s of a copy of \p Bytes (bytes read plus bytes written, as for the
/// kernels) from its timings in seconds.
double copyGBs(size_t Bytes, const std::vector<double> &Seconds) {
  return 2.0 * Bytes / 1e9 / median(Seconds);
}

struct HostCopy {
  double StreamGBs = 0; // the reference: max of the two below
  double Stream1GBs = 0, StreamNGBs = 0, MemcpyGBs = 0;
  double AddGBs = 0; // host vadd over AddBytes per array, all threads
  size_t AddBytes = 0;
  int Threads = 1;
  size_t Bytes = 0;
};

HostCopy measureHostCopy(size_t Bytes, int Reps) {
  HostCopy H;
  H.Bytes = Bytes;
  H.Threads = usableCpus();
  auto *Src = static_cast<float *>(std::aligned_alloc(64, Bytes));
  auto *Dst = static_cast<float *>(std::aligned_alloc(64, Bytes));
  for (size_t I = 0; I < Bytes / 4; ++I)
    Src[I] = float(I), Dst[I] = 0;
  std::vector<double> S1, SN, M;
  streamCopy(Dst, Src, Bytes, H.Threads); // warm-up
  for (int R = 0; R < Reps; ++R) {
    S1.push_back(streamCopy(Dst, Src, Bytes, 1));
    SN.push_back(streamCopy(Dst, Src, Bytes, H.Threads));
    double T0 = nowSec();
    std::memcpy(Dst, Src, Bytes);
    M.push_back(nowSec() - T0);
  }
  // Bytes read plus bytes written, as for the kernels. The reference is the
  // better of one thread and all threads (on a busy machine the extra
  // threads may only add contention).
  H.Stream1GBs = copyGBs(Bytes, S1);
  H.StreamNGBs = copyGBs(Bytes, SN);
  H.StreamGBs = std::max(H.Stream1GBs, H.StreamNGBs);
  H.MemcpyGBs = copyGBs(Bytes, M);
  // vadd's size: three arrays of AddBytes within the copy's two buffers.
  H.AddBytes = Bytes / 4;
  float *A = Src, *B = Src + H.AddBytes / 4, *C = Dst;
  std::vector<double> Add;
  streamAdd(C, A, B, H.AddBytes, H.Threads); // warm-up
  for (int R = 0; R < Reps; ++R)
    Add.push_back(streamAdd(C, A, B, H.AddBytes, H.Threads));
  H.AddGBs = 3.0 * H.AddBytes / 1e9 / median(Add);
  std::free(Src);
  std::free(Dst);
  return H;
}

//===----------------------------------------------------------------------===//
// Benchmark table and driver
//===----------------------------------------------------------------------===//

struct Spec {
  std::string Name;
  std::string Unit;
  double Work;      // throughput: units of Unit x seconds per run; 0: a time
  double TimeScale; // time: seconds -> Unit
  bool VsCopy;      // a GB/s figure compared with the host copy
  std::string What;
  std::function<std::unique_ptr<Bench>(Platform &)> Make;
  /// Work-item barrier crossings per run (barrier_stress): the report adds
  /// the cost of one, per hardware thread.
  double Crossings = 0;
  /// Ints of the host look-back scan (HostScan) run after A and B in each
  /// repetition (scan_lookback: the machine's ceiling for its pattern); 0:
  /// none.
  int HostScanInts = 0;
};

std::vector<Spec> specs(const Sizes &S) {
  using B = std::unique_ptr<Bench>;
  double GB = 1e9;
  double SN = double(S.Stream);
  std::vector<Spec> V;
  V.push_back({"launch_blocking", "us", 0, 1e6, false,
               "empty kernel, enqueue + clFinish each", [=](Platform &P) -> B {
                 return std::make_unique<LaunchBench>(P, false,
                                                      S.BlockingLaunches);
               }});
  V.push_back({"launch_batched", "us", 0, 1e6, false,
               "empty kernel, " + std::to_string(S.BatchLaunches) +
                   " enqueues then one clFinish, per launch",
               [=](Platform &P) -> B {
                 return std::make_unique<LaunchBench>(P, true, S.BatchLaunches);
               }});
  V.push_back({"enqueue_tree", "us", 0, 1e6, false,
               "a parent of 1024 work-items, each enqueuing a child kernel "
               "of 64 (device-side enqueue), per child",
               [=](Platform &P) -> B {
                 return std::make_unique<EnqueueTreeBench>(P, 1024);
               }});
  V.push_back(
      {"cmdbuf_replay", "us", 0, 1e6, false,
       "command-buffer of 100 kernels (1024 work-items each) replayed " +
           std::to_string(S.CmdbufReplays) + " times, per kernel",
       [=](Platform &P) -> B {
         return std::make_unique<CmdbufBench>(P, S.CmdbufReplays);
       }});
  const char *KindNames[] = {"copy", "vadd", "saxpy"};
  const double KindBytes[] = {8, 12, 12};
  for (int K = 0; K < 3; ++K)
    V.push_back({KindNames[K], "GB/s", KindBytes[K] * SN / GB, 0, true,
                 countStr(S.Stream) + " floats", [=](Platform &P) -> B {
                   return std::make_unique<StreamBench>(P, StreamBench::Kind(K),
                                                        S.Stream);
                 }});
#ifdef CLCPU_BENCH_SPIRV_DIR
  V.push_back({"vadd_spirv", "GB/s", KindBytes[1] * SN / GB, 0, true,
               countStr(S.Stream) +
                   " floats, vadd from SPIR-V (clang-15, llvm-spirv-15)",
               [=](Platform &P) -> B {
                 return std::make_unique<StreamBench>(P, StreamBench::Vadd,
                                                      S.Stream, true);
               }});
#endif
  V.push_back({"nbody", "GFLOP/s", 20.0 * S.NBody * double(S.NBody) / GB, 0,
               false,
               std::to_string(S.NBody) + " bodies, float4, rsqrt, 20 flop/pair",
               [=](Platform &P) -> B {
                 return std::make_unique<NBodyBench>(P, S.NBody);
               }});
  double GemmFlop = 2.0 * S.Gemm * double(S.Gemm) * S.Gemm / GB;
  std::string GemmN = std::to_string(S.Gemm);
  V.push_back({"sgemm_naive", "GFLOP/s", GemmFlop, 0, false,
               GemmN + "^2, one work-item per output", [=](Platform &P) -> B {
                 return std::make_unique<GemmBench>(P, false, S.Gemm);
               }});
  V.push_back({"sgemm_tiled", "GFLOP/s", GemmFlop, 0, false,
               GemmN + "^2, 16x16 __local tiles, barriers",
               [=](Platform &P) -> B {
                 return std::make_unique<GemmBench>(P, true, S.Gemm);
               }});
  // Each packed dot product is 4 multiplies and 4 adds.
  double DotOps = 8.0 * S.Dot * double(S.Dot) * S.DotK / GB;
  V.push_back({"dot_int8", "GOP/s", DotOps, 0, false,
               countStr(size_t(S.Dot) * S.Dot) + " int8 dot products of " +
                   std::to_string(4 * S.DotK) +
                   " bytes (packed, saturating), one work-item each",
               [=](Platform &P) -> B {
                 return std::make_unique<DotInt8Bench>(P, S.Dot, S.DotK);
               }});
  V.push_back(
      {"reduce_local", "GB/s", 4 * SN / GB, 0, true,
       "sum of " + countStr(S.Stream) + " floats, local-memory tree, barriers",
       [=](Platform &P) -> B {
         return std::make_unique<ReduceBench>(P, S.Stream);
       }});
  V.push_back({"barrier_stress", "ms", 0, 1e3, false,
               std::to_string(S.BarrierGroups) + " groups x 256, " +
                   std::to_string(2 * S.BarrierIters) + " barriers each",
               [=](Platform &P) -> B {
                 return std::make_unique<BarrierBench>(P, S.BarrierGroups,
                                                       S.BarrierIters);
               },
               256.0 * S.BarrierGroups * 2 * S.BarrierIters});
  V.push_back({"barrier_fibers", "ms", 0, 1e3, false,
               "barrier_stress, clcpu on its fiber path",
               [=](Platform &P) -> B {
                 return std::make_unique<BarrierBench>(P, S.BarrierGroups,
                                                       S.BarrierIters, true);
               },
               256.0 * S.BarrierGroups * 2 * S.BarrierIters});
  int CompactN = static_cast<int>(S.Compute / 4);
  std::string CompactWhat = std::to_string(CompactN >> 10) +
                            "K ints, odd ones kept: sub_group_ballot, "
                            "elect, one atomic per sub-group";
  V.push_back({"compact_ballot", "Gelem/s", CompactN / GB, 0, false,
               CompactWhat, [=](Platform &P) -> B {
                 return std::make_unique<CompactBench>(P, CompactN);
               }});
  V.push_back({"compact_fibers", "Gelem/s", CompactN / GB, 0, false,
               "compact_ballot, clcpu on its fiber path",
               [=](Platform &P) -> B {
                 return std::make_unique<CompactBench>(P, CompactN, true);
               }});
  double ScanGB = 8.0 * S.Scan / GB;
  std::string ScanN = countStr(size_t(S.Scan)) + " ints";
  V.push_back({"scan_wg", "GB/s", ScanGB, 0, true,
               ScanN + ", 3 passes, work_group_scan_exclusive_add",
               [=](Platform &P) -> B {
                 return std::make_unique<ScanBench>(P, ScanBench::Collective,
                                                    S.Scan);
               }});
#ifdef CLCPU_BENCH_SPIRV_DIR
  V.push_back({"scan_wg_spirv", "GB/s", ScanGB, 0, true,
               ScanN + ", scan_wg from SPIR-V (clang-15, llvm-spirv-15)",
               [=](Platform &P) -> B {
                 return std::make_unique<ScanBench>(P, ScanBench::Collective,
                                                    S.Scan, true);
               }});
#endif
  V.push_back({"scan_local", "GB/s", ScanGB, 0, true,
               ScanN + ", 3 passes, local-memory scan (OpenCL 1.2)",
               [=](Platform &P) -> B {
                 return std::make_unique<ScanBench>(P, ScanBench::Local,
                                                    S.Scan);
               }});
  V.push_back({"scan_lookback", "GB/s", ScanGB, 0, true,
               ScanN + ", 1 pass, decoupled look-back (1.2 atomics)",
               [=](Platform &P) -> B {
                 return std::make_unique<ScanBench>(P, ScanBench::LookBack,
                                                    S.Scan);
               },
               0, S.Scan});
  V.push_back({"math", "Gelem/s", double(S.Compute) / GB, 0, false,
               "sin+exp+log+pow, " + countStr(S.Compute) + " floats",
               [=](Platform &P) -> B {
                 return std::make_unique<MathBench<float>>(P, S.Compute);
               }});
  V.push_back({"math_half", "Gelem/s", double(S.Compute) / GB, 0, false,
               "the math row in half, " + countStr(S.Compute) + " halves",
               [=](Platform &P) -> B {
                 return std::make_unique<MathBench<_Float16>>(P, S.Compute);
               }});
  V.push_back({"pipe_stream", "GB/s", 8.0 * double(S.PipeInts) / GB, 0, true,
               countStr(S.PipeInts) +
                   " ints through a pipe, producer and consumer kernels at "
                   "once",
               [=](Platform &P) -> B {
                 return std::make_unique<PipeStreamBench>(P, S.PipeInts);
               }});
  V.push_back({"atomic_float_hist", "Gelem/s", double(S.Compute) / GB, 0, false,
               countStr(S.Compute) + " float atomic adds into 256 bins",
               [=](Platform &P) -> B {
                 return std::make_unique<HistBench>(P, S.Compute);
               }});
  double ImagePixels = double(S.Image) * S.Image;
  double OutPixels = double(S.ImageOut) * S.ImageOut;
  std::string ImageN = std::to_string(S.Image) + "x" + std::to_string(S.Image);
  std::string OutN =
      std::to_string(S.ImageOut) + "x" + std::to_string(S.ImageOut);
  V.push_back({"image_copy", "GB/s", 8 * ImagePixels / GB, 0, true,
               ImageN + " RGBA8 (CL_UNSIGNED_INT8), read_imageui + "
                        "write_imageui",
               [=](Platform &P) -> B {
                 return std::make_unique<ImageBench>(P, ImageBench::Copy,
                                                     S.Image, S.Image, 0, 0);
               }});
  V.push_back({"image_bilinear", "Gpix/s", OutPixels / GB, 0, false,
               ImageN + " RGBA float to " + OutN +
                   ", linear normalized clamp-to-edge sampler",
               [=](Platform &P) -> B {
                 return std::make_unique<ImageBench>(P, ImageBench::Bilinear,
                                                     S.Image, S.Image,
                                                     S.ImageOut, S.ImageOut);
               }});
  V.push_back({"image_nearest_u8", "Gpix/s", OutPixels / GB, 0, false,
               ImageN + " RGBA8 (CL_UNORM_INT8) to " + OutN +
                   ", nearest unnormalized sampler, int coordinates",
               [=](Platform &P) -> B {
                 return std::make_unique<ImageBench>(P, ImageBench::Nearest,
                                                     S.Image, S.Image,
                                                     S.ImageOut, S.ImageOut);
               }});
  V.push_back({"build_cold", "ms", 0, 1e3, false,
               "clBuildProgram, new source (nonce)", [](Platform &P) -> B {
                 return std::make_unique<BuildBench>(P, BuildBench::Cold);
               }});
  V.push_back(
      {"build_large", "ms", 0, 1e3, false,
       "clBuildProgram, " + std::to_string(S.LargeLines) + "-statement kernel",
       [=](Platform &P) -> B {
         return std::make_unique<BuildLargeBench>(P, S.LargeLines);
       }});
  V.push_back({"build_large_4x", "ms", 0, 1e3, false,
               "build + first launch, " + std::to_string(4 * S.LargeLines) +
                   "-statement kernel",
               [=](Platform &P) -> B {
                 return std::make_unique<BuildLargeBench>(P, 4 * S.LargeLines);
               }});
  V.push_back({"build_warm", "ms", 0, 1e3, false,
               "clBuildProgram, same source again", [](Platform &P) -> B {
                 return std::make_unique<BuildBench>(P, BuildBench::Warm);
               }});
#ifdef CLCPU_BENCH_SPIRV_DIR
  V.push_back({"build_spirv_cold", "ms", 0, 1e3, false,
               "clCreateProgramWithIL + clBuildProgram, the scan kernels' "
               "SPIR-V, new module (nonce)",
               [](Platform &P) -> B {
                 return std::make_unique<BuildBench>(P, BuildBench::SpirvCold);
               }});
  V.push_back({"build_spirv_warm", "ms", 0, 1e3, false,
               "clCreateProgramWithIL + clBuildProgram, the same module again",
               [](Platform &P) -> B {
                 return std::make_unique<BuildBench>(P, BuildBench::SpirvWarm);
               }});
#endif
  V.push_back({"first_launch", "ms", 0, 1e3, false,
               "new source: build + first enqueue + clFinish",
               [](Platform &P) -> B {
                 return std::make_unique<BuildBench>(P, BuildBench::First);
               }});
  V.push_back({"map_unmap", "us", 0, 1e6, false,
               std::to_string(S.MapBytes >> 20) +
                   " MiB, blocking map (r/w) + unmap + clFinish",
               [=](Platform &P) -> B {
                 return std::make_unique<MapBench>(P, S.MapBytes, S.Maps);
               }});
  return V;
}

// One platform's outcome of one benchmark.
struct Outcome {
  std::string Status = "ok"; // ok, FAIL, n/a
  std::string Why, Note;
  std::vector<double> Samples; // seconds per unit
};

struct Row {
  const Spec *S;
  Outcome O[2];
  /// For a GB/s row: the host copy measured between the repetitions of
  /// this row (after A and B of each), so the %copy reference sees the
  /// same moment of a noisy machine as the kernels; seconds per copy.
  std::vector<double> Ref1, RefN;
  /// Seconds of each host look-back scan (Spec::HostScanInts).
  std::vector<double> HostScanSeconds;
  std::string HostScanWhat;
  double refGBs() const;
  double refNGBs() const;
};

/// Buffers for the per-row host copy: as many bytes as the copy kernel
/// moves, allocated and touched once.
struct RowCopy {
  size_t Bytes = 0;
  int Threads = 1;
  float *Src = nullptr, *Dst = nullptr;
} RowRef;

void rowHostCopy() {
  if (RowRef.Src) {
    streamCopy(RowRef.Dst, RowRef.Src, RowRef.Bytes, 1);
    streamCopy(RowRef.Dst, RowRef.Src, RowRef.Bytes, RowRef.Threads);
  }
}

double Row::refGBs() const {
  if (Ref1.empty())
    return 0;
  // As for the run's reference: the better of one thread and all threads.
  return std::max(copyGBs(RowRef.Bytes, Ref1), copyGBs(RowRef.Bytes, RefN));
}

/// The host copy with RowRef.Threads threads alone (--threads: as many as
/// the device has workers).
double Row::refNGBs() const {
  return RefN.empty() ? 0 : copyGBs(RowRef.Bytes, RefN);
}

/// Runs R on the platforms of Ps (null: not this time, R.O says why): Reps
/// repetitions, A then B each, the host copy after them (RowRef) and the
/// host look-back scan (with the fastest of HostThreads) for the rows that
/// have one. A row that takes more than TimeoutS seconds ends the program.
void runRow(Row &R, const std::vector<Platform *> &Ps, int Reps,
            unsigned TimeoutS, const std::vector<int> &HostThreads) {
  const Spec &S = *R.S;
  std::unique_ptr<Bench> Bs[2];
  alarm(TimeoutS);
  auto Guard = [&](size_t I, const std::function<void()> &F) {
    Outcome &O = R.O[I];
    setWatchdogLabel(S.Name + " on " + Ps[I]->Name);
    try {
      F();
    } catch (const NotAvailable &E) {
      O.Status = "n/a", O.Why = E.what();
    } catch (const std::exception &E) {
      O.Status = "FAIL", O.Why = E.what();
    }
    if (O.Status != "ok")
      O.Samples.clear(), Bs[I].reset();
  };
  auto Verify = [&](size_t I) {
    std::string Why = Bs[I]->verify();
    if (!Why.empty())
      R.O[I].Status = "FAIL", R.O[I].Why = "wrong result: " + Why;
  };
  std::unique_ptr<HostScan> Host;
  if (S.HostScanInts > 0)
    Host = std::make_unique<HostScan>(S.HostScanInts, HostThreads);
  for (size_t I = 0; I < Ps.size(); ++I)
    if (Ps[I])
      Guard(I, [&] {
        Bs[I] = S.Make(*Ps[I]);
        Bs[I]->setUp();
        Bs[I]->run(); // warm-up, then a first check
        Verify(I);
        R.O[I].Note = Bs[I]->Note;
      });
  for (int Rep = 0; Rep < Reps; ++Rep) {
    for (size_t I = 0; I < Ps.size(); ++I)
      if (Bs[I])
        Guard(I, [&] {
          R.O[I].Samples.push_back(Bs[I]->run());
          if (ShowTries)
            std::fprintf(stderr, "  %s %s: repetition %d: %.3f ms\n",
                         Ps[I]->Label.c_str(), S.Name.c_str(), Rep,
                         R.O[I].Samples.back() * 1e3);
        });
    if (S.VsCopy && RowRef.Src) {
      R.Ref1.push_back(streamCopy(RowRef.Dst, RowRef.Src, RowRef.Bytes, 1));
      R.RefN.push_back(
          streamCopy(RowRef.Dst, RowRef.Src, RowRef.Bytes, RowRef.Threads));
    }
    if (Host)
      R.HostScanSeconds.push_back(Host->run());
  }
  if (Host)
    R.HostScanWhat = Host->what();
  for (size_t I = 0; I < Ps.size(); ++I)
    if (Bs[I])
      Guard(I, [&] { Verify(I); });
  for (auto &B : Bs)
    B.reset();
  alarm(0);
}

double value(const Spec &S, double Seconds) {
  return S.Work > 0 ? S.Work / Seconds : Seconds * S.TimeScale;
}

std::string jsonEscape(const std::string &S) {
  std::string R;
  for (char C : S) {
    if (C == '"' || C == '\\')
      R += '\\', R += C;
    else if (static_cast<unsigned char>(C) < 0x20) {
      char Buf[8];
      std::snprintf(Buf, sizeof Buf, "\\u%04x", C);
      R += Buf;
    } else
      R += C;
  }
  return R;
}

std::string jsonNum(double V) {
  if (!std::isfinite(V))
    return "null";
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%.6g", V);
  return Buf;
}

/// The notes column of R: each platform's note or why it did not run, the
/// cost of a barrier crossing with Threads threads (barrier rows) and the
/// host look-back scan against RefGBs. Bad is set when anything FAILed or
/// A did not run.
std::string rowNotes(const Row &R, size_t NumPlatforms, unsigned Threads,
                     double RefGBs, bool &Bad) {
  const Spec &S = *R.S;
  static const char *const Labels[] = {"A", "B"};
  std::string Notes;
  for (size_t I = 0; I < NumPlatforms; ++I) {
    const Outcome &O = R.O[I];
    std::string Why = O.Status == "ok" ? O.Note : O.Why;
    if (O.Status == "ok" && S.Crossings > 0) {
      // Each thread crosses its share of the barriers.
      double Ns = median(O.Samples) * 1e9 * Threads / S.Crossings;
      Why += (Why.empty() ? "" : ", ") + fmt(Ns) +
             " ns per work-item per barrier per thread";
    }
    if (!Why.empty())
      Notes +=
          (Notes.empty() ? "" : "; ") + std::string(Labels[I]) + ": " + Why;
    if (O.Status == "FAIL" || (I == 0 && O.Status != "ok"))
      Bad = true;
  }
  if (!R.HostScanSeconds.empty()) {
    // The same algorithm on the host: this machine's ceiling for it.
    double HostGBs = S.Work / median(R.HostScanSeconds);
    Notes += (Notes.empty() ? "" : "; ") +
             std::string("host look-back scan (") + R.HostScanWhat +
             "): " + fmt(HostGBs) + " GB/s = " + fmt(100 * HostGBs / RefGBs) +
             "% of host copy";
    if (R.O[0].Status == "ok")
      Notes +=
          ", A = " + fmt(100 * value(S, median(R.O[0].Samples)) / HostGBs) +
          "% of it";
  }
  return Notes;
}

/// One row at each worker count of --threads.
struct ScaleRow {
  const Spec *S;
  std::vector<Row> At; // At[J]: on Counts[J] workers
};

/// Platform I's time on the fewest workers over its time at At[J]; 0 when
/// either did not run.
double scaleSpeedup(const ScaleRow &SR, size_t J, size_t I) {
  const Outcome &Base = SR.At[0].O[I], &O = SR.At[J].O[I];
  if (Base.Status != "ok" || O.Status != "ok")
    return 0;
  return median(Base.Samples) / median(O.Samples);
}

/// --threads: every row on a sub-device of each count of workers (the
/// whole device at its maximum), a table per row; fills each row's At.
/// Returns true when anything FAILed or A did not run.
bool runScaling(std::vector<ScaleRow> &Rows, std::vector<Platform *> &Ps,
                const std::vector<int> &Counts, int Reps, unsigned TimeoutS) {
  bool Two = Ps.size() == 2, Bad = false;
  std::string Base = std::to_string(Counts[0]);
  for (ScaleRow &SR : Rows) {
    const Spec &S = *SR.S;
    std::printf("\n%s (%s; %s)\n", S.Name.c_str(), S.Unit.c_str(),
                S.What.c_str());
    std::printf("%7s %10s %8s %7s %10s %8s %7s %9s %7s  %s\n", "workers", "A",
                ("A vs " + Base).c_str(), S.VsCopy ? "A%copy" : "",
                Two ? "B" : "", Two ? ("B vs " + Base).c_str() : "",
                Two && S.VsCopy ? "B%copy" : "", Two ? "speedup" : "",
                S.VsCopy ? "host" : "", "notes");
    std::fflush(stdout);
    for (size_t J = 0; J < Counts.size(); ++J) {
      int N = Counts[J];
      SR.At.push_back(Row{&S, {}, {}, {}, {}, {}});
      Row &R = SR.At.back();
      Workers W[2];
      std::vector<Platform *> Sub(Ps.size(), nullptr);
      for (size_t I = 0; I < Ps.size(); ++I) {
        W[I] = restrictTo(*Ps[I], cl_uint(N));
        Sub[I] = W[I].P;
        if (!W[I].P)
          R.O[I].Status = "n/a", R.O[I].Why = W[I].Why;
      }
      RowRef.Threads = N;
      // One worker may take as long as all of them together.
      unsigned Scale = unsigned((Ps[0]->ComputeUnits + N - 1) / N);
      runRow(R, Sub, Reps, TimeoutS * std::max(1u, Scale), {N});
      std::string Cell[2], Vs[2], Pct[2];
      for (size_t I = 0; I < Ps.size(); ++I) {
        const Outcome &O = R.O[I];
        if (O.Status != "ok") {
          Cell[I] = O.Status;
          continue;
        }
        double V = value(S, median(O.Samples));
        Cell[I] = fmt(V);
        Vs[I] = fmt(scaleSpeedup(SR, J, I)) + "x";
        if (S.VsCopy)
          Pct[I] = fmt(100 * V / R.refNGBs());
      }
      std::string Speedup;
      if (Two && R.O[0].Status == "ok" && R.O[1].Status == "ok")
        Speedup = fmt(median(R.O[1].Samples) / median(R.O[0].Samples)) + "x";
      std::string Host = S.VsCopy ? fmt(R.refNGBs()) : "";
      std::string Notes = rowNotes(R, Ps.size(), unsigned(N), R.refNGBs(), Bad);
      std::printf("%7d %10s %8s %7s %10s %8s %7s %9s %7s  %s\n", N,
                  Cell[0].c_str(), Vs[0].c_str(), Pct[0].c_str(),
                  Cell[1].c_str(), Vs[1].c_str(), Pct[1].c_str(),
                  Speedup.c_str(), Host.c_str(), Notes.c_str());
      std::fflush(stdout);
    }
  }
  return Bad;
}

/// --threads LIST: the worker counts, ascending, each once; "all" is 1, 2,
/// 4, ... below MaxUnits and MaxUnits. Empty (and a message) when LIST is
/// not a list of counts from 1 to MaxUnits.
std::vector<int> workerCounts(const std::string &List, int MaxUnits) {
  std::vector<int> Counts;
  if (List == "all") {
    for (int N = 1; N < MaxUnits; N *= 2)
      Counts.push_back(N);
    Counts.push_back(MaxUnits);
    return Counts;
  }
  std::istringstream In(List);
  for (std::string W; std::getline(In, W, ',');) {
    char *End = nullptr;
    long N = std::strtol(W.c_str(), &End, 10);
    if (W.empty() || *End || N < 1) {
      std::fprintf(stderr, "clcpu_bench: --threads: \"%s\" is not a count\n",
                   W.c_str());
      return {};
    }
    if (N > MaxUnits) {
      std::fprintf(stderr,
                   "clcpu_bench: --threads: %ld workers, but A's device has "
                   "%d compute units\n",
                   N, MaxUnits);
      return {};
    }
    Counts.push_back(int(N));
  }
  std::sort(Counts.begin(), Counts.end());
  Counts.erase(std::unique(Counts.begin(), Counts.end()), Counts.end());
  return Counts;
}

/// The rows --threads runs unless --only names others.
const char *const ScalingRows[] = {
    "copy",    "vadd",          "saxpy", "barrier_stress",
    "scan_wg", "scan_lookback", "nbody", "sgemm_tiled"};

/// The rows --check-bounds runs unless --only names others: streaming,
/// compute and scan kernels.
const char *const CheckedRows[] = {"copy",       "vadd",          "saxpy",
                                   "scan_wg",    "scan_lookback", "nbody",
                                   "sgemm_tiled"};

void usage() {
  std::fprintf(
      stderr,
      "usage: clcpu_bench [--a NAME] [--b NAME|none] [--reps N] [--quick]\n"
      "                   [--only LIST] [--threads COUNTS] [--json FILE] "
      "[--list] [--tries]\n"
      "                   [--check-bounds]\n"
      "  NAME: substring of the platform name (A: clcpu, B: Portable "
      "Computing Language)\n"
      "  LIST: comma-separated benchmark names (see --list)\n"
      "  --threads COUNTS: scaling tables instead of the comparison: each "
      "row on\n"
      "           a sub-device of N compute units (clCreateSubDevices by "
      "counts;\n"
      "           the whole device at its maximum) for each N of COUNTS, "
      "comma-\n"
      "           separated (1,2,4,8,16), or \"all\" (1, 2, 4, ... and the "
      "device's\n"
      "           maximum); rows copy, vadd, saxpy, barrier_stress, scan_wg,\n"
      "           scan_lookback, nbody, sgemm_tiled unless --only names "
      "others;\n"
      "           %%copy against the host copy with N threads\n"
      "  --json FILE: write the results (with --threads, a \"scaling\" "
      "array)\n"
      "  --check-bounds: B is A again, its programs built with\n"
      "           -fclcpu-check-bounds (docs/DEBUGGING.md); rows copy, vadd,\n"
      "           saxpy, nbody, sgemm_tiled, scan_wg, scan_lookback unless\n"
      "           --only names others\n"
      "  --tries: print every configuration the scans try and every\n"
      "           repetition's time (stderr)\n"
      "  Without --quick, the streaming and scan arrays are 4 x the "
      "last-level cache\n"
      "  (at least 16M elements; at most 1/24 of memory or the largest "
      "allocation).\n");
}

void writeJsonPlatforms(std::ostream &Out, const std::vector<Platform *> &Ps) {
  for (size_t I = 0; I < 2; ++I) {
    Out << ",\n  \"" << (I ? "b" : "a") << "\": ";
    if (I >= Ps.size()) {
      Out << "null";
      continue;
    }
    Out << "{\"name\": \"" << jsonEscape(Ps[I]->Name) << "\", \"version\": \""
        << jsonEscape(Ps[I]->Version) << "\", \"device\": \""
        << jsonEscape(Ps[I]->Device)
        << "\", \"compute_units\": " << Ps[I]->ComputeUnits << "}";
  }
}

void writeJsonBenchmarks(std::ostream &Out, const std::vector<Row> &Rows,
                         size_t NumPlatforms) {
  bool Two = NumPlatforms == 2;
  Out << ",\n  \"benchmarks\": [";
  for (size_t RI = 0; RI < Rows.size(); ++RI) {
    const Row &R = Rows[RI];
    const Spec &S = *R.S;
    Out << (RI ? "," : "") << "\n    {\"name\": \"" << S.Name
        << "\", \"unit\": \"" << S.Unit << "\", \"what\": \""
        << jsonEscape(S.What)
        << "\", \"higher_is_better\": " << (S.Work > 0 ? "true" : "false");
    for (size_t I = 0; I < NumPlatforms; ++I) {
      const Outcome &O = R.O[I];
      Out << ",\n     \"" << (I ? "b" : "a") << "\": {\"status\": \""
          << O.Status << "\", \"why\": \"" << jsonEscape(O.Why)
          << "\", \"note\": \"" << jsonEscape(O.Note) << "\"";
      if (O.Status == "ok") {
        Out << ", \"value\": " << jsonNum(value(S, median(O.Samples)))
            << ", \"median_s\": " << jsonNum(median(O.Samples));
        if (S.VsCopy)
          Out << ", \"fraction_of_copy\": "
              << jsonNum(value(S, median(O.Samples)) / R.refGBs());
        Out << ", \"samples_s\": [";
        for (size_t J = 0; J < O.Samples.size(); ++J)
          Out << (J ? ", " : "") << jsonNum(O.Samples[J]);
        Out << "]";
      }
      Out << "}";
    }
    if (S.VsCopy)
      Out << ",\n     \"host_copy_gbs\": " << jsonNum(R.refGBs());
    if (!R.HostScanSeconds.empty())
      Out << ",\n     \"host_lookback_scan_gbs\": "
          << jsonNum(S.Work / median(R.HostScanSeconds));
    Out << ",\n     \"speedup\": ";
    if (Two && R.O[0].Status == "ok" && R.O[1].Status == "ok")
      Out << jsonNum(median(R.O[1].Samples) / median(R.O[0].Samples));
    else
      Out << "null";
    Out << "}";
  }
  Out << "\n  ]";
}

void writeJsonScaling(std::ostream &Out, const std::vector<ScaleRow> &Rows,
                      const std::vector<int> &Counts, size_t NumPlatforms) {
  bool Two = NumPlatforms == 2;
  Out << ",\n  \"scaling_threads\": [";
  for (size_t J = 0; J < Counts.size(); ++J)
    Out << (J ? ", " : "") << Counts[J];
  Out << "],\n  \"scaling_base_threads\": " << Counts[0]
      << ",\n  \"scaling\": [";
  bool First = true;
  for (const ScaleRow &SR : Rows) {
    const Spec &S = *SR.S;
    for (size_t J = 0; J < SR.At.size(); ++J) {
      const Row &R = SR.At[J];
      Out << (First ? "" : ",") << "\n    {\"name\": \"" << S.Name
          << "\", \"unit\": \"" << S.Unit << "\", \"threads\": " << Counts[J]
          << ", \"higher_is_better\": " << (S.Work > 0 ? "true" : "false")
          << ", \"vs_copy\": " << (S.VsCopy ? "true" : "false");
      First = false;
      for (size_t I = 0; I < 2; ++I) {
        Out << ",\n     \"" << (I ? "b" : "a") << "\": ";
        if (I >= NumPlatforms) {
          Out << "null";
          continue;
        }
        const Outcome &O = R.O[I];
        Out << "{\"status\": \"" << O.Status << "\", \"why\": \""
            << jsonEscape(O.Why) << "\", \"note\": \"" << jsonEscape(O.Note)
            << "\"";
        if (O.Status == "ok") {
          double V = value(S, median(O.Samples));
          double Up = scaleSpeedup(SR, J, I);
          Out << ", \"value\": " << jsonNum(V)
              << ", \"median_s\": " << jsonNum(median(O.Samples))
              << ", \"speedup_vs_base\": " << (Up > 0 ? jsonNum(Up) : "null");
          if (S.VsCopy)
            Out << ", \"fraction_of_copy\": " << jsonNum(V / R.refNGBs());
        }
        Out << "}";
      }
      Out << ",\n     \"host_copy_gbs\": "
          << (S.VsCopy ? jsonNum(R.refNGBs()) : "null");
      if (!R.HostScanSeconds.empty()) {
        double HostGBs = S.Work / median(R.HostScanSeconds);
        Out << ",\n     \"host_lookback_scan_gbs\": " << jsonNum(HostGBs)
            << ", \"host_lookback_scan_fraction_of_copy\": "
            << jsonNum(HostGBs / R.refNGBs());
      }
      Out << ",\n     \"speedup\": ";
      if (Two && R.O[0].Status == "ok" && R.O[1].Status == "ok")
        Out << jsonNum(median(R.O[1].Samples) / median(R.O[0].Samples));
      else
        Out << "null";
      Out << "}";
    }
  }
  Out << "\n  ]";
}

} // namespace

int main(int Argc, char **Argv) {
  std::string QA = "clcpu", QB = "Portable Computing Language", Json, Only,
              ThreadList;
  int Reps = 5;
  bool Quick = false, List = false, CheckBounds = false;
  for (int I = 1; I < Argc; ++I) {
    std::string Arg = Argv[I];
    auto Next = [&]() -> std::string {
      if (I + 1 >= Argc) {
        usage();
        std::exit(2);
      }
      return Argv[++I];
    };
    if (Arg == "--a")
      QA = Next();
    else if (Arg == "--b")
      QB = Next();
    else if (Arg == "--reps")
      Reps = std::atoi(Next().c_str());
    else if (Arg == "--quick")
      Quick = true;
    else if (Arg == "--only")
      Only = Next();
    else if (Arg == "--threads")
      ThreadList = Next();
    else if (Arg == "--json")
      Json = Next();
    else if (Arg == "--list")
      List = true;
    else if (Arg == "--tries")
      ShowTries = true;
    else if (Arg == "--check-bounds")
      CheckBounds = true;
    else {
      usage();
      return 2;
    }
  }
  if (Reps < 1) {
    usage();
    return 2;
  }
  bool Scaling = !ThreadList.empty();
  // Full sizes: every streaming and scan array 4 x the last-level cache, at
  // most 1/24 of memory each (the largest row, vadd on two platforms, holds
  // 14 such arrays) and the devices' largest allocation.
  CacheSize Llc = lastLevelCache();
  size_t Phys = physicalMemory();
  size_t MaxArray = Phys ? Phys / 24 : ~size_t(0);
  std::string MaxWhy = "1/24 of " + mib(Phys) + " of memory";
  bool Capped = false;
  Sizes Sz = Quick ? quickSizes() : fullSizes(Llc, MaxArray, Capped);
#ifndef CLCPU_BENCH_SPIRV_DIR
  std::fprintf(stderr, "clcpu_bench: built without clang-15 or "
                       "llvm-spirv-15: rows vadd_spirv, scan_wg_spirv, "
                       "build_spirv_cold and build_spirv_warm skipped\n");
#endif
  if (List) {
    for (const Spec &S : specs(Sz))
      std::printf("%-16s %-8s %s\n", S.Name.c_str(), S.Unit.c_str(),
                  S.What.c_str());
    return 0;
  }
  std::vector<std::string> Want;
  {
    std::istringstream In(Only);
    for (std::string W; std::getline(In, W, ',');)
      if (!W.empty())
        Want.push_back(W);
    std::vector<Spec> Names = specs(Sz);
    for (const std::string &W : Want)
      if (std::none_of(Names.begin(), Names.end(),
                       [&](const Spec &S) { return S.Name == W; })) {
        std::fprintf(stderr, "clcpu_bench: unknown benchmark \"%s\"\n",
                     W.c_str());
        return 2;
      }
    if (Want.empty() && Scaling)
      Want.assign(std::begin(ScalingRows), std::end(ScalingRows));
    if (Want.empty() && CheckBounds)
      Want.assign(std::begin(CheckedRows), std::end(CheckedRows));
  }

  Platform PA, PB;
  PA.Label = "A", PA.Query = QA;
  PB.Label = "B", PB.Query = QB;
  if (CheckBounds) {
    // The checked mode against the same driver unchecked, interleaved.
    PB.Query = QA;
    PB.ExtraOptions = " -fclcpu-check-bounds";
  }
  std::vector<Platform *> Ps{&PA};
  if (QB != "none")
    Ps.push_back(&PB);
  for (Platform *P : Ps)
    if (!openPlatform(*P, "clcpu_bench"))
      return 2;
  installWatchdog("clcpu_bench");
  std::vector<int> Counts;
  if (Scaling) {
    Counts = workerCounts(ThreadList, int(std::max(1u, PA.ComputeUnits)));
    if (Counts.empty())
      return 2;
  }
  if (!Quick) {
    for (Platform *P : Ps) {
      cl_ulong MaxAlloc = 0;
      if (clGetDeviceInfo(P->Dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof MaxAlloc,
                          &MaxAlloc, nullptr) == CL_SUCCESS &&
          MaxAlloc > 0 && MaxAlloc < MaxArray) {
        MaxArray = size_t(MaxAlloc);
        MaxWhy = P->Label + "'s largest allocation, " + mib(MaxArray);
      }
    }
    Capped = false;
    Sz = fullSizes(Llc, MaxArray, Capped);
  }
  std::vector<Spec> All = specs(Sz);
  std::vector<Row> Rows;
  std::vector<ScaleRow> ScaleRows;
  for (const Spec &S : All)
    if (Want.empty() || std::count(Want.begin(), Want.end(), S.Name)) {
      Rows.push_back(Row{&S, {}, {}, {}, {}, {}});
      ScaleRows.push_back(ScaleRow{&S, {}});
    }

  int Threads = usableCpus();
  std::printf(
      "clcpu_bench: %s, %d usable hardware threads; %d repetitions (A, B "
      "interleaved), medians%s\n",
      cpuModel().c_str(), Threads, Reps, Quick ? "; --quick sizes" : "");
  for (Platform *P : Ps)
    std::printf("  %s = %s (%s; %s)%s%s\n", P->Label.c_str(), P->Name.c_str(),
                P->Version.c_str(), P->Device.c_str(),
                P->Collectives ? "" : " [no work-group collectives]",
                P->ExtraOptions.empty()
                    ? ""
                    : (", build options +" + P->ExtraOptions).c_str());
  // The header's host copy: 256 MiB, or 4 x the last-level cache if more,
  // in two buffers of at most 1/8 of memory.
  size_t CopyBytes = size_t(8) << 20;
  if (!Quick) {
    CopyBytes = std::max(size_t(256) << 20,
                         (4 * Llc.Bytes + (size_t(1) << 20) - 1) >> 20 << 20);
    if (Phys && CopyBytes > Phys / 8)
      CopyBytes = std::max(size_t(256) << 20, Phys / 8 >> 20 << 20);
  }
  std::string LlcText = Llc.Bytes ? mib(Llc.Bytes) + " (" + Llc.From + ")"
                                  : std::string("not found");
  std::printf("  sizes: streaming arrays %s floats (%s each), scan %s ints "
              "(%s each), host copy %s; last-level cache %s",
              countStr(Sz.Stream).c_str(), mib(Sz.Stream * 4).c_str(),
              countStr(size_t(Sz.Scan)).c_str(),
              mib(size_t(Sz.Scan) * 4).c_str(), mib(CopyBytes).c_str(),
              LlcText.c_str());
  if (Quick)
    std::printf("\n");
  else
    std::printf(", arrays 4 x that and at least 16M elements%s\n",
                Capped ? (", capped at " + MaxWhy).c_str() : "");
  HostCopy Copy = measureHostCopy(CopyBytes, std::max(Reps, 5));
  std::printf("  host copy %zu MiB, non-temporal stores: %.2f GB/s (1 thread), "
              "%.2f GB/s (%d threads); memcpy %.2f GB/s (1 thread)\n"
              "  host copy bandwidth (reference for %%copy): %.2f GB/s\n",
              Copy.Bytes >> 20, Copy.Stream1GBs, Copy.StreamNGBs, Copy.Threads,
              Copy.MemcpyGBs, Copy.StreamGBs);
  RowRef.Bytes = Sz.Stream * 4;
  RowRef.Threads = Copy.Threads;
  RowRef.Src = static_cast<float *>(std::aligned_alloc(64, RowRef.Bytes));
  RowRef.Dst = static_cast<float *>(std::aligned_alloc(64, RowRef.Bytes));
  for (size_t I = 0; I < RowRef.Bytes / 4; ++I)
    RowRef.Src[I] = float(I), RowRef.Dst[I] = 0;
  std::printf("  host vadd %zu MiB per array, non-temporal stores, %d threads: "
              "%.2f GB/s = %.1f%% of host copy (this machine's ceiling for "
              "vadd)\n",
              Copy.AddBytes >> 20, Copy.Threads, Copy.AddGBs,
              100.0 * Copy.AddGBs / Copy.StreamGBs);
  std::printf("  GB/s counts bytes read + bytes written (copy 8, vadd and "
              "saxpy 12, reduce 4, scans 8 bytes per element);\n");
  // A row runs for up to 120 + 30 s per repetition at the fixed sizes, in
  // proportion beyond them.
  size_t SizeScale = std::max({size_t(1), Sz.Stream / FixedStream,
                               size_t(Sz.Scan) / size_t(FixedScan)});
  unsigned TimeoutS = unsigned(120 + 30 * Reps) * unsigned(SizeScale);

  bool Bad = false;
  bool Two = Ps.size() == 2;
  if (Scaling) {
    std::printf(
        "  each row on a sub-device of N compute units (clCreateSubDevices, "
        "by counts; the whole device at its maximum), N = %s;\n"
        "  A vs %d = A's time on %d worker%s / A's time on N (likewise "
        "B); speedup = B time / A time (> 1: A is faster);\n"
        "  %%copy = GB/s / host copy GB/s with N threads, the host copy (%s, "
        "non-temporal) re-measured\n"
        "  after A and B in every repetition of that row (column host: its "
        "median)\n",
        ThreadList.c_str(), Counts[0], Counts[0], Counts[0] == 1 ? "" : "s",
        mib(RowRef.Bytes).c_str());
    std::fflush(stdout);
    Bad = runScaling(ScaleRows, Ps, Counts, Reps, TimeoutS);
  } else {
    std::printf("  %%copy = GB/s / host copy GB/s, the host copy (%s, "
                "non-temporal) re-measured\n"
                "  after A and B in every repetition of that row (column "
                "host: its median);\n"
                "  speedup = B time / A time (> 1: A is faster)\n\n",
                mib(RowRef.Bytes).c_str());
    std::printf("%-16s %-8s %10s %10s %9s %7s %7s %7s  %s\n", "benchmark",
                "unit", "A", Two ? "B" : "", Two ? "speedup" : "", "A%copy",
                Two ? "B%copy" : "", "host", "notes");
    std::fflush(stdout);
    for (Row &R : Rows) {
      runRow(R, Ps, Reps, TimeoutS, {1, Copy.Threads});
      const Spec &S = *R.S;
      std::string Cell[2], PctCell[2];
      for (size_t I = 0; I < Ps.size(); ++I) {
        const Outcome &O = R.O[I];
        if (O.Status == "ok") {
          double V = value(S, median(O.Samples));
          Cell[I] = fmt(V);
          if (S.VsCopy)
            PctCell[I] = fmt(100 * V / R.refGBs());
        } else {
          Cell[I] = O.Status;
        }
      }
      std::string Notes =
          rowNotes(R, Ps.size(), unsigned(Threads), R.refGBs(), Bad);
      // pipe_stream against the copy kernel of the same run (its goal:
      // at least 0.3 x).
      if (S.Name == "pipe_stream" && R.O[0].Status == "ok")
        for (const Row &C : Rows)
          if (C.S->Name == "copy" && C.O[0].Status == "ok")
            Notes = "A/copy row " +
                    fmt(value(S, median(R.O[0].Samples)) /
                        value(*C.S, median(C.O[0].Samples))) +
                    "x; " + Notes;
      // enqueue_tree against launch_batched of the same run (its goal: at
      // most 2 x per child what a host launch costs).
      if (S.Name == "enqueue_tree" && R.O[0].Status == "ok")
        for (const Row &C : Rows)
          if (C.S->Name == "launch_batched" && C.O[0].Status == "ok")
            Notes = "A/launch_batched " +
                    fmt(value(S, median(R.O[0].Samples)) /
                        value(*C.S, median(C.O[0].Samples))) +
                    "x; " + Notes;
      std::string Speedup;
      if (Two && R.O[0].Status == "ok" && R.O[1].Status == "ok")
        Speedup = fmt(median(R.O[1].Samples) / median(R.O[0].Samples)) + "x";
      std::string Host = S.VsCopy ? fmt(R.refGBs()) : "";
      std::printf("%-16s %-8s %10s %10s %9s %7s %7s %7s  %s\n", S.Name.c_str(),
                  S.Unit.c_str(), Cell[0].c_str(), Cell[1].c_str(),
                  Speedup.c_str(), PctCell[0].c_str(), PctCell[1].c_str(),
                  Host.c_str(), Notes.c_str());
      std::fflush(stdout);
    }
  }

  if (!Json.empty()) {
    std::ofstream Out(Json);
    Out << "{\n  \"cpu\": \"" << jsonEscape(cpuModel())
        << "\",\n  \"threads\": " << Threads << ",\n  \"reps\": " << Reps
        << ",\n  \"quick\": " << (Quick ? "true" : "false")
        << ",\n  \"llc_bytes\": " << Llc.Bytes
        << ",\n  \"stream_floats\": " << Sz.Stream
        << ",\n  \"scan_ints\": " << Sz.Scan
        << ",\n  \"host_copy_bytes\": " << Copy.Bytes
        << ",\n  \"host_copy_gbs\": " << jsonNum(Copy.StreamGBs)
        << ",\n  \"host_copy_nt_1thread_gbs\": " << jsonNum(Copy.Stream1GBs)
        << ",\n  \"host_copy_nt_threads_gbs\": " << jsonNum(Copy.StreamNGBs)
        << ",\n  \"host_memcpy_gbs\": " << jsonNum(Copy.MemcpyGBs)
        << ",\n  \"host_vadd_gbs\": " << jsonNum(Copy.AddGBs)
        << ",\n  \"gbs_convention\": \"bytes read + bytes written\""
        << ",\n  \"speedup_convention\": \"B time / A time\"";
    writeJsonPlatforms(Out, Ps);
    if (Scaling)
      writeJsonScaling(Out, ScaleRows, Counts, Ps.size());
    else
      writeJsonBenchmarks(Out, Rows, Ps.size());
    Out << "\n}\n";
    if (!Out) {
      std::fprintf(stderr, "clcpu_bench: writing %s failed\n", Json.c_str());
      return 2;
    }
  }
  std::free(RowRef.Src);
  std::free(RowRef.Dst);
  return Bad ? 1 : 0;
}

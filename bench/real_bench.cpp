// clcpu_real_bench: other people's OpenCL kernels on two platforms side by
// side, with the host CPU library doing the same work as the physical
// reference. Every repetition runs A, then B, then the host, so machine
// noise hits all three alike; each figure is the median of the
// repetitions, after one warm-up call that also builds the kernels.
//
// Rows:
// - CLBlast 1.5 through its C API, default parameters (CLBlastSgemm,
//   CLBlastSgemv, CLBlastSaxpy), against OpenBLAS's cblas on the host;
// - clFFT 2.12, complex single-precision forward transforms, against
//   FFTW's fftwf (FFTW_MEASURE plans) on the host;
// - pyopencl's GenericScanKernel and RadixSort against numpy: run by
//   bench/real_pyopencl.py as a child process;
// - hashcat's benchmark mode (-b) for MD5 and SHA2-256, one hashcat process
//   per platform and repetition, its device chosen by platform name from
//   `hashcat -I`; its figure is what hashcat prints (H/s), after hashcat's
//   own self-test of the kernel on a known hash, and leaves out hashcat's
//   start (no warm-up run: the notes give the start's wall time).
// The host libraries use as many threads as this process has CPUs, the
// drivers' devices as many compute units.
//
// Every result is verified: SGEMM and SGEMV against OpenBLAS within the
// worst-case rounding bound 2 K eps (|A| |B|) per element, SAXPY within
// 2 eps (|a x| + |y|), the transforms against FFTW within a relative RMS
// error of 1e-4, the scan and the sort exactly against numpy, hashcat by
// its self-test. A wrong result prints FAIL and no figure.
//
// The last column names the kernels each row launched on the clcpu
// platform and the path clcpu took for each (CLCPU_LOG_KERNEL_PATHS, which
// this program sets): the launches are seen by this program's own
// clEnqueueNDRangeKernel, which CLBlast and clFFT reach before the
// loader's; for pyopencl every kernel built during the warm-up, for
// hashcat those of the hash mode (m01400_*). The full path lines follow
// the table.
//
// Usage: clcpu_real_bench [--a NAME] [--b NAME|none] [--reps N] [--smoke]
//                         [--only LIST] [--list] [--python PATH]
//                         [--hashcat PATH] [--clblast-params FILE]...
// NAME is a substring of CL_PLATFORM_NAME (defaults "clcpu" and "Portable
// Computing Language", i.e. PoCL), as for clcpu_bench. --smoke: small
// sizes, no hashcat rows (the ctest). --clblast-params FILE (repeatable):
// the JSON a clblast_tuner_* program wrote (clblast_xgemm_1_32.json, ...);
// each CLBlast row that launches a kernel it tunes gets a *_tuned copy,
// run on A alone after the other CLBlast rows with the file's best
// parameters applied by CLBlastOverrideParameters (CLBlast's run-time
// override; no CLBlast rebuild). A row whose tool is not installed
// (pyopencl, hashcat) is skipped with the reason. Exit status 1 if
// anything FAILed or a row that ran was n/a on A.
#include "bench/BenchCommon.h"

#include <CL/cl.h>
#include <cblas.h>
#include <clFFT.h>
#include <clblast_c.h>
#include <fftw3.h>

#include <algorithm>
#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace bench;

namespace {

//===----------------------------------------------------------------------===//
// What the libraries launch, and the paths clcpu took
//===----------------------------------------------------------------------===//

/// One kernel launched during a recorded call.
struct Launch {
  std::string Kernel;
  std::string Sizes; // global / local of its first launch, "1024x1024/8x8"
  unsigned Count = 0;
};

/// Set while a warm-up call is recorded.
std::vector<Launch> *Recording = nullptr;

/// Every path line read so far, kernel name to path: CLBlast and clFFT
/// keep their built programs for the process, so a later row may launch a
/// kernel that an earlier row built (and clcpu reported then).
std::map<std::string, std::string> PathsSeen;

std::string dims(cl_uint Dim, const size_t *S) {
  if (!S)
    return "auto";
  std::string R;
  for (cl_uint I = 0; I < Dim; ++I)
    R += (I ? "x" : "") + std::to_string(S[I]);
  return R;
}

} // namespace

// CLBlast and clFFT call clEnqueueNDRangeKernel through the dynamic linker,
// which finds this definition (exported, bench/CMakeLists.txt) before the
// loader's; it notes the kernel and passes the call on unchanged. (Visible
// although the project builds with -fvisibility=hidden.)
extern "C" __attribute__((visibility("default")))
CL_API_ENTRY cl_int CL_API_CALL
clEnqueueNDRangeKernel(cl_command_queue Queue, cl_kernel Kernel, cl_uint Dim,
                       const size_t *Offset, const size_t *Global,
                       const size_t *Local, cl_uint NumEvents,
                       const cl_event *Wait, cl_event *Event) {
  using Fn = cl_int(CL_API_CALL *)(
      cl_command_queue, cl_kernel, cl_uint, const size_t *, const size_t *,
      const size_t *, cl_uint, const cl_event *, cl_event *);
  static Fn Next = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, __func__));
  if (!Next)
    return CL_INVALID_OPERATION;
  if (Recording && Kernel) {
    char Name[256] = {};
    clGetKernelInfo(Kernel, CL_KERNEL_FUNCTION_NAME, sizeof Name - 1, Name,
                    nullptr);
    auto It = std::find_if(Recording->begin(), Recording->end(),
                           [&](const Launch &L) { return L.Kernel == Name; });
    if (It == Recording->end())
      It = Recording->insert(
          Recording->end(), {Name, dims(Dim, Global) + "/" + dims(Dim, Local)});
    ++It->Count;
  }
  return Next(Queue, Kernel, Dim, Offset, Global, Local, NumEvents, Wait,
              Event);
}

namespace {

/// Standard error into a temporary file while it lives, so that clcpu's
/// kernel path lines (written while kernels build) can be read; the other
/// lines go back to standard error.
class StderrCapture {
public:
  StderrCapture() {
    std::fflush(stderr);
    Tmp = std::tmpfile();
    Saved = dup(2);
    if (Tmp && Saved >= 0)
      dup2(fileno(Tmp), 2);
  }
  StderrCapture(const StderrCapture &) = delete;
  StderrCapture &operator=(const StderrCapture &) = delete;
  ~StderrCapture() { finish(); }

  /// Restores standard error; the path lines "clcpu: kernel NAME: PATH"
  /// into Paths (NAME to PATH), the others written to standard error.
  void finish(std::map<std::string, std::string> *Paths = nullptr) {
    if (Saved < 0)
      return;
    std::fflush(stderr);
    dup2(Saved, 2);
    close(Saved);
    Saved = -1;
    if (!Tmp)
      return;
    std::rewind(Tmp);
    std::string Text;
    char Buf[4096];
    for (size_t N; (N = std::fread(Buf, 1, sizeof Buf, Tmp)) > 0;)
      Text.append(Buf, N);
    std::fclose(Tmp);
    Tmp = nullptr;
    std::istringstream In(Text);
    const std::string Prefix = "clcpu: kernel ";
    for (std::string L; std::getline(In, L);) {
      size_t Sep = L.find(": ", Prefix.size());
      if (Paths && L.rfind(Prefix, 0) == 0 && Sep != std::string::npos)
        (*Paths)[L.substr(Prefix.size(), Sep - Prefix.size())] =
            L.substr(Sep + 2);
      else
        std::fprintf(stderr, "%s\n", L.c_str());
    }
  }

private:
  FILE *Tmp = nullptr;
  int Saved = -1;
};

/// The table's short form of a kernel path line.
std::string shortPath(const std::string &Path) {
  if (Path.rfind("fibers", 0) == 0)
    return "fibers";
  if (Path == "work-item loop")
    return "loop";
  const std::string Regions = "barrier regions: ";
  if (Path.rfind(Regions, 0) != 0)
    return Path;
  // "barrier regions: 3 regions (...), 12 values (2 uniform) and 4 private
  // arrays across them, 1176 bytes of scratch per work-item, ..."
  auto NumberBefore = [&](const std::string &Word) -> std::string {
    size_t At = Path.find(Word);
    if (At == std::string::npos || At == 0)
      return "?";
    size_t B = Path.find_last_not_of("0123456789", At - 1);
    return Path.substr(B + 1, At - (B + 1));
  };
  return "regions " + NumberBefore(" regions (") + ", " +
         NumberBefore(" values (") + " values, " +
         NumberBefore(" private arrays") + " arrays, " +
         NumberBefore(" bytes of scratch") + " B scratch";
}

//===----------------------------------------------------------------------===//
// Rows
//===----------------------------------------------------------------------===//

/// One row's work on one platform, or on the host.
struct Work {
  virtual ~Work() = default;
  /// Buffers, inputs, plans.
  virtual void setUp() {}
  /// One call, finished.
  virtual void run() = 0;
  /// Runs once from the row's inputs and compares with the reference: ""
  /// or what is wrong.
  virtual std::string verify() { return ""; }
};

/// What each platform's result is checked against, made once per row.
struct Reference {
  virtual ~Reference() = default;
};

/// A row the program runs in process.
struct Spec {
  std::string Name, Unit, What;
  double PerCall = 0; // work of one call, in Unit x seconds
  std::function<std::shared_ptr<Reference>()> MakeReference;
  std::function<std::unique_ptr<Work>(Platform &, Reference &)> Make;
  std::function<std::unique_ptr<Work>(Reference &)> MakeHost;
  /// Runs on A alone with the --clblast-params parameters (a *_tuned row).
  bool Tuned = false;
};

struct Buffer {
  cl_mem M = nullptr;
  Buffer() = default;
  Buffer(cl_context Ctx, size_t Bytes) {
    cl_int Err;
    M = clCreateBuffer(Ctx, CL_MEM_READ_WRITE, Bytes, nullptr, &Err);
    check(Err, "clCreateBuffer");
  }
  Buffer(const Buffer &) = delete;
  Buffer &operator=(Buffer &&O) noexcept {
    std::swap(M, O.M);
    return *this;
  }
  ~Buffer() {
    if (M)
      clReleaseMemObject(M);
  }
};

void write(Platform &P, const Buffer &B, const std::vector<float> &V) {
  check(clEnqueueWriteBuffer(P.Queue, B.M, CL_TRUE, 0, V.size() * 4, V.data(),
                             0, nullptr, nullptr),
        "clEnqueueWriteBuffer");
}

std::vector<float> read(Platform &P, const Buffer &B, size_t N) {
  std::vector<float> V(N);
  check(clEnqueueReadBuffer(P.Queue, B.M, CL_TRUE, 0, N * 4, V.data(), 0,
                            nullptr, nullptr),
        "clEnqueueReadBuffer");
  return V;
}

void clblast(CLBlastStatusCode S, const char *What) {
  if (S != CLBlastSuccess)
    throw ClError(std::string(What) + " failed (CLBlast status " +
                  std::to_string(int(S)) + ")");
}

//===----------------------------------------------------------------------===//
// CLBlast's tuned parameters (--clblast-params)
//===----------------------------------------------------------------------===//

/// One kernel's parameters from a clblast_tuner_* JSON file.
struct TunedKernel {
  std::string File, Kernel; // Kernel: CLBlast's name, "Xgemm"
  CLBlastPrecision Precision = CLBlastPrecisionSingle;
  std::vector<std::string> Names;
  std::vector<size_t> Values;
  std::string Best; // "GEMMK=0 KREG=1 ...", as the tuner wrote it
  double BestMs = 0;
};

std::vector<std::string> split(const std::string &S, char Sep);

/// The string value of a top-level "Key": "value" of a tuner's JSON file.
/// The tuners write their metadata as one such pair a line, before the
/// results, so a search for the first one is enough.
std::string tunerField(const std::string &Text, const std::string &Key) {
  std::string Pat = "\"" + Key + "\": \"";
  size_t At = Text.find(Pat);
  if (At == std::string::npos)
    return "";
  At += Pat.size();
  size_t End = Text.find('"', At);
  return End == std::string::npos ? "" : Text.substr(At, End - At);
}

/// Reads a clblast_tuner_* result (clblast_<family>_<precision>.json).
/// Throws with the reason when the file is not one.
TunedKernel readTunerJson(const std::string &File) {
  FILE *F = std::fopen(File.c_str(), "r");
  if (!F)
    throw std::runtime_error(File + ": " + std::strerror(errno));
  std::string Text;
  char Buf[4096];
  for (size_t N; (N = std::fread(Buf, 1, sizeof Buf, F)) > 0;)
    Text.append(Buf, N);
  std::fclose(F);
  // The tuners' kernel families and the kernel names CLBlast's
  // OverrideParameters takes (CLBlast's doc/tuning.md); xdot is left out:
  // its two files each hold half of Xdot's parameters.
  static const std::map<std::string, std::string> Kernels = {
      {"xgemm_1", "Xgemm"},
      {"xgemm_2", "Xgemm"},
      {"xgemm_11", "Xgemm"},
      {"xgemm_12", "Xgemm"},
      {"xgemm_direct_1", "XgemmDirect"},
      {"xgemm_direct_2", "XgemmDirect"},
      {"copy", "Copy"},
      {"pad", "Pad"},
      {"transpose", "Transpose"},
      {"padtranspose", "Padtranspose"},
      {"xaxpy", "Xaxpy"},
      {"xgemv", "Xgemv"},
      {"xgemv_fast", "XgemvFast"},
      {"xgemv_fast_rot", "XgemvFastRot"},
      {"xger", "Xger"},
      {"invert", "Invert"}};
  TunedKernel T;
  T.File = File;
  std::string Family = tunerField(Text, "kernel_family");
  auto K = Kernels.find(Family);
  if (K == Kernels.end())
    throw std::runtime_error(File +
                             ": not a clblast_tuner_* result of a "
                             "known kernel family (kernel_family \"" +
                             Family + "\")");
  T.Kernel = K->second;
  std::string Prec = tunerField(Text, "precision");
  if (Prec != "16" && Prec != "32" && Prec != "64" && Prec != "3232" &&
      Prec != "6464")
    throw std::runtime_error(File + ": unknown precision \"" + Prec + "\"");
  // CLBlastPrecision's values are the tuners' precision numbers.
  T.Precision = CLBlastPrecision(std::atoi(Prec.c_str()));
  T.Best = tunerField(Text, "best_parameters");
  for (const std::string &Item : split(T.Best, ' ')) {
    size_t Eq = Item.find('=');
    char *End = nullptr;
    unsigned long long V =
        Eq == std::string::npos ? 0 : std::strtoull(&Item[Eq + 1], &End, 10);
    if (Eq == std::string::npos || Eq == 0 || End == &Item[Eq + 1] || *End)
      throw std::runtime_error(File + ": bad best_parameters item \"" + Item +
                               "\"");
    T.Names.push_back(Item.substr(0, Eq));
    T.Values.push_back(size_t(V));
  }
  if (T.Names.empty())
    throw std::runtime_error(File + ": no best_parameters");
  T.BestMs = std::atof(tunerField(Text, "best_time").c_str());
  return T;
}

void clfft(clfftStatus S, const char *What) {
  if (S != CLFFT_SUCCESS)
    throw ClError(std::string(What) + " failed (clFFT status " +
                  std::to_string(int(S)) + ")");
}

std::vector<float> uniform(size_t N, uint64_t Seed) {
  Lcg R(Seed);
  std::vector<float> V(N);
  for (float &X : V)
    X = R.uniform(-1, 1);
  return V;
}

/// Each element of Got within Bound[I] (plus a denormal's worth) of Ref.
std::string compareBound(const std::vector<float> &Got,
                         const std::vector<float> &Ref,
                         const std::vector<float> &Bound, double Scale) {
  for (size_t I = 0; I < Ref.size(); ++I) {
    double Err = std::fabs(double(Got[I]) - Ref[I]);
    if (!(Err <= Scale * Bound[I] + FLT_MIN)) {
      char Buf[160];
      std::snprintf(Buf, sizeof Buf,
                    "element %zu is %.8g, expected %.8g (bound %.3g)", I,
                    double(Got[I]), double(Ref[I]), Scale * Bound[I]);
      return Buf;
    }
  }
  return "";
}

// CLBlast SGEMM: C = A B, row-major, square.
struct GemmRef : Reference {
  size_t N;
  std::vector<float> A, B, C, Bound; // Bound: |A| |B|
  explicit GemmRef(size_t N)
      : N(N), A(uniform(N * N, 1)), B(uniform(N * N, 2)) {
    C.resize(N * N), Bound.resize(N * N);
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(N), int(N),
                int(N), 1, A.data(), int(N), B.data(), int(N), 0, C.data(),
                int(N));
    std::vector<float> AbsA(A), AbsB(B);
    for (float &X : AbsA)
      X = std::fabs(X);
    for (float &X : AbsB)
      X = std::fabs(X);
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(N), int(N),
                int(N), 1, AbsA.data(), int(N), AbsB.data(), int(N), 0,
                Bound.data(), int(N));
  }
};

struct ClGemm : Work {
  Platform &P;
  GemmRef &R;
  Buffer A, B, C;
  ClGemm(Platform &P, GemmRef &R) : P(P), R(R) {}
  void setUp() override {
    size_t Bytes = R.N * R.N * 4;
    A = Buffer(P.Ctx, Bytes), B = Buffer(P.Ctx, Bytes),
    C = Buffer(P.Ctx, Bytes);
    write(P, A, R.A), write(P, B, R.B);
    // CLBlast reads C even with beta = 0 (0 x NaN is NaN): no garbage.
    write(P, C, std::vector<float>(R.N * R.N));
  }
  void run() override {
    clblast(CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo,
                         CLBlastTransposeNo, R.N, R.N, R.N, 1, A.M, 0, R.N, B.M,
                         0, R.N, 0, C.M, 0, R.N, &P.Queue, nullptr),
            "CLBlastSgemm");
    check(clFinish(P.Queue), "clFinish");
  }
  std::string verify() override {
    run();
    // Two sums of N products each within gamma_N |A| |B| of the exact one
    // (Higham, Accuracy and Stability, 3.5).
    return compareBound(read(P, C, R.N * R.N), R.C, R.Bound,
                        2.0 * double(R.N) * FLT_EPSILON);
  }
};

struct HostGemm : Work {
  GemmRef &R;
  std::vector<float> C;
  explicit HostGemm(GemmRef &R) : R(R), C(R.N * R.N) {}
  void run() override {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(R.N), int(R.N),
                int(R.N), 1, R.A.data(), int(R.N), R.B.data(), int(R.N), 0,
                C.data(), int(R.N));
  }
};

// CLBlast SGEMV: y = A x, row-major M x N.
struct GemvRef : Reference {
  size_t M, N;
  std::vector<float> A, X, Y, Bound;
  GemvRef(size_t M, size_t N)
      : M(M), N(N), A(uniform(M * N, 3)), X(uniform(N, 4)), Y(M), Bound(M) {
    cblas_sgemv(CblasRowMajor, CblasNoTrans, int(M), int(N), 1, A.data(),
                int(N), X.data(), 1, 0, Y.data(), 1);
    std::vector<float> AbsA(A), AbsX(X);
    for (float &V : AbsA)
      V = std::fabs(V);
    for (float &V : AbsX)
      V = std::fabs(V);
    cblas_sgemv(CblasRowMajor, CblasNoTrans, int(M), int(N), 1, AbsA.data(),
                int(N), AbsX.data(), 1, 0, Bound.data(), 1);
  }
};

struct ClGemv : Work {
  Platform &P;
  GemvRef &R;
  Buffer A, X, Y;
  ClGemv(Platform &P, GemvRef &R) : P(P), R(R) {}
  void setUp() override {
    A = Buffer(P.Ctx, R.M * R.N * 4), X = Buffer(P.Ctx, R.N * 4);
    Y = Buffer(P.Ctx, R.M * 4);
    write(P, A, R.A), write(P, X, R.X);
    // CLBlast reads y even with beta = 0 (0 x NaN is NaN): no garbage.
    write(P, Y, std::vector<float>(R.M));
  }
  void run() override {
    clblast(CLBlastSgemv(CLBlastLayoutRowMajor, CLBlastTransposeNo, R.M, R.N, 1,
                         A.M, 0, R.N, X.M, 0, 1, 0, Y.M, 0, 1, &P.Queue,
                         nullptr),
            "CLBlastSgemv");
    check(clFinish(P.Queue), "clFinish");
  }
  std::string verify() override {
    run();
    return compareBound(read(P, Y, R.M), R.Y, R.Bound,
                        2.0 * double(R.N) * FLT_EPSILON);
  }
};

struct HostGemv : Work {
  GemvRef &R;
  std::vector<float> Y;
  explicit HostGemv(GemvRef &R) : R(R), Y(R.M) {}
  void run() override {
    cblas_sgemv(CblasRowMajor, CblasNoTrans, int(R.M), int(R.N), 1, R.A.data(),
                int(R.N), R.X.data(), 1, 0, Y.data(), 1);
  }
};

// CLBlast SAXPY: y = a x + y. The timed calls accumulate into y; verify
// starts again from the row's y.
constexpr float SaxpyA = 0.75f;
struct AxpyRef : Reference {
  size_t N;
  std::vector<float> X, Y, Out, Bound;
  explicit AxpyRef(size_t N)
      : N(N), X(uniform(N, 5)), Y(uniform(N, 6)), Out(N), Bound(N) {
    for (size_t I = 0; I < N; ++I) {
      Out[I] = SaxpyA * X[I] + Y[I];
      Bound[I] = std::fabs(SaxpyA * X[I]) + std::fabs(Y[I]);
    }
  }
};

struct ClAxpy : Work {
  Platform &P;
  AxpyRef &R;
  Buffer X, Y;
  ClAxpy(Platform &P, AxpyRef &R) : P(P), R(R) {}
  void setUp() override {
    X = Buffer(P.Ctx, R.N * 4), Y = Buffer(P.Ctx, R.N * 4);
    write(P, X, R.X), write(P, Y, R.Y);
  }
  void run() override {
    clblast(CLBlastSaxpy(R.N, SaxpyA, X.M, 0, 1, Y.M, 0, 1, &P.Queue, nullptr),
            "CLBlastSaxpy");
    check(clFinish(P.Queue), "clFinish");
  }
  std::string verify() override {
    write(P, Y, R.Y);
    run();
    return compareBound(read(P, Y, R.N), R.Out, R.Bound, 2.0 * FLT_EPSILON);
  }
};

struct HostAxpy : Work {
  AxpyRef &R;
  std::vector<float> Y;
  explicit HostAxpy(AxpyRef &R) : R(R), Y(R.Y) {}
  void run() override {
    cblas_saxpy(int(R.N), SaxpyA, R.X.data(), 1, Y.data(), 1);
  }
};

// clFFT: complex single-precision forward transforms, out of place,
// interleaved; Lengths[0] is the contiguous dimension, as in clFFT.
unsigned FftwFlags = FFTW_MEASURE;

struct FftRef : Reference {
  std::vector<size_t> Lengths;
  size_t Points = 1;
  std::vector<float> In, Out; // interleaved re, im
  fftwf_complex *HostIn = nullptr, *HostOut = nullptr;
  fftwf_plan Plan = nullptr;
  explicit FftRef(std::vector<size_t> L) : Lengths(std::move(L)) {
    for (size_t N : Lengths)
      Points *= N;
    HostIn = fftwf_alloc_complex(Points);
    HostOut = fftwf_alloc_complex(Points);
    if (!HostIn || !HostOut)
      throw ClError("fftwf_alloc_complex failed");
    // FFTW's dimensions are row-major: the contiguous one last.
    std::vector<int> Dims(Lengths.rbegin(), Lengths.rend());
    // Planned before the input is written: FFTW_MEASURE overwrites it.
    Plan = fftwf_plan_dft(int(Dims.size()), Dims.data(), HostIn, HostOut,
                          FFTW_FORWARD, FftwFlags);
    if (!Plan)
      throw ClError("fftwf_plan_dft failed");
    In = uniform(2 * Points, 7);
    std::memcpy(HostIn, In.data(), In.size() * 4);
    fftwf_execute(Plan);
    Out.resize(2 * Points);
    std::memcpy(Out.data(), HostOut, Out.size() * 4);
  }
  ~FftRef() override {
    if (Plan)
      fftwf_destroy_plan(Plan);
    fftwf_free(HostIn);
    fftwf_free(HostOut);
  }
};

struct ClFft : Work {
  Platform &P;
  FftRef &R;
  Buffer In, Out;
  clfftPlanHandle Plan = 0;
  bool HavePlan = false;
  ClFft(Platform &P, FftRef &R) : P(P), R(R) {}
  ~ClFft() override {
    if (HavePlan)
      clfftDestroyPlan(&Plan);
  }
  void setUp() override {
    In = Buffer(P.Ctx, R.In.size() * 4), Out = Buffer(P.Ctx, R.In.size() * 4);
    write(P, In, R.In);
    clfftDim Dim = R.Lengths.size() == 1   ? CLFFT_1D
                   : R.Lengths.size() == 2 ? CLFFT_2D
                                           : CLFFT_3D;
    clfft(clfftCreateDefaultPlan(&Plan, P.Ctx, Dim, R.Lengths.data()),
          "clfftCreateDefaultPlan");
    HavePlan = true;
    clfft(clfftSetPlanPrecision(Plan, CLFFT_SINGLE), "clfftSetPlanPrecision");
    clfft(clfftSetLayout(Plan, CLFFT_COMPLEX_INTERLEAVED,
                         CLFFT_COMPLEX_INTERLEAVED),
          "clfftSetLayout");
    clfft(clfftSetResultLocation(Plan, CLFFT_OUTOFPLACE),
          "clfftSetResultLocation");
    clfft(clfftBakePlan(Plan, 1, &P.Queue, nullptr, nullptr), "clfftBakePlan");
  }
  void run() override {
    clfft(clfftEnqueueTransform(Plan, CLFFT_FORWARD, 1, &P.Queue, 0, nullptr,
                                nullptr, &In.M, &Out.M, nullptr),
          "clfftEnqueueTransform");
    check(clFinish(P.Queue), "clFinish");
  }
  std::string verify() override {
    run();
    std::vector<float> Got = read(P, Out, R.Out.size());
    double Diff = 0, Norm = 0;
    for (size_t I = 0; I < Got.size(); ++I) {
      double D = double(Got[I]) - R.Out[I];
      Diff += D * D, Norm += double(R.Out[I]) * R.Out[I];
    }
    double Rel = std::sqrt(Diff / Norm);
    // A float FFT's RMS error grows like eps sqrt(log N), some 1e-6 here; a
    // wrong element among a million already makes some 1e-3.
    if (!(Rel <= 1e-4)) {
      char Buf[96];
      std::snprintf(Buf, sizeof Buf,
                    "relative RMS error %.3g against FFTW (bound 1e-4)", Rel);
      return Buf;
    }
    return "";
  }
};

struct HostFft : Work {
  FftRef &R;
  explicit HostFft(FftRef &R) : R(R) {}
  void run() override { fftwf_execute(R.Plan); }
};

/// 5 N log2 N floating-point operations per complex transform of N points
/// (the convention of clFFT's client and FFTW's benchmarks), in GFLOP.
double fftGflop(size_t Points) {
  return 5.0 * double(Points) * std::log2(double(Points)) * 1e-9;
}

template <typename R, typename W, typename H>
Spec spec(std::string Name, std::string Unit, std::string What, double PerCall,
          std::function<std::shared_ptr<R>()> MakeRef) {
  Spec S;
  S.Name = std::move(Name), S.Unit = std::move(Unit), S.What = std::move(What);
  S.PerCall = PerCall;
  S.MakeReference = [MakeRef] { return std::shared_ptr<Reference>(MakeRef()); };
  S.Make = [](Platform &P, Reference &Ref) -> std::unique_ptr<Work> {
    return std::make_unique<W>(P, static_cast<R &>(Ref));
  };
  S.MakeHost = [](Reference &Ref) -> std::unique_ptr<Work> {
    return std::make_unique<H>(static_cast<R &>(Ref));
  };
  return S;
}

/// The rows: with Tuned (the kernels --clblast-params gives parameters
/// for), a *_tuned copy of each CLBlast row that launches one of them,
/// after all the CLBlast rows: CLBlast keeps overridden parameters for the
/// rest of the process.
std::vector<Spec> specs(bool Smoke, const std::vector<std::string> &Tuned) {
  std::vector<Spec> V;
  // The rows keep their names at --smoke sizes.
  for (auto [Full, Small] :
       {std::pair<size_t, size_t>{1024, 64}, {2048, 128}}) {
    size_t N = Smoke ? Small : Full;
    V.push_back(spec<GemmRef, ClGemm, HostGemm>(
        "sgemm_" + std::to_string(Full), "GFLOP/s",
        "CLBlastSgemm " + std::to_string(N) + "^3, row-major, no transposes",
        2.0 * double(N) * N * N * 1e-9,
        [N] { return std::make_shared<GemmRef>(N); }));
  }
  size_t Gv = Smoke ? 256 : 4096;
  V.push_back(spec<GemvRef, ClGemv, HostGemv>(
      "sgemv", "GB/s",
      "CLBlastSgemv " + std::to_string(Gv) + "x" + std::to_string(Gv) +
          ", row-major (bytes of A, x and y)",
      double(Gv * Gv + 2 * Gv) * 4 * 1e-9,
      [Gv] { return std::make_shared<GemvRef>(Gv, Gv); }));
  size_t Ax = Smoke ? size_t(1) << 16 : size_t(16) << 20;
  V.push_back(spec<AxpyRef, ClAxpy, HostAxpy>(
      "saxpy", "GB/s",
      "CLBlastSaxpy " + std::to_string(Ax >> 10) + "K floats (12 bytes each)",
      double(Ax) * 12 * 1e-9, [Ax] { return std::make_shared<AxpyRef>(Ax); }));
  // Which kernels each CLBlast row launches (CLBlast's doc/tuning.md;
  // at these sizes SGEMM takes the indirect Xgemm with its helpers).
  static const std::map<std::string, std::vector<std::string>> Uses = {
      {"sgemm_1024", {"Xgemm", "Copy", "Pad", "Transpose", "Padtranspose"}},
      {"sgemm_2048", {"Xgemm", "Copy", "Pad", "Transpose", "Padtranspose"}},
      {"sgemv", {"Xgemv", "XgemvFast", "XgemvFastRot"}},
      {"saxpy", {"Xaxpy"}}};
  size_t Rows = V.size();
  for (size_t I = 0; I < Rows; ++I) {
    const std::vector<std::string> &K = Uses.at(V[I].Name);
    if (std::none_of(K.begin(), K.end(), [&](const std::string &N) {
          return std::find(Tuned.begin(), Tuned.end(), N) != Tuned.end();
        }))
      continue;
    Spec S = V[I];
    S.Name += "_tuned", S.What += ", --clblast-params parameters, on A";
    S.Tuned = true;
    V.push_back(S);
  }
  std::vector<size_t> F2 =
      Smoke ? std::vector<size_t>{256, 64} : std::vector<size_t>{4096, 256};
  V.push_back(spec<FftRef, ClFft, HostFft>(
      "fft2d_4096x256", "GFLOP/s",
      "clFFT 2D " + std::to_string(F2[0]) + "x" + std::to_string(F2[1]) +
          " complex forward, out of place (5 N log2 N)",
      fftGflop(F2[0] * F2[1]), [F2] { return std::make_shared<FftRef>(F2); }));
  size_t F1 = Smoke ? size_t(1) << 12 : size_t(1) << 20;
  V.push_back(spec<FftRef, ClFft, HostFft>(
      "fft1d_1M", "GFLOP/s",
      "clFFT 1D " + std::to_string(F1) +
          " complex forward, out of place (5 N log2 N)",
      fftGflop(F1),
      [F1] { return std::make_shared<FftRef>(std::vector<size_t>{F1}); }));
  return V;
}

//===----------------------------------------------------------------------===//
// Results
//===----------------------------------------------------------------------===//

/// One platform's (or the host's) result in a row.
struct Outcome {
  std::string Status = "ok"; // ok, FAIL, n/a, skip
  std::string Why;
  std::string Note;           // how it ran (hashcat: its tuning)
  std::vector<double> Values; // one per repetition, in the row's unit
};

/// A row's results: A, B and the host.
struct Result {
  std::string Name, Unit, What;
  Outcome O[3];
  std::string HostWhat;
  /// On the clcpu platform: the kernels launched and the paths taken.
  std::vector<Launch> Launches;
  std::map<std::string, std::string> Paths;
  bool Skipped = false;
  std::string SkipWhy;
};

/// Seconds of one sample: calls repeated until 50 ms have passed, so that
/// a fast call is not all clock and launch noise.
double timeCalls(Work &W) {
  double Start = nowSec(), Now = Start;
  unsigned Calls = 0;
  do {
    W.run();
    ++Calls;
    Now = nowSec();
  } while (Now - Start < 0.05);
  return (Now - Start) / Calls;
}

/// Runs an in-process row: the reference, each platform's set-up, warm-up
/// call (recorded on ClcpuIndex's platform) and check, Reps repetitions of
/// A, B and the host, and a last check.
Result runSpec(const Spec &S, const std::vector<Platform *> &Ps, int Reps,
               int ClcpuIndex, unsigned TimeoutS) {
  Result R;
  R.Name = S.Name, R.Unit = S.Unit, R.What = S.What;
  alarm(TimeoutS);
  setWatchdogLabel(S.Name + " (host reference)");
  std::shared_ptr<Reference> Ref;
  std::unique_ptr<Work> Host;
  try {
    Ref = S.MakeReference();
    Host = S.MakeHost(*Ref);
    Host->run();
  } catch (const std::exception &E) {
    R.O[2].Status = "FAIL", R.O[2].Why = E.what();
    for (Outcome &O : R.O)
      O.Status = "FAIL", O.Why = "no reference: " + std::string(E.what());
    alarm(0);
    return R;
  }
  std::unique_ptr<Work> Ws[2];
  if (Ps.size() < 2)
    R.O[1].Status = "skip";
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
      O.Values.clear(), Ws[I].reset();
  };
  auto Verify = [&](size_t I) {
    std::string Why = Ws[I]->verify();
    if (!Why.empty())
      R.O[I].Status = "FAIL", R.O[I].Why = "wrong result: " + Why;
  };
  for (size_t I = 0; I < Ps.size(); ++I) {
    bool Record = int(I) == ClcpuIndex;
    StderrCapture Capture;
    std::vector<Launch> Launched;
    if (Record)
      Recording = &Launched;
    Guard(I, [&] {
      Ws[I] = S.Make(*Ps[I], *Ref);
      Ws[I]->setUp();
      Ws[I]->run(); // warm-up: builds the kernels
    });
    Recording = nullptr;
    std::map<std::string, std::string> Built;
    Capture.finish(Record ? &Built : nullptr);
    if (Record) {
      for (auto &[K, P] : Built)
        PathsSeen[K] = P;
      for (const Launch &L : Launched)
        if (PathsSeen.count(L.Kernel))
          R.Paths[L.Kernel] = PathsSeen[L.Kernel];
      R.Launches = std::move(Launched);
    }
    if (Ws[I])
      Guard(I, [&] { Verify(I); });
  }
  for (int Rep = 0; Rep < Reps; ++Rep) {
    for (size_t I = 0; I < Ps.size(); ++I)
      if (Ws[I])
        Guard(I,
              [&] { R.O[I].Values.push_back(S.PerCall / timeCalls(*Ws[I])); });
    R.O[2].Values.push_back(S.PerCall / timeCalls(*Host));
  }
  for (size_t I = 0; I < Ps.size(); ++I)
    if (Ws[I])
      Guard(I, [&] { Verify(I); });
  alarm(0);
  return R;
}

//===----------------------------------------------------------------------===//
// Child processes: pyopencl and hashcat
//===----------------------------------------------------------------------===//

/// The standard output and exit status of a shell command.
int runCommand(const std::string &Cmd, std::string &Output) {
  Output.clear();
  FILE *F = popen(Cmd.c_str(), "r");
  if (!F)
    return -1;
  char Buf[4096];
  for (size_t N; (N = std::fread(Buf, 1, sizeof Buf, F)) > 0;)
    Output.append(Buf, N);
  int St = pclose(F);
  return WIFEXITED(St) ? WEXITSTATUS(St) : 128 + WTERMSIG(St);
}

std::string quote(const std::string &S) {
  std::string R = "'";
  for (char C : S)
    R += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return R + "'";
}

std::vector<std::string> split(const std::string &S, char Sep) {
  std::vector<std::string> V;
  std::string Item;
  std::istringstream In(S);
  while (std::getline(In, Item, Sep))
    V.push_back(Item);
  if (!S.empty() && S.back() == Sep)
    V.push_back("");
  return V;
}

/// The pyopencl rows: bench/real_pyopencl.py prints tab-separated lines
///   row NAME UNIT WHAT
///   host NAME WHAT
///   result NAME A|B|host STATUS VALUES(comma-separated) WHY
///   path NAME KERNEL PATH
///   skip REASON
std::vector<Result> runPython(const std::string &Python,
                              const std::string &Script, const std::string &QA,
                              const std::string &QB, int Reps, bool Smoke,
                              const std::vector<std::string> &Only) {
  std::string Cmd = quote(Python) + " " + quote(Script) + " --a " + quote(QA) +
                    " --b " + quote(QB) + " --reps " + std::to_string(Reps) +
                    (Smoke ? " --smoke" : "");
  if (!Only.empty()) {
    std::string List;
    for (const std::string &O : Only)
      List += (List.empty() ? "" : ",") + O;
    Cmd += " --only " + quote(List);
  }
  std::string Out;
  int Rc = runCommand(Cmd, Out);
  std::vector<Result> Rs;
  auto Find = [&](const std::string &Name) -> Result * {
    for (Result &R : Rs)
      if (R.Name == Name)
        return &R;
    return nullptr;
  };
  std::string Skip;
  std::istringstream In(Out);
  for (std::string L; std::getline(In, L);) {
    std::vector<std::string> F = split(L, '\t');
    if (F.empty())
      continue;
    if (F[0] == "row" && F.size() >= 4) {
      Result R;
      R.Name = F[1], R.Unit = F[2], R.What = F[3];
      if (QB == "none")
        R.O[1].Status = "skip";
      Rs.push_back(R);
    } else if (F[0] == "host" && F.size() >= 3 && Find(F[1])) {
      Find(F[1])->HostWhat = F[2];
    } else if (F[0] == "result" && F.size() >= 6 && Find(F[1])) {
      int I = F[2] == "A" ? 0 : F[2] == "B" ? 1 : 2;
      Outcome &O = Find(F[1])->O[I];
      O.Status = F[3], O.Why = F[5];
      for (const std::string &V : split(F[4], ','))
        if (!V.empty())
          O.Values.push_back(std::atof(V.c_str()));
    } else if (F[0] == "path" && F.size() >= 4 && Find(F[1])) {
      Result &R = *Find(F[1]);
      R.Paths[F[2]] = F[3];
      R.Launches.push_back({F[2], "", 1});
    } else if (F[0] == "skip" && F.size() >= 2) {
      Skip = F[1];
    } else {
      std::fprintf(stderr, "%s\n", L.c_str());
    }
  }
  if (Rs.empty()) {
    Result R;
    R.Name = "pyopencl", R.Skipped = true;
    R.SkipWhy = !Skip.empty() ? Skip
                              : Script + " exited with status " +
                                    std::to_string(Rc) + " and no rows";
    Rs.push_back(R);
  } else if (Rc != 0 && Rc != 1) {
    // 1: a row FAILed, reported in its line. Anything else cut it short.
    for (Result &R : Rs)
      for (Outcome &O : R.O)
        if (O.Status == "ok" && O.Values.empty())
          O.Status = "FAIL",
          O.Why = Script + " exited with status " + std::to_string(Rc);
  }
  return Rs;
}

/// hashcat's backend device number of the first device of the platform
/// whose name contains Query (`hashcat -I`), or 0 and Why.
int hashcatDevice(const std::string &Hashcat, const std::string &Query,
                  std::string &Why) {
  std::string Out;
  int Rc = runCommand(quote(Hashcat) + " -I --backend-ignore-cuda "
                                       "--backend-ignore-hip 2>&1",
                      Out);
  std::istringstream In(Out);
  bool InPlatform = false;
  for (std::string L; std::getline(In, L);) {
    size_t P = L.find_first_not_of(' ');
    if (P == std::string::npos)
      continue;
    L = L.substr(P);
    if (L.rfind("OpenCL Platform ID #", 0) == 0)
      InPlatform = false;
    else if (L.rfind("Name....: ", 0) == 0 &&
             L.find(Query) != std::string::npos)
      InPlatform = true; // the platform's Name line comes before its devices
    else if (InPlatform && L.rfind("Backend Device ID #", 0) == 0)
      return std::atoi(L.c_str() + std::strlen("Backend Device ID #"));
  }
  Why = "hashcat -I (status " + std::to_string(Rc) +
        ") lists no device of a platform named like \"" + Query + "\"";
  // hashcat's own reason, if it gave one.
  std::istringstream Again(Out);
  for (std::string L; std::getline(Again, L);)
    if (L.find("ATTENTION") != std::string::npos ||
        L.find("rror") != std::string::npos) {
      Why += ": " + L;
      break;
    }
  return 0;
}

/// One hashcat benchmark run of Mode on Device: H/s, or throws with
/// hashcat's reason; Tuning gets what hashcat chose ("Accel:512 Loops:1024
/// Thr:1 Vec:16"). Its output goes to Output.
double hashcatRun(const std::string &Hashcat, int Mode, int Device,
                  std::string &Tuning, std::string &Output) {
  // -D 1,2: CPU devices are used even where a GPU is present. hashcat's
  // self-test of the kernel on a known hash runs first (a failure skips
  // the device, and no speed is printed).
  std::string Cmd = quote(Hashcat) + " -b -m " + std::to_string(Mode) + " -d " +
                    std::to_string(Device) +
                    " -D 1,2 --backend-ignore-cuda --backend-ignore-hip 2>&1";
  int Rc = runCommand(Cmd, Output);
  std::istringstream In(Output);
  std::string Problem;
  // "Speed.#2.........:   48.3 MH/s (44.38ms) @ Accel:512 Loops:1024 Thr:1
  // Vec:16"
  const std::string Tag = "Speed.#" + std::to_string(Device) + ".";
  for (std::string L; std::getline(In, L);) {
    size_t Colon = L.find(':');
    if (L.rfind(Tag, 0) == 0 && Colon != std::string::npos) {
      std::istringstream F(L.substr(Colon + 1));
      double V = 0;
      std::string Unit;
      F >> V >> Unit;
      double Scale = Unit == "H/s"    ? 1
                     : Unit == "kH/s" ? 1e3
                     : Unit == "MH/s" ? 1e6
                     : Unit == "GH/s" ? 1e9
                     : Unit == "TH/s" ? 1e12
                                      : 0;
      size_t At = L.find("@ ");
      Tuning = At == std::string::npos ? "" : L.substr(At + 2);
      if (Scale > 0)
        return V * Scale;
    }
    if (Problem.empty() && (L.find("ATTENTION") != std::string::npos ||
                            L.find("self-test") != std::string::npos ||
                            L.find("rror") != std::string::npos))
      Problem = L;
  }
  throw ClError("hashcat -b -m " + std::to_string(Mode) + " -d " +
                std::to_string(Device) + " (status " + std::to_string(Rc) +
                ") printed no speed" + (Problem.empty() ? "" : ": " + Problem));
}

/// The hashcat row of Mode: Reps runs per platform, A then B. No warm-up
/// run: hashcat's figure leaves out its start (building its kernels, or
/// loading them from its cache), whose wall time the notes give.
Result runHashcat(const std::string &Hashcat, const std::string &Name, int Mode,
                  const std::string &Algorithm,
                  const std::vector<Platform *> &Ps, int Reps, int ClcpuIndex,
                  unsigned TimeoutS) {
  Result R;
  R.Name = Name, R.Unit = "MH/s";
  R.What = "hashcat -b -m " + std::to_string(Mode) + " (" + Algorithm +
           "), optimized kernels, hashcat's figure";
  R.O[2].Status = "skip", R.O[2].Why = "no host library";
  alarm(TimeoutS);
  int Dev[2] = {0, 0};
  std::string Tuning[2];
  std::vector<double> Wall[2];
  if (Ps.size() < 2)
    R.O[1].Status = "skip";
  for (size_t I = 0; I < Ps.size(); ++I) {
    std::string Why;
    Dev[I] = hashcatDevice(Hashcat, Ps[I]->Query, Why);
    if (!Dev[I])
      R.O[I].Status = "n/a", R.O[I].Why = Why;
  }
  for (int Rep = 0; Rep < Reps; ++Rep)
    for (size_t I = 0; I < Ps.size(); ++I) {
      if (!Dev[I])
        continue;
      setWatchdogLabel(Name + " on " + Ps[I]->Name);
      std::string Output;
      double Start = nowSec();
      try {
        R.O[I].Values.push_back(
            hashcatRun(Hashcat, Mode, Dev[I], Tuning[I], Output) * 1e-6);
        Wall[I].push_back(nowSec() - Start);
      } catch (const std::exception &E) {
        R.O[I].Status = "FAIL", R.O[I].Why = E.what();
        R.O[I].Values.clear();
        Dev[I] = 0;
      }
      if (Rep > 0 || int(I) != ClcpuIndex)
        continue;
      // The kernels of this hash mode (m01400_*), not hashcat's helpers.
      char Prefix[16];
      std::snprintf(Prefix, sizeof Prefix, "m%05d_", Mode);
      const std::string Tag = "clcpu: kernel ";
      std::istringstream In(Output);
      for (std::string L; std::getline(In, L);) {
        size_t Sep = L.find(": ", Tag.size());
        if (L.rfind(Tag + Prefix, 0) != 0 || Sep == std::string::npos)
          continue;
        std::string K = L.substr(Tag.size(), Sep - Tag.size());
        if (!R.Paths.count(K))
          R.Launches.push_back({K, "", 0});
        R.Paths[K] = L.substr(Sep + 2);
      }
    }
  for (size_t I = 0; I < Ps.size(); ++I)
    if (!Wall[I].empty())
      R.O[I].Note =
          Tuning[I] + ", " + fmt(median(Wall[I])) + " s per hashcat run";
  alarm(0);
  return R;
}

/// A program on PATH (or a path), or "".
std::string findProgram(const std::string &Name) {
  if (Name.find('/') != std::string::npos)
    return access(Name.c_str(), X_OK) == 0 ? Name : "";
  const char *Path = std::getenv("PATH");
  for (const std::string &Dir : split(Path ? Path : "/usr/bin:/bin", ':')) {
    std::string P = (Dir.empty() ? "." : Dir) + "/" + Name;
    if (access(P.c_str(), X_OK) == 0)
      return P;
  }
  return "";
}

//===----------------------------------------------------------------------===//
// Table
//===----------------------------------------------------------------------===//

std::string cell(const Outcome &O) {
  if (O.Status == "skip")
    return "";
  return O.Status == "ok" ? fmt(median(O.Values)) : O.Status;
}

std::string ratio(const Outcome &X, const Outcome &Y) {
  if (X.Status != "ok" || Y.Status != "ok" || X.Values.empty() ||
      Y.Values.empty())
    return "";
  return fmt(median(X.Values) / median(Y.Values)) + "x";
}

/// The table's paths cell: each launched kernel and its short path.
std::string pathsCell(const Result &R) {
  std::string Cell;
  // Kernels with the same path share one entry.
  std::vector<std::pair<std::string, std::string>> Groups; // path, kernels
  for (const Launch &L : R.Launches) {
    auto It = R.Paths.find(L.Kernel);
    std::string P = It == R.Paths.end() ? "?" : shortPath(It->second);
    auto G = std::find_if(Groups.begin(), Groups.end(),
                          [&](const auto &X) { return X.first == P; });
    if (G == Groups.end())
      Groups.push_back({P, L.Kernel});
    else
      G->second += "," + L.Kernel;
  }
  for (const auto &[P, Ks] : Groups)
    Cell += (Cell.empty() ? "" : "; ") + Ks + ": " + P;
  return Cell;
}

void usage() {
  std::fprintf(
      stderr,
      "usage: clcpu_real_bench [--a NAME] [--b NAME|none] [--reps N] "
      "[--smoke]\n"
      "                        [--only LIST] [--list] [--python PATH] "
      "[--hashcat PATH]\n"
      "                        [--clblast-params FILE]...\n"
      "  NAME: a substring of the platform's name (defaults \"clcpu\" and "
      "\"Portable Computing Language\")\n"
      "  --smoke: small sizes and no hashcat rows (verification only)\n"
      "  --clblast-params FILE: a clblast_tuner_* JSON result; adds *_tuned\n"
      "    rows running the CLBlast rows it tunes on A with its parameters\n");
}

struct RowName {
  const char *Name, *Unit, *What;
};
// The rows run outside this process, for --list and --only.
const RowName OtherRows[] = {
    {"scan_16M", "GB/s",
     "pyopencl GenericScanKernel, exclusive scan of 16M ints (8 bytes each)"},
    {"radix_sort_4M", "Mkeys/s",
     "pyopencl.algorithm.RadixSort of 4M uint32 keys, 32 key bits"},
    {"hashcat_md5", "MH/s", "hashcat -b -m 0 (MD5)"},
    {"hashcat_sha256", "MH/s", "hashcat -b -m 1400 (SHA2-256)"},
};

} // namespace

int main(int Argc, char **Argv) {
  std::string QA = "clcpu", QB = "Portable Computing Language", Only;
  std::string Python = "/usr/bin/python3", HashcatName = "hashcat";
  std::vector<std::string> ParamFiles;
  int Reps = 3;
  bool Smoke = false, List = false;
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
    else if (Arg == "--smoke")
      Smoke = true;
    else if (Arg == "--only")
      Only = Next();
    else if (Arg == "--list")
      List = true;
    else if (Arg == "--python")
      Python = Next();
    else if (Arg == "--hashcat")
      HashcatName = Next();
    else if (Arg == "--clblast-params")
      ParamFiles.push_back(Next());
    else {
      usage();
      return 2;
    }
  }
  if (Reps < 1) {
    usage();
    return 2;
  }
  // One parameter set per kernel and precision: of several files for one
  // (the xgemm tuner's four stages), the one whose best time is lowest.
  std::vector<TunedKernel> Params;
  for (const std::string &File : ParamFiles) {
    TunedKernel T;
    try {
      T = readTunerJson(File);
    } catch (const std::exception &E) {
      std::fprintf(stderr, "clcpu_real_bench: --clblast-params %s\n", E.what());
      return 2;
    }
    auto Same = std::find_if(Params.begin(), Params.end(), [&](auto &O) {
      return O.Kernel == T.Kernel && O.Precision == T.Precision;
    });
    if (Same == Params.end())
      Params.push_back(T);
    else if (T.BestMs < Same->BestMs)
      *Same = T;
  }
  std::vector<std::string> TunedNames;
  for (const TunedKernel &T : Params)
    if (T.Precision == CLBlastPrecisionSingle)
      TunedNames.push_back(T.Kernel);
  std::vector<Spec> All = specs(Smoke, TunedNames);
  if (List) {
    for (const Spec &S : All)
      std::printf("%-16s %-8s %s\n", S.Name.c_str(), S.Unit.c_str(),
                  S.What.c_str());
    for (const RowName &R : OtherRows)
      std::printf("%-16s %-8s %s\n", R.Name, R.Unit, R.What);
    return 0;
  }
  std::vector<std::string> Want = split(Only, ',');
  Want.erase(std::remove(Want.begin(), Want.end(), ""), Want.end());
  for (const std::string &W : Want)
    if (std::none_of(All.begin(), All.end(),
                     [&](const Spec &S) { return S.Name == W; }) &&
        std::none_of(std::begin(OtherRows), std::end(OtherRows),
                     [&](const RowName &R) { return W == R.Name; })) {
      std::fprintf(stderr, "clcpu_real_bench: unknown row \"%s\"\n", W.c_str());
      return 2;
    }
  auto Wanted = [&](const std::string &Name) {
    return Want.empty() ||
           std::find(Want.begin(), Want.end(), Name) != Want.end();
  };

  // Before the first OpenCL call: clcpu reads its configuration once. The
  // child processes inherit it.
  setenv("CLCPU_LOG_KERNEL_PATHS", "1", 1);
  Platform PA, PB;
  PA.Label = "A", PA.Query = QA;
  PB.Label = "B", PB.Query = QB;
  std::vector<Platform *> Ps{&PA};
  if (QB != "none")
    Ps.push_back(&PB);
  for (Platform *P : Ps)
    if (!openPlatform(*P, "clcpu_real_bench"))
      return 2;
  installWatchdog("clcpu_real_bench");
  int ClcpuIndex = -1;
  for (size_t I = 0; I < Ps.size() && ClcpuIndex < 0; ++I)
    if (Ps[I]->Name.find("clcpu") != std::string::npos)
      ClcpuIndex = int(I);

  int Threads = usableCpus();
  openblas_set_num_threads(Threads);
  fftwf_init_threads();
  fftwf_plan_with_nthreads(Threads);
  if (Smoke)
    FftwFlags = FFTW_ESTIMATE; // the smoke test checks results only
  clfftSetupData Setup;
  clfft(clfftInitSetupData(&Setup), "clfftInitSetupData");
  clfft(clfftSetup(&Setup), "clfftSetup");
  cl_uint FftMajor = 0, FftMinor = 0, FftPatch = 0;
  clfftGetVersion(&FftMajor, &FftMinor, &FftPatch);

  bool Two = Ps.size() == 2;
  std::printf("clcpu_real_bench: %s, %d usable hardware threads; %d "
              "repetitions (A, %shost interleaved), medians after a warm-up "
              "call%s\n",
              cpuModel().c_str(), Threads, Reps, Two ? "B, " : "",
              Smoke ? "; --smoke sizes" : "");
  for (Platform *P : Ps)
    std::printf("  %s = %s (%s; %s)\n", P->Label.c_str(), P->Name.c_str(),
                P->Version.c_str(), P->Device.c_str());
  std::string Blas = openblas_get_config();
  std::printf("  host = %s (%d threads); FFTW %s (%d threads, %s plans); "
              "numpy (1 thread); clFFT %u.%u.%u, CLBlast (default "
              "parameters%s)\n",
              Blas.c_str(), Threads, fftwf_version, Threads,
              Smoke ? "FFTW_ESTIMATE" : "FFTW_MEASURE", FftMajor, FftMinor,
              FftPatch,
              Params.empty() ? "" : "; *_tuned rows: --clblast-params");
  std::printf("  A/B = A's figure / B's, A/host = A's / the host library's "
              "(> 1: A is faster); a sample repeats a call for at least "
              "50 ms\n");
  std::printf("  paths: the kernels each row launched on %s and the path "
              "clcpu took (CLCPU_LOG_KERNEL_PATHS), full lines below\n\n",
              ClcpuIndex < 0 ? "clcpu (not in this run)"
                             : Ps[ClcpuIndex]->Label.c_str());
  std::printf("%-16s %-8s %9s %9s %9s %8s %8s  %s\n", "row", "unit", "A",
              Two ? "B" : "", "host", Two ? "A/B" : "", "A/host", "paths");
  std::fflush(stdout);

  std::vector<Result> Results;
  bool Bad = false;
  auto Print = [&](const Result &R) {
    if (R.Skipped) {
      std::printf("%-16s skipped: %s\n", R.Name.c_str(), R.SkipWhy.c_str());
    } else {
      std::printf("%-16s %-8s %9s %9s %9s %8s %8s  %s\n", R.Name.c_str(),
                  R.Unit.c_str(), cell(R.O[0]).c_str(), cell(R.O[1]).c_str(),
                  cell(R.O[2]).c_str(), ratio(R.O[0], R.O[1]).c_str(),
                  ratio(R.O[0], R.O[2]).c_str(), pathsCell(R).c_str());
      static const char *const Labels[] = {"A", "B", "host"};
      for (int I = 0; I < 3; ++I) {
        const Outcome &O = R.O[I];
        if (O.Status == "FAIL" || (O.Status == "n/a" && I == 0))
          Bad = true;
        if (O.Status != "ok" && O.Status != "skip")
          std::printf("%-16s   %s %s: %s\n", "", Labels[I], O.Status.c_str(),
                      O.Why.c_str());
      }
    }
    std::fflush(stdout);
    Results.push_back(R);
  };
  // Generous: the largest row takes some 10 s a call on a slow platform.
  unsigned TimeoutS = unsigned(300 + 60 * Reps);
  bool Overridden = false, OverrideFailed = false;
  for (const Spec &S : All) {
    if (!Wanted(S.Name))
      continue;
    if (!S.Tuned) {
      Print(runSpec(S, Ps, Reps, ClcpuIndex, TimeoutS));
      continue;
    }
    // The tuned rows run on A alone: the parameters were tuned for one
    // device, and CLBlast keeps them for every later call on it.
    if (!Overridden) {
      Overridden = true;
      for (const TunedKernel &T : Params) {
        std::vector<const char *> Names;
        for (const std::string &N : T.Names)
          Names.push_back(N.c_str());
        CLBlastStatusCode St = CLBlastOverrideParameters(
            PA.Dev, T.Kernel.c_str(), T.Precision, Names.size(), Names.data(),
            T.Values.data());
        std::printf(
            "%-16s %s (precision %d) on A from %s: %s%s\n", "clblast-params",
            T.Kernel.c_str(), int(T.Precision), T.File.c_str(), T.Best.c_str(),
            St == CLBlastSuccess
                ? ""
                : (" FAILED, CLBlast status " + std::to_string(St)).c_str());
        OverrideFailed |= St != CLBlastSuccess;
      }
      Bad |= OverrideFailed;
    }
    if (OverrideFailed) {
      Result R;
      R.Name = S.Name, R.Skipped = true;
      R.SkipWhy = "CLBlastOverrideParameters failed";
      Print(R);
      continue;
    }
    Print(runSpec(S, {&PA}, Reps, ClcpuIndex == 0 ? 0 : -1, TimeoutS));
  }

  std::vector<std::string> PyRows;
  for (const char *N : {"scan_16M", "radix_sort_4M"})
    if (Wanted(N))
      PyRows.push_back(N);
  if (!PyRows.empty()) {
    alarm(TimeoutS * 2);
    setWatchdogLabel("bench/real_pyopencl.py");
    for (const Result &R : runPython(
             Python, CLCPU_REAL_BENCH_PYOPENCL, QA, Two ? QB : "none", Reps,
             Smoke, Want.empty() ? std::vector<std::string>{} : PyRows))
      Print(R);
    alarm(0);
  }

  if (!Smoke) {
    std::string Hashcat = findProgram(HashcatName);
    struct {
      const char *Name;
      int Mode;
      const char *Algorithm;
    } const Hash[] = {{"hashcat_md5", 0, "MD5"},
                      {"hashcat_sha256", 1400, "SHA2-256"}};
    for (const auto &H : Hash) {
      if (!Wanted(H.Name))
        continue;
      if (Hashcat.empty()) {
        Result R;
        R.Name = H.Name, R.Skipped = true;
        R.SkipWhy = "no " + HashcatName + " (Debian: hashcat)";
        Print(R);
        continue;
      }
      Print(runHashcat(Hashcat, H.Name, H.Mode, H.Algorithm, Ps, Reps,
                       ClcpuIndex, TimeoutS * 2));
    }
  }

  // The full path lines, and what each row measured.
  std::printf("\nrows:\n");
  for (const Result &R : Results) {
    if (R.Skipped)
      continue;
    std::string Notes;
    for (size_t I = 0; I < Ps.size(); ++I)
      if (!R.O[I].Note.empty())
        Notes += "; " + Ps[I]->Label + ": " + R.O[I].Note;
    std::printf("  %-16s %s%s%s\n", R.Name.c_str(), R.What.c_str(),
                R.HostWhat.empty() ? "" : ("; host: " + R.HostWhat).c_str(),
                Notes.c_str());
  }
  if (ClcpuIndex >= 0) {
    std::printf("\nkernel paths on %s (%s):\n", Ps[ClcpuIndex]->Label.c_str(),
                Ps[ClcpuIndex]->Name.c_str());
    for (const Result &R : Results)
      for (const Launch &L : R.Launches) {
        auto It = R.Paths.find(L.Kernel);
        std::string Sizes =
            L.Sizes.empty()
                ? ""
                : " [" + L.Sizes + ", " + std::to_string(L.Count) +
                      (L.Count == 1 ? " launch" : " launches") + " per call]";
        std::printf(
            "  %s: %s%s: %s\n", R.Name.c_str(), L.Kernel.c_str(), Sizes.c_str(),
            It == R.Paths.end() ? "(no path line)" : It->second.c_str());
      }
  }
  clfftTeardown();
  return Bad ? 1 : 0;
}

// End-to-end: the on-disk kernel cache through the ICD loader (OpenCL 3.0
// API spec, 5.8.3 "Building Program Executables"). Hidden from the plain e2e
// run: ctest runs "[.cache]" with CLCPU_CACHE_DIR set to a fresh directory,
// "[.cache-off]" with CLCPU_CACHE=0 as well, and "[.cache-bound]" with a
// directory of its own and a tiny CLCPU_CACHE_MAX_MB.

#include "Common.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <ctime>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <sys/stat.h>
#include <vector>

namespace fs = std::filesystem;

namespace {
std::vector<fs::path> entries(const std::string &Dir) {
  std::vector<fs::path> Out;
  std::error_code EC;
  for (const auto &E : fs::directory_iterator(Dir, EC))
    if (E.path().filename() != "usage") // the usage journal, not an entry
      Out.push_back(E.path());
  return Out;
}

/// A source no earlier run has cached: the current time in a comment.
std::string uniqueSource() {
  auto Now = std::chrono::system_clock::now().time_since_epoch().count();
  return "// run " + std::to_string(Now) +
         "\nkernel void add(global int *p, int v) {\n"
         "  p[get_global_id(0)] += v;\n}\n";
}

struct Built {
  cl_program P = nullptr;
  cl_int Err = -1;
  std::string Log;
};

Built build(cl_context C, cl_device_id D, const std::string &Src) {
  Built B;
  const char *S = Src.c_str();
  B.P = clCreateProgramWithSource(C, 1, &S, nullptr, &B.Err);
  REQUIRE(B.Err == CL_SUCCESS);
  B.Err = clBuildProgram(B.P, 0, nullptr, "-DUNUSED", nullptr, nullptr);
  size_t N = 0;
  clGetProgramBuildInfo(B.P, D, CL_PROGRAM_BUILD_LOG, 0, nullptr, &N);
  B.Log.assign(N, '\0');
  clGetProgramBuildInfo(B.P, D, CL_PROGRAM_BUILD_LOG, N, B.Log.data(), nullptr);
  return B;
}

/// Runs "add" with v = 5 over {0..7}.
std::vector<int> run(cl_context C, cl_device_id D, cl_program P) {
  cl_int Err = -1;
  cl_kernel K = clCreateKernel(P, "add", &Err);
  REQUIRE(Err == CL_SUCCESS);
  std::vector<int> V = {0, 1, 2, 3, 4, 5, 6, 7};
  cl_mem M =
      clCreateBuffer(C, CL_MEM_COPY_HOST_PTR, V.size() * 4, V.data(), nullptr);
  int Five = 5;
  clSetKernelArg(K, 0, sizeof M, &M);
  clSetKernelArg(K, 1, sizeof Five, &Five);
  cl_command_queue Q = clCreateCommandQueue(C, D, 0, nullptr);
  size_t G = V.size();
  REQUIRE(clEnqueueNDRangeKernel(Q, K, 1, nullptr, &G, nullptr, 0, nullptr,
                                 nullptr) == CL_SUCCESS);
  clEnqueueReadBuffer(Q, M, CL_TRUE, 0, V.size() * 4, V.data(), 0, nullptr,
                      nullptr);
  clReleaseCommandQueue(Q);
  clReleaseMemObject(M);
  clReleaseKernel(K);
  return V;
}

struct Ctx {
  cl_device_id D = clcpuDevice();
  cl_context C = clCreateContext(nullptr, 1, &D, nullptr, nullptr, nullptr);
  ~Ctx() { clReleaseContext(C); }
};
} // namespace

TEST_CASE("5.8.3: builds are cached under CLCPU_CACHE_DIR; a corrupt entry "
          "is rebuilt",
          "[.cache]") {
  const char *Dir = std::getenv("CLCPU_CACHE_DIR");
  REQUIRE(Dir);
  Ctx X;
  std::string Src = uniqueSource();
  size_t Before = entries(Dir).size();
  Built A = build(X.C, X.D, Src);
  REQUIRE(A.Err == CL_SUCCESS);
  std::vector<fs::path> After = entries(Dir);
  REQUIRE(After.size() == Before + 1);
  const std::vector<int> Expected = {5, 6, 7, 8, 9, 10, 11, 12};
  CHECK(run(X.C, X.D, A.P) == Expected);

  // A second program with the same source and options: served from the
  // cache (no new entry), same results.
  Built B = build(X.C, X.D, Src);
  REQUIRE(B.Err == CL_SUCCESS);
  CHECK(entries(Dir).size() == After.size());
  CHECK(B.Log.find("cache") == std::string::npos);
  CHECK(run(X.C, X.D, B.P) == Expected);

  // Damage every entry: detected (the log says so), rebuilt, still right.
  for (const fs::path &E : entries(Dir)) {
    std::fstream F(E, std::ios::in | std::ios::out | std::ios::binary);
    F.seekp(64);
    F.put('\x5a');
    F.put('\xa5');
  }
  Built C = build(X.C, X.D, Src);
  REQUIRE(C.Err == CL_SUCCESS);
  CHECK(C.Log.find("corrupt") != std::string::npos);
  CHECK(run(X.C, X.D, C.P) == Expected);
  // The rebuilt entry is good again.
  Built D = build(X.C, X.D, Src);
  REQUIRE(D.Err == CL_SUCCESS);
  CHECK(D.Log.find("cache") == std::string::npos);
  for (cl_program P : {A.P, B.P, C.P, D.P})
    clReleaseProgram(P);
  // Leave the directory as small as it was.
  std::error_code EC;
  for (const fs::path &E : entries(Dir))
    fs::remove(E, EC);
}

TEST_CASE("5.8.2, 5.8.3: an executable binary's code is cached: loading "
          "it again (hashcat and pyopencl keep their programs as binaries) "
          "generates no code; a corrupt entry is generated again",
          "[.cache]") {
  const char *Dir = std::getenv("CLCPU_CACHE_DIR");
  REQUIRE(Dir);
  Ctx X;
  Built A = build(X.C, X.D, uniqueSource());
  REQUIRE(A.Err == CL_SUCCESS);
  size_t Size = 0;
  REQUIRE(clGetProgramInfo(A.P, CL_PROGRAM_BINARY_SIZES, sizeof Size, &Size,
                           nullptr) == CL_SUCCESS);
  std::vector<unsigned char> Binary(Size);
  unsigned char *Ptr = Binary.data();
  REQUIRE(clGetProgramInfo(A.P, CL_PROGRAM_BINARIES, sizeof Ptr, &Ptr,
                           nullptr) == CL_SUCCESS);
  auto Load = [&] {
    const unsigned char *B = Binary.data();
    cl_int Status = -1, Err = -1;
    cl_program P =
        clCreateProgramWithBinary(X.C, 1, &X.D, &Size, &B, &Status, &Err);
    REQUIRE(Err == CL_SUCCESS);
    REQUIRE(clBuildProgram(P, 0, nullptr, nullptr, nullptr, nullptr) ==
            CL_SUCCESS);
    return P;
  };
  const std::vector<int> Expected = {5, 6, 7, 8, 9, 10, 11, 12};
  size_t Before = entries(Dir).size();
  // The first load generates the code and stores it: one more entry.
  cl_program P1 = Load();
  std::vector<fs::path> After = entries(Dir);
  CHECK(After.size() == Before + 1);
  CHECK(run(X.C, X.D, P1) == Expected);
  // The second finds it: no new entry, same results.
  cl_program P2 = Load();
  CHECK(entries(Dir).size() == After.size());
  CHECK(run(X.C, X.D, P2) == Expected);
  // Damaged entries: generated again, still right.
  for (const fs::path &E : entries(Dir)) {
    std::fstream F(E, std::ios::in | std::ios::out | std::ios::binary);
    F.seekp(64);
    F.put('\x5a');
    F.put('\xa5');
  }
  cl_program P3 = Load();
  CHECK(run(X.C, X.D, P3) == Expected);
  for (cl_program P : {A.P, P1, P2, P3})
    clReleaseProgram(P);
  std::error_code EC;
  for (const fs::path &E : entries(Dir))
    fs::remove(E, EC);
}

TEST_CASE("5.8.3: CLCPU_CACHE=0 turns the kernel cache off", "[.cache-off]") {
  const char *Dir = std::getenv("CLCPU_CACHE_DIR");
  REQUIRE(Dir);
  Ctx X;
  size_t Before = entries(Dir).size();
  Built A = build(X.C, X.D, uniqueSource());
  REQUIRE(A.Err == CL_SUCCESS);
  CHECK(run(X.C, X.D, A.P) == std::vector<int>({5, 6, 7, 8, 9, 10, 11, 12}));
  CHECK(entries(Dir).size() == Before);
  clReleaseProgram(A.P);
}

namespace {
/// A file the cache counts and may evict: 32 hex digits + ".clcpubin".
bool isEntry(const fs::path &P) {
  std::string N = P.filename().string();
  return N.size() == 41 && N.substr(32) == ".clcpubin" &&
         N.find_first_not_of("0123456789abcdef") == 32;
}

std::set<std::string> entryNames(const std::string &Dir) {
  std::set<std::string> Out;
  for (const fs::path &P : entries(Dir))
    if (isEntry(P))
      Out.insert(P.filename().string());
  return Out;
}

uint64_t entryBytes(const std::string &Dir) {
  uint64_t N = 0;
  std::error_code EC;
  for (const std::string &E : entryNames(Dir))
    N += fs::file_size(Dir + "/" + E, EC) * !EC;
  return N;
}

/// Sets the modification time of \p Path to \p Seconds ago.
void age(const std::string &Path, long Seconds) {
  timespec T[2];
  T[0].tv_sec = T[1].tv_sec = std::time(nullptr) - Seconds;
  T[0].tv_nsec = T[1].tv_nsec = 0;
  REQUIRE(utimensat(AT_FDCWD, Path.c_str(), T, 0) == 0);
}

struct stat statOf(const std::string &Path) {
  struct stat St {};
  REQUIRE(stat(Path.c_str(), &St) == 0);
  return St;
}

/// A program whose entry is large (a 16384-entry constant table, \p Seed's
/// pseudo-random numbers): "add" adds v + T[i]. Its table in \p Table.
std::string tableSource(unsigned Seed, std::vector<int> &Table) {
  auto Now = std::chrono::system_clock::now().time_since_epoch().count();
  std::string S = "// run " + std::to_string(Now) + " seed " +
                  std::to_string(Seed) + "\nconstant int T[16384] = {";
  Table.clear();
  uint32_t X = Seed * 2654435761u + 1;
  for (int I = 0; I < 16384; ++I) {
    X = X * 1103515245u + 12345u;
    Table.push_back(static_cast<int>(X & 0x3fffffff));
    S += std::to_string(Table.back()) + ",";
  }
  return S + "};\nkernel void add(global int *p, int v) {\n"
             "  p[get_global_id(0)] += v + T[get_global_id(0)];\n}\n";
}

std::vector<int> expected(const std::vector<int> &Table) {
  std::vector<int> E;
  for (int I = 0; I < 8; ++I)
    E.push_back(I + 5 + Table[I]);
  return E;
}
} // namespace

TEST_CASE("5.8.3: the kernel cache stays within CLCPU_CACHE_MAX_MB, least "
          "recently used entries first",
          "[.cache-bound]") {
  const char *DirVar = std::getenv("CLCPU_CACHE_DIR");
  const char *MaxVar = std::getenv("CLCPU_CACHE_MAX_MB");
  REQUIRE(DirVar);
  REQUIRE(MaxVar);
  const std::string Dir = DirVar;
  const uint64_t Bound = std::strtoull(MaxVar, nullptr, 10) << 20;
  REQUIRE(Bound > 0);
  std::error_code EC;
  fs::create_directories(Dir, EC);
  // Start without entries (an interrupted earlier run may have left some).
  // The entries below are put there by hand, which the usage journal does
  // not see: without a journal the first store lists the directory.
  for (const std::string &E : entryNames(Dir))
    fs::remove(Dir + "/" + E, EC);
  fs::remove(Dir + "/usage", EC);
  // A file that is not an entry: never counted, never removed.
  const std::string Keep = Dir + "/keep.txt";
  std::ofstream(Keep) << std::string(Bound, 'k');
  // Two old junk entries filling the bound: the oldest goes first.
  const std::string Old1 = "00000000000000000000000000000001.clcpubin";
  const std::string Old2 = "00000000000000000000000000000002.clcpubin";
  for (const std::string &N : {Old1, Old2})
    std::ofstream(Dir + "/" + N) << std::string(Bound / 2, 'j');
  age(Dir + "/" + Old1, 2 * 86400);
  age(Dir + "/" + Old2, 86400);

  Ctx X;
  struct Prog {
    std::string Src, Entry;
    std::vector<int> Table;
  };
  std::vector<Prog> Progs;
  // Builds a new program: a miss, whose one new entry stays while the
  // entries stay within the bound.
  auto buildNew = [&] {
    Prog P;
    P.Src = tableSource(static_cast<unsigned>(Progs.size()) + 1, P.Table);
    std::set<std::string> Before = entryNames(Dir);
    Built B = build(X.C, X.D, P.Src);
    REQUIRE(B.Err == CL_SUCCESS);
    CHECK(run(X.C, X.D, B.P) == expected(P.Table));
    clReleaseProgram(B.P);
    std::set<std::string> After = entryNames(Dir);
    std::vector<std::string> New;
    for (const std::string &E : After)
      if (!Before.count(E))
        New.push_back(E);
    REQUIRE(New.size() == 1);
    P.Entry = New[0];
    CHECK(entryBytes(Dir) <= Bound);
    Progs.push_back(P);
    return Before;
  };

  buildNew();
  CHECK_FALSE(fs::exists(Dir + "/" + Old1));
  CHECK(fs::file_size(Keep, EC) == Bound);
  for (int I = 0; I < 9; ++I)
    buildNew();
  CHECK_FALSE(fs::exists(Dir + "/" + Old2));
  CHECK(fs::exists(Keep));
  // The premise: entries are small enough that several fit the bound.
  std::set<std::string> Present = entryNames(Dir);
  REQUIRE(Present.size() >= 3);

  // Make the newest program the oldest entry, then hit it: the hit reuses
  // the file (same inode, no store) and makes it the most recently used.
  const Prog Hit = Progs.back();
  REQUIRE(Present.count(Hit.Entry));
  for (const std::string &E : Present)
    age(Dir + "/" + E, E == Hit.Entry ? 3 * 3600 : 2 * 3600);
  const struct stat Aged = statOf(Dir + "/" + Hit.Entry);
  {
    Built B = build(X.C, X.D, Hit.Src);
    REQUIRE(B.Err == CL_SUCCESS);
    CHECK(run(X.C, X.D, B.P) == expected(Hit.Table));
    clReleaseProgram(B.P);
  }
  const struct stat Touched = statOf(Dir + "/" + Hit.Entry);
  CHECK(Touched.st_ino == Aged.st_ino);
  CHECK(Touched.st_mtime > Aged.st_mtime);
  CHECK(entryNames(Dir) == Present);

  // New programs until one evicts: only the entries not used since go.
  bool Evicted = false;
  for (int I = 0; I < 10 && !Evicted; ++I) {
    std::set<std::string> Before = buildNew();
    for (const std::string &E : Before) {
      if (fs::exists(Dir + "/" + E))
        continue;
      Evicted = true;
      CHECK(E != Hit.Entry);
      CHECK(Present.count(E) == 1);
    }
  }
  REQUIRE(Evicted);
  CHECK(fs::exists(Dir + "/" + Hit.Entry));
  // ... and the program used last is still a hit.
  {
    Built B = build(X.C, X.D, Hit.Src);
    REQUIRE(B.Err == CL_SUCCESS);
    CHECK(run(X.C, X.D, B.P) == expected(Hit.Table));
    clReleaseProgram(B.P);
  }
  CHECK(statOf(Dir + "/" + Hit.Entry).st_ino == Aged.st_ino);
  CHECK(entryBytes(Dir) <= Bound);
  CHECK(fs::exists(Keep));

  for (const std::string &E : entryNames(Dir))
    fs::remove(Dir + "/" + E, EC);
  fs::remove(Dir + "/usage", EC);
  fs::remove(Keep, EC);
}

TEST_CASE("5.8.3: a cache entry that is a directory or a FIFO is ignored, "
          "never fatal or blocking",
          "[.cache]") {
  const char *Dir = std::getenv("CLCPU_CACHE_DIR");
  REQUIRE(Dir);
  Ctx X;
  const std::vector<int> Expected = {5, 6, 7, 8, 9, 10, 11, 12};
  for (const char *Shape : {"directory", "fifo"}) {
    CAPTURE(Shape);
    std::string Src = uniqueSource();
    std::vector<fs::path> Before = entries(Dir);
    Built A = build(X.C, X.D, Src);
    REQUIRE(A.Err == CL_SUCCESS);
    clReleaseProgram(A.P);
    fs::path Entry;
    for (const fs::path &E : entries(Dir))
      if (std::find(Before.begin(), Before.end(), E) == Before.end())
        Entry = E;
    REQUIRE(!Entry.empty());
    fs::remove(Entry);
    if (Shape[0] == 'd') {
      // Not empty, so it cannot be replaced by a new entry either.
      fs::create_directory(Entry);
      std::ofstream(Entry / "stray") << "x";
    } else {
      // Opened for reading, a FIFO blocks until a writer comes.
      REQUIRE(mkfifo(Entry.c_str(), 0600) == 0);
    }
    for (int Round = 0; Round < 2; ++Round) {
      Built B = build(X.C, X.D, Src);
      REQUIRE(B.Err == CL_SUCCESS);
      CHECK(run(X.C, X.D, B.P) == Expected);
      clReleaseProgram(B.P);
    }
    std::error_code EC;
    fs::remove_all(Entry, EC);
  }
}

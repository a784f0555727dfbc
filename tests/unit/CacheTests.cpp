// Unit tests of the on-disk kernel cache's size bound (OpenCL 3.0 API spec,
// 5.8.3 "Building Program Executables": clcpu's cache of built programs,
// compiler/Cache.h): least recently used entries go first, the bound holds,
// nothing but entries is removed, and files vanishing meanwhile are fine.

#include "compiler/Binary.h"
#include "compiler/Cache.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdlib>
#include <ctime>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace clcpu::compiler;
namespace fs = std::filesystem;

namespace {
/// A fresh, empty directory under the system's temporary directory.
struct ScratchDir {
  std::string Path;
  ScratchDir() {
    std::string T =
        (fs::temp_directory_path() / "clcpu-cache-bound-XXXXXX").string();
    REQUIRE(mkdtemp(T.data()));
    Path = T;
  }
  ~ScratchDir() {
    std::error_code EC;
    fs::remove_all(Path, EC);
  }
  /// Every name in the directory but the usage journal (checked on its own).
  std::set<std::string> names() const {
    std::set<std::string> Out;
    for (const auto &E : fs::directory_iterator(Path))
      if (E.path().filename() != "usage")
        Out.insert(E.path().filename().string());
    return Out;
  }
  /// The summed size of the files named like entries.
  uint64_t entryBytes() const {
    uint64_t N = 0;
    for (const auto &E : fs::directory_iterator(Path))
      if (cache::isEntryName(E.path().filename().string()) &&
          E.is_regular_file())
        N += E.file_size();
    return N;
  }
};

const std::string Version = "test";

std::string keyOf(int I) {
  return cache::key("source " + std::to_string(I), "", Version);
}

std::string fileOf(int I) { return keyOf(I) + ".clcpubin"; }

/// A valid executable entry whose payload names \p I (all the same size).
std::string entryBytes(int I) {
  std::string Payload = "payload " + std::to_string(1000 + I);
  Payload.resize(4000, 'x');
  return writeBinary({CL_PROGRAM_BINARY_TYPE_EXECUTABLE, "", Payload}, Version);
}

void put(const ScratchDir &D, int I, uint64_t MaxBytes = 0) {
  std::string Note;
  REQUIRE(cache::store(D.Path, keyOf(I), entryBytes(I), Note, MaxBytes));
}

/// Sets the modification time of \p Path to \p Seconds ago.
void age(const std::string &Path, long Seconds) {
  timespec T[2];
  T[0].tv_sec = T[1].tv_sec = std::time(nullptr) - Seconds;
  T[0].tv_nsec = T[1].tv_nsec = 0;
  REQUIRE(utimensat(AT_FDCWD, Path.c_str(), T, 0) == 0);
}

int64_t mtimeNs(const std::string &Path) {
  struct stat St {};
  REQUIRE(stat(Path.c_str(), &St) == 0);
  return static_cast<int64_t>(St.st_mtim.tv_sec) * 1000000000LL +
         St.st_mtim.tv_nsec;
}

void writeFile(const std::string &Path, size_t Size) {
  std::ofstream(Path, std::ios::binary) << std::string(Size, 'z');
}
} // namespace

TEST_CASE("5.8.3: kernel cache entry names are 32 hex digits + .clcpubin",
          "[cache]") {
  CHECK(cache::isEntryName(fileOf(0)));
  CHECK(cache::isEntryName("0123456789abcdef0123456789abcdef.clcpubin"));
  CHECK_FALSE(cache::isEntryName("0123456789abcdef0123456789ABCDEF.clcpubin"));
  CHECK_FALSE(cache::isEntryName("0123456789abcdef0123456789abcde.clcpubin"));
  CHECK_FALSE(cache::isEntryName("0123456789abcdef0123456789abcdef.clcpubi"));
  CHECK_FALSE(
      cache::isEntryName("0123456789abcdef0123456789abcdef.clcpubin.tmp.1"));
  CHECK_FALSE(cache::isEntryName("notes.txt"));
  CHECK_FALSE(cache::isEntryName(""));
}

TEST_CASE("5.8.3: the kernel cache evicts least recently used entries "
          "first; a hit refreshes an entry",
          "[cache]") {
  ScratchDir D;
  for (int I = 0; I < 4; ++I)
    put(D, I);
  const uint64_t Size = fs::file_size(D.Path + "/" + fileOf(0));
  // Written long ago, 0 the oldest.
  for (int I = 0; I < 4; ++I)
    age(D.Path + "/" + fileOf(I), 400 - 100 * I);
  // A hit on 0 makes it the most recently used.
  int64_t Before = mtimeNs(D.Path + "/" + fileOf(0));
  BinaryContents C;
  std::string Note;
  REQUIRE(cache::load(D.Path, keyOf(0), Version, C, Note));
  CHECK(Note.empty());
  CHECK(mtimeNs(D.Path + "/" + fileOf(0)) > Before);
  std::vector<cache::EntryInfo> Listed = cache::scan(D.Path);
  REQUIRE(Listed.size() == 4);
  CHECK(Listed.front().Name == fileOf(1));
  CHECK(Listed.back().Name == fileOf(0));
  // Room for two and a half entries: the two least recently used go.
  uint64_t Left = cache::trim(D.Path, 2 * Size + Size / 2);
  CHECK(Left == 2 * Size);
  CHECK(D.entryBytes() == Left);
  CHECK(D.names() == std::set<std::string>{fileOf(0), fileOf(3)});
  // The survivors still load.
  CHECK(cache::load(D.Path, keyOf(3), Version, C, Note));
  CHECK(C.Payload.rfind("payload 1003", 0) == 0);
  // Unbounded trim removes nothing; a bound of 0 removes everything but Keep.
  CHECK(cache::trim(D.Path, UINT64_MAX) == 2 * Size);
  CHECK(cache::trim(D.Path, 0, keyOf(3)) == Size);
  CHECK(D.names() == std::set<std::string>{fileOf(3)});
}

TEST_CASE("5.8.3: the kernel cache stays within its bound across writes",
          "[cache]") {
  ScratchDir D;
  put(D, 100);
  const uint64_t Size = fs::file_size(D.Path + "/" + fileOf(100));
  const uint64_t Bound = 5 * Size + Size / 2;
  for (int I = 0; I < 20; ++I) {
    put(D, I, Bound);
    // Within the bound after every write, and the entry just written stays.
    CHECK(D.entryBytes() <= Bound);
    CHECK(D.names().count(fileOf(I)) == 1);
  }
  // A trim leaves at most seven eighths of the bound (4.8 entries here), so
  // the directory holds four or five of the newest.
  CHECK(D.names().size() >= 4);
  CHECK(D.names().size() <= 5);
  CHECK(D.names().count(fileOf(19)) == 1);
  CHECK(D.names().count(fileOf(18)) == 1);
  // An entry larger than the bound is kept by its own write (alone).
  std::string Note;
  std::string Big = entryBytes(50) + std::string(Bound, '\0');
  REQUIRE(cache::store(D.Path, keyOf(50), Big, Note, Bound));
  CHECK(D.names() == std::set<std::string>{fileOf(50)});
  CHECK(fs::exists(D.Path + "/usage"));
  // Unlimited (0): nothing is ever removed.
  ScratchDir U;
  for (int I = 0; I < 8; ++I)
    put(U, I, 0);
  CHECK(U.names().size() == 8);
}

TEST_CASE("5.8.3: a store lists the cache directory only when its usage "
          "journal passes the bound (bug: every process's first store "
          "listed it, 130 ms for a full cache)",
          "[cache]") {
  ScratchDir D;
  put(D, 100);
  const uint64_t Size = fs::file_size(D.Path + "/" + fileOf(100));
  const uint64_t Bound = 4 * Size;
  // No journal yet: the store lists (two entries, within the bound) and
  // writes one.
  put(D, 0, Bound);
  REQUIRE(fs::exists(D.Path + "/usage"));
  // An old entry the journal never saw (here: copied in by hand), larger
  // than the bound: a store within the journal's bound does not list, so it
  // stays.
  const std::string Planted = fileOf(7);
  writeFile(D.Path + "/" + Planted, 8 * Size);
  age(D.Path + "/" + Planted, 7200);
  put(D, 1, Bound);
  CHECK(D.names().count(Planted) == 1);
  // At the bound (four entries' bytes journaled), then past it: that store
  // lists, and the oldest (the planted one) goes first.
  put(D, 2, Bound);
  put(D, 3, Bound);
  CHECK(D.names().count(Planted) == 0);
  CHECK(D.entryBytes() <= Bound);
  CHECK(D.names().count(fileOf(3)) == 1);
  // A journal that is not a list of numbers is not trusted: the next store
  // lists.
  writeFile(D.Path + "/" + Planted, 8 * Size);
  age(D.Path + "/" + Planted, 7200);
  std::ofstream(D.Path + "/usage", std::ios::trunc) << "12x\n";
  put(D, 4, Bound);
  CHECK(D.names().count(Planted) == 0);
  CHECK(D.entryBytes() <= Bound);
  // The journal never counts as an entry and is never evicted.
  CHECK(fs::exists(D.Path + "/usage"));
}

TEST_CASE("5.8.3: kernel cache eviction never touches other files", "[cache]") {
  ScratchDir D;
  ScratchDir Outside;
  put(D, 1);
  age(D.Path + "/" + fileOf(1), 7200);
  const std::string Hex = "0123456789abcdef0123456789abcdef";
  const std::vector<std::string> Others = {
      "notes.txt",
      "0123456789abcdef0123456789ABCDEF.clcpubin", // upper case
      "0123.clcpubin",
      Hex + ".clcpubin.bak",
      Hex + ".clcpubin.tmp.12.34.5", // a writer's fresh temporary file
      fileOf(2) + ".tmp.x",          // not store()'s pattern
  };
  for (const std::string &N : Others) {
    writeFile(D.Path + "/" + N, 100000);
    age(D.Path + "/" + N, 7200);
  }
  // ... but that one is being written right now.
  age(D.Path + "/" + Hex + ".clcpubin.tmp.12.34.5", 0);
  // A directory and a symbolic link named like entries.
  fs::create_directory(D.Path + "/" + fileOf(3));
  writeFile(Outside.Path + "/target", 100000);
  fs::create_symlink(Outside.Path + "/target", D.Path + "/" + fileOf(4));
  // A temporary file left two hours ago by a writer that died: removed.
  const std::string Stale = fileOf(5) + ".tmp.999.1.0";
  writeFile(D.Path + "/" + Stale, 1000);
  age(D.Path + "/" + Stale, 7200);

  std::vector<cache::EntryInfo> Listed = cache::scan(D.Path);
  REQUIRE(Listed.size() == 1);
  CHECK(Listed[0].Name == fileOf(1));
  CHECK(cache::trim(D.Path, 0) == 0);
  std::set<std::string> Expected(Others.begin(), Others.end());
  Expected.insert(fileOf(3));
  Expected.insert(fileOf(4));
  CHECK(D.names() == Expected);
  CHECK(fs::exists(Outside.Path + "/target"));
}

TEST_CASE("5.8.3: kernel cache eviction tolerates entries vanishing "
          "meanwhile",
          "[cache]") {
  ScratchDir D;
  for (int I = 0; I < 4; ++I) {
    put(D, I);
    age(D.Path + "/" + fileOf(I), 400 - 100 * I);
  }
  const uint64_t Size = fs::file_size(D.Path + "/" + fileOf(0));
  std::vector<cache::EntryInfo> Listed = cache::scan(D.Path);
  REQUIRE(Listed.size() == 4);
  // Another process removes the two oldest between listing and unlinking.
  fs::remove(D.Path + "/" + fileOf(0));
  fs::remove(D.Path + "/" + fileOf(1));
  CHECK(cache::evict(D.Path, Listed, Size) == Size);
  CHECK(D.names() == std::set<std::string>{fileOf(3)});
  // A vanished entry is a plain miss; a missing directory is empty.
  BinaryContents C;
  std::string Note;
  CHECK_FALSE(cache::load(D.Path, keyOf(0), Version, C, Note));
  CHECK(Note.empty());
  CHECK(cache::scan(D.Path + "/missing").empty());
  CHECK(cache::trim(D.Path + "/missing", 0) == 0);
}

TEST_CASE("5.8.3: concurrent readers, writers and trims never see a partial "
          "entry",
          "[cache]") {
  ScratchDir D;
  put(D, 0);
  const uint64_t Size = fs::file_size(D.Path + "/" + fileOf(0));
  const uint64_t Bound = 3 * Size;
  std::atomic<int> Hits{0}, Bad{0}, StoreFailures{0};
  std::atomic<bool> Stop{false};
  auto Writer = [&](int Seed) {
    for (int N = 0; N < 150; ++N) {
      int I = (N * 7 + Seed) % 8;
      std::string Note;
      if (!cache::store(D.Path, keyOf(I), entryBytes(I), Note, Bound))
        ++StoreFailures;
      if (N % 10 == 0)
        cache::trim(D.Path, Size);
    }
  };
  auto Reader = [&] {
    while (!Stop) {
      for (int I = 0; I < 8; ++I) {
        BinaryContents C;
        std::string Note;
        if (cache::load(D.Path, keyOf(I), Version, C, Note)) {
          ++Hits;
          if (C.Payload.rfind("payload " + std::to_string(1000 + I), 0) != 0)
            ++Bad;
        } else if (!Note.empty()) {
          ++Bad; // a corrupt or partial entry was seen
        }
      }
    }
  };
  std::thread R(Reader);
  std::thread W1(Writer, 0), W2(Writer, 3);
  W1.join();
  W2.join();
  Stop = true;
  R.join();
  CHECK(Bad == 0);
  CHECK(StoreFailures == 0);
  CHECK(D.entryBytes() <= Bound);
  // No temporary file is left behind.
  for (const std::string &N : D.names())
    CHECK(cache::isEntryName(N));
}

TEST_CASE("5.8.3: other processes' stores reach the usage journal: the "
          "store that takes it past the bound trims",
          "[cache]") {
  ScratchDir D;
  put(D, 0);
  const uint64_t Size = fs::file_size(D.Path + "/" + fileOf(0));
  const uint64_t Bound = 80 * Size;
  put(D, 1, Bound); // no journal yet: lists the directory, writes one
  REQUIRE(fs::exists(D.Path + "/usage"));
  // Another process (here: another store, unbounded, sharing only the
  // directory) writes an entry far beyond the bound: journaled, not trimmed.
  std::string Note;
  const std::string Big = entryBytes(99) + std::string(2 * Bound, '\0');
  REQUIRE(cache::store(D.Path, keyOf(99), Big, Note, 0));
  const std::string Foreign = D.Path + "/" + fileOf(99);
  age(Foreign, 3600);
  CHECK(fs::exists(Foreign));
  // The next bounded store sees the journal past the bound, lists, and the
  // least recently used entry (the foreign one) goes.
  put(D, 2, Bound);
  CHECK_FALSE(fs::exists(Foreign));
  CHECK(D.entryBytes() <= Bound);
  CHECK(D.names().count(fileOf(0)) == 1);
  CHECK(D.names().count(fileOf(2)) == 1);
}

//===- compiler/Cache.cpp - on-disk kernel cache --------------------------===//

#include "compiler/Cache.h"
#include "compiler/Compiler.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <dlfcn.h>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <mutex>
#include <sstream>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace clcpu::compiler::cache {

namespace fs = std::filesystem;

std::string directory(const std::string &Configured) {
  if (!Configured.empty())
    return Configured;
  if (const char *X = std::getenv("XDG_CACHE_HOME"); X && *X)
    return std::string(X) + "/clcpu";
  if (const char *H = std::getenv("HOME"); H && *H)
    return std::string(H) + "/.cache/clcpu";
  return "";
}

// The size and modification time of the file holding this code (the driver
// library, or a test binary): a rebuilt driver never reuses entries made by
// an older build of the same version.
const std::string &buildIdentity() {
  static const std::string Id = [] {
    Dl_info Info{};
    struct stat St{};
    if (dladdr(reinterpret_cast<void *>(&buildIdentity), &Info) &&
        Info.dli_fname && stat(Info.dli_fname, &St) == 0)
      return std::to_string(St.st_size) + "@" + std::to_string(St.st_mtime);
    return std::string("unknown");
  }();
  return Id;
}

std::string key(const std::string &Source, const std::string &Options,
                const std::string &DriverVersion) {
  // Every input, each preceded by its length (no ambiguity between fields).
  std::string All;
  for (const std::string *S : {&Source, &Options, &DriverVersion,
                               &hostCpuName(), &hostCpuFeatures()}) {
    All += std::to_string(S->size()) + ":" + *S;
  }
  // The streaming-store threshold is compiled into kernels that store
  // through SVM pointers (compiler/passes/NonTemporalStores.cpp).
  All += llvmVersion() + ":" + std::to_string(BinaryFormatVersion) + ":" +
         buildIdentity() + ":" + std::to_string(streamingStoreMinBytes());
  uint64_t A = fnv1a(All.data(), All.size());
  uint64_t B = fnv1a(All.data(), All.size(), 0x84222325cbf29ce4ull ^ A);
  char Buf[40];
  std::snprintf(Buf, sizeof Buf, "%016llx%016llx",
                static_cast<unsigned long long>(A),
                static_cast<unsigned long long>(B));
  return Buf;
}

namespace {
const char EntrySuffix[] = ".clcpubin";

std::string entryPath(const std::string &Dir, const std::string &Key) {
  return Dir + "/" + Key + EntrySuffix;
}

/// A temporary file of store(): "<entry name>.tmp.<pid>.<thread>.<n>".
bool isTemporaryName(const std::string &Name) {
  size_t Dot = Name.find(".tmp.");
  if (Dot == std::string::npos || !isEntryName(Name.substr(0, Dot)))
    return false;
  std::string Rest = Name.substr(Dot + 5);
  return !Rest.empty() &&
         Rest.find_first_not_of("0123456789.") == std::string::npos;
}

/// Temporary files older than this were left by a writer that died.
constexpr int64_t StaleTemporaryNs = 3600LL * 1000000000LL;

int64_t nowNs() {
  timespec T{};
  clock_gettime(CLOCK_REALTIME, &T);
  return static_cast<int64_t>(T.tv_sec) * 1000000000LL + T.tv_nsec;
}
} // namespace

bool isEntryName(const std::string &Name) {
  const size_t SuffixLen = sizeof(EntrySuffix) - 1;
  if (Name.size() != 32 + SuffixLen ||
      Name.compare(32, SuffixLen, EntrySuffix) != 0)
    return false;
  return std::all_of(Name.begin(), Name.begin() + 32, [](char C) {
    return (C >= '0' && C <= '9') || (C >= 'a' && C <= 'f');
  });
}

std::vector<EntryInfo> scan(const std::string &Dir) {
  std::vector<EntryInfo> Out;
  std::error_code EC;
  fs::directory_iterator It(Dir, EC), End;
  const int64_t Now = nowNs();
  // Another process may add or remove files meanwhile: every failure below
  // (a file gone between the listing and lstat/unlink) just skips the file.
  for (; !EC && It != End; It.increment(EC)) {
    std::string Name = It->path().filename().string();
    bool Entry = isEntryName(Name);
    if (!Entry && !isTemporaryName(Name))
      continue;
    std::string Path = Dir + "/" + Name;
    struct stat St{};
    // lstat: a symbolic link or directory with an entry's name is not ours.
    if (lstat(Path.c_str(), &St) != 0 || !S_ISREG(St.st_mode))
      continue;
    int64_t MTime = static_cast<int64_t>(St.st_mtim.tv_sec) * 1000000000LL +
                    St.st_mtim.tv_nsec;
    if (!Entry) {
      if (Now - MTime > StaleTemporaryNs)
        unlink(Path.c_str());
      continue;
    }
    Out.push_back({Name, static_cast<uint64_t>(St.st_size), MTime});
  }
  std::sort(Out.begin(), Out.end(), [](const EntryInfo &A, const EntryInfo &B) {
    return A.MTimeNs != B.MTimeNs ? A.MTimeNs < B.MTimeNs : A.Name < B.Name;
  });
  return Out;
}

uint64_t evict(const std::string &Dir, const std::vector<EntryInfo> &Listed,
               uint64_t MaxBytes, const std::string &Keep) {
  uint64_t Total = 0;
  for (const EntryInfo &E : Listed)
    Total += E.Size;
  const std::string KeepName = Keep.empty() ? "" : Keep + EntrySuffix;
  for (const EntryInfo &E : Listed) {
    if (Total <= MaxBytes)
      break;
    if (E.Name == KeepName)
      continue;
    // A reader that has the file open still reads it whole; one that opens
    // it later misses and rebuilds. Gone already: another process won.
    if (unlink((Dir + "/" + E.Name).c_str()) == 0 || errno == ENOENT)
      Total -= E.Size;
  }
  return Total;
}

uint64_t trim(const std::string &Dir, uint64_t MaxBytes,
              const std::string &Keep) {
  return evict(Dir, scan(Dir), MaxBytes, Keep);
}

namespace {
/// What readFile found at a path.
enum class FileRead { Missing, NotRegular, Ok };

/// Reads the regular file at \p Path whole into \p Out. Anything else with
/// that name (a directory, a FIFO, a device) is not the cache's and is
/// reported as NotRegular without being read. Opened with O_NONBLOCK: a
/// FIFO opened for reading would otherwise wait for a writer forever.
FileRead readFile(const std::string &Path, std::string &Out) {
  int Fd = open(Path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (Fd < 0)
    return errno == ENOENT ? FileRead::Missing : FileRead::NotRegular;
  struct stat St{};
  if (fstat(Fd, &St) != 0 || !S_ISREG(St.st_mode)) {
    close(Fd);
    return FileRead::NotRegular;
  }
  Out.clear();
  Out.reserve(static_cast<size_t>(St.st_size));
  char Buf[1 << 16];
  for (;;) {
    ssize_t N = read(Fd, Buf, sizeof Buf);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0) {
      close(Fd);
      return N == 0 ? FileRead::Ok : FileRead::NotRegular;
    }
    Out.append(Buf, static_cast<size_t>(N));
  }
}

/// The directory's usage journal: the bytes of its entries as the last
/// listing counted them (first line), then one line per entry stored since
/// by any process. It lets a store decide whether the directory may be over
/// its bound without listing it: listing a full cache (tens of thousands of
/// entries, one lstat each) takes far longer than the store itself, which
/// every new process would otherwise pay on its first store.
const char UsageName[] = "usage";

/// The journal's total; false if it is missing or not a list of numbers
/// (then the directory is listed).
bool readUsage(const std::string &Dir, uint64_t &Total) {
  std::string Text;
  if (readFile(Dir + "/" + UsageName, Text) != FileRead::Ok)
    return false;
  Total = 0;
  std::istringstream In(Text);
  std::string Line;
  bool Any = false;
  while (std::getline(In, Line)) {
    // A line another process is appending right now may be cut short; it
    // only makes the estimate low until the next listing. A number past
    // 64 bits (a damaged journal) makes it invalid, like any other damage.
    uint64_t V = 0;
    auto [End, Err] =
        std::from_chars(Line.data(), Line.data() + Line.size(), V);
    if (Line.empty() || Err != std::errc() ||
        End != Line.data() + Line.size() ||
        __builtin_add_overflow(Total, V, &Total))
      return false;
    Any = true;
  }
  return Any;
}

/// Appends one stored entry's size: one write(2) in append mode, so lines
/// of concurrent writers do not interleave.
void appendUsage(const std::string &Dir, uint64_t Bytes) {
  // O_NONBLOCK: a FIFO with the journal's name and no reader fails to
  // open (ENXIO) instead of blocking; fstat turns away other non-files.
  int Fd = open((Dir + "/" + UsageName).c_str(),
                O_WRONLY | O_APPEND | O_CLOEXEC | O_NONBLOCK);
  if (Fd < 0)
    return; // no journal yet: the next store lists and writes one
  struct stat St{};
  if (fstat(Fd, &St) != 0 || !S_ISREG(St.st_mode)) {
    close(Fd);
    return;
  }
  std::string Line = std::to_string(Bytes) + "\n";
  ssize_t W = write(Fd, Line.data(), Line.size());
  (void)W; // a lost line only delays the next listing
  close(Fd);
}

/// Replaces the journal with one line (write, then rename over it).
void resetUsage(const std::string &Dir, uint64_t Total) {
  static std::atomic<unsigned> Counter{0};
  std::string Tmp = Dir + "/" + UsageName + ".tmp." + std::to_string(getpid()) +
                    "." + std::to_string(Counter++);
  {
    std::ofstream Out(Tmp, std::ios::trunc);
    Out << Total << "\n";
    if (!Out) {
      Out.close();
      unlink(Tmp.c_str());
      return;
    }
  }
  if (rename(Tmp.c_str(), (Dir + "/" + UsageName).c_str()) != 0)
    unlink(Tmp.c_str());
}

/// After a store: lists and trims the directory only when its journal says
/// the entries may exceed \p MaxBytes (or there is no journal). A trim
/// leaves at most seven eighths of the bound, so a full cache is listed
/// once per eighth of the bound written, not on every store.
void trimAfterStore(const std::string &Dir, const std::string &Key,
                    uint64_t MaxBytes) {
  // One listing at a time in this process; other processes may list at the
  // same time, which only repeats work (removals tolerate each other).
  static std::mutex Lock;
  std::lock_guard<std::mutex> G(Lock);
  uint64_t Total = 0;
  if (readUsage(Dir, Total) && Total <= MaxBytes)
    return;
  resetUsage(Dir, trim(Dir, MaxBytes - MaxBytes / 8, Key));
}
} // namespace

bool load(const std::string &Dir, const std::string &Key,
          const std::string &DriverVersion, BinaryContents &Out,
          std::string &Note) {
  std::string Path = entryPath(Dir, Key);
  std::string Bytes;
  switch (readFile(Path, Bytes)) {
  case FileRead::Missing:
    return false;
  case FileRead::NotRegular: {
    // Not an entry (a directory, a FIFO, an unreadable file): ignored, and
    // removed where possible so that the store after the build can put the
    // entry there (a non-empty directory stays, and the store then fails
    // with a note: the build itself succeeds either way).
    Note = "cache entry " + Path +
           " is not a readable regular file; ignored, rebuilding";
    std::error_code EC;
    fs::remove(Path, EC);
    return false;
  }
  case FileRead::Ok:
    break;
  }
  std::string Why;
  if (!readBinary(reinterpret_cast<const unsigned char *>(Bytes.data()),
                  Bytes.size(), DriverVersion, Out, Why) ||
      Out.Type != CL_PROGRAM_BINARY_TYPE_EXECUTABLE) {
    Note = "cache entry " + Path + " is unusable (" +
           (Why.empty() ? "not an executable" : Why) + "); rebuilding";
    std::error_code EC;
    fs::remove(Path, EC);
    return false;
  }
  // A hit makes the entry the most recently used (eviction goes by mtime).
  // Failure (read-only cache, entry just removed) does not matter.
  utimensat(AT_FDCWD, Path.c_str(), nullptr, 0);
  return true;
}

bool store(const std::string &Dir, const std::string &Key,
           const std::string &Bytes, std::string &Note, uint64_t MaxBytes) {
  std::error_code EC;
  fs::create_directories(Dir, EC);
  if (EC) {
    Note = "cannot create cache directory " + Dir + ": " + EC.message();
    return false;
  }
  static std::atomic<unsigned> Counter{0};
  std::ostringstream Tmp;
  Tmp << entryPath(Dir, Key) << ".tmp." << getpid() << "."
      << std::hash<std::thread::id>()(std::this_thread::get_id()) << "."
      << Counter++;
  {
    std::ofstream Out(Tmp.str(), std::ios::binary | std::ios::trunc);
    Out.write(Bytes.data(), static_cast<std::streamsize>(Bytes.size()));
    Out.flush();
    if (!Out) {
      Note = "cannot write cache file " + Tmp.str();
      Out.close();
      fs::remove(Tmp.str(), EC);
      return false;
    }
  }
  // rename() replaces any entry another writer put there meanwhile: readers
  // see either the old complete file or the new complete file.
  fs::rename(Tmp.str(), entryPath(Dir, Key), EC);
  if (EC) {
    Note = "cannot rename cache file: " + EC.message();
    fs::remove(Tmp.str(), EC);
    return false;
  }
  // Journaled also without a bound: processes with different bounds (or
  // none) may share the directory.
  appendUsage(Dir, Bytes.size());
  if (MaxBytes)
    trimAfterStore(Dir, Key, MaxBytes);
  return true;
}

} // namespace clcpu::compiler::cache

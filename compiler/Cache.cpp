//===- compiler/Cache.cpp - on-disk kernel cache --------------------------===//

#include "compiler/Cache.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
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

namespace {
/// The size and modification time of the file holding this code (the driver
/// library, or a test binary): a rebuilt driver never reuses entries made
/// by an older build of the same version.
const std::string &buildIdentity() {
  static const std::string Id = [] {
    Dl_info Info{};
    struct stat St {};
    if (dladdr(reinterpret_cast<void *>(&buildIdentity), &Info) &&
        Info.dli_fname && stat(Info.dli_fname, &St) == 0)
      return std::to_string(St.st_size) + "@" + std::to_string(St.st_mtime);
    return std::string("unknown");
  }();
  return Id;
}
} // namespace

std::string key(const std::string &Source, const std::string &Options,
                const std::string &DriverVersion) {
  // Every input, each preceded by its length (no ambiguity between fields).
  std::string All;
  for (const std::string *S : {&Source, &Options, &DriverVersion,
                               &hostCpuName(), &hostCpuFeatures()}) {
    All += std::to_string(S->size()) + ":" + *S;
  }
  All += llvmVersion() + ":" + std::to_string(BinaryFormatVersion) + ":" +
         buildIdentity();
  uint64_t A = fnv1a(All.data(), All.size());
  uint64_t B = fnv1a(All.data(), All.size(), 0x84222325cbf29ce4ull ^ A);
  char Buf[40];
  std::snprintf(Buf, sizeof Buf, "%016llx%016llx",
                static_cast<unsigned long long>(A),
                static_cast<unsigned long long>(B));
  return Buf;
}

namespace {
std::string entryPath(const std::string &Dir, const std::string &Key) {
  return Dir + "/" + Key + ".clcpubin";
}
} // namespace

bool load(const std::string &Dir, const std::string &Key,
          const std::string &DriverVersion, BinaryContents &Out,
          std::string &Note) {
  std::string Path = entryPath(Dir, Key);
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return false;
  std::string Bytes((std::istreambuf_iterator<char>(In)),
                    std::istreambuf_iterator<char>());
  In.close();
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
  return true;
}

bool store(const std::string &Dir, const std::string &Key,
           const std::string &Bytes, std::string &Note) {
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
  return true;
}

} // namespace clcpu::compiler::cache

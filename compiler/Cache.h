#ifndef CLCPU_COMPILER_CACHE_H
#define CLCPU_COMPILER_CACHE_H

// The on-disk kernel cache: one file per (source, options, CPU, driver and
// LLVM version), holding a program binary (compiler/Binary.h) of the built
// executable, so that a hit skips Clang and the optimizer. Entries are
// written atomically (temporary file, then rename) and checked (checksum)
// when read; a bad entry is removed and rebuilt. The cache is bounded: a
// hit refreshes the entry's modification time, and after a write the
// least recently used entries are removed until the entries fit the bound.

#include "compiler/Binary.h"

#include <cstdint>
#include <string>
#include <vector>

namespace clcpu::compiler::cache {

/// The cache directory: \p Configured if not empty, else
/// $XDG_CACHE_HOME/clcpu, else $HOME/.cache/clcpu (empty if neither is set).
std::string directory(const std::string &Configured);

/// This build of the driver: the size and modification time of the shared
/// library holding the compiler ("unknown" where the library cannot be
/// found). Two builds of one version differ in it.
const std::string &buildIdentity();

/// The entry's file name (hex digest) for these inputs.
std::string key(const std::string &Source, const std::string &Options,
                const std::string &DriverVersion);

/// Reads entry \p Key of \p Dir. False on a miss; on a bad entry also false,
/// with the reason in \p Note (the entry is removed).
bool load(const std::string &Dir, const std::string &Key,
          const std::string &DriverVersion, BinaryContents &Out,
          std::string &Note);

/// Writes entry \p Key atomically; false (with \p Note) if it could not be
/// written (the build still succeeds). With \p MaxBytes (0: unlimited), then
/// keeps the directory within that bound: every store appends its size to
/// the directory's usage journal (file `usage`), and only when the
/// journal's total passes the bound (or the journal is missing or
/// unreadable) is the directory listed and trimmed, to seven eighths of the
/// bound. The entry just written is never removed by its own trim.
bool store(const std::string &Dir, const std::string &Key,
           const std::string &Bytes, std::string &Note, uint64_t MaxBytes = 0);

/// True if \p Name (no directory) is the name of a cache entry: 32 lower-case
/// hex digits then ".clcpubin". Nothing else in the directory is ever
/// counted or removed, except the cache's own temporary files once stale.
bool isEntryName(const std::string &Name);

/// One cache entry as listed by scan().
struct EntryInfo {
  std::string Name; ///< File name, no directory.
  uint64_t Size = 0;
  int64_t MTimeNs = 0; ///< Last write or hit, nanoseconds since the epoch.
};

/// The regular-file entries of \p Dir (files that vanish while listing are
/// skipped), oldest first. Also removes the cache's temporary files older
/// than an hour (left by a writer that died before its rename).
std::vector<EntryInfo> scan(const std::string &Dir);

/// Removes entries of \p Listed (scan() order: oldest first) until the rest
/// add up to at most \p MaxBytes, never \p Keep (a key, or empty). Entries
/// already gone count as removed. Returns the bytes left.
uint64_t evict(const std::string &Dir, const std::vector<EntryInfo> &Listed,
               uint64_t MaxBytes, const std::string &Keep = "");

/// evict(Dir, scan(Dir), MaxBytes, Keep).
uint64_t trim(const std::string &Dir, uint64_t MaxBytes,
              const std::string &Keep = "");

} // namespace clcpu::compiler::cache

#endif

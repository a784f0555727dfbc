#ifndef CLCPU_COMPILER_CACHE_H
#define CLCPU_COMPILER_CACHE_H

// The on-disk kernel cache: one file per (source, options, CPU, driver and
// LLVM version), holding a program binary (compiler/Binary.h) of the built
// executable, so that a hit skips Clang and the optimizer. Entries are
// written atomically (temporary file, then rename) and checked (checksum)
// when read; a bad entry is removed and rebuilt.

#include "compiler/Binary.h"

#include <string>

namespace clcpu::compiler::cache {

/// The cache directory: \p Configured if not empty, else
/// $XDG_CACHE_HOME/clcpu, else $HOME/.cache/clcpu (empty if neither is set).
std::string directory(const std::string &Configured);

/// The entry's file name (hex digest) for these inputs.
std::string key(const std::string &Source, const std::string &Options,
                const std::string &DriverVersion);

/// Reads entry \p Key of \p Dir. False on a miss; on a bad entry also false,
/// with the reason in \p Note (the entry is removed).
bool load(const std::string &Dir, const std::string &Key,
          const std::string &DriverVersion, BinaryContents &Out,
          std::string &Note);

/// Writes entry \p Key atomically; false (with \p Note) if it could not be
/// written (the build still succeeds).
bool store(const std::string &Dir, const std::string &Key,
           const std::string &Bytes, std::string &Note);

} // namespace clcpu::compiler::cache

#endif

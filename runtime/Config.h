#ifndef CLCPU_RUNTIME_CONFIG_H
#define CLCPU_RUNTIME_CONFIG_H

#include <string>

namespace clcpu {

/// Settings read once from the environment (runtime/Config.def).
struct Config {
  using BoolSetting = bool;
  using UnsignedSetting = unsigned;
  using StringSetting = std::string;
#define CLCPU_CONFIG(Field, Var, Kind, Default, Desc) Kind##Setting Field;
#include "runtime/Config.def"
};

/// The process-wide configuration, read on first use.
const Config &config();

/// Markdown table of every variable (name, default, description).
std::string configTableMarkdown();

} // namespace clcpu

#endif

#include "runtime/Config.h"

#include <cstdlib>
#include <cstring>
#include <sstream>

namespace clcpu {
namespace {

bool parse(const char *V, bool Default) {
  if (!V || !*V)
    return Default;
  return !(std::strcmp(V, "0") == 0 || strcasecmp(V, "false") == 0 ||
           strcasecmp(V, "off") == 0 || strcasecmp(V, "no") == 0);
}

unsigned parse(const char *V, unsigned Default) {
  if (!V || !*V)
    return Default;
  char *End = nullptr;
  unsigned long N = std::strtoul(V, &End, 10);
  return (End && *End == 0) ? static_cast<unsigned>(N) : Default;
}

[[maybe_unused]] std::string parse(const char *V, std::string Default) {
  return (V && *V) ? std::string(V) : Default;
}

Config readConfig() {
  Config C;
#define CLCPU_CONFIG(Field, Var, Kind, Default, Desc)                          \
  C.Field = parse(std::getenv(Var), Config::Kind##Setting(Default));
#include "runtime/Config.def"
  return C;
}

template <typename T> std::string show(T V) {
  std::ostringstream S;
  S << V;
  return S.str();
}
std::string show(bool V) { return V ? "1" : "0"; }
[[maybe_unused]] std::string show(const std::string &V) {
  return V.empty() ? "(unset)" : V;
}

} // namespace

const Config &config() {
  static const Config C = readConfig();
  return C;
}

std::string configTableMarkdown() {
  std::string T = "| Variable | Default | Meaning |\n|---|---|---|\n";
#define CLCPU_CONFIG(Field, Var, Kind, Default, Desc)                          \
  T += std::string("| `") + Var + "` | " +                                     \
       show(Config::Kind##Setting(Default)) + " | " + Desc + " |\n";
#include "runtime/Config.def"
  return T;
}

} // namespace clcpu

// Unit tests for runtime/Config: the environment-variable list.

#include "runtime/Config.h"

#include <catch2/catch.hpp>

using namespace clcpu;

TEST_CASE("Config.def generates a row per variable", "[config]") {
  std::string T = configTableMarkdown();
  CHECK(T.find("| `CLCPU_LOG` |") != std::string::npos);
}

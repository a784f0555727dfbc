// Prints the README table of clcpu's environment variables, generated from
// runtime/Config.def so the two cannot drift apart.
#include "runtime/Config.h"

#include <cstdio>

int main() { std::fputs(clcpu::configTableMarkdown().c_str(), stdout); }

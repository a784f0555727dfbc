//===- compiler/Compiler.cpp - build options ------------------------------===//
//
// Parsing of the clBuildProgram option string (OpenCL 3.0 API spec, 5.8.6
// "Compiler Options"). No LLVM headers here.

#include "compiler/Compiler.h"

#include <set>

namespace clcpu::compiler {

namespace {
std::vector<std::string> tokenize(const std::string &Text) {
  std::vector<std::string> Out;
  std::string Cur;
  bool InToken = false, Quoted = false;
  for (char C : Text) {
    if (C == '"') {
      Quoted = !Quoted;
      InToken = true;
      continue;
    }
    if (!Quoted && (C == ' ' || C == '\t' || C == '\n' || C == '\r')) {
      if (InToken)
        Out.push_back(Cur);
      Cur.clear();
      InToken = false;
      continue;
    }
    Cur += C;
    InToken = true;
  }
  if (InToken)
    Out.push_back(Cur);
  return Out;
}
} // namespace

bool parseOptions(const std::string &Text, Options &Out, std::string &Error) {
  // Options Clang's cc1 understands under the same name.
  static const std::set<std::string> PassThrough = {
      "-cl-single-precision-constant",
      "-cl-fp32-correctly-rounded-divide-sqrt",
      "-cl-mad-enable",
      "-cl-no-signed-zeros",
      "-cl-unsafe-math-optimizations",
      "-cl-finite-math-only",
      "-cl-fast-relaxed-math",
      "-cl-uniform-work-group-size",
      "-w",
      "-Werror",
  };
  // Accepted, with no effect: -cl-strict-aliasing is deprecated (Clang's
  // type-based alias analysis is always on at -O2).
  static const std::set<std::string> Ignored = {"-cl-strict-aliasing"};
  static const std::set<std::string> Standards = {"CL1.0", "CL1.1", "CL1.2",
                                                  "CL2.0", "CL3.0"};
  Out = Options();
  std::vector<std::string> Tok = tokenize(Text);
  for (size_t I = 0; I < Tok.size(); ++I) {
    const std::string &T = Tok[I];
    if (T == "-D" || T == "-I") {
      if (I + 1 == Tok.size()) {
        Error = "option " + T + " needs an argument";
        return false;
      }
      Out.ClangArgs.push_back(T + Tok[++I]);
    } else if ((T.rfind("-D", 0) == 0 || T.rfind("-I", 0) == 0) &&
               T.size() > 2) {
      Out.ClangArgs.push_back(T);
    } else if (T.rfind("-cl-std=", 0) == 0) {
      std::string V = T.substr(8);
      if (!Standards.count(V)) {
        Error = "unknown OpenCL C version in " + T;
        return false;
      }
      Out.ClStd = V;
    } else if (T == "-cl-kernel-arg-info") {
      Out.KernelArgInfo = true;
      Out.ClangArgs.push_back(T);
    } else if (T == "-cl-opt-disable") {
      Out.OptDisable = true;
    } else if (T == "-cl-no-subgroup-ifp") {
      // "kernels in this program do not require sub-groups to make
      // independent forward progress": no yields in waiting loops.
      Out.NoSubgroupIfp = true;
    } else if (T == "-clcpu-force-fibers") {
      // clcpu's own: barriers on fibers, not regions (tests, benchmarks).
      Out.ForceFibers = true;
    } else if (T == "-fclcpu-images") {
      // clcpu's own, added for CLCPU_IMAGES=1 (BuildSettings::Images).
      Out.Images = true;
    } else if (T == "-fclcpu-check-bounds") {
      // clcpu's own: the bounds-check mode (docs/DEBUGGING.md).
      Out.CheckBounds = true;
    } else if (T == "-cl-denorms-are-zero") {
      // What Clang's driver turns it into: single-precision denormals may be
      // flushed to zero (the code generator may then use DAZ/FTZ forms).
      Out.ClangArgs.push_back("-fdenormal-fp-math-f32=preserve-sign");
    } else if (T == "-g") {
      // Debug information (line tables and variables) in the JIT'd code.
      Out.Debug = true;
      Out.ClangArgs.push_back("-debug-info-kind=limited");
      Out.ClangArgs.push_back("-dwarf-version=5");
    } else if (PassThrough.count(T)) {
      Out.ClangArgs.push_back(T);
    } else if (Ignored.count(T)) {
      // nothing
    } else {
      Error = "unknown build option '" + T + "'";
      return false;
    }
  }
  return true;
}

std::string ArgBindings::key() const {
  if (empty())
    return "";
  std::string K = "bind " + Kernel;
  for (const Image &I : Images)
    K += " " + std::to_string(I.Index) + ":image:" + std::to_string(I.Order) +
         ":" + std::to_string(I.Type) + ":" + std::to_string(I.ElementSize) +
         ":" + std::to_string(I.Channels);
  for (const Sampler &S : Samplers)
    K += " " + std::to_string(S.Index) + ":sampler:" + std::to_string(S.Bits);
  return K;
}

bool parseLinkOptions(const std::string &Text, bool &IsLibrary,
                      std::string &Error) {
  // 5.8.7 "Linker Options": the library options and the math options (which
  // were applied when the objects were compiled).
  static const std::set<std::string> Accepted = {
      "-enable-link-options", "-cl-denorms-are-zero",
      "-cl-no-signed-zeros",  "-cl-unsafe-math-optimizations",
      "-cl-finite-math-only", "-cl-fast-relaxed-math",
      "-cl-no-subgroup-ifp",  "-clcpu-force-fibers"};
  IsLibrary = false;
  for (const std::string &T : tokenize(Text)) {
    if (T == "-create-library") {
      IsLibrary = true;
    } else if (!Accepted.count(T)) {
      Error = "unknown link option '" + T + "'";
      return false;
    }
  }
  return true;
}

} // namespace clcpu::compiler

// Helpers for unit tests that inspect the compiler's textual IR
// (compiler::optimizedIR).

#ifndef CLCPU_TESTS_UNIT_IRTEXT_H
#define CLCPU_TESTS_UNIT_IRTEXT_H

#include <string>

namespace clcpu::test {

/// The definition of function \p Name in textual IR \p IR ("" if absent).
inline std::string functionText(const std::string &IR,
                                const std::string &Name) {
  size_t B = IR.find("@" + Name + "(");
  if (B == std::string::npos)
    return "";
  B = IR.rfind("define", B);
  size_t E = IR.find("\n}\n", B);
  return IR.substr(B, E == std::string::npos ? std::string::npos : E - B);
}

/// How often \p What occurs in \p S.
inline size_t count(const std::string &S, const std::string &What) {
  size_t N = 0;
  for (size_t P = S.find(What); P != std::string::npos; P = S.find(What, P + 1))
    ++N;
  return N;
}

/// Whether \p What occurs in \p S.
inline bool has(const std::string &S, const std::string &What) {
  return S.find(What) != std::string::npos;
}

} // namespace clcpu::test

#endif

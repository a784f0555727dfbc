//===- compiler/Frontend.cpp - OpenCL C to LLVM IR with in-process Clang --===//

#include "compiler/Internal.h"

#include "compiler/Binary.h"

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/TargetParser/Host.h>

#include <algorithm>

#ifndef CLCPU_CLANG_RESOURCE_DIR
#error "CLCPU_CLANG_RESOURCE_DIR must name Clang's resource directory"
#endif

namespace clcpu::compiler {

const std::vector<std::string> &openclCFeatures() {
  static const std::vector<std::string> Features = {
      "__opencl_c_int64", // mandatory for FULL_PROFILE devices
      // builtins/c11atomic.cl: every atomic is sequentially consistent and
      // device-wide, so every order and scope is honoured.
      "__opencl_c_atomic_order_acq_rel",
      "__opencl_c_atomic_order_seq_cst",
      "__opencl_c_atomic_scope_device",
      "__opencl_c_atomic_scope_all_devices",
      // Barriers and collectives run on fibers (compiler/Barriers.cpp).
      "__opencl_c_work_group_collective_functions",
      // Sub-groups of SIMD width on the same fibers (cl_khr_subgroups).
      "__opencl_c_subgroups",
      // Double math, conversions, relational/geometric functions:
      // builtins/*.cl, tested in tests/e2e/BuiltinTests.cpp.
      "__opencl_c_fp64",
      // Program-scope (and static) variables in the global address space:
      // the JIT'd program's data, initialized once per program, persistent
      // across launches (tests/e2e/ProgramTests.cpp).
      "__opencl_c_program_scope_global_variables",
      // One flat address space on the CPU; to_global/to_local/to_private and
      // get_fence look at where a pointer points (WorkGroupFunction.cpp).
      "__opencl_c_generic_address_space",
  };
  return Features;
}

namespace {
/// OpenCL C 3.0: exactly the device's features. Clang enables every feature
/// it knows for this target (-cl-ext turns them off one by one); the
/// header-only ones (opencl-c-base.h defines them only for SPIR) are macros.
void addFeatureArgs(std::vector<std::string> &Args) {
  static const char *ClangFeatures[] = {
      "__opencl_c_3d_image_writes",
      "__opencl_c_atomic_order_acq_rel",
      "__opencl_c_atomic_order_seq_cst",
      "__opencl_c_device_enqueue",
      "__opencl_c_fp64",
      "__opencl_c_generic_address_space",
      "__opencl_c_images",
      "__opencl_c_int64",
      "__opencl_c_pipes",
      "__opencl_c_program_scope_global_variables",
      "__opencl_c_read_write_images",
      "__opencl_c_subgroups",
  };
  const std::vector<std::string> &Have = openclCFeatures();
  auto Supported = [&](const std::string &F) {
    return std::find(Have.begin(), Have.end(), F) != Have.end();
  };
  // Extensions Clang requires to agree with a feature.
  static const std::pair<const char *, const char *> Twins[] = {
      {"__opencl_c_fp64", "cl_khr_fp64"},
      {"__opencl_c_3d_image_writes", "cl_khr_3d_image_writes"},
  };
  std::string Ext = "-cl-ext=";
  for (const char *F : ClangFeatures) {
    Ext += Ext.back() == '=' ? "" : ",";
    Ext += (Supported(F) ? "+" : "-") + std::string(F);
    for (auto [Feature, Extension] : Twins)
      if (std::string(Feature) == F && !Supported(F))
        Ext += ",-" + std::string(Extension);
  }
  Args.push_back(Ext);
  for (const std::string &F : Have)
    if (std::find(std::begin(ClangFeatures), std::end(ClangFeatures), F) ==
        std::end(ClangFeatures))
      Args.push_back("-D" + F + "=1");
}
} // namespace

std::unique_ptr<llvm::Module> compileSource(llvm::LLVMContext &Ctx,
                                            const std::string &Source,
                                            const Options &Opts,
                                            const std::vector<Header> &Headers,
                                            std::string &Log) {
  // The source and the embedded headers live in one virtual directory, so
  // that #include "name" finds a header next to its includer.
  static const std::string VirtualDir = "/clcpu-program/";
  static const std::string InputName = VirtualDir + "input.cl";
  std::vector<std::string> Args = {"-triple",
                                   llvm::sys::getDefaultTargetTriple(),
                                   "-target-cpu", hostCpuName()};
  for (const std::string &F : hostTargetFeatures()) {
    Args.push_back("-target-feature");
    Args.push_back(F);
  }
  // Clang's driver adds both: the header's base declarations plus the
  // TableGen'd builtin declarations (fast, same mangled names as opencl-c.h).
  Args.insert(Args.end(),
              {"-x", "cl", "-cl-std=" + Opts.ClStd, "-finclude-default-header",
               "-fdeclare-opencl-builtins", "-O2", "-disable-llvm-passes",
               "-resource-dir", CLCPU_CLANG_RESOURCE_DIR, "-internal-isystem",
               std::string(CLCPU_CLANG_RESOURCE_DIR) + "/include"});
  // OpenCL C 6.12 (preprocessor macros): "__OPENCL_VERSION__ substitutes an
  // integer reflecting the version number of the OpenCL supported by the
  // OpenCL device": CL_DEVICE_VERSION is "OpenCL 3.0 ...". Clang leaves it
  // to the implementation.
  Args.push_back("-D__OPENCL_VERSION__=300");
  if (Opts.ClStd == "CL3.0")
    addFeatureArgs(Args);
  // Sub-group extensions of the device (compiler/Barriers.cpp) whose
  // builtins Clang declares only once their macro is defined
  // (opencl-c-base.h defines them for SPIR targets only).
  for (const char *E :
       {"cl_khr_subgroup_shuffle", "cl_khr_subgroup_shuffle_relative",
        "cl_khr_subgroup_extended_types", "cl_khr_subgroup_non_uniform_vote",
        "cl_khr_subgroup_ballot", "cl_khr_subgroup_non_uniform_arithmetic",
        "cl_khr_subgroup_clustered_reduce", "cl_khr_subgroup_rotate"})
    Args.push_back(std::string("-D") + E + "=1");
  Args.insert(Args.end(), Opts.ClangArgs.begin(), Opts.ClangArgs.end());
  Args.push_back(InputName);

  std::vector<const char *> ArgPtrs;
  for (const std::string &A : Args)
    ArgPtrs.push_back(A.c_str());

  std::string DiagText;
  llvm::raw_string_ostream DiagOS(DiagText);
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> DiagOpts =
      new clang::DiagnosticOptions();
  DiagOpts->ShowColors = false;
  DiagOpts->ShowCarets = false;
  clang::TextDiagnosticPrinter Printer(DiagOS, DiagOpts.get());

  // The command line is parsed with a plain engine; the instance's own engine
  // is created afterwards so that -w/-Werror apply.
  clang::DiagnosticsEngine ArgDiags(
      llvm::IntrusiveRefCntPtr<clang::DiagnosticIDs>(new clang::DiagnosticIDs),
      DiagOpts, &Printer, /*ShouldOwnClient=*/false);
  auto Inv = std::make_shared<clang::CompilerInvocation>();
  bool ArgsOk =
      clang::CompilerInvocation::CreateFromArgs(*Inv, ArgPtrs, ArgDiags);
  std::unique_ptr<llvm::MemoryBuffer> Buf =
      llvm::MemoryBuffer::getMemBufferCopy(Source, InputName);
  Inv->getPreprocessorOpts().addRemappedFile(InputName, Buf.release());
  for (const Header &H : Headers)
    Inv->getPreprocessorOpts().addRemappedFile(
        VirtualDir + H.Name,
        llvm::MemoryBuffer::getMemBufferCopy(H.Source, H.Name).release());
  Inv->getPreprocessorOpts().RetainRemappedFileBuffers = false;

  clang::CompilerInstance CI;
  CI.setInvocation(std::move(Inv));
  CI.createDiagnostics(&Printer, /*ShouldOwnClient=*/false);
  CI.setVerboseOutputStream(DiagOS); // "1 error generated." goes to the log

  std::unique_ptr<llvm::Module> M;
  if (ArgsOk && !ArgDiags.hasErrorOccurred()) {
    clang::EmitLLVMOnlyAction Act(&Ctx);
    if (CI.ExecuteAction(Act))
      M = Act.takeModule();
  }
  DiagOS.flush();
  Log += DiagText;
  return M;
}

} // namespace clcpu::compiler

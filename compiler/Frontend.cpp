//===- compiler/Frontend.cpp - OpenCL C to LLVM IR with in-process Clang --===//

#include "compiler/Internal.h"

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

#ifndef CLCPU_CLANG_RESOURCE_DIR
#error "CLCPU_CLANG_RESOURCE_DIR must name Clang's resource directory"
#endif

namespace clcpu::compiler {

std::unique_ptr<llvm::Module> compileSource(llvm::LLVMContext &Ctx,
                                            const std::string &Source,
                                            const Options &Opts,
                                            const std::vector<Header> &Headers,
                                            std::string &Log) {
  // The source and the embedded headers live in one virtual directory, so
  // that #include "name" finds a header next to its includer.
  static const std::string VirtualDir = "/clcpu-program/";
  static const std::string InputName = VirtualDir + "input.cl";
  std::vector<std::string> Args = {
      "-triple", llvm::sys::getDefaultTargetTriple(), "-target-cpu",
      std::string(llvm::sys::getHostCPUName())};
  for (const auto &F : llvm::sys::getHostCPUFeatures()) {
    Args.push_back("-target-feature");
    Args.push_back((F.getValue() ? "+" : "-") + F.getKey().str());
  }
  // Clang's driver adds both: the header's base declarations plus the
  // TableGen'd builtin declarations (fast, same mangled names as opencl-c.h).
  Args.insert(Args.end(),
              {"-x", "cl", "-cl-std=" + Opts.ClStd, "-finclude-default-header",
               "-fdeclare-opencl-builtins", "-O2", "-disable-llvm-passes",
               "-resource-dir", CLCPU_CLANG_RESOURCE_DIR, "-internal-isystem",
               std::string(CLCPU_CLANG_RESOURCE_DIR) + "/include"});
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

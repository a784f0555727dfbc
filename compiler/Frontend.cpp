//===- compiler/Frontend.cpp - OpenCL C to LLVM IR with in-process Clang --===//

#include "compiler/Frontend.h"

#include "compiler/Compiler.h"

#include "compiler/Binary.h"

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Support/xxhash.h>
#include <llvm/TargetParser/Host.h>

#include <algorithm>
#include <cpuid.h>
#include <cstdio>
#include <string_view>

#include <unistd.h>

// Clang's opencl-c-base.h and clcpu's declarations of the builtins Clang 19
// lacks (builtins/opencl-c-clcpu.h), embedded at build time
// (builtins/Embed.cpp.in).
extern "C" const char clcpu_opencl_c_base_h[];
extern "C" const unsigned long long clcpu_opencl_c_base_h_size;
extern "C" const char clcpu_opencl_c_clcpu_h[];
extern "C" const unsigned long long clcpu_opencl_c_clcpu_h_size;

namespace clcpu::compiler {

namespace {
/// The CPU's time-stamp counter is invariant (CPUID 8000_0007h, EDX bit 8;
/// Linux's constant_tsc and nonstop_tsc): it ticks at one constant rate in
/// every P-, C- and T-state, one clock for every CPU of the machine (Linux
/// checks at boot that the CPUs' counters agree, and stops using them as
/// its own clock when they do not).
bool hostHasInvariantTsc() {
  unsigned A, B, C, D;
  return __get_cpuid(0x80000000u, &A, &B, &C, &D) && A >= 0x80000007u &&
         __get_cpuid(0x80000007u, &A, &B, &C, &D) && (D & (1u << 8));
}

/// An optional feature an extension brings: its macro comes with the
/// extension's, from OpenCL C version FromVersion (100 for 1.0, ...) on,
/// and the device reports it with the extension's version.
struct ExtensionFeature {
  std::string Name;
  std::string Extension;
  unsigned FromVersion;
};

const std::vector<ExtensionFeature> &extensionFeatures() {
  static const std::vector<ExtensionFeature> Features = [] {
    std::vector<ExtensionFeature> F = {
        // cl_khr_integer_dot_product 2.0.0 makes both inputs mandatory
        // (builtins/integer_dot_product.cl). The extension needs only
        // OpenCL C 1.0, and Clang declares its builtins under these macros.
        {"__opencl_c_integer_dot_product_input_4x8bit",
         "cl_khr_integer_dot_product", 100},
        {"__opencl_c_integer_dot_product_input_4x8bit_packed",
         "cl_khr_integer_dot_product", 100},
    };
    // cl_ext_float_atomics: atomic_fetch_add/sub/min/max on atomic_float,
    // atomic_double and atomic_half in global and local memory
    // (builtins/c11atomic.cl, tests/e2e/FloatAtomicTests.cpp), from OpenCL
    // C 2.0, whose atomic syntax the extension builds on. Load, store and
    // exchange of atomic_half are the extension's too (those of float and
    // double are OpenCL C 2.0's own); the device always has cl_khr_fp16.
    for (const char *Type : {"fp32", "fp64", "fp16"})
      for (const char *Space : {"global", "local"})
        for (const char *Op : {"load_store", "add", "min_max"})
          if (std::string(Op) != "load_store" || std::string(Type) == "fp16")
            F.push_back({std::string("__opencl_c_ext_") + Type + "_" + Space +
                             "_atomic_" + Op,
                         "cl_ext_float_atomics", 200});
    // cl_khr_kernel_clock: builtins/kernel_clock.cl reads the time-stamp
    // counter for every scope (the extension needs only OpenCL C 1.0). Only
    // an invariant counter is one clock for the whole device (the device's
    // worker threads run on all its CPUs, and a work-group's thread may
    // move between them); without one, the device offers no scope and
    // programs see no clock function.
    if (hostHasInvariantTsc())
      for (const char *Scope : {"device", "work_group", "sub_group"})
        F.push_back({std::string("__opencl_c_kernel_clock_scope_") + Scope,
                     "cl_khr_kernel_clock", 100});
    return F;
  }();
  return Features;
}

/// \p Core followed by the features of extensionFeatures().
std::vector<std::string> withExtensionFeatures(std::vector<std::string> Core) {
  for (const ExtensionFeature &F : extensionFeatures())
    Core.push_back(F.Name);
  return Core;
}
} // namespace

const std::vector<std::string> &imageFeatures() {
  // Every image type with samplers and sampler-less reads, writes, and
  // read_write images (builtins/image.cl); writes to 3D images come with
  // cl_khr_3d_image_writes (compiler/Extensions.def).
  static const std::vector<std::string> Features = {
      "__opencl_c_images", "__opencl_c_read_write_images",
      "__opencl_c_3d_image_writes"};
  return Features;
}

const std::vector<std::string> &openclCFeatures() {
  static const std::vector<std::string> Features = withExtensionFeatures({
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
      // Half precision (cl_khr_fp16): builtins/half.cl, convert.cl.
      "__opencl_c_fp16",
      // Program-scope (and static) variables in the global address space:
      // the JIT'd program's data, initialized once per program, persistent
      // across launches (tests/e2e/ProgramTests.cpp).
      "__opencl_c_program_scope_global_variables",
      // One flat address space on the CPU; to_global/to_local/to_private and
      // get_fence look at where a pointer points (WorkGroupFunction.cpp).
      "__opencl_c_generic_address_space",
      // Pipes: a lock-free ring in the pipe's memory (builtins/pipe.cl,
      // builtins/PipeLayout.h), CL_DEVICE_PIPE_SUPPORT.
      "__opencl_c_pipes",
      // Device-side enqueue: blocks become kernels of their own
      // (passes/DeviceEnqueueCalls.cpp), run after their parent's groups by
      // runtime/DeviceQueue.cpp; CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES.
      "__opencl_c_device_enqueue",
  });
  return Features;
}

std::string featureExtension(const std::string &Feature) {
  for (const ExtensionFeature &E : extensionFeatures())
    if (E.Name == Feature)
      return E.Extension;
  return "";
}

namespace {
/// An extension or optional feature as Clang knows it
/// (clang/Basic/OpenCLExtensions.def): the OpenCL C version (100 for 1.0,
/// ..., 300 for 3.0) from which Clang defines its macro, if the target
/// supports it.
struct ClangOption {
  std::string_view Name;
  unsigned Avail;
};
constexpr ClangOption ClangOptions[] = {
#define OPENCL_GENERIC_EXTENSION(Ext, Pragma, Avail, Core, Opt) {#Ext, Avail},
#include <clang/Basic/OpenCLExtensions.def>
};

/// 100, 110, 120, 200 or 300 for -cl-std=CL1.0 ... CL3.0.
unsigned clStdVersion(const std::string &ClStd) {
  // "CLx.y": parseOptions accepted only known versions.
  return (ClStd[2] - '0') * 100 + (ClStd[4] - '0') * 10;
}

/// Exactly the device's extensions and, for OpenCL C 3.0, its optional
/// features (before 3.0, the extensions' own features of the version:
/// extensionFeatures()), as predefined macros (and, for the ones Clang
/// knows, as enabled options, which also declare their builtins). Clang
/// enables every option it knows for an x86 target, so all are turned off
/// first (-all): a program that tests `#ifdef cl_khr_3d_image_writes` must
/// not see image writes the device does not have. What Clang does not know,
/// or defines only from a later OpenCL C version than the program's
/// (cl_khr_subgroups from 2.0), is a macro defined here.
void addExtensionArgs(const std::string &ClStd, bool Images,
                      std::vector<std::string> &Args) {
  const unsigned Version = clStdVersion(ClStd);
  std::vector<std::string> Names = {
#define CLCPU_EXTENSION(Name, Major, Minor, Patch) #Name,
#include "compiler/Extensions.def"
  };
  if (Images)
    Names.insert(Names.end(), {
#define CLCPU_IMAGE_EXTENSION(Name, Major, Minor, Patch) #Name,
#include "compiler/Extensions.def"
                              });
  // An extension's own features declare its builtins: before OpenCL C 3.0
  // too, from the version the extension builds on.
  if (Version >= 300) {
    Names.insert(Names.end(), openclCFeatures().begin(),
                 openclCFeatures().end());
    if (Images)
      Names.insert(Names.end(), imageFeatures().begin(), imageFeatures().end());
  } else
    for (const ExtensionFeature &F : extensionFeatures())
      if (Version >= F.FromVersion)
        Names.push_back(F.Name);
  std::string Ext = "-cl-ext=-all";
  for (const std::string &N : Names) {
    auto Known =
        std::find_if(std::begin(ClangOptions), std::end(ClangOptions),
                     [&](const ClangOption &O) { return O.Name == N; });
    if (Known != std::end(ClangOptions))
      Ext += ",+" + N;
    if (Known == std::end(ClangOptions) || Known->Avail > Version)
      Args.push_back("-D" + N + "=1");
  }
  Args.push_back(Ext);
  // OpenCL C 6.12: "__IMAGE_SUPPORT__ is used to determine if the OpenCL
  // device supports images. This is an integer constant of 1 if images are
  // supported and is undefined otherwise." Clang defines it only for SPIR
  // targets.
  if (Images)
    Args.push_back("-D__IMAGE_SUPPORT__=1");
}
} // namespace

namespace {
// The source and the embedded headers live in one virtual directory, so
// that #include "name" finds a header next to its includer.
const std::string VirtualDir = "/clcpu-program/";

/// Writes \p Text to \p Path unless the file already holds it; through a
/// temporary file and a rename, so that a concurrent reader (another
/// process building the same source, a debugger) never sees half of it.
bool writeIfChanged(const std::string &Path, const std::string &Text) {
  if (auto Old = llvm::MemoryBuffer::getFile(Path);
      Old && (*Old)->getBuffer() == Text)
    return true;
  llvm::SmallString<256> Dir(Path);
  llvm::sys::path::remove_filename(Dir);
  if (llvm::sys::fs::create_directories(Dir))
    return false;
  std::string Temp = Path + ".tmp" + std::to_string(::getpid());
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Temp, EC);
    if (EC)
      return false;
    OS << Text;
    OS.close();
    if (OS.has_error()) {
      OS.clear_error();
      llvm::sys::fs::remove(Temp);
      return false;
    }
  }
  if (llvm::sys::fs::rename(Temp, Path)) {
    llvm::sys::fs::remove(Temp);
    return false;
  }
  return true;
}

/// Whether header name \p Name stays inside the directory it is written to
/// (relative, no `..` component).
bool containedName(llvm::StringRef Name) {
  if (Name.empty() || llvm::sys::path::is_absolute(Name))
    return false;
  for (auto I = llvm::sys::path::begin(Name), E = llvm::sys::path::end(Name);
       I != E; ++I)
    if (*I == "..")
      return false;
  return true;
}
} // namespace

std::string writeDebugSources(const std::string &Root,
                              const std::string &Source,
                              const std::vector<Header> &Headers,
                              std::string &Log) {
  // Each part preceded by its length: no two inputs hash alike by
  // shifting bytes between parts.
  std::string All = std::to_string(Source.size()) + ":" + Source;
  for (const Header &H : Headers)
    All += std::to_string(H.Name.size()) + ":" + H.Name +
           std::to_string(H.Source.size()) + ":" + H.Source;
  char Hash[20];
  std::snprintf(Hash, sizeof Hash, "%016llx",
                static_cast<unsigned long long>(llvm::xxh3_64bits(All)));
  std::string Dir = Root + "/" + Hash;
  bool Ok = writeIfChanged(Dir + "/input.cl", Source);
  for (const Header &H : Headers)
    if (containedName(H.Name))
      Ok &= writeIfChanged(Dir + "/" + H.Name, H.Source);
  if (!Ok) {
    Log += "warning: -g: the source cannot be copied to " + Dir +
           " for debuggers; they will show no source lines\n";
    return "";
  }
  return Dir;
}

std::unique_ptr<llvm::Module> compileSource(llvm::LLVMContext &Ctx,
                                            const std::string &Source,
                                            const Options &Opts,
                                            const std::vector<Header> &Headers,
                                            std::string &Log) {
  static const std::string InputName = VirtualDir + "input.cl";
  // Clang's resource directory, of which a program's compilation reads one
  // header (opencl-c-base.h, through -finclude-default-header), plus
  // clcpu's opencl-c-clcpu.h: served from the copies embedded in the
  // driver, so that it needs no Clang development package where it is
  // installed.
  static const std::string ResourceDir = "/clcpu-clang-resource";
  std::vector<std::string> Args = {"-triple",
                                   llvm::sys::getDefaultTargetTriple(),
                                   "-target-cpu", hostCpuName()};
  for (const std::string &F : hostTargetFeatures()) {
    Args.push_back("-target-feature");
    Args.push_back(F);
  }
  // Clang's driver adds both: the header's base declarations plus the
  // TableGen'd builtin declarations (fast, same mangled names as opencl-c.h).
  // Neither declares the builtins of some extensions the device reports
  // (cl_khr_work_group_uniform_arithmetic): builtins/opencl-c-clcpu.h does,
  // included after opencl-c-base.h (-include comes after the default
  // header) by its absolute path in the resource directory, so that no
  // file of the application's include paths or working directory can
  // stand in for it.
  Args.insert(Args.end(),
              {"-x", "cl", "-cl-std=" + Opts.ClStd, "-finclude-default-header",
               "-fdeclare-opencl-builtins", "-O2", "-disable-llvm-passes",
               "-resource-dir", ResourceDir, "-internal-isystem",
               ResourceDir + "/include", "-include",
               ResourceDir + "/include/opencl-c-clcpu.h"});
  // OpenCL C 6.12 (preprocessor macros): "__OPENCL_VERSION__ substitutes an
  // integer reflecting the version number of the OpenCL supported by the
  // OpenCL device": CL_DEVICE_VERSION is "OpenCL 3.0 ...". Clang leaves it
  // to the implementation.
  Args.push_back("-D__OPENCL_VERSION__=300");
  addExtensionArgs(Opts.ClStd, Opts.Images, Args);
  Args.insert(Args.end(), Opts.ClangArgs.begin(), Opts.ClangArgs.end());
  // -g: the DWARF names the copies a debugger can read, not the virtual
  // directory (writeDebugSources).
  if (!Opts.DebugSourceDir.empty())
    Args.push_back(
        "-fdebug-prefix-map=" + VirtualDir.substr(0, VirtualDir.size() - 1) +
        "=" + Opts.DebugSourceDir);
  Args.push_back(InputName);

  std::vector<const char *> ArgPtrs;
  for (const std::string &A : Args)
    ArgPtrs.push_back(A.c_str());

  std::string DiagText;
  llvm::raw_string_ostream DiagOS(DiagText);
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> DiagOpts =
      new clang::DiagnosticOptions();
  DiagOpts->ShowColors = false;
  // Locations as `#line` directives set them (the driver's default; these
  // options start from none): code generators map errors back to their
  // own sources that way (CTS test_compiler/preprocessor_line_error).
  DiagOpts->ShowPresumedLoc = true;
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
  // Header search skips directories that do not exist: the resource
  // directory exists in an in-memory file system laid over the real one
  // (where -I directories and #include paths of the application live).
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> Resource(
      new llvm::vfs::InMemoryFileSystem);
  // The lexer reads a file's buffer up to its NUL: the embedded copies
  // have one after their last byte (builtins/Embed.cpp.in); without it, a
  // header whose size is a multiple of 8 would be followed by its size's
  // bytes, and Clang would lex past its end.
  Resource->addFile(
      ResourceDir + "/include/opencl-c-base.h", 0,
      llvm::MemoryBuffer::getMemBuffer(
          llvm::StringRef(clcpu_opencl_c_base_h, clcpu_opencl_c_base_h_size),
          "opencl-c-base.h", /*RequiresNullTerminator=*/true));
  Resource->addFile(
      ResourceDir + "/include/opencl-c-clcpu.h", 0,
      llvm::MemoryBuffer::getMemBuffer(
          llvm::StringRef(clcpu_opencl_c_clcpu_h, clcpu_opencl_c_clcpu_h_size),
          "opencl-c-clcpu.h", /*RequiresNullTerminator=*/true));
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> Files(
      new llvm::vfs::OverlayFileSystem(llvm::vfs::getRealFileSystem()));
  Files->pushOverlay(Resource);
  CI.createFileManager(Files);
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

#ifndef CLCPU_COMPILER_COMPILER_H
#define CLCPU_COMPILER_COMPILER_H

// The kernel compiler's interface to the runtime: OpenCL C source and build
// options in, work-group functions (one per kernel) out. No LLVM or Clang
// header is visible from here.

#include "compiler/WorkGroupContext.h"

#include <CL/cl.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clcpu::compiler {

/// CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE: the largest program-scope variable
/// (__opencl_c_program_scope_global_variables); a larger one fails the build.
inline constexpr size_t MaxGlobalVariableSize = size_t(64) << 20;

/// OpenCL C address-space numbers as in kernel_arg_addr_space metadata.
enum ArgAddressSpace : unsigned {
  ArgPrivate = 0,
  ArgGlobal = 1,
  ArgConstant = 2,
  ArgLocal = 3,
};

/// True for the OpenCL C image type names (image2d_t, ..., the
/// multi-sample ones too), as kernel_arg_type_name gives them: an argument
/// of such a type takes an image. A pointer to a struct named
/// image_something is a buffer argument.
inline bool isImageTypeName(std::string_view TypeName) {
  for (const char *T :
       {"image1d_t", "image1d_buffer_t", "image1d_array_t", "image2d_t",
        "image2d_array_t", "image3d_t", "image2d_depth_t",
        "image2d_array_depth_t", "image2d_msaa_t", "image2d_array_msaa_t",
        "image2d_msaa_depth_t", "image2d_array_msaa_depth_t"})
    if (TypeName == T)
      return true;
  return false;
}

struct ArgInfo {
  unsigned AddressSpace = ArgPrivate;
  std::string AccessQual; // "none", "read_only", ...
  std::string TypeName;   // "float*", "float4", "S"
  std::string TypeQual;   // "const volatile restrict"
  std::string Name;       // empty without -cl-kernel-arg-info
  /// Bytes clSetKernelArg expects: sizeof(cl_mem) for buffers, the value's
  /// size for private arguments, 0 for __local (any non-zero size).
  size_t Size = 0;
  bool isPointer() const {
    return AddressSpace == ArgGlobal || AddressSpace == ArgConstant;
  }
  /// An image (an OpenCL C image type, image2d_t, ..., the multi-sample
  /// ones too: a __global pointer to the image's DeviceImage,
  /// runtime/Image.h) or a sampler (sampler_t: its bits). A pointer to a
  /// struct named image_something is a buffer argument.
  bool isImage() const { return isImageTypeName(TypeName); }
  bool isSampler() const { return TypeName == "sampler_t"; }
};

/// (Every field but Fn and StackFrameSize is stored in binaries and cache
/// entries: a new field needs a line in compiler/Binary.cpp's
/// serializeExecutable. Those two are read off the object code when it is
/// linked.)
struct KernelInfo {
  std::string Name;
  std::vector<ArgInfo> Args;
  size_t ReqdWorkGroupSize[3] = {0, 0, 0}; // all 0 if not given
  std::string Attributes;
  /// Bytes of __local variables declared in the kernel's body.
  size_t LocalMemSize = 0;
  /// Built with -cl-kernel-arg-info (argument names are known).
  bool ArgInfoAvailable = false;
  /// Bytes of the work-group function's fixed-size stack allocations.
  size_t PrivateMemSize = 0;
  /// Calls barrier()/work_group_barrier() or a work_group_* collective: Fn
  /// runs one work-item (Ctx->LocalId), each on its own fiber.
  bool PerWorkItem = false;
  /// Barrier regions (compiler/regions/): the kernel has barriers or
  /// collectives and Fn runs the whole group, region by region, with this
  /// many bytes of scratch per work-item (WorkGroupContext::Scratch).
  /// 0: no regions (a barrier-free kernel, or PerWorkItem).
  size_t RegionScratch = 0;
  /// How the kernel runs and why (CLCPU_LOG_KERNEL_PATHS): "work-item
  /// loop", "barrier regions (...)" or "fibers: <reason>".
  std::string Path;
  /// The global size must be a multiple of the local size (OpenCL C 1.x, or
  /// -cl-uniform-work-group-size).
  bool UniformWorkGroupSize = true;
  /// A block's kernel (OpenCL C 2.0 6.13.17): run only by device-side
  /// enqueue, not one of the program's kernels for the application.
  bool Block = false;
  /// Calls enqueue_kernel or another device-enqueue built-in: its launches
  /// run with a device-enqueue host (runtime/DeviceQueue.h).
  bool Enqueues = false;
  WorkGroupFn Fn = nullptr;
  /// Built in the bounds-check mode: the descriptions of its check sites,
  /// ending with null (compiler/passes/CheckBounds.h); null otherwise.
  const char *const *CheckSites = nullptr;
  /// A failed check also sets WorkGroupContext's CheckReportFailed word
  /// (the entry after CheckSites' null).
  bool CheckReportFlagged = false;
  /// Bytes of stack Fn's own frame takes, as the code generator laid it out
  /// (the object's .stack_sizes): the private arrays plus spills and
  /// copies. What a thread or fiber running Fn must have left.
  size_t StackFrameSize = 0;
};

/// The image descriptor an image argument points to (runtime/Image.h's
/// DeviceImage, builtins/image.cl's ClcpuImage): the byte offsets of the
/// fields a launch-time specialization replaces with constants
/// (compiler/passes/ImageArguments.cpp), and its size.
struct ImageDescriptorLayout {
  static constexpr unsigned Order = 40;
  static constexpr unsigned Type = 44;
  static constexpr unsigned ElementSize = 48;
  static constexpr unsigned Channels = 52;
  static constexpr unsigned Size = 56;
};

/// Values of one kernel's image and sampler arguments that a launch fixes:
/// each image argument's format, each sampler argument's CLK_* bits. Code
/// built with them (a launch-time specialization, runtime/Kernel.cpp)
/// reads the images of exactly those formats: the format dispatch of
/// every image access folds away and the work-item loop vectorizes.
struct ArgBindings {
  struct Image {
    unsigned Index = 0;
    uint32_t Order = 0, Type = 0, ElementSize = 0, Channels = 0;
  };
  struct Sampler {
    unsigned Index = 0;
    uint32_t Bits = 0;
  };
  std::string Kernel; // empty: none
  std::vector<Image> Images;
  std::vector<Sampler> Samplers;
  bool empty() const { return Kernel.empty(); }
  /// One line naming every value (the specialization's key).
  std::string key() const;
};

/// Build options parsed from the clBuildProgram string.
struct Options {
  std::vector<std::string> ClangArgs; // -D/-I/-w/-Werror/-cl-* for cc1
  std::string ClStd = "CL1.2";
  bool KernelArgInfo = false;
  bool OptDisable = false;
  /// -fclcpu-images (clcpu's own; CLCPU_IMAGES=1 adds it): image types
  /// and builtins (__opencl_c_images, builtins/image.cl).
  bool Images = false;
  /// -fclcpu-check-bounds (clcpu's own; CLCPU_CHECK_BOUNDS=1 adds it):
  /// every memory access checked (compiler/passes/CheckBounds.cpp).
  bool CheckBounds = false;
  /// -g: DWARF for debuggers (compiler/passes/WorkGroupDebugInfo.cpp).
  bool Debug = false;
  /// -g: the real directory holding copies of the source and its headers,
  /// which the DWARF names instead of the virtual one (empty: none).
  std::string DebugSourceDir;
  /// -cl-no-subgroup-ifp (compiler/passes/ProgressYields.cpp).
  bool NoSubgroupIfp = false;
  /// -clcpu-force-fibers (clcpu's own option): kernels with barriers run on
  /// fibers instead of barrier regions (for tests and benchmarks).
  bool ForceFibers = false;
  /// Not an option: the argument values a launch-time specialization
  /// fixes (BuildSettings::Bindings).
  ArgBindings Bindings;
};

/// Per-call settings the runtime takes from its configuration
/// (runtime/Config.def); the compiler itself reads no environment variable.
struct BuildSettings {
  /// Directory of the on-disk kernel cache; empty: no cache.
  std::string CacheDir;
  /// Bound of the cache's entries in bytes (least recently used removed
  /// first after a write); 0: unlimited.
  uint64_t CacheMaxBytes = 0;
  /// Where to dump the IR before / after the kernel passes, and the
  /// generated assembly: empty (off), "-" or "stderr", or a directory.
  std::string DumpIRBefore, DumpIRAfter, DumpAsm;
  /// Print the time of each build stage to stderr.
  bool LogTimes = false;
  /// Append the JIT-compiled functions to /tmp/perf-<pid>.map (and their
  /// code to /tmp/perf-<pid>-<address>.bin).
  bool PerfMap = false;
  /// Every program in the bounds-check mode (CLCPU_CHECK_BOUNDS), as if
  /// built with -fclcpu-check-bounds.
  bool CheckBounds = false;
  /// Kernels may use images (CLCPU_IMAGES), as if built with
  /// -fclcpu-images.
  bool Images = false;
  /// Where the sources of programs built with -g are copied, one directory
  /// per source, so that a debugger can list them; empty: not copied.
  std::string SourceDir;
  /// The driver's version, recorded in binaries and cache keys.
  std::string DriverVersion = "0";
  /// The SPIR-V reader run for IL programs (compiler/Spirv.cpp); empty:
  /// DefaultSpirvTranslator.
  std::string SpirvTranslator;
  /// Build a launch-time specialization of kernel Bindings.Kernel for
  /// these argument values (empty: the ordinary build). Part of the
  /// kernel cache's key.
  ArgBindings Bindings;
};

/// The tool that reads SPIR-V into LLVM bitcode (Khronos'
/// SPIRV-LLVM-Translator, Debian's llvm-spirv-15), run in its own process.
inline constexpr const char *DefaultSpirvTranslator = "/usr/bin/llvm-spirv-15";

/// The SPIR-V versions IL programs may have: 1.0 to this (what the
/// translator reads), as 0x00MMmm00 like the module header's word.
inline constexpr uint32_t MaxSpirvVersion = 0x00010400;

/// What clCreateProgramWithIL and clSetProgramSpecializationConstant need to
/// know of a SPIR-V module, read without translating it.
struct SpirvInfo {
  uint32_t Version = 0; // the header's 0x00MMmm00
  /// Specialization constants: SpecId → size in bytes (1 for booleans, as
  /// clSetProgramSpecializationConstant takes them) and kind.
  struct SpecConstant {
    uint32_t Size = 0;
    char Kind = 'i'; // 'b' bool, 'i' integer, 'f' floating point
  };
  std::vector<std::pair<uint32_t, SpecConstant>> SpecConstants;
};

/// Reads \p Size bytes of SPIR-V at \p Data: the header, the instruction
/// stream's framing, the addressing model and the capabilities (only those
/// of the OpenCL environment the device supports). False, with the reason
/// in \p Why, for a module the device cannot take: CL_INVALID_VALUE.
bool inspectSpirv(const void *Data, size_t Size, SpirvInfo &Out,
                  std::string &Why);

/// A specialization constant's value (clSetProgramSpecializationConstant).
struct SpecConstantValue {
  uint32_t Id = 0;
  std::vector<unsigned char> Bytes;
};

/// The OpenCL C 3.0 optional features clcpu supports: what the device
/// reports (CL_DEVICE_OPENCL_C_FEATURES) and exactly the feature macros a
/// program built with -cl-std=CL3.0 sees (compiler/Frontend.cpp).
const std::vector<std::string> &openclCFeatures();
/// The image features (__opencl_c_images), defined for programs built
/// with images (Options::Images, CLCPU_IMAGES=1) and reported then.
const std::vector<std::string> &imageFeatures();
/// The extension that brings optional feature \p Feature (its macro comes
/// with the extension's; the device reports the feature with the
/// extension's version), or "" for one of OpenCL C 3.0's own.
std::string featureExtension(const std::string &Feature);

/// Kernels compiled for this host turn unsigned-by-signed 4x8-bit dot
/// products (cl_khr_integer_dot_product), plain or accumulated with signed
/// saturation, into one VNNI instruction per vector of work-items: the CPU
/// has AVX-512 VNNI or AVX-VNNI (compiler/passes/VnniDotProduct.cpp).
bool hostVnniDotProduct();

/// Splits and checks \p Text; false (with \p Error) for an unknown or
/// malformed option: CL_INVALID_BUILD_OPTIONS.
bool parseOptions(const std::string &Text, Options &Out, std::string &Error);

/// clLinkProgram's options (5.8.7): false (with \p Error) for an unknown one:
/// CL_INVALID_LINKER_OPTIONS.
bool parseLinkOptions(const std::string &Text, bool &IsLibrary,
                      std::string &Error);

class JitSession;

/// A built program: kernels with their work-group functions, valid as long as
/// this object lives (it owns the JIT).
struct CompiledProgram {
  CompiledProgram();
  ~CompiledProgram();
  std::vector<KernelInfo> Kernels;
  size_t GlobalVariableTotalSize = 0;
  /// The serialized executable (kernel descriptions + optimized bitcode):
  /// what program binaries and cache entries carry (compiler/Binary.h).
  std::string Payload;
  /// The JIT'd relocatable object code (cached beside the payload).
  std::string ObjectCode;
  /// Loaded from the on-disk cache (Clang, the optimizer and code generation
  /// were skipped).
  bool FromCache = false;
  std::unique_ptr<JitSession> Jit;
};

/// Compiles and links \p Source for the host CPU. Returns CL_SUCCESS,
/// CL_INVALID_BUILD_OPTIONS or CL_BUILD_PROGRAM_FAILURE; diagnostics (with
/// file:line:col) are appended to \p Log either way. Thread-safe.
cl_int build(const std::string &Source, const std::string &OptionText,
             std::string &Log, std::unique_ptr<CompiledProgram> &Out,
             const BuildSettings &Settings = BuildSettings());

/// An executable's payload (CompiledProgram::Payload, from a binary or the
/// cache) → a CompiledProgram, JIT'd again. CL_SUCCESS or
/// CL_BUILD_PROGRAM_FAILURE (reason in \p Log).
cl_int loadExecutable(const std::string &Payload, const std::string &OptionText,
                      std::string &Log, std::unique_ptr<CompiledProgram> &Out,
                      const BuildSettings &Settings = BuildSettings());

/// clBuildProgram of a program created with clCreateProgramWithIL: the
/// SPIR-V module \p Il, specialized with \p Spec, through the translator
/// and the same pipeline as OpenCL C (and the same cache, keyed by the
/// module, the constants and the options). Codes as build().
cl_int buildIL(const std::string &Il,
               const std::vector<SpecConstantValue> &Spec,
               const std::string &OptionText, std::string &Log,
               std::unique_ptr<CompiledProgram> &Out,
               const BuildSettings &Settings = BuildSettings());

/// clCompileProgram of an IL program: the translated module as a compiled
/// object for link(). Codes as compile().
cl_int compileIL(const std::string &Il,
                 const std::vector<SpecConstantValue> &Spec,
                 const std::string &OptionText, std::string &Log,
                 std::string &Object,
                 const BuildSettings &Settings = BuildSettings());

/// Output of at least this many bytes goes past the last-level cache: a
/// kernel's full vector stores into such an output buffer are non-temporal
/// (compiler/passes/NonTemporalStores.cpp; WorkGroupContext::StreamArgs). The
/// last-level cache size of CPU 0 from sysfs (capped by
/// streamingThreshold), 8 MiB if unknown.
uint64_t streamingStoreMinBytes();

/// The streaming threshold for a last-level cache of \p LastLevelBytes
/// shared by \p SharingCpus CPUs (0: unknown): at most 12 MiB per CPU,
/// since a larger share is a VM shown its host's whole cache; 8 MiB if the
/// size is 0 (unknown).
uint64_t streamingThreshold(uint64_t LastLevelBytes, unsigned SharingCpus);

/// How many CPUs a sysfs cpu list such as "0-3,8,10-11" names; 0 if it
/// cannot be read.
unsigned countCpuList(const std::string &List);

/// An embedded header for clCompileProgram: the name #include uses, and
/// its text.
struct Header {
  std::string Name;
  std::string Source;
};

/// clCompileProgram: \p Source (with \p Headers) → a compiled object (LLVM
/// bitcode in \p Object). CL_SUCCESS, CL_INVALID_COMPILER_OPTIONS or
/// CL_COMPILE_PROGRAM_FAILURE; diagnostics go to \p Log.
cl_int compile(const std::string &Source, const std::string &OptionText,
               const std::vector<Header> &Headers, std::string &Log,
               std::string &Object,
               const BuildSettings &Settings = BuildSettings());

/// clLinkProgram: compiled objects and libraries → an executable, or with
/// -create-library (\p IsLibrary set) a library in \p Library.
/// CL_SUCCESS, CL_INVALID_LINKER_OPTIONS or CL_LINK_PROGRAM_FAILURE.
cl_int link(const std::vector<std::string> &Objects,
            const std::string &OptionText, std::string &Log,
            std::unique_ptr<CompiledProgram> &Out, bool &IsLibrary,
            std::string &Library,
            const BuildSettings &Settings = BuildSettings());

/// For tests: the optimized module's textual IR after work-group function
/// generation (empty on failure, with the reason in \p Log).
std::string optimizedIR(const std::string &Source,
                        const std::string &OptionText, std::string &Log);

/// The LLVM version the compiler was built with ("19.1.7").
std::string llvmVersion();

} // namespace clcpu::compiler

#endif

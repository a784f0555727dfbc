#include "runtime/Program.h"
#include "compiler/Cache.h"
#include "runtime/Config.h"
#include "runtime/Context.h"
#include "runtime/Device.h"
#include "runtime/Platform.h"

#include <condition_variable>
#include <cstdio>
#include <thread>

namespace clcpu {

namespace {
/// Background builds still running. At exit (this library's static
/// destructors run before LLVM's) it waits for them, so that no build
/// thread is inside LLVM while LLVM tears itself down.
class BackgroundBuilds {
public:
  void started() {
    std::lock_guard<std::mutex> G(M);
    ++Running;
  }
  void finished() {
    std::lock_guard<std::mutex> G(M);
    if (--Running == 0)
      Idle.notify_all();
  }
  ~BackgroundBuilds() {
    std::unique_lock<std::mutex> L(M);
    Idle.wait(L, [&] { return Running == 0; });
  }

private:
  std::mutex M;
  std::condition_variable Idle;
  int Running = 0;
};
BackgroundBuilds Background;
} // namespace

Program::Program(Context *C, std::string Src, Origin O)
    : Ctx(C), Devices(C->devices()), Source(std::move(Src)), Orig(O) {
  Ctx->retainInternal();
}

Program::Program(Context *C, std::string Module, compiler::SpirvInfo Info)
    : Ctx(C), Devices(C->devices()), Orig(Origin::IL), Il(std::move(Module)),
      IlInfo(std::move(Info)) {
  Ctx->retainInternal();
}

Program::Program(Context *C, compiler::BinaryContents Binary,
                 std::vector<Device *> Devs)
    : Ctx(C), Devices(std::move(Devs)), Orig(Origin::Binary),
      Input(std::move(Binary)) {
  Ctx->retainInternal();
  if (Input.Type != CL_PROGRAM_BINARY_TYPE_EXECUTABLE) {
    // A compiled object or library: an input to clLinkProgram as it is.
    Object = Input.Payload;
    ObjectType = Input.Type;
  }
}

Program::~Program() { Ctx->releaseInternal(); }

bool Program::hasDevice(const Device *D) const {
  return std::find(Devices.begin(), Devices.end(), D) != Devices.end();
}

namespace {
/// CLCPU_LOG_KERNEL_PATHS: how each kernel of a new executable runs.
void logKernelPaths(const compiler::CompiledProgram *Exe) {
  if (!Exe || !config().LogKernelPaths)
    return;
  for (const compiler::KernelInfo &K : Exe->Kernels)
    std::fprintf(stderr, "clcpu: kernel %s: %s\n", K.Name.c_str(),
                 K.Path.c_str());
}
} // namespace

compiler::BuildSettings Program::buildSettings() {
  const Config &C = config();
  compiler::BuildSettings S;
  if (C.Cache)
    S.CacheDir = compiler::cache::directory(C.CacheDir);
  // Next to the cache's entries, also when the cache is off.
  if (std::string Dir = compiler::cache::directory(C.CacheDir); !Dir.empty())
    S.SourceDir = Dir + "/sources";
  S.CacheMaxBytes = static_cast<uint64_t>(C.CacheMaxMB) << 20;
  S.DumpIRBefore = C.DumpIRBefore;
  S.DumpIRAfter = C.DumpIRAfter;
  S.DumpAsm = C.DumpAsm;
  S.LogTimes = C.LogBuildTimes;
  S.PerfMap = C.PerfMap;
  S.CheckBounds = C.CheckBounds;
  S.Images = C.Images;
  S.DriverVersion = driverBuildVersion();
  S.SpirvTranslator = C.SpirvTranslator;
  return S;
}

cl_int Program::begin(const std::string &OptText, bool NeedSource) {
  std::lock_guard<std::mutex> G(Lock);
  // clBuildProgram: CL_INVALID_OPERATION if program was not created with
  // clCreateProgramWithSource, clCreateProgramWithIL or
  // clCreateProgramWithBinary.
  if (Orig == Origin::Linked)
    return fail(CL_INVALID_OPERATION,
                "program was not created from source or a binary", Ctx);
  // clCompileProgram: CL_INVALID_OPERATION if program has no source or IL
  // available, i.e. it has not been created with clCreateProgramWithSource
  // or clCreateProgramWithIL.
  if (NeedSource && Orig != Origin::Source && Orig != Origin::IL)
    return fail(CL_INVALID_OPERATION,
                "program was not created from source or IL", Ctx);
  // CL_INVALID_OPERATION if the build of a program executable for any of
  // the devices listed in device_list by a previous call to clBuildProgram
  // for program has not completed.
  if (Building)
    return fail(CL_INVALID_OPERATION, "a build of this program is running",
                Ctx);
  // CL_INVALID_OPERATION if there are kernel objects attached to program.
  if (Kernels.load() > 0)
    return fail(CL_INVALID_OPERATION, "kernel objects are attached", Ctx);
  Building = true;
  Status = CL_BUILD_IN_PROGRESS;
  Options = OptText;
  Log.clear();
  // No executable while the build runs (clCreateKernel fails with
  // CL_INVALID_PROGRAM_EXECUTABLE).
  Exe = nullptr;
  return CL_SUCCESS;
}

cl_int Program::dispatch(std::function<cl_int()> Work, ProgramNotifyFn Notify,
                         void *User) {
  if (!Notify)
    return Work();
  // "If pfn_notify is not NULL, clBuildProgram does not need to wait for the
  // build to complete and can return immediately once the build operation
  // can begin." The program (and so its context) stays alive until the
  // notification has been delivered.
  retainInternal();
  Background.started();
  auto Run = [this, Work = std::move(Work), Notify, User] {
    Work();
    Notify(handle(), User);
    releaseInternal();
    Background.finished();
  };
  try {
    std::thread(Run).detach();
  } catch (const std::system_error &) {
    // No thread available: build synchronously instead.
    Run();
  }
  return CL_SUCCESS;
}

std::vector<compiler::SpecConstantValue> Program::specSnapshot() const {
  std::lock_guard<std::mutex> G(Lock);
  return Spec;
}

cl_int Program::setSpecConstant(cl_uint Id, size_t Size, const void *Value) {
  // CL_INVALID_PROGRAM if program is not a valid program object created
  // from an intermediate language (e.g. SPIR-V).
  if (Orig != Origin::IL)
    return fail(CL_INVALID_PROGRAM,
                "program was not created from an intermediate language", Ctx);
  // CL_INVALID_SPEC_ID if spec_id is not a valid specialization constant
  // identifier.
  const compiler::SpirvInfo::SpecConstant *C = nullptr;
  for (const auto &[SpecId, Const] : IlInfo.SpecConstants)
    if (SpecId == Id)
      C = &Const;
  if (!C)
    return fail(
        CL_INVALID_SPEC_ID,
        "the module has no specialization constant " + std::to_string(Id), Ctx);
  // CL_INVALID_VALUE if spec_size does not match the size of the
  // specialization constant in the module, or if spec_value is NULL.
  // ("This should be 1 for boolean constants.")
  if (Size != C->Size)
    return fail(CL_INVALID_VALUE,
                "spec_size is " + std::to_string(Size) +
                    ", specialization constant " + std::to_string(Id) +
                    " has " + std::to_string(C->Size) + " bytes",
                Ctx);
  if (!Value)
    return fail(CL_INVALID_VALUE, "spec_value is NULL", Ctx);
  const auto *Bytes = static_cast<const unsigned char *>(Value);
  std::lock_guard<std::mutex> G(Lock);
  for (compiler::SpecConstantValue &V : Spec)
    if (V.Id == Id) {
      V.Bytes.assign(Bytes, Bytes + Size);
      return CL_SUCCESS;
    }
  Spec.push_back({Id, std::vector<unsigned char>(Bytes, Bytes + Size)});
  return CL_SUCCESS;
}

cl_int Program::runBuild(const std::string &OptText,
                         const std::vector<compiler::SpecConstantValue> &Sp) {
  std::string NewLog;
  std::unique_ptr<compiler::CompiledProgram> Compiled;
  compiler::BuildSettings S = buildSettings();
  cl_int Err;
  if (Orig == Origin::Binary) {
    if (Input.Type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE) {
      // The executable's optimized bitcode is JIT'd again.
      Err = compiler::loadExecutable(Input.Payload, Input.Options, NewLog,
                                     Compiled, S);
    } else {
      // A compiled object or library binary: linked into an executable.
      bool IsLibrary = false;
      std::string Unused;
      Err = compiler::link({Input.Payload}, "", NewLog, Compiled, IsLibrary,
                           Unused, S);
      if (Err != CL_SUCCESS)
        Err = CL_BUILD_PROGRAM_FAILURE;
    }
  } else if (Orig == Origin::IL) {
    Err = compiler::buildIL(Il, Sp, OptText, NewLog, Compiled, S);
  } else {
    Err = compiler::build(Source, OptText, NewLog, Compiled, S);
  }
  logKernelPaths(Compiled.get());
  {
    std::lock_guard<std::mutex> G(Lock);
    Building = false;
    Log = NewLog;
    Status = Err == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
    Exe = std::move(Compiled);
    {
      // Specializations of the previous build (no kernel holds one of its
      // kernels' launches: a build needs the kernels gone, and launches
      // hold their code themselves).
      std::lock_guard<std::mutex> SG(SpecLock);
      Specializations.clear();
    }
    if (Orig != Origin::Binary) {
      Object.clear();
      ObjectType = CL_PROGRAM_BINARY_TYPE_NONE;
    }
  }
  if (Err == CL_INVALID_BUILD_OPTIONS)
    return fail(Err, "invalid build options: " + NewLog, Ctx);
  if (Err != CL_SUCCESS)
    return fail(Err, "build failed:\n" + NewLog, Ctx);
  return CL_SUCCESS;
}

cl_int Program::build(const char *Opts, ProgramNotifyFn Notify, void *User) {
  std::string OptText = Opts ? Opts : "";
  // CL_INVALID_BUILD_OPTIONS if the build options specified by options are
  // invalid (checked before an asynchronous build starts).
  compiler::Options Parsed;
  std::string OptErr;
  if ((Orig == Origin::Source || Orig == Origin::IL) &&
      !compiler::parseOptions(OptText, Parsed, OptErr))
    return fail(CL_INVALID_BUILD_OPTIONS, "invalid build options: " + OptErr,
                Ctx);
  if (cl_int Err = begin(OptText, /*NeedSource=*/false))
    return Err;
  std::vector<compiler::SpecConstantValue> Sp = specSnapshot();
  return dispatch([this, OptText, Sp] { return runBuild(OptText, Sp); }, Notify,
                  User);
}

cl_int Program::runCompile(const std::string &OptText,
                           const std::vector<compiler::Header> &Headers,
                           const std::vector<compiler::SpecConstantValue> &Sp) {
  std::string NewLog, Obj;
  // An IL program's headers are ignored: it has no #include.
  cl_int Err =
      Orig == Origin::IL
          ? compiler::compileIL(Il, Sp, OptText, NewLog, Obj, buildSettings())
          : compiler::compile(Source, OptText, Headers, NewLog, Obj,
                              buildSettings());
  {
    std::lock_guard<std::mutex> G(Lock);
    Building = false;
    Log = NewLog;
    Status = Err == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
    Exe = nullptr;
    Object = Err == CL_SUCCESS ? std::move(Obj) : std::string();
    ObjectType = Err == CL_SUCCESS ? CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT
                                   : CL_PROGRAM_BINARY_TYPE_NONE;
  }
  if (Err != CL_SUCCESS)
    return fail(Err, "compilation failed:\n" + NewLog, Ctx);
  return CL_SUCCESS;
}

cl_int Program::compile(const char *Opts,
                        const std::vector<compiler::Header> &Headers,
                        ProgramNotifyFn Notify, void *User) {
  std::string OptText = Opts ? Opts : "";
  // CL_INVALID_COMPILER_OPTIONS if the compiler options specified by options
  // are invalid.
  compiler::Options Parsed;
  std::string OptErr;
  if (!compiler::parseOptions(OptText, Parsed, OptErr))
    return fail(CL_INVALID_COMPILER_OPTIONS,
                "invalid compiler options: " + OptErr, Ctx);
  if (cl_int Err = begin(OptText, /*NeedSource=*/true))
    return Err;
  std::vector<compiler::SpecConstantValue> Sp = specSnapshot();
  return dispatch(
      [this, OptText, Headers, Sp] { return runCompile(OptText, Headers, Sp); },
      Notify, User);
}

cl_int Program::link(Context *C, std::vector<Device *> Devs, const char *Opts,
                     const std::vector<Program *> &Inputs, Program *&Out,
                     ProgramNotifyFn Notify, void *User) {
  std::vector<std::string> Objects;
  for (Program *P : Inputs) {
    std::lock_guard<std::mutex> G(P->Lock);
    // CL_INVALID_OPERATION if the compilation or build of a program
    // executable for any of the devices listed in device_list by a previous
    // call to clCompileProgram or clBuildProgram for program has not
    // completed.
    if (P->Building)
      return fail(CL_INVALID_OPERATION, "an input program is being built", C);
    // CL_INVALID_OPERATION if the rules for devices containing compiled
    // binaries or libraries as described in input_programs argument above
    // are not followed.
    if (P->ObjectType != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT &&
        P->ObjectType != CL_PROGRAM_BINARY_TYPE_LIBRARY)
      return fail(CL_INVALID_OPERATION,
                  "an input program is neither a compiled object nor a "
                  "library",
                  C);
    Objects.push_back(P->Object);
  }
  std::string OptText = Opts ? Opts : "";
  // CL_INVALID_LINKER_OPTIONS if the linker options specified by options are
  // invalid.
  bool IsLibrary = false;
  std::string OptErr;
  if (!compiler::parseLinkOptions(OptText, IsLibrary, OptErr))
    return fail(CL_INVALID_LINKER_OPTIONS, OptErr, C);
  auto *P = new Program(C, "", Origin::Linked);
  if (!Devs.empty())
    P->Devices = std::move(Devs);
  P->Options = OptText;
  P->Building = true;
  P->Status = CL_BUILD_IN_PROGRESS;
  Out = P;
  return P->dispatch(
      [P, Objects = std::move(Objects), OptText] {
        std::string NewLog, Library;
        bool IsLib = false;
        std::unique_ptr<compiler::CompiledProgram> Compiled;
        cl_int Err = compiler::link(Objects, OptText, NewLog, Compiled, IsLib,
                                    Library, buildSettings());
        logKernelPaths(Compiled.get());
        {
          std::lock_guard<std::mutex> G(P->Lock);
          P->Building = false;
          P->Log = NewLog;
          P->Status = Err == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
          if (Err == CL_SUCCESS && IsLib) {
            P->Object = std::move(Library);
            P->ObjectType = CL_PROGRAM_BINARY_TYPE_LIBRARY;
          }
          P->Exe = std::move(Compiled);
        }
        if (Err != CL_SUCCESS)
          return fail(Err, "link failed:\n" + NewLog, P->Ctx);
        return CL_SUCCESS;
      },
      Notify, User);
}

std::shared_ptr<const compiler::CompiledProgram> Program::executable() const {
  std::lock_guard<std::mutex> G(Lock);
  return Exe;
}

std::shared_ptr<const compiler::CompiledProgram>
Program::specialization(const compiler::ArgBindings &B) {
  if (Orig != Origin::Source || B.empty() || !config().SpecializeImages)
    return nullptr;
  std::string Key = B.key();
  std::string OptText;
  {
    std::lock_guard<std::mutex> G(Lock);
    if (!Exe || Building)
      return nullptr;
    OptText = Options;
    std::lock_guard<std::mutex> SG(SpecLock);
    if (auto It = Specializations.find(Key); It != Specializations.end())
      return It->second;
    if (Specializations.size() >= MaxSpecializations)
      return nullptr;
  }
  // The same source and options, so the same kernels, with the argument
  // values fixed (compiler/passes/ImageArguments.cpp); the kernel cache
  // keeps it for the next run of the application.
  compiler::BuildSettings S = buildSettings();
  S.Bindings = B;
  std::string BuildLog;
  std::unique_ptr<compiler::CompiledProgram> Built;
  cl_int Err = compiler::build(Source, OptText, BuildLog, Built, S);
  std::shared_ptr<const compiler::CompiledProgram> Result;
  if (Err == CL_SUCCESS) {
    Result = std::move(Built);
    if (config().LogKernelPaths)
      for (const compiler::KernelInfo &K : Result->Kernels)
        if (K.Name == B.Kernel)
          std::fprintf(stderr, "clcpu: kernel %s (%s): %s\n", K.Name.c_str(),
                       Key.c_str(), K.Path.c_str());
  } else {
    // Not the application's error: its build succeeded, and the launch
    // runs that. Kept as null, so that it is not tried again.
    logLine("specialization of kernel " + B.Kernel + " (" + Key +
            ") failed; launches run the ordinary build: " + BuildLog);
  }
  std::lock_guard<std::mutex> G(Lock);
  std::lock_guard<std::mutex> SG(SpecLock);
  return Specializations.try_emplace(Key, Result).first->second;
}

std::string Program::binary() const {
  compiler::BinaryContents B;
  {
    std::lock_guard<std::mutex> G(Lock);
    if (Building)
      return "";
    if (Exe) {
      B.Type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
      B.Payload = Exe->Payload;
      B.Options = Orig == Origin::Binary ? Input.Options : Options;
    } else if (ObjectType != CL_PROGRAM_BINARY_TYPE_NONE) {
      B.Type = ObjectType;
      B.Payload = Object;
      B.Options = Options;
    } else if (Orig == Origin::Binary) {
      B = Input; // not built yet: the binary it was created with
    } else {
      return "";
    }
  }
  return compiler::writeBinary(B, driverBuildVersion());
}

cl_int Program::getInfo(cl_program_info Param, InfoOut Out) const {
  const std::vector<Device *> &Devs = Devices;
  switch (Param) {
  case CL_PROGRAM_REFERENCE_COUNT:
    return Out.value<cl_uint>(referenceCount());
  case CL_PROGRAM_CONTEXT:
    return Out.value<cl_context>(Ctx->handle());
  case CL_PROGRAM_NUM_DEVICES:
    return Out.value<cl_uint>(static_cast<cl_uint>(Devs.size()));
  case CL_PROGRAM_DEVICES:
    return Out.array(deviceHandles(Devs));
  case CL_PROGRAM_SOURCE:
    return Out.string(Source);
  case CL_PROGRAM_IL:
    // "Returns the program IL for programs created with
    // clCreateProgramWithIL." "If program is created with
    // clCreateProgramWithSource ... the memory pointed to by param_value
    // will be unchanged and param_value_size_ret will be set to 0."
    return Orig == Origin::IL ? Out.bytes(Il.data(), Il.size())
                              : Out.bytes(nullptr, 0);
  case CL_PROGRAM_BINARY_SIZES:
    // One build serves every device: each gets the same binary.
    return Out.array(std::vector<size_t>(Devs.size(), binary().size()));
  case CL_PROGRAM_NUM_KERNELS:
  case CL_PROGRAM_KERNEL_NAMES: {
    auto E = executable();
    // CL_INVALID_PROGRAM_EXECUTABLE if param_name is CL_PROGRAM_NUM_KERNELS
    // or CL_PROGRAM_KERNEL_NAMES and a successful program executable has not
    // been built for at least one device in the list of devices associated
    // with program.
    if (!E)
      return fail(CL_INVALID_PROGRAM_EXECUTABLE,
                  "the program has no successfully built executable", Ctx);
    // The kernels of enqueued blocks are the runtime's, not the
    // application's.
    size_t Count = 0;
    std::string Names;
    for (const auto &K : E->Kernels)
      if (!K.Block) {
        ++Count;
        Names += (Names.empty() ? "" : ";") + K.Name;
      }
    if (Param == CL_PROGRAM_NUM_KERNELS)
      return Out.value<size_t>(Count);
    return Out.string(Names);
  }
  case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
  case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT:
    // CL_INVALID_PROGRAM_EXECUTABLE if param_name is ...
    // CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT, or
    // CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT and a successful program
    // executable has not been built for at least one device in the list of
    // devices associated with program.
    if (!executable())
      return fail(CL_INVALID_PROGRAM_EXECUTABLE,
                  "the program has no successfully built executable", Ctx);
    // The device runs no program-scope constructors or destructors: a
    // program that has them does not build (compiler/Spirv.cpp).
    return Out.value<cl_bool>(CL_FALSE);
  default:
    return unknownParam(Param, Ctx);
  }
}

cl_int Program::getBuildInfo(cl_program_build_info Param, InfoOut Out) const {
  std::lock_guard<std::mutex> G(Lock);
  switch (Param) {
  case CL_PROGRAM_BUILD_STATUS:
    return Out.value<cl_build_status>(Status);
  case CL_PROGRAM_BUILD_OPTIONS:
    return Out.string(Options);
  case CL_PROGRAM_BUILD_LOG:
    return Out.string(Log);
  case CL_PROGRAM_BINARY_TYPE:
    if (Exe)
      return Out.value<cl_program_binary_type>(
          CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    if (Orig == Origin::Binary && !Building && Status == CL_BUILD_NONE)
      return Out.value<cl_program_binary_type>(Input.Type);
    return Out.value<cl_program_binary_type>(ObjectType);
  case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE:
    return Out.value<size_t>(Exe ? Exe->GlobalVariableTotalSize : 0);
  default:
    return unknownParam(Param, Ctx);
  }
}

} // namespace clcpu

#include "runtime/Program.h"
#include "runtime/Context.h"
#include "runtime/Device.h"

namespace clcpu {

Program::Program(Context *C, std::string Src, bool FromSource)
    : Ctx(C), Source(std::move(Src)), FromSource(FromSource) {
  Ctx->retainInternal();
}

Program::~Program() { Ctx->releaseInternal(); }

bool Program::hasDevice(const Device *D) const { return Ctx->hasDevice(D); }

cl_int Program::begin(const std::string &OptText) {
  std::lock_guard<std::mutex> G(Lock);
  // CL_INVALID_OPERATION if program was not created with
  // clCreateProgramWithSource, clCreateProgramWithIL or
  // clCreateProgramWithBinary.
  if (!FromSource)
    return fail(CL_INVALID_OPERATION, "program was not created from source",
                Ctx);
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
  return CL_SUCCESS;
}

cl_int Program::build(const char *Opts) {
  std::string OptText = Opts ? Opts : "";
  if (cl_int Err = begin(OptText))
    return Err;
  std::string NewLog;
  std::unique_ptr<compiler::CompiledProgram> Compiled;
  cl_int Err = compiler::build(Source, OptText, NewLog, Compiled);
  {
    std::lock_guard<std::mutex> G(Lock);
    Building = false;
    Log = NewLog;
    Status = Err == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
    Exe = std::move(Compiled);
    Object.clear();
    ObjectType = CL_PROGRAM_BINARY_TYPE_NONE;
  }
  if (Err == CL_INVALID_BUILD_OPTIONS)
    return fail(Err, "invalid build options: " + NewLog, Ctx);
  if (Err != CL_SUCCESS)
    return fail(Err, "build failed:\n" + NewLog, Ctx);
  return CL_SUCCESS;
}

cl_int Program::compile(const char *Opts,
                        const std::vector<compiler::Header> &Headers) {
  std::string OptText = Opts ? Opts : "";
  if (cl_int Err = begin(OptText))
    return Err;
  std::string NewLog, Obj;
  cl_int Err = compiler::compile(Source, OptText, Headers, NewLog, Obj);
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

cl_int Program::link(Context *C, const char *Opts,
                     const std::vector<Program *> &Inputs, Program *&Out) {
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
  std::string NewLog, Library;
  bool IsLibrary = false;
  std::unique_ptr<compiler::CompiledProgram> Compiled;
  cl_int Err =
      compiler::link(Objects, OptText, NewLog, Compiled, IsLibrary, Library);
  // CL_INVALID_LINKER_OPTIONS if the linker options specified by options are
  // invalid.
  if (Err == CL_INVALID_LINKER_OPTIONS)
    return fail(Err, NewLog, C);
  auto *P = new Program(C, "", /*FromSource=*/false);
  P->Options = OptText;
  P->Log = NewLog;
  P->Status = Err == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
  if (Err == CL_SUCCESS && IsLibrary) {
    P->Object = std::move(Library);
    P->ObjectType = CL_PROGRAM_BINARY_TYPE_LIBRARY;
  }
  P->Exe = std::move(Compiled);
  Out = P;
  if (Err != CL_SUCCESS)
    return fail(Err, "link failed:\n" + NewLog, C);
  return CL_SUCCESS;
}

std::shared_ptr<const compiler::CompiledProgram> Program::executable() const {
  std::lock_guard<std::mutex> G(Lock);
  return Exe;
}

cl_int Program::getInfo(cl_program_info Param, InfoOut Out) const {
  const std::vector<Device *> &Devs = Ctx->devices();
  switch (Param) {
  case CL_PROGRAM_REFERENCE_COUNT:
    return Out.value<cl_uint>(referenceCount());
  case CL_PROGRAM_CONTEXT:
    return Out.value<cl_context>(Ctx->handle());
  case CL_PROGRAM_NUM_DEVICES:
    return Out.value<cl_uint>(static_cast<cl_uint>(Devs.size()));
  case CL_PROGRAM_DEVICES: {
    std::vector<cl_device_id> H;
    for (Device *D : Devs)
      H.push_back(D->handle());
    return Out.array(H);
  }
  case CL_PROGRAM_SOURCE:
    return Out.string(Source);
  case CL_PROGRAM_IL:
    // "If program is created with clCreateProgramWithSource ... the memory
    // pointed to by param_value will be unchanged and param_value_size_ret
    // will be set to 0."
    return Out.bytes(nullptr, 0);
  case CL_PROGRAM_BINARY_SIZES:
    // No program binaries yet: every device's binary is empty.
    return Out.array(std::vector<size_t>(Devs.size(), 0));
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
    if (Param == CL_PROGRAM_NUM_KERNELS)
      return Out.value<size_t>(E->Kernels.size());
    std::string Names;
    for (const auto &K : E->Kernels)
      Names += (Names.empty() ? "" : ";") + K.Name;
    return Out.string(Names);
  }
  case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
  case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT:
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
    return Out.value<cl_program_binary_type>(
        Exe ? CL_PROGRAM_BINARY_TYPE_EXECUTABLE : ObjectType);
  case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE:
    return Out.value<size_t>(Exe ? Exe->GlobalVariableTotalSize : 0);
  default:
    return unknownParam(Param, Ctx);
  }
}

} // namespace clcpu

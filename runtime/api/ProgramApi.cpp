//===- runtime/api/ProgramApi.cpp - program entry points (5.8) ------------===//

#include "compiler/Spirv.h"
#include "runtime/CheckedMath.h"
#include "runtime/Config.h"
#include "runtime/Context.h"
#include "runtime/Device.h"
#include "runtime/Platform.h"
#include "runtime/Program.h"
#include "runtime/api/HandleCheck.h"

#include <cstring>

using namespace clcpu;

namespace {
/// "CL_INVALID_PROGRAM if program is not a valid program object."
Program *programOf(cl_program program) { return Program::fromHandle(program); }

/// CL_INVALID_PROGRAM if program is not a valid program object.
constexpr HandleCheck ProgramCheck{CL_INVALID_PROGRAM, "program",
                                   "program is not a valid program"};

/// CL_INVALID_VALUE where device_list and num_devices disagree.
cl_int checkDeviceCount(Context *C, cl_uint num_devices,
                        const cl_device_id *device_list) {
  // CL_INVALID_VALUE if device_list is NULL and num_devices is greater than
  // zero, or if device_list is not NULL and num_devices is zero.
  if ((!device_list && num_devices > 0) || (device_list && num_devices == 0))
    return fail(CL_INVALID_VALUE, "device_list and num_devices do not agree",
                C);
  return CL_SUCCESS;
}

/// CL_INVALID_DEVICE where an entry of device_list is not a device of
/// \p Owner: the program (clBuildProgram) or the context, which \p OwnerName
/// names in the reason.
template <typename OwnerT>
cl_int checkDevicesOf(const OwnerT &Owner, const char *OwnerName, Context *C,
                      cl_uint num_devices, const cl_device_id *device_list) {
  for (cl_uint I = 0; I < num_devices; ++I) {
    // CL_INVALID_DEVICE if any device in device_list is not in the list of
    // devices associated with program (or context).
    Device *D = Device::fromHandle(device_list[I]);
    if (!D || !Owner.hasDevice(D))
      return fail(CL_INVALID_DEVICE,
                  "device_list[" + std::to_string(I) +
                      "] is not a device of the " + OwnerName,
                  C);
  }
  return CL_SUCCESS;
}
} // namespace

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithSource(
    cl_context context, cl_uint count, const char **strings,
    const size_t *lengths, cl_int *errcode_ret) {
  return apiCreate<cl_program>(__func__, errcode_ret, [&](cl_program &Out) {
    // CL_INVALID_CONTEXT if context is not a valid context.
    Context *C = Context::fromHandle(context);
    if (!C)
      return fail(CL_INVALID_CONTEXT, "context is not a valid context");
    // CL_INVALID_VALUE if count is zero or if strings or any entry in
    // strings is NULL.
    if (count == 0 || !strings)
      return fail(CL_INVALID_VALUE, "count is 0 or strings is NULL", C);
    std::string Source;
    for (cl_uint I = 0; I < count; ++I) {
      if (!strings[I])
        return fail(CL_INVALID_VALUE,
                    "strings[" + std::to_string(I) + "] is NULL", C);
      // "If an element in lengths is zero, its accompanying string is
      // null-terminated. If lengths is NULL, all strings in the strings
      // argument are considered null-terminated."
      size_t Len = lengths && lengths[I] ? lengths[I] : std::strlen(strings[I]);
      // A length that runs past the end of the address space describes no
      // string of the application's; the lengths' sum must fit a string.
      if (hostRangeWraps(strings[I], Len))
        return fail(CL_INVALID_VALUE,
                    "strings[" + std::to_string(I) + "] + lengths[" +
                        std::to_string(I) + "] wraps around the address space",
                    C);
      if (Len > Source.max_size() - Source.size())
        return fail(CL_OUT_OF_HOST_MEMORY, "the source is too long", C);
      Source.append(strings[I], Len);
    }
    Out = (new Program(C, std::move(Source)))->handle();
    return CL_SUCCESS;
  });
}

CL_API_ENTRY cl_int CL_API_CALL clRetainProgram(cl_program program) {
  return retainCall<Program>(__func__, program, ProgramCheck);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseProgram(cl_program program) {
  return releaseCall<Program>(__func__, program, ProgramCheck);
}

CL_API_ENTRY cl_int CL_API_CALL clBuildProgram(
    cl_program program, cl_uint num_devices, const cl_device_id *device_list,
    const char *options,
    void(CL_CALLBACK *pfn_notify)(cl_program program, void *user_data),
    void *user_data) {
  return objectCall<Program>(__func__, program, ProgramCheck, [&](Program *P) {
    Context *C = P->context();
    if (cl_int Err = checkDeviceCount(C, num_devices, device_list))
      return Err;
    // CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL.
    if (!pfn_notify && user_data)
      return fail(CL_INVALID_VALUE, "pfn_notify is NULL but user_data is not",
                  C);
    if (cl_int Err = checkDevicesOf(*P, "program", C, num_devices, device_list))
      return Err;
    // "pfn_notify ... will be called when the program executable has been
    // built (successfully or unsuccessfully)": with pfn_notify the build
    // runs in the background.
    return P->build(options, pfn_notify, user_data);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clGetProgramInfo(cl_program program,
                                                 cl_program_info param_name,
                                                 size_t param_value_size,
                                                 void *param_value,
                                                 size_t *param_value_size_ret) {
  return objectCall<Program>(__func__, program, ProgramCheck, [&](Program *P) {
    if (param_name == CL_PROGRAM_BINARIES) {
      // An array of pointers the application allocated, one per device, each
      // to CL_PROGRAM_BINARY_SIZES bytes; a NULL entry skips that device.
      size_t NumDevs = P->context()->devices().size();
      size_t N = NumDevs * sizeof(unsigned char *);
      // CL_INVALID_VALUE if ... size in bytes specified by param_value_size
      // is < size of return type ... and param_value is not NULL.
      if (param_value && param_value_size < N)
        return fail(CL_INVALID_VALUE, "param_value_size is too small",
                    P->context());
      if (param_value) {
        std::string Bin = P->binary();
        auto **Ptrs = static_cast<unsigned char **>(param_value);
        for (size_t I = 0; I < NumDevs; ++I)
          if (Ptrs[I] && !Bin.empty())
            std::memcpy(Ptrs[I], Bin.data(), Bin.size());
      }
      if (param_value_size_ret)
        *param_value_size_ret = N;
      return CL_SUCCESS;
    }
    return P->getInfo(param_name, InfoOut(param_value_size, param_value,
                                          param_value_size_ret));
  });
}

CL_API_ENTRY cl_int CL_API_CALL clGetProgramBuildInfo(
    cl_program program, cl_device_id device, cl_program_build_info param_name,
    size_t param_value_size, void *param_value, size_t *param_value_size_ret) {
  return objectCall<Program>(__func__, program, ProgramCheck, [&](Program *P) {
    // CL_INVALID_DEVICE if device is not in the list of devices associated
    // with program.
    Device *D = Device::fromHandle(device);
    if (!D || !P->hasDevice(D))
      return fail(CL_INVALID_DEVICE, "device is not a device of the program",
                  P->context());
    return P->getBuildInfo(param_name, InfoOut(param_value_size, param_value,
                                               param_value_size_ret));
  });
}

namespace {
/// The devices of a device_list already checked by checkDeviceList.
std::vector<Device *> devicesOf(cl_uint num_devices,
                                const cl_device_id *device_list) {
  std::vector<Device *> Devs;
  for (cl_uint I = 0; device_list && I < num_devices; ++I)
    Devs.push_back(Device::fromHandle(device_list[I]));
  return Devs;
}

/// The device_list checks shared by clCompileProgram and clLinkProgram
/// (and, once device_list is known not to be empty,
/// clCreateProgramWithBinary and clCreateProgramWithBuiltInKernels).
cl_int checkDeviceList(Context *C, cl_uint num_devices,
                       const cl_device_id *device_list) {
  if (cl_int Err = checkDeviceCount(C, num_devices, device_list))
    return Err;
  return checkDevicesOf(*C, "context", C, num_devices, device_list);
}

/// The checks clCreateProgramWithBinary and clCreateProgramWithBuiltInKernels
/// start with: a valid context (\p C on success) and a device_list of its
/// devices that is not empty.
cl_int contextAndDevices(cl_context context, cl_uint num_devices,
                         const cl_device_id *device_list, Context *&C) {
  // CL_INVALID_CONTEXT if context is not a valid context.
  C = Context::fromHandle(context);
  if (!C)
    return fail(CL_INVALID_CONTEXT, "context is not a valid context");
  // CL_INVALID_VALUE if device_list is NULL or num_devices is zero.
  if (!device_list || num_devices == 0)
    return fail(CL_INVALID_VALUE, "device_list is NULL or num_devices is 0", C);
  // CL_INVALID_DEVICE if any device in device_list is not in the list of
  // devices associated with context.
  return checkDeviceList(C, num_devices, device_list);
}
} // namespace

CL_API_ENTRY cl_int CL_API_CALL clCompileProgram(
    cl_program program, cl_uint num_devices, const cl_device_id *device_list,
    const char *options, cl_uint num_input_headers,
    const cl_program *input_headers, const char **header_include_names,
    void(CL_CALLBACK *pfn_notify)(cl_program program, void *user_data),
    void *user_data) {
  return objectCall<Program>(__func__, program, ProgramCheck, [&](Program *P) {
    Context *C = P->context();
    if (cl_int Err = checkDeviceList(C, num_devices, device_list))
      return Err;
    // CL_INVALID_VALUE if num_input_headers is zero and header_include_names
    // or input_headers are not NULL or if num_input_headers is not zero and
    // header_include_names or input_headers are NULL.
    if (num_input_headers == 0 ? (header_include_names || input_headers)
                               : (!header_include_names || !input_headers))
      return fail(CL_INVALID_VALUE,
                  "num_input_headers, input_headers and "
                  "header_include_names do not agree",
                  C);
    // CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL.
    if (!pfn_notify && user_data)
      return fail(CL_INVALID_VALUE, "pfn_notify is NULL but user_data is not",
                  C);
    std::vector<compiler::Header> Headers;
    for (cl_uint I = 0; I < num_input_headers; ++I) {
      Program *H = programOf(input_headers[I]);
      // CL_INVALID_PROGRAM if ... input_headers are not valid program
      // objects.
      if (!H)
        return fail(CL_INVALID_PROGRAM,
                    "input_headers[" + std::to_string(I) +
                        "] is not a valid program",
                    C);
      if (!header_include_names[I])
        return fail(CL_INVALID_VALUE,
                    "header_include_names[" + std::to_string(I) + "] is NULL",
                    C);
      Headers.push_back({header_include_names[I], H->source()});
    }
    // "pfn_notify ... will be called when the compiler has completed": with
    // pfn_notify the compilation runs in the background.
    return P->compile(options, Headers, pfn_notify, user_data);
  });
}

CL_API_ENTRY cl_program CL_API_CALL clLinkProgram(
    cl_context context, cl_uint num_devices, const cl_device_id *device_list,
    const char *options, cl_uint num_input_programs,
    const cl_program *input_programs,
    void(CL_CALLBACK *pfn_notify)(cl_program program, void *user_data),
    void *user_data, cl_int *errcode_ret) {
  Program *Out = nullptr;
  cl_int Err = apiCall(__func__, [&] {
    // CL_INVALID_CONTEXT if context is not a valid context.
    Context *C = Context::fromHandle(context);
    if (!C)
      return fail(CL_INVALID_CONTEXT, "context is not a valid context");
    if (cl_int E = checkDeviceList(C, num_devices, device_list))
      return E;
    // CL_INVALID_VALUE if num_input_programs is zero and input_programs is
    // NULL or if num_input_programs is zero and input_programs is not NULL or
    // if num_input_programs is not zero and input_programs is NULL.
    if (num_input_programs == 0 || !input_programs)
      return fail(CL_INVALID_VALUE,
                  "num_input_programs is 0 or input_programs is NULL", C);
    // CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL.
    if (!pfn_notify && user_data)
      return fail(CL_INVALID_VALUE, "pfn_notify is NULL but user_data is not",
                  C);
    std::vector<Program *> Inputs;
    for (cl_uint I = 0; I < num_input_programs; ++I) {
      // CL_INVALID_PROGRAM if programs specified in input_programs are not
      // valid program objects.
      Program *P = programOf(input_programs[I]);
      if (!P || P->context() != C)
        return fail(CL_INVALID_PROGRAM,
                    "input_programs[" + std::to_string(I) +
                        "] is not a valid program of the context",
                    C);
      Inputs.push_back(P);
    }
    // "pfn_notify ... will be called when the linker has completed": with
    // pfn_notify the link runs in the background and the program is
    // returned at once.
    return Program::link(C, devicesOf(num_devices, device_list), options,
                         Inputs, Out, pfn_notify, user_data);
  });
  if (errcode_ret)
    *errcode_ret = Err;
  // On CL_LINK_PROGRAM_FAILURE the program is returned so that its build
  // log can be queried.
  return Out ? Out->handle() : nullptr;
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBinary(
    cl_context context, cl_uint num_devices, const cl_device_id *device_list,
    const size_t *lengths, const unsigned char **binaries,
    cl_int *binary_status, cl_int *errcode_ret) {
  return apiCreate<cl_program>(__func__, errcode_ret, [&](cl_program &Out) {
    Context *C;
    if (cl_int Err = contextAndDevices(context, num_devices, device_list, C))
      return Err;
    // CL_INVALID_VALUE if lengths or binaries is NULL or if any entry in
    // lengths[i] is zero or binaries[i] is NULL.
    if (!lengths || !binaries)
      return fail(CL_INVALID_VALUE, "lengths or binaries is NULL", C);
    for (cl_uint I = 0; I < num_devices; ++I)
      if (lengths[I] == 0 || !binaries[I]) {
        if (binary_status)
          binary_status[I] = CL_INVALID_VALUE;
        return fail(CL_INVALID_VALUE,
                    "lengths[" + std::to_string(I) + "] is 0 or binaries[" +
                        std::to_string(I) + "] is NULL",
                    C);
      }
    // CL_INVALID_BINARY if an invalid program binary was encountered for any
    // device. binary_status will return specific status for each device.
    std::vector<compiler::BinaryContents> Parsed(num_devices);
    std::string FirstWhy;
    for (cl_uint I = 0; I < num_devices; ++I) {
      std::string Why;
      // A length that runs past the end of the address space is no binary:
      // the reader checks every field against it.
      bool Ok = !hostRangeWraps(binaries[I], lengths[I]) &&
                compiler::readBinary(binaries[I], lengths[I],
                                     driverBuildVersion(), Parsed[I], Why);
      if (!Ok && Why.empty())
        Why = "lengths[" + std::to_string(I) + "] wraps the address space";
      if (binary_status)
        binary_status[I] = Ok ? CL_SUCCESS : CL_INVALID_BINARY;
      if (!Ok && FirstWhy.empty())
        FirstWhy = "binaries[" + std::to_string(I) + "]: " + Why;
    }
    if (!FirstWhy.empty())
      return fail(CL_INVALID_BINARY, FirstWhy, C);
    // Every device is the same host CPU: one binary serves them all.
    Out = (new Program(C, std::move(Parsed.front()),
                       devicesOf(num_devices, device_list)))
              ->handle();
    return CL_SUCCESS;
  });
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithIL(cl_context context,
                                                          const void *il,
                                                          size_t length,
                                                          cl_int *errcode_ret) {
  return apiCreate<cl_program>(__func__, errcode_ret, [&](cl_program &Out) {
    // CL_INVALID_CONTEXT if context is not a valid context.
    Context *C = Context::fromHandle(context);
    if (!C)
      return fail(CL_INVALID_CONTEXT, "context is not a valid context");
    // CL_INVALID_VALUE if il is NULL or if length is zero.
    if (!il || length == 0)
      return fail(CL_INVALID_VALUE, "il is NULL or length is 0", C);
    if (hostRangeWraps(il, length))
      return fail(CL_INVALID_VALUE, "il + length wraps the address space", C);
    // CL_INVALID_OPERATION if no devices in context support intermediate
    // language programs.
    // (Every device of the driver has the one translator.)
    if (!compiler::spirvTranslatorFound(config().SpirvTranslator))
      return fail(CL_INVALID_OPERATION,
                  "no device in the context takes IL programs: the SPIR-V "
                  "translator (" +
                      std::string(config().SpirvTranslator.empty()
                                      ? compiler::DefaultSpirvTranslator
                                      : config().SpirvTranslator.c_str()) +
                      ") was not found",
                  C);
    // CL_INVALID_VALUE if the length-byte memory pointed to by il does not
    // contain well-formed intermediate language input appropriate for the
    // deployment environment.
    compiler::SpirvInfo Info;
    std::string Why;
    if (!compiler::inspectSpirv(il, length, Info, Why))
      return fail(CL_INVALID_VALUE, "il: " + Why, C);
    Out = (new Program(C, std::string(static_cast<const char *>(il), length),
                       std::move(Info)))
              ->handle();
    return CL_SUCCESS;
  });
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithILKHR(
    cl_context context, const void *il, size_t length, cl_int *errcode_ret) {
  // cl_khr_il_program: the same as the core function of OpenCL 2.1.
  return clCreateProgramWithIL(context, il, length, errcode_ret);
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(
    cl_context context, cl_uint num_devices, const cl_device_id *device_list,
    const char *kernel_names, cl_int *errcode_ret) {
  return apiCreate<cl_program>(__func__, errcode_ret, [&](cl_program &) {
    Context *C;
    if (cl_int Err = contextAndDevices(context, num_devices, device_list, C))
      return Err;
    // CL_INVALID_VALUE if kernel_names is NULL or kernel_names contains a
    // kernel name that is not supported by any of the devices in
    // device_list (CL_DEVICE_BUILT_IN_KERNELS is empty).
    if (!kernel_names)
      return fail(CL_INVALID_VALUE, "kernel_names is NULL", C);
    return fail(CL_INVALID_VALUE,
                std::string("no device has the built-in kernels '") +
                    kernel_names + "'",
                C);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clUnloadCompiler(void) {
  // "This function allows the implementation to release the resources
  // allocated by the OpenCL compiler. This is a hint": the in-process
  // compiler keeps nothing worth unloading.
  return apiCall(__func__, [&] { return CL_SUCCESS; });
}

CL_API_ENTRY cl_int CL_API_CALL
clUnloadPlatformCompiler(cl_platform_id platform) {
  return apiCall(__func__, [&] {
    // CL_INVALID_PLATFORM if platform is not a valid platform.
    if (!Platform::fromHandle(platform))
      return fail(CL_INVALID_PLATFORM, "platform is not a valid platform");
    // A hint; the in-process compiler keeps nothing worth unloading.
    return CL_SUCCESS;
  });
}

CL_API_ENTRY cl_int CL_API_CALL clSetProgramReleaseCallback(
    cl_program program,
    void(CL_CALLBACK *pfn_notify)(cl_program program, void *user_data),
    void *user_data) {
  (void)user_data;
  return objectCall<Program>(__func__, program, ProgramCheck, [&](Program *P) {
    // CL_INVALID_VALUE if pfn_notify is NULL.
    if (!pfn_notify)
      return fail(CL_INVALID_VALUE, "pfn_notify is NULL", P->context());
    // CL_INVALID_OPERATION if no devices in the context associated with
    // program support destructors for program scope global variables.
    return fail(CL_INVALID_OPERATION,
                "no device supports program scope global destructors",
                P->context());
  });
}

CL_API_ENTRY cl_int CL_API_CALL
clSetProgramSpecializationConstant(cl_program program, cl_uint spec_id,
                                   size_t spec_size, const void *spec_value) {
  return objectCall<Program>(__func__, program, ProgramCheck, [&](Program *P) {
    return P->setSpecConstant(spec_id, spec_size, spec_value);
  });
}

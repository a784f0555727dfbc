#ifndef CLCPU_RUNTIME_EXTENSIONENUMS_H
#define CLCPU_RUNTIME_EXTENSIONENUMS_H

// Enums of extensions newer than the OpenCL headers the driver builds
// against (Debian bookworm's opencl-c-headers 3.0~2023.02.06 lack them). The
// values are the registry's (KhronosGroup/OpenCL-Docs xml/cl.xml and each
// extension's specification); a newer cl_ext.h defines the same names with
// the same values, so each is defined only where the header does not.

#include <CL/cl.h>
#include <CL/cl_ext.h>

// cl_ext_float_atomics 1.0.0
#ifndef CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT
typedef cl_bitfield cl_device_fp_atomic_capabilities_ext;
#define CL_DEVICE_GLOBAL_FP_ATOMIC_LOAD_STORE_EXT (1 << 0)
#define CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT (1 << 1)
#define CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT (1 << 2)
#define CL_DEVICE_LOCAL_FP_ATOMIC_LOAD_STORE_EXT (1 << 16)
#define CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT (1 << 17)
#define CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT (1 << 18)
#define CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT 0x4231
#define CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT 0x4232
#define CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT 0x4233
#endif

// cl_khr_kernel_clock 1.0.0
#ifndef CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR
typedef cl_bitfield cl_device_kernel_clock_capabilities_khr;
#define CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR 0x1076
#define CL_DEVICE_KERNEL_CLOCK_SCOPE_DEVICE_KHR (1 << 0)
#define CL_DEVICE_KERNEL_CLOCK_SCOPE_WORK_GROUP_KHR (1 << 1)
#define CL_DEVICE_KERNEL_CLOCK_SCOPE_SUB_GROUP_KHR (1 << 2)
#endif

// cl_khr_command_buffer 0.9.8 (the installed cl_ext.h has 0.9.1; see
// runtime/api/CommandBufferApi.h for the entry points, whose 0.9.8
// signatures differ from the ones that header declares).
#ifndef CL_COMMAND_BUFFER_CONTEXT_KHR
#define CL_COMMAND_BUFFER_CONTEXT_KHR 0x1299
#endif
#ifndef CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR
#define CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR 0x129A
#endif
#ifndef CL_INCOMPATIBLE_COMMAND_QUEUE_KHR
#define CL_INCOMPATIBLE_COMMAND_QUEUE_KHR -1140
#endif
// 0.9.8 moved these two to cl_khr_command_buffer_mutable_dispatch, with the
// same values; 0.9.1 headers have them under cl_khr_command_buffer.
#ifndef CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR
#define CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR (1 << 0)
#endif
#ifndef CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR
#define CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR (1 << 2)
#endif

#endif // CLCPU_RUNTIME_EXTENSIONENUMS_H

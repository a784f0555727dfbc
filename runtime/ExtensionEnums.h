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

// cl_khr_command_buffer_mutable_dispatch 0.9.5, the revision the Khronos CTS
// tests (it skips every other one). The installed cl_ext.h has 0.9.0: its
// cl_mutable_dispatch_arg_khr and cl_mutable_dispatch_exec_info_khr have the
// 0.9.5 layout and are used as they are, its cl_mutable_dispatch_config_khr
// (with `type` and `next`) and CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR
// (1, where 0.9.5 has 0) are not: the 0.9.5 ones are below, in namespace
// clcpu::khr. 0.9.3 renamed CL_MUTABLE_DISPATCH_PROPERTIES_ARRAY_KHR.
#ifndef CL_MUTABLE_COMMAND_PROPERTIES_ARRAY_KHR
#define CL_MUTABLE_COMMAND_PROPERTIES_ARRAY_KHR 0x12A2
#endif
#ifndef CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_KHR
typedef cl_bitfield cl_mutable_dispatch_asserts_khr;
#define CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_KHR 0x12B7
#define CL_MUTABLE_DISPATCH_ASSERTS_KHR 0x12B8
#define CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR (1 << 0)
#endif
// 0.9.5: a command-buffer with a command whose arguments are not all set
// yet. (0.9.1 headers give the value 2 to CL_COMMAND_BUFFER_STATE_PENDING_KHR,
// a state 0.9.5 no longer has.)
#ifndef CL_COMMAND_BUFFER_STATE_FINALIZED_KHR
#define CL_COMMAND_BUFFER_STATE_FINALIZED_KHR 2
#endif
// The 0.9.5 types the installed header lacks or has in another shape, under
// their own names so that a newer cl_ext.h cannot clash with them.
namespace clcpu::khr {
/// cl_command_buffer_update_type_khr of cl_khr_command_buffer_mutable_-
/// dispatch 0.9.2 and later: what each of clUpdateMutableCommandsKHR's
/// configs is.
using CommandBufferUpdateType = cl_uint;
/// CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR of 0.9.2 and later (the
/// installed cl_ext.h's macro has 0.9.0's value, 1).
constexpr CommandBufferUpdateType StructureTypeMutableDispatchConfig = 0;

/// cl_mutable_dispatch_config_khr of 0.9.2 and later: no `type` and `next`
/// fields (0.9.0's chained the configs; 0.9.2 passes an array).
struct MutableDispatchConfig {
  cl_mutable_command_khr command;
  cl_uint num_args;
  cl_uint num_svm_args;
  cl_uint num_exec_infos;
  cl_uint work_dim;
  const cl_mutable_dispatch_arg_khr *arg_list;
  const cl_mutable_dispatch_arg_khr *arg_svm_list;
  const cl_mutable_dispatch_exec_info_khr *exec_info_list;
  const size_t *global_work_offset;
  const size_t *global_work_size;
  const size_t *local_work_size;
};
} // namespace clcpu::khr

#endif // CLCPU_RUNTIME_EXTENSIONENUMS_H

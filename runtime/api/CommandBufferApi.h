#ifndef CLCPU_RUNTIME_API_COMMANDBUFFERAPI_H
#define CLCPU_RUNTIME_API_COMMANDBUFFERAPI_H

// The entry points of cl_khr_command_buffer 0.9.8 and
// cl_khr_command_buffer_mutable_dispatch 0.9.5, the revisions the Khronos
// CTS tests (it skips every other one). Debian bookworm's cl_ext.h
// (opencl-headers 3.0~2023.02.06) declares revision 0.9.1 of them with C
// linkage and other parameter lists (no `properties` argument on the
// clCommand*KHR functions, no SVM commands), so the driver's definitions
// live in this namespace under the registry's names: applications reach them
// only through clGetExtensionFunctionAddressForPlatform (icd/EntryPoints.def,
// CLCPU_KHR_EXTENSION), never by symbol, and a newer cl_ext.h declaring the
// same 0.9.8 prototypes cannot clash with them either. Tests take their
// function-pointer types from here (decltype).

#include "runtime/ExtensionEnums.h"

namespace clcpu::khr {

/// cl_command_properties_khr of cl_khr_command_buffer 0.9.5 and later: the
/// `properties` list of every command-recording entry point.
using CommandProperties = cl_properties;

cl_command_buffer_khr CL_API_CALL clCreateCommandBufferKHR(
    cl_uint num_queues, const cl_command_queue *queues,
    const cl_command_buffer_properties_khr *properties, cl_int *errcode_ret);
cl_int CL_API_CALL
clFinalizeCommandBufferKHR(cl_command_buffer_khr command_buffer);
cl_int CL_API_CALL
clRetainCommandBufferKHR(cl_command_buffer_khr command_buffer);
cl_int CL_API_CALL
clReleaseCommandBufferKHR(cl_command_buffer_khr command_buffer);
cl_int CL_API_CALL clEnqueueCommandBufferKHR(
    cl_uint num_queues, cl_command_queue *queues,
    cl_command_buffer_khr command_buffer, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event);
cl_int CL_API_CALL clCommandBarrierWithWaitListKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const CommandProperties *properties, cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle);
cl_int CL_API_CALL clCommandCopyBufferKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const CommandProperties *properties, cl_mem src_buffer, cl_mem dst_buffer,
    size_t src_offset, size_t dst_offset, size_t size,
    cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle);
cl_int CL_API_CALL clCommandCopyBufferRectKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const CommandProperties *properties, cl_mem src_buffer, cl_mem dst_buffer,
    const size_t *src_origin, const size_t *dst_origin, const size_t *region,
    size_t src_row_pitch, size_t src_slice_pitch, size_t dst_row_pitch,
    size_t dst_slice_pitch, cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle);
cl_int CL_API_CALL clCommandCopyBufferToImageKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const CommandProperties *properties, cl_mem src_buffer, cl_mem dst_image,
    size_t src_offset, const size_t *dst_origin, const size_t *region,
    cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle);
cl_int CL_API_CALL clCommandCopyImageKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const CommandProperties *properties, cl_mem src_image, cl_mem dst_image,
    const size_t *src_origin, const size_t *dst_origin, const size_t *region,
    cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle);
cl_int CL_API_CALL clCommandCopyImageToBufferKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const CommandProperties *properties, cl_mem src_image, cl_mem dst_buffer,
    const size_t *src_origin, const size_t *region, size_t dst_offset,
    cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle);
cl_int CL_API_CALL clCommandFillBufferKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const CommandProperties *properties, cl_mem buffer, const void *pattern,
    size_t pattern_size, size_t offset, size_t size,
    cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle);
cl_int CL_API_CALL clCommandFillImageKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const CommandProperties *properties, cl_mem image, const void *fill_color,
    const size_t *origin, const size_t *region,
    cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle);
cl_int CL_API_CALL clCommandSVMMemcpyKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const CommandProperties *properties, void *dst_ptr, const void *src_ptr,
    size_t size, cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle);
cl_int CL_API_CALL clCommandSVMMemFillKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const CommandProperties *properties, void *svm_ptr, const void *pattern,
    size_t pattern_size, size_t size, cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle);
cl_int CL_API_CALL clCommandNDRangeKernelKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const CommandProperties *properties, cl_kernel kernel, cl_uint work_dim,
    const size_t *global_work_offset, const size_t *global_work_size,
    const size_t *local_work_size, cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle);
cl_int CL_API_CALL clGetCommandBufferInfoKHR(
    cl_command_buffer_khr command_buffer, cl_command_buffer_info_khr param_name,
    size_t param_value_size, void *param_value, size_t *param_value_size_ret);
cl_int CL_API_CALL clUpdateMutableCommandsKHR(
    cl_command_buffer_khr command_buffer, cl_uint num_configs,
    const CommandBufferUpdateType *config_types, const void **configs);
cl_int CL_API_CALL clGetMutableCommandInfoKHR(
    cl_mutable_command_khr command, cl_mutable_command_info_khr param_name,
    size_t param_value_size, void *param_value, size_t *param_value_size_ret);

} // namespace clcpu::khr

#endif

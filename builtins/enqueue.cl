//===- builtins/enqueue.cl - OpenCL C 2.0 6.13.17 device-side enqueue -----===//
//
// The device-enqueue built-ins that are ordinary functions: the ndrange_t
// constructors, get_default_queue, enqueue_marker and the clk_event_t
// functions. enqueue_kernel and the block queries are Clang built-ins,
// which compiler/passes/DeviceEnqueueCalls.cpp rewrites. On the x86 target
// queue_t and clk_event_t are plain pointers: a queue_t is the
// cl_command_queue handle of an on-device queue, a clk_event_t the
// runtime's device event (runtime/DeviceQueue.h). Everything but the
// ndrange_t constructors is the runtime's, reached through the
// clcpu_device_* functions (scheduler/DeviceEnqueue.h).

#include "Builtins.h"

void *clcpu_device_default_queue(void);
int clcpu_device_enqueue_marker(void *Queue, uint NumEvents,
                                const void *WaitList, void *EventRet,
                                int Detailed);
void *clcpu_device_create_user_event(void);
void clcpu_device_set_user_event_status(void *Event, int Status);
void clcpu_device_retain_event(void *Event);
void clcpu_device_release_event(void *Event);
int clcpu_device_is_valid_event(void *Event);
void clcpu_device_capture_profiling_info(void *Event, int Name,
                                         global void *Value);

// ndrange_t: a local size of 0 means "not given" (the runtime picks one, as
// clEnqueueNDRangeKernel with a null local_work_size).
static ndrange_t make_ndrange(uint Dim, const size_t *Offset,
                              const size_t *Global, const size_t *Local) {
  ndrange_t R;
  R.workDimension = Dim;
  for (uint I = 0; I < 3; ++I) {
    R.globalWorkOffset[I] = Offset && I < Dim ? Offset[I] : 0;
    R.globalWorkSize[I] = I < Dim ? Global[I] : 1;
    R.localWorkSize[I] = Local && I < Dim ? Local[I] : (I < Dim ? 0 : 1);
  }
  return R;
}

OVL ndrange_t ndrange_1D(size_t G) {
  return make_ndrange(1, 0, &G, 0);
}
OVL ndrange_t ndrange_1D(size_t G, size_t L) {
  return make_ndrange(1, 0, &G, &L);
}
OVL ndrange_t ndrange_1D(size_t O, size_t G, size_t L) {
  return make_ndrange(1, &O, &G, &L);
}
OVL ndrange_t ndrange_2D(const size_t G[2]) {
  return make_ndrange(2, 0, G, 0);
}
OVL ndrange_t ndrange_2D(const size_t G[2], const size_t L[2]) {
  return make_ndrange(2, 0, G, L);
}
OVL ndrange_t ndrange_2D(const size_t O[2], const size_t G[2],
                         const size_t L[2]) {
  return make_ndrange(2, O, G, L);
}
OVL ndrange_t ndrange_3D(const size_t G[3]) {
  return make_ndrange(3, 0, G, 0);
}
OVL ndrange_t ndrange_3D(const size_t G[3], const size_t L[3]) {
  return make_ndrange(3, 0, G, L);
}
OVL ndrange_t ndrange_3D(const size_t O[3], const size_t G[3],
                         const size_t L[3]) {
  return make_ndrange(3, O, G, L);
}

OVL queue_t get_default_queue(void) {
  return __builtin_astype(clcpu_device_default_queue(), queue_t);
}

OVL int enqueue_marker(queue_t Queue, uint NumEvents,
                       const clk_event_t *WaitList, clk_event_t *EventRet) {
  return clcpu_device_enqueue_marker(__builtin_astype(Queue, void *),
                                     NumEvents, WaitList, EventRet, 0);
}

OVL clk_event_t create_user_event(void) {
  return __builtin_astype(clcpu_device_create_user_event(), clk_event_t);
}

OVL void set_user_event_status(clk_event_t Event, int Status) {
  clcpu_device_set_user_event_status(__builtin_astype(Event, void *), Status);
}

OVL void retain_event(clk_event_t Event) {
  clcpu_device_retain_event(__builtin_astype(Event, void *));
}

OVL void release_event(clk_event_t Event) {
  clcpu_device_release_event(__builtin_astype(Event, void *));
}

OVL bool is_valid_event(clk_event_t Event) {
  return clcpu_device_is_valid_event(__builtin_astype(Event, void *)) != 0;
}

OVL void capture_event_profiling_info(clk_event_t Event,
                                      clk_profiling_info Name,
                                      global void *Value) {
  clcpu_device_capture_profiling_info(__builtin_astype(Event, void *), Name,
                                      Value);
}

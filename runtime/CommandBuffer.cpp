#include "runtime/CommandBuffer.h"
#include "runtime/CommandQueue.h"
#include "runtime/Context.h"
#include "runtime/MutableCommand.h"
#include "scheduler/CommandMemory.h"

#include <algorithm>

namespace clcpu {

namespace {
/// A replay's work: the command-buffer, held (a driver reference) until the
/// replay ran, so releasing it while replays are pending is safe, and the
/// list of works as it was at the enqueue (updates after it make another).
/// std::function copies it, so every copy holds its own reference.
struct ReplayWork : CommandMemory {
  CommandBuffer *B;
  std::shared_ptr<const std::vector<std::function<cl_int()>>> Works;
  ReplayWork(CommandBuffer *B,
             std::shared_ptr<const std::vector<std::function<cl_int()>>> W)
      : B(B), Works(std::move(W)) {
    B->retainInternal();
  }
  ReplayWork(const ReplayWork &O) : B(O.B), Works(O.Works) {
    B->retainInternal();
  }
  ReplayWork &operator=(const ReplayWork &) = delete;
  ~ReplayWork() {
    Works.reset(); // the works before the command-buffer they belong to
    B->releaseInternal();
  }
  cl_int operator()() const { return CommandBuffer::run(*Works); }
};
} // namespace

CommandBuffer::CommandBuffer(CommandQueue *Q,
                             std::vector<cl_command_buffer_properties_khr> P)
    : Queue(Q), Props(std::move(P)) {
  Queue->retainInternal();
  for (size_t I = 0; I + 1 < Props.size(); I += 2)
    if (Props[I] == CL_COMMAND_BUFFER_FLAGS_KHR)
      Mutable = Props[I + 1] & CL_COMMAND_BUFFER_MUTABLE_KHR;
    else if (Props[I] == CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_KHR)
      Asserts = Props[I + 1];
}

CommandBuffer::~CommandBuffer() {
  // The works hold memory objects and kernel code, the mutable-dispatches
  // their kernels: let them go before the queue (and possibly the context)
  // does.
  Commands.reset();
  for (MutableCommand *M : Mutables)
    M->releaseInternal();
  Queue->releaseInternal();
}

Context *CommandBuffer::context() const { return Queue->context(); }

cl_int CommandBuffer::parseProperties(
    const cl_command_buffer_properties_khr *List, Context *C,
    std::vector<cl_command_buffer_properties_khr> &Props) {
  Props.clear();
  if (!List)
    return CL_SUCCESS;
  bool SeenFlags = false, SeenAsserts = false;
  for (size_t I = 0; List[I] != 0; I += 2) {
    cl_command_buffer_properties_khr Name = List[I];
    // CL_INVALID_VALUE if values specified in properties are not valid, or
    // if the same property name is specified more than once.
    bool &Seen = Name == CL_COMMAND_BUFFER_FLAGS_KHR ? SeenFlags : SeenAsserts;
    if (Name != CL_COMMAND_BUFFER_FLAGS_KHR &&
        Name != CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_KHR)
      return fail(CL_INVALID_VALUE,
                  "unknown command-buffer property " + std::to_string(Name), C);
    if (Seen)
      return fail(CL_INVALID_VALUE,
                  "command-buffer property " + std::to_string(Name) +
                      " given twice",
                  C);
    Seen = true;
    // Read only once the name is known to take a value: an unknown name may
    // be the list's last entry.
    cl_command_buffer_properties_khr Value = List[I + 1];
    if (Name == CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_KHR &&
        (Value & ~cl_mutable_dispatch_asserts_khr(
                     CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR)))
      return fail(CL_INVALID_VALUE,
                  "unknown bits in CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_"
                  "KHR: " +
                      std::to_string(Value),
                  C);
    // CL_COMMAND_BUFFER_DEVICE_SIDE_SYNC_KHR (cl_khr_command_buffer_multi_-
    // device) is a flag the registry defines.
    constexpr cl_command_buffer_flags_khr DeviceSync = 1 << 2;
    if (Name == CL_COMMAND_BUFFER_FLAGS_KHR &&
        (Value & ~cl_command_buffer_flags_khr(
                     CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR |
                     CL_COMMAND_BUFFER_MUTABLE_KHR | DeviceSync)))
      return fail(CL_INVALID_VALUE,
                  "unknown bits in CL_COMMAND_BUFFER_FLAGS_KHR: " +
                      std::to_string(Value),
                  C);
    // CL_INVALID_PROPERTY if values specified in properties are valid but
    // are not supported by all the devices associated with command-queues
    // in queues. (Simultaneous use is: a replay runs the works of its
    // enqueue. Mutable command-buffers are: cl_khr_command_buffer_mutable_-
    // dispatch.)
    if (Name == CL_COMMAND_BUFFER_FLAGS_KHR && (Value & DeviceSync))
      return fail(CL_INVALID_PROPERTY,
                  "multi-device command-buffers are not supported", C);
    Props.push_back(Name);
    Props.push_back(Value);
  }
  Props.push_back(0);
  return CL_SUCCESS;
}

cl_int CommandBuffer::checkSubstitute(cl_command_queue H,
                                      CommandQueue *&Q) const {
  // CL_INVALID_COMMAND_QUEUE if any element of queues is not a valid
  // command-queue.
  Q = CommandQueue::fromHandle(H);
  if (!Q)
    return fail(CL_INVALID_COMMAND_QUEUE,
                "queues[0] is not a valid command-queue", context());
  // CL_INVALID_DEVICE if any element of queues does not have the same device
  // as the command-queue set on command_buffer creation at the same list
  // index.
  if (Q->device() != Queue->device())
    return fail(CL_INVALID_DEVICE,
                "queues[0] has another device than the command-buffer's queue",
                context());
  // CL_INVALID_CONTEXT if any element of queues does not have the same
  // context as the command-queue set on command_buffer creation at the same
  // list index.
  if (Q->context() != context())
    return fail(CL_INVALID_CONTEXT,
                "queues[0] has another context than the command-buffer's "
                "queue",
                context());
  // CL_INCOMPATIBLE_COMMAND_QUEUE_KHR if the properties of any command-queue
  // in queues contains a property not specified by
  // CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR, or does not
  // contain the minimum properties specified by
  // CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR: every host queue
  // property is supported and none is required (runtime/Device.cpp), so any
  // queue of the device qualifies.
  return CL_SUCCESS;
}

cl_int CommandBuffer::checkSyncPoints(cl_uint N,
                                      const cl_sync_point_khr *List) const {
  // CL_INVALID_SYNC_POINT_WAIT_LIST_KHR if sync_point_wait_list is NULL and
  // num_sync_points_in_wait_list is > 0, or sync_point_wait_list is not NULL
  // and num_sync_points_in_wait_list is 0, or if synchronization-point
  // objects in sync_point_wait_list are not valid synchronization-points.
  if (!List && N > 0)
    return fail(CL_INVALID_SYNC_POINT_WAIT_LIST_KHR,
                "sync_point_wait_list is NULL but "
                "num_sync_points_in_wait_list is " +
                    std::to_string(N),
                context());
  if (List && N == 0)
    return fail(CL_INVALID_SYNC_POINT_WAIT_LIST_KHR,
                "sync_point_wait_list is not NULL but "
                "num_sync_points_in_wait_list is 0",
                context());
  // A sync point is its command's position plus one: valid ones name a
  // command recorded into this command-buffer before.
  size_t Recorded;
  {
    std::lock_guard<std::mutex> G(Lock);
    Recorded = Commands->size();
  }
  for (cl_uint I = 0; I < N; ++I)
    if (List[I] == 0 || List[I] > Recorded)
      return fail(CL_INVALID_SYNC_POINT_WAIT_LIST_KHR,
                  "sync_point_wait_list[" + std::to_string(I) + "] (" +
                      std::to_string(List[I]) +
                      ") is not a sync point of this command-buffer",
                  context());
  return CL_SUCCESS;
}

cl_int CommandBuffer::record(std::function<cl_int()> Work,
                             cl_sync_point_khr *SyncPoint, MutableCommand *M) {
  {
    std::lock_guard<std::mutex> G(Lock);
    if (!finalized()) {
      if (M) {
        M->setIndex(Commands->size());
        Mutables.push_back(M);
        Incomplete += !M->complete();
      }
      Commands->push_back(std::move(Work));
      if (SyncPoint)
        *SyncPoint = static_cast<cl_sync_point_khr>(Commands->size());
      return CL_SUCCESS;
    }
  }
  if (M)
    M->releaseInternal();
  // CL_INVALID_OPERATION if command_buffer has been finalized. (Reported
  // outside the lock: fail() calls the application's pfn_notify.)
  return fail(CL_INVALID_OPERATION, "command_buffer has been finalized",
              context());
}

cl_int CommandBuffer::finalize() {
  bool Was;
  {
    std::lock_guard<std::mutex> G(Lock);
    Was = Finalized.exchange(true, std::memory_order_acq_rel);
  }
  // CL_INVALID_OPERATION if command_buffer is not in the Recording state.
  if (Was)
    return fail(CL_INVALID_OPERATION,
                "command_buffer is not in the recording state (it was "
                "finalized before)",
                context());
  return CL_SUCCESS;
}

cl_int CommandBuffer::enqueue(CommandQueue *Q, std::span<Event *const> Waits,
                              cl_event *EventOut) {
  std::shared_ptr<const Works> W;
  {
    std::lock_guard<std::mutex> G(Lock);
    W = Commands;
  }
  return Q->enqueueChecked(CL_COMMAND_COMMAND_BUFFER_KHR, Waits,
                           CommandQueue::Sync::None, EventOut,
                           /*Blocking=*/false, ReplayWork(this, std::move(W)));
}

cl_int CommandBuffer::run(const std::vector<std::function<cl_int()>> &Ws) {
  for (const std::function<cl_int()> &Work : Ws)
    if (cl_int Err = Work(); Err < 0)
      return Err;
  return CL_SUCCESS;
}

bool CommandBuffer::executable() const {
  std::lock_guard<std::mutex> G(Lock);
  return finalized() && Incomplete == 0;
}

cl_int CommandBuffer::update(
    std::span<MutableCommand *const> Cmds,
    std::span<const khr::MutableDispatchConfig *const> Configs) {
  std::lock_guard<std::mutex> U(UpdateLock);
  // Every config is checked and its work made first, on copies of the
  // commands' configurations: "Otherwise, none of the updates to
  // mutable-command objects are preserved". A command in several configs
  // gets them in order.
  struct Staged {
    MutableCommand *M;
    MutableCommand::Config S;
    std::function<cl_int()> Work;
  };
  std::vector<Staged> All;
  for (size_t I = 0; I < Cmds.size(); ++I) {
    auto It = std::find_if(All.begin(), All.end(),
                           [&](const Staged &St) { return St.M == Cmds[I]; });
    if (It == All.end()) {
      All.push_back({Cmds[I], Cmds[I]->config(), {}});
      It = All.end() - 1;
    }
    if (cl_int Err = Cmds[I]->update(*Configs[I], It->S, It->Work))
      return Err;
  }
  if (All.empty())
    return CL_SUCCESS;
  // Only updates replace the list, and they hold UpdateLock: the list read
  // here is the current one until the new one is stored.
  std::shared_ptr<Works> Old;
  {
    std::lock_guard<std::mutex> G(Lock);
    Old = Commands;
  }
  auto New = std::make_shared<Works>(*Old);
  ptrdiff_t Completed = 0;
  for (Staged &St : All) {
    (*New)[St.M->index()] = std::move(St.Work);
    cl_uint Missing = 0;
    Completed +=
        ptrdiff_t(St.S.Args.complete(Missing)) - ptrdiff_t(St.M->complete());
    St.M->commit(std::move(St.S));
  }
  std::lock_guard<std::mutex> G(Lock);
  Commands = std::move(New);
  Incomplete -= Completed;
  return CL_SUCCESS;
}

cl_int CommandBuffer::getInfo(cl_command_buffer_info_khr Param,
                              InfoOut Out) const {
  switch (Param) {
  case CL_COMMAND_BUFFER_QUEUES_KHR:
    return Out.value<cl_command_queue>(Queue->handle());
  case CL_COMMAND_BUFFER_NUM_QUEUES_KHR:
    return Out.value<cl_uint>(1);
  case CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR:
    return Out.value<cl_uint>(referenceCount());
  case CL_COMMAND_BUFFER_STATE_KHR:
    // Finalized: "there is at least one command for which not all arguments
    // or parameters have been set" (a mutable-dispatch recorded before its
    // kernel's arguments were).
    return Out.value<cl_command_buffer_state_khr>(
        !finalized()   ? CL_COMMAND_BUFFER_STATE_RECORDING_KHR
        : executable() ? CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR
                       : CL_COMMAND_BUFFER_STATE_FINALIZED_KHR);
  case CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR:
    return Out.array(Props);
  case CL_COMMAND_BUFFER_CONTEXT_KHR:
    return Out.value<cl_context>(context()->handle());
  default:
    return unknownParam(Param, context());
  }
}

} // namespace clcpu

#include "runtime/MutableCommand.h"
#include "runtime/CommandBuffer.h"
#include "runtime/CommandQueue.h"
#include "runtime/Context.h"
#include "runtime/api/CommandWork.h"

#include <string>

namespace clcpu {

MutableCommand::MutableCommand(CommandBuffer *B, Kernel *Kn,
                               std::vector<cl_properties> P,
                               cl_mutable_dispatch_fields_khr U)
    : Buffer(B), K(Kn), Props(std::move(P)), Updatable(U) {
  K->retainInternal();
}

MutableCommand::~MutableCommand() { K->releaseInternal(); }

Context *MutableCommand::context() const { return Buffer->context(); }

cl_int MutableCommand::makeWork(Config &S,
                                std::function<cl_int()> &Work) const {
  CommandQueue *Q = Buffer->queue();
  LaunchDescription R;
  bool Empty = false;
  if (cl_int Err = planNDRange(Q, K, S.WorkDim, S.Offset, S.Global,
                               S.HasLocal ? S.Local : nullptr, R, Empty))
    return Err;
  S.Empty = Empty;
  S.Uniform = true;
  for (cl_uint D = 0; !Empty && D < S.WorkDim; ++D)
    S.Uniform &= R.GlobalSize[D] % R.EnqueuedLocalSize[D] == 0;
  cl_uint Missing = 0;
  if (!S.Args.complete(Missing)) {
    // Not run: a command-buffer with this command is not executable
    // (CommandBuffer::executable), so no replay reaches it.
    Work = [] { return CL_INVALID_KERNEL_ARGS; };
    return CL_SUCCESS;
  }
  if (Empty) {
    Work = [] { return CL_SUCCESS; };
    return CL_SUCCESS;
  }
  std::shared_ptr<KernelLaunch> L;
  if (cl_int Err = K->prepare(Q, R, S.Args, L))
    return Err;
  Work = [L = std::move(L)] { return runLaunch(*L); };
  return CL_SUCCESS;
}

cl_int MutableCommand::record(cl_uint work_dim,
                              const size_t *global_work_offset,
                              const size_t *global_work_size,
                              const size_t *local_work_size,
                              std::function<cl_int()> &Work) {
  Config S;
  // "Any changes to kernel after calling clCommandNDRangeKernelKHR, such as
  // with clSetKernelArg or clSetKernelExecInfo, have no effect on the
  // recorded command."
  S.Args = K->argState();
  S.WorkDim = work_dim;
  for (cl_uint D = 0; D < work_dim; ++D) {
    S.Offset[D] = global_work_offset ? global_work_offset[D] : 0;
    S.Global[D] = global_work_size ? global_work_size[D] : 0;
    S.Local[D] = local_work_size ? local_work_size[D] : 0;
  }
  S.HasLocal = local_work_size != nullptr;
  if (cl_int Err = makeWork(S, Work))
    return Err;
  std::lock_guard<std::mutex> G(Lock);
  Cur = std::move(S);
  return CL_SUCCESS;
}

cl_int MutableCommand::update(const khr::MutableDispatchConfig &C, Config &S,
                              std::function<cl_int()> &Work) const {
  Context *Ctx = context();
  // CL_INVALID_OPERATION if work_dim is not zero and different from the
  // work_dim set on command recording.
  if (C.work_dim != 0 && C.work_dim != S.WorkDim)
    return fail(CL_INVALID_OPERATION,
                "work_dim " + std::to_string(C.work_dim) +
                    " differs from the command's " + std::to_string(S.WorkDim),
                Ctx);
  struct FieldUse {
    bool Used;
    cl_mutable_dispatch_fields_khr Field;
    const char *What;
  };
  const FieldUse Uses[] = {
      // CL_INVALID_OPERATION if the CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR
      // property was not set on command recording and global_work_offset is
      // not NULL.
      {C.global_work_offset != nullptr, CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR,
       "global_work_offset"},
      // CL_INVALID_OPERATION if the CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR
      // property was not set on command recording and global_work_size is
      // not NULL.
      {C.global_work_size != nullptr, CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR,
       "global_work_size"},
      // CL_INVALID_OPERATION if the CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR
      // property was not set on command recording and local_work_size is not
      // NULL.
      {C.local_work_size != nullptr, CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR,
       "local_work_size"},
      // CL_INVALID_OPERATION if the CL_MUTABLE_DISPATCH_ARGUMENTS_KHR
      // property was not set on command recording and num_args or
      // num_svm_args is non-zero.
      {C.num_args != 0 || C.num_svm_args != 0,
       CL_MUTABLE_DISPATCH_ARGUMENTS_KHR, "num_args or num_svm_args"},
      // CL_INVALID_OPERATION if the CL_MUTABLE_DISPATCH_EXEC_INFO_KHR
      // property was not set on command recording and num_exec_infos is
      // non-zero.
      {C.num_exec_infos != 0, CL_MUTABLE_DISPATCH_EXEC_INFO_KHR,
       "num_exec_infos"},
  };
  for (const FieldUse &U : Uses)
    if (U.Used && !(Updatable & U.Field))
      return fail(CL_INVALID_OPERATION,
                  std::string(U.What) +
                      " is given but the command was not recorded with it in "
                      "CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR",
                  Ctx);
  // CL_INVALID_VALUE if arg_list is NULL and num_args > 0, or arg_list is
  // not NULL and num_args is 0.
  if (!C.arg_list != (C.num_args == 0))
    return fail(CL_INVALID_VALUE, "arg_list and num_args disagree", Ctx);
  // CL_INVALID_VALUE if arg_svm_list is NULL and num_svm_args > 0, or
  // arg_svm_list is not NULL and num_svm_args is 0.
  if (!C.arg_svm_list != (C.num_svm_args == 0))
    return fail(CL_INVALID_VALUE, "arg_svm_list and num_svm_args disagree",
                Ctx);
  // CL_INVALID_VALUE if exec_info_list is NULL and num_exec_infos > 0, or
  // exec_info_list is not NULL and num_exec_infos is 0.
  if (!C.exec_info_list != (C.num_exec_infos == 0))
    return fail(CL_INVALID_VALUE, "exec_info_list and num_exec_infos disagree",
                Ctx);
  // "the errors defined by clEnqueueNDRangeKernel, clSetKernelExecInfo,
  // clSetKernelArg, and clSetKernelArgSVMPointer are returned by
  // clUpdateMutableCommandsKHR if any of the struct elements are set to an
  // invalid value."
  for (cl_uint I = 0; I < C.num_args; ++I) {
    const cl_mutable_dispatch_arg_khr &A = C.arg_list[I];
    Kernel::ArgValue V;
    if (cl_int Err = K->checkArg(A.arg_index, A.arg_size, A.arg_value, V))
      return Err;
    S.Args.Args[A.arg_index] = std::move(V);
  }
  // "arg_size is ignored" for SVM arguments.
  for (cl_uint I = 0; I < C.num_svm_args; ++I) {
    const cl_mutable_dispatch_arg_khr &A = C.arg_svm_list[I];
    Kernel::ArgValue V;
    if (cl_int Err = K->checkArgSvm(A.arg_index, A.arg_value, V))
      return Err;
    S.Args.Args[A.arg_index] = std::move(V);
  }
  for (cl_uint I = 0; I < C.num_exec_infos; ++I) {
    const cl_mutable_dispatch_exec_info_khr &E = C.exec_info_list[I];
    if (cl_int Err = K->setExecInfoIn(S.Args, E.param_name, E.param_value_size,
                                      E.param_value))
      return Err;
  }
  // NULL sizes leave the command's as they are.
  const bool OldEmpty = S.Empty, OldUniform = S.Uniform;
  for (cl_uint D = 0; D < S.WorkDim; ++D) {
    if (C.global_work_offset)
      S.Offset[D] = C.global_work_offset[D];
    if (C.global_work_size)
      S.Global[D] = C.global_work_size[D];
    if (C.local_work_size)
      S.Local[D] = C.local_work_size[D];
  }
  if (C.local_work_size)
    S.HasLocal = true;
  if (cl_int Err = makeWork(S, Work))
    return Err;
  // CL_INVALID_OPERATION if the values of local_work_size and/or
  // global_work_size result in a change to work-group uniformity. (An
  // NDRange without work-items has no work-group to compare.)
  if (!OldEmpty && !S.Empty && OldUniform != S.Uniform)
    return fail(CL_INVALID_OPERATION,
                std::string("the new sizes make the work-groups ") +
                    (S.Uniform ? "uniform" : "non-uniform") +
                    ", the command's were not",
                Ctx);
  return CL_SUCCESS;
}

MutableCommand::Config MutableCommand::config() const {
  std::lock_guard<std::mutex> G(Lock);
  return Cur;
}

void MutableCommand::commit(Config S) {
  std::lock_guard<std::mutex> G(Lock);
  Cur = std::move(S);
}

bool MutableCommand::complete() const {
  std::lock_guard<std::mutex> G(Lock);
  cl_uint Missing = 0;
  return Cur.Args.complete(Missing);
}

cl_int MutableCommand::getInfo(cl_mutable_command_info_khr Param,
                               InfoOut Out) const {
  std::lock_guard<std::mutex> G(Lock);
  const std::vector<size_t> Offset(Cur.Offset, Cur.Offset + Cur.WorkDim),
      Global(Cur.Global, Cur.Global + Cur.WorkDim),
      Local(Cur.Local, Cur.Local + Cur.WorkDim);
  switch (Param) {
  case CL_MUTABLE_COMMAND_COMMAND_QUEUE_KHR:
    // "If NULL was passed as the queue when command was recorded, then the
    // queue associated with the command-buffer that command belongs to is
    // returned." (It must be NULL without cl_khr_command_buffer_multi_-
    // device.)
    return Out.value<cl_command_queue>(Buffer->queue()->handle());
  case CL_MUTABLE_COMMAND_COMMAND_BUFFER_KHR:
    return Out.value<cl_command_buffer_khr>(Buffer->handle());
  case CL_MUTABLE_COMMAND_COMMAND_TYPE_KHR:
    return Out.value<cl_command_type>(CL_COMMAND_NDRANGE_KERNEL);
  case CL_MUTABLE_COMMAND_PROPERTIES_ARRAY_KHR:
    // "If the properties argument specified on creation of command was
    // NULL, the implementation must return param_value_size_ret equal to
    // 0."
    return Out.array(Props);
  case CL_MUTABLE_DISPATCH_KERNEL_KHR:
    return Out.value<cl_kernel>(K->handle());
  case CL_MUTABLE_DISPATCH_DIMENSIONS_KHR:
    return Out.value<cl_uint>(Cur.WorkDim);
  // "The output array contains work_dim values"; zeros for what was not
  // set.
  case CL_MUTABLE_DISPATCH_GLOBAL_WORK_OFFSET_KHR:
    return Out.array(Offset);
  case CL_MUTABLE_DISPATCH_GLOBAL_WORK_SIZE_KHR:
    return Out.array(Global);
  case CL_MUTABLE_DISPATCH_LOCAL_WORK_SIZE_KHR:
    return Out.array(Local);
  default:
    return unknownParam(Param, context());
  }
}

} // namespace clcpu

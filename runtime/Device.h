#ifndef CLCPU_RUNTIME_DEVICE_H
#define CLCPU_RUNTIME_DEVICE_H

#include "runtime/Info.h"
#include "runtime/Object.h"

#include <mutex>
#include <string>
#include <vector>

namespace clcpu {

class Executor;

/// A CPU device: the whole machine (root device) or a set of its cores
/// (sub-device from clCreateSubDevices). Everything it reports is computed
/// once at creation from the topology and the CPU's vector ISA.
/// Thread-safe: immutable after creation apart from reference counts.
class Device : public Object<Device, _cl_device_id, ObjectKind::Device> {
public:
  /// The machine-wide device of \p P.
  static Device *createRoot(Platform *P);

  bool isRoot() const { return Parent == nullptr; }
  Platform *platform() const { return Plat; }
  Device *parent() const { return Parent; }
  /// OS indices of the cores this device runs on; one compute unit each.
  const std::vector<unsigned> &cpus() const { return Cpus; }
  cl_uint computeUnits() const { return static_cast<cl_uint>(Cpus.size()); }

  cl_int getInfo(cl_device_info Param, InfoOut Out) const;

  /// clCreateSubDevices: \p Props is the zero-terminated property list.
  /// On success appends the new sub-devices (each with one application
  /// reference) to \p Out.
  cl_int partition(const cl_device_partition_property *Props,
                   std::vector<Device *> &Out);
  /// Number of sub-devices \p Props would create, or an error.
  cl_int partitionCount(const cl_device_partition_property *Props,
                        cl_uint &Count);

  /// Root devices are never destroyed; retain/release have no effect on them
  /// ("If device is a root level device, the reference count is unchanged").
  void retainDevice();
  /// False if the application holds no reference to this sub-device.
  [[nodiscard]] bool releaseDevice();

  ~Device() override;

  /// Affinity domains this device can be split by (bit set).
  cl_device_affinity_domain affinityDomains() const;

  /// Runs this device's commands (scheduler/Executor.h): created on first
  /// use, one worker per core, no more than the CPU quota pays for
  /// (Topology::quotaWorkers; CLCPU_NUM_THREADS chooses fewer), workers
  /// pinned to cpus(). Shared by devices with the same cores; never
  /// destroyed.
  Executor &executor();
  /// CL_DEVICE_LOCAL_MEM_SIZE (every launch checks against it).
  static cl_ulong localMemSize();

private:
  Device(Platform *P, Device *Parent, std::vector<unsigned> Cpus,
         std::vector<cl_device_partition_property> PartitionType);
  cl_int planPartition(const cl_device_partition_property *Props,
                       std::vector<std::vector<unsigned>> &Groups,
                       std::vector<cl_device_partition_property> &Type) const;

  Platform *Plat;
  Device *Parent;
  std::vector<unsigned> Cpus;
  std::vector<cl_device_partition_property> PartitionType;
  std::string Name;
  std::once_flag ExecutorOnce;
  Executor *Exec = nullptr;
};

/// The handles of \p Devs, in order: what CL_CONTEXT_DEVICES and
/// CL_PROGRAM_DEVICES report.
std::vector<cl_device_id> deviceHandles(const std::vector<Device *> &Devs);

} // namespace clcpu

#endif

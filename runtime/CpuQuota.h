#ifndef CLCPU_RUNTIME_CPUQUOTA_H
#define CLCPU_RUNTIME_CPUQUOTA_H

#include <optional>
#include <string>

namespace clcpu {

/// The CPU time the process's control groups allow, in CPUs: the lowest
/// quota / period along the process's cgroup and its ancestors, read from
/// cgroup v2's `cpu.max` ("200000 100000": two CPUs) or cgroup v1's
/// `cpu.cfs_quota_us` and `cpu.cfs_period_us`. A container started with
/// `--cpus=2` or a systemd unit with `CPUQuota=200%` reads 2.0. Empty when
/// no level sets a quota or the files cannot be read.
///
/// \p CgroupFile is the process's `/proc/self/cgroup`; \p MountInfoFile its
/// `/proc/self/mountinfo`, which says where each hierarchy is mounted and
/// which of its directories the mount shows (inside a container, usually
/// the container's own cgroup).
std::optional<double>
cgroupCpuLimit(const std::string &CgroupFile = "/proc/self/cgroup",
               const std::string &MountInfoFile = "/proc/self/mountinfo");

} // namespace clcpu

#endif

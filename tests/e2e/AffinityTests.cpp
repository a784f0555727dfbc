// End-to-end: the device is the CPUs the process may use (OpenCL 3.0 API
// spec, 4.2 "Querying Devices": CL_DEVICE_MAX_COMPUTE_UNITS; 4.3
// "Partitioning a Device" by CL_DEVICE_AFFINITY_DOMAIN_NUMA). Each case
// starts tests/e2e/DeviceProbeMain.cpp in a process of its own, since the
// driver reads the affinity mask and the topology once per process.

#include "Common.h"

#include <catch2/catch.hpp>

#include <sched.h>

#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct ProbeRun {
  int Status = -1;
  std::string Output; // stdout and stderr
  unsigned ComputeUnits = 0;
  std::vector<unsigned> SubDevices;
  std::vector<std::set<unsigned>> ThreadCpus;
};

/// "0-2,5" -> {0, 1, 2, 5}.
std::set<unsigned> parseCpuList(const std::string &List) {
  std::set<unsigned> Cpus;
  std::istringstream In(List);
  for (std::string Part; std::getline(In, Part, ',');) {
    size_t Dash = Part.find('-');
    unsigned Lo = std::stoul(Part.substr(0, Dash));
    unsigned Hi =
        Dash == std::string::npos ? Lo : std::stoul(Part.substr(Dash + 1));
    for (unsigned C = Lo; C <= Hi; ++C)
      Cpus.insert(C);
  }
  return Cpus;
}

/// Runs the probe through sh with \p Prefix (environment assignments,
/// taskset) before it and \p Args after it.
ProbeRun probe(const std::string &Prefix, const std::string &Args = "") {
  ProbeRun R;
  std::string Cmd = Prefix + " '" CLCPU_DEVICE_PROBE "' " + Args + " 2>&1";
  FILE *P = popen(Cmd.c_str(), "r");
  REQUIRE(P);
  char Buf[512];
  while (std::fgets(Buf, sizeof Buf, P))
    R.Output += Buf;
  R.Status = pclose(P);
  std::istringstream In(R.Output);
  for (std::string Line; std::getline(In, Line);) {
    std::istringstream L(Line);
    std::string Key;
    L >> Key;
    if (Key == "compute_units") {
      L >> R.ComputeUnits;
    } else if (Key == "sub_devices") {
      for (unsigned N; L >> N;)
        R.SubDevices.push_back(N);
    } else if (Key == "thread") {
      std::string Tid, List;
      L >> Tid >> List;
      R.ThreadCpus.push_back(parseCpuList(List));
    }
  }
  INFO(Cmd);
  INFO(R.Output);
  CHECK(R.Status == 0);
  return R;
}

/// The CPUs this test process may run on.
std::vector<unsigned> allowedCpus() {
  cpu_set_t Set;
  CPU_ZERO(&Set);
  std::vector<unsigned> Cpus;
  if (sched_getaffinity(0, sizeof Set, &Set) == 0)
    for (unsigned C = 0; C < CPU_SETSIZE; ++C)
      if (CPU_ISSET(C, &Set))
        Cpus.push_back(C);
  return Cpus;
}

} // namespace

TEST_CASE("Affinity mask: under taskset with one CPU the device has one "
          "compute unit and every thread stays on that CPU (issue: workers "
          "pinned outside the process's mask)",
          "[affinity]") {
  std::vector<unsigned> Cpus = allowedCpus();
  REQUIRE(!Cpus.empty());
  unsigned Cpu = Cpus.back();
  ProbeRun R = probe("taskset -c " + std::to_string(Cpu));
  INFO(R.Output);
  CHECK(R.ComputeUnits == 1);
  REQUIRE(!R.ThreadCpus.empty());
  for (const std::set<unsigned> &T : R.ThreadCpus)
    CHECK(T == std::set<unsigned>{Cpu});
}

TEST_CASE("Affinity mask: the device has one compute unit per CPU of the "
          "mask, and the workers stay inside it",
          "[affinity]") {
  std::vector<unsigned> Cpus = allowedCpus();
  if (Cpus.size() < 2) {
    WARN("needs 2 CPUs");
    return;
  }
  // The first and the last CPU: a mask with a hole in it where the
  // machine has more than two.
  std::set<unsigned> Mask{Cpus.front(), Cpus.back()};
  ProbeRun R = probe("taskset -c " + std::to_string(Cpus.front()) + "," +
                     std::to_string(Cpus.back()));
  INFO(R.Output);
  CHECK(R.ComputeUnits == 2);
  for (const std::set<unsigned> &T : R.ThreadCpus)
    for (unsigned C : T)
      CHECK(Mask.count(C) == 1);
}

TEST_CASE("CLCPU_NUM_THREADS above the CPUs of the mask: a warning, and the "
          "device runs with one worker per CPU",
          "[affinity]") {
  unsigned Cpu = allowedCpus().back();
  ProbeRun R = probe("CLCPU_NUM_THREADS=8 taskset -c " + std::to_string(Cpu));
  INFO(R.Output);
  CHECK(R.ComputeUnits == 1);
  CHECK(R.Output.find("warning: CLCPU_NUM_THREADS=8 exceeds the 1 CPUs") !=
        std::string::npos);
  for (const std::set<unsigned> &T : R.ThreadCpus)
    CHECK(T == std::set<unsigned>{Cpu});
}

TEST_CASE("4.3: a synthetic two-node topology (HWLOC_SYNTHETIC) splits by "
          "CL_DEVICE_AFFINITY_DOMAIN_NUMA into one sub-device per node",
          "[affinity]") {
  ProbeRun R = probe("HWLOC_SYNTHETIC='package:1 numa:2 core:3 pu:1'", "numa");
  INFO(R.Output);
  CHECK(R.ComputeUnits == 6);
  CHECK(R.SubDevices == std::vector<unsigned>{3, 3});
  // Another machine's topology binds nothing: the threads keep the test
  // process's own CPUs.
  std::vector<unsigned> Own = allowedCpus();
  std::set<unsigned> OwnSet(Own.begin(), Own.end());
  for (const std::set<unsigned> &T : R.ThreadCpus)
    CHECK(T == OwnSet);
}

TEST_CASE("A cgroup CPU quota below one CPU: one worker, logged (skipped "
          "where the test cannot create a cgroup)",
          "[affinity]") {
  // cgroup v1's cpu controller or cgroup v2's unified tree, whichever this
  // machine mounts; creating a child needs root and a writable hierarchy.
  std::string Dir;
  std::string Setup;
  for (const char *Root : {"/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu,cpuacct"})
    if (std::system(
            ("test -w " + std::string(Root) + "/cpu.cfs_quota_us").c_str()) ==
        0) {
      Dir = std::string(Root) + "/clcpu-quota-test";
      Setup = "echo 50000 > " + Dir + "/cpu.cfs_quota_us && echo 100000 > " +
              Dir + "/cpu.cfs_period_us";
      break;
    }
  if (Dir.empty() &&
      std::system("grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control "
                  "2>/dev/null && test -w /sys/fs/cgroup") == 0) {
    Dir = "/sys/fs/cgroup/clcpu-quota-test";
    Setup = "echo '50000 100000' > " + Dir + "/cpu.max";
  }
  if (Dir.empty() || std::system(("mkdir -p " + Dir + " 2>/dev/null && " +
                                  Setup + " 2>/dev/null")
                                     .c_str()) != 0) {
    WARN("no writable cgroup hierarchy with the cpu controller");
    return;
  }
  // A container may let the test create the cgroup but not move into it.
  if (std::system(
          ("sh -c 'echo $$ > " + Dir + "/cgroup.procs' 2>/dev/null").c_str()) !=
      0) {
    (void)std::system(("rmdir " + Dir + " 2>/dev/null").c_str());
    WARN("cannot move a process into " + Dir);
    return;
  }
  // The shell moves itself into the cgroup, then runs the probe there.
  ProbeRun R = probe("echo $$ > " + Dir + "/cgroup.procs && CLCPU_LOG=1");
  // Empty again once the probe's shell exited.
  (void)std::system(("rmdir " + Dir + " 2>/dev/null").c_str());
  INFO(R.Output);
  CHECK(R.Output.find("cgroup CPU quota: 0.5") != std::string::npos);
  CHECK(R.Output.find("at most 1 workers") != std::string::npos);
}

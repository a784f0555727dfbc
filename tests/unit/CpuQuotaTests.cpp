// Unit tests for runtime/CpuQuota: the CPU quota of the process's cgroups
// (cgroup v2 cpu.max, cgroup v1 cpu.cfs_quota_us / cpu.cfs_period_us), read
// from a fake /proc/self/cgroup, /proc/self/mountinfo and cgroup tree.

#include "runtime/CpuQuota.h"

#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

using namespace clcpu;
namespace fs = std::filesystem;

namespace {

/// A scratch directory with the two /proc files and a cgroup tree.
struct FakeCgroups {
  fs::path Root;
  FakeCgroups() {
    Root = fs::temp_directory_path() /
           ("clcpu-quota-" + std::to_string(::getpid()) + "-" +
            std::to_string(Counter++));
    fs::remove_all(Root);
    fs::create_directories(Root);
  }
  ~FakeCgroups() { fs::remove_all(Root); }
  void write(const std::string &Rel, const std::string &Text) {
    fs::path P = Root / Rel;
    fs::create_directories(P.parent_path());
    std::ofstream(P) << Text;
  }
  std::string mount() const { return (Root / "sys/fs/cgroup").string(); }
  std::optional<double> limit() const {
    return cgroupCpuLimit((Root / "cgroup").string(),
                          (Root / "mountinfo").string());
  }
  static inline int Counter = 0;
};

} // namespace

TEST_CASE("cgroup v2: cpu.max of the process's cgroup", "[quota]") {
  FakeCgroups F;
  F.write("cgroup", "0::/app.slice/job\n");
  F.write("mountinfo", "30 22 0:27 / " + F.mount() +
                           " rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n");
  F.write("sys/fs/cgroup/app.slice/job/cpu.max", "250000 100000\n");
  REQUIRE(F.limit());
  CHECK(*F.limit() == Approx(2.5));
}

TEST_CASE("cgroup v2: the lowest quota along the path bounds the process, "
          "'max' is no limit",
          "[quota]") {
  FakeCgroups F;
  F.write("cgroup", "0::/a/b\n");
  F.write("mountinfo",
          "30 22 0:27 / " + F.mount() + " rw - cgroup2 cgroup2 rw\n");
  F.write("sys/fs/cgroup/a/b/cpu.max", "max 100000\n");
  CHECK_FALSE(F.limit());
  F.write("sys/fs/cgroup/a/cpu.max", "50000 100000\n");
  REQUIRE(F.limit());
  CHECK(*F.limit() == Approx(0.5));
  F.write("sys/fs/cgroup/a/b/cpu.max", "30000 100000\n");
  CHECK(*F.limit() == Approx(0.3));
}

TEST_CASE("cgroup v2 in a container: the mount shows the container's own "
          "cgroup",
          "[quota]") {
  FakeCgroups F;
  // The container's cgroup /docker/abc is mounted as the root of its view.
  F.write("cgroup", "0::/docker/abc\n");
  F.write("mountinfo",
          "30 22 0:27 /docker/abc " + F.mount() + " rw - cgroup2 cgroup2 rw\n");
  F.write("sys/fs/cgroup/cpu.max", "400000 100000\n");
  REQUIRE(F.limit());
  CHECK(*F.limit() == Approx(4.0));
}

TEST_CASE("cgroup v1: cpu.cfs_quota_us / cpu.cfs_period_us in the cpu "
          "controller's hierarchy; -1 is no limit",
          "[quota]") {
  FakeCgroups F;
  F.write("cgroup", "5:memory:/m\n4:cpu,cpuacct:/batch/42\n0::/\n");
  std::string V1 = F.mount() + "/cpu,cpuacct";
  F.write("mountinfo", "25 22 0:22 / " + F.mount() +
                           " rw - tmpfs tmpfs rw\n"
                           "31 25 0:28 / " +
                           V1 +
                           " rw - cgroup cgroup rw,cpu,cpuacct\n"
                           "32 25 0:29 / " +
                           F.mount() +
                           "/memory rw - cgroup cgroup rw,memory\n");
  F.write("sys/fs/cgroup/cpu,cpuacct/batch/42/cpu.cfs_quota_us", "-1\n");
  F.write("sys/fs/cgroup/cpu,cpuacct/batch/42/cpu.cfs_period_us", "100000\n");
  CHECK_FALSE(F.limit());
  F.write("sys/fs/cgroup/cpu,cpuacct/batch/42/cpu.cfs_quota_us", "300000\n");
  REQUIRE(F.limit());
  CHECK(*F.limit() == Approx(3.0));
}

TEST_CASE("No cgroup files, or no cpu controller: no quota", "[quota]") {
  FakeCgroups F;
  CHECK_FALSE(F.limit());
  F.write("cgroup", "4:memory:/m\n");
  F.write("mountinfo", "32 25 0:29 / " + F.mount() +
                           "/memory rw - cgroup cgroup rw,memory\n");
  CHECK_FALSE(F.limit());
}

TEST_CASE("A malformed cpu.max is no quota", "[quota]") {
  FakeCgroups F;
  F.write("cgroup", "0::/\n");
  F.write("mountinfo",
          "30 22 0:27 / " + F.mount() + " rw - cgroup2 cgroup2 rw\n");
  F.write("sys/fs/cgroup/cpu.max", "lots 100000\n");
  CHECK_FALSE(F.limit());
  F.write("sys/fs/cgroup/cpu.max", "100000 0\n");
  CHECK_FALSE(F.limit());
}

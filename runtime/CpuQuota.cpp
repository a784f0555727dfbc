#include "runtime/CpuQuota.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <vector>

namespace clcpu {
namespace {

/// One cgroup hierarchy that holds the cpu controller: where it is mounted,
/// which of its directories the mount shows, and the process's directory.
struct CpuHierarchy {
  bool V2 = false;
  std::string MountPoint, MountRoot, ProcessPath;
};

std::vector<std::string> split(const std::string &S, char Sep) {
  std::vector<std::string> Out;
  std::istringstream In(S);
  for (std::string Part; std::getline(In, Part, Sep);)
    Out.push_back(Part);
  return Out;
}

/// The process's path in the v2 hierarchy ("0::/path") and in the v1
/// hierarchy that has the cpu controller ("4:cpu,cpuacct:/path").
void readCgroupFile(const std::string &File, std::string &V2Path,
                    std::string &V1CpuPath) {
  std::ifstream In(File);
  for (std::string Line; std::getline(In, Line);) {
    // hierarchy-ID:controller-list:cgroup-path; the path may hold ':'.
    size_t A = Line.find(':');
    size_t B = A == std::string::npos ? A : Line.find(':', A + 1);
    if (B == std::string::npos)
      continue;
    std::string Controllers = Line.substr(A + 1, B - A - 1);
    std::string Path = Line.substr(B + 1);
    if (Line.compare(0, A, "0") == 0 && Controllers.empty())
      V2Path = Path;
    else
      for (const std::string &C : split(Controllers, ','))
        if (C == "cpu")
          V1CpuPath = Path;
  }
}

/// Mount point and mount root of the cgroup2 file system and of the v1
/// file system whose super options name the cpu controller.
void readMountInfo(const std::string &File, CpuHierarchy &V2,
                   CpuHierarchy &V1) {
  std::ifstream In(File);
  for (std::string Line; std::getline(In, Line);) {
    // ID parent major:minor root mount-point options [optional...] -
    // fstype source super-options
    size_t Dash = Line.find(" - ");
    if (Dash == std::string::npos)
      continue;
    std::vector<std::string> Pre = split(Line.substr(0, Dash), ' ');
    std::vector<std::string> Post = split(Line.substr(Dash + 3), ' ');
    if (Pre.size() < 5 || Post.size() < 3)
      continue;
    if (Post[0] == "cgroup2" && V2.MountPoint.empty()) {
      V2.MountRoot = Pre[3];
      V2.MountPoint = Pre[4];
    } else if (Post[0] == "cgroup" && V1.MountPoint.empty()) {
      for (const std::string &O : split(Post[2], ','))
        if (O == "cpu") {
          V1.MountRoot = Pre[3];
          V1.MountPoint = Pre[4];
        }
    }
  }
}

/// The directory of the process's cgroup under the hierarchy's mount: the
/// mount shows MountRoot at MountPoint, so the path below MountRoot is
/// appended. A path outside the mount's root (the process moved out of a
/// container's view) falls back to the mount point itself.
std::string processDir(const CpuHierarchy &H) {
  const std::string &Root = H.MountRoot, &Path = H.ProcessPath;
  if (Root == "/")
    return H.MountPoint + (Path == "/" ? "" : Path);
  if (Path.compare(0, Root.size(), Root) == 0 &&
      (Path.size() == Root.size() || Path[Root.size()] == '/'))
    return H.MountPoint + Path.substr(Root.size());
  return H.MountPoint;
}

/// Quota / period at one directory; empty if unlimited or unreadable.
std::optional<double> limitAt(const CpuHierarchy &H, const std::string &Dir) {
  double Quota = 0, Period = 0;
  if (H.V2) {
    // cpu.max: "$MAX $PERIOD", $MAX "max" for no limit.
    std::ifstream In(Dir + "/cpu.max");
    std::string Max;
    if (!(In >> Max >> Period) || Max == "max")
      return std::nullopt;
    try {
      Quota = std::stod(Max);
    } catch (...) {
      return std::nullopt;
    }
  } else {
    // cpu.cfs_quota_us: -1 for no limit.
    std::ifstream Q(Dir + "/cpu.cfs_quota_us"), P(Dir + "/cpu.cfs_period_us");
    if (!(Q >> Quota) || !(P >> Period) || Quota < 0)
      return std::nullopt;
  }
  if (Quota <= 0 || Period <= 0)
    return std::nullopt;
  return Quota / Period;
}

} // namespace

std::optional<double> cgroupCpuLimit(const std::string &CgroupFile,
                                     const std::string &MountInfoFile) {
  CpuHierarchy V2, V1;
  V2.V2 = true;
  readCgroupFile(CgroupFile, V2.ProcessPath, V1.ProcessPath);
  readMountInfo(MountInfoFile, V2, V1);
  // The v1 cpu controller, where mounted, is the one that enforces quotas
  // (a hybrid system mounts an empty cgroup2 tree beside it).
  const CpuHierarchy &H =
      !V1.MountPoint.empty() && !V1.ProcessPath.empty() ? V1 : V2;
  if (H.MountPoint.empty() || H.ProcessPath.empty())
    return std::nullopt;
  // A quota anywhere above the process's cgroup bounds it as well.
  std::optional<double> Lowest;
  std::string Dir = processDir(H);
  for (;;) {
    if (std::optional<double> L = limitAt(H, Dir))
      Lowest = Lowest ? std::min(*Lowest, *L) : *L;
    if (Dir.size() <= H.MountPoint.size())
      break;
    Dir.erase(Dir.rfind('/'));
  }
  return Lowest;
}

} // namespace clcpu

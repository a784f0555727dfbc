#ifndef CLCPU_ICD_DISPATCH_H
#define CLCPU_ICD_DISPATCH_H

#include <CL/cl_icd.h>

#include <span>
#include <string_view>

namespace clcpu::icd {

/// The dispatch table every handle of this driver starts with. Built at
/// compile time from icd/EntryPoints.def; never null in any slot.
const cl_icd_dispatch &dispatchTable();

/// Address of an extension function by name (clGetExtensionFunctionAddress*),
/// or nullptr when the driver has no extension function of that name.
void *extensionFunction(std::string_view Name);

/// Names of the OpenCL 3.0 entry points that are still CLCPU_TODO stubs.
std::span<const char *const> unimplementedEntryPoints();

/// Names of every entry point in the list, whatever its state (for tests).
std::span<const char *const> allEntryPoints();

} // namespace clcpu::icd

#endif

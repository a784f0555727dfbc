//===- compiler/regions/BarrierRegions.h - the barrier fast path *- C++ -*-===//
//
// The interface of compiler/regions/BarrierRegions.cpp: the phases of
// barrier-region formation, in order (the other files of compiler/regions/ are
// the phases).

#ifndef CLCPU_COMPILER_REGIONS_BARRIERREGIONS_H
#define CLCPU_COMPILER_REGIONS_BARRIERREGIONS_H

#include "compiler/Compiler.h"

#include <string>

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace clcpu::compiler {

/// The barrier fast path. Splits \p Body (a
/// kernel body whose last parameters are ctx, lx, ly, lz, with barriers or
/// collectives) at its barriers and collectives into regions and emits
/// `wg_<Name>` running each region as a loop over the group's work-items
/// (vectorized like a barrier-free kernel), with values live across a
/// barrier in per-work-item scratch (WorkGroupContext::Scratch). Sets
/// K.RegionScratch and K.Path. False, with the reason in \p Why and \p Body
/// still a valid (possibly SROA-optimized) body for the fiber path, when the
/// kernel has a shape the regions do not handle.
bool emitBarrierRegions(llvm::Module &M, llvm::Function &Kernel,
                        llvm::Function &Body, KernelInfo &K, std::string &Why);

} // namespace clcpu::compiler

#endif

//===- compiler/regions/RegionShapes.h - regions for the driver -*- C++ -*-===//
//
// The fifth phase of barrier-region formation: what the driver needs to
// know about each region of the cut `<K>.regions` (RegionShape): whether
// it has loops, whether its work-items all stop at the same sync point,
// and which regions can run one sub-group at a time.

#ifndef CLCPU_COMPILER_REGIONS_REGIONSHAPES_H
#define CLCPU_COMPILER_REGIONS_REGIONSHAPES_H

#include "compiler/regions/RegionPlan.h"

namespace clcpu::compiler::regions {

/// P.Shapes: each region's loops and whether its exit is uniform.
void findRegionShapes(RegionPlan &P);

/// P.SubGroupSyncs, P.Stretched and the stretch fields of P.Shapes.
void planSubGroupStretches(RegionPlan &P);

} // namespace clcpu::compiler::regions

#endif

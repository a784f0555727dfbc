//===- PassRegistry.cpp - clcpu's passes by name --------------------------===//
//
// Expands compiler/passes/Passes.def into PassBuilder parsing callbacks:
// one for module passes, one for function passes. A function pass named in
// a module pipeline is adapted by the PassBuilder itself.

#include "compiler/passes/PassRegistry.h"

#include "compiler/analyses/SyncCalls.h"
#include "compiler/analyses/WorkItemUniformity.h"
#include "compiler/passes/BlockedStores.h"
#include "compiler/passes/BuiltinCallAbi.h"
#include "compiler/passes/CheckBounds.h"
#include "compiler/passes/CheckRangeVersioning.h"
#include "compiler/passes/ConsecutiveGathers.h"
#include "compiler/passes/CountedInnerLoops.h"
#include "compiler/passes/DeferFloatAdds.h"
#include "compiler/passes/DeviceEnqueueCalls.h"
#include "compiler/passes/FlattenAddressSpaces.h"
#include "compiler/passes/GridStridePrefetch.h"
#include "compiler/passes/GuardedLoopBound.h"
#include "compiler/passes/ImageArguments.h"
#include "compiler/passes/InterleavedAccesses.h"
#include "compiler/passes/InvariantDivision.h"
#include "compiler/passes/LocalIdModulo.h"
#include "compiler/passes/LoopSyncPoints.h"
#include "compiler/passes/LowerWorkGroupSync.h"
#include "compiler/passes/MaskedStoreFastPath.h"
#include "compiler/passes/MathBuiltins.h"
#include "compiler/passes/NonTemporalStores.h"
#include "compiler/passes/OrdinaryPrivateVolatiles.h"
#include "compiler/passes/ParallelWorkItemLoops.h"
#include "compiler/passes/ProgressYields.h"
#include "compiler/passes/Reconvergence.h"
#include "compiler/passes/RuntimeConsecutiveGathers.h"
#include "compiler/passes/SafeIntegerDivision.h"
#include "compiler/passes/ScalarizeWorkItemLoops.h"
#include "compiler/passes/ScanLoopVectorize.h"
#include "compiler/passes/SpirvBuiltinNames.h"
#include "compiler/passes/SubGroupStepInline.h"
#include "compiler/passes/UniformVectorPhis.h"
#include "compiler/passes/VectorCollectives.h"
#include "compiler/passes/VnniDotProduct.h"
#include "compiler/passes/WorkGroupDebugInfo.h"
#include "compiler/passes/WorkItemCalls.h"
#include "compiler/passes/WorkItemDebugVariables.h"
#include "compiler/passes/WorkItemLoopCheck.h"

#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/raw_ostream.h>

using namespace llvm;

namespace clcpu::compiler {

void registerPasses(PassBuilder &PB) {
  if (PassInstrumentationCallbacks *PIC =
          PB.getPassInstrumentationCallbacks()) {
#define CLCPU_MODULE_PASS(NAME, CLASS)                                         \
  PIC->addClassToPassName(CLASS::name(), NAME);
#define CLCPU_FUNCTION_PASS(NAME, CLASS)                                       \
  PIC->addClassToPassName(CLASS::name(), NAME);
#define CLCPU_FUNCTION_ANALYSIS(NAME, CLASS, PRINTER)                          \
  PIC->addClassToPassName(CLASS::name(), NAME);                                \
  PIC->addClassToPassName(PRINTER::name(), "print<" NAME ">");
#include "compiler/passes/Passes.def"
  }
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
#define CLCPU_MODULE_PASS(NAME, CLASS)                                         \
  if (Name == NAME) {                                                          \
    MPM.addPass(CLASS());                                                      \
    return true;                                                               \
  }
#include "compiler/passes/Passes.def"
        return false;
      });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, FunctionPassManager &FPM,
         ArrayRef<PassBuilder::PipelineElement>) {
#define CLCPU_FUNCTION_PASS(NAME, CLASS)                                       \
  if (Name == NAME) {                                                          \
    FPM.addPass(CLASS());                                                      \
    return true;                                                               \
  }
#define CLCPU_FUNCTION_ANALYSIS(NAME, CLASS, PRINTER)                          \
  if (Name == "print<" NAME ">") {                                             \
    FPM.addPass(PRINTER(errs()));                                              \
    return true;                                                               \
  }
#include "compiler/passes/Passes.def"
        return false;
      });
  PB.registerAnalysisRegistrationCallback([](FunctionAnalysisManager &FAM) {
#define CLCPU_FUNCTION_ANALYSIS(NAME, CLASS, PRINTER)                          \
  FAM.registerPass([] { return CLASS(); });
#include "compiler/passes/Passes.def"
  });
}

const std::vector<StringRef> &passNames() {
  static const std::vector<StringRef> Names = {
#define CLCPU_MODULE_PASS(NAME, CLASS) NAME,
#define CLCPU_FUNCTION_PASS(NAME, CLASS) NAME,
#define CLCPU_FUNCTION_ANALYSIS(NAME, CLASS, PRINTER) "print<" NAME ">",
#include "compiler/passes/Passes.def"
  };
  return Names;
}

} // namespace clcpu::compiler

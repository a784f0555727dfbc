//===- WorkGroupDebugInfo.cpp - kernels as inlined code for debuggers -----===//
//
// With -g, Clang gives each kernel a DISubprogram and each of its
// instructions a DILocation in it. The kernel's code then moves: into its
// body clone `<K>.body` (compiler/WorkGroupFunction.cpp), which keeps the
// locations but not the subprogram; from there into the work-group function
// `wg_<K>`, into barrier regions, or into a per-work-item function for
// fibers, none of which has a subprogram. Code generation emits line tables
// only for functions with one, so gdb would see no source in any of them.
//
// This pass, run once the kernels have their work-group functions:
// - attaches to each body clone the copy of the kernel's subprogram its
//   locations are in (cloning made the copy, and the clone dropped it), so
//   that when the work-group function inlines the body, the inliner records
//   the kernel as inlined there;
// - gives every other function holding the kernels' code its own
//   artificial subprogram, and makes each location that belongs to another
//   subprogram a location inlined at that function's first line: to a
//   debugger the kernel is an inlined subroutine of `wg_<K>` (or of the
//   region or work-item function), so `break <kernel>` stops in all of
//   them and `info locals` shows the kernel's variables;
// - gives a location to each call of a function with a subprogram that
//   lacks one (the call of the body in the work-item loop), which the
//   verifier requires and the inliner uses as the call site.
//
// Without debug information (no llvm.dbg.cu) the pass does nothing.

#include "compiler/passes/WorkGroupDebugInfo.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/DIBuilder.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/DebugProgramInstruction.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

using namespace llvm;

namespace clcpu::compiler {

namespace {

/// The subprogram a location ultimately belongs to: that of the last
/// location of its inlined-at chain.
const DISubprogram *outermostSubprogram(const DILocation *L) {
  while (const DILocation *At = L->getInlinedAt())
    L = At;
  return L->getScope()->getSubprogram();
}

/// The first location of \p F whose subprogram is not \p Own, or null.
const DILocation *foreignLocation(Function &F, const DISubprogram *Own) {
  for (Instruction &I : instructions(F)) {
    if (const DILocation *L = I.getDebugLoc().get();
        L && outermostSubprogram(L) != Own)
      return L;
    for (DbgRecord &R : I.getDbgRecordRange())
      if (const DILocation *L = R.getDebugLoc().get();
          L && outermostSubprogram(L) != Own)
        return L;
  }
  return nullptr;
}

bool callsDebuggedFunction(Function &F) {
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (Function *Callee = CB->getCalledFunction();
          Callee && Callee->getSubprogram() && !I.getDebugLoc())
        return true;
  return false;
}

/// Makes \p F's code that belongs to other subprograms inlined at \p Site,
/// and \p Site the location of its location-less calls of functions with
/// a subprogram.
void adopt(Function &F, DILocation *Site) {
  LLVMContext &C = F.getContext();
  const DISubprogram *Own = Site->getScope()->getSubprogram();
  DenseMap<const MDNode *, MDNode *> Cache;
  auto Remap = [&](const DebugLoc &L) -> DebugLoc {
    if (!L || outermostSubprogram(L.get()) == Own)
      return L;
    // appendInlinedAt gives the new chain of call sites; the location
    // itself stays in its scope, now inlined at that chain.
    return DILocation::get(C, L.getLine(), L.getCol(), L.getScope(),
                           DebugLoc::appendInlinedAt(L, Site, C, Cache));
  };
  for (Instruction &I : instructions(F)) {
    if (I.getDebugLoc()) {
      I.setDebugLoc(Remap(I.getDebugLoc()));
    } else if (auto *CB = dyn_cast<CallBase>(&I)) {
      if (Function *Callee = CB->getCalledFunction();
          Callee && Callee->getSubprogram())
        I.setDebugLoc(Site);
    }
    for (DbgRecord &R : I.getDbgRecordRange())
      R.setDebugLoc(Remap(R.getDebugLoc()));
  }
}

} // namespace

PreservedAnalyses WorkGroupDebugInfoPass::run(Module &M,
                                              ModuleAnalysisManager &) {
  if (M.debug_compile_units().empty())
    return PreservedAnalyses::all();
  bool Changed = false;
  // A body clone's locations are in the clone's own copy of the kernel's
  // subprogram, which cloning left unattached: the body takes it back.
  SmallPtrSet<const DISubprogram *, 8> Attached;
  for (Function &F : M)
    if (DISubprogram *SP = F.getSubprogram())
      Attached.insert(SP);
  for (Function &F : M) {
    if (F.isDeclaration() || F.getSubprogram() ||
        !F.getName().ends_with(".body"))
      continue;
    const DILocation *L = foreignLocation(F, nullptr);
    if (!L)
      continue;
    DISubprogram *SP = const_cast<DISubprogram *>(outermostSubprogram(L));
    if (!Attached.insert(SP).second || foreignLocation(F, SP))
      continue;
    F.setSubprogram(SP);
    Changed = true;
  }
  DICompileUnit *CU = *M.debug_compile_units_begin();
  DIBuilder DIB(M, /*AllowUnresolved=*/false, CU);
  DISubroutineType *Ty = DIB.createSubroutineType(DIB.getOrCreateTypeArray({}));
  for (Function &F : M) {
    if (F.isDeclaration() || F.getSubprogram())
      continue;
    const DILocation *Foreign = foreignLocation(F, nullptr);
    if (!Foreign && !callsDebuggedFunction(F))
      continue;
    // Named, filed and lined like the kernel whose code it holds.
    const DISubprogram *Kernel =
        Foreign ? outermostSubprogram(Foreign) : nullptr;
    DIFile *File = Kernel ? Kernel->getFile() : CU->getFile();
    unsigned Line = Kernel ? Kernel->getLine() : 0;
    DISubprogram *SP = DIB.createFunction(
        File, F.getName(), F.getName(), File, Line, Ty, Line,
        DINode::FlagArtificial | DINode::FlagPrototyped,
        DISubprogram::SPFlagDefinition |
            (Kernel ? Kernel->getSPFlags() & DISubprogram::SPFlagOptimized
                    : DISubprogram::SPFlagZero));
    F.setSubprogram(SP);
    adopt(F, DILocation::get(M.getContext(), Line, 0, SP));
    DIB.finalizeSubprogram(SP);
    Changed = true;
  }
  DIB.finalize();
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace clcpu::compiler

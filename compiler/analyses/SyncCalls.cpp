//===- compiler/analyses/SyncCalls.cpp - a body's sync calls --------------===//

#include "compiler/analyses/SyncCalls.h"

#include <llvm/IR/Function.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Support/raw_ostream.h>

using namespace llvm;

namespace clcpu::compiler {

AnalysisKey SyncCallsAnalysis::Key;

SyncCalls::SyncCalls(Function &F) {
  for (Instruction &I : instructions(F))
    if (auto *CI = dyn_cast<CallInst>(&I))
      if (std::optional<SyncCall> S = classifySyncCall(*CI)) {
        Index[CI] = Calls.size();
        Calls.push_back({CI, *S});
      }
}

const SyncCall *SyncCalls::lookup(const CallInst *CI) const {
  auto It = Index.find(CI);
  return It == Index.end() ? nullptr : &Calls[It->second].second;
}

bool SyncCalls::invalidate(Function &, const PreservedAnalyses &PA,
                           FunctionAnalysisManager::Invalidator &) {
  auto PAC = PA.getChecker<SyncCallsAnalysis>();
  return !PAC.preserved() && !PAC.preservedSet<AllAnalysesOn<Function>>();
}

SyncCalls SyncCallsAnalysis::run(Function &F, FunctionAnalysisManager &) {
  return SyncCalls(F);
}

PreservedAnalyses SyncCallsPrinterPass::run(Function &F,
                                            FunctionAnalysisManager &AM) {
  const SyncCalls &S = AM.getResult<SyncCallsAnalysis>(F);
  OS << "clcpu-sync-calls of " << F.getName() << ":\n";
  for (const auto &[CI, What] : S.calls()) {
    OS << "  "
       << (What.Kind == SyncCall::Barrier           ? "barrier"
           : What.Kind == SyncCall::SubGroupBarrier ? "sub-group barrier"
                                                    : "collective")
       << " op " << What.Op << (What.Scalar ? "" : " not-scalar")
       << (What.PerCallSite ? " per-call-site" : "") << ":";
    CI->print(OS);
    OS << "\n";
  }
  return PreservedAnalyses::all();
}

} // namespace clcpu::compiler

//===- scheduler/DeferredAdds.h - per-thread queues of float atomic adds --===//
//
// The runtime side of compiler/passes/DeferFloatAdds.cpp, which explains
// when a kernel's relaxed float atomic adds may be queued. JIT'd code calls
// the two functions below instead of adding; the scheduler applies the
// calling thread's queue at the end of its share of every launch
// (NDRange.cpp), before the launch is reported done.

#ifndef CLCPU_SCHEDULER_DEFERRED_ADDS_H
#define CLCPU_SCHEDULER_DEFERRED_ADDS_H

extern "C" {
/// Queues `*P += V` (float) for this thread.
void clcpu_deferred_fadd_f32(float *P, float V);
/// Queues `*P += V` (double) for this thread.
void clcpu_deferred_fadd_f64(double *P, double V);
}

namespace clcpu {

/// While it lives, this thread's adds are applied at once rather than
/// queued: a launch that runs on this thread alone has no other thread to
/// contend with, and an uncontended compare-exchange costs less than
/// queueing and applying.
class AddsNowScope {
public:
  AddsNowScope();
  ~AddsNowScope();
  AddsNowScope(const AddsNowScope &) = delete;
  AddsNowScope &operator=(const AddsNowScope &) = delete;

private:
  bool Saved;
};

/// Applies every add this thread queued: per address, the adds one after
/// another, each rounded, written with one compare-exchange. Cheap when
/// nothing is queued.
void flushDeferredAdds() noexcept;

} // namespace clcpu

#endif

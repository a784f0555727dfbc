#ifndef CLCPU_RUNTIME_SAMPLER_H
#define CLCPU_RUNTIME_SAMPLER_H

// Sampler objects (OpenCL 3.0 API spec, 5.7 "Sampler Objects").

#include "runtime/Info.h"
#include "runtime/Object.h"

#include <cstdint>
#include <vector>

namespace clcpu {

/// How a kernel reads an image: normalized or unnormalized coordinates, the
/// addressing mode and the filter mode. Holds a driver reference on its
/// context. Immutable after creation, so thread-safe.
class Sampler : public Object<Sampler, _cl_sampler, ObjectKind::Sampler> {
public:
  /// Checks the values (as clCreateSampler takes them) and creates the
  /// sampler (one application reference). \p Props is the property list as
  /// given to clCreateSamplerWithProperties (empty for clCreateSampler or a
  /// NULL list).
  static cl_int create(Context *Ctx, cl_bool Normalized,
                       cl_addressing_mode Addressing, cl_filter_mode Filter,
                       std::vector<cl_sampler_properties> Props, Sampler *&Out);
  /// Parses a clCreateSamplerWithProperties list (\p List may be NULL)
  /// into the three values, with the spec's defaults.
  static cl_int parseProperties(const cl_sampler_properties *List, Context *Ctx,
                                cl_bool &Normalized,
                                cl_addressing_mode &Addressing,
                                cl_filter_mode &Filter,
                                std::vector<cl_sampler_properties> &Props);
  ~Sampler() override;

  Context *context() const { return Ctx; }
  cl_bool normalizedCoords() const { return Normalized; }
  cl_addressing_mode addressingMode() const { return Addressing; }
  cl_filter_mode filterMode() const { return Filter; }

  /// The sampler as a kernel argument: its CLK_* bits (opencl-c-base.h),
  /// what builtins/image.cl decodes.
  uint64_t kernelBits() const;

  cl_int getInfo(cl_sampler_info Param, InfoOut Out) const;

private:
  Sampler(Context *Ctx, cl_bool Normalized, cl_addressing_mode Addressing,
          cl_filter_mode Filter, std::vector<cl_sampler_properties> Props);

  Context *Ctx;
  cl_bool Normalized;
  cl_addressing_mode Addressing;
  cl_filter_mode Filter;
  std::vector<cl_sampler_properties> Props;
};

} // namespace clcpu

#endif

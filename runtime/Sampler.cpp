#include "runtime/Sampler.h"
#include "runtime/Context.h"

#include <string>

namespace clcpu {

Sampler::Sampler(Context *C, cl_bool N, cl_addressing_mode A, cl_filter_mode F,
                 std::vector<cl_sampler_properties> P)
    : Ctx(C), Normalized(N), Addressing(A), Filter(F), Props(std::move(P)) {
  Ctx->retainInternal();
}

Sampler::~Sampler() { Ctx->releaseInternal(); }

cl_int Sampler::create(Context *Ctx, cl_bool Normalized,
                       cl_addressing_mode Addressing, cl_filter_mode Filter,
                       std::vector<cl_sampler_properties> Props,
                       Sampler *&Out) {
  // CL_INVALID_VALUE if addressing_mode, filter_mode, normalized_coords or a
  // combination of these arguments are not valid.
  if (Normalized != CL_TRUE && Normalized != CL_FALSE)
    return fail(CL_INVALID_VALUE,
                "normalized_coords is neither CL_TRUE nor CL_FALSE", Ctx);
  switch (Addressing) {
  case CL_ADDRESS_NONE:
  case CL_ADDRESS_CLAMP_TO_EDGE:
  case CL_ADDRESS_CLAMP:
    break;
  case CL_ADDRESS_REPEAT:
  case CL_ADDRESS_MIRRORED_REPEAT:
    // OpenCL C spec, "Sampler Objects": CLK_ADDRESS_REPEAT and
    // CLK_ADDRESS_MIRRORED_REPEAT "can only be used with normalized
    // coordinates".
    if (Normalized != CL_TRUE)
      return fail(CL_INVALID_VALUE,
                  "CL_ADDRESS_REPEAT and CL_ADDRESS_MIRRORED_REPEAT need "
                  "normalized coordinates",
                  Ctx);
    break;
  default:
    return fail(CL_INVALID_VALUE,
                "addressing_mode " + std::to_string(Addressing) +
                    " is not an addressing mode",
                Ctx);
  }
  if (Filter != CL_FILTER_NEAREST && Filter != CL_FILTER_LINEAR)
    return fail(
        CL_INVALID_VALUE,
        "filter_mode " + std::to_string(Filter) + " is not a filter mode", Ctx);
  Out = new Sampler(Ctx, Normalized, Addressing, Filter, std::move(Props));
  return CL_SUCCESS;
}

cl_int Sampler::parseProperties(const cl_sampler_properties *List, Context *Ctx,
                                cl_bool &Normalized,
                                cl_addressing_mode &Addressing,
                                cl_filter_mode &Filter,
                                std::vector<cl_sampler_properties> &Props) {
  // "If a supported property and its value is not specified in
  // sampler_properties, its default value will be used": CL_TRUE,
  // CL_ADDRESS_CLAMP, CL_FILTER_NEAREST.
  Normalized = CL_TRUE;
  Addressing = CL_ADDRESS_CLAMP;
  Filter = CL_FILTER_NEAREST;
  if (!List)
    return CL_SUCCESS;
  bool Seen[3] = {false, false, false};
  for (; *List; List += 2) {
    int Which;
    switch (List[0]) {
    case CL_SAMPLER_NORMALIZED_COORDS:
      Which = 0;
      Normalized = static_cast<cl_bool>(List[1]);
      break;
    case CL_SAMPLER_ADDRESSING_MODE:
      Which = 1;
      Addressing = static_cast<cl_addressing_mode>(List[1]);
      break;
    case CL_SAMPLER_FILTER_MODE:
      Which = 2;
      Filter = static_cast<cl_filter_mode>(List[1]);
      break;
    default:
      // CL_INVALID_VALUE if the property name in sampler_properties is not
      // a supported property name.
      return fail(CL_INVALID_VALUE,
                  "unsupported sampler property " + std::to_string(List[0]),
                  Ctx);
    }
    // ... or if the same property name is specified more than once.
    if (Seen[Which])
      return fail(CL_INVALID_VALUE,
                  "sampler property " + std::to_string(List[0]) +
                      " is specified more than once",
                  Ctx);
    Seen[Which] = true;
    Props.push_back(List[0]);
    Props.push_back(List[1]);
  }
  Props.push_back(0);
  return CL_SUCCESS;
}

uint64_t Sampler::kernelBits() const {
  // CLK_NORMALIZED_COORDS_TRUE 1; CLK_ADDRESS_NONE 0, _CLAMP_TO_EDGE 2,
  // _CLAMP 4, _REPEAT 6, _MIRRORED_REPEAT 8; CLK_FILTER_NEAREST 0x10,
  // _LINEAR 0x20.
  uint64_t Bits = Normalized ? 1 : 0;
  switch (Addressing) {
  case CL_ADDRESS_CLAMP_TO_EDGE:
    Bits |= 2;
    break;
  case CL_ADDRESS_CLAMP:
    Bits |= 4;
    break;
  case CL_ADDRESS_REPEAT:
    Bits |= 6;
    break;
  case CL_ADDRESS_MIRRORED_REPEAT:
    Bits |= 8;
    break;
  default:
    break;
  }
  return Bits | (Filter == CL_FILTER_LINEAR ? 0x20 : 0x10);
}

cl_int Sampler::getInfo(cl_sampler_info Param, InfoOut Out) const {
  switch (Param) {
  case CL_SAMPLER_REFERENCE_COUNT:
    return Out.value<cl_uint>(referenceCount());
  case CL_SAMPLER_CONTEXT:
    return Out.value<cl_context>(Ctx->handle());
  case CL_SAMPLER_NORMALIZED_COORDS:
    return Out.value<cl_bool>(Normalized);
  case CL_SAMPLER_ADDRESSING_MODE:
    return Out.value<cl_addressing_mode>(Addressing);
  case CL_SAMPLER_FILTER_MODE:
    return Out.value<cl_filter_mode>(Filter);
  case CL_SAMPLER_PROPERTIES:
    // "If the properties argument specified in clCreateSamplerWithProperties
    // used to create sampler was not NULL, the implementation must return the
    // values specified in the properties argument in the same order";
    // otherwise param_value_size_ret 0.
    return Out.array(Props);
  default:
    return unknownParam(Param, Ctx);
  }
}

} // namespace clcpu

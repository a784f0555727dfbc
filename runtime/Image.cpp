//===- runtime/Image.cpp - image formats, descriptors and creation --------===//
//
// OpenCL 3.0 API spec 5.3.1 "Creating Image Objects", 5.3.1.1 "Image Format
// Descriptor", 5.3.1.2 "Image Descriptor", 5.3.2 "Querying List of
// Supported Image Formats" and the origin/region rules of 5.3.3 - 5.3.6.
//
//===----------------------------------------------------------------------===//

#include "runtime/Image.h"
#include "runtime/Context.h"
#include "runtime/Device.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

namespace clcpu {

namespace {
/// Channels of an order, 0 if unknown.
unsigned orderChannels(cl_channel_order O) {
  switch (O) {
  case CL_R:
  case CL_A:
  case CL_DEPTH:
  case CL_LUMINANCE:
  case CL_INTENSITY:
    return 1;
  case CL_RG:
  case CL_RA:
  case CL_Rx:
  case CL_DEPTH_STENCIL:
    return 2;
  case CL_RGB:
  case CL_RGx:
  case CL_sRGB:
    return 3;
  case CL_RGBA:
  case CL_BGRA:
  case CL_ARGB:
  case CL_ABGR:
  case CL_RGBx:
  case CL_sRGBA:
  case CL_sBGRA:
  case CL_sRGBx:
    return 4;
  default:
    return 0;
  }
}

/// Bytes per channel of a data type; 0 for the packed types and unknown ones.
size_t channelBytes(cl_channel_type T) {
  switch (T) {
  case CL_SNORM_INT8:
  case CL_UNORM_INT8:
  case CL_SIGNED_INT8:
  case CL_UNSIGNED_INT8:
    return 1;
  case CL_SNORM_INT16:
  case CL_UNORM_INT16:
  case CL_SIGNED_INT16:
  case CL_UNSIGNED_INT16:
  case CL_HALF_FLOAT:
    return 2;
  case CL_SIGNED_INT32:
  case CL_UNSIGNED_INT32:
  case CL_FLOAT:
    return 4;
  default:
    return 0;
  }
}

bool isSrgb(cl_channel_order O) {
  return O == CL_sRGB || O == CL_sRGBA || O == CL_sBGRA || O == CL_sRGBx;
}

/// The supported formats: every image type, every access unless noted.
struct SupportedFormat {
  cl_channel_order Order;
  cl_channel_type Type;
};

constexpr cl_channel_type AllTypes[] = {
    CL_UNORM_INT8,     CL_UNORM_INT16,    CL_SNORM_INT8,   CL_SNORM_INT16,
    CL_SIGNED_INT8,    CL_SIGNED_INT16,   CL_SIGNED_INT32, CL_UNSIGNED_INT8,
    CL_UNSIGNED_INT16, CL_UNSIGNED_INT32, CL_HALF_FLOAT,   CL_FLOAT};

std::vector<SupportedFormat> allSupported() {
  std::vector<SupportedFormat> L;
  // The minimum lists of 5.3.2.2 (the OpenCL 2.0 one is the larger): CL_R,
  // CL_RG and CL_RGBA with every channel type, CL_BGRA and CL_sRGBA with
  // CL_UNORM_INT8, CL_DEPTH with CL_UNORM_INT16 and CL_FLOAT.
  for (cl_channel_order O : {CL_R, CL_RG, CL_RGBA})
    for (cl_channel_type T : AllTypes)
      L.push_back({O, T});
  L.push_back({CL_BGRA, CL_UNORM_INT8});
  L.push_back({CL_sRGBA, CL_UNORM_INT8});
  // Cheap on a CPU: a different channel order or a packed element is a
  // shuffle or a shift on the way in and out.
  L.push_back({CL_sBGRA, CL_UNORM_INT8});
  L.push_back({CL_sRGB, CL_UNORM_INT8});
  // Not CL_sRGBx: "Determining the Border Color or Value" gives it the
  // border color (0, 0, 0, 0), which builtins/image.cl returns, but the
  // Khronos CTS expects (0, 0, 0, 1) (its has_alpha() says CL_sRGBx has
  // none), so test_image_streams fails every CL_ADDRESS_CLAMP read of it.
  // An optional format that cannot be both right and conformant is left
  // out; listing it is this one line.
  L.push_back({CL_DEPTH, CL_UNORM_INT16});
  L.push_back({CL_DEPTH, CL_FLOAT});
  L.push_back({CL_RGB, CL_UNORM_SHORT_565});
  L.push_back({CL_RGB, CL_UNORM_SHORT_555});
  L.push_back({CL_RGB, CL_UNORM_INT_101010});
  return L;
}
} // namespace

size_t imageElementSize(const cl_image_format &F) {
  cl_channel_order O = F.image_channel_order;
  cl_channel_type T = F.image_channel_data_type;
  unsigned N = orderChannels(O);
  if (N == 0)
    return 0;
  size_t Size = 0;
  switch (T) {
  case CL_UNORM_SHORT_565:
  case CL_UNORM_SHORT_555:
    // "The channel order must be CL_RGB or CL_RGBx."
    if (O != CL_RGB && O != CL_RGBx)
      return 0;
    return 2;
  case CL_UNORM_INT_101010:
    if (O != CL_RGB && O != CL_RGBx)
      return 0;
    return 4;
  case CL_UNORM_INT_101010_2:
    // "The channel order must be CL_RGBA."
    return O == CL_RGBA ? 4 : 0;
  case CL_UNORM_INT24:
    // CL_DEPTH_STENCIL "can only be used if the image channel data type is
    // CL_UNORM_INT24 or CL_FLOAT"; CL_DEPTH with CL_UNORM_INT24 is
    // cl_khr_depth_images' 24-bit depth, in 32 bits.
    if (O == CL_DEPTH || O == CL_DEPTH_STENCIL)
      return 4;
    return 0;
  default:
    Size = channelBytes(T);
  }
  if (Size == 0)
    return 0;
  // CL_sRGB "can only be used if channel data type = CL_UNORM_INT8" (the
  // Image Channel Order table): three 8-bit channels, 3 bytes. The table
  // names it, so the rule below that the bits per element be a power of
  // two does not apply to it (the CTS's element size is 3 bytes too).
  if (O == CL_sRGB)
    return T == CL_UNORM_INT8 ? 3 : 0;
  // CL_RGB, CL_RGx, CL_RGBx and CL_Rx describe the packed types (and
  // CL_sRGBx 8-bit channels: 4 bytes).
  if (O == CL_RGB || O == CL_RGx || O == CL_Rx)
    return 0;
  if ((O == CL_RGBx || O == CL_sRGBx) && T != CL_UNORM_INT8)
    return 0;
  if (O == CL_DEPTH_STENCIL)
    return O == CL_DEPTH_STENCIL && T == CL_FLOAT ? 8 : 0;
  // CL_DEPTH: CL_UNORM_INT16 or CL_FLOAT (cl_khr_depth_images).
  if (O == CL_DEPTH && T != CL_UNORM_INT16 && T != CL_FLOAT)
    return 0;
  // sRGB orders hold 8-bit normalized channels.
  if (isSrgb(O) && T != CL_UNORM_INT8)
    return 0;
  // CL_INTENSITY and CL_LUMINANCE: normalized or floating-point channels.
  if ((O == CL_INTENSITY || O == CL_LUMINANCE) &&
      (T == CL_SIGNED_INT8 || T == CL_SIGNED_INT16 || T == CL_SIGNED_INT32 ||
       T == CL_UNSIGNED_INT8 || T == CL_UNSIGNED_INT16 ||
       T == CL_UNSIGNED_INT32))
    return 0;
  // CL_BGRA, CL_ARGB, CL_ABGR: 8-bit channels.
  if ((O == CL_BGRA || O == CL_ARGB || O == CL_ABGR) && Size != 1)
    return 0;
  Size *= N;
  // "The number of bits per element determined by the image_channel_data_type
  // and image_channel_order must be a power of two."
  if (Size & (Size - 1))
    return 0;
  return Size;
}

unsigned imageChannels(const cl_image_format &F) {
  return orderChannels(F.image_channel_order);
}

bool isImageType(cl_mem_object_type Type) {
  switch (Type) {
  case CL_MEM_OBJECT_IMAGE1D:
  case CL_MEM_OBJECT_IMAGE1D_BUFFER:
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
  case CL_MEM_OBJECT_IMAGE2D:
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
  case CL_MEM_OBJECT_IMAGE3D:
    return true;
  default:
    return false;
  }
}

bool imageFitsArgType(const ImageDesc &I, const std::string &TypeName) {
  static const struct {
    const char *Name;
    cl_mem_object_type Type;
    bool Depth;
  } Args[] = {
      {"image1d_t", CL_MEM_OBJECT_IMAGE1D, false},
      {"image1d_buffer_t", CL_MEM_OBJECT_IMAGE1D_BUFFER, false},
      {"image1d_array_t", CL_MEM_OBJECT_IMAGE1D_ARRAY, false},
      {"image2d_t", CL_MEM_OBJECT_IMAGE2D, false},
      {"image2d_array_t", CL_MEM_OBJECT_IMAGE2D_ARRAY, false},
      {"image3d_t", CL_MEM_OBJECT_IMAGE3D, false},
      {"image2d_depth_t", CL_MEM_OBJECT_IMAGE2D, true},
      {"image2d_array_depth_t", CL_MEM_OBJECT_IMAGE2D_ARRAY, true},
  };
  const bool Depth = I.Format.image_channel_order == CL_DEPTH;
  for (const auto &A : Args)
    if (TypeName == A.Name)
      return I.Type == A.Type && (Depth || !A.Depth);
  return false; // multi-sample images and others the device has not
}

bool imageFormatSupported(const cl_image_format &F, cl_mem_object_type Type,
                          cl_mem_flags Flags) {
  if (!isImageType(Type))
    return false;
  // CL_MEM_KERNEL_READ_AND_WRITE: formats "that may be both read from and
  // written to by the same kernel instance": every format kernels write
  // (read_write images read and write with the same builtins).
  // Depth images are 2D images and 2D image arrays (cl_khr_depth_images).
  if (F.image_channel_order == CL_DEPTH && Type != CL_MEM_OBJECT_IMAGE2D &&
      Type != CL_MEM_OBJECT_IMAGE2D_ARRAY)
    return false;
  // sRGB formats are written too (cl_khr_srgb_image_writes: "The sRGB
  // image formats that may be written to will be returned by
  // clGetSupportedImageFormats"): write_imagef encodes linear to sRGB
  // (builtins/image.cl), and a read_write image decodes what it reads.
  for (const SupportedFormat &S : allSupported())
    if (S.Order == F.image_channel_order && S.Type == F.image_channel_data_type)
      return true;
  return false;
}

std::vector<cl_image_format> supportedImageFormats(cl_mem_object_type Type,
                                                   cl_mem_flags Flags) {
  std::vector<cl_image_format> L;
  for (const SupportedFormat &S : allSupported()) {
    cl_image_format F{S.Order, S.Type};
    if (imageFormatSupported(F, Type, Flags))
      L.push_back(F);
  }
  return L;
}

//===----------------------------------------------------------------------===//
// The descriptor.
//===----------------------------------------------------------------------===//

void ImageDesc::extents(size_t E[3]) const {
  E[0] = Width;
  E[1] = E[2] = 1;
  switch (Type) {
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    E[1] = ArraySize;
    break;
  case CL_MEM_OBJECT_IMAGE2D:
    E[1] = Height;
    break;
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    E[1] = Height;
    E[2] = ArraySize;
    break;
  case CL_MEM_OBJECT_IMAGE3D:
    E[1] = Height;
    E[2] = Depth;
    break;
  default:
    break;
  }
}

size_t ImageDesc::byteSize() const {
  // The last row of the last slice or layer is Width elements long; the
  // pitches were checked at creation, so none of this overflows.
  size_t E[3];
  extents(E);
  return (E[2] - 1) * stride2() + (E[1] - 1) * stride1() + Width * ElementSize;
}

cl_int checkImageRegion(const ImageDesc &I, const size_t *Origin,
                        const size_t *Region, const char *OriginName,
                        Context *Ctx) {
  std::string O = OriginName;
  // CL_INVALID_VALUE if origin is NULL. / if region is NULL.
  if (!Origin)
    return fail(CL_INVALID_VALUE, O + " is NULL", Ctx);
  if (!Region)
    return fail(CL_INVALID_VALUE, "region is NULL", Ctx);
  // CL_INVALID_VALUE if values in origin and region do not follow the rules
  // described in the argument description for origin and region:
  // "If image is a 2D image object, origin[2] must be 0. If image is a 1D
  // image or 1D image buffer object, origin[1] and origin[2] must be 0. If
  // image is a 1D image array object, origin[2] must be 0." "If image is a
  // 2D image object, region[2] must be 1. If image is a 1D image or 1D image
  // buffer object, region[1] and region[2] must be 1. If image is a 1D image
  // array object, region[2] must be 1. The values in region cannot be 0."
  if (!Region[0] || !Region[1] || !Region[2])
    return fail(CL_INVALID_VALUE, "a region component is 0", Ctx);
  bool OneD =
      I.Type == CL_MEM_OBJECT_IMAGE1D || I.Type == CL_MEM_OBJECT_IMAGE1D_BUFFER;
  if (OneD && (Origin[1] || Origin[2] || Region[1] != 1 || Region[2] != 1))
    return fail(CL_INVALID_VALUE,
                "a 1D image needs " + O + "[1] = " + O +
                    "[2] = 0 and region[1] = region[2] = 1",
                Ctx);
  if ((I.Type == CL_MEM_OBJECT_IMAGE2D ||
       I.Type == CL_MEM_OBJECT_IMAGE1D_ARRAY) &&
      (Origin[2] || Region[2] != 1))
    return fail(CL_INVALID_VALUE,
                std::string(I.Type == CL_MEM_OBJECT_IMAGE2D
                                ? "a 2D image"
                                : "a 1D image array") +
                    " needs " + O + "[2] = 0 and region[2] = 1",
                Ctx);
  // CL_INVALID_VALUE if the region being read or written specified by
  // origin and region is out of bounds. (By subtraction: origin + region
  // may not fit size_t.)
  size_t E[3];
  I.extents(E);
  for (int D = 0; D < 3; ++D)
    if (Origin[D] > E[D] || Region[D] > E[D] - Origin[D])
      return fail(CL_INVALID_VALUE,
                  "(" + O +
                      ", region) is out of bounds of the image in "
                      "dimension " +
                      std::to_string(D),
                  Ctx);
  return CL_SUCCESS;
}

cl_int linearSide(const ImageDesc &I, const size_t *Region, size_t RowPitch,
                  size_t SlicePitch, const char *RowName, const char *SliceName,
                  RectSide &Out, Context *Ctx) {
  std::string RN = RowName, SN = SliceName;
  size_t RowBytes = Region[0] * I.ElementSize; // fits: inside the image
  // "[row_pitch] must be greater than or equal to the element size in bytes
  // x width. If row_pitch is set to 0, the appropriate row pitch is
  // calculated based on the size of each element in bytes multiplied by
  // width."
  if (RowPitch == 0)
    RowPitch = RowBytes;
  else if (RowPitch < RowBytes)
    return fail(CL_INVALID_VALUE,
                RN + " is less than region[0] x the element size", Ctx);
  Out.Origin[0] = Out.Origin[1] = Out.Origin[2] = 0;
  switch (I.Type) {
  case CL_MEM_OBJECT_IMAGE1D:
  case CL_MEM_OBJECT_IMAGE1D_BUFFER:
  case CL_MEM_OBJECT_IMAGE2D:
    // CL_INVALID_VALUE if image is a 1D or 2D image and slice_pitch or
    // input_slice_pitch is not zero.
    if (SlicePitch)
      return fail(CL_INVALID_VALUE, SN + " is not 0 for a 1D or 2D image", Ctx);
    Out.RowPitch = RowPitch;
    Out.SlicePitch = 0; // region[2] is 1: never used
    return CL_SUCCESS;
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    // "[slice_pitch is] the size in bytes of ... each image of a 1D or 2D
    // image array"; "set to 0, ... calculated based on the row_pitch x
    // height" (a 1D image is one row high). The layer is the second
    // coordinate.
    if (SlicePitch == 0)
      SlicePitch = RowPitch;
    else if (SlicePitch < RowPitch)
      return fail(CL_INVALID_VALUE, SN + " is less than " + RN, Ctx);
    Out.RowPitch = SlicePitch;
    Out.SlicePitch = 0;
    return CL_SUCCESS;
  default: {
    // "Otherwise this value must be greater than or equal to row_pitch x
    // height."
    CheckedSize MinSlice = CheckedSize(RowPitch) * Region[1];
    if (SlicePitch == 0) {
      if (!MinSlice.valid())
        return fail(CL_INVALID_VALUE, RN + " x region[1] overflows size_t",
                    Ctx);
      SlicePitch = MinSlice.value();
    } else if (!MinSlice.fitsIn(SlicePitch)) {
      return fail(CL_INVALID_VALUE, SN + " is less than " + RN + " x region[1]",
                  Ctx);
    }
    Out.RowPitch = RowPitch;
    Out.SlicePitch = SlicePitch;
    return CL_SUCCESS;
  }
  }
}

//===----------------------------------------------------------------------===//
// Fill colors.
//===----------------------------------------------------------------------===//

uint16_t floatToHalf(float F) {
  uint32_t X;
  std::memcpy(&X, &F, 4);
  uint32_t Sign = (X >> 16) & 0x8000;
  uint32_t Abs = X & 0x7fffffff;
  if (Abs >= 0x7f800000) // Inf or NaN (a quiet NaN stays a NaN)
    return Sign | 0x7c00 | (Abs > 0x7f800000 ? 0x200 : 0);
  if (Abs >= 0x477ff000) // rounds to >= 65520: overflow to infinity
    return Sign | 0x7c00;
  if (Abs < 0x38800000) { // below the smallest normal half: a denormal
    // Value in units of 2^-24, rounded to nearest even.
    float A;
    std::memcpy(&A, &Abs, 4);
    float Units = A * 16777216.0f; // exact: scaling by a power of two
    return Sign | static_cast<uint16_t>(std::nearbyint(Units));
  }
  // Normal: rebias the exponent, round the 13 dropped bits to nearest even.
  uint32_t M = Abs - 0x38000000; // exponent bias 127 -> 15
  uint32_t H = M >> 13;
  uint32_t Rest = M & 0x1fff;
  if (Rest > 0x1000 || (Rest == 0x1000 && (H & 1)))
    ++H;
  return static_cast<uint16_t>(Sign | H);
}

namespace {
/// 5.3.1.1: normalized conversions, float to integer: round to nearest even
/// after clamping to the representable range, NaN to 0.
float clampf(float V, float Lo, float Hi) {
  if (std::isnan(V))
    return 0.0f;
  return std::min(std::max(V, Lo), Hi);
}
uint32_t unorm(float V, float Max) {
  return static_cast<uint32_t>(std::nearbyint(clampf(V, 0.0f, 1.0f) * Max));
}
int32_t snorm(float V, float Max) {
  return static_cast<int32_t>(std::nearbyint(clampf(V, -1.0f, 1.0f) * Max));
}
/// The sRGB encoding of a linear value (OpenCL C spec, "Conversion Rules
/// for sRGBA and sBGRA Images").
float srgbEncode(float C) {
  if (std::isnan(C))
    C = 0.0f;
  if (C <= 0.0031308f)
    return std::max(C, 0.0f) * 12.92f;
  if (C >= 1.0f)
    return 1.0f;
  return 1.055f * std::pow(C, 1.0f / 2.4f) - 0.055f;
}
} // namespace

void packFillColor(const cl_image_format &F, const void *Color,
                   unsigned char *Pixel) {
  cl_channel_order O = F.image_channel_order;
  cl_channel_type T = F.image_channel_data_type;
  float Cf[4] = {0, 0, 0, 0};
  int32_t Ci[4] = {0, 0, 0, 0};
  uint32_t Cu[4] = {0, 0, 0, 0};
  // "The fill color is a single floating-point value if the channel order is
  // CL_DEPTH. Otherwise, the fill color is a four component RGBA
  // floating-point color value if the image channel data type is not an
  // unnormalized signed or unsigned integer type, is a four component
  // signed integer value if the image channel data type is an unnormalized
  // signed integer type and is a four component unsigned integer value if
  // the image channel data type is an unnormalized unsigned integer type."
  bool Signed =
      T == CL_SIGNED_INT8 || T == CL_SIGNED_INT16 || T == CL_SIGNED_INT32;
  bool Unsigned =
      T == CL_UNSIGNED_INT8 || T == CL_UNSIGNED_INT16 || T == CL_UNSIGNED_INT32;
  size_t N = O == CL_DEPTH ? 1 : 4;
  if (Signed)
    std::memcpy(Ci, Color, N * 4);
  else if (Unsigned)
    std::memcpy(Cu, Color, N * 4);
  else
    std::memcpy(Cf, Color, N * 4);

  // The packed formats first: one element of 16 or 32 bits.
  if (T == CL_UNORM_SHORT_565 || T == CL_UNORM_SHORT_555) {
    bool Six = T == CL_UNORM_SHORT_565;
    uint16_t V = static_cast<uint16_t>(unorm(Cf[0], 31) << (Six ? 11 : 10) |
                                       unorm(Cf[1], Six ? 63 : 31) << 5 |
                                       unorm(Cf[2], 31));
    std::memcpy(Pixel, &V, 2);
    return;
  }
  if (T == CL_UNORM_INT_101010) {
    uint32_t V = unorm(Cf[0], 1023) << 20 | unorm(Cf[1], 1023) << 10 |
                 unorm(Cf[2], 1023);
    std::memcpy(Pixel, &V, 4);
    return;
  }
  if (T == CL_UNORM_INT_101010_2) {
    uint32_t V = unorm(Cf[0], 1023) << 22 | unorm(Cf[1], 1023) << 12 |
                 unorm(Cf[2], 1023) << 2 | unorm(Cf[3], 3);
    std::memcpy(Pixel, &V, 4);
    return;
  }

  // Which RGBA component each stored channel holds.
  int Map[4] = {0, 1, 2, 3};
  unsigned NC = orderChannels(O);
  switch (O) {
  case CL_A:
    Map[0] = 3;
    break;
  case CL_RA:
    Map[1] = 3;
    break;
  case CL_BGRA:
  case CL_sBGRA:
    Map[0] = 2, Map[2] = 0;
    break;
  case CL_ARGB:
    Map[0] = 3, Map[1] = 0, Map[2] = 1, Map[3] = 2;
    break;
  case CL_ABGR:
    Map[0] = 3, Map[1] = 2, Map[2] = 1, Map[3] = 0;
    break;
  default:
    break;
  }
  if (isSrgb(O))
    for (int C = 0; C < 3; ++C)
      Cf[C] = srgbEncode(Cf[C]);
  for (unsigned C = 0; C < NC; ++C) {
    int S = Map[C];
    unsigned char *P = Pixel + C * channelBytes(T);
    switch (T) {
    case CL_UNORM_INT8:
      P[0] = static_cast<uint8_t>(unorm(Cf[S], 255));
      break;
    case CL_UNORM_INT16: {
      uint16_t V = static_cast<uint16_t>(unorm(Cf[S], 65535));
      std::memcpy(P, &V, 2);
      break;
    }
    case CL_SNORM_INT8:
      P[0] = static_cast<uint8_t>(static_cast<int8_t>(snorm(Cf[S], 127)));
      break;
    case CL_SNORM_INT16: {
      int16_t V = static_cast<int16_t>(snorm(Cf[S], 32767));
      std::memcpy(P, &V, 2);
      break;
    }
    case CL_SIGNED_INT8:
      P[0] = static_cast<uint8_t>(
          static_cast<int8_t>(std::clamp<int32_t>(Ci[S], -128, 127)));
      break;
    case CL_SIGNED_INT16: {
      int16_t V =
          static_cast<int16_t>(std::clamp<int32_t>(Ci[S], -32768, 32767));
      std::memcpy(P, &V, 2);
      break;
    }
    case CL_SIGNED_INT32:
      std::memcpy(P, &Ci[S], 4);
      break;
    case CL_UNSIGNED_INT8:
      P[0] = static_cast<uint8_t>(std::min<uint32_t>(Cu[S], 255));
      break;
    case CL_UNSIGNED_INT16: {
      uint16_t V = static_cast<uint16_t>(std::min<uint32_t>(Cu[S], 65535));
      std::memcpy(P, &V, 2);
      break;
    }
    case CL_UNSIGNED_INT32:
      std::memcpy(P, &Cu[S], 4);
      break;
    case CL_HALF_FLOAT: {
      uint16_t V = floatToHalf(Cf[S]);
      std::memcpy(P, &V, 2);
      break;
    }
    case CL_FLOAT:
      std::memcpy(P, &Cf[S], 4);
      break;
    default:
      break;
    }
  }
}

//===----------------------------------------------------------------------===//
// Creation.
//===----------------------------------------------------------------------===//

namespace {
constexpr cl_mem_flags AccessFlags =
    CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
constexpr cl_mem_flags HostAccessFlags =
    CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
constexpr cl_mem_flags HostPtrFlags =
    CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;

const char *typeName(cl_mem_object_type T) {
  switch (T) {
  case CL_MEM_OBJECT_IMAGE1D:
    return "1D image";
  case CL_MEM_OBJECT_IMAGE1D_BUFFER:
    return "1D image buffer";
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    return "1D image array";
  case CL_MEM_OBJECT_IMAGE2D:
    return "2D image";
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    return "2D image array";
  default:
    return "3D image";
  }
}

/// "Compatible Image Channel Orders": the orders a 2D image created from
/// another 2D image may view its data with.
bool compatibleOrders(cl_channel_order New, cl_channel_order Old) {
  if (New == Old)
    return true;
  auto Pair = [&](cl_channel_order A, cl_channel_order B) {
    return (New == A && Old == B) || (New == B && Old == A);
  };
  return Pair(CL_sBGRA, CL_BGRA) || Pair(CL_sRGBA, CL_RGBA) ||
         Pair(CL_sRGB, CL_RGB) || Pair(CL_sRGBx, CL_RGBx) ||
         (New == CL_DEPTH && Old == CL_R);
}

/// The dimension checks of the Image Descriptor section; \p Buffer is
/// the buffer of a 1D image buffer (for its size limit).
cl_int checkDimensions(const cl_image_desc &D, Context *Ctx) {
  using L = ImageLimits;
  auto Bad = [&](const std::string &What) {
    return fail(CL_INVALID_IMAGE_SIZE,
                std::string(typeName(D.image_type)) + ": " + What, Ctx);
  };
  auto In = [](size_t V, size_t Max) { return V >= 1 && V <= Max; };
  switch (D.image_type) {
  case CL_MEM_OBJECT_IMAGE1D_BUFFER:
    // "For a 1D image buffer, the image width must be greater than or equal
    // to one and less than or equal to the value returned for
    // CL_DEVICE_IMAGE_MAX_BUFFER_SIZE".
    if (!In(D.image_width, L::MaxBufferSize))
      return Bad("image_width is 0 or exceeds CL_DEVICE_IMAGE_MAX_BUFFER_SIZE");
    return CL_SUCCESS;
  case CL_MEM_OBJECT_IMAGE3D:
    // "For a 3D image, the image width [height, depth] must be greater than
    // or equal to one and less than or equal to the value returned for
    // CL_DEVICE_IMAGE3D_MAX_WIDTH [HEIGHT, DEPTH]".
    if (!In(D.image_width, L::Max3DWidth))
      return Bad("image_width is 0 or exceeds CL_DEVICE_IMAGE3D_MAX_WIDTH");
    if (!In(D.image_height, L::Max3DHeight))
      return Bad("image_height is 0 or exceeds CL_DEVICE_IMAGE3D_MAX_HEIGHT");
    if (!In(D.image_depth, L::Max3DDepth))
      return Bad("image_depth is 0 or exceeds CL_DEVICE_IMAGE3D_MAX_DEPTH");
    return CL_SUCCESS;
  default:
    // "For a 1D image, 1D image array, 2D image, or 2D image array, the
    // image width must be greater than or equal to one and less than or
    // equal to the value returned for CL_DEVICE_IMAGE2D_MAX_WIDTH".
    if (!In(D.image_width, L::Max2DWidth))
      return Bad("image_width is 0 or exceeds CL_DEVICE_IMAGE2D_MAX_WIDTH");
    break;
  }
  // "For a 2D image or 2D image array, the image height must [be] greater
  // than or equal to one and less than or equal to the value returned for
  // CL_DEVICE_IMAGE2D_MAX_HEIGHT".
  if ((D.image_type == CL_MEM_OBJECT_IMAGE2D ||
       D.image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY) &&
      !In(D.image_height, L::Max2DHeight))
    return Bad("image_height is 0 or exceeds CL_DEVICE_IMAGE2D_MAX_HEIGHT");
  // "For a 1D image array or 2D image array, the image array size must be
  // greater than or equal to one and less than or equal to the value
  // returned for CL_DEVICE_IMAGE_MAX_ARRAY_SIZE".
  if ((D.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
       D.image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY) &&
      !In(D.image_array_size, L::MaxArraySize))
    return Bad("image_array_size is 0 or exceeds "
               "CL_DEVICE_IMAGE_MAX_ARRAY_SIZE");
  return CL_SUCCESS;
}

/// The flags of an image created from \p Src: the spec's inheritance
/// rules and their CL_INVALID_VALUE checks.
cl_int inheritFlags(cl_mem_flags F, const Mem *Src, Context *Ctx,
                    cl_mem_flags &Out) {
  cl_mem_flags P = Src->flags();
  // CL_INVALID_VALUE if an image is being created from another memory object
  // (buffer or image) under one of the following circumstances: mem_object
  // was created with CL_MEM_WRITE_ONLY and flags specifies CL_MEM_READ_WRITE
  // or CL_MEM_READ_ONLY; mem_object was created with CL_MEM_READ_ONLY and
  // flags specifies CL_MEM_READ_WRITE or CL_MEM_WRITE_ONLY; flags specifies
  // CL_MEM_USE_HOST_PTR or CL_MEM_ALLOC_HOST_PTR or CL_MEM_COPY_HOST_PTR.
  if (((P & CL_MEM_WRITE_ONLY) &&
       (F & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
      ((P & CL_MEM_READ_ONLY) && (F & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))))
    return fail(CL_INVALID_VALUE,
                "flags conflict with the access flags of mem_object", Ctx);
  if (F & HostPtrFlags)
    return fail(CL_INVALID_VALUE,
                "flags of an image created from mem_object cannot contain "
                "CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR or "
                "CL_MEM_COPY_HOST_PTR",
                Ctx);
  // ... mem_object was created with CL_MEM_HOST_WRITE_ONLY and flags
  // specifies CL_MEM_HOST_READ_ONLY; ... CL_MEM_HOST_READ_ONLY and flags
  // specifies CL_MEM_HOST_WRITE_ONLY; ... CL_MEM_HOST_NO_ACCESS and flags
  // specifies CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_WRITE_ONLY.
  if (((P & CL_MEM_HOST_WRITE_ONLY) && (F & CL_MEM_HOST_READ_ONLY)) ||
      ((P & CL_MEM_HOST_READ_ONLY) && (F & CL_MEM_HOST_WRITE_ONLY)) ||
      ((P & CL_MEM_HOST_NO_ACCESS) &&
       (F & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))))
    return fail(CL_INVALID_VALUE,
                "flags conflict with the host access flags of mem_object", Ctx);
  // "If the CL_MEM_READ_WRITE, CL_MEM_READ_ONLY or CL_MEM_WRITE_ONLY values
  // are not specified in flags, they are inherited"; "The
  // CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR and CL_MEM_COPY_HOST_PTR
  // values ... are inherited"; likewise the host access flags.
  Out = F | (P & HostPtrFlags);
  if (!(F & AccessFlags))
    Out |= P & AccessFlags;
  if (!(F & HostAccessFlags))
    Out |= P & HostAccessFlags;
  return CL_SUCCESS;
}
} // namespace

cl_int Mem::createImage(Context *Ctx, cl_mem_flags Flags,
                        const cl_image_format *Format,
                        const cl_image_desc *Desc, void *HostPtr,
                        std::vector<cl_mem_properties> Props, bool LegacyPitch,
                        Mem *&Out) {
  // CL_INVALID_VALUE if values specified in flags are not valid as defined
  // in the Memory Flags table.
  if (cl_int Err = checkBufferFlags(Flags, Ctx))
    return Err;
  // CL_INVALID_IMAGE_FORMAT_DESCRIPTOR if image_format is NULL / if values
  // specified in image_format are not valid.
  if (!Format)
    return fail(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "image_format is NULL",
                Ctx);
  size_t ES = imageElementSize(*Format);
  if (ES == 0)
    return fail(
        CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
        "image_format is not a valid format descriptor (order 0x" +
            [&] {
              char B[32];
              std::snprintf(B, sizeof B, "%x, data type 0x%x",
                            Format->image_channel_order,
                            Format->image_channel_data_type);
              return std::string(B);
            }() +
            ")",
        Ctx);
  // CL_INVALID_IMAGE_DESCRIPTOR if values specified in image_desc are not
  // valid or if image_desc is NULL.
  if (!Desc)
    return fail(CL_INVALID_IMAGE_DESCRIPTOR, "image_desc is NULL", Ctx);
  const cl_image_desc &D = *Desc;
  if (!isImageType(D.image_type))
    return fail(CL_INVALID_IMAGE_DESCRIPTOR,
                "image_desc->image_type is not an image type", Ctx);
  // "num_mip_levels must be 0"; "num_samples must be 0".
  if (D.num_mip_levels != 0)
    return fail(CL_INVALID_IMAGE_DESCRIPTOR,
                "image_desc->num_mip_levels is not 0 (mipmaps are not "
                "supported)",
                Ctx);
  if (D.num_samples != 0)
    return fail(CL_INVALID_IMAGE_DESCRIPTOR, "image_desc->num_samples is not 0",
                Ctx);

  // "mem_object may refer to a valid buffer or image memory object.
  // mem_object can be a buffer memory object if image_type is
  // CL_MEM_OBJECT_IMAGE1D_BUFFER or CL_MEM_OBJECT_IMAGE2D. mem_object can
  // be an image object if image_type is CL_MEM_OBJECT_IMAGE2D. Otherwise it
  // must be NULL."
  Mem *Src = nullptr;
  if (D.mem_object) {
    Src = Mem::fromHandle(D.mem_object);
    if (!Src || Src->context() != Ctx)
      return fail(CL_INVALID_IMAGE_DESCRIPTOR,
                  "image_desc->mem_object is not a valid memory object of "
                  "the context",
                  Ctx);
    bool Ok =
        (D.image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER && !Src->isImage()) ||
        (D.image_type == CL_MEM_OBJECT_IMAGE2D &&
         (!Src->isImage() || Src->image()->Type == CL_MEM_OBJECT_IMAGE2D));
    if (!Ok)
      return fail(CL_INVALID_IMAGE_DESCRIPTOR,
                  std::string("image_desc->mem_object cannot back a ") +
                      typeName(D.image_type) +
                      " (a buffer backs 1D image buffers and 2D images, a "
                      "2D image backs 2D images)",
                  Ctx);
  } else if (D.image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
    return fail(CL_INVALID_IMAGE_DESCRIPTOR,
                "a 1D image buffer needs a buffer in image_desc->mem_object",
                Ctx);
  }
  cl_mem_flags Eff = Flags;
  if (Src) {
    if (cl_int Err = inheritFlags(Flags, Src, Ctx, Eff))
      return Err;
  } else if (!(Flags & AccessFlags)) {
    // "For all image types except CL_MEM_OBJECT_IMAGE1D_BUFFER, if the
    // value specified for flags is 0, the default is used which is
    // CL_MEM_READ_WRITE." (A 1D image buffer always has a buffer.)
    Eff |= CL_MEM_READ_WRITE;
  }

  if (cl_int Err = checkDimensions(D, Ctx))
    return Err;

  if (cl_int Err = checkHostPtr(Ctx, Flags, HostPtr))
    return Err;

  // The pitches. clCreateImage2D/3D report a pitch that breaks the rules as
  // CL_INVALID_IMAGE_SIZE ("if values specified by image_row_pitch do not
  // follow rules described in the argument description"), clCreateImage as
  // a descriptor that is not valid.
  cl_int PitchErr =
      LegacyPitch ? CL_INVALID_IMAGE_SIZE : CL_INVALID_IMAGE_DESCRIPTOR;
  bool FromBuffer = Src && !Src->isImage();
  bool TwoDFromBuffer = FromBuffer && D.image_type == CL_MEM_OBJECT_IMAGE2D;
  bool Layered = D.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
                 D.image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                 D.image_type == CL_MEM_OBJECT_IMAGE3D;
  size_t RowBytes = D.image_width * ES; // width <= 2^27, ES <= 16
  // "The image_row_pitch must be zero if host_ptr is NULL, ... and the image
  // is not a 2D image created from a buffer."
  // (A 2D image created from a 2D image may repeat the row pitch of its
  // mem_object: "the values specified in image_desc ... must match".)
  if (D.image_row_pitch && !HostPtr && !Src)
    return fail(PitchErr,
                "image_row_pitch is not 0 but host_ptr is NULL and the image "
                "is not a 2D image created from a buffer",
                Ctx);
  // "If image_row_pitch is non-zero, then it must be greater than or equal
  // to the image_width times the size of an image element in bytes, and must
  // be a multiple of the size of an image element in bytes."
  if (D.image_row_pitch &&
      (D.image_row_pitch < RowBytes || D.image_row_pitch % ES))
    return fail(PitchErr,
                "image_row_pitch is less than image_width x the element "
                "size or not a multiple of the element size",
                Ctx);
  size_t RowPitch = D.image_row_pitch ? D.image_row_pitch : RowBytes;
  // "The image_slice_pitch must be zero if host_ptr is NULL".
  if (Layered && D.image_slice_pitch && !HostPtr)
    return fail(PitchErr, "image_slice_pitch is not 0 but host_ptr is NULL",
                Ctx);
  size_t Rows = D.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 1
                : D.image_type == CL_MEM_OBJECT_IMAGE1D ||
                        D.image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER
                    ? 1
                    : D.image_height;
  CheckedSize MinSlice = CheckedSize(RowPitch) * Rows;
  if (!MinSlice.valid())
    return fail(CL_INVALID_IMAGE_SIZE,
                "image_row_pitch x image_height overflows size_t", Ctx);
  size_t SlicePitch = MinSlice.value();
  if (Layered && D.image_slice_pitch) {
    // "The image slice pitch must be >= the image row pitch x image_height
    // for a 2D image array or a 3D image, must be >= the image row pitch for
    // a 1D image array, and must be a multiple of the image row pitch."
    if (D.image_slice_pitch < SlicePitch || D.image_slice_pitch % RowPitch)
      return fail(PitchErr,
                  "image_slice_pitch is less than the image row pitch x "
                  "image_height or not a multiple of the row pitch",
                  Ctx);
    SlicePitch = D.image_slice_pitch;
  }
  ImageDesc I{};
  I.Type = D.image_type;
  I.Format = *Format;
  I.ElementSize = ES;
  I.Width = D.image_width;
  I.Height = D.image_type == CL_MEM_OBJECT_IMAGE2D ||
                     D.image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                     D.image_type == CL_MEM_OBJECT_IMAGE3D
                 ? D.image_height
                 : 0;
  I.Depth = D.image_type == CL_MEM_OBJECT_IMAGE3D ? D.image_depth : 0;
  I.ArraySize = D.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
                        D.image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY
                    ? D.image_array_size
                    : 0;
  I.RowPitch = RowPitch;
  I.SlicePitch = SlicePitch;
  size_t E[3];
  I.extents(E);
  // The bytes the image spans, from the checked pitches.
  CheckedSize Span = CheckedSize(E[2] - 1) * I.stride2() +
                     CheckedSize(E[1] - 1) * I.stride1() + RowBytes;
  // CL_INVALID_IMAGE_SIZE if the image dimensions ... exceed the maximum
  // image dimensions: an image larger than CL_DEVICE_MAX_MEM_ALLOC_SIZE
  // cannot be allocated as one object.
  if (!Span.fitsIn(maxAllocSize(Ctx)))
    return fail(CL_INVALID_IMAGE_SIZE,
                "the image's bytes exceed CL_DEVICE_MAX_MEM_ALLOC_SIZE", Ctx);
  // Required host_ptr buffer sizes: the host range must be an address range.
  if (HostPtr && hostRangeWraps(HostPtr, Span.value()))
    return fail(CL_INVALID_HOST_PTR,
                "host_ptr + the image size wraps around the address space",
                Ctx);

  void *Data = nullptr;
  if (Src && Src->isImage()) {
    // "Creating a 2D image object from another 2D image object creates a new
    // 2D image object that shares the image data store with mem_object but
    // views the pixels in the image with a different image channel order.
    // Restrictions are: All of the values specified in image_desc must match
    // the image descriptor information associated with mem_object, except
    // for mem_object. The image channel data type specified in image_format
    // must match the image channel data type associated with mem_object. The
    // image channel order specified in image_format must be compatible with
    // the image channel order associated with mem_object".
    const ImageDesc &S = *Src->image();
    if (D.image_width != S.Width || D.image_height != S.Height ||
        (D.image_row_pitch && D.image_row_pitch != S.RowPitch))
      return fail(CL_INVALID_IMAGE_DESCRIPTOR,
                  "image_desc does not match the descriptor of the 2D "
                  "image in mem_object",
                  Ctx);
    if (Format->image_channel_data_type != S.Format.image_channel_data_type)
      return fail(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
                  "the channel data type differs from mem_object's", Ctx);
    if (!compatibleOrders(Format->image_channel_order,
                          S.Format.image_channel_order))
      return fail(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
                  "the channel order is not compatible with mem_object's "
                  "(Compatible Image Channel Orders table)",
                  Ctx);
    I.RowPitch = S.RowPitch;
    I.SlicePitch = S.SlicePitch;
    I.Buffer = S.Buffer;
    Data = Src->data();
  } else if (FromBuffer) {
    if (TwoDFromBuffer) {
      // "For a 2D image created from a buffer the image_row_pitch must also
      // be a multiple of the maximum of the CL_DEVICE_IMAGE_PITCH_ALIGNMENT
      // value for all devices in the context that support images" (in
      // pixels). CL_INVALID_IMAGE_FORMAT_DESCRIPTOR if a 2D image is created
      // from a buffer and the row pitch and base address alignment does not
      // follow the rules described for creating a 2D image from a buffer.
      if (RowPitch % (ImageLimits::PitchAlignment * ES))
        return fail(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
                    "image_row_pitch is not a multiple of "
                    "CL_DEVICE_IMAGE_PITCH_ALIGNMENT pixels",
                    Ctx);
      // "If the buffer object specified by mem_object was created with
      // CL_MEM_USE_HOST_PTR, the host_ptr specified to clCreateBuffer ...
      // must be aligned to the maximum of the
      // CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT value" (in pixels).
      if (reinterpret_cast<uintptr_t>(Src->data()) %
          (ImageLimits::BaseAddressAlignment * ES))
        return fail(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
                    "the buffer's address is not aligned to "
                    "CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT pixels",
                    Ctx);
      // "For a 2D image created from a buffer object, the image_row_pitch x
      // image_height must be <= size of the buffer object".
      CheckedSize Need = CheckedSize(RowPitch) * D.image_height;
      if (!Need.fitsIn(Src->size()))
        return fail(CL_INVALID_IMAGE_SIZE,
                    "image_row_pitch x image_height exceeds the size of the "
                    "buffer in mem_object",
                    Ctx);
    }
    // "For a 1D image buffer created from a buffer object, the image_width x
    // size of element in bytes must be <= size of the buffer object."
    if (Span.value() > Src->size())
      return fail(CL_INVALID_IMAGE_SIZE,
                  "the image needs " + std::to_string(Span.value()) +
                      " bytes, more than the " + std::to_string(Src->size()) +
                      "-byte buffer in mem_object",
                  Ctx);
    I.Buffer = Src->handle();
    Data = Src->data();
  }

  // CL_IMAGE_FORMAT_NOT_SUPPORTED if there are no devices in context that
  // support image_format. (For any access: the flags say how kernels will
  // use the image, which a format for reading only still allows.)
  if (!imageFormatSupported(*Format, D.image_type, CL_MEM_READ_ONLY))
    return fail(CL_IMAGE_FORMAT_NOT_SUPPORTED,
                std::string("the image format is not supported for a ") +
                    typeName(D.image_type) + " with these flags",
                Ctx);

  size_t Size = I.byteSize();
  auto Desc2 = std::make_shared<const ImageDesc>(I);
  if (Src) {
    Out =
        new Mem(Ctx, Src, Eff, Size, 0, Data, false, nullptr, std::move(Props));
  } else if (Flags & CL_MEM_USE_HOST_PTR) {
    // Zero copy: the image is the application's memory, in its own layout
    // (the pitches it gave).
    Out = new Mem(Ctx, nullptr, Eff, Size, 0, HostPtr, false, HostPtr,
                  std::move(Props));
  } else {
    // Our own bytes, in the layout the pitches describe: computed from the
    // dimensions, or for CL_MEM_COPY_HOST_PTR the application's ("If image
    // was created with a non-zero value for image_row_pitch, then the value
    // provided ... is returned" by CL_IMAGE_ROW_PITCH), so the copy is one
    // block.
    Data = allocate(Ctx, Size);
    // CL_MEM_OBJECT_ALLOCATION_FAILURE if there is a failure to allocate
    // memory for image object.
    if (!Data)
      return fail(CL_MEM_OBJECT_ALLOCATION_FAILURE,
                  "cannot allocate " + std::to_string(Size) + " bytes", Ctx);
    if (Flags & CL_MEM_COPY_HOST_PTR)
      std::memcpy(Data, HostPtr, Size);
    try {
      Out = new Mem(Ctx, nullptr, Eff, Size, 0, Data, true, nullptr,
                    std::move(Props));
    } catch (...) {
      deallocate(Ctx, Data, Size);
      throw;
    }
  }
  // The kernels' view (builtins/image.cl); the sizes fit in int32 (the
  // device limits).
  {
    auto D2 = std::make_shared<ImageDesc>(*Desc2);
    DeviceImage &Dev = D2->Device;
    Dev.Data = static_cast<char *>(Out->data());
    Dev.RowPitch = D2->RowPitch;
    Dev.SlicePitch = D2->SlicePitch;
    Dev.Width = static_cast<int32_t>(D2->Width);
    Dev.Height = static_cast<int32_t>(D2->Height);
    Dev.Depth = static_cast<int32_t>(D2->Depth);
    Dev.ArraySize = static_cast<int32_t>(D2->ArraySize);
    Dev.Order = D2->Format.image_channel_order;
    Dev.Type = D2->Format.image_channel_data_type;
    Dev.ElementSize = static_cast<uint32_t>(D2->ElementSize);
    Dev.Channels = imageChannels(D2->Format);
    Desc2 = std::move(D2);
  }
  Out->Image = std::move(Desc2);
  return CL_SUCCESS;
}

} // namespace clcpu

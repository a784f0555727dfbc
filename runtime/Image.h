#ifndef CLCPU_RUNTIME_IMAGE_H
#define CLCPU_RUNTIME_IMAGE_H

// Image objects (OpenCL 3.0 API spec, 5.3 "Image Objects"): the formats the
// device supports, the descriptor an image memory object carries, and the
// coordinate rules the image commands share. An image is a Mem
// (runtime/Mem.h) whose image() is set: its bytes are host memory laid out
// row by row with the pitches below, so every host command is a rectangle
// copy (copyRect) and a map is a pointer into the image.

#include "compiler/Compiler.h"
#include "runtime/Mem.h"

#include <CL/cl.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace clcpu {

class Context;

/// Size in bytes of one element of \p F, or 0 if \p F is not a valid
/// format descriptor (an unknown order or data type, a combination the
/// Image Format Descriptor section forbids, or a number of bits per element
/// that is not a power of two).
size_t imageElementSize(const cl_image_format &F);

/// True if the device supports \p F for images of type \p Type used as
/// \p Flags says (the access bits of clGetSupportedImageFormats).
bool imageFormatSupported(const cl_image_format &F, cl_mem_object_type Type,
                          cl_mem_flags Flags);

/// The list clGetSupportedImageFormats returns for \p Type and \p Flags.
std::vector<cl_image_format> supportedImageFormats(cl_mem_object_type Type,
                                                   cl_mem_flags Flags);

/// True for the image memory object types.
bool isImageType(cl_mem_object_type Type);

struct ImageDesc;
/// True if image \p I may be the kernel argument of OpenCL C type
/// \p TypeName ("image2d_t", "image2d_depth_t", ...): the same image type,
/// and the CL_DEPTH channel order for the depth image types (a CL_DEPTH
/// image read as image2d_t gives (depth, 0, 0, 1)).
bool imageFitsArgType(const ImageDesc &I, const std::string &TypeName);

/// The device's image limits (the CL_DEVICE_IMAGE* queries), one place.
struct ImageLimits {
  static constexpr size_t Max2DWidth = 16384;
  static constexpr size_t Max2DHeight = 16384;
  static constexpr size_t Max3DWidth = 2048;
  static constexpr size_t Max3DHeight = 2048;
  static constexpr size_t Max3DDepth = 2048;
  static constexpr size_t MaxArraySize = 2048;
  /// CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, in pixels.
  static constexpr size_t MaxBufferSize = size_t(1) << 27;
  /// CL_DEVICE_IMAGE_PITCH_ALIGNMENT and
  /// CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, in pixels: the CPU reads any
  /// element wherever it lies.
  static constexpr cl_uint PitchAlignment = 1;
  static constexpr cl_uint BaseAddressAlignment = 1;
  static constexpr cl_uint MaxReadArgs = 128;
  static constexpr cl_uint MaxWriteArgs = 64;
  /// Kernels take read_write images (__opencl_c_read_write_images): the
  /// spec's minimum of 64 where they are supported.
  static constexpr cl_uint MaxReadWriteArgs = 64;
  static constexpr cl_uint MaxSamplers = 16;
};

/// What a kernel's image argument points to: the layout builtins/image.cl
/// reads (its ClcpuImage), one per image, made at creation.
struct DeviceImage {
  char *Data;
  uint64_t RowPitch;
  uint64_t SlicePitch;
  int32_t Width, Height, Depth, ArraySize;
  uint32_t Order, Type, ElementSize, Channels;
};
static_assert(sizeof(DeviceImage) == 56, "the layout of builtins/image.cl");
// The fields a launch-time specialization fixes (compiler::ArgBindings).
static_assert(offsetof(DeviceImage, Order) ==
                      compiler::ImageDescriptorLayout::Order &&
                  offsetof(DeviceImage, Type) ==
                      compiler::ImageDescriptorLayout::Type &&
                  offsetof(DeviceImage, ElementSize) ==
                      compiler::ImageDescriptorLayout::ElementSize &&
                  offsetof(DeviceImage, Channels) ==
                      compiler::ImageDescriptorLayout::Channels &&
                  sizeof(DeviceImage) == compiler::ImageDescriptorLayout::Size,
              "compiler/Compiler.h's ImageDescriptorLayout");

/// What an image memory object is beyond its bytes. Immutable.
struct ImageDesc {
  cl_mem_object_type Type;
  cl_image_format Format;
  size_t ElementSize;
  /// As CL_IMAGE_WIDTH / HEIGHT / DEPTH / ARRAY_SIZE report them (0 where
  /// the type has no such dimension).
  size_t Width, Height, Depth, ArraySize;
  /// The pitches of the bytes: CL_IMAGE_ROW_PITCH, and the distance
  /// between 2D slices or array layers (CL_IMAGE_SLICE_PITCH reports 0 for
  /// 1D, 1D buffer and 2D images).
  size_t RowPitch, SlicePitch;
  /// CL_IMAGE_BUFFER: the buffer a 1D image buffer or a 2D image was
  /// created from, else null.
  cl_mem Buffer = nullptr;
  /// The image as kernels see it (builtins/image.cl).
  DeviceImage Device{};

  /// The extent of each origin/region coordinate: (width, height or layers,
  /// depth or layers), 1 where the type has no such coordinate.
  void extents(size_t E[3]) const;
  /// The byte stride of origin[1] and of origin[2] (for a 1D image array,
  /// origin[1] is the layer).
  size_t stride1() const {
    return Type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? SlicePitch : RowPitch;
  }
  size_t stride2() const { return SlicePitch; }
  /// The image side of a rectangle copy at \p Origin (already checked).
  RectSide side(const size_t *Origin) const {
    return {
        {Origin[0] * ElementSize, Origin[1], Origin[2]}, stride1(), stride2()};
  }
  /// The number of bytes the image spans.
  size_t byteSize() const;
};

/// The origin and region checks every image command makes (\p OriginName
/// names the origin argument in the reason): non-NULL, the origin/region
/// rules of the image type, no component 0, inside the image (without
/// overflow).
cl_int checkImageRegion(const ImageDesc &I, const size_t *Origin,
                        const size_t *Region, const char *OriginName,
                        Context *Ctx);

/// The linear side of a transfer between image \p I and host memory or a
/// buffer: \p RowPitch and \p SlicePitch as the application gave them (0:
/// tightly packed), checked against the region, the rules of
/// clEnqueueReadImage for its row_pitch and slice_pitch; \p What names the
/// pitches in the reason ("row_pitch", "input_row_pitch"). Region[0]
/// times the element size must fit size_t (checkImageRegion).
cl_int linearSide(const ImageDesc &I, const size_t *Region, size_t RowPitch,
                  size_t SlicePitch, const char *RowName, const char *SliceName,
                  RectSide &Out, Context *Ctx);

/// The region with its first component in bytes, for copyRect.
inline std::array<size_t, 3> byteRegion(const ImageDesc &I,
                                        const size_t *Region) {
  return {Region[0] * I.ElementSize, Region[1], Region[2]};
}

/// clEnqueueFillImage: converts \p Color (float[4], int[4] or uint[4] by the
/// data type; float[1] for CL_DEPTH) to one element of \p F, written to
/// \p Pixel (at least imageElementSize(F) bytes).
void packFillColor(const cl_image_format &F, const void *Color,
                   unsigned char *Pixel);

/// The number of channels an element of \p F stores (3 for the packed
/// CL_RGB formats).
unsigned imageChannels(const cl_image_format &F);

/// IEEE half precision of \p F, rounded to nearest even.
uint16_t floatToHalf(float F);

} // namespace clcpu

#endif

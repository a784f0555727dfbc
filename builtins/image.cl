//===- builtins/image.cl - image reads, writes and queries ----------------===//
//
// OpenCL C 3.0, 6.15.15 "Image Read and Write Functions" and 8 "Image
// Addressing and Filtering", for every image type (1D, 1D buffer, 1D array,
// 2D, 2D array, 3D, and cl_khr_depth_images' 2D and 2D array depth images)
// and access qualifier (read_only, write_only, read_write: one ClcpuImage,
// the same functions). Clang lowers image and sampler types to plain
// pointers for an x86 target: an image argument is a pointer to the
// ClcpuImage the runtime keeps with each image (runtime/Image.h,
// DeviceImage: the same layout), a sampler is its CLK_* bits in a pointer
// (Sampler::kernelBits, and __translate_sampler_initializer for samplers
// declared in the source). The functions are defined under the mangled
// names Clang gives the image builtins (asm labels), with those pointer
// types, so that no image type is needed here; they inline into the
// kernel like every builtin.

#include "Builtins.h"

typedef struct {
  global uchar *data;
  ulong row_pitch;
  ulong slice_pitch;
  int width, height, depth, array_size;
  uint order, type, elem_size, channels;
} ClcpuImage;

typedef const ClcpuImage *Img;
typedef void *Smp;

// cl_channel_order and cl_channel_type values (CL/cl.h).
#define O_R 0x10B0
#define O_A 0x10B1
#define O_RG 0x10B2
#define O_RA 0x10B3
#define O_RGB 0x10B4
#define O_RGBA 0x10B5
#define O_BGRA 0x10B6
#define O_ARGB 0x10B7
#define O_INTENSITY 0x10B8
#define O_LUMINANCE 0x10B9
#define O_DEPTH 0x10BD
#define O_sRGB 0x10BF
#define O_sRGBx 0x10C0
#define O_sRGBA 0x10C1
#define O_sBGRA 0x10C2
#define O_ABGR 0x10C3
#define T_SNORM_INT8 0x10D0
#define T_SNORM_INT16 0x10D1
#define T_UNORM_INT8 0x10D2
#define T_UNORM_INT16 0x10D3
#define T_UNORM_SHORT_565 0x10D4
#define T_UNORM_SHORT_555 0x10D5
#define T_UNORM_INT_101010 0x10D6
#define T_SIGNED_INT8 0x10D7
#define T_SIGNED_INT16 0x10D8
#define T_SIGNED_INT32 0x10D9
#define T_UNSIGNED_INT8 0x10DA
#define T_UNSIGNED_INT16 0x10DB
#define T_UNSIGNED_INT32 0x10DC
#define T_HALF_FLOAT 0x10DD
#define T_FLOAT 0x10DE

// The CLK_* sampler bits (opencl-c-base.h).
#define S_NORMALIZED 0x1
#define S_ADDRESS_MASK 0xE
#define S_CLAMP_TO_EDGE 0x2
#define S_CLAMP 0x4
#define S_REPEAT 0x6
#define S_MIRRORED_REPEAT 0x8
#define S_LINEAR 0x20

/// A sampler constant of the source (OpenCL C 6.15.15.1): its bits are
/// the sampler.
Smp __translate_sampler_initializer(int Bits) { return (Smp)(ulong)Bits; }

static uint samplerBits(Smp S) { return (uint)(ulong)S; }

/// The element at (\p X, \p Y), inside the image: the row's start, plus
/// the offset in the row in 32 bits (a 2D row holds at most
/// CL_DEVICE_IMAGE2D_MAX_WIDTH elements of at most 16 bytes), so that a
/// work-item loop gathers with 32-bit indices from one base.
static global uchar *texel(Img I, int X, int Y) {
  return I->data + (ulong)Y * I->row_pitch + X * (int)I->elem_size;
}

/// A 4-channel element of 8-bit channels is read and written as one 32-bit
/// word (channel 0 in the low byte): a work-item loop then gathers (or,
/// where the texels are adjacent, loads) one word per texel instead of four
/// bytes. The channels stay 32-bit integers (shifts and masks, no uchar4,
/// which the vectorizer would not widen). Row pitches are multiples of the
/// element size, but the data of a CL_MEM_USE_HOST_PTR image need not be
/// aligned: unaligned words.
typedef uint __attribute__((aligned(1))) UnalignedWord;
static uint4 loadBytes4(global uchar *P) {
  uint W = *(global UnalignedWord *)P;
  return (uint4)(W, W >> 8, W >> 16, W >> 24) & 0xFF;
}
/// The same, each byte sign-extended.
static int4 loadSignedBytes4(global uchar *P) {
  int W = *(global UnalignedWord *)P;
  return (int4)(W << 24, W << 16, W << 8, W) >> 24;
}
/// Stores the low bytes of \p V's channels (each at most 0xFF).
static void storeBytes4(global uchar *P, uint4 V) {
  *(global UnalignedWord *)P = V.x | V.y << 8 | V.z << 16 | V.w << 24;
}

/// Element (X, Y) of 2D slice or array layer \p Z (a 1D image array's
/// layers are slices too: its row is its only row).
static global uchar *texel3(Img I, int X, int Y, int Z) {
  return I->data + (ulong)Z * I->slice_pitch + (ulong)Y * I->row_pitch +
         (ulong)X * I->elem_size;
}

/// The sRGB orders: their R, G and B are decoded on reads and encoded on
/// writes ("Conversion Rules for sRGBA and sBGRA Images"; the "sRGB
/// Images" section names all four).
static bool isSrgb(uint Order) {
  return Order == O_sRGB || Order == O_sRGBx || Order == O_sRGBA ||
         Order == O_sBGRA;
}

/// "Conversion Rules for sRGBA and sBGRA Images": sRGB to linear.
static float srgbToLinear(float C) {
  return C <= 0.04045f ? C / 12.92f : pow((C + 0.055f) / 1.055f, 2.4f);
}

/// "Determining the Border Color or Value": (0, 0, 0, 0) for CL_A,
/// CL_INTENSITY, CL_RA, CL_sRGBx, CL_ARGB, CL_BGRA, CL_ABGR, CL_RGBA,
/// CL_sRGBA and CL_sBGRA (and CL_Rx, CL_RGx, CL_RGBx, which no supported
/// format has); (0, 0, 0, 1) for CL_R, CL_RG, CL_RGB and CL_LUMINANCE, and
/// for CL_sRGB, which the list leaves out, like CL_RGB, whose three
/// channels it has. (clGetSupportedImageFormats does not list CL_sRGBx:
/// runtime/Image.cpp says why.)
static bool transparentBorder(uint Order) {
  return Order == O_A || Order == O_RA || Order == O_RGBA || Order == O_BGRA ||
         Order == O_ARGB || Order == O_ABGR || Order == O_INTENSITY ||
         Order == O_sRGBx || Order == O_sRGBA || Order == O_sBGRA;
}

/// The stored channels (first one in .x) as (R, G, B, A): "the missing
/// components are set to 0, alpha to 1" (6.15.15.7).
#define SWIZZLE(T, V, One)                                                     \
  switch (I->order) {                                                          \
  case O_R:                                                                    \
  case O_DEPTH:                                                                \
    return (T)(V.x, 0, 0, One);                                                \
  case O_A:                                                                    \
    return (T)(0, 0, 0, V.x);                                                  \
  case O_RG:                                                                   \
    return (T)(V.x, V.y, 0, One);                                              \
  case O_RA:                                                                   \
    return (T)(V.x, 0, 0, V.y);                                                \
  case O_RGB:                                                                  \
  case O_sRGB:                                                                 \
  case O_sRGBx:                                                                \
    return (T)(V.x, V.y, V.z, One);                                            \
  case O_BGRA:                                                                 \
  case O_sBGRA:                                                                \
    return (T)(V.z, V.y, V.x, V.w);                                            \
  case O_ARGB:                                                                 \
    return (T)(V.y, V.z, V.w, V.x);                                            \
  case O_ABGR:                                                                 \
    return (T)(V.w, V.z, V.y, V.x);                                            \
  case O_INTENSITY:                                                            \
    return (T)(V.x, V.x, V.x, V.x);                                            \
  case O_LUMINANCE:                                                            \
    return (T)(V.x, V.x, V.x, One);                                            \
  default:                                                                     \
    return V;                                                                  \
  }

static float4 swizzleF(Img I, float4 V) { SWIZZLE(float4, V, 1.0f) }
static int4 swizzleI(Img I, int4 V) { SWIZZLE(int4, V, 1) }

/// The element at \p P as float (R, G, B, A): the normalized conversions
/// of 8.3.1.1 and the sRGB decode.
static float4 loadAtF(Img I, global uchar *P) {
  float4 V = 0.0f;
  switch (I->type) {
  case T_UNORM_INT8:
    if (I->channels == 4) {
      V = convert_float4(loadBytes4(P)) / 255.0f;
      break;
    }
    for (uint C = 0; C < I->channels; ++C)
      V[C] = P[C] / 255.0f;
    break;
  case T_UNORM_INT16:
    for (uint C = 0; C < I->channels; ++C)
      V[C] = ((global ushort *)P)[C] / 65535.0f;
    break;
  case T_SNORM_INT8:
    for (uint C = 0; C < I->channels; ++C)
      V[C] = max(((global char *)P)[C] / 127.0f, -1.0f);
    break;
  case T_SNORM_INT16:
    for (uint C = 0; C < I->channels; ++C)
      V[C] = max(((global short *)P)[C] / 32767.0f, -1.0f);
    break;
  case T_HALF_FLOAT:
    for (uint C = 0; C < I->channels; ++C)
      V[C] = vload_half(C, (global half *)P);
    break;
  case T_FLOAT:
    for (uint C = 0; C < I->channels; ++C)
      V[C] = ((global float *)P)[C];
    break;
  case T_UNORM_SHORT_565: {
    ushort U = *(global ushort *)P;
    V.xyz = (float3)((U >> 11) & 31, (U >> 5) & 63, U & 31) /
            (float3)(31.0f, 63.0f, 31.0f);
    break;
  }
  case T_UNORM_SHORT_555: {
    ushort U = *(global ushort *)P;
    V.xyz = (float3)((U >> 10) & 31, (U >> 5) & 31, U & 31) / 31.0f;
    break;
  }
  case T_UNORM_INT_101010: {
    uint U = *(global uint *)P;
    V.xyz = (float3)((U >> 20) & 1023, (U >> 10) & 1023, U & 1023) / 1023.0f;
    break;
  }
  default: // integer formats: undefined for read_imagef
    break;
  }
  V = swizzleF(I, V);
  if (isSrgb(I->order))
    V.xyz = (float3)(srgbToLinear(V.x), srgbToLinear(V.y), srgbToLinear(V.z));
  return V;
}
static float4 loadF(Img I, int X, int Y) { return loadAtF(I, texel(I, X, Y)); }

/// The element at \p P of an integer format as (R, G, B, A), sign- or
/// zero-extended.
static int4 loadAtI(Img I, global uchar *P) {
  if (I->channels == 4 && I->type == T_UNSIGNED_INT8)
    return swizzleI(I, as_int4(loadBytes4(P)));
  if (I->channels == 4 && I->type == T_SIGNED_INT8)
    return swizzleI(I, loadSignedBytes4(P));
  int4 V = 0;
  for (uint C = 0; C < I->channels; ++C)
    switch (I->type) {
    case T_SIGNED_INT8:
      V[C] = ((global char *)P)[C];
      break;
    case T_SIGNED_INT16:
      V[C] = ((global short *)P)[C];
      break;
    case T_UNSIGNED_INT8:
      V[C] = P[C];
      break;
    case T_UNSIGNED_INT16:
      V[C] = ((global ushort *)P)[C];
      break;
    default: // 32-bit
      V[C] = ((global int *)P)[C];
      break;
    }
  return swizzleI(I, V);
}
static int4 loadI(Img I, int X, int Y) { return loadAtI(I, texel(I, X, Y)); }

static float4 borderF(Img I) {
  return transparentBorder(I->order) ? (float4)(0.0f) : (float4)(0, 0, 0, 1.0f);
}
static int4 borderI(Img I) {
  return transparentBorder(I->order) ? (int4)(0) : (int4)(0, 0, 0, 1);
}

/// 8.2 "Addressing and filter modes", nearest: the element index of
/// coordinate \p S (normalized or not) in a dimension of \p Size; false if
/// it selects the border color (CLK_ADDRESS_CLAMP). CLK_ADDRESS_NONE leaves
/// out-of-range coordinates undefined: they are clamped, so that no read
/// leaves the image.
static bool nearestIndex(float S, int Size, uint Bits, int *Out) {
  uint Mode = Bits & S_ADDRESS_MASK;
  float U;
  if (Mode == S_REPEAT) {
    U = (S - floor(S)) * Size;
    int I = (int)floor(U);
    *Out = I > Size - 1 ? I - Size : I;
    *Out = clamp(*Out, 0, Size - 1);
    return true;
  }
  if (Mode == S_MIRRORED_REPEAT) {
    float M = fabs(S - 2.0f * rint(0.5f * S));
    U = M * Size;
    *Out = clamp((int)floor(U), 0, Size - 1);
    return true;
  }
  U = (Bits & S_NORMALIZED) ? S * Size : S;
  // In float first: the conversion of a huge or NaN value is undefined.
  U = fmin(fmax(U, -2.0f), (float)Size + 1.0f);
  int I = (int)floor(U);
  if (Mode == S_CLAMP && (I < 0 || I >= Size))
    return false;
  *Out = clamp(I, 0, Size - 1);
  return true;
}

/// 8.2, linear: the two indices around \p S and the weight of the second;
/// \p In0 / \p In1 false where an index selects the border color.
static float linearIndices(float S, int Size, uint Bits, int *I0, int *I1,
                           bool *In0, bool *In1) {
  uint Mode = Bits & S_ADDRESS_MASK;
  float U;
  *In0 = *In1 = true;
  if (Mode == S_REPEAT) {
    U = (S - floor(S)) * Size;
    float F = floor(U - 0.5f);
    int A = (int)F, B = A + 1;
    if (A < 0)
      A += Size;
    if (B > Size - 1)
      B -= Size;
    *I0 = clamp(A, 0, Size - 1);
    *I1 = clamp(B, 0, Size - 1);
    return (U - 0.5f) - F;
  }
  if (Mode == S_MIRRORED_REPEAT) {
    float M = fabs(S - 2.0f * rint(0.5f * S));
    U = M * Size;
    float F = floor(U - 0.5f);
    *I0 = clamp((int)F, 0, Size - 1);
    *I1 = clamp((int)F + 1, 0, Size - 1);
    return (U - 0.5f) - F;
  }
  U = (Bits & S_NORMALIZED) ? S * Size : S;
  U = fmin(fmax(U, -2.0f), (float)Size + 2.0f);
  float F = floor(U - 0.5f);
  int A = (int)F, B = A + 1;
  if (Mode == S_CLAMP) {
    *In0 = A >= 0 && A < Size;
    *In1 = B >= 0 && B < Size;
  }
  *I0 = clamp(A, 0, Size - 1);
  *I1 = clamp(B, 0, Size - 1);
  return (U - 0.5f) - F;
}

static float4 sampleF(Img I, uint Bits, float2 C) {
  if (Bits & S_LINEAR) {
    int X0, X1, Y0, Y1;
    bool InX0, InX1, InY0, InY1;
    float A = linearIndices(C.x, I->width, Bits, &X0, &X1, &InX0, &InX1);
    float B = linearIndices(C.y, I->height, Bits, &Y0, &Y1, &InY0, &InY1);
    float4 Border = borderF(I);
    float4 T00 = InX0 && InY0 ? loadF(I, X0, Y0) : Border;
    float4 T10 = InX1 && InY0 ? loadF(I, X1, Y0) : Border;
    float4 T01 = InX0 && InY1 ? loadF(I, X0, Y1) : Border;
    float4 T11 = InX1 && InY1 ? loadF(I, X1, Y1) : Border;
    return (1 - A) * (1 - B) * T00 + A * (1 - B) * T10 + (1 - A) * B * T01 +
           A * B * T11;
  }
  int X, Y;
  if (!nearestIndex(C.x, I->width, Bits, &X) |
      !nearestIndex(C.y, I->height, Bits, &Y))
    return borderF(I);
  return loadF(I, X, Y);
}

static int4 sampleI(Img I, uint Bits, float2 C) {
  int X, Y;
  if (!nearestIndex(C.x, I->width, Bits, &X) |
      !nearestIndex(C.y, I->height, Bits, &Y))
    return borderI(I);
  return loadI(I, X, Y);
}

/// Integer coordinates: unnormalized, nearest (6.15.15.2: the sampler must
/// say so); without a sampler, no addressing (clamped, as for
/// CLK_ADDRESS_NONE).
static uint intSampler(Smp S) { return samplerBits(S) & S_ADDRESS_MASK; }

/// nearestIndex of integer coordinate \p C (the element's center, C + 0.5)
/// in integers: C itself, clamped, or the border color outside the image
/// with CLK_ADDRESS_CLAMP. Repeat and mirrored repeat with unnormalized
/// coordinates are undefined; they take nearestIndex's formulas all the
/// same. No float round trip: a copy kernel's index is its work-item id.
/// The bounds-check mode's check (compiler/passes/CheckBounds.h): Offset +
/// Size <= Extent, unsigned.
bool __clcpu_in_bounds(ulong Offset, ulong Extent,
                       ulong Size) __asm("clcpu.check.in_bounds")
    __attribute__((const));

/// 0 <= C < N. Written as the bounds-check mode's check, so that where C
/// moves with the work-item (a pixel per work-item),
/// compiler/passes/CheckRangeVersioning.cpp tests it once for a whole
/// work-item loop and runs a copy of the loop in which it holds: no clamp
/// and no mask there, whole vectors of adjacent pixels.
static bool coordInside(int C, int N) {
  return __clcpu_in_bounds((ulong)(long)C, (ulong)(long)N, 1);
}

static bool intIndex(int C, int Size, uint Bits, int *Out) {
  uint Mode = Bits & S_ADDRESS_MASK;
  if (Mode == S_REPEAT || Mode == S_MIRRORED_REPEAT)
    return nearestIndex(convert_float(C) + 0.5f, Size, Bits, Out);
  // (The coordinate itself when it is inside: the clamp below goes away
  // in a work-item loop whose coordinates are all inside.)
  bool In = coordInside(C, Size);
  if (Mode == S_CLAMP && !In)
    return false;
  *Out = In ? C : clamp(C, 0, Size - 1);
  return true;
}

/// sampleFN / sampleIN (below) at integer coordinates: nearest.
static float4 sampleFNi(Img I, uint Bits, int4 C, int Dims, int Z) {
  const int Size[3] = {I->width, I->height, I->depth};
  int X[3] = {0, 0, Z};
  bool In = true;
  for (int D = 0; D < Dims; ++D)
    In &= intIndex(C[D], Size[D], Bits, &X[D]);
  return In ? loadAtF(I, texel3(I, X[0], X[1], X[2])) : borderF(I);
}
static int4 sampleINi(Img I, uint Bits, int4 C, int Dims, int Z) {
  const int Size[3] = {I->width, I->height, I->depth};
  int X[3] = {0, 0, Z};
  bool In = true;
  for (int D = 0; D < Dims; ++D)
    In &= intIndex(C[D], Size[D], Bits, &X[D]);
  return In ? loadAtI(I, texel3(I, X[0], X[1], X[2])) : borderI(I);
}
static int4 int2Coord(int2 C) { return (int4)(C, 0, 0); }

// The entry points, under the names Clang mangles for image2d_t
// (14ocl_image2d_ro / _wo, 11ocl_sampler).
#define RO2 "14ocl_image2d_ro"
#define WO2 "14ocl_image2d_wo"

float4 __clcpu_read_imagef_si(Img I, Smp S, int2 C) __asm("_Z11read_imagef" RO2
                                                          "11ocl_samplerDv2_i");
float4 __clcpu_read_imagef_si(Img I, Smp S, int2 C) {
  return sampleFNi(I, intSampler(S), int2Coord(C), 2, 0);
}
float4 __clcpu_read_imagef_sf(Img I, Smp S,
                              float2 C) __asm("_Z11read_imagef" RO2
                                              "11ocl_samplerDv2_f");
float4 __clcpu_read_imagef_sf(Img I, Smp S, float2 C) {
  return sampleF(I, samplerBits(S), C);
}
float4 __clcpu_read_imagef_i(Img I,
                             int2 C) __asm("_Z11read_imagef" RO2 "Dv2_i");
float4 __clcpu_read_imagef_i(Img I, int2 C) {
  return sampleFNi(I, 0, int2Coord(C), 2, 0);
}

int4 __clcpu_read_imagei_si(Img I, Smp S, int2 C) __asm("_Z11read_imagei" RO2
                                                        "11ocl_samplerDv2_i");
int4 __clcpu_read_imagei_si(Img I, Smp S, int2 C) {
  return sampleINi(I, intSampler(S), int2Coord(C), 2, 0);
}
int4 __clcpu_read_imagei_sf(Img I, Smp S, float2 C) __asm("_Z11read_imagei" RO2
                                                          "11ocl_samplerDv2_f");
int4 __clcpu_read_imagei_sf(Img I, Smp S, float2 C) {
  return sampleI(I, samplerBits(S) & ~S_LINEAR, C);
}
int4 __clcpu_read_imagei_i(Img I, int2 C) __asm("_Z11read_imagei" RO2 "Dv2_i");
int4 __clcpu_read_imagei_i(Img I, int2 C) { return sampleINi(I, 0, int2Coord(C), 2, 0); }

uint4 __clcpu_read_imageui_si(Img I, Smp S, int2 C) __asm("_Z12read_imageui" RO2
                                                          "11ocl_samplerDv2_i");
uint4 __clcpu_read_imageui_si(Img I, Smp S, int2 C) {
  return as_uint4(sampleINi(I, intSampler(S), int2Coord(C), 2, 0));
}
uint4 __clcpu_read_imageui_sf(Img I, Smp S,
                              float2 C) __asm("_Z12read_imageui" RO2
                                              "11ocl_samplerDv2_f");
uint4 __clcpu_read_imageui_sf(Img I, Smp S, float2 C) {
  return as_uint4(sampleI(I, samplerBits(S) & ~S_LINEAR, C));
}
uint4 __clcpu_read_imageui_i(Img I,
                             int2 C) __asm("_Z12read_imageui" RO2 "Dv2_i");
uint4 __clcpu_read_imageui_i(Img I, int2 C) {
  return as_uint4(sampleINi(I, 0, int2Coord(C), 2, 0));
}

/// (R, G, B, A) in the stored channel order (the inverse of SWIZZLE).
static int4 unswizzleI(Img I, int4 V) {
  switch (I->order) {
  case O_A:
    return (int4)(V.w, 0, 0, 0);
  case O_RA:
    return (int4)(V.x, V.w, 0, 0);
  case O_BGRA:
  case O_sBGRA:
    return V.zyxw;
  case O_ARGB:
    return V.wxyz;
  case O_ABGR:
    return V.wzyx;
  default:
    return V;
  }
}
static float4 unswizzleF(Img I, float4 V) {
  return as_float4(unswizzleI(I, as_int4(V)));
}

/// Out-of-range coordinates are undefined for writes: nothing is written.
static bool inside(Img I, int2 C) {
  return coordInside(C.x, I->width) && coordInside(C.y, I->height);
}

/// "Conversion Rules for sRGBA and sBGRA Images", linear to sRGB
/// (cl_khr_srgb_image_writes):
///   if (c is NaN) c = 0.0;
///   if (c > 1.0) c = 1.0;
///   else if (c < 0.0) c = 0.0;
///   else if (c < 0.0031308) c = 12.92 * c;
///   else c = 1.055 * powr(c, 1.0/2.4) - 0.055;
/// The caller then scales by 255 and rounds to nearest even (the UNORM_INT8
/// store). Both sides of the branch are computed and one is selected, so
/// that a work-item loop vectorizes it (powr of the SIMD math library);
/// fmax(NaN, 0) is 0.
static float3 linearToSrgb(float3 C) {
  C = fmin(fmax(C, 0.0f), 1.0f);
  float3 Curve = 1.055f * powr(C, 1.0f / 2.4f) - 0.055f;
  return C < 0.0031308f ? 12.92f * C : Curve;
}

/// write_imagef of \p V to the element at \p P.
static void storeAtF(Img I, global uchar *P, float4 V) {
  // sRGB orders: only R, G and B are encoded, "the A component is written
  // as-is" (CL_sRGBx: into the ignored channel; CL_sRGB has none).
  if (isSrgb(I->order))
    V.xyz = linearToSrgb(V.xyz);
  float4 S = unswizzleF(I, V);
  // 8.3.1.2: float to normalized integer, round to nearest even with
  // saturation.
  switch (I->type) {
  case T_UNORM_INT8:
    if (I->channels == 4) {
      storeBytes4(P, min(convert_uint4_sat_rte(S * 255.0f), 255u));
      break;
    }
    for (uint K = 0; K < I->channels; ++K)
      P[K] = convert_uchar_sat_rte(S[K] * 255.0f);
    break;
  case T_UNORM_INT16:
    for (uint K = 0; K < I->channels; ++K)
      ((global ushort *)P)[K] = convert_ushort_sat_rte(S[K] * 65535.0f);
    break;
  case T_SNORM_INT8:
    for (uint K = 0; K < I->channels; ++K)
      ((global char *)P)[K] = convert_char_sat_rte(S[K] * 127.0f);
    break;
  case T_SNORM_INT16:
    for (uint K = 0; K < I->channels; ++K)
      ((global short *)P)[K] = convert_short_sat_rte(S[K] * 32767.0f);
    break;
  case T_HALF_FLOAT:
    for (uint K = 0; K < I->channels; ++K)
      vstore_half_rte(S[K], K, (global half *)P);
    break;
  case T_FLOAT:
    for (uint K = 0; K < I->channels; ++K)
      ((global float *)P)[K] = S[K];
    break;
  case T_UNORM_SHORT_565:
    *(global ushort *)P = (ushort)(convert_uint_sat_rte(S.x * 31.0f) << 11 |
                                   convert_uint_sat_rte(S.y * 63.0f) << 5 |
                                   convert_uint_sat_rte(S.z * 31.0f));
    break;
  case T_UNORM_SHORT_555:
    *(global ushort *)P = (ushort)(convert_uint_sat_rte(S.x * 31.0f) << 10 |
                                   convert_uint_sat_rte(S.y * 31.0f) << 5 |
                                   convert_uint_sat_rte(S.z * 31.0f));
    break;
  case T_UNORM_INT_101010:
    *(global uint *)P = min(convert_uint_sat_rte(S.x * 1023.0f), 1023u) << 20 |
                        min(convert_uint_sat_rte(S.y * 1023.0f), 1023u) << 10 |
                        min(convert_uint_sat_rte(S.z * 1023.0f), 1023u);
    break;
  default: // integer formats: undefined for write_imagef
    break;
  }
}

void __clcpu_write_imagef(Img I, int2 C,
                          float4 V) __asm("_Z12write_imagef" WO2 "Dv2_iDv4_f");
void __clcpu_write_imagef(Img I, int2 C, float4 V) {
  if (inside(I, C))
    storeAtF(I, texel(I, C.x, C.y), V);
}

/// write_imagei / write_imageui: saturated to the channel type (8.3.3,
/// 8.3.4).
static void storeAtI(Img I, global uchar *P, int4 V) {
  int4 S = unswizzleI(I, V);
  uint4 U = as_uint4(S);
  if (I->channels == 4 && I->type == T_UNSIGNED_INT8) {
    storeBytes4(P, min(U, 255u));
    return;
  }
  if (I->channels == 4 && I->type == T_SIGNED_INT8) {
    storeBytes4(P, as_uint4(clamp(S, -128, 127)) & 0xFF);
    return;
  }
  for (uint K = 0; K < I->channels; ++K)
    switch (I->type) {
    case T_SIGNED_INT8:
      ((global char *)P)[K] = convert_char_sat(S[K]);
      break;
    case T_SIGNED_INT16:
      ((global short *)P)[K] = convert_short_sat(S[K]);
      break;
    case T_SIGNED_INT32:
      ((global int *)P)[K] = S[K];
      break;
    case T_UNSIGNED_INT8:
      P[K] = convert_uchar_sat(U[K]);
      break;
    case T_UNSIGNED_INT16:
      ((global ushort *)P)[K] = convert_ushort_sat(U[K]);
      break;
    case T_UNSIGNED_INT32:
      ((global uint *)P)[K] = U[K];
      break;
    default:
      break;
    }
}
static void storeI(Img I, int2 C, int4 V, bool Signed) {
  if (inside(I, C))
    storeAtI(I, texel(I, C.x, C.y), V);
}

void __clcpu_write_imagei(Img I, int2 C,
                          int4 V) __asm("_Z12write_imagei" WO2 "Dv2_iDv4_i");
void __clcpu_write_imagei(Img I, int2 C, int4 V) { storeI(I, C, V, true); }
void __clcpu_write_imageui(Img I, int2 C,
                           uint4 V) __asm("_Z13write_imageui" WO2 "Dv2_iDv4_j");
void __clcpu_write_imageui(Img I, int2 C, uint4 V) {
  storeI(I, C, as_int4(V), false);
}

// 6.15.15.6 image queries, for read-only and write-only images.
#define QUERIES(Acc)                                                           \
  int __clcpu_width_##Acc(Img I) __asm("_Z15get_image_width" Acc);             \
  int __clcpu_width_##Acc(Img I) { return I->width; }                          \
  int __clcpu_height_##Acc(Img I) __asm("_Z16get_image_height" Acc);           \
  int __clcpu_height_##Acc(Img I) { return I->height; }                        \
  int2 __clcpu_dim_##Acc(Img I) __asm("_Z13get_image_dim" Acc);                \
  int2 __clcpu_dim_##Acc(Img I) { return (int2)(I->width, I->height); }        \
  int __clcpu_type_##Acc(Img I) __asm("_Z27get_image_channel_data_type" Acc);  \
  int __clcpu_type_##Acc(Img I) { return (int)I->type; }                       \
  int __clcpu_order_##Acc(Img I) __asm("_Z23get_image_channel_order" Acc);     \
  int __clcpu_order_##Acc(Img I) { return (int)I->order; }
QUERIES(RO2)
QUERIES(WO2)

//===----------------------------------------------------------------------===//
// Every other image type: 1D, 1D buffer, 1D array, 2D array, 3D and the
// depth images (cl_khr_depth_images), and read_write images
// (__opencl_c_read_write_images). A position is (x, y, z) with the layer
// of an array in z (texel3); Dims is the number of coordinates the
// sampler addresses (1 to 3).
//===----------------------------------------------------------------------===//

/// 8.2: "the array index is computed as clamp(rint(coord), 0,
/// image_array_size - 1)", for every addressing and filter mode; in float
/// first, so that a huge or NaN coordinate converts to a valid index.
static int layerF(Img I, float L) {
  return (int)fmin(fmax(rint(L), 0.0f), (float)(I->array_size - 1));
}
static int layerI(Img I, int L) { return clamp(L, 0, I->array_size - 1); }

/// The sampled element at (C.x, C.y, C.z) of which the first \p Dims are
/// coordinates and the rest is \p Z (a layer, or 0), as float: nearest or
/// linear (trilinear for a 3D image, 8.2 "CLK_FILTER_LINEAR"), with the
/// border color where CLK_ADDRESS_CLAMP leaves the image.
static float4 sampleFN(Img I, uint Bits, float4 C, int Dims, int Z) {
  const int Size[3] = {I->width, I->height, I->depth};
  if (Bits & S_LINEAR) {
    int Lo[3] = {0, 0, Z}, Hi[3] = {0, 0, Z};
    bool InLo[3] = {true, true, true}, InHi[3] = {true, true, true};
    float W[3] = {0.0f, 0.0f, 0.0f};
    for (int D = 0; D < Dims; ++D)
      W[D] = linearIndices(C[D], Size[D], Bits, &Lo[D], &Hi[D], &InLo[D],
                           &InHi[D]);
    float4 Border = borderF(I);
    float4 Sum = 0.0f;
    // The 2^Dims corners, bit D of K picking the upper index in dimension
    // D; in the order of the spec's sums (i0 before i1, j0 before j1, k0
    // before k1), each weighted by the product of its 1 - a / a factors.
    for (int K = 0; K < (1 << Dims); ++K) {
      int X[3];
      float Weight = 1.0f;
      bool In = true;
      for (int D = 0; D < 3; ++D) {
        bool Up = D < Dims && ((K >> D) & 1);
        X[D] = Up ? Hi[D] : Lo[D];
        In &= Up ? InHi[D] : InLo[D];
        if (D < Dims)
          Weight *= Up ? W[D] : 1.0f - W[D];
      }
      Sum += Weight * (In ? loadAtF(I, texel3(I, X[0], X[1], X[2])) : Border);
    }
    return Sum;
  }
  int X[3] = {0, 0, Z};
  bool In = true;
  for (int D = 0; D < Dims; ++D)
    In &= nearestIndex(C[D], Size[D], Bits, &X[D]);
  return In ? loadAtF(I, texel3(I, X[0], X[1], X[2])) : borderF(I);
}

/// The same for the integer formats (nearest only: read_imagei/ui with a
/// linear sampler are undefined, so the filter bit is ignored).
static int4 sampleIN(Img I, uint Bits, float4 C, int Dims, int Z) {
  const int Size[3] = {I->width, I->height, I->depth};
  int X[3] = {0, 0, Z};
  bool In = true;
  for (int D = 0; D < Dims; ++D)
    In &= nearestIndex(C[D], Size[D], Bits, &X[D]);
  return In ? loadAtI(I, texel3(I, X[0], X[1], X[2])) : borderI(I);
}

/// The element written at \p P (x, y, z or layer) of an image whose
/// extents are \p E; null outside (out-of-range writes are undefined:
/// nothing is written).
static global uchar *writable(Img I, int4 P, int4 E) {
  return coordInside(P.x, E.x) && coordInside(P.y, E.y) &&
                 coordInside(P.z, E.z)
             ? texel3(I, P.x, P.y, P.z)
             : 0;
}

// Mangled image types (Clang: ocl_image<type>_<access>) and coordinate
// types.
#define T1D(A) "14ocl_image1d_" #A
#define T1DB(A) "21ocl_image1d_buffer_" #A
#define T1DA(A) "20ocl_image1d_array_" #A
#define T2D(A) "14ocl_image2d_" #A
#define T2DA(A) "20ocl_image2d_array_" #A
#define T3D(A) "14ocl_image3d_" #A
#define T2DD(A) "20ocl_image2d_depth_" #A
#define T2DAD(A) "26ocl_image2d_array_depth_" #A
#define SMP "11ocl_sampler"

/// read_image{f,i,ui,h} of one image type with a sampler, float and
/// integer coordinates. \p M: the mangled read-only image type; \p F, \p FM
/// and \p N, \p NM: the float and int coordinate types and their mangling;
/// \p Dims the sampler's coordinates; \p SpF / \p SpN the coordinates as
/// float4 / int4 and \p LayF / \p LayN the layer, expressions of I and C.
#define SAMPLED_READS(Tag, M, F, FM, N, NM, Dims, SpF, LayF, SpN, LayN)        \
  float4 __clcpu_rf_sf_##Tag(Img I, Smp S,                                     \
                             F C) __asm("_Z11read_imagef" M SMP FM);           \
  float4 __clcpu_rf_sf_##Tag(Img I, Smp S, F C) {                              \
    return sampleFN(I, samplerBits(S), SpF, Dims, LayF);                       \
  }                                                                            \
  float4 __clcpu_rf_si_##Tag(Img I, Smp S,                                     \
                             N C) __asm("_Z11read_imagef" M SMP NM);           \
  float4 __clcpu_rf_si_##Tag(Img I, Smp S, N C) {                              \
    return sampleFNi(I, intSampler(S), SpN, Dims, LayN);                       \
  }                                                                            \
  int4 __clcpu_ri_sf_##Tag(Img I, Smp S,                                       \
                           F C) __asm("_Z11read_imagei" M SMP FM);             \
  int4 __clcpu_ri_sf_##Tag(Img I, Smp S, F C) {                                \
    return sampleIN(I, samplerBits(S), SpF, Dims, LayF);                       \
  }                                                                            \
  int4 __clcpu_ri_si_##Tag(Img I, Smp S,                                       \
                           N C) __asm("_Z11read_imagei" M SMP NM);             \
  int4 __clcpu_ri_si_##Tag(Img I, Smp S, N C) {                                \
    return sampleINi(I, intSampler(S), SpN, Dims, LayN);                       \
  }                                                                            \
  uint4 __clcpu_rui_sf_##Tag(Img I, Smp S,                                     \
                             F C) __asm("_Z12read_imageui" M SMP FM);          \
  uint4 __clcpu_rui_sf_##Tag(Img I, Smp S, F C) {                              \
    return as_uint4(sampleIN(I, samplerBits(S), SpF, Dims, LayF));             \
  }                                                                            \
  uint4 __clcpu_rui_si_##Tag(Img I, Smp S,                                     \
                             N C) __asm("_Z12read_imageui" M SMP NM);          \
  uint4 __clcpu_rui_si_##Tag(Img I, Smp S, N C) {                              \
    return as_uint4(sampleINi(I, intSampler(S), SpN, Dims, LayN));             \
  }                                                                            \
  half4 __clcpu_rh_sf_##Tag(Img I, Smp S,                                      \
                            F C) __asm("_Z11read_imageh" M SMP FM);            \
  half4 __clcpu_rh_sf_##Tag(Img I, Smp S, F C) {                               \
    return convert_half4(sampleFN(I, samplerBits(S), SpF, Dims, LayF));        \
  }                                                                            \
  half4 __clcpu_rh_si_##Tag(Img I, Smp S,                                      \
                            N C) __asm("_Z11read_imageh" M SMP NM);            \
  half4 __clcpu_rh_si_##Tag(Img I, Smp S, N C) {                               \
    return convert_half4(sampleFNi(I, intSampler(S), SpN, Dims, LayN));        \
  }

/// read_image{f,i,ui,h} without a sampler (read-only and read-write
/// images): "CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE |
/// CLK_FILTER_NEAREST" (6.15.15.3).
#define PLAIN_READS(Tag, M, N, NM, Dims, SpN, LayN)                            \
  float4 __clcpu_rf_##Tag(Img I, N C) __asm("_Z11read_imagef" M NM);           \
  float4 __clcpu_rf_##Tag(Img I, N C) {                                        \
    return sampleFNi(I, 0, SpN, Dims, LayN);                                   \
  }                                                                            \
  int4 __clcpu_ri_##Tag(Img I, N C) __asm("_Z11read_imagei" M NM);             \
  int4 __clcpu_ri_##Tag(Img I, N C) {                                          \
    return sampleINi(I, 0, SpN, Dims, LayN);                                   \
  }                                                                            \
  uint4 __clcpu_rui_##Tag(Img I, N C) __asm("_Z12read_imageui" M NM);          \
  uint4 __clcpu_rui_##Tag(Img I, N C) {                                        \
    return as_uint4(sampleINi(I, 0, SpN, Dims, LayN));                         \
  }                                                                            \
  half4 __clcpu_rh_##Tag(Img I, N C) __asm("_Z11read_imageh" M NM);            \
  half4 __clcpu_rh_##Tag(Img I, N C) {                                         \
    return convert_half4(sampleFNi(I, 0, SpN, Dims, LayN));                    \
  }

/// write_image{f,i,ui,h} (write-only and read-write images). \p IM: the
/// mangling of the int4 value (a substitution where the coordinate is an
/// int4 too); \p Pos the position, \p Ext the extents (int4 expressions of
/// I and C).
#define WRITES(Tag, M, N, NM, IM, Pos, Ext)                                    \
  void __clcpu_wf_##Tag(Img I, N C,                                            \
                        float4 V) __asm("_Z12write_imagef" M NM "Dv4_f");      \
  void __clcpu_wf_##Tag(Img I, N C, float4 V) {                                \
    global uchar *P = writable(I, Pos, Ext);                                   \
    if (P)                                                                     \
      storeAtF(I, P, V);                                                       \
  }                                                                            \
  void __clcpu_wi_##Tag(Img I, N C, int4 V) __asm("_Z12write_imagei" M NM IM); \
  void __clcpu_wi_##Tag(Img I, N C, int4 V) {                                  \
    global uchar *P = writable(I, Pos, Ext);                                   \
    if (P)                                                                     \
      storeAtI(I, P, V);                                                       \
  }                                                                            \
  void __clcpu_wui_##Tag(Img I, N C,                                           \
                         uint4 V) __asm("_Z13write_imageui" M NM "Dv4_j");     \
  void __clcpu_wui_##Tag(Img I, N C, uint4 V) {                                \
    global uchar *P = writable(I, Pos, Ext);                                   \
    if (P)                                                                     \
      storeAtI(I, P, as_int4(V));                                              \
  }                                                                            \
  void __clcpu_wh_##Tag(Img I, N C,                                            \
                        half4 V) __asm("_Z12write_imageh" M NM "Dv4_Dh");      \
  void __clcpu_wh_##Tag(Img I, N C, half4 V) {                                 \
    global uchar *P = writable(I, Pos, Ext);                                   \
    if (P)                                                                     \
      storeAtF(I, P, convert_float4(V));                                       \
  }

// The coordinates of each type: spatial ones as float4 (integer ones as
// int4), the layer, the written position and extents.
#define SP1F (float4)(C, 0.0f, 0.0f, 0.0f)
#define SP1N (int4)(C, 0, 0, 0)
#define SP1AF (float4)(C.x, 0.0f, 0.0f, 0.0f)
#define SP1AN (int4)(C.x, 0, 0, 0)
#define SP2F (float4)(C.xy, 0.0f, 0.0f)
#define SP2N (int4)(C.xy, 0, 0)
#define SP3F C
#define SP3N C
#define POS1 (int4)(C, 0, 0, 0)
#define EXT1 (int4)(I->width, 1, 1, 0)
#define POS1A (int4)(C.x, 0, C.y, 0)
#define EXT1A (int4)(I->width, 1, I->array_size, 0)
#define POS2 (int4)(C.xy, 0, 0)
#define EXT2 (int4)(I->width, I->height, 1, 0)
#define POS2A (int4)(C.xyz, 0)
#define EXT2A (int4)(I->width, I->height, I->array_size, 0)
#define EXT3 (int4)(I->width, I->height, I->depth, 0)

SAMPLED_READS(1d, T1D(ro), float, "f", int, "i", 1, SP1F, 0, SP1N, 0)
SAMPLED_READS(1da, T1DA(ro), float2, "Dv2_f", int2, "Dv2_i", 1, SP1AF,
              layerF(I, C.y), SP1AN, layerI(I, C.y))
SAMPLED_READS(2da, T2DA(ro), float4, "Dv4_f", int4, "Dv4_i", 2, SP2F,
              layerF(I, C.z), SP2N, layerI(I, C.z))
SAMPLED_READS(3d, T3D(ro), float4, "Dv4_f", int4, "Dv4_i", 3, SP3F, 0, SP3N, 0)

// 2D images' half reads (the float ones are above).
half4 __clcpu_rh_sf_2d(Img I, Smp S,
                       float2 C) __asm("_Z11read_imageh" RO2 SMP "Dv2_f");
half4 __clcpu_rh_sf_2d(Img I, Smp S, float2 C) {
  return convert_half4(sampleF(I, samplerBits(S), C));
}
half4 __clcpu_rh_si_2d(Img I, Smp S,
                       int2 C) __asm("_Z11read_imageh" RO2 SMP "Dv2_i");
half4 __clcpu_rh_si_2d(Img I, Smp S, int2 C) {
  return convert_half4(sampleFNi(I, intSampler(S), int2Coord(C), 2, 0));
}

#define ALL_PLAIN_READS(A)                                                     \
  PLAIN_READS(1d_##A, T1D(A), int, "i", 1, SP1N, 0)                            \
  PLAIN_READS(1db_##A, T1DB(A), int, "i", 1, SP1N, 0)                          \
  PLAIN_READS(1da_##A, T1DA(A), int2, "Dv2_i", 1, SP1AN, layerI(I, C.y))       \
  PLAIN_READS(2da_##A, T2DA(A), int4, "Dv4_i", 2, SP2N, layerI(I, C.z))        \
  PLAIN_READS(3d_##A, T3D(A), int4, "Dv4_i", 3, SP3N, 0)
ALL_PLAIN_READS(ro)
ALL_PLAIN_READS(rw)
// Read-write 2D images (the read-only ones are above); half reads of
// read-only 2D images.
PLAIN_READS(2d_rw, T2D(rw), int2, "Dv2_i", 2, SP2N, 0)
half4 __clcpu_rh_2d_ro(Img I, int2 C) __asm("_Z11read_imageh" RO2 "Dv2_i");
half4 __clcpu_rh_2d_ro(Img I, int2 C) {
  return convert_half4(sampleFNi(I, 0, int2Coord(C), 2, 0));
}

#define ALL_WRITES(A)                                                          \
  WRITES(1d_##A, T1D(A), int, "i", "Dv4_i", POS1, EXT1)                        \
  WRITES(1db_##A, T1DB(A), int, "i", "Dv4_i", POS1, EXT1)                      \
  WRITES(1da_##A, T1DA(A), int2, "Dv2_i", "Dv4_i", POS1A, EXT1A)               \
  WRITES(2da_##A, T2DA(A), int4, "Dv4_i", "S0_", POS2A, EXT2A)                 \
  WRITES(3d_##A, T3D(A), int4, "Dv4_i", "S0_", C, EXT3)
ALL_WRITES(wo)
ALL_WRITES(rw)
// Read-write 2D images (the write-only ones are above, but for their
// half writes).
WRITES(2d_rw, T2D(rw), int2, "Dv2_i", "Dv4_i", POS2, EXT2)
void __clcpu_wh_2d_wo(Img I, int2 C,
                      half4 V) __asm("_Z12write_imageh" WO2 "Dv2_iDv4_Dh");
void __clcpu_wh_2d_wo(Img I, int2 C, half4 V) {
  __clcpu_write_imagef(I, C, convert_float4(V));
}

// Depth images (cl_khr_depth_images): one channel, CL_DEPTH, read as
// float ("the depth value"), written from a float.
#define DEPTH_READS(Tag, M, F, FM, N, NM, SpF, LayF, SpN, LayN)                \
  float __clcpu_rd_sf_##Tag(Img I, Smp S,                                      \
                            F C) __asm("_Z11read_imagef" M SMP FM);            \
  float __clcpu_rd_sf_##Tag(Img I, Smp S, F C) {                               \
    return sampleFN(I, samplerBits(S), SpF, 2, LayF).x;                        \
  }                                                                            \
  float __clcpu_rd_si_##Tag(Img I, Smp S,                                      \
                            N C) __asm("_Z11read_imagef" M SMP NM);            \
  float __clcpu_rd_si_##Tag(Img I, Smp S, N C) {                               \
    return sampleFNi(I, intSampler(S), SpN, 2, LayN).x;                        \
  }
#define DEPTH_PLAIN_READ(Tag, M, N, NM, SpN, LayN)                             \
  float __clcpu_rd_##Tag(Img I, N C) __asm("_Z11read_imagef" M NM);            \
  float __clcpu_rd_##Tag(Img I, N C) { return sampleFNi(I, 0, SpN, 2, LayN).x; }
#define DEPTH_WRITE(Tag, M, N, NM, Pos, Ext)                                   \
  void __clcpu_wd_##Tag(Img I, N C,                                            \
                        float V) __asm("_Z12write_imagef" M NM "f");           \
  void __clcpu_wd_##Tag(Img I, N C, float V) {                                 \
    global uchar *P = writable(I, Pos, Ext);                                   \
    if (P)                                                                     \
      storeAtF(I, P, (float4)(V, 0.0f, 0.0f, 0.0f));                           \
  }
DEPTH_READS(2dd, T2DD(ro), float2, "Dv2_f", int2, "Dv2_i", SP2F, 0, SP2N, 0)
DEPTH_READS(2dad, T2DAD(ro), float4, "Dv4_f", int4, "Dv4_i", SP2F,
            layerF(I, C.z), SP2N, layerI(I, C.z))
DEPTH_PLAIN_READ(2dd_ro, T2DD(ro), int2, "Dv2_i", SP2N, 0)
DEPTH_PLAIN_READ(2dd_rw, T2DD(rw), int2, "Dv2_i", SP2N, 0)
DEPTH_PLAIN_READ(2dad_ro, T2DAD(ro), int4, "Dv4_i", SP2N, layerI(I, C.z))
DEPTH_PLAIN_READ(2dad_rw, T2DAD(rw), int4, "Dv4_i", SP2N, layerI(I, C.z))
DEPTH_WRITE(2dd_wo, T2DD(wo), int2, "Dv2_i", POS2, EXT2)
DEPTH_WRITE(2dd_rw, T2DD(rw), int2, "Dv2_i", POS2, EXT2)
DEPTH_WRITE(2dad_wo, T2DAD(wo), int4, "Dv4_i", POS2A, EXT2A)
DEPTH_WRITE(2dad_rw, T2DAD(rw), int4, "Dv4_i", POS2A, EXT2A)

// 6.15.15.6 image queries of the other types and access qualifiers (the
// 2D read-only and write-only ones are above).
#define Q_COMMON(Tag, M)                                                       \
  int __clcpu_qw_##Tag(Img I) __asm("_Z15get_image_width" M);                  \
  int __clcpu_qw_##Tag(Img I) { return I->width; }                             \
  int __clcpu_qt_##Tag(Img I) __asm("_Z27get_image_channel_data_type" M);      \
  int __clcpu_qt_##Tag(Img I) { return (int)I->type; }                         \
  int __clcpu_qo_##Tag(Img I) __asm("_Z23get_image_channel_order" M);          \
  int __clcpu_qo_##Tag(Img I) { return (int)I->order; }
#define Q_HEIGHT(Tag, M)                                                       \
  int __clcpu_qh_##Tag(Img I) __asm("_Z16get_image_height" M);                 \
  int __clcpu_qh_##Tag(Img I) { return I->height; }
#define Q_ARRAY(Tag, M)                                                        \
  size_t __clcpu_qa_##Tag(Img I) __asm("_Z20get_image_array_size" M);          \
  size_t __clcpu_qa_##Tag(Img I) { return (size_t)I->array_size; }
#define Q_DIM2(Tag, M)                                                         \
  int2 __clcpu_qd_##Tag(Img I) __asm("_Z13get_image_dim" M);                   \
  int2 __clcpu_qd_##Tag(Img I) { return (int2)(I->width, I->height); }
#define Q_2D_LIKE(Tag, M) Q_COMMON(Tag, M) Q_HEIGHT(Tag, M) Q_DIM2(Tag, M)
#define ALL_QUERIES(A)                                                         \
  Q_COMMON(1d_##A, T1D(A))                                                     \
  Q_COMMON(1db_##A, T1DB(A))                                                   \
  Q_COMMON(1da_##A, T1DA(A))                                                   \
  Q_ARRAY(1da_##A, T1DA(A))                                                    \
  Q_2D_LIKE(2da_##A, T2DA(A))                                                  \
  Q_ARRAY(2da_##A, T2DA(A))                                                    \
  Q_2D_LIKE(2dd_##A, T2DD(A))                                                  \
  Q_2D_LIKE(2dad_##A, T2DAD(A))                                                \
  Q_ARRAY(2dad_##A, T2DAD(A))                                                  \
  Q_COMMON(3d_##A, T3D(A))                                                     \
  Q_HEIGHT(3d_##A, T3D(A))                                                     \
  int __clcpu_qz_3d_##A(Img I) __asm("_Z15get_image_depth" T3D(A));            \
  int __clcpu_qz_3d_##A(Img I) { return I->depth; }                            \
  int4 __clcpu_qd_3d_##A(Img I) __asm("_Z13get_image_dim" T3D(A));             \
  int4 __clcpu_qd_3d_##A(Img I) {                                              \
    return (int4)(I->width, I->height, I->depth, 0);                           \
  }
ALL_QUERIES(ro)
ALL_QUERIES(wo)
ALL_QUERIES(rw)
Q_2D_LIKE(2d_rw, T2D(rw))

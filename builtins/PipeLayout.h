//===- builtins/PipeLayout.h - the bytes of a pipe object -----------------===//
//
// A pipe (OpenCL 3.0 API spec 5.4, OpenCL C 3.0 6.15.16) is one block of
// host memory, shared by the runtime (runtime/Mem.cpp creates and
// initializes it, scheduler/PipeRing.cpp moves its positions for kernels)
// and the pipe built-ins (builtins/pipe.cl), which is why this header is
// plain C that both the C++ runtime and OpenCL C read:
//
//   header   ClcpuPipeHeader: the write and read positions (each on its own
//            cache line: producers and consumers update them from different
//            cores), the capacity and packet size, where the packets begin
//   Seq      uint32_t[Capacity]: one sequence word per slot
//   Pos      uint32_t[Capacity]: the low 32 bits of a reservation's first
//            position, stored in its first slot when it is made (its commit
//            needs them; its id holds its first slot and packet count)
//   Len      uint32_t[Capacity]: its packet count (the top bit set for a
//            reader's), beside it: a commit
//            stores its first slot's sequence word last, so the other side,
//            finding that word ready and Pos naming its position, knows the
//            whole run is and skips the rest of its words
//   packets  Capacity * PacketSize bytes from DataOffset (a multiple of
//            CLCPU_PIPE_DATA_ALIGN)
//
// Positions count packets since creation (64-bit, never wrap in practice);
// position P lives in slot P % Capacity. Seq[S] says what slot S is ready
// for, the bounded queue of D. Vyukov: (uint)P when it is free for the
// writer of position P, (uint)(P + 1) once that packet is written and
// committed, and (uint)(P + Capacity) once it is read and committed, which
// frees it for the writer of P + Capacity. Comparing in 32 bits is exact
// while Capacity < 2^31 (CLCPU_PIPE_MAX_CAPACITY).
//
//===----------------------------------------------------------------------===//

#ifndef CLCPU_BUILTINS_PIPELAYOUT_H
#define CLCPU_BUILTINS_PIPELAYOUT_H

#ifdef __OPENCL_C_VERSION__
#define CLCPU_PIPE_U32 uint
#define CLCPU_PIPE_U64 ulong
#else
#include <stdint.h>
#define CLCPU_PIPE_U32 uint32_t
#define CLCPU_PIPE_U64 uint64_t
#endif

typedef struct {
  CLCPU_PIPE_U64 WritePos; // the next position a writer reserves
  char Pad0[56];
  CLCPU_PIPE_U64 ReadPos; // the next position a reader reserves
  char Pad1[56];
  CLCPU_PIPE_U32 Capacity;   // pipe_max_packets
  CLCPU_PIPE_U32 PacketSize; // pipe_packet_size, in bytes
  CLCPU_PIPE_U64 DataOffset; // from the header to packet 0, in bytes
  char Pad2[48];
} ClcpuPipeHeader;

// Byte offset of Seq; Pos and Len follow Seq.
#define CLCPU_PIPE_SEQ_OFFSET 192
// Bytes of Seq, Pos and Len per packet.
#define CLCPU_PIPE_WORDS_PER_PACKET_BYTES 12
// Packets may be any OpenCL C type up to long16/double16 (128 bytes).
#define CLCPU_PIPE_DATA_ALIGN 128
// Seq comparisons are 32-bit differences (see above).
#define CLCPU_PIPE_MAX_CAPACITY 0x7fffffffu
// The reserve_id_t of a failed reservation: Clang's CLK_NULL_RESERVE_ID.
// A valid one is its first slot (high 32 bits) and packet count.
#define CLCPU_PIPE_NULL_RESERVE_ID (~(CLCPU_PIPE_U64)0)

#endif

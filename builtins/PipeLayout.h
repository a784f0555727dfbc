//===- builtins/PipeLayout.h - the bytes of a pipe object -----------------===//
//
// A pipe (OpenCL 3.0 API spec 5.4, OpenCL C 3.0 6.15.16) is one block of
// host memory, shared by the runtime (runtime/Mem.cpp creates and
// initializes it, scheduler/PipeRing.cpp moves its positions for kernels)
// and the pipe built-ins (builtins/pipe.cl), which is why this header is
// plain C that both the C++ runtime and OpenCL C read:
//
//   header   ClcpuPipeHeader: four positions, each on its own cache line
//            (producers and consumers update them from different cores):
//            WritePos, the next position a writer reserves; WriteDone,
//            below which every position is written and committed;
//            ReadPos and ReadDone, the same for readers; next to each
//            side's reserved position, the bound it last read from the
//            other side's Done (WriteLimit, ReadLimit), so that a
//            reservation reads the other side's line only when that bound
//            is used up; then the capacity, the packet size and where the
//            packets begin
//   runs     one record per slot and side, of the reservation (run) whose
//            first packet is in that slot: WriteRunPos and ReadRunPos,
//            uint64_t[Capacity], its first position, the top bit set once
//            it is committed; WriteRunLen and ReadRunLen, uint32_t[Capacity],
//            its packet count
//   packets  Capacity * PacketSize bytes from DataOffset (a multiple of
//            CLCPU_PIPE_DATA_ALIGN)
//
// Positions count packets since creation (64-bit, never wrap in practice);
// position P lives in slot P % Capacity. A writer may reserve positions
// below ReadDone + Capacity, a reader positions below WriteDone. A commit
// marks its run's record; the committer whose run starts at its side's
// Done position moves Done past it and past every committed run that
// follows, so runs committed out of order become visible in order and no
// commit waits for another.
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
  CLCPU_PIPE_U64 WritePos;   // the next position a writer reserves
  CLCPU_PIPE_U64 WriteLimit; // a bound below ReadDone + Capacity, cached
  char Pad0[48];
  CLCPU_PIPE_U64 WriteDone; // every position below is written, committed
  char Pad1[56];
  CLCPU_PIPE_U64 ReadPos;   // the next position a reader reserves
  CLCPU_PIPE_U64 ReadLimit; // a bound below WriteDone, cached
  char Pad2[48];
  CLCPU_PIPE_U64 ReadDone; // every position below is read, committed
  char Pad3[56];
  CLCPU_PIPE_U32 Capacity;   // pipe_max_packets
  CLCPU_PIPE_U32 PacketSize; // pipe_packet_size, in bytes
  CLCPU_PIPE_U64 DataOffset; // from the header to packet 0, in bytes
  char Pad4[48];
} ClcpuPipeHeader;

// Byte offset of the run records: WriteRunPos, ReadRunPos, WriteRunLen,
// ReadRunLen, each Capacity entries long.
#define CLCPU_PIPE_RUNS_OFFSET 320
// Bytes of run records per packet.
#define CLCPU_PIPE_RUN_BYTES_PER_PACKET 24
// In a RunPos word: the run is committed (positions stay below 2^63).
#define CLCPU_PIPE_RUN_COMMITTED ((CLCPU_PIPE_U64)1 << 63)
// Packets may be any OpenCL C type up to long16/double16 (128 bytes).
#define CLCPU_PIPE_DATA_ALIGN 128
// A reservation id holds a slot in 32 bits and is never all ones.
#define CLCPU_PIPE_MAX_CAPACITY 0x7fffffffu
// The reserve_id_t of a failed reservation: Clang's CLK_NULL_RESERVE_ID.
// A valid one is its first slot (high 32 bits) and packet count.
#define CLCPU_PIPE_NULL_RESERVE_ID (~(CLCPU_PIPE_U64)0)

#endif

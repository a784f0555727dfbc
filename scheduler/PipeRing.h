//===- scheduler/PipeRing.h - the pipe operations kernels call ------------===//
//
// A pipe (OpenCL 3.0 API 5.4, OpenCL C 3.0 6.15.16) is one block of memory
// laid out as builtins/PipeLayout.h says: a bounded multi-producer,
// multi-consumer ring whose slots carry sequence words. The operations that
// move positions and sequence words are here, called by JIT'd code
// (builtins/pipe.cl declares them; compiler/Jit.cpp binds them), so that a
// kernel's work-item loop holds a call where a reservation is made or
// committed instead of the ring's atomics: calls the optimizer can move
// work-item code around (the work-group reservation's result is then
// loop-invariant, and the packet copies between reservation and commit
// vectorize). The copies of reserved packets stay in the kernel.
//
// A reservation's id is its first slot (high 32 bits) and its packet count
// (low 32 bits); the low 32 bits of its first position, which the commit
// needs, are kept in the first slot's word of the Pos array, its count (and
// side) in that of the Len array, for the other side's scans. An id of all
// ones (CLK_NULL_RESERVE_ID) is never valid: slots are below 2^31.

#ifndef CLCPU_SCHEDULER_PIPE_RING_H
#define CLCPU_SCHEDULER_PIPE_RING_H

#include <cstdint>

extern "C" {
/// Reserves \p N consecutive packets of \p Pipe for writing (\p Read 0) or
/// reading (1). Returns the reservation's id, or CLCPU_PIPE_NULL_RESERVE_ID
/// when the pipe is too full (empty) or \p N is 0 or above its capacity.
uint64_t clcpu_pipe_reserve(void *Pipe, uint32_t N, uint32_t Read);
/// Hands the packets of reservation \p Id to the other side: readable
/// after a write, writable again after a read. An invalid id does nothing.
void clcpu_pipe_commit(void *Pipe, uint64_t Id, uint32_t Read);
/// read_pipe/write_pipe without a reservation: one packet of \p Size bytes
/// between \p Packet and the pipe. 0 on success, -1 when the pipe is empty
/// (full) or \p Size is above its packet size.
int32_t clcpu_pipe_read(void *Pipe, void *Packet, uint32_t Size);
int32_t clcpu_pipe_write(void *Pipe, const void *Packet, uint32_t Size);
/// Where packet slot 0 of \p Pipe starts. The layout is fixed when the pipe
/// is created, so these are functions of the pipe's address alone, which
/// pipe.cl declares them as (so the optimizer hoists them).
char *clcpu_pipe_packets(const void *Pipe);
/// The pipe's capacity (pipe_max_packets) and packet size.
uint32_t clcpu_pipe_capacity(const void *Pipe);
uint32_t clcpu_pipe_packet_size(const void *Pipe);
}

namespace clcpu {

/// One of the functions above, for the JIT to bind by name.
struct PipeRingSymbol {
  const char *Name;
  void *Address;
  /// A function of the pipe's address alone (its layout), which the
  /// compiler may call speculatively (compiler/LinkBuiltins.cpp).
  bool Layout;
};

/// Every function above.
extern const PipeRingSymbol PipeRingSymbols[7];

/// Makes the \p Data of a new pipe (builtins/PipeLayout.h) an empty ring
/// of \p MaxPackets packets of \p PacketSize bytes from \p DataOffset:
/// both positions 0, slot S free for the writer of position S.
void initPipeRing(void *Data, uint32_t PacketSize, uint32_t MaxPackets,
                  uint64_t DataOffset);

} // namespace clcpu

#endif

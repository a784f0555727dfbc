//===- builtins/pipe.cl - OpenCL C 3.0 6.15.16 pipe functions -------------===//
//
// Clang lowers the pipe built-ins of a kernel to calls of these functions
// (CodeGen's CGBuiltin: read_pipe(p, ptr) becomes __read_pipe_2(p, ptr,
// sizeof packet, alignof packet), and so on); on the x86 target a pipe and a
// reserve_id_t are plain pointers. The pipe's bytes are those of its
// memory object (builtins/PipeLayout.h): a bounded multi-producer,
// multi-consumer ring with a reserved and a committed position per side,
// so that producers and consumers on any threads, in any number, move each
// packet exactly once without a lock.
//
// Reservations, commits and the one-packet reads and writes are the
// runtime's (scheduler/PipeRing.{h,cpp}, clcpu_pipe_*): one call each, not
// the ring's loops and atomics inlined into the work-item loop. What stays
// here is the copy of a reserved packet, read_pipe/write_pipe with a
// reservation id: with the pipe's layout from functions of its address
// alone (declared const: the layout never changes after creation) and the
// reservation's slot and packet count in its id, the copies of a work-item
// loop vectorize.
//
// The work-group and sub-group reservations are collective: every
// work-item of the group calls them with the same arguments. They are
// collectives of their own kind, which the runtime computes once for the
// group (one reservation, its id for everyone); so are the work-group
// commits, computed once the group's copies are done. These
// functions are inlined into the kernel before it becomes a work-group
// function (compiler/Pipeline.cpp, step 4), where the reservation's id is
// one group-wide value (compiler/regions): between reservation and commit
// the work-items run no pipe call, only the copies.

#include "Builtins.h"
#include "PipeLayout.h"

#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

// The work-group and sub-group reservations and the work-group commits:
// collectives the compiler recognizes by name (compiler/Barriers.cpp,
// CollPipeReserveRead/Write, CollPipeCommitRead/Write), computed once per
// group (sub-group) by the runtime when every work-item has reached them,
// which calls clcpu_pipe_reserve (clcpu_pipe_commit).
OVL ulong clcpu_work_group_reserve_read_pipe(ulong Pipe, uint N);
OVL ulong clcpu_work_group_reserve_write_pipe(ulong Pipe, uint N);
OVL ulong clcpu_sub_group_reserve_read_pipe(ulong Pipe, uint N);
OVL ulong clcpu_sub_group_reserve_write_pipe(ulong Pipe, uint N);
OVL void clcpu_work_group_commit_read_pipe(ulong Pipe, ulong Id);
OVL void clcpu_work_group_commit_write_pipe(ulong Pipe, ulong Id);

// scheduler/PipeRing.h; compiler/Jit.cpp binds them.
ulong clcpu_pipe_reserve(__global void *Pipe, uint N, uint Read);
void clcpu_pipe_commit(__global void *Pipe, ulong Id, uint Read);
int clcpu_pipe_read(__global void *Pipe, void *Packet, uint Size);
int clcpu_pipe_write(__global void *Pipe, const void *Packet, uint Size);
__global char *clcpu_pipe_packets(__global const void *Pipe)
    __attribute__((const));
uint clcpu_pipe_capacity(__global const void *Pipe) __attribute__((const));
uint clcpu_pipe_packet_size(__global const void *Pipe) __attribute__((const));

#define NULL_ID CLCPU_PIPE_NULL_RESERVE_ID

static inline void *idPtr(ulong Id) { return (void *)Id; }

/// The packet \p Index of reservation \p Id (its first slot in the high 32
/// bits, its packet count in the low ones), or null if the reservation is
/// invalid, holds fewer packets, or the kernel's packet type is larger than
/// the pipe's packets.
static __global char *reservedPacket(__global void *P, ulong Id, uint Index,
                                     uint Size) {
  uint PacketSize = clcpu_pipe_packet_size(P);
  if (Id == NULL_ID || Size > PacketSize || Index >= (uint)Id)
    return 0;
  uint Cap = clcpu_pipe_capacity(P);
  // Slot < Cap and Index < Cap: the sum does not wrap 32 bits (Cap < 2^31).
  uint S = (uint)(Id >> 32) + Index;
  if (S >= Cap)
    S -= Cap;
  return clcpu_pipe_packets(P) + (ulong)S * PacketSize;
}

//===----------------------------------------------------------------------===//
// Reads and writes of one packet (OpenCL C 3.0 6.15.16.2).
//===----------------------------------------------------------------------===//

// "read_pipe ... returns 0 if read_pipe is successful and a negative value
// if the pipe is empty."
int __read_pipe_2(__global void *Pipe, void *Packet, uint Size, uint Align) {
  return clcpu_pipe_read(Pipe, Packet, Size);
}

// "write_pipe ... returns 0 if write_pipe is successful and a negative
// value if the pipe is full."
int __write_pipe_2(__global void *Pipe, const void *Packet, uint Size,
                   uint Align) {
  return clcpu_pipe_write(Pipe, Packet, Size);
}

// "Read packet from the reserved area of the pipe referred to by
// reserve_id and index ... returns 0 if read_pipe is successful and a
// negative value otherwise."
int __read_pipe_4(__global void *Pipe, void *Id, uint Index, void *Packet,
                  uint Size, uint Align) {
  __global char *Src = reservedPacket(Pipe, (ulong)Id, Index, Size);
  if (!Src)
    return -1;
  __builtin_memcpy(Packet, Src, Size);
  return 0;
}

int __write_pipe_4(__global void *Pipe, void *Id, uint Index,
                   const void *Packet, uint Size, uint Align) {
  __global char *Dst = reservedPacket(Pipe, (ulong)Id, Index, Size);
  if (!Dst)
    return -1;
  __builtin_memcpy(Dst, Packet, Size);
  return 0;
}

//===----------------------------------------------------------------------===//
// Reservations (6.15.16.2), one work-item each.
//===----------------------------------------------------------------------===//

// "Reserve num_packets entries for reading from or writing to pipe. Returns
// a valid reservation ID if the reservation is successful."
void *__reserve_read_pipe(__global void *Pipe, uint N, uint Size, uint Align) {
  return idPtr(clcpu_pipe_reserve(Pipe, N, 1));
}

void *__reserve_write_pipe(__global void *Pipe, uint N, uint Size, uint Align) {
  return idPtr(clcpu_pipe_reserve(Pipe, N, 0));
}

// "Indicates that all reads and writes to num_packets associated with
// reservation reserve_id are completed."
void __commit_read_pipe(__global void *Pipe, void *Id, uint Size, uint Align) {
  clcpu_pipe_commit(Pipe, (ulong)Id, 1);
}

void __commit_write_pipe(__global void *Pipe, void *Id, uint Size, uint Align) {
  clcpu_pipe_commit(Pipe, (ulong)Id, 0);
}

// "Return true if reserve_id is a valid reservation ID and false
// otherwise." (reserve_id_t is a pointer on this target: the asm name is
// the mangled is_valid_reserve_id(reserve_id_t).)
bool clcpuIsValidReserveId(void *Id) __asm__(
    "_Z19is_valid_reserve_id13ocl_reserveid");
bool clcpuIsValidReserveId(void *Id) { return (ulong)Id != NULL_ID; }

//===----------------------------------------------------------------------===//
// Work-group and sub-group reservations (6.15.16.3): collective.
//===----------------------------------------------------------------------===//

void *__work_group_reserve_read_pipe(__global void *Pipe, uint N, uint Size,
                                     uint Align) {
  return idPtr(clcpu_work_group_reserve_read_pipe((ulong)Pipe, N));
}

void *__work_group_reserve_write_pipe(__global void *Pipe, uint N, uint Size,
                                      uint Align) {
  return idPtr(clcpu_work_group_reserve_write_pipe((ulong)Pipe, N));
}

// The commit is a collective too: computed once every work-item's copies
// are done, so the slots go to the other side after all of them.
void __work_group_commit_read_pipe(__global void *Pipe, void *Id, uint Size,
                                   uint Align) {
  clcpu_work_group_commit_read_pipe((ulong)Pipe, (ulong)Id);
}

void __work_group_commit_write_pipe(__global void *Pipe, void *Id, uint Size,
                                    uint Align) {
  clcpu_work_group_commit_write_pipe((ulong)Pipe, (ulong)Id);
}

void *__sub_group_reserve_read_pipe(__global void *Pipe, uint N, uint Size,
                                    uint Align) {
  return idPtr(clcpu_sub_group_reserve_read_pipe((ulong)Pipe, N));
}

void *__sub_group_reserve_write_pipe(__global void *Pipe, uint N, uint Size,
                                     uint Align) {
  return idPtr(clcpu_sub_group_reserve_write_pipe((ulong)Pipe, N));
}

void __sub_group_commit_read_pipe(__global void *Pipe, void *Id, uint Size,
                                  uint Align) {
  sub_group_barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_sub_group_local_id() == 0)
    clcpu_pipe_commit(Pipe, (ulong)Id, 1);
}

void __sub_group_commit_write_pipe(__global void *Pipe, void *Id, uint Size,
                                   uint Align) {
  sub_group_barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_sub_group_local_id() == 0)
    clcpu_pipe_commit(Pipe, (ulong)Id, 0);
}

//===----------------------------------------------------------------------===//
// Queries (6.15.16.4).
//===----------------------------------------------------------------------===//

/// "Returns the number of available entries in the pipe. The number of
/// available entries in a pipe is a dynamic value. The value returned
/// should be considered immediately stale." Packets written and committed
/// and not yet reserved by readers; read position first, so that the
/// difference is not negative, clamped to the capacity.
static uint numPackets(__global ClcpuPipeHeader *P) {
  ulong R = __atomic_load_n(&P->ReadPos, __ATOMIC_ACQUIRE);
  ulong W = __atomic_load_n(&P->WriteDone, __ATOMIC_ACQUIRE);
  ulong N = W > R ? W - R : 0;
  return N > P->Capacity ? P->Capacity : (uint)N;
}

uint __get_pipe_num_packets_ro(__global void *Pipe, uint Size, uint Align) {
  return numPackets((__global ClcpuPipeHeader *)Pipe);
}

uint __get_pipe_num_packets_wo(__global void *Pipe, uint Size, uint Align) {
  return numPackets((__global ClcpuPipeHeader *)Pipe);
}

// "Returns the maximum number of packets specified when pipe was created."
uint __get_pipe_max_packets_ro(__global void *Pipe, uint Size, uint Align) {
  return clcpu_pipe_capacity(Pipe);
}

uint __get_pipe_max_packets_wo(__global void *Pipe, uint Size, uint Align) {
  return clcpu_pipe_capacity(Pipe);
}

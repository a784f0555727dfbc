//===- builtins/pipe.cl - OpenCL C 3.0 6.15.16 pipe functions -------------===//
//
// Clang lowers the pipe built-ins of a kernel to calls of these functions
// (CodeGen's CGBuiltin: read_pipe(p, ptr) becomes __read_pipe_2(p, ptr,
// sizeof packet, alignof packet), and so on); on the x86 target a pipe and a
// reserve_id_t are plain pointers. The pipe's bytes are those of its
// memory object (builtins/PipeLayout.h): a bounded multi-producer,
// multi-consumer ring whose slots carry sequence words, so that producers
// and consumers on any threads, in any number, move each packet exactly
// once without a lock. A reservation claims a run of positions with one
// compare-exchange on the write (or read) position, after checking that
// every slot of the run is ready; a commit releases each slot to the other
// side. read_pipe/write_pipe without a reservation are a reservation of
// one packet, its copy and its commit.
//
// A reserve_id_t holds the reservation's first slot (high 32 bits) and the
// low 32 bits of its first position: the slots of the packets need no
// division, the sequence words need the position. CLK_NULL_RESERVE_ID
// (all ones) is never a valid one: slots are below 2^31.
//
// The work-group and sub-group reservations are collective: every
// work-item of the group calls them with the same arguments. The first
// work-item reserves, a min-reduction over the group gives everyone its
// id (the others contribute CLK_NULL_RESERVE_ID, the largest value); the
// commit waits at a barrier for the group's copies before the first
// work-item commits. The reductions and barriers are the compiler's own
// collectives: these functions are inlined into the kernel before it
// becomes a work-group function (compiler/Pipeline.cpp, step 4).

#include "Builtins.h"
#include "PipeLayout.h"

#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

// The library is compiled without __opencl_c_work_group_collective_functions
// (its header would not declare this); kernels get it from the compiler.
OVL ulong work_group_reduce_min(ulong);

typedef __global ClcpuPipeHeader PipeHeader;

#define NULL_ID CLCPU_PIPE_NULL_RESERVE_ID

static inline __global uint *seqOf(PipeHeader *P) {
  return (__global uint *)((__global char *)P + CLCPU_PIPE_SEQ_OFFSET);
}

static inline __global uint *countOf(PipeHeader *P) {
  return seqOf(P) + P->Capacity;
}

static inline __global char *packetOf(PipeHeader *P, uint Slot) {
  return (__global char *)P + P->DataOffset + (ulong)Slot * P->PacketSize;
}

static inline ulong makeId(uint Slot, ulong Pos) {
  return ((ulong)Slot << 32) | (uint)Pos;
}

static inline uint idSlot(ulong Id) { return (uint)(Id >> 32); }

static inline void *idPtr(ulong Id) { return (void *)Id; }

/// Reserves \p N consecutive positions of \p Counter (the write or the read
/// position). Position Pos + K is ready for this side when its slot's
/// sequence word is (uint)(Pos + K + Ready): Ready is 0 for a writer (the
/// slot was freed), 1 for a reader (the packet was committed). A first
/// word that differs and is behind means the pipe is full (empty): the
/// reservation fails. One ahead means another reservation took Pos: the
/// compare-exchange then fails too (the counter moved past Pos) and gives
/// the counter's new value.
///
/// So the loop goes round only after a failed compare-exchange, which
/// means that another reservation succeeded: lock-free, and not a wait for
/// another work-item (compiler/passes/ProgressYields.cpp recognizes such a
/// retry loop and leaves the kernel on its fast paths). For the same
/// reason the words are all read, without an early exit on the first that
/// differs.
static ulong reserve(PipeHeader *P, __global ulong *Counter, uint N,
                     uint Ready) {
  uint Cap = P->Capacity;
  if (N == 0 || N > Cap)
    return NULL_ID;
  __global uint *Seq = seqOf(P);
  ulong Pos = __atomic_load_n(Counter, __ATOMIC_RELAXED);
  for (;;) {
    uint First = (uint)(Pos % Cap), S = First;
    int State = 0; // the first difference
    for (uint K = 0; K < N; ++K) {
      uint Word = __atomic_load_n(&Seq[S], __ATOMIC_ACQUIRE);
      int D = (int)(Word - (uint)(Pos + K + Ready));
      State = State ? State : D;
      S = S + 1 == Cap ? 0 : S + 1;
    }
    if (State < 0)
      return NULL_ID;
    // The words checked above cannot change before the exchange: only the
    // holder of a reservation of those positions changes them, and nobody
    // holds one while Counter is Pos. A stale Pos (State > 0) exchanges
    // nothing.
    if (__atomic_compare_exchange_n(Counter, &Pos, State ? Pos : Pos + N, false,
                                    __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
      if (State)
        return NULL_ID; // (a word ahead of an unmoved counter: none is)
      countOf(P)[First] = N;
      return makeId(First, Pos);
    }
    // Pos now holds the counter's value.
  }
}

/// Hands the slots of reservation \p Id to the other side: the word of
/// position Pos + K becomes (uint)(Pos + K + Done), Done being 1 after a
/// write (readable) and the capacity after a read (writable again, for the
/// position one lap later). The release store orders the packet's bytes
/// before the word.
static void commit(PipeHeader *P, ulong Id, uint Done) {
  if (Id == NULL_ID)
    return;
  uint Cap = P->Capacity, S = idSlot(Id), N = countOf(P)[S];
  uint Pos = (uint)Id;
  __global uint *Seq = seqOf(P);
  for (uint K = 0; K < N; ++K) {
    __atomic_store_n(&Seq[S], Pos + K + Done, __ATOMIC_RELEASE);
    if (++S == Cap)
      S = 0;
  }
}

/// commit() of a valid reservation of one packet.
static inline void commitOne(PipeHeader *P, ulong Id, uint Done) {
  __atomic_store_n(&seqOf(P)[idSlot(Id)], (uint)Id + Done, __ATOMIC_RELEASE);
}

/// The packet \p Index of reservation \p Id, or null if the reservation is
/// invalid, holds fewer packets, or the kernel's packet type is larger than
/// the pipe's packets.
static __global char *reservedPacket(PipeHeader *P, ulong Id, uint Index,
                                     uint Size) {
  if (Id == NULL_ID || Size > P->PacketSize)
    return 0;
  uint S = idSlot(Id);
  if (Index >= countOf(P)[S])
    return 0;
  uint Cap = P->Capacity;
  // S < Cap and Index < Cap: the sum does not wrap 32 bits (Cap < 2^31).
  S += Index;
  if (S >= Cap)
    S -= Cap;
  return packetOf(P, S);
}

//===----------------------------------------------------------------------===//
// Reads and writes of one packet (OpenCL C 3.0 6.15.16.2).
//===----------------------------------------------------------------------===//

// "read_pipe ... returns 0 if read_pipe is successful and a negative value
// if the pipe is empty."
int __read_pipe_2(__global void *Pipe, void *Packet, uint Size, uint Align) {
  PipeHeader *P = (PipeHeader *)Pipe;
  if (Size > P->PacketSize)
    return -1;
  ulong Id = reserve(P, &P->ReadPos, 1, 1);
  if (Id == NULL_ID)
    return -1;
  __builtin_memcpy(Packet, packetOf(P, idSlot(Id)), Size);
  commitOne(P, Id, P->Capacity);
  return 0;
}

// "write_pipe ... returns 0 if write_pipe is successful and a negative
// value if the pipe is full."
int __write_pipe_2(__global void *Pipe, const void *Packet, uint Size,
                   uint Align) {
  PipeHeader *P = (PipeHeader *)Pipe;
  if (Size > P->PacketSize)
    return -1;
  ulong Id = reserve(P, &P->WritePos, 1, 0);
  if (Id == NULL_ID)
    return -1;
  __builtin_memcpy(packetOf(P, idSlot(Id)), Packet, Size);
  commitOne(P, Id, 1);
  return 0;
}

// "Read packet from the reserved area of the pipe referred to by
// reserve_id and index ... returns 0 if read_pipe is successful and a
// negative value otherwise."
int __read_pipe_4(__global void *Pipe, void *Id, uint Index, void *Packet,
                  uint Size, uint Align) {
  PipeHeader *P = (PipeHeader *)Pipe;
  __global char *Src = reservedPacket(P, (ulong)Id, Index, Size);
  if (!Src)
    return -1;
  __builtin_memcpy(Packet, Src, Size);
  return 0;
}

int __write_pipe_4(__global void *Pipe, void *Id, uint Index,
                   const void *Packet, uint Size, uint Align) {
  PipeHeader *P = (PipeHeader *)Pipe;
  __global char *Dst = reservedPacket(P, (ulong)Id, Index, Size);
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
  PipeHeader *P = (PipeHeader *)Pipe;
  return idPtr(reserve(P, &P->ReadPos, N, 1));
}

void *__reserve_write_pipe(__global void *Pipe, uint N, uint Size, uint Align) {
  PipeHeader *P = (PipeHeader *)Pipe;
  return idPtr(reserve(P, &P->WritePos, N, 0));
}

// "Indicates that all reads and writes to num_packets associated with
// reservation reserve_id are completed."
void __commit_read_pipe(__global void *Pipe, void *Id, uint Size, uint Align) {
  PipeHeader *P = (PipeHeader *)Pipe;
  commit(P, (ulong)Id, P->Capacity);
}

void __commit_write_pipe(__global void *Pipe, void *Id, uint Size, uint Align) {
  commit((PipeHeader *)Pipe, (ulong)Id, 1);
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
  PipeHeader *P = (PipeHeader *)Pipe;
  ulong Id = NULL_ID;
  if (get_local_linear_id() == 0)
    Id = reserve(P, &P->ReadPos, N, 1);
  return idPtr(work_group_reduce_min(Id));
}

void *__work_group_reserve_write_pipe(__global void *Pipe, uint N, uint Size,
                                      uint Align) {
  PipeHeader *P = (PipeHeader *)Pipe;
  ulong Id = NULL_ID;
  if (get_local_linear_id() == 0)
    Id = reserve(P, &P->WritePos, N, 0);
  return idPtr(work_group_reduce_min(Id));
}

void __work_group_commit_read_pipe(__global void *Pipe, void *Id, uint Size,
                                   uint Align) {
  PipeHeader *P = (PipeHeader *)Pipe;
  // Every work-item's read is done before the slots are handed back.
  work_group_barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_linear_id() == 0)
    commit(P, (ulong)Id, P->Capacity);
}

void __work_group_commit_write_pipe(__global void *Pipe, void *Id, uint Size,
                                    uint Align) {
  work_group_barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_linear_id() == 0)
    commit((PipeHeader *)Pipe, (ulong)Id, 1);
}

void *__sub_group_reserve_read_pipe(__global void *Pipe, uint N, uint Size,
                                    uint Align) {
  PipeHeader *P = (PipeHeader *)Pipe;
  ulong Id = NULL_ID;
  if (get_sub_group_local_id() == 0)
    Id = reserve(P, &P->ReadPos, N, 1);
  return idPtr(sub_group_reduce_min(Id));
}

void *__sub_group_reserve_write_pipe(__global void *Pipe, uint N, uint Size,
                                     uint Align) {
  PipeHeader *P = (PipeHeader *)Pipe;
  ulong Id = NULL_ID;
  if (get_sub_group_local_id() == 0)
    Id = reserve(P, &P->WritePos, N, 0);
  return idPtr(sub_group_reduce_min(Id));
}

void __sub_group_commit_read_pipe(__global void *Pipe, void *Id, uint Size,
                                  uint Align) {
  PipeHeader *P = (PipeHeader *)Pipe;
  sub_group_barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_sub_group_local_id() == 0)
    commit(P, (ulong)Id, P->Capacity);
}

void __sub_group_commit_write_pipe(__global void *Pipe, void *Id, uint Size,
                                   uint Align) {
  sub_group_barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_sub_group_local_id() == 0)
    commit((PipeHeader *)Pipe, (ulong)Id, 1);
}

//===----------------------------------------------------------------------===//
// Queries (6.15.16.4).
//===----------------------------------------------------------------------===//

/// "Returns the number of available entries in the pipe. The number of
/// available entries in a pipe is a dynamic value. The value returned
/// should be considered immediately stale." Packets written (reserved by
/// writers) and not yet reserved by readers; read position first, so that
/// the difference is not negative, clamped to the capacity.
static uint numPackets(PipeHeader *P) {
  ulong R = __atomic_load_n(&P->ReadPos, __ATOMIC_ACQUIRE);
  ulong W = __atomic_load_n(&P->WritePos, __ATOMIC_ACQUIRE);
  ulong N = W > R ? W - R : 0;
  return N > P->Capacity ? P->Capacity : (uint)N;
}

uint __get_pipe_num_packets_ro(__global void *Pipe, uint Size, uint Align) {
  return numPackets((PipeHeader *)Pipe);
}

uint __get_pipe_num_packets_wo(__global void *Pipe, uint Size, uint Align) {
  return numPackets((PipeHeader *)Pipe);
}

// "Returns the maximum number of packets specified when pipe was created."
uint __get_pipe_max_packets_ro(__global void *Pipe, uint Size, uint Align) {
  return ((PipeHeader *)Pipe)->Capacity;
}

uint __get_pipe_max_packets_wo(__global void *Pipe, uint Size, uint Align) {
  return ((PipeHeader *)Pipe)->Capacity;
}

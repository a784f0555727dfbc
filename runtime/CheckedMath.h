#ifndef CLCPU_RUNTIME_CHECKEDMATH_H
#define CLCPU_RUNTIME_CHECKEDMATH_H

// Arithmetic on sizes, offsets, pitches and counts that come from the
// application. Every such value is untrusted: an extent computed with plain
// size_t arithmetic can wrap around and pass a bounds check it should fail
// (a slice pitch of 2^62 times 5 slices is 2^62 bytes, not 4 GiB). Extents
// are computed with CheckedSize, which carries an overflow flag through the
// expression, and compared with a limit only when the flag is clear.

#include <cstddef>
#include <cstdint>

namespace clcpu {

/// A size_t that remembers whether any operation that produced it
/// overflowed. Once overflowed, it stays overflowed.
class CheckedSize {
public:
  constexpr CheckedSize(size_t V = 0) : V(V) {}

  /// False if an operation on the way overflowed size_t.
  constexpr bool valid() const { return !Overflow; }
  /// The value; only meaningful when valid().
  constexpr size_t value() const { return V; }

  friend CheckedSize operator+(CheckedSize A, CheckedSize B) {
    CheckedSize R;
    R.Overflow =
        A.Overflow || B.Overflow || __builtin_add_overflow(A.V, B.V, &R.V);
    return R;
  }
  friend CheckedSize operator*(CheckedSize A, CheckedSize B) {
    CheckedSize R;
    R.Overflow =
        A.Overflow || B.Overflow || __builtin_mul_overflow(A.V, B.V, &R.V);
    return R;
  }
  CheckedSize &operator+=(CheckedSize B) { return *this = *this + B; }
  CheckedSize &operator*=(CheckedSize B) { return *this = *this * B; }

  /// True if valid() and the value is at most \p Limit: the form of every
  /// "is out of bounds" check.
  constexpr bool fitsIn(size_t Limit) const { return !Overflow && V <= Limit; }

private:
  size_t V = 0;
  bool Overflow = false;
};

/// True if [P, P + Size) wraps around the end of the address space: such a
/// host range can never be valid memory.
inline bool hostRangeWraps(const void *P, size_t Size) {
  uintptr_t End;
  return __builtin_add_overflow(reinterpret_cast<uintptr_t>(P), Size, &End);
}

} // namespace clcpu

#endif

// Values of one side to move in memory: one byte per entry while every value fits in a
// byte ("narrow"), two bytes (the ValueCode itself, "wide") once one does not. The
// solver's values while it solves (gen/value_store.h) and the tables it reads whole
// (probe/tablebase.h, Tablebase::load).
//
// Narrow codes (one byte), chosen so that the codes below NarrowOpenBase are the
// ValueCodes themselves (probe/value.h):
//   0 Unknown, 1 Illegal, 2 Draw
//   3 + p                        a mate in p plies, p <= NarrowMaxPlies (151)
//   NarrowOpenBase + c  (155+c)  open with c successor entries, c <= NarrowMaxCount (99)
//   255                          open, never lost (value::NeverLost)
// Anything else (a mate longer than 151 plies, more than 99 open successors) does not
// fit: the array is widened, in place (the mapping grows with mremap and every byte is
// converted from the end, where a two-byte code never overwrites a byte not yet read),
// so widening needs no second copy of the values.
//
// Memory comes from an anonymous mapping: zero pages, already Unknown in both widths, and
// resident only once written.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "probe/value.h"

namespace feerie {

namespace narrow {

inline constexpr int MaxPlies = 151;
inline constexpr std::uint8_t OpenBase = 155;
inline constexpr int MaxCount = 99;
inline constexpr std::uint8_t NeverLost = 255;
static_assert(value::FirstMate + MaxPlies + 1 == OpenBase && OpenBase + MaxCount + 1 == NeverLost);

// The byte of `v`, false when it has none.
constexpr bool encode(ValueCode v, std::uint8_t& out) {
  if (v < OpenBase) {
    out = std::uint8_t(v);
    return true;
  }
  if (!value::is_open(v)) return false;
  const int count = value::open_successors(v);
  if (count == value::NeverLost) {
    out = NeverLost;
    return true;
  }
  if (count > MaxCount) return false;
  out = std::uint8_t(OpenBase + count);
  return true;
}

constexpr ValueCode decode(std::uint8_t b) {
  if (b < OpenBase) return b;
  if (b == NeverLost) return value::open(value::NeverLost);
  return value::open(b - OpenBase);
}

}  // namespace narrow

class ValueArray {
 public:
  ValueArray() = default;
  // `size` entries, every one Unknown, narrow. Throws std::bad_alloc when the system
  // refuses the memory.
  explicit ValueArray(std::uint64_t size);
  ValueArray(ValueArray&& other) noexcept { swap(other); }
  ValueArray& operator=(ValueArray&& other) noexcept {
    ValueArray gone(std::move(other));
    swap(gone);
    return *this;
  }
  ValueArray(const ValueArray&) = delete;
  ValueArray& operator=(const ValueArray&) = delete;
  ~ValueArray();

  std::uint64_t size() const { return size_; }
  bool wide() const { return wide_; }
  // Bytes held: one or two per entry.
  std::uint64_t bytes() const { return wide_ ? 2 * size_ : size_; }

  // Not atomic: for a single thread, or threads writing different entries.
  ValueCode at(std::uint64_t i) const { return wide_ ? words()[i] : narrow::decode(narrow_data()[i]); }
  ValueCode operator[](std::uint64_t i) const { return at(i); }
  // Widens the array when `v` does not fit narrow.
  void set(std::uint64_t i, ValueCode v);
  // The codes of entries [first, first + out.size()).
  void read(std::uint64_t first, std::span<ValueCode> out) const;
  // Sets entries [first, first + codes.size()) to `codes` (widening as set() does).
  void write(std::uint64_t first, std::span<const ValueCode> codes) {
    for (std::size_t k = 0; k < codes.size(); ++k) set(first + k, codes[k]);
  }
  // Two bytes per entry from now on; nothing when already wide. Throws std::bad_alloc.
  void widen();
  // Every code, two bytes each (a copy: for tests and small tables).
  std::vector<ValueCode> codes() const {
    std::vector<ValueCode> out(size_);
    read(0, out);
    return out;
  }
  // An array holding `codes` (narrow when they all fit).
  static ValueArray of(std::span<const ValueCode> codes) {
    ValueArray a(codes.size());
    a.write(0, codes);
    return a;
  }

  // The storage, for the solver's atomic accesses: narrow_data() while !wide(),
  // words() after.
  std::uint8_t* narrow_data() const { return static_cast<std::uint8_t*>(data_); }
  ValueCode* words() const { return static_cast<ValueCode*>(data_); }

 private:
  void swap(ValueArray& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(wide_, other.wide_);
  }
  void* data_ = nullptr;
  std::uint64_t size_ = 0;
  bool wide_ = false;
};

}  // namespace feerie

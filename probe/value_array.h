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
// A mate longer than that first "extends" the array: a bit per entry beside the bytes (an
// eighth of a byte per entry), set for a long mate, whose byte then holds the mate less
// `high_offset` (152 unless the solver asked for less: ValueStore), in the same codes 3 + p.
// An extended array holds mates up to high_offset + 151 plies (303 by default), still about
// one byte per entry: the long mates of pawn endings (orthodox KRPvKR 148 plies, Annan
// KRPvKR 181) no longer double the solver's memory.
// Anything else (a longer mate, more than 99 open successors) does not fit: the array is
// widened, in place (the mapping grows with mremap and every byte is converted from the end,
// where a two-byte code never overwrites a byte not yet read), so widening needs no second
// copy of the values.
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
// The high offset of an extended array by default: the first mate a byte does not hold.
inline constexpr int HighOffset = MaxPlies + 1;

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

// The byte of a long mate `v` in an extended array of `high_offset`, false when it has none
// (a mate shorter than high_offset, or longer than high_offset + MaxPlies, or not a mate).
constexpr bool encode_high(ValueCode v, int high_offset, std::uint8_t& out) {
  if (!value::is_mate(v) || value::plies(v) < high_offset || value::plies(v) > high_offset + MaxPlies) return false;
  out = std::uint8_t(v - high_offset);
  return true;
}

// The code of an entry of an extended array: its byte and its high bit.
constexpr ValueCode decode(std::uint8_t b, bool high, int high_offset) {
  return high ? ValueCode(b + high_offset) : decode(b);
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
  // Narrow with a high bit per entry (extend()).
  bool extended() const { return high_ != nullptr; }
  int high_offset() const { return high_offset_; }
  // Bytes held: one or two per entry, and the high bits.
  std::uint64_t bytes() const { return wide_ ? 2 * size_ : size_ + high_bytes(); }

  // Not atomic: for a single thread, or threads writing different entries.
  ValueCode at(std::uint64_t i) const {
    if (wide_) return words()[i];
    if (!high_) return narrow::decode(narrow_data()[i]);
    return narrow::decode(narrow_data()[i], high_bit(i), high_offset_);
  }
  ValueCode operator[](std::uint64_t i) const { return at(i); }
  // Extends (high offset narrow::HighOffset) or widens the array when `v` does not fit.
  void set(std::uint64_t i, ValueCode v);
  // The codes of entries [first, first + out.size()).
  void read(std::uint64_t first, std::span<ValueCode> out) const;
  // Sets entries [first, first + codes.size()) to `codes` (widening as set() does).
  void write(std::uint64_t first, std::span<const ValueCode> codes) {
    for (std::size_t k = 0; k < codes.size(); ++k) set(first + k, codes[k]);
  }
  // Two bytes per entry from now on; nothing when already wide. Throws std::bad_alloc.
  void widen();
  // A high bit per entry from now on, every one clear (precondition: narrow, not extended;
  // 1 <= high_offset <= narrow::HighOffset). Throws std::bad_alloc.
  void extend(int high_offset = narrow::HighOffset);
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
  // The high bits of an extended array: entry i's is bit i % 64 of word i / 64.
  std::uint64_t* high_words() const { return high_; }

 private:
  bool high_bit(std::uint64_t i) const { return (high_[i / 64] >> (i % 64)) & 1; }
  // The bytes of the high bits: held when extended.
  std::uint64_t high_words_bytes() const { return (size_ + 63) / 64 * 8; }
  std::uint64_t high_bytes() const { return high_ ? high_words_bytes() : 0; }
  void swap(ValueArray& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(wide_, other.wide_);
    std::swap(high_, other.high_);
    std::swap(high_offset_, other.high_offset_);
  }
  void* data_ = nullptr;
  std::uint64_t size_ = 0;
  bool wide_ = false;
  std::uint64_t* high_ = nullptr;  // extended: the high bits (an anonymous mapping)
  int high_offset_ = narrow::HighOffset;
};

}  // namespace feerie

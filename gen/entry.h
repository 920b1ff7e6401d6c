// An entry of the component being solved: which member (material), which side to move,
// which index. The solver's unit of work, what the value store is addressed by and what
// processes send each other.
#pragma once

#include <cstdint>

namespace feerie {

// Layout of `code`: bits 0-47 index, bit 48 side to move, bits 49-63 member. Bits 48 and
// up are member * 2 + side, one look-up for the table of values holding the entry.
// Trivial, so that the arrays of predecessors on the stack of every propagation cost
// nothing to make.
struct Entry {
  std::uint64_t code;

  static constexpr int IndexBits = 48;
  static Entry of(int member, int side, std::uint64_t index) {
    return {index | std::uint64_t(side) << IndexBits | std::uint64_t(member) << (IndexBits + 1)};
  }
  std::uint64_t index() const { return code & ((std::uint64_t(1) << IndexBits) - 1); }
  int side() const { return int(code >> IndexBits) & 1; }
  int member() const { return int(code >> (IndexBits + 1)); }
  // member * 2 + side.
  int table() const { return int(code >> IndexBits); }
};

}  // namespace feerie

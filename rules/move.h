// A move as a small value type.
//
// Layout of the 32-bit code:
//   bits  0-5   from square
//   bits  6-11  to square: where the moving unit lands (for a locust, beyond its victim)
//   bits 12-15  promotion PieceType (NO_PIECE_TYPE when none)
//   bits 16-17  MoveKind
// The captured unit is not stored: it is read from the board when the move is made
// (on `to` for a normal move, behind `to` for en passant, just before `to` for a locust).
#pragma once

#include <array>
#include <cstddef>
#include <string>

#include "rules/types.h"

namespace feerie {

enum class MoveKind : std::uint8_t {
  NORMAL,          // includes ordinary captures and promotions
  DOUBLE_STEP,     // a real pawn's two-square step (sets the en-passant square)
  EN_PASSANT,      // captures the pawn that just made a double step
  LOCUST_CAPTURE,  // captures the unit jumped over, lands on `to`
};

class Move {
 public:
  // Trivial, so that a MoveList of 512 moves costs nothing to create; write Move{} for a
  // zero move.
  Move() = default;
  constexpr Move(Square from, Square to, MoveKind kind = MoveKind::NORMAL, PieceType promotion = NO_PIECE_TYPE)
      : code_(std::uint32_t(from) | std::uint32_t(to) << 6 | std::uint32_t(promotion) << 12 |
              std::uint32_t(kind) << 16) {}

  constexpr Square from() const { return Square(code_ & 63); }
  constexpr Square to() const { return Square((code_ >> 6) & 63); }
  constexpr PieceType promotion() const { return PieceType((code_ >> 12) & 15); }
  constexpr MoveKind kind() const { return MoveKind((code_ >> 16) & 3); }
  constexpr std::uint32_t code() const { return code_; }
  constexpr bool operator==(const Move&) const = default;
  constexpr bool operator<(const Move& o) const { return code_ < o.code_; }

 private:
  std::uint32_t code_;
};

// A fixed-capacity list; no allocation in move generation.
class MoveList {
 public:
  static constexpr std::size_t Capacity = 512;
  void push(Move m) { moves_[size_++] = m; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  void clear() { size_ = 0; }
  const Move* begin() const { return moves_.data(); }
  const Move* end() const { return moves_.data() + size_; }
  Move operator[](std::size_t i) const { return moves_[i]; }

 private:
  std::array<Move, Capacity> moves_;
  std::size_t size_ = 0;
};

// Long algebraic notation: e2e4, e7e8q, locust capture d4f6 (lands on f6, takes e5).
std::string to_uci(Move m);
std::string square_name(Square s);

}  // namespace feerie

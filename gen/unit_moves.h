// What the solver knows of a move or un-move of one unit without playing it through the
// rules: whether it keeps the material, and the index it reaches (gen/solver.cpp).
#pragma once

#include <cstdint>

#include "probe/indexer.h"
#include "rules/move.h"
#include "rules/position.h"

namespace feerie {

// A move known to keep the material without playing it: no capture, no promotion, and
// no unit with an after-move effect (no magic units). Under every condition such a move
// changes nothing but the moved unit's square.
inline bool quiet(const Position& pos, Move m) {
  return m.promotion() == NO_PIECE_TYPE && m.kind() != MoveKind::EN_PASSANT && m.kind() != MoveKind::LOCUST_CAPTURE &&
         pos.empty(m.to()) && !pos.magic_pieces();
}

// The un-move that gave a predecessor: the unit now on `to` stood on `from`, nothing else
// changed (no en-passant square, no mutation); or unknown(). Trivial, so that the solver's
// arrays of them cost nothing until written.
struct Unmove {
  Square from;
  Square to;
  static constexpr Unmove unknown() { return {SQ_NONE, SQ_NONE}; }
  bool known() const { return from != SQ_NONE; }
};

// What the indexer's shortcuts need for the moves of one unit of a position (entry i),
// found once for all its moves: the stride of a unit alone in its group (unit_stride(),
// 0 for a king or none), the same with both kings on the diagonal (diagonal_moves()),
// and the cache of a king's moves (Indexer::KingMoveCache).
struct UnitMoveShortcuts {
  UnitMoveShortcuts(const Indexer& indexer, const Position& pos, std::uint64_t i, Piece unit)
      : stride(unit.type() == KING ? 0 : indexer.unit_stride(pos, i, unit)) {
    if (!stride && unit.type() != KING) diagonal = indexer.diagonal_moves(pos, i, unit);
  }
  std::uint64_t stride;
  Indexer::DiagonalMoves diagonal;
  Indexer::KingMoveCache kings;
};

// The index, in the same member with the other side to move, of `pos` (entry i) with its
// `unit` on `from` moved to the empty square `to`: the indexer's shortcuts where they
// apply (`shortcuts`, of this unit in `pos`), index_after_move() otherwise. `moved` is
// `pos` with the other side to move and no en-passant square, and is left so. Used
// forward (the quiet moves of the initialisation) and backward (the un-moves of
// collect_simple_predecessors()). Always inlined: in the hot loops of the passes and of
// the initialisation.
[[gnu::always_inline]] inline std::uint64_t index_after_unit_move(const Indexer& indexer, const Position& pos,
                                                                  std::uint64_t i, Position& moved, Piece unit,
                                                                  Square from, Square to,
                                                                  UnitMoveShortcuts& shortcuts) {
  if (shortcuts.stride) return i + std::uint64_t(std::int64_t(to) - std::int64_t(from)) * shortcuts.stride;
  if (shortcuts.diagonal.stride) return shortcuts.diagonal.after(i, from, to);
  const bool king = unit.type() == KING;
  if (king) {
    const Color c = unit.color();
    const std::uint64_t j = indexer.index_after_king_move(i, pos, c == WHITE ? to : pos.king_square(WHITE),
                                                          c == BLACK ? to : pos.king_square(BLACK), shortcuts.kings);
    if (j != Indexer::NoShortcut) return j;
  }
  moved.move_piece(from, to);
  // A king's move without the shortcut is one index_after_move() has none for either.
  const std::uint64_t j = king ? indexer.index(moved) : indexer.index_after_move(i, pos, moved, from, to);
  moved.move_piece(to, from);
  return j;
}

}  // namespace feerie

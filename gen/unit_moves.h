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

// The index, in the same member with the other side to move, of `pos` (entry i) with its
// `unit` on `from` moved to the empty square `to`: the indexer's shortcuts where they
// apply (`stride`: unit_stride() of a unit alone in its group, 0 for a king or none),
// index_after_move() otherwise. `moved` is `pos` with the other side to move and no
// en-passant square, and is left so. Used forward (the quiet moves of the
// initialisation) and backward (the un-moves of collect_simple_predecessors()).
// Always inlined: in the hot loops of the passes and of the initialisation.
[[gnu::always_inline]] inline std::uint64_t index_after_unit_move(const Indexer& indexer, const Position& pos,
                                                                  std::uint64_t i, Position& moved, Piece unit,
                                                                  Square from, Square to, std::uint64_t stride) {
  if (stride) return i + std::uint64_t(std::int64_t(to) - std::int64_t(from)) * stride;
  if (unit.type() == KING) {
    const Color c = unit.color();
    const std::uint64_t j = indexer.index_after_king_move(i, pos, c == WHITE ? to : pos.king_square(WHITE),
                                                          c == BLACK ? to : pos.king_square(BLACK));
    if (j != Indexer::NoShortcut) return j;
  }
  moved.move_piece(from, to);
  const std::uint64_t j = indexer.index_after_move(i, pos, moved, from, to);
  moved.move_piece(to, from);
  return j;
}

}  // namespace feerie

#include "rules/magic.h"

namespace feerie {

PieceType chain_end(bool magic_grasshopper, bool magic_locust) {
  if (magic_grasshopper == magic_locust) return NO_PIECE_TYPE;
  return magic_grasshopper ? GRASSHOPPER : LOCUST;
}

PieceType chain_end(const Position& pos) {
  return chain_end(pos.pieces(GRASSHOPPER) & pos.magic_pieces(), pos.pieces(LOCUST) & pos.magic_pieces());
}

PieceType mutated_type(PieceType t, MutationDirection direction, PieceType fairy_end) {
  if (t < PAWN || t > QUEEN || direction == MutationDirection::NONE) return t;
  if (direction == MutationDirection::UP) {
    if (t < QUEEN) return PieceType(t + 1);
    return fairy_end == NO_PIECE_TYPE ? QUEEN : fairy_end;
  }
  if (t > PAWN) return PieceType(t - 1);
  return fairy_end == NO_PIECE_TYPE ? PAWN : fairy_end;
}

TypeSet unmutated_types(PieceType t, MutationDirection direction, PieceType fairy_end) {
  TypeSet out;
  if (direction == MutationDirection::NONE) {
    out.types[out.count++] = t;
    return out;
  }
  // Every type u with mutated_type(u) == t: at most t itself and one neighbour.
  for (PieceType u : {PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, GRASSHOPPER, LOCUST})
    if (mutated_type(u, direction, fairy_end) == t && out.count < 2) out.types[out.count++] = u;
  return out;
}

void apply_mutations(Position& pos, Square from, Square to, UndoRecord& undo) {
  if (!pos.magic_pieces()) return;
  Piece mover = pos.piece_on(to);
  if (mover.type() == KING) return;  // a king is never magic and never mutated
  const PieceType end = chain_end(pos);
  auto mutate = [&](Square s, MutationDirection direction) {
    Piece unit = pos.piece_on(s);
    PieceType t = mutated_type(unit.type(), direction, end);
    if (t == unit.type()) return;
    undo.changed_square[undo.change_count] = s;
    undo.changed_from[undo.change_count++] = unit;
    pos.replace_piece(s, Piece(unit.color(), t));
  };
  if (mover.magic()) {
    // Each touched unit has exactly one new contact: the mover.
    for (Bitboard touched = touched_by_magic_bb(pos, from, to); touched;) {
      Square s = pop_lsb(touched);
      mutate(s, pos.piece_on(s).color() == mover.color() ? MutationDirection::UP : MutationDirection::DOWN);
    }
    return;
  }
  mutate(to, contact_direction(pos, mover.color(), magic_met_bb(pos, from, to)));
  // The en-passant square belongs to a pawn that stands in front of it: a pawn that is
  // no longer one after its double step leaves none.
  if (pos.ep_square() != SQ_NONE && pos.piece_on(to).type() != PAWN) pos.set_ep_square(SQ_NONE);
}

}  // namespace feerie

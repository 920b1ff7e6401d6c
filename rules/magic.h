// Magic units (SPEC 3.5; source: shared/seeds/004, Bédoni's "pièces magiciennes";
// docs/conditions/magic.md). Magic is a property of units, not a condition: a magic unit
// moves by its walk under whatever condition is in force, never captures and cannot be
// captured (rules/capture.h), and after every move the units that gain a new contact
// with a magic unit mutate. This file holds the mutation, which make_move()
// (rules/movegen.h) applies after every move under every condition, and its inverse for
// retro moves.
//
// Mutation, after the move and after promotion: every ordinary (non-magic, non-king) unit
// adjacent to a magic unit it was not adjacent to before the move changes once: one step
// up the chain P < N < B < R < Q when all its new magic contacts are of its own colour,
// one step down when all are of the other colour, not at all when both colours are
// among them. Only the mover makes contacts (a captured unit simply disappears): a magic
// mover touches the ordinary units around its new square that were not around its old
// one; an ordinary mover meets the magic units around its new square that were not
// around its old one. A queen does not go up and a pawn does not go down, except that
// with magic units of exactly one fairy walk F on the board, F joins the chain at both
// ends (Q -> F going up, P -> F going down) and changes no further.
#pragma once

#include "rules/position.h"

namespace feerie {

enum class MutationDirection : std::uint8_t { NONE, UP, DOWN };

// The fairy walk that ends the chain at both sides in `pos`: the one fairy type with
// magic units on the board, or NO_PIECE_TYPE when there is none or both (an ambiguous
// end: then Q and P stay as they are; docs/conditions/magic.md).
PieceType chain_end(const Position& pos);
// The same from whether magic grasshoppers and magic locusts are present (for callers
// that know the units but have no position, e.g. the material graph).
PieceType chain_end(bool magic_grasshopper, bool magic_locust);

// The type a unit of type `t` becomes by one step in `direction` (t itself when it
// cannot move along the chain: a king, a fairy type, Q going up or P going down without
// a fairy end).
PieceType mutated_type(PieceType t, MutationDirection direction, PieceType fairy_end);

// The types that mutated_type() turns into `t` in `direction` (t itself included when it
// stays put): at most two. Used by retro moves to un-mutate a unit.
struct TypeSet {
  PieceType types[2];
  int count = 0;
  const PieceType* begin() const { return types; }
  const PieceType* end() const { return types + count; }
};
TypeSet unmutated_types(PieceType t, MutationDirection direction, PieceType fairy_end);

// The direction in which an ordinary unit of colour `c` that gains the magic contacts
// `new_contacts` (magic units of both colours, squares) mutates.
inline MutationDirection contact_direction(const Position& pos, Color c, Bitboard new_contacts) {
  bool own = new_contacts & pos.pieces(c), other = new_contacts & pos.pieces(~c);
  return own == other ? MutationDirection::NONE : own ? MutationDirection::UP : MutationDirection::DOWN;
}

// The ordinary units that gain a contact with the magic unit now on `to`, which stood on
// `from` before the move: the ordinary non-king units around `to` that were not around
// `from`.
inline Bitboard touched_by_magic_bb(const Position& pos, Square from, Square to) {
  return king_bb(to) & ~king_bb(from) & pos.pieces() & ~pos.magic_pieces() & ~pos.pieces(KING);
}

// The magic units that the ordinary unit now on `to`, which stood on `from`, gains as
// contacts.
inline Bitboard magic_met_bb(const Position& pos, Square from, Square to) {
  return king_bb(to) & ~king_bb(from) & pos.magic_pieces();
}

// Applies the mutations caused by the unit that moved from `from` to `to` (already done
// on `pos`, promotion included) and records every changed unit in `undo`. A double step
// whose pawn mutates on arrival leaves no en-passant square. Does nothing without magic
// units on the board.
void apply_mutations(Position& pos, Square from, Square to, UndoRecord& undo);

// do_move() followed by the mutations magic units cause, all recorded in `undo`: a move
// as every condition plays it (rules/movegen.h make_move).
inline void do_move_with_mutations(Position& pos, Move m, UndoRecord& undo) {
  pos.do_move(m, undo);
  if (pos.magic_pieces()) apply_mutations(pos, m.from(), m.to(), undo);
}

}  // namespace feerie

#include "rules/conditions/orthodox.h"

#include "rules/walks.h"

namespace feerie {

bool OrthodoxRules::in_check(const Position& pos, Color c) const {
  Square k = pos.king_square(c);
  if (k == SQ_NONE) return false;
  Color them = ~c;
  Bitboard occupied = pos.pieces();
  // Reverse look-ups for the orthodox walks: a unit attacks k if k attacks it back with
  // the same walk (pawns use the reverse table).
  if (knight_bb(k) & pos.pieces(them, KNIGHT)) return true;
  if (king_bb(k) & pos.pieces(them, KING)) return true;
  if (pawn_attackers_bb(them, k) & pos.pieces(them, PAWN)) return true;
  if (rook_attacks_bb(k, occupied) & (pos.pieces(them, ROOK) | pos.pieces(them, QUEEN))) return true;
  if (bishop_attacks_bb(k, occupied) & (pos.pieces(them, BISHOP) | pos.pieces(them, QUEEN))) return true;
  // The fairy walks are not symmetric: ask each fairy unit what it captures.
  for (Bitboard fairy = pos.pieces(them, GRASSHOPPER) | pos.pieces(them, LOCUST); fairy;) {
    Square s = pop_lsb(fairy);
    if (capture_targets_bb(pos, s, pos.piece_on(s).type(), them) & square_bb(k)) return true;
  }
  return false;
}

}  // namespace feerie

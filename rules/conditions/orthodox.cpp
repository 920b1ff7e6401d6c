#include "rules/conditions/orthodox.h"

#include "rules/walks.h"

namespace feerie {

bool OrthodoxRules::in_check(const Position& pos, Color c) const {
  Square k = pos.king_square(c);
  if (k == SQ_NONE) return false;
  Color them = ~c;
  // Reverse look-ups for the orthodox walks: a unit attacks k if k attacks it back with
  // the same walk (pawns use the reverse table).
  if (orthodox_attackers_bb(pos, k, them, pos.pieces())) return true;
  // The fairy walks are not symmetric: ask each fairy unit what it captures.
  for (Bitboard fairy = pos.pieces(them, GRASSHOPPER) | pos.pieces(them, LOCUST); fairy;) {
    Square s = pop_lsb(fairy);
    if (capture_targets_bb(pos, s, pos.piece_on(s).type(), them) & square_bb(k)) return true;
  }
  return false;
}

}  // namespace feerie

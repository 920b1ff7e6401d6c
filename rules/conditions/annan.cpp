#include "rules/conditions/annan.h"

#include "rules/walks.h"

namespace feerie {

unsigned AnnanWalk::retro_walks(const Position& pos, Square s) const {
  Piece unit = pos.piece_on(s);
  unsigned walks = 1u << unit.type();
  if (unit.type() == KING && !kings_borrow) return walks;
  // The lender stood behind the unit's origin, which is unknown here: any friendly unit
  // that may lend is a candidate (a superset, narrowed by forward confirmation).
  for (Bitboard friends = pos.pieces(unit.color()) & ~square_bb(s); friends;) {
    PieceType t = pos.piece_on(pop_lsb(friends)).type();
    if (t != KING || kings_lend) walks |= 1u << t;
  }
  return walks;
}

AnnanRules annan_rules(bool nanna, char type) {
  AnnanRules r;
  r.lender_in_front = nanna;
  r.kings_lend = type == 'a' || type == 'c';
  r.kings_borrow = type == 'a' || type == 'b';
  return r;
}

}  // namespace feerie

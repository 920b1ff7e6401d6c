#include "rules/conditions/face_to_face.h"

namespace feerie {

unsigned ConfrontationWalk::retro_walks(const Position& pos, Square s) const {
  // With magic units the confronter may have had another type before the move mutated it.
  if (pos.magic_pieces()) return (1u << PIECE_TYPE_NB) - 1;
  // The confronter stood by the unit's origin, which is unknown here: any enemy unit is a
  // candidate (a superset, narrowed by forward confirmation). A quiet move takes no unit,
  // so the confronter is still on the board.
  const Piece unit = pos.piece_on(s);
  unsigned walks = 1u << unit.type();
  for (Bitboard enemies = pos.pieces(~unit.color()); enemies;) walks |= 1u << pos.piece_on(pop_lsb(enemies)).type();
  return walks;
}

}  // namespace feerie

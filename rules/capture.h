// What every condition shares about capturing: which units may be captured, the
// promotion choices, and check (SPEC 1, 2, 3.5). One copy for all conditions; a
// condition only says which walk a unit uses (walk_of) and whether a unit that reaches
// the enemy king gives check (gives_check: a paralysed unit does not, SPEC 3.1; under
// Isardam type A the capture must itself be legal, SPEC 3.2).
#pragma once

#include "rules/walks.h"

namespace feerie {

// The units of ~c that a unit of c may capture: kings never (check is a threat, not a
// capture) and magic units never (SPEC 3.5). A magic unit captures nothing at all: the
// walks ask for its captures with an empty set (rules/walks.h).
inline Bitboard capturable_bb(const Position& pos, Color c) {
  return pos.pieces(~c) & ~pos.pieces(KING) & ~pos.magic_pieces();
}

// Promotion choices (SPEC 2): Q, R, B, N, and each fairy type present on the board
// before the move (either colour, ordinary or magic). A magic pawn promotes to a magic
// unit of the chosen type (SPEC 3.5).
struct PromotionTypes {
  PieceType types[6];
  int count = 0;
  const PieceType* begin() const { return types; }
  const PieceType* end() const { return types + count; }
};
inline PromotionTypes promotion_types(bool grasshopper_on_board, bool locust_on_board) {
  PromotionTypes out;
  for (PieceType pt : {QUEEN, ROOK, BISHOP, KNIGHT}) out.types[out.count++] = pt;
  if (grasshopper_on_board) out.types[out.count++] = GRASSHOPPER;
  if (locust_on_board) out.types[out.count++] = LOCUST;
  return out;
}
inline PromotionTypes promotion_types(const Position& pos) {
  return promotion_types(pos.pieces(GRASSHOPPER), pos.pieces(LOCUST));
}

// Whether some enemy unit that could capture the king of `c` by the walk `rules` gives
// it (magic units excluded: they capture nothing) satisfies `accept(square)`; stops at
// the first. Conditions whose units all use their own type's walk (Rules::OwnWalks) are
// answered by reverse look-ups from the king; the fairy walks, and borrowed walks, by
// asking each unit.
template <class Rules, class Accept>
bool any_king_attacker(const Position& pos, Color c, const Rules& rules, Accept&& accept) {
  Square k = pos.king_square(c);
  if (k == SQ_NONE) return false;
  Color them = ~c;
  const Bitboard magic = pos.magic_pieces();
  Bitboard ask = pos.pieces(them) & ~magic;
  if constexpr (Rules::OwnWalks) {
    for (Bitboard attackers = orthodox_attackers_bb(pos, k, them, pos.pieces()) & ~magic; attackers;)
      if (accept(pop_lsb(attackers))) return true;
    ask &= pos.pieces(GRASSHOPPER) | pos.pieces(LOCUST);
  }
  while (ask) {
    Square s = pop_lsb(ask);
    if (reaches_for_capture(pos, s, rules.walk_of(pos, s), them, k) && accept(s)) return true;
  }
  return false;
}

// The king of `c` could be captured (SPEC 1): some enemy unit reaches it and the
// condition lets that unit give check.
template <class Rules>
bool king_in_check(const Position& pos, Color c, const Rules& rules) {
  if constexpr (Rules::EveryAttackerChecks && Rules::OwnWalks) {
    // Orthodox chess: reverse look-ups answer for every unit but the fairy ones.
    Square k = pos.king_square(c);
    if (k == SQ_NONE) return false;
    if (orthodox_attackers_bb(pos, k, ~c, pos.pieces()) & ~pos.magic_pieces()) return true;
    if (!((pos.pieces(GRASSHOPPER) | pos.pieces(LOCUST)) & pos.pieces(~c))) return false;
    return any_king_attacker(pos, c, rules, [](Square) { return true; });
  } else if constexpr (Rules::EveryAttackerChecks) {
    return any_king_attacker(pos, c, rules, [](Square) { return true; });
  } else {
    Square k = pos.king_square(c);
    return any_king_attacker(pos, c, rules, [&](Square s) { return rules.gives_check(pos, s, k); });
  }
}

}  // namespace feerie

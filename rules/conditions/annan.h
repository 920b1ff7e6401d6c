// Annan and its mirror Nanna, types A-D (SPEC 3.4; source: shared/seeds/001, "Les échecs
// d'An-nan"; docs/conditions/annan.md).
//
// A unit with a friendly unit directly behind it (one square south of a white unit, one
// square north of a black unit; Nanna: directly in front) moves, captures, checks and
// observes with that lender's real walk, from its own square. There is no chaining: the
// lender lends its own type's walk even when it borrows one itself. The unit keeps its
// identity: a king stays royal, a pawn still promotes on its last rank however it moved.
// Types: A all units lend and borrow; B a king never lends; C a king never borrows;
// D neither.
//
// Everything else (the pawn walk has no move from the first rank, so a pawn there is
// harmless without a lender but moves, captures and checks by a lent walk like any unit,
// promoting when it lands on its last rank, also from its last rank along it; only a real
// pawn's double step gives an en-passant square, any unit moving as a pawn may take en
// passant, no promotion for a non-pawn moving as a pawn) is in the walks (rules/walks.h)
// and in ep_square_usable (rules/movegen.h), which ask walk_of().
#pragma once

#include "rules/conditions/orthodox.h"
#include "rules/position.h"

namespace feerie {

// The walk policy of Annan and Nanna (rules/conditions/composed.h).
struct AnnanWalk {
  // A unit may have moved with the walk of any friendly unit that stood behind it then:
  // retro moves try every candidate walk and keep those the forward rules confirm.
  static constexpr bool OwnWalks = false;
  // Lenders are friends: a quiet move changes no enemy unit's walk.
  static constexpr bool QuietMovesKeepEnemyWalks = true;
  static constexpr bool EnemiesLend = false;

  bool lender_in_front = false;  // Nanna
  bool kings_lend = true;        // false for types B and D
  bool kings_borrow = true;      // false for types C and D

  // The square of the unit that would lend to a unit of colour c on s, or SQ_NONE off
  // the board.
  Square lender_square(Color c, Square s) const {
    if (lender_south(c)) return rank_of(s) == 0 ? SQ_NONE : Square(s - 8);
    return rank_of(s) == 7 ? SQ_NONE : Square(s + 8);
  }

  PieceType walk_of(const Position& pos, Square s) const {
    Piece unit = pos.piece_on(s);
    if (unit.type() == KING && !kings_borrow) return KING;
    Square l = lender_square(unit.color(), s);
    if (l == SQ_NONE) return unit.type();
    Piece lender = pos.piece_on(l);
    if (lender.empty() || lender.color() != unit.color() || (lender.type() == KING && !kings_lend)) return unit.type();
    return lender.type();
  }

  unsigned retro_walks(const Position& pos, Square s) const;

  // The squares where units of colour c stand in front of `lenders` (behind them under
  // Nanna): where they borrow the lenders' walks.
  Bitboard borrowing_squares_bb(Color c, Bitboard lenders) const {
    return lender_south(c) ? lenders << 8 : lenders >> 8;
  }

  // The squares from which units would lend to `borrowers` of colour c: the inverse of
  // borrowing_squares_bb.
  Bitboard lending_squares_bb(Color c, Bitboard borrowers) const {
    return lender_south(c) ? borrowers >> 8 : borrowers << 8;
  }
  // Whether a unit of colour c borrows from the square south of it (a white unit under
  // Annan, a black one under Nanna).
  bool lender_south(Color c) const { return (c == WHITE) != lender_in_front; }

  // The unit on `to` borrows, on each square, the walk of the friend that lends there
  // (every other unit of its colour stays where it is), and elsewhere uses its own.
  template <class F>
  void for_each_walk_region(const Position& pos, Square to, F&& f) const {
    const Piece unit = pos.piece_on(to);
    if (unit.type() == KING && !kings_borrow) {
      f(KING, ~Bitboard(0));
      return;
    }
    Bitboard lenders = pos.pieces(unit.color()) & ~square_bb(to);
    if (!kings_lend) lenders &= ~pos.pieces(KING);
    Bitboard borrowing = 0;
    for (int t = PAWN; t < PIECE_TYPE_NB; ++t) {
      const Bitboard squares = borrowing_squares_bb(unit.color(), lenders & pos.pieces(PieceType(t)));
      if (!squares) continue;
      f(PieceType(t), squares);
      borrowing |= squares;
    }
    f(unit.type(), ~borrowing);
  }

  // Lending runs along files in one direction: only the a<->h mirror keeps the rules.
  bool full_symmetry() const { return false; }
  // A king that borrows another walk no longer attacks the squares around it.
  bool kings_may_touch() const { return kings_borrow; }
};

using AnnanRules = ComposedRules<AnnanWalk, NoRestriction>;

// The rules of "annan-a".."annan-d" (nanna = false) or "nanna-a".."nanna-d"; type is one
// of 'a', 'b', 'c', 'd'.
AnnanRules annan_rules(bool nanna, char type);

}  // namespace feerie

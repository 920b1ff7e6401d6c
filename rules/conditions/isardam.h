// Isardam and Leffie (SPEC 3.2, 3.3; shared/seeds/002 and 003; docs/conditions/isardam.md):
// the relation of Madrasi (Isardam) or Eiffel (Leffie), but paralysis never takes effect.
// A move is illegal if the position after it holds a "pair": a unit the relation would
// paralyse (ParalysisRelation::paralysed_bb, en-passant observation included). Check has
// two types, fixed at compile time so that each is its own specialised rule set:
//   type A  a unit gives check only if capturing the king would leave no pair;
//   type B  ordinary checks.
#pragma once

#include "rules/conditions/paralysis.h"

namespace feerie {

enum class IsardamCheck { TypeA, TypeB };

// The restriction policy of Isardam and Leffie (rules/conditions/composed.h).
template <IsardamCheck Check>
struct Isardam : ParalysisRelation, NoImmobileUnits {
  static constexpr bool EveryAttackerChecks = Check == IsardamCheck::TypeB;
  static constexpr bool EveryMoveAllowed = false;

  // Asked of every position whose predecessors the solver looks for: with own walks,
  // ordinary units and no en-passant observation, has_pair() (walk by walk, stopping at
  // the first pair) answers.
  template <class Walk>
  bool move_allowed(const Position& after, const Walk& walk) const {
    if constexpr (Walk::OwnWalks)
      if (after.ep_square() == SQ_NONE && only_ordinary_units(after)) return !has_pair(after);
    return !paralysed_bb(after, walk);
  }
  // Type A: the capture of the king must itself leave no pair (asked only for type A:
  // type B declares EveryAttackerChecks).
  template <class Walk>
  bool gives_check(const Position& pos, Square attacker, Square king, const Walk& walk) const;
  // How a move's pair test can be made: not at all (no unit's type is paired with an
  // enemy type and the mover keeps its type, so no pair can appear, nor after any capture
  // of the king but a promoting pawn's), around the move only (the board before it held no
  // pair: ParalysisRelation::has_pair_after_move), or over the whole board.
  // Absent: the move was found to make no pair (but taking the king may).
  enum class PairTest { None, AroundMove, Whole, Absent };
  // Legality of a move by the board alone: the position after it holds no pair, and no
  // enemy unit gives check (type A: one whose capture of the king would leave no pair).
  // Own walks, ordinary units only, and neither en passant nor a double step (whose
  // en-passant observation may make a pair): the caller makes those.
  bool legal_without_making(const Position& pos, Square from, Square to, PieceType arriving, bool may_check,
                            PairTest pair_test) const;
  // The same once per position, for the split of the legal moves (rules/movegen.h): no
  // pair can appear after a move that keeps the mover's type when no unit's type is
  // paralysed by an enemy type on the board, and no check where CheckLines says so.
  class BoardLegality {
   public:
    BoardLegality(const Isardam& rules, const Position& pos)
        : rules_(rules),
          pos_(pos),
          lines_(pos),
          pairing_types_(rules.pairing_types(pos, pos.side_to_move())),
          types_may_pair_(pairing_types_ != 0) {}
    bool all_legal(Square from) const { return !types_may_pair_ && !lines_.may_check_after_move_of(from); }
    bool legal(Square from, Square to, PieceType arriving) const {
      const PairTest test = !types_may_pair_ && arriving == pos_.piece_on(from).type() ? PairTest::None
                            : pair_before()                                            ? PairTest::Whole
                                                                                       : PairTest::AroundMove;
      return rules_.legal_without_making(pos_, from, to, arriving, lines_.may_check_after_move(from, to), test);
    }
    // The legal moves among `targets` of the unit on `from` (not a pawn, keeping its
    // type), the pair test made for all at once: with the unit lifted, the other units
    // hold no pair (else each move is judged alone), and the unit makes one exactly on its
    // pairing squares.
    Bitboard legal_targets(Square from, Bitboard targets) const;

   private:
    const Isardam& rules_;
    const Position& pos_;
    CheckLines lines_;
    unsigned pairing_types_;  // ParalysisRelation::pairing_types() of the side to move
    bool types_may_pair_;
    // legal_targets() for the king, `lifted` the board without it (holding no pair) and
    // `made` the test by making the move.
    template <class Made>
    Bitboard king_targets(const BoardEdit& lifted, Bitboard targets, PairTest test, Made&& made) const;
    // The pairs of the board (en-passant observation aside: no move keeps it), each as
    // the bitboard of its two units, found when first asked; `overflow` when there are
    // more than the array holds (then has_pair answers each question).
    struct Pairs {
      bool found = false, overflow = false;
      int count = 0;
      Bitboard units[32];
    };
    const Pairs& pairs() const;
    // Whether the board holds a pair.
    bool pair_before() const {
      if (!types_may_pair_) return false;
      const Pairs& board = pairs();
      return board.count > 0 || board.overflow;
    }
    // Whether `lifted`, the board without the unit on `from`, holds a pair: one of the
    // board's that does not involve the unit, or one a slider makes through its square.
    bool pair_without(Square from, const BoardEdit& lifted) const;
    // Where pair_without() holds, squares among which the unit on `from` must land to
    // break every pair of the board without it (on the line between the two units of
    // each, or on one of them): those that break the board's pairs it is not part of, a
    // superset.
    Bitboard pair_breaking_squares(Square from) const;
    mutable Pairs pairs_;
  };
  BoardLegality board_legality(const Position& pos, const OwnWalk&) const { return BoardLegality(*this, pos); }
  bool full_symmetry() const { return true; }
  // Type A: a king next to the enemy king is not in check when taking it would leave a
  // pair (White Kb1 Ra2, Black Kc2 Rd2 is legal with Black to move: Kxb1 would leave the
  // rooks facing each other). Type B: adjacent kings always give an ordinary check.
  bool kings_may_touch() const { return Check == IsardamCheck::TypeA; }
};

using IsardamRules = ComposedRules<OwnWalk, Isardam<IsardamCheck::TypeA>>;
using IsardamBRules = ComposedRules<OwnWalk, Isardam<IsardamCheck::TypeB>>;

template <IsardamCheck Check>
ComposedRules<OwnWalk, Isardam<Check>> isardam_rules(const ParalysisRelation& relation) {
  return {OwnWalk{}, Isardam<Check>{relation, {}}};
}

}  // namespace feerie

#include "rules/conditions/isardam.h"

#include "rules/capture.h"
#include "rules/conditions/rule_sets.h"
#include "rules/magic.h"

namespace feerie {

namespace {

// Where the unit on `from` lands when it captures the king on `king` with `walk`: on the
// king's square, or one square beyond it for a locust.
Square king_capture_landing(Square from, Square king, PieceType walk) {
  if (walk != LOCUST) return king;
  int df = file_of(king) - file_of(from), dr = rank_of(king) - rank_of(from);
  return make_square(file_of(king) + (df > 0) - (df < 0), rank_of(king) + (dr > 0) - (dr < 0));
}

// The position after the unit on `from` captures the king on `king`, promoting to
// `promotion` when given, and after the mutation that move causes. Used for Isardam type
// A checks.
Position after_king_capture(const Position& pos, Square from, Square king, PieceType walk, PieceType promotion) {
  const Square land = king_capture_landing(from, king, walk);
  const Move capture(from, land, land == king ? MoveKind::NORMAL : MoveKind::LOCUST_CAPTURE, promotion);
  Position after = pos;
  UndoRecord undo;
  do_move_with_mutations(after, capture, undo);
  return after;
}

// Whether taking the king from `from` is a move that leaves no pair. A real pawn that
// lands on its last rank promotes: the capture is legal if some promotion leaves no pair.
// (The capture is made with the unit's walk: a locust lands beyond the king only when it
// moves as a locust, and a pawn lent a locust's walk may land on its last rank beyond a
// king on its seventh: bug found by review, regression test
// Combination.IsardamKingCaptureByAPawnMovingAsALocustPromotes.)
template <class HasPair>
bool king_capture_allowed(const Position& pos, Square from, Square king, PieceType walk, HasPair&& has_pair) {
  Piece unit = pos.piece_on(from);
  if (unit.type() != PAWN || relative_rank(unit.color(), king_capture_landing(from, king, walk)) != 7)
    return !has_pair(after_king_capture(pos, from, king, walk, NO_PIECE_TYPE));
  for (PieceType pt : promotion_types(pos))
    if (!has_pair(after_king_capture(pos, from, king, walk, pt))) return true;
  return false;
}

// king_capture_allowed() on a board (a position or a board edit), for own walks and
// ordinary units only: whether the enemy unit on `attacker` of `board` could take the king
// on `king` by a move that leaves no pair: `has_pair` asked of the board after the
// capture. The unit lands on the king's square; a pawn arriving on its last rank promotes
// (to Q, R, B or N, the only choices without fairy units). After a capture there is no
// en-passant square. (Given a position, the edit is made from it rather than from a board
// edit just built: copying that one loads what was just stored, and the processor stalls;
// the capture is applied while copying, not edited in after.)
template <class Board, class HasPair>
bool king_capture_on_board_leaves_no_pair(const Board& board, Square attacker, Square king, HasPair&& has_pair) {
  const Piece unit = board.piece_on(attacker);
  auto leaves_no_pair = [&](PieceType arriving) { return !has_pair(BoardEdit(board, attacker, king, arriving)); };
  if (unit.type() != PAWN || relative_rank(unit.color(), king) != 7) return leaves_no_pair(unit.type());
  for (PieceType pt : promotion_types(false, false))
    if (leaves_no_pair(pt)) return true;
  return false;
}

// The squares where a unit of colour `c` put down on `board` (on an empty square, or
// taking the enemy unit there) breaks every pair of `board`: for each pair, the squares
// between its two units (a leaper's, a king's and a pawn's have none) and the square of its
// unit of the other colour. Nothing else a unit put down does removes a pair. False (`out`
// not set) when the board holds more pairs than are worth intersecting.
bool squares_breaking_every_pair(const ParalysisRelation& relation, const BoardEdit& board, Color c, Bitboard& out) {
  constexpr int MaxPairs = 8;
  const Bitboard enemies = board.pieces(~c);
  Bitboard breaking = ~Bitboard(0);
  int pairs = 0;
  const bool overflow = relation.any_pairs(board, [&](Square o, Bitboard observed) {
    while (observed) {
      const Square v = pop_lsb(observed);
      if (++pairs > MaxPairs) return true;
      breaking &= between_bb(o, v) | (enemies & (square_bb(o) | square_bb(v)));
    }
    return false;
  });
  if (overflow) return false;
  out = breaking;
  return true;
}

}  // namespace

template <IsardamCheck Check>
template <class Walk>
bool Isardam<Check>::gives_check(const Position& pos, Square attacker, Square king, const Walk& walk) const {
  if constexpr (Check == IsardamCheck::TypeB) {
    return true;
  } else {
    // Without a copy of the position and a move made on it where no unit borrows a walk
    // and every unit is ordinary (the test of every position's legality in the solver).
    if constexpr (Walk::OwnWalks)
      if (only_ordinary_units(pos))
        // The board before may hold a pair: the whole board after is searched.
        return king_capture_on_board_leaves_no_pair(pos, attacker, king,
                                                    [&](const BoardEdit& after) { return has_pair(after); });
    return king_capture_allowed(pos, attacker, king, walk.walk_of(pos, attacker),
                                [&](const Position& after) { return paralysed_bb(after, walk) != 0; });
  }
}

template <IsardamCheck Check>
bool Isardam<Check>::legal_without_making(const Position& pos, Square from, Square to, PieceType arriving,
                                          bool may_check, PairTest pair_test) const {
  const BoardEdit after(pos, from, to, arriving);
  if (pair_test == PairTest::Whole && has_pair(after)) return false;
  // (PairTest::Absent: the caller found the move makes none.)
  if (pair_test == PairTest::AroundMove && has_pair_after_move(after, from, to)) return false;
  // From here `after` holds no pair.
  if (!may_check) return true;
  const Square king = after.king_square(pos.side_to_move());
  Bitboard attackers = king_attackers(after, king);
  if constexpr (Check == IsardamCheck::TypeB) {
    return !attackers;
  } else {
    // Where no pair can appear, taking the king, which only removes a unit, leaves none
    // either, unless a pawn promotes by it: every attacker checks.
    const Bitboard promoting = relative_rank(~pos.side_to_move(), king) == 7 ? after.pieces(PAWN) : 0;
    if (pair_test == PairTest::None && !(attackers & promoting)) return !attackers;
    while (attackers) {
      const Square attacker = pop_lsb(attackers);
      // `after` holds no pair: only the capture can make one.
      if (king_capture_on_board_leaves_no_pair(after, attacker, king, [&](const BoardEdit& taken) {
            return has_pair_after_move(taken, attacker, king);
          }))
        return false;
    }
    return true;
  }
}

template <IsardamCheck Check>
Bitboard Isardam<Check>::BoardLegality::legal_targets(Square from, Bitboard targets) const {
  if (all_legal(from)) return targets;
  const Piece unit = pos_.piece_on(from);
  // A unit of a type paired with no enemy type makes no pair wherever it stands.
  const bool pairs_with_enemy = pairing_types_ & (1u << unit.type());
  PairTest test = PairTest::None;
  const BoardEdit lifted(pos_, square_bb(from));
  if (types_may_pair_) {
    // A pair among the other units: only a move that breaks it may be legal.
    if (pair_without(from, lifted))
      return targets_where(targets & pair_breaking_squares(from),
                           [&](Square to) { return legal(from, to, unit.type()); });
    if (pairs_with_enemy) targets &= ~rules_.pairing_squares_bb(lifted, unit.color(), unit.type());
    test = PairTest::Absent;
  }
  const Square king = pos_.king_square(pos_.side_to_move());
  auto made = [&](Square to) { return rules_.legal_without_making(pos_, from, to, unit.type(), true, test); };
  if (from == king) return king_targets(lifted, targets, test, made);
  // Another unit: the enemy units that reach the king with it lifted still do after its
  // move to `to` unless it takes one or blocks its line (the board after the move holds no
  // pair: tested above). Each such attacker checks (type B), or checks unless taking the
  // king would leave a pair (type A). The board after that capture is the one with the
  // unit lifted and the attacker on the king's square (`taken`) with the unit put down on
  // `to`: it holds a pair where the unit makes one there (its pairing squares on `taken`)
  // or leaves one of `taken`'s pairs unbroken (off the squares that break them all:
  // squares_breaking_every_pair); those are the `no_check` squares, and the attacker is
  // "known". Where `taken` holds too many pairs, or a pawn would promote by taking, the
  // move is made. All targets at once: each attacker is answered on its square (taken)
  // and between it and the king (blocked); elsewhere a known one leaves legal only its
  // no_check squares, an unknown one leaves the move to be made.
  // (None when no enemy unit reaches the king now and the unit is on no line to it.)
  const Bitboard reaching = lines_.may_check_after_move_of(from) ? king_attackers(lifted, king) : 0;
  if (!reaching) return targets;  // no enemy unit reaches the king, nor can after the move
  Bitboard legal = targets, unsure = 0;
  for (Bitboard a = reaching; a;) {
    const Square s = pop_lsb(a);
    const Bitboard answered = square_bb(s) | between_bb(king, s);
    bool known = true;
    Bitboard no_check = 0;
    if constexpr (Check == IsardamCheck::TypeA) {
      const Piece attacker = lifted.piece_on(s);
      if (attacker.type() == PAWN && relative_rank(attacker.color(), king) == 7) {
        known = false;
      } else if (test != PairTest::None) {  // (None: no pair can appear, it checks)
        const BoardEdit taken(lifted, s, king, attacker.type());
        Bitboard breaking = ~Bitboard(0);  // (no pair to break)
        if (rules_.has_pair_after_move(taken, s, king))
          known = squares_breaking_every_pair(rules_, taken, unit.color(), breaking);
        if (known)
          no_check = ~breaking | (pairs_with_enemy ? rules_.pairing_squares_bb(taken, unit.color(), unit.type()) : 0);
      }
    }
    if (known)
      legal &= answered | no_check;
    else
      unsure |= ~answered;
  }
  // (Every move of this unit may check here: its lines_ test does not depend on `to`.)
  unsure &= legal;
  return (legal & ~unsure) | targets_where(unsure, made);
}

template <IsardamCheck Check>
const typename Isardam<Check>::BoardLegality::Pairs& Isardam<Check>::BoardLegality::pairs() const {
  if (pairs_.found) return pairs_;
  pairs_.found = true;
  rules_.any_pairs(pos_, [&](Square s, Bitboard observed) {
    while (observed) {
      if (pairs_.count == 32) return pairs_.overflow = true;
      pairs_.units[pairs_.count++] = square_bb(s) | square_bb(pop_lsb(observed));
    }
    return false;
  });
  return pairs_;
}

template <IsardamCheck Check>
bool Isardam<Check>::BoardLegality::pair_without(Square from, const BoardEdit& lifted) const {
  const Pairs& board = pairs();
  if (board.overflow) return rules_.has_pair(lifted);
  // Lifting a unit blocks no line: the board's other pairs stay.
  for (int k = 0; k < board.count; ++k)
    if (!(board.units[k] & square_bb(from))) return true;
  return rules_.has_pair_through(lifted, from, 0);
}

template <IsardamCheck Check>
Bitboard Isardam<Check>::BoardLegality::pair_breaking_squares(Square from) const {
  const Pairs& board = pairs();
  if (board.overflow) return ~Bitboard(0);  // (each move is judged in full)
  // The board's pairs the unit is not part of stay once it is lifted (more may appear,
  // made through its square): the squares that break those hold the ones that break
  // every pair, and each move is judged in full anyway.
  Bitboard squares = ~Bitboard(0);
  for (int k = 0; k < board.count; ++k)
    if (!(board.units[k] & square_bb(from)))
      squares &= board.units[k] | between_bb(lsb(board.units[k]), msb(board.units[k]));
  return squares;
}

template <IsardamCheck Check>
template <class Made>
Bitboard Isardam<Check>::BoardLegality::king_targets(const BoardEdit& lifted, Bitboard targets, PairTest test,
                                                     Made&& made) const {
  const Color them = ~pos_.side_to_move();
  // The king on an empty square `to` is attacked by the enemy units that reach `to` with
  // the king lifted. Each checks (type B), or checks unless taking the king leaves a pair
  // (type A): the board after that capture is the lifted one with the attacker moved to
  // `to`, so where the lifted board without the attacker holds no pair, taking leaves one
  // exactly when `to` is among the attacker's pairing squares there. So per enemy unit,
  // for all targets at once: the targets it reaches where it checks, and those where
  // that is unknown. Captures by the king, pawns (whose observation is not symmetric, and
  // which may promote by taking) and attackers whose removal makes a pair are judged by
  // making the move (exact, whatever the other attackers do), unless another attacker
  // is known to check there.
  const Bitboard occupied = lifted.occupied();
  const Bitboard reached_targets = targets & lines_.reached_by_enemy();
  const Bitboard unsure = reached_targets & ~pos_.pieces();
  Bitboard checked = 0, unknown = reached_targets & pos_.pieces();
  for (Bitboard enemies = unsure ? lifted.pieces(them) : 0; enemies;) {
    const Square a = pop_lsb(enemies);
    const Piece attacker = lifted.piece_on(a);
    const Bitboard reached = unsure & orthodox_observation_bb(attacker.type(), them, a, occupied);
    if (!reached) continue;
    if (Check == IsardamCheck::TypeB || (test == PairTest::None && attacker.type() != PAWN)) {
      checked |= reached;  // every attacker checks, or no pair can appear
      continue;
    }
    const BoardEdit without(pos_, square_bb(pos_.king_square(~them)) | square_bb(a));
    if (attacker.type() == PAWN || rules_.has_pair_through(without, a, 0))
      unknown |= reached;
    else
      checked |= reached & ~rules_.pairing_squares_bb(without, attacker.color(), attacker.type());
  }
  targets &= ~checked;
  return targets_where(targets & unknown, made) | (targets & ~unknown);
}

template const Isardam<IsardamCheck::TypeA>::BoardLegality::Pairs& Isardam<IsardamCheck::TypeA>::BoardLegality::pairs()
    const;
template const Isardam<IsardamCheck::TypeB>::BoardLegality::Pairs& Isardam<IsardamCheck::TypeB>::BoardLegality::pairs()
    const;
template Bitboard Isardam<IsardamCheck::TypeA>::BoardLegality::legal_targets(Square, Bitboard) const;
template Bitboard Isardam<IsardamCheck::TypeB>::BoardLegality::legal_targets(Square, Bitboard) const;
template bool Isardam<IsardamCheck::TypeA>::legal_without_making(const Position&, Square, Square, PieceType, bool,
                                                                 PairTest) const;
template bool Isardam<IsardamCheck::TypeB>::legal_without_making(const Position&, Square, Square, PieceType, bool,
                                                                 PairTest) const;

// Each check type with every walk policy (rules/conditions/rule_sets.h).
#define FEERIE_INSTANTIATE_CHECK(Unused, Walk)                                                                 \
  template bool Isardam<IsardamCheck::TypeA>::gives_check(const Position&, Square, Square, const Walk&) const; \
  template bool Isardam<IsardamCheck::TypeB>::gives_check(const Position&, Square, Square, const Walk&) const;
FEERIE_WALK_POLICIES(FEERIE_INSTANTIATE_CHECK, 0)
#undef FEERIE_INSTANTIATE_CHECK

}  // namespace feerie

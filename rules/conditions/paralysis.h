// The paralysis family (SPEC 3.1-3.3): Madrasi, Madrasi Rex Inclusive, Eiffel and its
// variant relations, where paralysis takes effect; Isardam and Leffie (isardam.h) share
// the relation and forbid it instead. One mechanism parameterised by its relation: unit A
// paralyses enemy unit B when A observes B (B stands where A could capture it, pure
// geometry) and the relation holds for (type of A, type of B). Sources: shared/seeds/000
// (Madrasi, RI, grasshopper and locust examples), 002 (Madrasi, en passant, Isardam), 003
// (Eiffel, variants, Leffie); docs/conditions/.
//
// - Paralysis (Madrasi, Eiffel): a paralysed unit has no move, gives no check and guards
//   nothing. Paralysis is a property of the position: evaluated before the move for the
//   mover, recomputed after it for legality.
// - En-passant observation: a pawn that has just made a double step is observed by an
//   enemy pawn that could take it en passant (one way).
#pragma once

#include <array>
#include <bit>
#include <string>

#include "rules/board_edit.h"
#include "rules/conditions/orthodox.h"
#include "rules/position.h"

namespace feerie {

// Who paralyses whom, shared by the restriction policies of the family (Paralysis here,
// Isardam in isardam.h). Every observation is made with the walk the observer uses (its
// own, or the one it borrows under a combination with a walk condition, SPEC 3.6) and the relation is
// applied to (that walk, the real type of the observed unit).
struct ParalysisRelation {
  // paralyses[a]: bit set (1 << type) of the enemy unit types that a unit using walk a
  // paralyses.
  std::array<std::uint16_t, PIECE_TYPE_NB> paralyses{};

  bool relates(PieceType observer_walk, PieceType observed) const {
    return paralyses[observer_walk] & (1u << observed);
  }
  bool includes_kings() const;
  // The units of colour `c` on `board` (a position or a board edit) whose type a unit
  // using `walk` paralyses.
  template <class Board>
  Bitboard units_paralysed_by_bb(const Board& board, Color c, PieceType walk) const {
    Bitboard victims = 0;
    for (unsigned types = paralyses[walk]; types; types &= types - 1)
      victims |= board.pieces(c, PieceType(std::countr_zero(types)));
    return victims;
  }
  // The same, magic units aside.
  Bitboard paralysable_bb(const Position& pos, Color c, PieceType walk) const {
    return units_paralysed_by_bb(pos, c, walk) & ~pos.magic_pieces();
  }

  // The units of both colours observed by an enemy unit whose walk paralyses their type,
  // en-passant observation included. Under Isardam these are the forbidden pairs. Magic
  // units are outside every relation (SPEC 3.6): they neither paralyse nor are paralysed.
  template <class Walk>
  Bitboard paralysed_bb(const Position& pos, const Walk& walk) const;
  // Whether the unit on s is in paralysed_bb(pos, walk), computed for that unit alone.
  template <class Walk>
  bool is_paralysed(const Position& pos, Square s, const Walk& walk) const;

  // The squares where a unit of colour `c` and type `type` would be paralysed by the
  // enemy units of `pos`, each using the walk it uses in `pos` over the board `occupied`:
  // what is_paralysed() answers square by square, for all squares at once, when putting
  // the unit there changes no enemy unit's walk (own walks, or lenders that are friends:
  // Walk::QuietMovesKeepEnemyWalks). Only where every enemy unit uses an ordinary K, Q, R,
  // B, N or P walk (a grasshopper's or locust's observation depends on the board beyond
  // its target) and `pos` has no en-passant square; false otherwise, and `out` is not set.
  template <class Walk>
  requires Walk::QuietMovesKeepEnemyWalks bool paralysing_squares_bb(const Position& pos, Color c, PieceType type,
                                                                     Bitboard occupied, const Walk& walk,
                                                                     Bitboard& out) const;

  // Questions on a board edited without making the move (rules/board_edit.h), with own
  // walks, every unit an ordinary K, Q, R, B, N or P, and no en-passant observation (the
  // callers ensure it: only a double step leaves an en-passant square after a move).
  //
  // The enemy units whose walks paralyse the type of the unit on `s` and observe it.
  // (`Board`: a BoardEdit, or a Position of ordinary units.)
  template <class Board>
  Bitboard paralysers_bb(const Board& board, Square s) const;
  // Whether one does.
  bool observed_by_paralyser(const BoardEdit& board, Square s) const { return paralysers_bb(board, s) != 0; }
  // Whether some unit of `board` is so observed: a pair, in Isardam's words.
  template <class Board>
  bool has_pair(const Board& board) const {
    return any_pairs(board, [](Square, Bitboard) { return true; });
  }
  // has_pair(after) where `after` is a board that held no pair once the unit now on `to`
  // has moved there from `from`: only that unit, and the sliders whose lines ran through
  // `from`, can make a pair (taking a unit or blocking a line only removes observations).
  bool has_pair_after_move(const BoardEdit& after, Square from, Square to) const;
  // has_pair(board) where `board` held no pair before `emptied` was emptied (but pairs of
  // the unit that stood there), the units on `known` already found to make none: only
  // sliders whose lines run through `emptied` can, with the first unit beyond it.
  bool has_pair_through(const BoardEdit& board, Square emptied, Bitboard known) const;
  // The enemy units whose type the walk of the unit on `s` paralyses and that it observes.
  Bitboard observed_paralysed_types_bb(const BoardEdit& board, Square s) const;
  // Whether there is one.
  bool observes_paralysed_type(const BoardEdit& board, Square s) const {
    return observed_paralysed_types_bb(board, s) != 0;
  }
  // The pairs of `board` (a BoardEdit or a Position of ordinary units, no en-passant
  // observation): calls `f(observer, observed)` with observed_paralysed_types_bb() of
  // every unit that has some, until it returns true, and answers whether one did. Two
  // units of one leaper's or slider's walk observe each other: that pair is given once,
  // from the white unit. Walk by walk rather than unit by unit, so that the units of a
  // walk that paralyses no enemy unit present (most of them) cost nothing each.
  template <class Board, class F>
  bool any_pairs(const Board& board, F&& f) const;
  // The squares where a unit of colour `c` and type `type` (not a pawn) put down on
  // `board` would make a pair with an enemy unit of it: observe one whose type its walk
  // paralyses, or be observed by one whose walk paralyses its type. What the units do on
  // the square itself does not matter (a unit there, taken, observes nothing of it).
  Bitboard pairing_squares_bb(const BoardEdit& board, Color c, PieceType type) const;
  // The enemy units that reach the king on `king` by their walks (reverse look-ups).
  template <class Board>
  static Bitboard king_attackers(const Board& board, Square king) {
    return attackers_bb(board, king, ~board.piece_on(king).color());
  }
  // The units of `them` that reach `s` by their walks.
  template <class Board>
  static Bitboard attackers_bb(const Board& board, Square s, Color them) {
    const Bitboard occupied = board.occupied();
    return (knight_bb(s) & board.pieces(them, KNIGHT)) | (king_bb(s) & board.pieces(them, KING)) |
           (pawn_attackers_bb(them, s) & board.pieces(them, PAWN)) |
           (rook_attacks_bb(s, occupied) & (board.pieces(them, ROOK) | board.pieces(them, QUEEN))) |
           (bishop_attacks_bb(s, occupied) & (board.pieces(them, BISHOP) | board.pieces(them, QUEEN)));
  }
  // Whether the relation pairs the type of some unit of `pos` with that of an enemy unit
  // (own walks): without such types no unit can ever be paralysed, whatever the squares.
  bool types_may_pair(const Position& pos) const { return pairing_types(pos, WHITE) != 0; }
  // The types of the units of `c` that the relation pairs with the type of some enemy unit
  // (either paralysing the other), as a set of bits 1 << type: a unit of another type can
  // make no pair wherever it stands (own walks).
  unsigned pairing_types(const Position& pos, Color c) const;

  // Whether, after the side to move in `pos` moves its unit from `from` to `to` (taking
  // the enemy unit there, if any) and it arrives as `arriving` (its type, or the promotion
  // chosen), no enemy unit that reaches its king stays unparalysed: the check of the
  // position after the move, answered on the board without making it (the move not en
  // passant; a double step is fine here: its en-passant observation paralyses only the
  // mover's own pawn).
  bool king_safe_after_move(const Position& pos, Square from, Square to, PieceType arriving) const;
};

template <class Board, class F>
bool ParalysisRelation::any_pairs(const Board& board, F&& f) const {
  const Bitboard occupied = board.pieces(WHITE) | board.pieces(BLACK);
  for (int w = PAWN; w <= KING; ++w) {
    const PieceType walk = PieceType(w);
    const Bitboard walkers = board.pieces(walk);
    if (!walkers || !paralyses[w]) continue;
    Bitboard paralysed_types = 0;
    for (unsigned types = paralyses[w]; types; types &= types - 1)
      paralysed_types |= board.pieces(PieceType(std::countr_zero(types)));
    // (The black units of the walk are seen from the white ones.)
    const Bitboard mutual = walk != PAWN && relates(walk, walk) ? walkers : 0;
    for (Color c : {WHITE, BLACK}) {
      const Bitboard victims = paralysed_types & board.pieces(~c) & (c == BLACK ? ~mutual : ~Bitboard(0));
      if (!victims) continue;
      for (Bitboard observers = walkers & board.pieces(c); observers;) {
        const Square o = pop_lsb(observers);
        if (const Bitboard observed = orthodox_observation_bb(walk, c, o, occupied) & victims)
          if (f(o, observed)) return true;
      }
    }
  }
  return false;
}

// The restriction policy of Madrasi and Eiffel (rules/conditions/composed.h): paralysis
// takes effect.
struct Paralysis : ParalysisRelation {
  static constexpr bool EveryAttackerChecks = false;
  static constexpr bool NothingImmobile = false;
  static constexpr bool EveryMoveAllowed = true;

  template <class Walk>
  Bitboard immobile_bb(const Position& pos, const Walk& walk) const {
    return paralysed_bb(pos, walk);
  }
  template <class Walk>
  bool is_immobile(const Position& pos, Square s, const Walk& walk) const {
    return is_paralysed(pos, s, walk);
  }
  // The squares where a unit of colour `c` and type `type` would be immobile (see
  // ParalysisRelation::paralysing_squares_bb): the un-move origins' test (rules/retro.h).
  template <class Walk>
  requires Walk::QuietMovesKeepEnemyWalks bool immobile_squares_bb(const Position& pos, Color c, PieceType type,
                                                                   Bitboard occupied, const Walk& walk,
                                                                   Bitboard& out) const {
    return paralysing_squares_bb(pos, c, type, occupied, walk, out);
  }
  // Legality of the moves of `pos` by the board alone, for the split of the legal moves
  // (rules/movegen.h): made once per position, then asked per unit and per move. Every
  // move is allowed; only check (ParalysisRelation::king_safe_after_move) refuses one.
  class BoardLegality {
   public:
    BoardLegality(const Paralysis& rules, const Position& pos) : rules_(rules), pos_(pos), lines_(pos) {}
    // Every move of the unit on `from` that keeps its type is legal.
    bool all_legal(Square from) const { return !lines_.may_check_after_move_of(from); }
    bool legal(Square from, Square to, PieceType arriving) const {
      return !lines_.may_check_after_move(from, to) || rules_.king_safe_after_move(pos_, from, to, arriving);
    }
    // The legal moves among `targets` of the unit on `from` (not a pawn, keeping its type).
    // Other units than the king are judged for all targets at once: with the unit lifted,
    // the enemy units that reach the king and the units that paralyse each of them.
    Bitboard legal_targets(Square from, Bitboard targets) const;

   private:
    const Paralysis& rules_;
    const Position& pos_;
    CheckLines lines_;
  };
  BoardLegality board_legality(const Position& pos, const OwnWalk&) const { return BoardLegality(*this, pos); }
  template <class Walk>
  bool move_allowed(const Position&, const Walk&) const {
    return true;
  }
  // A paralysed unit gives no check.
  template <class Walk>
  bool gives_check(const Position& pos, Square attacker, Square, const Walk& walk) const {
    return !is_paralysed(pos, attacker, walk);
  }
  bool full_symmetry() const { return true; }
  // A king that can be paralysed gives no check then, and may stand by the enemy king.
  bool kings_may_touch() const { return includes_kings(); }
};

// Madrasi and Eiffel: every unit observes with its own walk.
using ParalysisRules = ComposedRules<OwnWalk, Paralysis>;

// The relations of the named conditions.
ParalysisRelation madrasi_relation(bool kings_included);
ParalysisRelation eiffel_relation();
// "qb,bq,rn,nr": each pair XY means X paralyses Y, over K Q R B N P G L (either case).
// Error messages name the offending pair.
struct ParsedRelation {
  ParalysisRelation relation;
  std::string canonical;  // the pairs sorted, lower case, comma-separated
};
bool parse_relation(const std::string& pairs, ParsedRelation& out, std::string& error_message);

inline ParalysisRules paralysis_rules(const ParalysisRelation& relation) { return {OwnWalk{}, Paralysis{relation}}; }

}  // namespace feerie

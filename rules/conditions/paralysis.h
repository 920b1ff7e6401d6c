// The paralysis family (SPEC 3.1-3.3): Madrasi, Madrasi Rex Inclusive, Isardam (types A
// and B, with or without kings), Eiffel and its variant relations, Leffie. One mechanism
// parameterised by its relation: unit A paralyses enemy unit B when A observes B (B
// stands where A could capture it, pure geometry) and the relation holds for (type of A,
// type of B). Sources: shared/seeds/000 (Madrasi, RI, grasshopper and locust examples),
// 002 (Madrasi, en passant, Isardam), 003 (Eiffel, variants, Leffie); docs/conditions/.
//
// - Paralysis conditions (Madrasi, Eiffel): a paralysed unit has no move, gives no check
//   and guards nothing. Paralysis is a property of the position: evaluated before the
//   move for the mover, recomputed after it for legality.
// - Isardam conditions (Isardam, Leffie): paralysis never takes effect; a move is illegal
//   if the position after it holds a "pair" (a unit the relation would paralyse). Type A:
//   a unit gives check only if capturing the king would leave no pair; type B: ordinary
//   checks.
// - En-passant observation: a pawn that has just made a double step is observed by an
//   enemy pawn that could take it en passant (one way).
#pragma once

#include <array>
#include <string>

#include "rules/conditions/orthodox.h"
#include "rules/position.h"

namespace feerie {

// The restriction policy of the paralysis family (rules/conditions/composed.h). Every
// observation is made with the walk the observer uses (its own, or its lender's under a
// combination with Annan, SPEC 3.6) and the relation is applied to (that walk, the real
// type of the observed unit).
struct Paralysis {
  static constexpr bool EveryAttackerChecks = false;
  static constexpr bool Unrestricted = false;

  // paralyses[a]: bit set (1 << type) of the enemy unit types that a unit using walk a
  // paralyses.
  std::array<std::uint16_t, PIECE_TYPE_NB> paralyses{};
  bool isardam = false;       // pairs are forbidden instead of taking effect
  bool ordinary_checks = false;  // Isardam type B

  template <class Walk>
  Bitboard immobile_bb(const Position& pos, const Walk& walk) const {
    return isardam ? 0 : paralysed_bb(pos, walk);
  }
  template <class Walk>
  bool move_allowed(const Position& after, const Walk& walk) const {
    return !isardam || !paralysed_bb(after, walk);
  }
  // A paralysed unit gives no check; under Isardam type A the capture of the king must
  // itself leave no pair.
  template <class Walk>
  bool gives_check(const Position& pos, Square attacker, Square king, const Walk& walk) const;
  bool full_symmetry() const { return true; }
  // Kings can stand side by side when a king can be paralysed (then it gives no check)
  // and under Isardam type A (taking the king may be barred by a pair).
  bool kings_may_touch() const;

  // The units of both colours observed by an enemy unit whose walk paralyses their type,
  // en-passant observation included. Under Isardam these are the forbidden pairs. Magic
  // units are outside every relation (SPEC 3.6): they neither paralyse nor are paralysed.
  template <class Walk>
  Bitboard paralysed_bb(const Position& pos, const Walk& walk) const;
  // Whether the unit on s is in paralysed_bb(pos, walk), computed for that unit alone.
  template <class Walk>
  bool is_paralysed(const Position& pos, Square s, const Walk& walk) const;
  bool relates(PieceType observer_walk, PieceType observed) const { return paralyses[observer_walk] & (1u << observed); }
};

// Madrasi, Isardam, Eiffel, Leffie: every unit observes with its own walk.
struct ParalysisRules : ComposedRules<OwnWalk, Paralysis> {
  Bitboard paralysed_bb(const Position& pos) const { return Paralysis::paralysed_bb(pos, walk()); }
};

// The relations of the named conditions.
ParalysisRules madrasi_rules(bool kings_included);
ParalysisRules eiffel_rules();
// "qb,bq,rn,nr": each pair XY means X paralyses Y, over K Q R B N P G L (either case).
// Error messages name the offending pair.
struct ParsedRelation {
  ParalysisRules rules;
  std::string canonical;  // the pairs sorted, lower case, comma-separated
};
bool parse_relation(const std::string& pairs, ParsedRelation& out, std::string& error_message);

}  // namespace feerie

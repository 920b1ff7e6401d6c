// A rule set as a composition of two policies (STYLE 15, the combinations issue):
//
//   a walk policy         which walk each unit uses: its own (OwnWalk, orthodox.h), its
//                         friendly lender's (AnnanWalk, annan.h: Annan and Nanna, types
//                         A-D) or its enemy confronter's (ConfrontationWalk,
//                         face_to_face.h: Face-to-face, Back-to-back);
//   a restriction policy  what paralysis does with what units observe by those walks:
//                         nothing (NoRestriction, orthodox.h), paralysis that takes
//                         effect (Paralysis, paralysis.h: Madrasi, Eiffel), or pairs that
//                         are forbidden, with the check type (Isardam<TypeA|TypeB>,
//                         isardam.h: Isardam, Leffie).
//
// ComposedRules<Walk, Restriction> offers the condition hooks every rule-aware template
// uses (movegen, check, retro moves, the solver): walk_of, retro_walks, immobile_bb,
// move_allowed, gives_check, full_symmetry, kings_may_touch, and the compile-time facts
// that choose the fast paths. The restriction's hooks take the walk policy, so paralysis
// is decided by the walks units really use: SPEC 3.6, "the paralysis relation is applied
// to the pair (the walk the observer uses, the real type of the observed unit)". Magic
// units and their mutation are a property of units, not of a policy: make_move applies
// them under every rule set (rules/magic.h).
//
// The rule sets are every walk policy with every restriction policy, listed once in
// rule_sets.h: OrthodoxRules (OwnWalk, NoRestriction), ParalysisRules (OwnWalk,
// Paralysis), IsardamRules and IsardamBRules (OwnWalk, Isardam<TypeA|TypeB>), AnnanRules
// (AnnanWalk, NoRestriction), ConfrontationRules (ConfrontationWalk, NoRestriction) and the
// combinations of a borrowed walk with a restriction (combination.h). Each hook is checked at compile time by the
// concepts below, and each rule set is specialised on its own: no run-time flag of a condition is read in the hot
// loops.
#pragma once

#include <concepts>
#include <type_traits>

#include "rules/position.h"

namespace feerie {

// Which walk a unit uses.
//   walk_of(pos, s)      the walk the unit on s uses now
//   retro_walks(pos, s)  bit set (1 << PieceType) of the walks the unit on s may have used
//                        for the move that brought it there (a superset is fine: retro
//                        moves are confirmed by the forward rules unless ExactRetroWalks)
//   for_each_walk_region(pos, to, f)  for the unit on `to`, gone from there: calls
//                        f(PieceType walk, Bitboard squares) for each walk it would use,
//                        with the squares it would use it from (the regions cover the
//                        board; only the other units decide them). The un-move fast path
//                        without magic units (rules/retro.h, for_each_simple_unmove)
//   OwnWalks             every unit always uses its own type's walk
//   QuietMovesKeepEnemyWalks  a move that takes nothing changes the walk of no enemy unit
//                        (lenders are friends, or there are none)
template <class W>
concept WalkPolicy = requires(const W w, const Position& pos, Square s) {
  { w.walk_of(pos, s) } -> std::same_as<PieceType>;
  { w.retro_walks(pos, s) } -> std::same_as<unsigned>;
  w.for_each_walk_region(pos, s, [](PieceType, Bitboard) {});
  { w.full_symmetry() } -> std::same_as<bool>;
  { w.kings_may_touch() } -> std::same_as<bool>;
  { W::OwnWalks } -> std::convertible_to<bool>;
  { W::QuietMovesKeepEnemyWalks } -> std::convertible_to<bool>;
};

// What observation does, given the walks of `Walk`.
//   immobile_bb(pos, walk)        units that cannot move now (paralysed)
//   is_immobile(pos, s, walk)     whether the unit on s is in immobile_bb(pos, walk)
//   move_allowed(after, walk)     extra legality of the position after a move (Isardam)
//   gives_check(pos, a, k, walk)  the unit on a, which reaches the enemy king on k by its
//                                 walk, gives check (asked only if !EveryAttackerChecks)
//   EveryAttackerChecks           every unit that reaches the enemy king gives check
//   NothingImmobile               immobile_bb is always empty
//   EveryMoveAllowed              move_allowed is always true
template <class R, class Walk>
concept RestrictionPolicy = WalkPolicy<Walk> && requires(const R r, const Walk walk, const Position& pos, Square s) {
  { r.immobile_bb(pos, walk) } -> std::same_as<Bitboard>;
  { r.is_immobile(pos, s, walk) } -> std::same_as<bool>;
  { r.move_allowed(pos, walk) } -> std::same_as<bool>;
  { r.gives_check(pos, s, s, walk) } -> std::same_as<bool>;
  { r.full_symmetry() } -> std::same_as<bool>;
  { r.kings_may_touch() } -> std::same_as<bool>;
  { R::EveryAttackerChecks } -> std::convertible_to<bool>;
  { R::NothingImmobile } -> std::convertible_to<bool>;
  { R::EveryMoveAllowed } -> std::convertible_to<bool>;
};

// The walks by which units observe for a restriction (paralysis, Isardam's pairs,
// en-passant observation, type A's test of a check): the walks they use (SPEC 3.6), or
// the walk policy's ObservationWalk where it names one (Face-to-face and Back-to-back:
// their own walks, rules/conditions/face_to_face.h).
template <class W>
struct ObservationWalkOf {
  using type = W;
};
template <class W>
requires requires { typename W::ObservationWalk; }
struct ObservationWalkOf<W> {
  using type = typename W::ObservationWalk;
};

// The policies are public bases, so a rule set's parameters read as its own
// (`rules.paralyses`, `rules.lender_in_front`).
template <WalkPolicy Walk, class Restriction>
requires RestrictionPolicy<Restriction, Walk> && RestrictionPolicy<Restriction, typename ObservationWalkOf<Walk>::type>
struct ComposedRules : Walk, Restriction {
  using WalkPart = Walk;
  using RestrictionPart = Restriction;

  // Facts for the hot paths (docs/architecture.md):
  //   OwnWalks             check by reverse look-ups from the king
  //   EveryAttackerChecks  no gives_check question per attacker
  //   ExactRetroWalks      without magic units, reversing a unit's own walk gives exactly
  //                        the quiet moves the forward generator plays, once the units that
  //                        are immobile before the move and the positions move_allowed
  //                        refuses are left out: such a move changes nothing but the unit's
  //                        square, so the position after it is the (legal) target itself
  //                        (proved by the retro/forward property test)
  //   Unrestricted         nothing is immobile and every move is allowed
  //   OrthodoxLegality     orthodox check, nothing immobile, no extra legality: movegen
  //                        may use pins instead of make/unmake
  static constexpr bool OwnWalks = Walk::OwnWalks;
  static constexpr bool QuietMovesKeepEnemyWalks = Walk::QuietMovesKeepEnemyWalks;
  static constexpr bool EnemiesLend = Walk::EnemiesLend;
  static constexpr bool EveryAttackerChecks = Restriction::EveryAttackerChecks;
  static constexpr bool ExactRetroWalks = Walk::OwnWalks;
  static constexpr bool Unrestricted = Restriction::NothingImmobile && Restriction::EveryMoveAllowed;
  static constexpr bool OrthodoxLegality = Walk::OwnWalks && Unrestricted;

  const Walk& walk() const { return *this; }
  const Restriction& restriction() const { return *this; }

  // The walk policy the restriction observes with (ObservationWalkOf): this rule set's
  // own, or a stateless one the walk policy names.
  using ObservationWalk = typename ObservationWalkOf<Walk>::type;
  decltype(auto) observation_walk() const {
    if constexpr (std::is_same_v<ObservationWalk, Walk>)
      return walk();
    else
      return ObservationWalk{};
  }

  using Walk::retro_walks;
  using Walk::walk_of;
  Bitboard immobile_bb(const Position& pos) const { return Restriction::immobile_bb(pos, observation_walk()); }
  bool immobile(const Position& pos, Square s) const { return Restriction::is_immobile(pos, s, observation_walk()); }
  bool move_allowed(const Position& after) const { return Restriction::move_allowed(after, observation_walk()); }
  bool gives_check(const Position& pos, Square attacker, Square king) const {
    return Restriction::gives_check(pos, attacker, king, observation_walk());
  }
  // The rules are unchanged by flipping the board vertically or along a diagonal.
  bool full_symmetry() const { return Walk::full_symmetry() && Restriction::full_symmetry(); }
  // Adjacent kings can occur in a legal position: a king that borrows a walk no longer
  // attacks its neighbours, and a paralysed king gives no check.
  bool kings_may_touch() const { return Walk::kings_may_touch() || Restriction::kings_may_touch(); }

  // The units the restriction's relation pairs (paralysed; the forbidden pairs under
  // Isardam), for the restrictions that have a relation.
  Bitboard paralysed_bb(const Position& pos) const requires
      requires(const Restriction& r, const Position& p, const ObservationWalk& w) {
    r.paralysed_bb(p, w);
  }
  { return Restriction::paralysed_bb(pos, observation_walk()); }
};

// A paralysis condition (Madrasi, Isardam, Eiffel, Leffie, ...): the kind a combination
// joins to a walk condition (SPEC 3.6; combination.h).
template <class Rules>
constexpr bool IsParalysisCondition = Rules::WalkPart::OwnWalks && !Rules::Unrestricted;

}  // namespace feerie

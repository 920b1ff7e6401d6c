// Independent, deliberately slow reference move generator for the combined conditions
// PARALYSIS+WALK (SPEC 3.6): one paralysis condition (Madrasi, Madrasi RI, Isardam types
// A and B with or without kings, Eiffel and its relations, Leffie) together with Annan or
// Nanna of any type (A-D).
//
// Test oracle only: it is written from SPEC sections 1, 2, 3.1-3.4 and 3.6 and the seed
// texts, without reading the engine's condition code. It borrows only board geometry from
// the engine (rules/walks.h add_walk_moves, Position::do_move and capture_square); which
// walk a unit uses, who observes whom, paralysis, pairs, check, promotion choices and the
// en-passant rules are all decided here, from scratch, for every move. Covered: kings,
// Q R B N P, grasshoppers and locusts; no castling. Magic units are not covered: a
// position with one makes legal_moves and perft throw std::invalid_argument.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "rules/position.h"
#include "rules/ruleset.h"

namespace feerie::test::combination_reference {

struct Params {
  // paralyses[a] bit (1 << b): a unit whose WALK is a paralyses (Isardam, Leffie: is paired
  // with) an enemy unit whose REAL type is b.
  std::array<std::uint16_t, PIECE_TYPE_NB> paralyses{};
  // Isardam and Leffie: pairs never take effect, a move that leaves any pair is illegal.
  bool isardam = false;
  // Isardam type B: ordinary checks. Type A (false): a unit gives check only if capturing
  // the king would leave no pair.
  bool ordinary_checks = false;
  // Nanna: the lender stands in front (north of a white unit, south of a black one);
  // Annan: behind.
  bool lender_in_front = false;
  bool kings_lend = true;    // Annan types A and C
  bool kings_borrow = true;  // Annan types A and B
};

// The legal moves of `pos` (its side to move) under the combination, in long algebraic
// notation as feerie::to_uci writes them, sorted.
std::vector<std::string> legal_moves(const Position& pos, const Params& params);

// Leaf count of the legal move tree to `depth` plies (depth 0 -> 1).
std::uint64_t perft(const Position& pos, const Params& params, int depth);

// The parameters of a rule set (a paralysis condition, Annan or Nanna, or both), read from
// the engine's rule value: data only, the logic stays the reference's own.
Params params_of(const RuleSet& rules);

}  // namespace feerie::test::combination_reference

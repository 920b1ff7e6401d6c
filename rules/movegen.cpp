#include "rules/movegen.h"

#include "rules/fen.h"
#include "rules/walks.h"

namespace feerie {

template <class Rules>
void generate_legal(const Position& pos, const Rules& rules, MoveList& out) {
  Color us = pos.side_to_move();
  MoveList pseudo;
  Bitboard capturable = rules.capturable_bb(pos, us);
  for (Bitboard movers = pos.pieces(us) & ~rules.immobile_bb(pos); movers;) {
    Square s = pop_lsb(movers);
    add_walk_moves(pos, s, rules.walk_of(pos, s), capturable, pseudo);
  }
  Position after = pos;
  for (Move m : pseudo) {
    UndoRecord undo;
    make_move(after, m, undo, rules);
    if (!rules.in_check(after, us) && rules.move_allowed(after)) out.push(m);
    after.undo_move(m, undo);
  }
}

template <class Rules>
std::uint64_t perft(Position& pos, const Rules& rules, int depth) {
  if (depth <= 0) return 1;
  MoveList moves;
  generate_legal(pos, rules, moves);
  if (depth == 1) return moves.size();
  std::uint64_t nodes = 0;
  for (Move m : moves) {
    UndoRecord undo;
    make_move(pos, m, undo, rules);
    nodes += perft(pos, rules, depth - 1);
    pos.undo_move(m, undo);
  }
  return nodes;
}

namespace {
// Instantiates the templates for every condition type of RuleSet, so that other
// libraries can call them after their own single dispatch.
template <class... Rules>
[[maybe_unused]] void instantiate_for(std::variant<Rules...>*) {
  (..., (void)&generate_legal<Rules>);
  (..., (void)&perft<Rules>);
}
[[maybe_unused]] auto* const Instantiated = static_cast<void (*)(RuleSet::Variant*)>(&instantiate_for);
}  // namespace

void generate_legal(const Position& pos, const RuleSet& rules, MoveList& out) {
  rules.visit([&](const auto& r) { generate_legal(pos, r, out); });
}

bool in_check(const Position& pos, const RuleSet& rules) {
  return rules.visit([&](const auto& r) { return r.in_check(pos, pos.side_to_move()); });
}

bool is_legal_position(const Position& pos, const RuleSet& rules) {
  return rules.visit([&](const auto& r) { return is_legal_position(pos, r); });
}

std::uint64_t perft(Position& pos, const RuleSet& rules, int depth) {
  return rules.visit([&](const auto& r) { return perft(pos, r, depth); });
}

Status check_position_legal(const Position& pos, const RuleSet& rules) {
  if (is_legal_position(pos, rules)) return Ok{};
  const char* side = pos.side_to_move() == WHITE ? "black" : "white";
  return error("illegal position '" + to_fen(pos) + "': the side not to move (" + side + ") is in check under " +
               rules.name());
}

}  // namespace feerie

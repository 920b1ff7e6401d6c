#include "probe/problem_quality.h"

#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "probe/mine.h"
#include "probe/solution_tree.h"
#include "rules/fen.h"
#include "rules/movegen.h"

namespace feerie {

namespace {

// Whether the move from `before` to `after` captured: a unit fewer on the board.
bool captured(const Position& before, const Position& after) {
  return popcount(after.pieces()) < popcount(before.pieces());
}

// No capture below `pos`, the attacker to move with value `v`; `seen` holds the attacker
// positions already found clean (transpositions are explored once).
Expected<bool> clean_from(const Tablebase& tb, const Position& pos, ValueCode v, std::unordered_set<std::string>& seen) {
  const std::string fen = to_fen(pos);
  if (seen.count(fen)) return true;
  Expected<std::vector<MoveResult>> keys = keeping_moves(tb, pos, v);
  if (!keys) return keys.error();
  for (const MoveResult& key : *keys) {
    if (captured(pos, key.after)) return false;
    for (const MoveResult& defence : legal_moves_with_results(key.after, tb.rules())) {
      if (captured(key.after, defence.after)) return false;
      Expected<ValueCode> w = tb.value_code(defence.after);
      if (!w) return w.error();
      if (!value::is_win(*w))
        return error(ErrorKind::Corruption, "position '" + to_fen(defence.after) + "' after a key of '" + fen +
                                                "' and a defence is not won (tables inconsistent)");
      Expected<bool> below = clean_from(tb, defence.after, *w, seen);
      if (!below || !*below) return below;
    }
  }
  seen.insert(fen);
  return true;
}

// The same moves, mates and cuts at every node.
bool same_tree(const SolutionNode& a, const SolutionNode& b) {
  if (a.move != b.move || a.checkmate != b.checkmate || a.cut != b.cut || a.omitted != b.omitted ||
      a.children.size() != b.children.size())
    return false;
  for (std::size_t i = 0; i < a.children.size(); ++i)
    if (!same_tree(a.children[i], b.children[i])) return false;
  return true;
}

// The moves a compared solution tree may hold (a long mate's tree grows exponentially;
// beyond, both trees are compared down to where each was cut).
constexpr int SolutionNodeBudget = 20000;

}  // namespace

Expected<bool> has_quiet_key(const Tablebase& tb, const Position& pos, ValueCode v) {
  Expected<std::vector<MoveResult>> keys = keeping_moves(tb, pos, v);
  if (!keys) return keys.error();
  for (const MoveResult& key : *keys)
    if (captured(pos, key.after) || in_check(key.after, tb.rules())) return false;
  return !keys->empty();
}

Expected<bool> solution_has_no_capture(const Tablebase& tb, const Position& pos, ValueCode v) {
  std::unordered_set<std::string> seen;
  return clean_from(tb, pos, v, seen);
}

// The keys of `pos` by move, for a first cheap comparison.
Expected<std::vector<Move>> key_moves(const Tablebase& tb, const Position& pos, ValueCode v) {
  Expected<std::vector<MoveResult>> keys = keeping_moves(tb, pos, v);
  if (!keys) return keys.error();
  std::vector<Move> out;
  for (const MoveResult& k : *keys) out.push_back(k.move);
  return out;
}

Expected<bool> every_unit_needed(const Tablebase& tb, const Position& pos, ValueCode v) {
  Expected<std::vector<Move>> keys = key_moves(tb, pos, v);
  if (!keys) return keys.error();
  std::optional<SolutionNode> solution;  // made when a removal keeps the keys
  // A magic unit is never captured: the tables of the material without it are not made,
  // and it counts as needed.
  for (Bitboard units = pos.pieces() & ~pos.pieces(KING) & ~pos.magic_pieces(); units;) {
    const Square s = pop_lsb(units);
    Position without = pos;
    without.remove_piece(s);
    // An en-passant right goes with the pawn that made the double step (or with the
    // last unit that could take it).
    if (without.ep_square() != SQ_NONE && !ep_square_usable(without, tb.rules())) without.set_ep_square(SQ_NONE);
    if (without.ep_square() != SQ_NONE && without.empty(Square(int(without.ep_square()) +
                                                              (pos.side_to_move() == WHITE ? -8 : 8))))
      without.set_ep_square(SQ_NONE);
    if (!is_legal_position(without, tb.rules())) continue;  // needed: no position without it
    Expected<ValueCode> w = tb.value_code(without);
    if (!w) return w.error();
    if (*w != v) continue;  // another result or length
    Expected<std::vector<Move>> other_keys = key_moves(tb, without, *w);
    if (!other_keys) return other_keys.error();
    if (*other_keys != *keys) continue;  // other keys: another solution
    if (!solution) {
      Expected<SolutionNode> made = solution_tree(tb, pos, 0, SolutionNodeBudget);
      if (!made) return made.error();
      solution = std::move(*made);
    }
    Expected<SolutionNode> other = solution_tree(tb, without, 0, SolutionNodeBudget);
    if (!other) return other.error();
    if (same_tree(*other, *solution)) return false;  // the same problem and solution without this unit
  }
  return true;
}

}  // namespace feerie

#include "probe/problem_quality.h"

#include <string>
#include <unordered_set>
#include <vector>

#include "rules/fen.h"
#include "rules/movegen.h"

namespace feerie {

namespace {

// Whether the move from `before` to `after` captured: a unit fewer on the board.
bool captured(const Position& before, const Position& after) {
  return popcount(after.pieces()) < popcount(before.pieces());
}

// The keys of `pos` (value `v` for the side to move): the moves that keep it.
Expected<std::vector<MoveResult>> keys_of(const Tablebase& tb, const Position& pos, ValueCode v) {
  std::vector<MoveResult> out;
  for (MoveResult& m : legal_moves_with_results(pos, tb.rules())) {
    Expected<ValueCode> after = tb.value_code(m.after);
    if (!after) return after.error();
    if (value_through_move(*after) == v) out.push_back(std::move(m));
  }
  return out;
}

// No capture below `pos`, the attacker to move with value `v`; `seen` holds the attacker
// positions already found clean (transpositions are explored once).
Expected<bool> clean_from(const Tablebase& tb, const Position& pos, ValueCode v, std::unordered_set<std::string>& seen) {
  const std::string fen = to_fen(pos);
  if (seen.count(fen)) return true;
  Expected<std::vector<MoveResult>> keys = keys_of(tb, pos, v);
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

}  // namespace

Expected<bool> has_quiet_key(const Tablebase& tb, const Position& pos, ValueCode v) {
  Expected<std::vector<MoveResult>> keys = keys_of(tb, pos, v);
  if (!keys) return keys.error();
  for (const MoveResult& key : *keys)
    if (captured(pos, key.after) || in_check(key.after, tb.rules())) return false;
  return !keys->empty();
}

Expected<bool> solution_has_no_capture(const Tablebase& tb, const Position& pos, ValueCode v) {
  std::unordered_set<std::string> seen;
  return clean_from(tb, pos, v, seen);
}

Expected<bool> every_unit_needed(const Tablebase& tb, const Position& pos, ValueCode v) {
  Expected<std::vector<MoveResult>> keys = keys_of(tb, pos, v);
  if (!keys) return keys.error();
  std::vector<Move> key_moves;
  for (const MoveResult& k : *keys) key_moves.push_back(k.move);
  for (Bitboard units = pos.pieces() & ~pos.pieces(KING); units;) {
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
    if (*w != v) continue;
    Expected<std::vector<MoveResult>> other = keys_of(tb, without, *w);
    if (!other) return other.error();
    std::vector<Move> other_moves;
    for (const MoveResult& k : *other) other_moves.push_back(k.move);
    if (other_moves == key_moves) return false;  // the same problem without this unit
  }
  return true;
}

}  // namespace feerie

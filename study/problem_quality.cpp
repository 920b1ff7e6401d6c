#include "study/problem_quality.h"

#include <algorithm>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "rules/fen.h"
#include "rules/movegen.h"
#include "study/mine.h"
#include "study/solution_tree.h"

namespace feerie {

namespace {

// Whether the move from `before` to `after` captured: a unit fewer on the board.
bool captured(const Position& before, const Position& after) {
  return popcount(after.pieces()) < popcount(before.pieces());
}

// No capture below `pos`, the attacker to move with value `v`; `memo` holds the attacker
// positions already read (transpositions, and the solutions of other positions, are read
// once).
Expected<bool> clean_from(const Tablebase& tb, const Position& pos, ValueCode v, NoCaptureMemo& memo) {
  if (std::optional<bool> known = memo.find(pos)) return *known;
  Expected<std::vector<MoveResult>> keys = keeping_moves(tb, pos, v);
  if (!keys) return keys.error();
  for (const MoveResult& key : *keys) {
    bool clean = !captured(pos, key.after);
    for (const MoveResult& defence : legal_moves_with_results(key.after, tb.rules())) {
      if (!clean) break;
      clean = !captured(key.after, defence.after);
      if (!clean) break;
      Expected<ValueCode> w = won_after_defence(tb, pos, defence.after, value::plies(v) - 2);
      if (!w) return w.error();
      Expected<bool> below = clean_from(tb, defence.after, *w, memo);
      if (!below) return below;
      clean = *below;
    }
    if (!clean) {
      memo.remember(pos, false);
      return false;
    }
  }
  memo.remember(pos, true);
  return true;
}

// Checks of the attacker below `pos` (won in `v`, the attacker to move), added to `count`
// until it reaches `stop_at`. `below` remembers the count under each attacker position
// already read (transpositions are read once, and counted on each line).
Status count_checks(const Tablebase& tb, const Position& pos, ValueCode v, int stop_at, int& count,
                    std::unordered_map<std::string, int>& below) {
  const std::string fen = to_fen(pos);
  if (auto known = below.find(fen); known != below.end()) {
    count += known->second;
    return Ok{};
  }
  if (value::plies(v) == 1) return Ok{};  // the moves mate: no check before the mate
  const int before = count;
  Expected<std::vector<MoveResult>> moves = keeping_moves(tb, pos, v);
  if (!moves) return moves.error();
  for (const MoveResult& m : *moves) {
    if (in_check(m.after, tb.rules())) ++count;
    for (const MoveResult& defence : legal_moves_with_results(m.after, tb.rules())) {
      if (count >= stop_at) return Ok{};
      Expected<ValueCode> w = won_after_defence(tb, pos, defence.after, value::plies(v) - 2);
      if (!w) return w.error();
      if (Status s = count_checks(tb, defence.after, *w, stop_at, count, below); !s) return s;
    }
  }
  if (count < stop_at) below.emplace(fen, count - before);
  return Ok{};
}

// The squares the king of the side to move in `pos` can move to.
Bitboard king_flights(const Position& pos, const RuleSet& rules) {
  const Bitboard king = pos.pieces(pos.side_to_move(), KING);
  Bitboard out = 0;
  MoveList moves;
  generate_legal(pos, rules, moves);
  for (Move m : moves)
    if (king & square_bb(m.from())) out |= square_bb(m.to());
  return out;
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

Expected<int> checks_in_solution(const Tablebase& tb, const Position& pos, ValueCode v, int stop_at) {
  int count = 0;
  std::unordered_map<std::string, int> below;
  if (Status s = count_checks(tb, pos, v, stop_at, count, below); !s) return s.error();
  return std::min(count, stop_at);
}

Expected<std::vector<KeyFlights>> key_flights(const Tablebase& tb, const Position& pos, ValueCode v) {
  Expected<std::vector<MoveResult>> keys = keeping_moves(tb, pos, v);
  if (!keys) return keys.error();
  Position defender_to_move = pos;
  defender_to_move.set_side_to_move(~pos.side_to_move());
  defender_to_move.set_ep_square(SQ_NONE);
  const bool before_known = is_legal_position(defender_to_move, tb.rules());
  const Bitboard before = before_known ? king_flights(defender_to_move, tb.rules()) : 0;
  std::vector<KeyFlights> out;
  for (const MoveResult& key : *keys) {
    KeyFlights f{key.move};
    if (before_known) {
      const Bitboard after = king_flights(key.after, tb.rules());
      f.given = after & ~before;
      f.taken = before & ~after;
    }
    out.push_back(f);
  }
  return out;
}

std::optional<NoCaptureMemo::Key> NoCaptureMemo::key_of(const Position& pos) {
  if (pos.piece_count() > 8) return std::nullopt;
  // 14 bits a unit (its square, then its piece's code of 6 bits), in square order, and the
  // side to move and the en-passant square (SQ_NONE is 64) in the lowest 8 bits: 120 bits.
  unsigned __int128 bits = 0;
  for (Bitboard units = pos.pieces(); units;) {
    const Square s = pop_lsb(units);
    bits = bits << 14 | unsigned(s) | unsigned(pos.piece_on(s).code()) << 6;
  }
  bits = bits << 8 | unsigned(pos.side_to_move()) << 7 | unsigned(pos.ep_square());
  return Key{std::uint64_t(bits >> 64), std::uint64_t(bits)};
}

std::optional<bool> NoCaptureMemo::find(const Position& pos) const {
  const std::optional<Key> key = key_of(pos);
  if (!key) return std::nullopt;
  auto it = known_.find(*key);
  if (it == known_.end()) return std::nullopt;
  return it->second;
}

void NoCaptureMemo::remember(const Position& pos, bool clean) {
  const std::optional<Key> key = key_of(pos);
  if (!key) return;
  if (known_.size() >= MaxEntries) known_.clear();
  known_.emplace(*key, clean);
}

Expected<bool> solution_has_no_capture(const Tablebase& tb, const Position& pos, ValueCode v, NoCaptureMemo* memo) {
  NoCaptureMemo own;
  return clean_from(tb, pos, v, memo ? *memo : own);
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
    if (without.ep_square() != SQ_NONE &&
        without.empty(Square(int(without.ep_square()) + (pos.side_to_move() == WHITE ? -8 : 8))))
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

// An independent slow reference for helpmate tables (gen/help_solver.h): for increasing k,
// the move sequences of exactly k plies from a position after which the victim is to move,
// in check, without a legal move (memoised per position and k). Knows nothing of indices,
// retro moves or the tables. Used by tests/gen/help_solver_test.cpp and the reviewer's
// checks in tests/gen/help_review_slow_test.cpp.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>

#include "probe/help_tablebase.h"
#include "rules/movegen.h"

namespace feerie::test {

class ForwardHelpmates {
 public:
  ForwardHelpmates(RuleSet rules, Color victim) : rules_(std::move(rules)), victim_(victim) {}

  // The shortest length up to max_plies and its number of sequences (capped like the
  // tables'), or {-1, 0} when there is none that short.
  std::pair<int, int> shortest(const Position& pos, int max_plies) {
    if (memo_.size() > 30'000'000) memo_.clear();  // bounds the memory of the longest runs
    for (int k = 0; k <= max_plies; ++k)
      if (std::uint64_t n = sequences(pos, k)) return {k, int(std::min<std::uint64_t>(n, HelpSolutionsCap))};
    return {-1, 0};
  }

 private:
  // Compact key of a position (units, side to move, en-passant square).
  static std::string key_of(const Position& pos) {
    std::string k;
    for (int s = 0; s < 64; ++s) {
      Piece p = pos.piece_on(Square(s));
      if (!p.empty()) {
        k.push_back(char(s));
        k.push_back(char(p.code()));
      }
    }
    k.push_back(char(100 + int(pos.side_to_move())));
    k.push_back(char(pos.ep_square()));
    return k;
  }

  std::uint64_t sequences(const Position& pos, int k) {
    std::string key = key_of(pos);
    key.push_back(char(k));
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    MoveList moves;
    generate_legal(pos, rules_, moves);
    std::uint64_t n = 0;
    if (k == 0) {
      n = moves.empty() && pos.side_to_move() == victim_ && in_check(pos, rules_);
    } else {
      for (Move m : moves) {
        Position after = pos;
        UndoRecord undo;
        make_move(after, m, undo, rules_);
        n = std::min<std::uint64_t>(n + sequences(after, k - 1), 1u << 20);
      }
    }
    memo_.emplace(std::move(key), n);
    return n;
  }

  RuleSet rules_;
  Color victim_;
  std::unordered_map<std::string, std::uint64_t> memo_;
};

}  // namespace feerie::test

// The whole solution of a direct mate (issue 24, `feerie probe --tree`): from a position
// the side to move wins, every key (a move that keeps the shortest mate); after each key
// every legal reply of the defender, the longest resistance first; after each reply every
// move of the attacker that keeps the shortest mate from there (more than one: duals);
// down to the mates. From a position the side to move loses, the same below each of its
// moves, the longest resistance first. A draw has no tree.
//
// `width` bounds the moves listed after each move (the defences, and the attacker's
// continuations when several keep the mate: duals; the others are counted in `omitted`),
// so that a long mate stays readable; the keys are always listed; 0 lists everything.
//
// Tries (as Popeye's `Option Try` shows them): in a position won in N moves, a move of the
// attacker that is not a key and after which exactly one legal reply of the defender —
// the refutation — leaves the attacker without a mate in N - 1 moves or fewer.
#pragma once

#include <string>
#include <vector>

#include "probe/tablebase.h"
#include "rules/expected.h"
#include "rules/position.h"

namespace feerie {

struct SolutionNode {
  Move move;
  std::string san;
  bool checkmate = false;
  bool attacker = false;               // a move of the side that mates
  std::vector<SolutionNode> children;  // the next moves, as above
  int omitted = 0;                     // replies left out by the width
  bool cut = false;                    // what follows was left out: the node budget was spent
  // At the root of a won position: the tries, each with its refutation as its only child.
  std::vector<SolutionNode> tries;
};

// The tree of `pos` under a root node (no move; `attacker` when the side to move is the
// one mated) whose children are the first moves: the keys when `pos` is won, every move
// of the side to move when it is lost. Errors: those of the probes; InvalidArgument for a
// draw and a position already mated.
// `max_nodes` > 0 bounds the moves in the tree (a long mate's tree grows exponentially):
// once spent, the nodes made next are `cut`.
Expected<SolutionNode> solution_tree(const Tablebase& tb, const Position& pos, int width = 0, int max_nodes = 0);

// The tree as text in problem layout: each key alone on its line with "!", each defence
// opening a line with the answer beside it, what follows indented below, then each try
// with "?" and its refutation with "!":
//   1.Kxa2!
//     1...Kb2 2.Qa3#
//   1.Qa2+? 1...Kd1!
std::string solution_text(const Position& pos, const SolutionNode& root);

// The tree as a PGN game from `pos` (tags SetUp and FEN, the condition in Event), the first
// move at each step as the main line and the others as variations, the tries as variations
// of the first move marked $2 (a poor move) with their refutations marked $1 (a good move):
//   1. Qd4 (1. Qb1+ $2 Kxb1 $1) Ka2 (1... Kb1 2. Qxb2#) 2. Qa4+ Kb1 3. Qa1# *
std::string solution_pgn(const Position& pos, const SolutionNode& root, const std::string& condition);

}  // namespace feerie

#include "study/solution_tree.h"

#include <algorithm>

#include "rules/fen.h"
#include "rules/movegen.h"
#include "rules/san.h"

namespace feerie {

namespace {

// The width and the node budget of a tree being grown, and the nodes made so far.
struct Limits {
  int width = 0;
  int max_nodes = 0;
  int nodes = 0;
};

Status grow(const Tablebase& tb, const Position& pos, bool attacker, Limits& limits, std::vector<SolutionNode>& out,
            int& omitted, bool root = false);

// A node for move `mv` of `pos`, and the tree below it.
Status add_node(const Tablebase& tb, const Position& pos, const MoveValue& mv, bool attacker, Limits& limits,
                std::vector<SolutionNode>& out) {
  SolutionNode node;
  node.move = mv.move;
  node.san = to_san(pos, mv.move, tb.rules());
  node.checkmate = mv.checkmate;
  node.attacker = attacker;
  ++limits.nodes;
  if (!mv.checkmate) {
    if (limits.max_nodes > 0 && limits.nodes >= limits.max_nodes)
      node.cut = true;  // the budget is spent: what follows is left out
    else if (Status s = grow(tb, mv.after, !attacker, limits, node.children, node.omitted); !s)
      return s;
  }
  out.push_back(std::move(node));
  return Ok{};
}

// The moves of `pos` that belong to the tree: for the attacker those that keep its value,
// for the defender every move (the tablebase's order: the longest resistance first), at
// most `width` of them (the others counted in `omitted`), every key at the root.
Status grow(const Tablebase& tb, const Position& pos, bool attacker, Limits& limits, std::vector<SolutionNode>& out,
            int& omitted, bool root) {
  Expected<ValueCode> v = tb.value_code(pos);
  if (!v) return v.error();
  Expected<std::vector<MoveValue>> moves = tb.move_values(pos);
  if (!moves) return moves.error();
  for (const MoveValue& mv : *moves) {
    if (attacker && mv.value != *v) continue;  // not a key or continuation (values are the mover's)
    if (limits.width > 0 && int(out.size()) == limits.width && !(root && attacker)) {
      ++omitted;
      continue;
    }
    if (Status s = add_node(tb, pos, mv, attacker, limits, out); !s) return s;
  }
  return Ok{};
}

// The tries of `pos`, won in `v` for the side to move (see the header), in the tablebase's
// move order.
Status add_tries(const Tablebase& tb, const Position& pos, ValueCode v, std::vector<SolutionNode>& out) {
  Expected<std::vector<MoveValue>> moves = tb.move_values(pos);
  if (!moves) return moves.error();
  const int moves_left = value::moves(v) - 1;  // after the try and a reply
  for (const MoveValue& mv : *moves) {
    if (mv.value == v || mv.checkmate) continue;  // a key
    Expected<std::vector<MoveValue>> replies = tb.move_values(mv.after);
    if (!replies) return replies.error();
    const MoveValue* refutation = nullptr;
    int refutations = 0;
    for (const MoveValue& reply : *replies) {
      // The reply's value is the defender's, its own move counted: mated in k more moves
      // of the attacker is a loss in 2k plies.
      if (value::is_loss(reply.value) && value::plies(reply.value) <= 2 * moves_left) continue;
      refutation = &reply;
      if (++refutations > 1) break;
    }
    if (refutations != 1) continue;
    SolutionNode attempt;
    attempt.move = mv.move;
    attempt.san = to_san(pos, mv.move, tb.rules());
    attempt.attacker = true;
    SolutionNode refuted;
    refuted.move = refutation->move;
    refuted.san = to_san(mv.after, refutation->move, tb.rules());
    attempt.children.push_back(std::move(refuted));
    out.push_back(std::move(attempt));
  }
  return Ok{};
}

// The move number of the move at `ply` (counted from the tree's first move) played by
// `mover`: a tree that Black starts numbers White's first answer 2.
int move_number(int ply, Color mover) {
  const Color first = ply % 2 ? ~mover : mover;
  return 1 + (ply + (first == BLACK ? 1 : 0)) / 2;
}

// "2.Qa3#", or "1...Kb2" for a Black move opening a line ("Kb2" inside one).
std::string numbered(const SolutionNode& n, int ply, Color mover, bool opens_line) {
  const std::string number = std::to_string(move_number(ply, mover));
  if (mover == WHITE) return number + "." + n.san;
  return opens_line ? number + "..." + n.san : n.san;
}

void write_defences(const std::vector<SolutionNode>& defences, int omitted, int ply, Color mover, int indent,
                    std::string& out);

// Each attacker move on a line of its own after `prefix`, its defences indented below.
void write_attacks(const std::vector<SolutionNode>& attacks, const std::string& prefix, int ply, Color mover,
                   int indent, bool key, std::string& out) {
  for (const SolutionNode& a : attacks) {
    out += prefix + numbered(a, ply, mover, prefix.find_first_not_of(' ') == std::string::npos) + (key ? "!" : "") +
           (a.cut ? " …" : "") + "\n";
    write_defences(a.children, a.omitted, ply + 1, ~mover, indent + 2, out);
  }
}

// Each defence opening a line with the attacker's answer beside it ("1...Kb2 2.Qa3#").
void write_defences(const std::vector<SolutionNode>& defences, int omitted, int ply, Color mover, int indent,
                    std::string& out) {
  const std::string pad(std::size_t(indent), ' ');
  for (const SolutionNode& d : defences) {
    const std::string line = pad + numbered(d, ply, mover, true) + " ";
    if (d.children.empty()) out += line + (d.cut ? "…" : "") + "\n";
    write_attacks(d.children, line, ply + 1, ~mover, indent, false, out);
    if (d.omitted) out += line + "(and " + std::to_string(d.omitted) + " more)\n";
  }
  if (omitted) out += pad + "(and " + std::to_string(omitted) + " more)\n";
}

// PGN movetext: the first node at each step is the main line, the others variations
// (RAV) after it; a Black move opening a variation or following one carries its number.
void pgn_moves(const std::vector<SolutionNode>& nodes, int ply, Color mover, bool numbered_black, std::string& out,
               const std::vector<SolutionNode>& tries = {}) {
  if (nodes.empty()) return;
  const int number = move_number(ply, mover);
  auto prefix = [&](bool black_number) {
    return mover == WHITE ? std::to_string(number) + ". " : black_number ? std::to_string(number) + "... " : "";
  };
  const SolutionNode& main = nodes.front();
  out += " " + prefix(numbered_black) + main.san;
  for (std::size_t i = 1; i < nodes.size(); ++i) {
    out += " (" + prefix(true) + nodes[i].san;
    pgn_moves(nodes[i].children, ply + 1, ~mover, false, out);
    out += ")";
  }
  for (const SolutionNode& t : tries) {
    const SolutionNode& refutation = t.children.front();
    const std::string reply_number = ~mover == WHITE ? std::to_string(move_number(ply + 1, ~mover)) + ". " : "";
    out += " (" + prefix(true) + t.san + " $2 " + reply_number + refutation.san + " $1)";
  }
  pgn_moves(main.children, ply + 1, ~mover, nodes.size() > 1 || !tries.empty(), out);
}

}  // namespace

std::string solution_pgn(const Position& pos, const SolutionNode& root, const std::string& condition) {
  std::string out =
      "[Event \"Solution, " + condition + "\"]\n[SetUp \"1\"]\n[FEN \"" + to_fen(pos) + "\"]\n[Result \"*\"]\n\n";
  std::string moves;
  pgn_moves(root.children, 0, pos.side_to_move(), true, moves, root.tries);
  return out + (moves.empty() ? "" : moves.substr(1) + " ") + "*\n";
}

Expected<SolutionNode> solution_tree(const Tablebase& tb, const Position& pos, int width, int max_nodes) {
  Expected<ValueCode> v = tb.value_code(pos);
  if (!v) return v.error();
  if (!value::is_mate(*v)) return error(ErrorKind::InvalidArgument, "a draw has no solution tree");
  if (value::plies(*v) == 0) return error(ErrorKind::InvalidArgument, "the side to move is mated already");
  SolutionNode root;
  root.attacker = value::is_loss(*v);  // the side that made the move before the position
  Limits limits{width, max_nodes};
  if (Status s = grow(tb, pos, value::is_win(*v), limits, root.children, root.omitted, true); !s) return s.error();
  if (value::is_win(*v))
    if (Status s = add_tries(tb, pos, *v, root.tries); !s) return s.error();
  return root;
}

std::string solution_text(const Position& pos, const SolutionNode& root) {
  std::string out;
  if (!root.attacker) {
    write_attacks(root.children, "", 0, pos.side_to_move(), 0, true, out);
    for (const SolutionNode& t : root.tries)
      out += numbered(t, 0, pos.side_to_move(), true) + "? " +
             numbered(t.children.front(), 1, ~pos.side_to_move(), true) + "!\n";
  } else
    write_defences(root.children, root.omitted, 0, pos.side_to_move(), 0, out);
  return out;
}

}  // namespace feerie

#include "study/threat_sound.h"

#include <algorithm>
#include <string>
#include <unordered_set>

#include "rules/fen.h"
#include "rules/movegen.h"
#include "study/mine.h"

namespace feerie {

namespace {

struct NodeThreats {
  KeyKind kind = KeyKind::Zugzwang;
  Position pass;
  std::vector<Move> moves;
  int mate_moves = 0;  // t: the threats mate in t moves after the pass
};

// The threats of White node `node` (the defender to move) with `moves_left` moves of the
// stipulation left to the attacker.
Expected<NodeThreats> threats_of(const Tablebase& tb, const Position& node, int moves_left) {
  NodeThreats out;
  Position& pass = out.pass;
  pass = node;
  pass.set_side_to_move(~node.side_to_move());
  pass.set_ep_square(SQ_NONE);
  // The pass is a position unless the defender is in check: the move that made the node
  // gave check.
  if (!is_legal_position(pass, tb.rules())) {
    out.kind = KeyKind::Check;
    return out;
  }
  Expected<ValueCode> v = tb.value_code(pass);
  if (!v) return v.error();
  if (!value::is_win(*v) || value::moves(*v) > moves_left) return out;  // zugzwang
  Expected<std::vector<MoveResult>> threats = keeping_moves(tb, pass, *v);
  if (!threats) return threats.error();
  out.kind = KeyKind::Threat;
  for (const MoveResult& t : *threats) out.moves.push_back(t.move);
  out.mate_moves = value::moves(*v);
  return out;
}

// Whether a threat move of `threats` still mates within its t moves from `after_reply`
// (the attacker to move).
Expected<bool> a_threat_still_works(const Tablebase& tb, const Position& after_reply, const NodeThreats& threats) {
  for (const MoveResult& m : legal_moves_with_results(after_reply, tb.rules())) {
    if (std::find(threats.moves.begin(), threats.moves.end(), m.move) == threats.moves.end()) continue;
    Expected<ValueCode> below = tb.value_code(m.after);
    if (!below) return below.error();
    const ValueCode through = value_through_move(*below);
    if (value::is_win(through) && value::moves(through) <= threats.mate_moves) return true;
  }
  return false;
}

class Reader {
 public:
  Reader(const Tablebase& tb, int stipulation, bool stop_at_first_dual, ThreatReading& out)
      : tb_(tb), stipulation_(stipulation), stop_(stop_at_first_dual), out_(out) {}

  // Reads White node `node` reached by the attacker's `played`-th move.
  Status read(const Position& node, int played) {
    if (stop_ && out_.duals > 0) return Ok{};
    std::string key;
    if (stop_) {
      // Transpositions are read once (a node read without a dual has none the second time).
      key = to_fen(node) + " " + std::to_string(played);
      if (clean_.count(key)) return Ok{};
    }
    const int moves_left = stipulation_ - played;
    Expected<NodeThreats> threats = threats_of(tb_, node, moves_left);
    if (!threats) return threats.error();
    if (played == 1) {
      out_.key_kind = threats->kind;
      out_.threats = threats->moves;
      out_.threat_position = threats->pass;
      out_.threat_moves = threats->mate_moves;
    }
    for (const MoveResult& reply : legal_moves_with_results(node, tb_.rules())) {
      // A win within the stipulation's moves left (2 x moves_left - 1 plies at most).
      Expected<ValueCode> w = won_after_defence(tb_, node, reply.after, 2 * moves_left - 1);
      if (!w) return w.error();
      if (!threats->moves.empty()) {
        Expected<bool> works = a_threat_still_works(tb_, reply.after, *threats);
        if (!works) return works.error();
        if (*works) continue;  // not a defence: its continuations are no duals
      }
      Expected<std::vector<MoveResult>> continuations = keeping_moves(tb_, reply.after, *w);
      if (!continuations) return continuations.error();
      if (continuations->size() > 1) {
        out_.duals += int(continuations->size()) - 1;
        if (stop_) return Ok{};
      }
      if (value::plies(*w) == 1) continue;  // the continuations mate
      for (const MoveResult& c : *continuations) {
        Status below = read(c.after, played + 1);
        if (!below.ok()) return below;
        if (stop_ && out_.duals > 0) return Ok{};
      }
    }
    if (stop_) clean_.insert(std::move(key));
    return Ok{};
  }

 private:
  const Tablebase& tb_;
  const int stipulation_;
  const bool stop_;
  ThreatReading& out_;
  std::unordered_set<std::string> clean_;
};

}  // namespace

Expected<ThreatReading> read_threats(const Tablebase& tb, const Position& pos, bool stop_at_first_dual) {
  ThreatReading out;
  Expected<ValueCode> v = tb.value_code(pos);
  if (!v) return v.error();
  if (!value::is_win(*v)) return out;
  Expected<std::vector<MoveResult>> keys = keeping_moves(tb, pos, *v, 2);
  if (!keys) return keys.error();
  out.keys = int(keys->size());
  if (out.keys != 1) return out;
  out.key = keys->front().move;
  if (value::plies(*v) == 1) {
    out.key_kind = KeyKind::Check;  // the key mates
  } else {
    Reader reader(tb, value::moves(*v), stop_at_first_dual, out);
    Status read = reader.read(keys->front().after, 1);
    if (!read.ok()) return read.error();
  }
  out.sound = out.duals == 0;
  return out;
}

}  // namespace feerie

// A problemist's soundness of a direct mate (issue 24, `feerie mine --sound=threat`):
// threats, defences and duals read as in a problem's solution, checked against Popeye.
//
// For a position `pos` won by the side to move (the attacker) in N moves:
//
// - key: a legal move of the attacker that keeps the shortest mate.
// - White node: a position reached by a move of the attacker (the key, or a
//   continuation), the defender to move, with k moves of the attacker played and N - k
//   left by the stipulation.
// - threat of a White node: the defender passes (the same position with the attacker to
//   move, no en-passant right); the threats are the attacker's moves that keep the
//   shortest mate from there, when that mate takes at most N - k moves (t moves). A node
//   whose defender is in check has no threat (no pass: the move gave check); a node
//   whose pass leaves no mate within N - k moves has none either (a zugzwang).
// - a reply of the defender stops a threat move when, after the reply, that move is not
//   legal or no longer mates within t moves (a threat that still mates, only later than
//   t, is stopped). A **defence** stops every threat; without threats every reply is a
//   defence.
// - after a defence, the continuations are the attacker's moves that keep the shortest
//   mate from there; more than one is a **dual**. The reading goes on below each
//   continuation that does not mate (a new White node), and only through defences: the
//   continuations after a reply that does not stop every threat (the threats still
//   working, or others) are not duals.
// - sound: exactly one key and no dual anywhere in the reading.
// - double threat: more than one threat move at the key's node (reported, not a flaw).
//
// Popeye (4.104, `Option Variation`) computes threats the same way; it does not print a
// reply after which the attacker mates sooner than the threat, even when that reply
// stops every threat. This reading counts such a reply as a defence (its duals count):
// one problem of the 278 recorded in the tests (an Annan #3) is sound in Popeye's
// printed solution and not in this reading (docs/study.md).
//
// Thread-safety: the functions only read through `tb` (whose probes are thread-safe).
#pragma once

#include <vector>

#include "probe/tablebase.h"
#include "rules/expected.h"
#include "rules/move.h"
#include "rules/position.h"

namespace feerie {

// What follows the key.
enum class KeyKind {
  Threat,    // the key threatens a mate within the stipulation
  Zugzwang,  // after a pass the attacker has no mate within the stipulation
  Check,     // the key checks: there is no pass, hence no threat
};

struct ThreatReading {
  int keys = 0;                          // moves keeping the shortest mate, counted up to 2 (0 when `pos` is not won)
  KeyKind key_kind = KeyKind::Zugzwang;  // with a unique key (a mating key: Check)
  Move key{};                            // with a unique key
  Position threat_position;              // with a threat: the pass after the key, where the threats are played
  std::vector<Move> threats;             // the key's threat moves (played in threat_position)
  int threat_moves = 0;                  // the threats' mate in t moves after the pass (0: none)
  int duals = 0;                         // continuations beyond the first after defences, every level
  bool sound = false;                    // one key and no dual
  bool double_threat() const { return threats.size() > 1; }
};

// The reading of `pos` (any position; `keys` is 0 when it is not won for the side to
// move). With `stop_at_first_dual` the reading stops at the first dual (`duals` is then 0
// or 1), which is all a filter needs.
Expected<ThreatReading> read_threats(const Tablebase& tb, const Position& pos, bool stop_at_first_dual = true);

}  // namespace feerie

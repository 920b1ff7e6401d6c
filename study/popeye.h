// Problems in the input language of Popeye, the solver problemists use to check a
// problem (`feerie probe --popeye`, `feerie mine --popeye`; docs/study.md).
//
// A problem states the position (Pieces, English letters: the knight is S, the
// grasshopper G, the locust L), the condition (Popeye's keywords), Stipulation #N and the
// options that make Popeye read the position as Feerie does: NoCastling on every castling
// square, EnPassant for an en-passant square, HalfDuplex when Black is the side that
// mates, PostKeyPlay when the side to move is the one mated (the position is then the
// one after the key); helpmates and selfmates state h#N, h#N.5 or s#N. Where Popeye's meaning of a keyword differs from
// Feerie's, or Popeye has none, a Remark line says so. Keywords and their sources: docs/study.md.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "probe/help_tablebase.h"
#include "probe/stipulation.h"
#include "probe/value.h"
#include "rules/expected.h"
#include "rules/position.h"
#include "rules/ruleset.h"

namespace feerie {

// Popeye's Condition keywords for a rule set ("" for orthodox chess), and remarks for
// what they do not say.
struct PopeyeCondition {
  std::string keywords;              // e.g. "Madrasi RexInclusive AnnanChess TypeB"
  std::vector<std::string> remarks;  // one line each, without the Remark keyword
};
PopeyeCondition popeye_condition(const RuleSet& rules);

// The lines of one problem (without BeginProblem, NextProblem or EndProblem): `value` is
// the position's value for the side to move. `remarks` come first, one Remark line each.
// Error (NotSupported): a draw or a position already mated, which no stipulation #N
// states.
Expected<std::string> popeye_problem(const Position& pos, const RuleSet& rules, ValueCode value,
                                     const std::vector<std::string>& remarks = {});

// The lines of one helpmate or selfmate problem (issue 25): `entry` is the position's
// entry with `mated` mated. Popeye's h#N mates Black (Black moves first; h#N.5: White
// first) and its s#N mates White (White moves first), so a position with the other colour
// mated is stated with colours exchanged, and a Remark says so. Error (NotSupported): no
// mate, mated already, or a selfmate with the other colour to move, which no s#N states.
Expected<std::string> popeye_help_problem(const Position& pos, const RuleSet& rules, StipulationKind kind, Color mated,
                                          const HelpEntry& entry, const std::vector<std::string>& remarks = {});

// Writes problems as Popeye reads several: BeginProblem before the first, NextProblem
// between two, EndProblem after the last (by finish(); nothing when none was written).
class PopeyeWriter {
 public:
  explicit PopeyeWriter(std::ostream& out) : out_(out) {}
  void write(const std::string& problem);
  // Ends the input (EndProblem after the last problem); once, however often it is called.
  void finish();

 private:
  std::ostream& out_;
  int written_ = 0;
  bool finished_ = false;
};

}  // namespace feerie

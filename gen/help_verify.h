// The helpmate and selfmate verifier (issue 25): every stored value of a material's two
// files recomputed from its moves with the forward move generator and the stored values of
// its successors (gen/verify.h does the same for direct mates).
#pragma once

#include "gen/verify.h"
#include "probe/stipulation.h"

namespace feerie {

// Reads <tables_dir>/<rules>/<material>.help-{white,black}.ftb and the helpmate tables of
// its successors. Each legal entry must be: 0 plies when the colour mated is to move and
// checkmated; no helpmate for any other position without a move; else 1 + the shortest of
// its successors', with the sum of the solutions of the moves that reach it (capped), or
// no helpmate when none has one. Selfmates (gen/self_solver.h): the same terminal
// positions; the colour mated to move takes the shortest of its moves', the other the
// longest, none if one of its moves has none; no solutions. `checked` counts the entries
// of both files, both sides.
Expected<VerifyReport> verify_help_table(const Material& material, const RuleSet& rules, const std::string& tables_dir,
                                         int threads, StipulationKind kind = StipulationKind::Helpmate);

}  // namespace feerie

// The helpmate verifier (issue 25): every stored helpmate of a material's two files
// recomputed from its moves with the forward move generator and the stored values of its
// successors (gen/verify.h does the same for direct mates).
#pragma once

#include "gen/verify.h"

namespace feerie {

// Reads <tables_dir>/<rules>/<material>.help-{white,black}.ftb and the helpmate tables of
// its successors. Each legal entry must be: 0 plies when the colour mated is to move and
// checkmated; no helpmate for any other position without a move; else 1 + the shortest of
// its successors', with the sum of the solutions of the moves that reach it (capped), or
// no helpmate when none has one. `checked` counts the entries of both files, both sides.
Expected<VerifyReport> verify_help_table(const Material& material, const RuleSet& rules, const std::string& tables_dir,
                                         int threads);

}  // namespace feerie

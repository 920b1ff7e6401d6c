// The fixed squares of an indexer's board symmetries, for the solver's test of whether two
// moves (or un-moves) of one position may reach one entry (gen/solver.cpp,
// moves_may_share_entries).
#pragma once

#include <vector>

#include "probe/indexer.h"

namespace feerie {

// The squares each board symmetry other than the identity leaves in place, for those that
// leave any (the two long diagonals with the full group, none with the mirror only), and
// whether the material has identical units.
struct SymmetryLines {
  std::vector<Bitboard> lines;
  bool identical_units = false;
};
inline SymmetryLines symmetry_lines(const Indexer& indexer) {
  SymmetryLines out;
  for (int t = 1; t < indexer.symmetry_count(); ++t) {
    Bitboard fixed = 0;
    for (int s = 0; s < SQUARE_NB; ++s)
      if (Indexer::transform(t, Square(s)) == Square(s)) fixed |= square_bb(Square(s));
    if (fixed) out.lines.push_back(fixed);
  }
  const Material& m = indexer.material();
  for (Color c : {WHITE, BLACK})
    for (int magic = 0; magic < 2; ++magic)
      for (int pt = PAWN; pt < PIECE_TYPE_NB; ++pt)
        if (pt != KING && m.count(c, PieceType(pt), magic) > 1) out.identical_units = true;
  return out;
}

}  // namespace feerie

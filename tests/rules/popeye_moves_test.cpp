// The legal moves of 1,119 random positions under the paralysis family (Madrasi, Madrasi
// RI, Isardam A and B, Eiffel, Leffie) and Annan and Nanna of every type, with
// grasshoppers, locusts, pawns, en passant and promotions, equal to the outside referee's
// (Popeye 4.104: tests/data/popeye_moves/moves.txt, recorded outside the suite by its
// make_corpus.py; FINDINGS.md there lists the keywords and Popeye's Nanna defect, whose
// positions are left out).
#include "tests/test_util.h"

namespace feerie {
namespace {

TEST(PopeyeMoves, RecordedPopeyeMovesOfRandomPositions) {
  EXPECT_EQ(test::expect_recorded_moves(FEERIE_SOURCE_DIR "/tests/data/popeye_moves/moves.txt"), 1119);
}

}  // namespace
}  // namespace feerie

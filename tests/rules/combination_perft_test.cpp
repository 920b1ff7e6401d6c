// Perft under combined conditions (SPEC 3.6), every family: each count is computed twice,
// by the engine and by an independent slow reference written from the SPEC alone
// (combination_reference.{h,cpp}: its own walks, observation, paralysis, pairs, check and
// en passant, sharing only board geometry with the engine), and pinned by a recorded
// count. The positions are chosen so that the counts depend on the borrowed walks (each
// differs from the count with every unit on its own walk), except where noted.
#include "tests/rules/combination_reference.h"
#include "tests/test_util.h"

namespace feerie {
namespace {

using Case = test::PerftCase;

class CombinationPerft : public ::testing::TestWithParam<Case> {};

TEST_P(CombinationPerft, EngineEqualsReferenceAndRecordedCount) {
  test::expect_perft(GetParam(), [](const RuleSet& rules, const Position& pos, int depth) {
    return test::combination_reference::perft(pos, test::combination_reference::params_of(rules), depth);
  });
}

// The SPEC 3.6 example (the rook d4 moving as a bishop), kings that borrow and observe by
// a borrowed walk, a knight moving as a pawn that takes and observes en passant.
INSTANTIATE_TEST_SUITE_P(Madrasi, CombinationPerft,
                         ::testing::Values(Case{"madrasi+annan", "3r2k1/6b1/8/8/3R4/3B4/8/K7 w - - 0 1", 3, 1755},
                                           Case{"madrasi+annan", "3r3k/6b1/8/8/3R4/3B4/8/K7 b - - 0 1", 3, 2442},
                                           Case{"madrasi+annan", "4k3/3p4/8/2P1N3/2R1P3/8/8/4K3 b - - 0 1", 4, 14650},
                                           Case{"madrasi-ri+annan", "8/8/4k3/4p3/4P3/4K3/8/8 w - - 0 1", 4, 6540},
                                           Case{"madrasi-ri+annan", "8/8/8/4k3/4P3/4K3/8/8 w - - 0 1", 3, 461},
                                           // Black is mated at once: the pawn e4, moving as its king, checks
                                           // and paralyses the king e5.
                                           Case{"madrasi-ri+annan", "8/8/8/4k3/4P3/4K3/8/8 b - - 0 1", 3, 0},
                                           Case{"madrasi-ri+annan-b", "8/8/3qk3/3r4/3QK3/3R4/8/8 w - - 0 1", 3, 647},
                                           // Type D: nothing lends, so this is Madrasi's own count (2694).
                                           Case{"madrasi+nanna-d", "4k3/3p4/8/4P3/2K5/8/8/8 b - - 0 1", 4, 2694}));

INSTANTIATE_TEST_SUITE_P(IsardamEiffelLeffie, CombinationPerft,
                         ::testing::Values(Case{"isardam+annan", "4k3/3p4/8/2P1N3/2R1P3/8/8/4K3 b - - 0 1", 4, 8590},
                                           // A pawn moving as a locust takes the king and
                                           // promotes beyond it (the review's P42).
                                           Case{"isardam+annan", "2l4r/4k3/2bnP3/4L2q/8/K7/8/8 b - - 0 1", 2, 80},
                                           Case{"leffie+annan", "2l4r/4k3/2bnP3/4L2q/8/K7/8/8 b - - 0 1", 2, 34},
                                           Case{"eiffel+annan-c", "8/6k1/p7/3p4/1K2N3/2B5/Q7/8 w - - 0 1", 3, 5205},
                                           Case{"leffie+nanna", "7k/6P1/8/8/8/K7/8/7q b - - 0 1", 3, 371},
                                           Case{"isardam-b-ri+nanna-b", "8/8/3qk3/3r4/3QK3/3R4/8/8 w - - 0 1", 3,
                                                2937}));

}  // namespace
}  // namespace feerie

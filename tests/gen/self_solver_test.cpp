// Selfmate tables against the forward search of tests/gen/self_reference.h: Madrasi RI
// KQvKR here, Annan KRvKR in the slow suite (help_popeye_slow_test.cpp).
#include "tests/gen/self_reference.h"

namespace feerie {
namespace {

using test::expect_reference_values;
using test::selfmates;

// Madrasi RI: the kings paralyse each other when they touch, which makes forced selfmates
// common with little material (tests/data/popeye_help/FINDINGS.md).
TEST(SelfSolver, MadrasiRiKQvKREqualsAForwardSearch) {
  Expected<HelpTablebase> tb = selfmates("madrasi-ri", "KQvKR");
  ASSERT_TRUE(tb.ok()) << tb.error_message();
  expect_reference_values(*tb, "KQvKR", 4, 6, 4);  // 0, 2, 4 plies and none for White mated
  // The seed of every selfmate: Qg7+, the kings on g8 and h7 paralyse each other, so Rxg7 is
  // Black's only move, and mate.
  Expected<HelpEntry> e = tb->entry(test::position("6k1/1r5K/5Q2/8/8/8/8/8 w - - 0 1"), WHITE);
  ASSERT_TRUE(e.ok()) << e.error_message();
  EXPECT_EQ(e->plies, value::mate_in_plies(2));
  EXPECT_EQ(e->problem_name(StipulationKind::Selfmate), "s#1");
}

}  // namespace
}  // namespace feerie

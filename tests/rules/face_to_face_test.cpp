// Face-to-face and Back-to-back (rules/conditions/face_to_face.h; Popeye's FaceToFace and
// BackToBack): the condition added through docs/architecture.md "Adding a condition".
// Worked positions with the reference solver's answers (Popeye 4.104), then random
// positions whose legal moves it recorded (tests/data/popeye_confrontation/moves.txt, and
// combined_moves.txt for combinations with paralysis conditions).
#include "rules/conditions/face_to_face.h"

#include "rules/conditions/combination.h"
#include "tests/test_util.h"

namespace feerie {
namespace {

using test::legal_moves;
using test::position;
using test::rules;

using Moves = std::vector<std::string>;

TEST(FaceToFace, NamesAndPolicies) {
  EXPECT_EQ(rules("face-to-face").name(), "face-to-face");
  EXPECT_EQ(rules("back-to-back").name(), "back-to-back");
  ASSERT_NE(rules("face-to-face").get_if<ConfrontationRules>(), nullptr);
  EXPECT_FALSE(rules("face-to-face").get_if<ConfrontationRules>()->behind);
  EXPECT_TRUE(rules("back-to-back").get_if<ConfrontationRules>()->behind);
  EXPECT_FALSE(rules("face-to-face").full_symmetry());
  EXPECT_TRUE(rules("back-to-back").kings_may_touch());
  // A walk condition: it combines with a paralysis condition, not with Annan.
  EXPECT_EQ(rules("face-to-face+madrasi").name(), "madrasi+face-to-face");
  EXPECT_NE((rules("isardam-b+back-to-back").get_if<ComposedRules<ConfrontationWalk, Isardam<IsardamCheck::TypeB>>>()),
            nullptr);
  Expected<RuleSet> two_walks = RuleSet::parse("annan+face-to-face");
  ASSERT_FALSE(two_walks);
  EXPECT_NE(two_walks.error().message.find("two walk conditions ('annan' and 'face-to-face')"), std::string::npos);
}

// The pawn e4 faces the rook e5, which faces it: the pawn moves as a rook (not sideways:
// the rook, no longer faced, would check along the file), the rook as a black pawn.
TEST(FaceToFace, ConfrontedUnitsExchangeWalks) {
  EXPECT_EQ(legal_moves("4k3/8/8/4r3/4P3/8/8/4K3 w - - 0 1", rules("face-to-face")),
            (Moves{"e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e4e2", "e4e3", "e4e5"}));
  EXPECT_EQ(legal_moves("7k/8/8/4r3/4N3/8/8/K7 w - - 0 1", rules("face-to-face")),
            (Moves{"a1a2", "a1b1", "a1b2", "e4a4", "e4b4", "e4c4", "e4d4", "e4e1", "e4e2", "e4e3", "e4e5", "e4f4",
                   "e4g4", "e4h4"}));
  // Back-to-back: the knight e5 has the rook e4 behind it.
  EXPECT_EQ(legal_moves("7k/8/8/4N3/4r3/8/8/K7 w - - 0 1", rules("back-to-back")),
            (Moves{"a1a2", "a1b1", "a1b2", "e5a5", "e5b5", "e5c5", "e5d5", "e5e4", "e5e6", "e5e7", "e5e8", "e5f5",
                   "e5g5", "e5h5"}));
}

// A king faced by a rook moves as a rook; kings facing each other attack each other.
TEST(FaceToFace, KingsBorrowToo) {
  EXPECT_EQ(legal_moves("7k/8/8/4r3/4K3/8/8/8 w - - 0 1", rules("face-to-face")),
            (Moves{"e4a4", "e4b4", "e4c4", "e4d4", "e4e5", "e4f4", "e4g4", "e4h4"}));
  EXPECT_FALSE(is_legal_position(position("8/8/8/4k3/4K3/8/8/8 w - - 0 1"), rules("face-to-face")));
  EXPECT_TRUE(is_legal_position(position("8/8/8/3kr3/4K3/8/8/8 w - - 0 1"), rules("face-to-face")));
}

// A pawn moving by a borrowed walk promotes when it lands on its last rank, and may move
// to its first rank.
TEST(FaceToFace, PawnsPromoteByBorrowedWalksAndReachTheirFirstRank) {
  const Moves e7 = legal_moves("4b2k/4P3/8/8/8/8/8/1K6 w - - 0 1", rules("face-to-face"));
  for (const char* m : {"e7d8q", "e7f8n", "e7a3", "e7f6"}) EXPECT_TRUE(test::contains(e7, m)) << m;
  EXPECT_FALSE(test::contains(e7, "e7d8"));
  EXPECT_TRUE(test::contains(legal_moves("7k/8/8/8/1r6/1P6/8/7K w - - 0 1", rules("face-to-face")), "b3b1"));
}

// 600 random positions under both conditions with the moves the reference solver gives.
TEST(FaceToFace, RecordedPopeyeMovesOfRandomPositions) {
  EXPECT_EQ(test::expect_recorded_moves(FEERIE_SOURCE_DIR "/tests/data/popeye_confrontation/moves.txt"), 600);
}

// 600 random positions under four combinations with paralysis conditions (Madrasi,
// Madrasi RI, Isardam, Eiffel) with the moves the reference solver gives: units observe
// with their own walks (108 of them differed while they observed with borrowed ones).
TEST(FaceToFace, RecordedPopeyeMovesOfCombinations) {
  EXPECT_EQ(test::expect_recorded_moves(FEERIE_SOURCE_DIR "/tests/data/popeye_confrontation/combined_moves.txt"), 600);
}

// Combined with Madrasi, paralysis is decided by the observer's own walk, as Popeye
// decides it under Face-to-face (docs/conditions/face-to-face.md; SPEC 3.6, which would
// use the walk the observer borrows, names Annan and Nanna only).
TEST(FaceToFace, CombinedWithMadrasiTheObserverUsesItsOwnWalk) {
  // ...Kc7: the queen c6, faced by the king, checks it as a king; the king observes the
  // queen as a king and paralyses nothing.
  EXPECT_FALSE(test::contains(legal_moves("2k5/7K/2Q5/8/8/1Q6/8/8 b - - 0 1", rules("madrasi+face-to-face")), "c8c7"));
  // Kb2: the king, faced by the rook b3, observes it as a king; the rook checks it as a king.
  EXPECT_FALSE(
      test::contains(legal_moves("8/8/1k6/2N5/1N6/1r6/8/1K6 w - - 0 1", rules("madrasi+face-to-face")), "b1b2"));
  // A queen faced by an enemy queen is paralysed by it whatever walks they borrow: the
  // white queen d4, faced by the black queen d5, keeps no move.
  const Moves paralysed = legal_moves("k7/8/8/3q4/3Q4/8/8/K7 w - - 0 1", rules("madrasi+face-to-face"));
  for (const std::string& m : paralysed) EXPECT_NE(m.substr(0, 2), "d4") << m;
}

}  // namespace
}  // namespace feerie

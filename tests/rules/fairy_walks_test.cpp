// Grasshopper and locust walks (SPEC 2), under orthodox rules.
#include "tests/test_util.h"

namespace feerie {
namespace {

using test::contains;
using test::legal_moves;
using test::position;

std::vector<std::string> moves_from(const std::string& fen, const std::string& from) {
  std::vector<std::string> out;
  for (const std::string& m : legal_moves(fen))
    if (m.substr(0, 2) == from) out.push_back(m);
  return out;
}

TEST(Grasshopper, JumpsOverTheFirstUnitOfEitherColour) {
  // G a1; hurdles: own pawn a3 (lands a4), enemy pawn c3 (lands d4), own knight d1 (lands e1).
  auto moves = moves_from("7k/8/8/8/8/P1p5/8/G2N3K w - - 0 1", "a1");
  EXPECT_EQ(moves, (std::vector<std::string>{"a1a4", "a1d4", "a1e1"}));
}

TEST(Grasshopper, HurdleAtAnyDistanceAndCapturesOnTheLandingSquare) {
  // G a1, hurdle a6 (own), black rook a7: captures on a7.
  auto moves = moves_from("7k/r7/P7/8/8/8/8/G6K w - - 0 1", "a1");
  EXPECT_EQ(moves, (std::vector<std::string>{"a1a7"}));
}

TEST(Grasshopper, NoLandingOnFriendlyUnitOrOffTheBoard) {
  // Hurdle b2 with a white knight on c3 behind it; hurdle h1 (own king) at the edge.
  auto moves = moves_from("7k/8/8/8/8/2N5/1p6/G6K w - - 0 1", "a1");
  EXPECT_TRUE(moves.empty());
}

TEST(Grasshopper, GivesCheckOverAHurdle) {
  RuleSet rules = RuleSet::orthodox();
  // G e1, hurdle e7 (black pawn), king e8.
  EXPECT_TRUE(in_check(position("4k3/4p3/8/8/8/8/8/K3G3 b - - 0 1"), rules));
  // Same without the hurdle: no check.
  EXPECT_FALSE(in_check(position("4k3/8/8/8/8/8/8/K3G3 b - - 0 1"), rules));
  // Hurdle not adjacent to the king: the landing square is empty, no check.
  EXPECT_FALSE(in_check(position("4k3/8/8/4p3/8/8/8/K3G3 b - - 0 1"), rules));
  // The black king must not step onto a square just beyond a hurdle: Kd8 lands next to
  // the hurdle d7? No: G d1, hurdle d7 is black pawn, so d8 is attacked.
  auto black = legal_moves("4k3/3p4/8/8/8/8/8/K2G4 b - - 0 1");
  EXPECT_FALSE(contains(black, "e8d8"));
  EXPECT_TRUE(contains(black, "e8f8"));
}

TEST(Locust, CapturesByJumpingOverAnEnemyOntoAnEmptySquare) {
  // White locust c2; black locust h7 on the same diagonal; b1 empty.
  // The seed (Madrasi diagram D): the locust c2 does not observe h7 (edge square), the
  // black locust can take the white one, landing on b1.
  auto black = moves_from("k7/7l/8/8/8/8/2L5/4K3 b - - 0 1", "h7");
  EXPECT_TRUE(contains(black, "h7b1"));
  auto white = moves_from("k7/7l/8/8/8/8/2L5/4K3 w - - 0 1", "c2");
  EXPECT_TRUE(white.empty());
}

TEST(Locust, MovesOnlyByCapturing) {
  // Nothing to take: no move at all, even with open lines.
  EXPECT_TRUE(moves_from("k7/8/8/8/8/8/2L5/4K3 w - - 0 1", "c2").empty());
  // Own unit first on the line: no jump over it.
  EXPECT_TRUE(moves_from("k7/8/8/8/4r3/3P4/2L5/4K3 w - - 0 1", "c2").empty());
  // Enemy unit with an occupied square beyond it: no capture.
  EXPECT_TRUE(moves_from("k7/8/8/4P3/3r4/8/2L5/4K3 w - - 0 1", "c2").empty());
}

TEST(Locust, CaptureRemovesTheJumpedUnit) {
  Position pos = position("k7/8/8/8/3r4/8/8/L3K3 w - - 0 1");
  MoveList moves;
  generate_legal(pos, RuleSet::orthodox(), moves);
  bool found = false;
  for (Move m : moves)
    if (to_uci(m) == "a1e5") {
      found = true;
      EXPECT_EQ(m.kind(), MoveKind::LOCUST_CAPTURE);
      UndoRecord undo;
      pos.do_move(m, undo);
      EXPECT_TRUE(pos.empty(SQ_D4));
      EXPECT_EQ(pos.piece_on(SQ_E5), Piece(WHITE, LOCUST));
      EXPECT_EQ(undo.captured, Piece(BLACK, ROOK));
    }
  EXPECT_TRUE(found);
}

TEST(Locust, GivesCheckOnlyWhenTheSquareBeyondTheKingIsEmpty) {
  RuleSet rules = RuleSet::orthodox();
  EXPECT_TRUE(in_check(position("8/4k3/8/8/8/8/4L3/K7 b - - 0 1"), rules));
  // King on the edge: nothing beyond, no check.
  EXPECT_FALSE(in_check(position("4k3/8/8/8/8/8/4L3/K7 b - - 0 1"), rules));
  // Square beyond occupied.
  EXPECT_FALSE(in_check(position("4n3/4k3/8/8/8/8/4L3/K7 b - - 0 1"), rules));
}

TEST(Locust, BlackKingMayNotStepIntoALocustCapture) {
  // Locust a1 on the long diagonal; Kc3->b2 would be jumpable (c3 then empty... no: a1-b2-c3:
  // after Kb2 the square beyond is c3, empty after the king left): illegal.
  auto moves = legal_moves("7K/8/8/8/8/2k5/8/L7 b - - 0 1");
  EXPECT_FALSE(contains(moves, "c3b2"));
  EXPECT_TRUE(contains(moves, "c3c2"));
}

}  // namespace
}  // namespace feerie

// Magic units (SPEC 3.5) on positions built from the seed text (shared/seeds/004: diagrams
// A and B, the sentence on contacts of both colours, the value scale) and on each rule
// decision of SPEC 3.5: promotion then mutation, mutation-caused checks and illegal moves,
// magic pawns, en passant. Each test names the position and the move, and states the
// position after it.
#include "tests/test_util.h"

namespace feerie {
namespace {

// The position after `move` in `fen` under `condition`, as a FEN; "illegal" when the move
// is not a legal move there.
std::string after(const std::string& fen, const std::string& move, const std::string& condition = "orthodox") {
  for (const MoveResult& r : legal_moves_with_results(test::position(fen), test::rules(condition)))
    if (to_uci(r.move) == move) return to_fen(r.after);
  return "illegal";
}

TEST(Magic, SeedDiagramsAandB) {
  // The white magic rook b3 goes to b6, next to a white and a black knight: the white one
  // goes up to a bishop, the black one down to a pawn.
  EXPECT_EQ(after("8/8/8/n1N5/8/1R*6/8/K6k w - - 0 1", "b3b6"), "8/8/1R*6/p1B5/8/8/8/K6k b - - 0 1");
}

TEST(Magic, ContactsOfBothColoursChangeNothing) {
  // The knight arrives next to a white and a black magic rook at once.
  EXPECT_EQ(after("K7/8/8/8/2R*1r*3/8/8/4N2k w - - 0 1", "e1d3"), "K7/8/8/8/2R*1r*3/3N4/8/7k b - - 0 1");
  // Next to the black one only: down to a pawn.
  EXPECT_EQ(after("K7/8/8/8/2R*1r*3/8/8/4N2k w - - 0 1", "e1f3"), "K7/8/8/8/2R*1r*3/5P2/8/7k b - - 0 1");
}

TEST(Magic, QueenIsNotUpgraded) {
  EXPECT_EQ(after("K6k/8/8/3Q4/8/8/1B*6/8 w - - 0 1", "b2e5"), "K6k/8/8/3QB*3/8/8/8/8 b - - 0 1");
}

TEST(Magic, EnemyMagicUnitDemotesQueenToRook) {
  EXPECT_EQ(after("7k/8/8/3Q4/8/8/8/2r*4K b - - 0 1", "c1c4"), "7k/8/8/3R4/2r*5/8/8/7K w - - 0 1");
}

TEST(Magic, ExistingContactsDoNotCount) {
  // The white knight c5 already touches the magic rook on b4; the rook moves to b5, still
  // next to it: no new contact, no change (the black knight a6 is new: down to a pawn).
  EXPECT_EQ(after("8/8/n7/2N5/1R*6/8/8/K6k w - - 0 1", "b4b5"), "8/8/p7/1R*N5/8/8/8/K6k b - - 0 1");
}

TEST(Magic, PromotionThenMutation) {
  // e7d8: the promoted unit meets the black magic bishop c8 for the first time.
  const std::string fen = "2b*r4/4P3/8/8/8/8/8/K6k w - - 0 1";
  EXPECT_EQ(after(fen, "e7d8q"), "2b*R4/8/8/8/8/8/8/K6k b - - 0 1");
  EXPECT_EQ(after(fen, "e7d8r"), "2b*B4/8/8/8/8/8/8/K6k b - - 0 1");
  EXPECT_EQ(after(fen, "e7d8n"), "2b*P4/8/8/8/8/8/8/K6k b - - 0 1");  // a pawn on its last rank
  // e7e8 captures nothing and touches nothing new: an ordinary promotion.
  EXPECT_EQ(after("2b*5/4P3/8/8/8/8/8/K6k w - - 0 1", "e7e8q"), "2b*1Q3/8/8/8/8/8/8/K6k b - - 0 1");
  // A pawn on its last rank has no move.
  EXPECT_TRUE(test::legal_moves("2b*P4/8/8/8/8/8/8/K6k w - - 0 1") ==
              (std::vector<std::string>{"a1a2", "a1b1", "a1b2"}));
}

TEST(Magic, MoveIllegalOnlyBecauseOfItsMutation) {
  // The magic rook next to the black knight d2 would demote it to a pawn that attacks e1.
  std::vector<std::string> moves = test::legal_moves("7k/8/8/8/8/7R*/3n4/4K3 w - - 0 1");
  EXPECT_FALSE(test::contains(moves, "h3c3"));
  EXPECT_FALSE(test::contains(moves, "h3d3"));
  EXPECT_FALSE(test::contains(moves, "h3e3"));
  EXPECT_TRUE(test::contains(moves, "h3f3"));
  EXPECT_TRUE(test::contains(moves, "h3h4"));
}

TEST(Magic, MutationGivesCheck) {
  // The knight e5 becomes a bishop on the long diagonal of the black king.
  std::string fen = after("7k/8/8/4N3/8/8/8/K1B*5 w - - 0 1", "c1f4");
  EXPECT_EQ(fen, "7k/8/8/4B3/5B*2/8/8/K7 b - - 0 1");
  EXPECT_TRUE(in_check(test::position(fen), RuleSet::orthodox()));
}

TEST(Magic, MagicUnitsNeitherCaptureNorAreCapturedNorCheck) {
  // The magic queen d4 does not check the king d8, nor capture the rook d6; the black rook
  // cannot take it.
  std::vector<std::string> white = test::legal_moves("3k4/8/3r4/8/3Q*4/8/8/K7 w - - 0 1");
  EXPECT_TRUE(test::contains(white, "d4d5"));
  EXPECT_FALSE(test::contains(white, "d4d6"));
  EXPECT_FALSE(in_check(test::position("3k4/8/3r4/8/3Q*4/8/8/K7 b - - 0 1"), RuleSet::orthodox()));
  EXPECT_FALSE(test::contains(test::legal_moves("3k4/8/3r4/8/3Q*4/8/8/K7 b - - 0 1"), "d6d4"));
  // A king may take a unit guarded only by a magic unit.
  EXPECT_TRUE(test::contains(test::legal_moves("8/8/8/8/8/2q*5/1r6/K6k w - - 0 1"), "a1b2"));
  // Magic units block lines and are hurdles.
  EXPECT_FALSE(in_check(test::position("k2r4/8/8/8/3R*4/8/8/3K4 w - - 0 1"), RuleSet::orthodox()));
  EXPECT_TRUE(test::contains(test::legal_moves("k7/8/8/8/8/8/2P*5/1G2K3 w - - 0 1"), "b1d3"));
  // A magic locust has no move at all.
  EXPECT_FALSE(test::contains(test::legal_moves("k7/8/8/8/3p4/8/1L*6/4K3 w - - 0 1"), "b2e5"));
}

TEST(Magic, MagicPawnPromotesToMagicUnitWithoutCapturing) {
  std::vector<std::string> moves = test::legal_moves("2r1r2k/3P*4/8/8/8/8/8/K7 w - - 0 1");
  EXPECT_TRUE(test::contains(moves, "d7d8q"));
  EXPECT_FALSE(test::contains(moves, "d7c8q"));
  EXPECT_FALSE(test::contains(moves, "d7e8q"));
  EXPECT_EQ(after("2r1r2k/3P*4/8/8/8/8/8/K7 w - - 0 1", "d7d8n"), "2rN*r2k/8/8/8/8/8/8/K7 b - - 0 1");
}

TEST(Magic, NoEnPassantAgainstMagicOrMutatedPawns) {
  // A magic pawn's double step gives no en-passant square.
  EXPECT_EQ(after("7k/8/8/8/4p3/8/3P*4/K7 w - - 0 1", "d2d4"), "7k/8/8/8/3P*p3/8/8/K7 b - - 0 1");
  // An ordinary one does.
  EXPECT_EQ(after("7k/8/8/8/4p3/8/3P4/K7 w - - 0 1", "d2d4"), "7k/8/8/8/3Pp3/8/8/K7 b - d3 0 1");
  // A pawn that meets a white magic bishop on arrival becomes a knight: no square.
  EXPECT_EQ(after("7k/8/8/2B*5/4p3/8/3P4/K7 w - - 0 1", "d2d4"), "7k/8/8/2B*5/3Np3/8/8/K7 b - - 0 1");
  // A magic pawn cannot take en passant.
  EXPECT_FALSE(test::contains(test::legal_moves("7k/8/8/8/3Pp*3/8/8/K7 b - d3 0 1"), "e4d3"));
  // An en-passant square in a FEN needs an ordinary pawn in front of it.
  EXPECT_FALSE(parse_fen("7k/8/8/8/3P*p3/8/8/K7 b - d3 0 1").ok());
  // ... that arrived unmutated: here the pawn d4 would have met the magic bishop c5.
  EXPECT_FALSE(parse_legal_position("7k/8/8/2B*5/3Pp3/8/8/K7 b - d3 0 1", RuleSet::orthodox()).ok());
}

TEST(Magic, PawnCreatedByMutation) {
  // No new contact: the knight b1 already touched c2.
  EXPECT_EQ(after("7k/8/8/8/8/8/2R*5/1n5K w - - 0 1", "c2c3"), "7k/8/8/8/8/2R*5/8/1n5K b - - 0 1");
  // A new contact: the knight becomes a pawn on its last rank, where it has no move.
  EXPECT_EQ(after("7k/8/8/8/8/3B*4/8/1n5K w - - 0 1", "d3c2"), "7k/8/8/8/8/8/2B*5/1p5K b - - 0 1");
  EXPECT_TRUE(test::legal_moves("7k/8/8/8/8/8/2B*5/1p5K b - - 0 1") ==
              (std::vector<std::string>{"h8g7", "h8g8", "h8h7"}));
}

TEST(Magic, FairyWalkJoinsTheChainAtBothEnds) {
  // With a magic grasshopper on the board, a queen going up becomes a grasshopper ...
  EXPECT_EQ(after("K6k/8/8/3Q4/8/8/1B*6/g*7 w - - 0 1", "b2d4"), "K6k/8/8/3G4/3B*4/8/8/g*7 b - - 0 1");
  // ... and a pawn going down too; the grasshopper changes no further.
  EXPECT_EQ(after("K6k/8/8/8/3P4/8/8/1n*4g*1 b - - 0 1", "b1c3"), "K6k/8/8/8/3G4/2n*5/8/6g*1 w - - 0 1");
  // Magic units of both fairy walks: the ends are ambiguous and stay put.
  EXPECT_EQ(after("K6k/8/8/3Q4/8/8/1B*6/g*l*6 w - - 0 1", "b2d4"), "K6k/8/8/3Q4/3B*4/8/8/g*l*6 b - - 0 1");
  // The board after the move decides the end: a magic pawn promoting to a magic grasshopper
  // (under Annan it moves as the rook behind it) makes the queen it touches a grasshopper
  // (docs/conditions/magic.md, rule 8).
  EXPECT_EQ(after("7k/1Q6/8/8/8/8/P*7/R4g1K w - - 0 1", "a2a8g", "annan"), "G*6k/1G6/8/8/8/8/8/R4g1K b - - 0 1");
}

TEST(Magic, MagicUnitsUnderOtherConditions) {
  // Madrasi: a magic rook neither paralyses nor is paralysed by the black rook.
  std::vector<std::string> moves = test::legal_moves("k7/8/8/8/3r4/8/8/3R*3K w - - 0 1", test::rules("madrasi"));
  EXPECT_TRUE(test::contains(moves, "d1d2"));
  EXPECT_TRUE(test::contains(test::legal_moves("k7/8/8/8/3r4/8/8/3R*3K b - - 0 1", test::rules("madrasi")), "d4h4"));
  // Annan: a rook with a magic knight behind it moves as a knight and captures normally.
  EXPECT_EQ(after("k7/8/4p3/8/3R4/3N*4/8/7K w - - 0 1", "d4e6", "annan"), "k7/8/4R3/8/8/3N*4/8/7K b - - 0 1");
  // Isardam's check is the capture of the king judged after its mutation: Rxg2 would make
  // the rook a queen (the white magic knight f2), which would pair with the queen g3, so the
  // rook does not guard g2 (with an ordinary knight it does).
  EXPECT_EQ(test::legal_moves("8/8/8/8/8/3K1Pqk/5N*1R/8 b - - 0 1", test::rules("isardam")),
            (std::vector<std::string>{"g3h2", "h3g2", "h3h2"}));
  EXPECT_EQ(test::legal_moves("8/8/8/8/8/3K1Pqk/5N1R/8 b - - 0 1", test::rules("isardam")),
            (std::vector<std::string>{"h3h2"}));
}

}  // namespace
}  // namespace feerie

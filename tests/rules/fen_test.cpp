#include "tests/test_util.h"

namespace feerie {
namespace {

TEST(Fen, RoundTrip) {
  for (const char* fen : {
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
           "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
           "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
           "4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1",
           "g3k3/7l/8/8/8/8/2L5/G3K3 w - - 0 1",
           "P3k3/8/8/8/8/8/8/p3K3 w - - 0 1",     // pawns on first and last ranks are valid
           "4k3/8/1n6/N7/8/1R*6/8/K7 w - - 0 1",  // magic units: the letter and '*'
           "4k3/8/8/8/8/8/p*7/4K2n* b - - 0 1",
       }) {
    Expected<Position> p = parse_fen(fen);
    ASSERT_TRUE(p.ok()) << fen << ": " << p.error_message();
    EXPECT_EQ(to_fen(*p), fen);
  }
}

// A huge input is quoted in part: its error stays one short line.
TEST(Fen, ErrorOfAHugeFenQuotesAnExcerpt) {
  const std::string huge = "4k3/8/8/8/8/8/8/4K3 w - - 0 1 " + std::string(1 << 20, 'x');
  Expected<Position> p = parse_fen(huge);
  ASSERT_FALSE(p.ok());
  EXPECT_LT(p.error_message().size(), 1000u) << p.error_message().substr(0, 300);
  EXPECT_NE(p.error_message().find(std::to_string(huge.size()) + " bytes"), std::string::npos)
      << p.error_message().substr(0, 300);
}

TEST(Fen, FourFieldsAccepted) {
  Expected<Position> p = parse_fen("4k3/8/8/8/8/8/8/4K3 b - -");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->side_to_move(), BLACK);
}

TEST(Fen, FairyLetters) {
  Position pos = test::position("4k3/8/8/8/8/8/2l5/G3K3 w - - 0 1");
  EXPECT_EQ(pos.piece_on(SQ_A1), Piece(WHITE, GRASSHOPPER));
  EXPECT_EQ(pos.piece_on(SQ_C2), Piece(BLACK, LOCUST));
}

struct BadFen {
  const char* fen;
  const char* expected_message_part;
  friend void PrintTo(const BadFen& b, std::ostream* os) { *os << '"' << b.fen << '"'; }
};

class BadFens : public ::testing::TestWithParam<BadFen> {};

TEST_P(BadFens, RejectedWithReason) {
  Expected<Position> p = parse_fen(GetParam().fen);
  ASSERT_FALSE(p.ok()) << GetParam().fen;
  EXPECT_NE(p.error_message().find(GetParam().expected_message_part), std::string::npos) << p.error_message();
}

INSTANTIATE_TEST_SUITE_P(
    Table, BadFens,
    ::testing::Values(BadFen{"", "expected 6 fields"}, BadFen{"4k3/8/8/8/8/8/8/4K3 w", "expected 6 fields"},
                      BadFen{"4k3/8/8/8/8/8/8/4K3 w - - 0", "expected 6 fields"},
                      BadFen{"4k3/8/8/8/8/8/8/4K2K w - - 0 1", "2 white kings"},
                      BadFen{"8/8/8/8/8/8/8/4K3 w - - 0 1", "no black king"},
                      BadFen{"4k3/8/8/8/8/8/8/8 w - - 0 1", "no white king"},
                      BadFen{"4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1", "castling rights 'KQkq' are not supported"},
                      BadFen{"4k3/8/8/8/8/8/8/4K3 w xyz - 0 1", "bad castling field"},
                      BadFen{"4k3/8/8/8/8/8/8/4K3 x - - 0 1", "side to move"},
                      BadFen{"4k3/8/8/8/8/8/8/4X3 w - - 0 1", "unknown piece letter 'X' at character 18"},
                      BadFen{"4k3/8/8/8/8/8/8/4K4 w - - 0 1", "more than 8 squares"},
                      BadFen{"4k3/44/8/8/8/8/8/4K3 w - - 0 1", "two digits in a row"},
                      BadFen{"4k3/9/8/8/8/8/8/4K3 w - - 0 1", "must be 1 to 8 at character 5"},
                      BadFen{"4k3/08/8/8/8/8/8/4K3 w - - 0 1", "must be 1 to 8"},
                      BadFen{"4k3/8/8/8/8/8/8/4K2 w - - 0 1",
                             "rank 1 (the last of the placement) has 7 squares, not 8"},
                      BadFen{"4k3/8/8/8/8/8/4K3 w - - 0 1", "the placement has 7 ranks, not 8"},
                      BadFen{"4k3/7/8/8/8/8/8/4K3 w - - 0 1", "rank 7 does not have 8 squares"},
                      BadFen{"4k3/8/8/8/8/8/8/8/4K3 w - - 0 1", "more than 8 ranks"},
                      BadFen{"4k3/8/8/8/8/8/8/4K3 w - e3 0 1", "not on the rank"},
                      BadFen{"4k3/8/8/8/8/8/8/4K3 w - e6 0 1", "no pawn in front"},
                      BadFen{"4k3/4p3/8/4p3/8/8/8/4K3 w - e6 0 1", "occupied"},
                      BadFen{"4k3/8/8/4p3/8/8/8/4K3 w - e9 0 1", "bad en-passant square"},
                      BadFen{"4k3/8/8/8/8/8/8/4K3 w - - x 1", "move counters"},
                      BadFen{"4k3/8/8/8/8/8/8/R**3K3 w - - 0 1", "'*' (magic) must follow a piece letter"},
                      BadFen{"4k3/8/8/8/8/8/8/*4K3 w - - 0 1", "'*' (magic) must follow a piece letter"},
                      BadFen{"4k3/8/8/8/4P*3/8/8/4K3 b - e3 0 1", "no pawn in front of it"},
                      BadFen{"4k3/8/8/8/8/8/8/K*7 w - - 0 1", "a king cannot be magic"}));

// From an exploratory test of the parsers: counters of ten digits or more were refused as
// "not non-negative integers"; they are ignored, so any run of digits is taken.
TEST(Fen, MoveCountersOfAnyLengthAreIgnored) {
  for (const char* fen :
       {"4k3/8/8/8/8/8/8/4K2R w - - 0 2147483648", "4k3/8/8/8/8/8/8/4K2R w - - 18446744073709551616 1"}) {
    Expected<Position> p = parse_fen(fen);
    ASSERT_TRUE(p.ok()) << fen << ": " << p.error_message();
    EXPECT_EQ(to_fen(*p), "4k3/8/8/8/8/8/8/4K2R w - - 0 1");
  }
  EXPECT_FALSE(parse_fen("4k3/8/8/8/8/8/8/4K2R w - - -1 1").ok());
}

TEST(Fen, IllegalPositionSideNotToMoveInCheck) {
  RuleSet rules = RuleSet::orthodox();
  Position pos = test::position("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1");  // Black in check, White to move
  Status s = check_position_legal(pos, rules);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error_message().find("side not to move (black) is in check"), std::string::npos);
  EXPECT_TRUE(check_position_legal(test::position("4k3/8/8/8/8/8/8/4R1K1 b - - 0 1"), rules).ok());
}

TEST(Fen, AdjacentKingsIllegalInOrthodox) {
  EXPECT_FALSE(is_legal_position(test::position("8/8/8/8/8/8/8/Kk6 w - - 0 1"), RuleSet::orthodox()));
}

}  // namespace
}  // namespace feerie

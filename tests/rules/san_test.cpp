// rules/san.h: SAN as people write it (known positions), and the round trip — every
// legal move of every position of move trees under every condition is named uniquely and
// read back as itself.
#include "rules/san.h"

#include <gtest/gtest.h>

#include <functional>
#include <set>
#include <string>

#include "rules/fen.h"
#include "rules/movegen.h"
#include "tests/test_util.h"

namespace feerie {
namespace {

std::string san(const char* fen, const char* uci, const char* condition = "orthodox") {
  const RuleSet rules = test::rules(condition);
  const Position pos = test::position(fen);
  for (const MoveResult& m : legal_moves_with_results(pos, rules))
    if (to_uci(m.move) == uci) return to_san(pos, m.move, rules);
  ADD_FAILURE() << uci << " is not legal in " << fen;
  return "";
}

TEST(San, OrthodoxMovesAsInPgn) {
  const char* start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1";
  EXPECT_EQ(san(start, "e2e4"), "e4");
  EXPECT_EQ(san(start, "g1f3"), "Nf3");
  // Disambiguation: by file, by rank, by both.
  EXPECT_EQ(san("4k3/8/8/8/8/8/8/1N1NK3 w - - 0 1", "b1c3"), "Nbc3");
  EXPECT_EQ(san("4k3/8/8/8/R7/8/8/R3K3 w - - 0 1", "a1a3"), "R1a3");
  EXPECT_EQ(san("1k6/8/8/8/4Q2Q/8/K7/4b2Q w - - 0 1", "h4e1"), "Qh4xe1");
  EXPECT_EQ(san("1k6/8/8/8/7Q/8/K7/4b2Q w - - 0 1", "h4e1"), "Q4xe1");
  // Pawn captures name their file; en passant is a capture; promotion with check.
  EXPECT_EQ(san("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), "exd6");
  EXPECT_EQ(san("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5"), "exd5");
  EXPECT_EQ(san("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8q"), "exd8=Q+");
  EXPECT_EQ(san("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8n"), "e8=N");
  // Check and mate.
  EXPECT_EQ(san("7k/8/6K1/8/8/8/8/Q7 w - - 0 1", "a1a8"), "Qa8#");
  EXPECT_EQ(san("7k/8/8/8/8/8/8/Q3K3 w - - 0 1", "a1a8"), "Qa8+");
}

TEST(San, FairyUnitsAndConditions) {
  // Grasshopper and locust; the locust's capture shows the victim and the landing square.
  EXPECT_EQ(san("4k3/8/8/8/3p4/8/8/G3K3 w - - 0 1", "a1e5"), "Ge5");
  EXPECT_EQ(san("4k3/8/8/4p3/3L4/8/8/4K3 w - - 0 1", "d4f6"), "Lxe5-f6");
  // A magic unit carries its FEN mark.
  EXPECT_EQ(san("4k3/8/8/8/8/8/8/R*3K3 w - - 0 1", "a1a4"), "R*a4");
  // Madrasi: a rook arriving where the enemy rook observes it is paralysed and gives no
  // check; a king steps where a paralysed rook would attack.
  EXPECT_EQ(san("4k3/r7/8/8/8/8/8/4R1K1 w - - 0 1", "e1e7", "orthodox"), "Re7+");
  EXPECT_EQ(san("4k3/r7/8/8/8/8/8/4R1K1 w - - 0 1", "e1e7", "madrasi"), "Re7");
  EXPECT_EQ(san("4k3/8/8/8/8/8/r3R3/4K3 w - - 0 1", "e1d1", "madrasi"), "Kd1");
  // Annan: a pawn with a knight behind it moves as a knight: still a pawn move.
  EXPECT_EQ(san("4k3/8/8/8/8/8/4P3/4N1K1 w - - 0 1", "e2f4", "annan"), "f4");
}

// Every legal move of each position of the trees (to `depth` plies) under `rules`:
// named uniquely, read back as itself, with and without its check mark, and by its long
// algebraic name.
void expect_round_trip(const Position& pos, const RuleSet& rules, int depth, int& checked) {
  MoveList moves;
  generate_legal(pos, rules, moves);
  std::set<std::string> names;
  for (Move m : moves) {
    const std::string s = to_san(pos, m, rules);
    EXPECT_TRUE(names.insert(s).second) << s << " twice in " << to_fen(pos) << " (" << rules.name() << ")";
    Expected<Move> back = parse_san(pos, s, rules);
    ASSERT_TRUE(back.ok()) << s << " in " << to_fen(pos) << ": " << back.error_message();
    EXPECT_EQ(*back, m) << s << " in " << to_fen(pos) << " (" << rules.name() << ")";
    std::string bare = s;
    while (!bare.empty() && (bare.back() == '+' || bare.back() == '#')) bare.pop_back();
    EXPECT_EQ(*parse_san(pos, bare, rules), m) << bare;
    EXPECT_EQ(*parse_san(pos, to_uci(m), rules), m) << to_uci(m);
    ++checked;
    if (depth > 1) {
      Position after = pos;
      UndoRecord undo;
      make_move(after, m, undo, rules);
      expect_round_trip(after, rules, depth - 1, checked);
    }
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(San, RoundTripOverMoveTreesUnderEveryCondition) {
  const char* fens[] = {
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1",
      "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
      "r3k3/1P6/8/8/8/8/6p1/4K2R w - - 0 1",
      "8/8/3k4/8/2pP4/8/8/K2Q4 b - d3 0 1",
      // Fairy units and magic units (several alike, so that disambiguation is needed).
      "4k3/2g5/8/3l4/8/1G3G2/8/L3K2L w - - 0 1",
      "4k3/8/1n6/8/3R*4/8/8/R3K2R* w - - 0 1",
      // Knights, rooks and queens to the same squares from files and ranks alike.
      "3k4/8/8/1Q3Q2/8/1Q3Q2/8/N3K2N w - - 0 1",
      "3k4/R7/8/8/8/8/8/R3K3 w - - 0 1",
  };
  const char* conditions[] = {"orthodox", "madrasi", "madrasi-ri", "eiffel",           "isardam",      "isardam-b",
                              "leffie",   "annan",   "annan-b",    "annan-c",          "annan-d",      "nanna",
                              "nanna-b",  "nanna-c", "nanna-d",    "madrasi-ri+annan", "isardam+nanna"};
  int checked = 0;
  for (const char* condition : conditions) {
    const RuleSet rules = test::rules(condition);
    for (const char* fen : fens) {
      const Position pos = test::position(fen);
      if (!is_legal_position(pos, rules)) continue;
      expect_round_trip(pos, rules, 2, checked);
      if (HasFatalFailure()) return;
    }
  }
  EXPECT_GT(checked, 30000);
}

TEST(San, BadMovesAreRefusedWithTheLegalOnes) {
  const RuleSet rules = RuleSet::orthodox();
  const Position pos = test::position("4k3/8/8/8/8/8/8/R3K2R w - - 0 1");
  Expected<Move> m = parse_san(pos, "Rb5", rules);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error_kind(), ErrorKind::InvalidArgument);
  EXPECT_NE(m.error_message().find("no legal move 'Rb5' (legal: "), std::string::npos) << m.error_message();
  EXPECT_NE(m.error_message().find("Ra2"), std::string::npos) << m.error_message();
  const Position two_rooks = test::position("4k3/8/8/8/8/8/4K3/R6R w - - 0 1");
  m = parse_san(two_rooks, "Rd1", rules);
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error_message().find("the move 'Rd1' is ambiguous (Rad1, Rhd1)"), std::string::npos) << m.error_message();
  EXPECT_EQ(*parse_san(two_rooks, "Rad1", rules), Move(SQ_A1, SQ_D1));
  EXPECT_EQ(*parse_san(two_rooks, "Ra1-d1", rules), Move(SQ_A1, SQ_D1)) << "a long form with the origin";
  EXPECT_EQ(to_figurine("Nbd2"), "\u2658bd2");
  // Figurines read back, either colour's.
  EXPECT_EQ(*parse_san(two_rooks, "\u2656ad1", rules), Move(SQ_A1, SQ_D1));
  EXPECT_EQ(*parse_san(two_rooks, "\u265cad1", rules), Move(SQ_A1, SQ_D1));
  EXPECT_EQ(to_figurine("exd8=Q+"), "exd8=\u2655+");
}

// Regression tests of an exploratory test of `play`: more of the origin than SAN needs
// ("Rad1", "R1d1" where "Rd1" is unique) was "no legal move"; a promotion without its piece
// ("e8") was "no legal move" instead of ambiguous; a promotion letter in lower case
// ("e8=q") was refused.
TEST(San, OverSpecifiedOriginsPromotionsWithoutAPieceAndLowerCaseLetters) {
  const RuleSet rules = RuleSet::orthodox();
  const Position pos = test::position("8/4P3/8/8/8/2k5/8/R3K2R w - - 0 1");
  for (const char* text : {"Rd1", "Rad1", "R1d1", "Ra1d1", "Ra1-d1"})
    EXPECT_EQ(*parse_san(pos, text, rules), Move(SQ_A1, SQ_D1)) << text;
  EXPECT_FALSE(parse_san(pos, "Rbd1", rules).ok()) << "an origin that is not the rook's";
  EXPECT_FALSE(parse_san(pos, "R2d1", rules).ok()) << "an origin that is not the rook's";
  Expected<Move> m = parse_san(pos, "e8", rules);
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error_message().find("the move 'e8' is ambiguous (e8=Q, e8=R, e8=B, e8=N)"), std::string::npos)
      << m.error_message();
  for (const char* text : {"e8=Q", "e8=q", "e8q", "e8Q"})
    EXPECT_EQ(to_uci(*parse_san(pos, text, rules)), "e7e8q") << text;
  EXPECT_EQ(to_uci(*parse_san(pos, "e8=n", rules)), "e7e8n");
}

// Regression tests of a docs audit: leaving out the 'x' of a capture ("ed5", "Rad5",
// "exd8Q") made a move ambiguous with itself ("ambiguous (e4d5, e4d5)"): it matched the
// stripped SAN and the origin-and-target form, and was listed twice. A capture-promotion
// without its piece ("exd8", "ed8") is ambiguous among the promotions, as "e8" is.
TEST(San, ACaptureWithoutItsXIsOneMove) {
  const RuleSet rules = RuleSet::orthodox();
  EXPECT_EQ(to_uci(*parse_san(test::position("7k/8/8/3p4/4P3/8/8/4K3 w - - 0 1"), "ed5", rules)), "e4d5");
  EXPECT_EQ(to_uci(*parse_san(test::position("2k5/8/8/R2b3R/8/8/8/4K3 w - - 0 1"), "Rad5", rules)), "a5d5");
  const Position pos = test::position("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1");
  for (const char* text : {"exd8Q", "exd8q", "ed8=Q", "ed8Q", "exd8=Q"})
    EXPECT_EQ(to_uci(*parse_san(pos, text, rules)), "e7d8q") << text;
  for (const char* text : {"exd8", "ed8"}) {
    Expected<Move> m = parse_san(pos, text, rules);
    ASSERT_FALSE(m.ok()) << text;
    EXPECT_NE(m.error_message().find("is ambiguous (exd8=Q, exd8=R, exd8=B, exd8=N)"), std::string::npos)
        << m.error_message();
  }
}

// From an exploratory test of magic pieces: a magic unit's mark may be left out where the
// move stays unambiguous ("Rb6" for "R*b6" was "no legal move"), and a magic pawn's
// promotion may mark the new unit ("d8=N*" was refused): a magic pawn promotes to a magic
// unit. The mark still tells an ordinary unit's move from a magic one's.
TEST(San, AMagicMarkMayBeLeftOutOrWrittenOnAPromotion) {
  const RuleSet rules = RuleSet::orthodox();
  const Position rook = test::position("k7/8/8/8/8/8/1R*6/K7 w - - 0 1");
  for (const char* text : {"R*b6", "Rb6", "R*b2b6", "Rb2b6", "Rb2-b6", "R2b6"}) {
    Expected<Move> m = parse_san(rook, text, rules);
    ASSERT_TRUE(m.ok()) << text << ": " << m.error_message();
    EXPECT_EQ(to_uci(*m), "b2b6") << text;
  }
  const Position both = test::position("k7/8/7R/8/8/8/1R*6/K7 w - - 0 1");
  EXPECT_EQ(to_uci(*parse_san(both, "Rb6", rules)), "h6b6") << "the ordinary rook's move";
  EXPECT_EQ(to_uci(*parse_san(both, "R*b6", rules)), "b2b6");
  EXPECT_EQ(to_uci(*parse_san(both, "Rb2b6", rules)), "b2b6") << "only the magic rook stands on b2";
  EXPECT_EQ(to_uci(*parse_san(both, "Rhb6", rules)), "h6b6");
  const Position pawn = test::position("2r1r2k/3P*4/8/8/8/8/8/K7 w - - 0 1");
  for (const char* text : {"P*d8=N", "P*d8=N*", "d8=N*", "d8=N", "d8N", "P*d8N", "d8=n*", "P*d8=n*", "d8n"}) {
    Expected<Move> m = parse_san(pawn, text, rules);
    ASSERT_TRUE(m.ok()) << text << ": " << m.error_message();
    EXPECT_EQ(to_uci(*m), "d7d8n") << text;
  }
  Expected<Move> m = parse_san(pawn, "d8", rules);
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error_message().find("is ambiguous (P*d8=Q, P*d8=R, P*d8=B, P*d8=N)"), std::string::npos)
      << m.error_message();
  EXPECT_FALSE(parse_san(pawn, "Rb6", rules).ok());
}

// From an exploratory test of the parsers: the marks that may be left out were dropped
// wherever they stood, so "e4x", "xe4", "e2=e4", "N=f3" and "e4+#" all played e4 (and
// "e7e8x" was "ambiguous" among the promotions); upper-case long algebraic was read
// ("B2C3" as bxc3); a locust's capture with its origin and victim ("Ld4xe5-f6") was
// refused; a figurine move's error quoted the letters it was read as.
TEST(San, MarksStandWhereSanPutsThem) {
  const RuleSet rules = RuleSet::orthodox();
  const Position start = test::position("4k3/8/8/8/8/8/4P3/4K1N1 w - - 0 1");
  for (const char* text : {"e4", "e2e4", "e2-e4", "e4+", "e4!?", "e4+!", "Nf3", "Ng1f3", "Ng1-f3", "Nf3#"}) {
    Expected<Move> m = parse_san(start, text, rules);
    EXPECT_TRUE(m.ok()) << text << ": " << m.error_message();
  }
  for (const char* text : {"e4x", "xe4", "=e4", "+e4", "e2=e4", "e2xxe4", "x-=e4", "e2--e4", "e2e4x", "e4+#", "N=f3",
                           "Ng1=f3", "Nf3x", "e4!!!", "E2E4"}) {
    Expected<Move> m = parse_san(start, text, rules);
    EXPECT_FALSE(m.ok()) << text;
  }
  Expected<Move> x = parse_san(start, "e4x", rules);
  EXPECT_NE(x.error_message().find("'x' at character 3"), std::string::npos) << x.error_message();
  const Position promotion = test::position("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
  Expected<Move> e8x = parse_san(promotion, "e7e8x", rules);
  ASSERT_FALSE(e8x.ok());
  EXPECT_EQ(e8x.error_message().find("ambiguous"), std::string::npos) << e8x.error_message();
  EXPECT_EQ(to_uci(*parse_san(promotion, "e7e8Q", rules)), "e7e8q") << "the promotion letter in either case";
  const Position pawn = test::position("4k3/8/8/8/8/2n5/1P6/4K3 w - - 0 1");
  EXPECT_FALSE(parse_san(pawn, "B2C3", rules).ok());
  EXPECT_EQ(to_uci(*parse_san(pawn, "b2c3", rules)), "b2c3");
  const Position locust = test::position("7k/8/8/4p3/3L4/8/8/4K3 w - - 0 1");
  for (const char* text : {"Lxe5-f6", "Ld4xe5-f6", "Ld4e5f6", "Ld4xe5f6", "d4f6"}) {
    Expected<Move> m = parse_san(locust, text, rules);
    ASSERT_TRUE(m.ok()) << text << ": " << m.error_message();
    EXPECT_EQ(to_uci(*m), "d4f6") << text;
  }
  Expected<Move> figurine = parse_san(start, "\u2658F3", rules);
  ASSERT_FALSE(figurine.ok());
  EXPECT_NE(figurine.error_message().find("'\u2658F3'"), std::string::npos) << figurine.error_message();
}

}  // namespace
}  // namespace feerie

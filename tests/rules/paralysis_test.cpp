// The paralysis family (SPEC 3.1-3.3) on positions built from the seed texts: each
// diagram described in words there becomes a concrete position that satisfies every
// stated fact, and the test asserts those facts.
#include "rules/conditions/paralysis.h"

#include "tests/test_util.h"

namespace feerie {
namespace {

using test::contains;
using test::legal_moves;
using test::position;
using test::rules;

Bitboard paralysed(const char* fen, const char* condition) {
  return test::paralysed_units(rules(condition), position(fen));
}

Bitboard squares(std::initializer_list<Square> list) {
  Bitboard b = 0;
  for (Square s : list) b |= square_bb(s);
  return b;
}

// Madrasi diagram A (seed 000): both rooks and both bishops are paralysed.
TEST(Madrasi, SeedDiagramARooksAndBishops) {
  const char* fen = "r6k/8/7b/8/8/8/8/R1B4K w - - 0 1";
  EXPECT_EQ(paralysed(fen, "madrasi"), squares({SQ_A1, SQ_A8, SQ_C1, SQ_H6}));
  for (const std::string& m : legal_moves(fen, rules("madrasi"))) EXPECT_EQ(m.substr(0, 2), "h1") << m;
}

// Madrasi diagram B: knights, pawns and queens paralysed in pairs; the white king has
// five squares, d2, e2 and f2 being observed only by paralysed black units.
TEST(Madrasi, SeedDiagramBKingHasFiveSquares) {
  const char* fen = "k7/8/8/p6q/1P2n3/2N5/8/4K2Q w - - 0 1";
  EXPECT_EQ(paralysed(fen, "madrasi"), squares({SQ_A5, SQ_B4, SQ_C3, SQ_E4, SQ_H5, SQ_H1}));
  EXPECT_EQ(legal_moves(fen, rules("madrasi")), (std::vector<std::string>{"e1d1", "e1d2", "e1e2", "e1f1", "e1f2"}));
  // In orthodox chess the same squares are guarded.
  auto orthodox = legal_moves(fen);
  EXPECT_FALSE(contains(orthodox, "e1d2"));
  EXPECT_FALSE(contains(orthodox, "e1e2"));
}

// Madrasi diagram C: the black grasshopper f3 paralyses the white one on b7 (over the
// hurdle c6); b7 does not observe f3, so f3 is free.
TEST(Madrasi, SeedDiagramCGrasshoppersOneWay) {
  const char* fen = "7k/1G6/2P5/8/8/5g2/8/4K3 w - - 0 1";
  EXPECT_EQ(paralysed(fen, "madrasi"), square_bb(SQ_B7));
  for (const std::string& m : legal_moves(fen, rules("madrasi"))) EXPECT_NE(m.substr(0, 2), "b7") << m;
  auto black = legal_moves("7k/1G6/2P5/8/8/5g2/8/4K3 b - - 0 1", rules("madrasi"));
  EXPECT_TRUE(std::any_of(black.begin(), black.end(), [](const std::string& m) { return m.substr(0, 2) == "f3"; }));
}

// Madrasi diagram D: the locust h7 paralyses the locust c2, which does not observe h7
// (nothing beyond the edge); c2 does not keep the black king off the c-file, and the
// black locust may take the white one.
TEST(Madrasi, SeedDiagramDLocusts) {
  const char* fen = "8/3k3l/8/8/8/8/2L5/4K3 b - - 0 1";
  EXPECT_EQ(paralysed(fen, "madrasi"), square_bb(SQ_C2));
  auto moves = legal_moves(fen, rules("madrasi"));
  EXPECT_TRUE(contains(moves, "d7c7"));
  EXPECT_TRUE(contains(moves, "d7c6"));
  EXPECT_TRUE(contains(moves, "h7b1"));
  auto orthodox = legal_moves(fen);
  EXPECT_FALSE(contains(orthodox, "d7c7"));
  EXPECT_FALSE(contains(orthodox, "d7c6"));
}

// The English text (seed 002): Rc5 does not check because Rg5 paralyses it; Rg2 is
// paralysed by g5, Rh4 is free; knights d8/f7 and pawns c2/d3 paralysed; Bd1 is not
// paralysed by the knight f2. 1.Be5 cuts g5-c5 and checks; 1...Rc4 re-paralyses c5;
// ...Rxe5 is impossible (g5 paralysed by g2); 2.bxc4 mates.
TEST(Madrasi, SeedEnglishTextExample) {
  RuleSet madrasi = rules("madrasi");
  const char* fen = "2kn4/5N2/P3P3/2R3r1/7r/1P1p4/1BP2nR1/K2B4 w - - 0 1";
  Bitboard p = paralysed(fen, "madrasi");
  EXPECT_EQ(p, squares({SQ_C5, SQ_G5, SQ_G2, SQ_D8, SQ_F7, SQ_C2, SQ_D3}));
  EXPECT_FALSE(p & square_bb(SQ_H4));
  EXPECT_FALSE(p & square_bb(SQ_D1));
  EXPECT_TRUE(is_legal_position(position(fen), madrasi));  // no check from c5
  EXPECT_TRUE(contains(legal_moves(fen, madrasi), "b2e5"));
  const char* after_be5 = "2kn4/5N2/P3P3/2R1B1r1/7r/1P1p4/2P2nR1/K2B4 b - - 0 1";
  EXPECT_TRUE(in_check(position(after_be5), madrasi));
  auto replies = legal_moves(after_be5, madrasi);
  EXPECT_TRUE(contains(replies, "h4c4"));
  EXPECT_FALSE(contains(replies, "g5e5"));
  const char* after_rc4 = "2kn4/5N2/P3P3/2R1B1r1/2r5/1P1p4/2P2nR1/K2B4 w - - 0 1";
  EXPECT_TRUE(paralysed(after_rc4, "madrasi") & square_bb(SQ_C5));
  EXPECT_TRUE(contains(legal_moves(after_rc4, madrasi), "b3c4"));
  const char* after_bxc4 = "2kn4/5N2/P3P3/2R1B1r1/2P5/3p4/2P2nR1/K2B4 b - - 0 1";
  EXPECT_TRUE(in_check(position(after_bxc4), madrasi));
  EXPECT_TRUE(legal_moves(after_bxc4, madrasi).empty());  // mate
}

// Rex inclusive: a king may step next to the enemy king; both are then paralysed.
TEST(MadrasiRexInclusive, KingsMayMeet) {
  const char* fen = "8/8/4k3/8/4K3/8/8/8 w - - 0 1";
  EXPECT_TRUE(contains(legal_moves(fen, rules("madrasi-ri")), "e4e5"));
  EXPECT_FALSE(contains(legal_moves(fen, rules("madrasi")), "e4e5"));
  const char* met = "8/8/4k3/4K3/8/8/8/8 b - - 0 1";
  EXPECT_TRUE(is_legal_position(position(met), rules("madrasi-ri")));
  EXPECT_EQ(paralysed(met, "madrasi-ri"), squares({SQ_E5, SQ_E6}));
  EXPECT_TRUE(legal_moves(met, rules("madrasi-ri")).empty());  // paralysed, not in check: stalemate
  EXPECT_FALSE(is_legal_position(position(met), rules("madrasi")));
}

// En-passant observation: a double step beside an enemy pawn that could take it en
// passant leaves the double-stepper paralysed (no check), and is illegal under Isardam.
TEST(Madrasi, EnPassantObservation) {
  const char* fen = "4k3/3p4/8/4P3/2K5/8/8/8 b - - 0 1";
  EXPECT_TRUE(contains(legal_moves(fen, rules("madrasi")), "d7d5"));
  Position after = position("4k3/8/8/3pP3/2K5/8/8/8 w - d6 0 1");
  EXPECT_FALSE(in_check(after, rules("madrasi")));
  EXPECT_TRUE(in_check(after, RuleSet::orthodox()));
  EXPECT_TRUE(paralysed("4k3/8/8/3pP3/2K5/8/8/8 w - d6 0 1", "madrasi") & square_bb(SQ_D5));
  EXPECT_FALSE(paralysed("4k3/8/8/3pP3/2K5/8/8/8 w - d6 0 1", "madrasi") & square_bb(SQ_E5));  // one way
  auto isardam = legal_moves(fen, rules("isardam"));
  EXPECT_FALSE(contains(isardam, "d7d5"));
  EXPECT_FALSE(contains(isardam, "d7d6"));  // e5 observes d6: a pawn pair too
  EXPECT_TRUE(contains(isardam, "e8d8"));
  // Without the white pawn the double step is legal under Isardam.
  EXPECT_TRUE(contains(legal_moves("4k3/3p4/8/8/2K5/8/8/8 b - - 0 1", rules("isardam")), "d7d5"));
}

// A move that frees a paralysed checker is illegal: interposing on rank 1 between the
// black rook h1 and the white rook c1 lets c1 check the king on c8.
TEST(Madrasi, MoveThatFreesACheckerIsIllegal) {
  auto moves = legal_moves("2k5/8/8/8/8/K4n2/8/2R4r b - - 0 1", rules("madrasi"));
  EXPECT_FALSE(contains(moves, "f3e1"));
  EXPECT_FALSE(contains(moves, "f3g1"));
  EXPECT_TRUE(contains(moves, "f3d2"));
}

// Isardam: type A checks only if taking the king leaves no pair; type B checks plainly.
TEST(Isardam, TypeAAndTypeBChecks) {
  Position pos = position("8/8/8/k6r/8/8/8/R3K3 b - - 0 1");  // Rxa5 would stand opposite Rh5
  EXPECT_FALSE(in_check(pos, rules("isardam")));
  EXPECT_TRUE(in_check(pos, rules("isardam-b")));
  EXPECT_TRUE(in_check(pos, RuleSet::orthodox()));
  // Pairs already on the board do not make a position illegal, but no move may leave one.
  auto moves = legal_moves("r3k3/8/8/8/8/8/8/R3K3 w - - 0 1", rules("isardam"));
  EXPECT_FALSE(moves.empty());
  for (const std::string& m : moves) EXPECT_NE(m, "a1a7") << "a7 still faces a8";
}

// Type A: a move that breaks the pair a capture of the king would make lets the capturer
// check. Qxe1 would leave the black queen facing the white one on a5, so e8 gives no check;
// the rook may go anywhere but onto that diagonal (Rc3: then Qxe1 leaves no pair).
TEST(Isardam, BlockingThePairACaptureOfTheKingWouldMakeIsIllegal) {
  const char* fen = "4q1k1/8/8/Q7/8/7R/8/4K3 w - - 0 1";
  EXPECT_FALSE(in_check(position(fen), rules("isardam")));
  EXPECT_TRUE(in_check(position(fen), rules("isardam-b")));
  auto moves = legal_moves(fen, rules("isardam"));
  EXPECT_FALSE(contains(moves, "h3c3"));
  EXPECT_TRUE(contains(moves, "h3d3"));
  EXPECT_TRUE(contains(moves, "h3e3"));  // blocks the e-file
  EXPECT_TRUE(contains(moves, "h3h7"));
  EXPECT_FALSE(contains(legal_moves(fen, rules("isardam-b")), "h3d3"));  // in check: only answers
}

TEST(IsardamRexInclusive, AdjacentKingsAreAForbiddenPair) {
  EXPECT_FALSE(contains(legal_moves("8/8/4k3/8/4K3/8/8/8 w - - 0 1", rules("isardam-ri")), "e4e5"));
  EXPECT_TRUE(contains(legal_moves("8/8/4k3/8/4K3/8/8/8 w - - 0 1", rules("isardam-ri")), "e4d4"));
}

// Eiffel diagram A (seed 003): the queen a2 paralyses both black pawns, so b5 is open to
// the white king; c4 is not (it would cut the a2-d5 line and free d5, a self-check).
// The paralysed pawn d5 still paralyses the knight e4, so f6 is open to the black king.
TEST(Eiffel, SeedDiagramA) {
  RuleSet eiffel = rules("eiffel");
  const char* fen = "8/6k1/p7/3p4/1K2N3/8/Q7/8 w - - 0 1";
  Bitboard p = paralysed(fen, "eiffel");
  EXPECT_EQ(p, squares({SQ_A6, SQ_D5, SQ_E4}));
  auto white = legal_moves(fen, eiffel);
  EXPECT_TRUE(contains(white, "b4b5"));
  EXPECT_FALSE(contains(white, "b4c4"));
  EXPECT_TRUE(contains(legal_moves("8/6k1/p7/3p4/1K2N3/8/Q7/8 b - - 0 1", eiffel), "g7f6"));
  EXPECT_FALSE(contains(legal_moves(fen), "b4b5"));  // orthodox: a6 guards b5
  EXPECT_FALSE(contains(legal_moves("8/6k1/p7/3p4/1K2N3/8/Q7/8 b - - 0 1"), "g7f6"));
}

// The relation is Eiffel's, not Madrasi's: a rook paralyses a queen (so KQvKR is not
// orthodox under Eiffel), a queen does not paralyse a queen.
TEST(Eiffel, RookParalysesQueen) {
  const char* fen = "3r3k/8/8/8/8/8/8/K2Q4 w - - 0 1";
  EXPECT_EQ(paralysed(fen, "eiffel"), square_bb(SQ_D1));
  EXPECT_FALSE(contains(legal_moves(fen, rules("eiffel")), "d1d8"));
  EXPECT_TRUE(contains(legal_moves(fen), "d1d8"));
  EXPECT_EQ(paralysed("3q3k/8/8/8/8/8/8/K2Q4 w - - 0 1", "eiffel"), 0u);
}

TEST(Eiffel, VariantRelations) {
  RuleSet r = rules("eiffel:qb,bq,rn,nr");
  EXPECT_EQ(r.name(), "eiffel:bq,nr,qb,rn");  // canonical: sorted pairs
  // Q paralyses B (the queen d1 observes the bishop d8); B paralyses Q only when it
  // observes it, which the bishop on d8 does not.
  EXPECT_EQ(paralysed("3b3k/8/8/8/8/8/8/K2Q4 b - - 0 1", "eiffel:qb,bq,rn,nr"), square_bb(SQ_D8));
  EXPECT_EQ(paralysed("7k/8/8/8/8/8/8/K2Q3b b - - 0 1", "eiffel:qb,bq,rn,nr"), square_bb(SQ_H1));
  // On a common diagonal each observes the other: both paralysed.
  EXPECT_EQ(paralysed("7k/8/8/8/8/1b6/8/K2Q4 b - - 0 1", "eiffel:qb,bq,rn,nr"), squares({SQ_B3, SQ_D1}));
  // R paralyses N but N does not observe the rook from c3: one way.
  EXPECT_EQ(paralysed("7k/8/8/8/8/2n5/8/K1R5 b - - 0 1", "eiffel:qb,bq,rn,nr"), square_bb(SQ_C3));
  RuleSet kings = rules("eiffel:kq,qr,rk");
  EXPECT_TRUE(kings.kings_may_touch());
  EXPECT_FALSE(rules("eiffel").kings_may_touch());
  for (const char* bad : {"eiffel:", "eiffel:qx", "eiffel:q", "eiffel:qb,,rn"}) {
    Expected<RuleSet> e = RuleSet::parse(bad);
    ASSERT_FALSE(e.ok()) << bad;
    EXPECT_NE(e.error_message().find("bad condition"), std::string::npos) << e.error_message();
  }
}

// Leffie: Eiffel's relation the Isardam way, with type A checks: the rook a1 does not
// check a5 because Rxa5 would stand where the bishop d8 observes it (B paralyses R).
TEST(Leffie, CheckRule) {
  Position pos = position("3b4/8/8/k7/8/8/8/R3K3 b - - 0 1");
  EXPECT_FALSE(in_check(pos, rules("leffie")));
  EXPECT_TRUE(in_check(pos, rules("eiffel")));
  EXPECT_TRUE(in_check(pos, RuleSet::orthodox()));
}

// Regression (review): under type A a pawn taking the king on its last rank promotes,
// so it checks when some promotion leaves no pair. Here g7xh8 as a pawn would stand
// where the queen h1 observes it (Q paralyses P in Leffie), but promoting avoids that.
TEST(Leffie, PawnTakingTheKingOnItsLastRankPromotes) {
  Position pos = position("7k/6P1/8/8/8/K7/8/7q b - - 0 1");
  EXPECT_TRUE(in_check(pos, rules("leffie")));
  EXPECT_FALSE(is_legal_position(position("7k/6P1/8/8/8/K7/8/7q w - - 0 1"), rules("leffie")));
}

TEST(IsardamRexInclusive, TypeBNeverLetsKingsTouch) {
  EXPECT_TRUE(rules("isardam-ri").kings_may_touch());
  EXPECT_FALSE(rules("isardam-b-ri").kings_may_touch());
}

// Each condition of the family is its own specialised rule set: whether pairs take effect
// or are forbidden, and Isardam's check type, are compile-time facts of its restriction
// policy, not run-time flags read in the hot loops.
static_assert(!ParalysisRules::EveryAttackerChecks && !IsardamRules::EveryAttackerChecks);
static_assert(IsardamBRules::EveryAttackerChecks, "Isardam type B: every attacker gives an ordinary check");
static_assert(IsParalysisCondition<IsardamBRules> && !IsParalysisCondition<CombinedIsardamBRules>);

TEST(ParalysisFamily, EachConditionParsesToItsOwnRuleSet) {
  EXPECT_NE(rules("madrasi").get_if<ParalysisRules>(), nullptr);
  EXPECT_NE(rules("eiffel:qb").get_if<ParalysisRules>(), nullptr);
  EXPECT_NE(rules("isardam-ri").get_if<IsardamRules>(), nullptr);
  EXPECT_NE(rules("leffie").get_if<IsardamRules>(), nullptr);
  EXPECT_NE(rules("isardam-b").get_if<IsardamBRules>(), nullptr);
  EXPECT_NE(rules("isardam-b-ri").get_if<IsardamBRules>(), nullptr);
}

}  // namespace
}  // namespace feerie

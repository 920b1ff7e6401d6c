// Annan and Nanna: a real pawn on its own first or last rank with a lender moves,
// captures, checks and observes with the borrowed walk, and promotes when it lands on its
// last rank, also from its last rank along it (SPEC 2 and 3.4, issue 26). Without a
// lender, or lent a pawn's walk, it does nothing: the pawn walk has no move from the
// first rank (the reference solver's base rank) nor from the last.
//
// The positions of the issue with the answers of the reference solver (Popeye 4.104,
// recorded from its runs: `~1` for the moves, `#N` for the mates; Black-to-move move
// lists from the colour-reversed position, which the rules map onto each other), then a
// random tester against the independent reference of combination_reference.h.
#include <random>

#include "tests/rules/combination_reference.h"
#include "tests/rules/edge_pawn_positions.h"
#include "tests/test_util.h"

namespace feerie {
namespace {

using test::legal_moves;
using test::position;
using test::rules;

using Moves = std::vector<std::string>;

// Whether the side to move forces mate in at most `moves` moves: plain minimax over the
// legal moves, no table.
bool forces_mate(const Position& pos, const RuleSet& r, int moves) {
  for (const MoveResult& m : legal_moves_with_results(pos, r)) {
    std::vector<MoveResult> replies = legal_moves_with_results(m.after, r);
    if (replies.empty()) {
      if (in_check(m.after, r)) return true;
      continue;  // stalemate
    }
    if (moves == 1) continue;
    bool all = true;
    for (const MoveResult& reply : replies) all = all && forces_mate(reply.after, r, moves - 1);
    if (all) return true;
  }
  return false;
}

// The first moves after which the side to move forces mate in `moves` moves in all.
Moves keys(const char* fen, const RuleSet& r, int moves) {
  Moves out;
  for (const MoveResult& m : legal_moves_with_results(position(fen), r)) {
    std::vector<MoveResult> replies = legal_moves_with_results(m.after, r);
    bool mates = replies.empty() && in_check(m.after, r);
    if (!replies.empty() && moves > 1) {
      mates = true;
      for (const MoveResult& reply : replies) mates = mates && forces_mate(reply.after, r, moves - 1);
    }
    if (mates) out.push_back(to_uci(m.move));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// madrasi+nanna: the pawn a1, lent the knight's walk by a2, takes on b3 and goes to c2.
TEST(EdgePawnLender, NannaPawnOnFirstRankMovesAsItsLender) {
  Moves expected{"a1b3", "a1c2", "a2b4", "a2c1", "a2c3", "d3a6", "d3b1", "d3b3", "d3b5", "d3c2", "d3c3", "d3c4", "d3d1",
                 "d3d2", "d3d4", "d3d5", "d3d6", "d3d7", "d3d8", "d3e2", "d3e3", "d3e4", "d3f1", "d3f3", "d3f5", "d3g3",
                 "d3g6", "d3h3", "d3h7", "g2f1", "g2f2", "g2f3", "g2g1", "g2g3", "g2h1", "g2h2", "g2h3"};
  EXPECT_EQ(legal_moves("4n3/8/4r3/7k/8/1n1Q4/N5K1/P7 w - - 0 1", rules("madrasi+nanna")), expected);
}

// madrasi+annan: the black pawn e1 on its last rank, lent the king's walk by e2, steps to
// d2 and f2 and promotes along its last rank to d1 and f1.
TEST(EdgePawnLender, AnnanPawnOnLastRankMovesAndPromotesAlongIt) {
  Moves expected{"e1d1b", "e1d1n", "e1d1q", "e1d1r", "e1d2", "e1f1b", "e1f1n", "e1f1q",
                 "e1f1r", "e1f2",  "e2d1",  "e2d2",  "e2d3", "e2f1",  "e2f2",  "e2f3"};
  EXPECT_EQ(legal_moves("8/5R2/5K2/8/q6Q/8/4kP2/4p3 b - - 0 1", rules("madrasi+annan")), expected);
}

// madrasi-ri+annan: the pawn b1, lent the bishop's walk by b2, guards a2 and c2.
TEST(EdgePawnLender, PawnOnLastRankGuardsByTheLentWalk) {
  EXPECT_EQ(legal_moves("8/8/8/6n1/8/1K6/1b6/1p1k4 w - - 0 1", rules("madrasi-ri+annan")),
            (Moves{"b3a4", "b3b2", "b3b4", "b3c4"}));
}

// eiffel+annan: the pawn e8, lent the knight's walk by e7, takes on d6.
TEST(EdgePawnLender, EiffelAnnanPawnOnLastRankCapturesAsAKnight) {
  EXPECT_EQ(legal_moves("4P3/3kN3/3n4/3K4/8/8/8/8 w - - 0 1", rules("eiffel+annan")),
            (Moves{"d5c4", "d5d4", "d5e4", "e8d6"}));
}

// madrasi+nanna: mate in 2 by 1.Qf6 alone, not in 1 (the pawn h8 on its first rank, lent
// the king's walk by h7, guards g7 and g8).
TEST(EdgePawnLender, NannaMateInTwoAsThePopeyeSolves) {
  RuleSet r = rules("madrasi+nanna");
  EXPECT_TRUE(keys("5K1p/5Q1k/8/8/8/8/8/8 w - - 0 1", r, 1).empty());
  EXPECT_EQ(keys("5K1p/5Q1k/8/8/8/8/8/8 w - - 0 1", r, 2), Moves{"f7f6"});
}

// madrasi+annan: the pawn f8 on its last rank, lent the king's walk by f7, mates in 1 by
// stepping to g8 and promoting to a queen.
TEST(EdgePawnLender, AnnanPawnOnLastRankMatesByPromotingAlongIt) {
  EXPECT_EQ(keys("5P1k/5K2/8/8/6p1/8/8/8 w - - 0 1", rules("madrasi+annan"), 1), Moves{"f8g8q"});
}

// Plain Annan and Nanna (Popeye, AnnanChess / NannaChess): the pawn h8 lent a rook's walk
// moves along its last rank, promoting on each square, and checks along it; the pawn c1
// lent a rook's walk by c2 (Nanna) checks the king a1, which is mated.
TEST(EdgePawnLender, PlainAnnanAndNanna) {
  Moves h8 = legal_moves("7P/7R/8/8/8/k7/8/4K3 w - - 0 1", rules("annan"));
  EXPECT_EQ(h8.size(), 46u);  // as the reference solver counts them
  for (const char* m : {"h8a8q", "h8a8n", "h8g8r", "h8b8b"}) EXPECT_TRUE(test::contains(h8, m)) << m;
  EXPECT_FALSE(test::contains(h8, "h8g8"));  // a pawn landing on its last rank promotes
  EXPECT_TRUE(in_check(position("4k2P/7R/8/8/8/8/8/4K3 b - - 0 1"), rules("annan")));
  EXPECT_TRUE(legal_moves("4k2P/7R/8/8/8/8/8/4K3 b - - 0 1", rules("annan")).empty());
  EXPECT_TRUE(in_check(position("8/8/8/8/8/8/2R5/k1P4K b - - 0 1"), rules("nanna")));
  EXPECT_TRUE(legal_moves("8/8/8/8/8/8/2R5/k1P4K b - - 0 1", rules("nanna")).empty());
  // Lent a pawn's walk the pawn stays immobile and harmless on its first rank (Nanna: the
  // pawn c2 in front) and on its last (Annan: the pawn h7 behind).
  EXPECT_TRUE(legal_moves("8/8/8/8/8/8/2P5/k1P4K w - - 0 1", rules("nanna")) ==
              (Moves{"c2c3", "c2c4", "h1g1", "h1g2", "h1h2"}));
  EXPECT_FALSE(in_check(position("5k1P/7P/8/8/8/8/8/4K3 b - - 0 1"), rules("annan")));
}

// 600 random positions with edge pawns and lenders under seven conditions, with the moves
// the reference solver gives (tests/data/popeye_edge_pawns.txt, recorded outside the suite).
TEST(EdgePawnLender, RecordedPopeyeMovesOfRandomPositions) {
  EXPECT_EQ(test::expect_recorded_moves(FEERIE_SOURCE_DIR "/tests/data/popeye_edge_pawns.txt"), 600);
}

// Random positions with pawns on their edge ranks and lenders: the engine's legal moves
// and two-ply perft equal the independent reference's, under Annan and Nanna of every type
// and combined with each paralysis family.
TEST(EdgePawnLender, RandomPositionsAgreeWithTheIndependentReference) {
  for (const char* name : {"annan", "annan-b", "annan-c", "annan-d", "nanna", "nanna-b", "nanna-c", "nanna-d",
                           "madrasi+annan", "madrasi-ri+nanna", "madrasi-ri+annan-c", "isardam+annan",
                           "isardam-b-ri+nanna", "eiffel+annan", "leffie+nanna", "eiffel:qb,bq,rn,nr+annan-b"}) {
    const RuleSet r = rules(name);
    const auto params = test::combination_reference::params_of(r);
    std::mt19937_64 rng(26);
    int checked = 0, with_edge_moves = 0;
    for (int n = 0; checked < 150 && n < 5000; ++n) {
      Position pos = test::random_edge_pawn_position(rng, params.lender_in_front);
      if (!is_legal_position(pos, r)) continue;
      ++checked;
      std::vector<std::string> engine;
      MoveList moves;
      generate_legal(pos, r, moves);
      for (Move m : moves) {
        engine.push_back(to_uci(m));
        with_edge_moves +=
            relative_rank(pos.side_to_move(), m.from()) % 7 == 0 && pos.piece_on(m.from()).type() == PAWN;
      }
      std::sort(engine.begin(), engine.end());
      ASSERT_EQ(engine, test::combination_reference::legal_moves(pos, params)) << name << " " << to_fen(pos);
      Position copy = pos;
      ASSERT_EQ(perft(copy, r, 2), test::combination_reference::perft(pos, params, 2)) << name << " " << to_fen(pos);
    }
    EXPECT_EQ(checked, 150) << name;
    EXPECT_GT(with_edge_moves, 20) << name << ": too few moves of edge pawns sampled";
  }
}

}  // namespace
}  // namespace feerie

// Orthodox move-generation details that perft does not single out: promotions, en
// passant, pawns on their first and last ranks, check evasion.
#include <algorithm>
#include <initializer_list>
#include <random>

#include "probe/indexer.h"
#include "probe/material.h"
#include "tests/test_util.h"

namespace feerie {
namespace {

using test::contains;
using test::legal_moves;

TEST(Movegen, PromotionsToTheFourOrthodoxTypes) {
  auto moves = legal_moves("7k/P7/8/8/8/8/8/K7 w - - 0 1");
  for (const char* m : {"a7a8q", "a7a8r", "a7a8b", "a7a8n"}) EXPECT_TRUE(contains(moves, m)) << m;
  EXPECT_FALSE(contains(moves, "a7a8g"));
  EXPECT_FALSE(contains(moves, "a7a8"));
}

TEST(Movegen, PromotionToFairyTypesPresentOnTheBoard) {
  // A black grasshopper on the board offers the grasshopper walk to White's promotion too.
  auto moves = legal_moves("6gk/P7/8/8/8/8/8/K7 w - - 0 1");
  EXPECT_TRUE(contains(moves, "a7a8g"));
  EXPECT_FALSE(contains(moves, "a7a8l"));
  auto with_locust = legal_moves("7k/P7/8/8/8/8/8/K5L1 w - - 0 1");
  EXPECT_TRUE(contains(with_locust, "a7a8l"));
}

TEST(Movegen, EnPassantCapture) {
  auto moves = legal_moves("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
  EXPECT_TRUE(contains(moves, "e5d6"));
  auto without = legal_moves("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1");
  EXPECT_FALSE(contains(without, "e5d6"));
}

TEST(Movegen, EnPassantThatExposesTheKingIsIllegal) {
  // Capturing d5 e.p. would empty the fifth rank between the rook and the king.
  auto moves = legal_moves("8/8/8/r2pP2K/8/8/8/4k3 w - d6 0 1");
  EXPECT_FALSE(contains(moves, "e5d6"));
}

TEST(Movegen, DoubleStepOnlyFromTheSecondRank) {
  auto moves = legal_moves("4k3/8/8/8/8/P7/1P6/4K3 w - - 0 1");
  EXPECT_TRUE(contains(moves, "b2b4"));
  EXPECT_TRUE(contains(moves, "a3a4"));
  EXPECT_FALSE(contains(moves, "a3a5"));
}

TEST(Movegen, PawnOnItsFirstRankHasNoMoveAndGivesNoCheck) {
  // White pawn d1 would "attack" e2 if pawns on the first rank captured.
  auto moves = legal_moves("K7/8/8/8/8/8/4k3/3P4 w - - 0 1");
  for (const std::string& m : moves) EXPECT_NE(m.substr(0, 2), "d1") << m;
  EXPECT_TRUE(is_legal_position(test::position("K7/8/8/8/8/8/4k3/3P4 w - - 0 1"), RuleSet::orthodox()));
}

TEST(Movegen, PawnOnItsLastRankHasNoMove) {
  auto moves = legal_moves("3P4/8/8/8/8/8/8/K6k w - - 0 1");
  for (const std::string& m : moves) EXPECT_NE(m.substr(0, 2), "d8") << m;
}

TEST(Movegen, CheckmateHasNoMoves) {
  EXPECT_TRUE(legal_moves("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1").empty());
  EXPECT_TRUE(in_check(test::position("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1"), RuleSet::orthodox()));
}

TEST(Movegen, MakeUndoRestoresThePosition) {
  Position pos = test::position("r3k2r/1P6/8/3pP3/8/8/8/R3K2R w - d6 0 1");
  const Position original = pos;
  MoveList moves;
  generate_legal(pos, RuleSet::orthodox(), moves);
  ASSERT_GT(moves.size(), 10u);
  for (Move m : moves) {
    UndoRecord undo;
    make_move(pos, m, undo, OrthodoxRules{});
    pos.undo_move(m, undo);
    EXPECT_EQ(pos, original) << to_uci(m);
  }
}

// split_legal_moves() counts the quiet moves by bitboards and lists the others; at every
// node of these move trees (pins, checks, double checks, en passant that exposes the
// king, promotions) it must give exactly generate_legal()'s moves, classified.
template <class Rules>
void expect_split_equals_generated(Position& pos, const Rules& rules, int depth) {
  MoveList all;
  generate_legal(pos, rules, all);
  SplitMoves split;
  ASSERT_TRUE(split_legal_moves(pos, rules, split)) << to_fen(pos);
  // Every legal move once: the quiet targets of the units as moves, the listed ones.
  std::vector<std::uint32_t> expected, got;
  for (Move m : all) expected.push_back(m.code());
  for (int u = 0; u < split.units; ++u)
    for (Bitboard targets = split.quiet_targets[u]; targets;) {
      Square to = pop_lsb(targets);
      ASSERT_TRUE(pos.empty(to)) << to_fen(pos);
      got.push_back(Move(split.from[u], to).code());
    }
  for (Move m : split.listed) {
    const PieceType walk = rules.walk_of(pos, m.from());
    EXPECT_FALSE(m.promotion() == NO_PIECE_TYPE && m.kind() == MoveKind::NORMAL && pos.empty(m.to()) &&
                 pos.piece_on(m.from()).type() != PAWN && walk >= KNIGHT && walk <= KING)
        << "a quiet move by a king's, leaper's or slider's walk is listed: " << to_fen(pos);
    got.push_back(m.code());
  }
  std::sort(expected.begin(), expected.end());
  std::sort(got.begin(), got.end());
  ASSERT_EQ(got, expected) << to_fen(pos);
  if (depth == 0) return;
  for (Move m : all) {
    UndoRecord undo;
    pos.do_move(m, undo);
    expect_split_equals_generated(pos, rules, depth - 1);
    pos.undo_move(m, undo);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(Movegen, SplitLegalMovesCountsWhatGenerateLegalLists) {
  for (const char* fen : {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1",
                          "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", "4k3/8/8/8/1q6/8/3N4/4K2R w - - 0 1",
                          "8/8/3k4/8/2pP4/8/8/K2Q4 b - d3 0 1", "r3k3/1P6/8/8/8/8/6p1/4K2R w - - 0 1",
                          "4k3/8/8/2b5/8/8/5R2/4K3 w - - 0 1"}) {
    Position pos = test::position(fen);
    expect_split_equals_generated(pos, OrthodoxRules{}, 2);
    if (HasFatalFailure()) return;
  }
}

// expect_split_equals_generated() on the move trees (two plies) of those of `fens` that
// are legal under `rules`.
template <std::size_t N>
void expect_split_on_move_trees(const RuleSet& rules, const char* const (&fens)[N]) {
  for (const char* fen : fens) {
    Position pos = test::position(fen);
    if (!is_legal_position(pos, rules)) continue;
    rules.visit([&](const auto& r) { expect_split_equals_generated(pos, r, 2); });
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// Every paralysis condition with own walks: Madrasi and Eiffel (paralysis takes effect),
// Isardam and Leffie (pairs forbidden; check types A and B), each relation.
constexpr const char* ParalysisConditions[] = {"madrasi", "madrasi-ri", "eiffel",     "eiffel:qb,bq,rn,nr,kk,pp",
                                               "isardam", "isardam-b",  "isardam-ri", "isardam-b-ri",
                                               "leffie"};

// Under paralysis with own walks the split judges each move on the board
// (legal_without_making of Paralysis and Isardam): a move that paralyses the checker, one
// that frees it by leaving or by blocking the observation line, a promotion that
// paralyses, en passant (made), kings side by side under Madrasi RI, Eiffel's relation
// across types, moves that make or break an Isardam pair, checks of type A whose capture
// of the king would make one.
TEST(Movegen, SplitLegalMovesUnderParalysisCountsWhatGenerateLegalLists) {
  const char* fens[] = {
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
      "4k3/8/8/8/1q6/8/3N4/4K2R w - - 0 1", "8/8/3k4/8/2pP4/8/8/K2Q4 b - d3 0 1", "r3k3/1P6/8/8/8/8/6p1/4K2R w - - 0 1",
      "4k3/8/8/2b5/8/8/5R2/4K3 w - - 0 1", "8/8/8/3k4/3K4/8/8/r6R w - - 0 1", "4k3/8/8/8/4r3/8/4R3/4K3 w - - 0 1",
      "1r2k3/P7/8/8/8/8/8/4K2r w - - 0 1", "4k3/8/8/2q5/8/8/8/Q3K3 w - - 0 1", "8/8/8/2n5/8/3K4/8/1B2k3 w - - 0 1",
      // Type A: Qxe1 would leave the black queen facing a5, so e8 gives
      // no check, unless the rook blocks that diagonal (Rc3: illegal).
      "4q1k1/8/8/Q7/8/7R/8/4K3 w - - 0 1"};
  for (const char* condition : ParalysisConditions) {
    expect_split_on_move_trees(test::rules(condition), fens);
    if (HasFatalFailure()) return;
  }
}

// Entry of draw n of a random walk over the entries of `indexer`: from the en-passant
// sections every other draw where the material has them.
std::uint64_t random_entry(const Indexer& indexer, std::mt19937_64& rng, int n) {
  const std::uint64_t any = rng() % indexer.size();
  if (n % 2 && indexer.size() > indexer.base_size())
    return indexer.base_size() + rng() % (indexer.size() - indexer.base_size());
  return any;
}

// The same on random legal positions of tables the solver splits (en-passant regions
// half the time where the material has them), and split_legal_moves_if_legal() on legal
// and illegal ones.
template <class Rules>
void expect_split_on_random_positions(const RuleSet& rule_set, const Rules& rules, const char* name) {
  Indexer indexer(*Material::parse(name), rule_set);
  std::mt19937_64 rng(2026);
  int checked = 0;
  for (int n = 0; checked < 3000 && n < 100000; ++n) {
    const std::uint64_t i = random_entry(indexer, rng, n);
    Position pos;
    if (!indexer.decode(i, Color(n & 1), pos)) continue;
    // The split of a position not known to be legal finds it illegal exactly when
    // is_legal_position() does, and otherwise splits as split_legal_moves() does.
    SplitMoves unchecked;
    const SplitOutcome outcome = split_legal_moves_if_legal(pos, rules, unchecked);
    const bool legal = is_legal_position(pos, rules);
    ASSERT_EQ(outcome == SplitOutcome::IllegalPosition, !legal) << to_fen(pos);
    if (!legal) continue;
    ASSERT_EQ(outcome, SplitOutcome::Split) << to_fen(pos);
    ++checked;
    expect_split_equals_generated(pos, rules, 0);
    if (::testing::Test::HasFatalFailure()) return;
    SplitMoves split;
    split_legal_moves(pos, rules, split);
    ASSERT_EQ(unchecked.units, split.units) << to_fen(pos);
    for (int u = 0; u < split.units; ++u) {
      EXPECT_EQ(unchecked.from[u], split.from[u]) << to_fen(pos);
      EXPECT_EQ(unchecked.quiet_targets[u], split.quiet_targets[u]) << to_fen(pos);
    }
    ASSERT_EQ(unchecked.listed.size(), split.listed.size()) << to_fen(pos);
    for (std::size_t m = 0; m < split.listed.size(); ++m)
      EXPECT_EQ(unchecked.listed[m].code(), split.listed[m].code()) << to_fen(pos);
    // The moves that leave the material alone: the split's listed ones that capture or
    // promote, in the same order, and no quiet target.
    SplitMoves leaving;
    ASSERT_TRUE(split_leaving_moves(pos, rules, leaving)) << to_fen(pos);
    EXPECT_EQ(leaving.units, 0) << to_fen(pos);
    std::vector<std::uint32_t> expected, got;
    for (Move m : split.listed)
      if (m.promotion() != NO_PIECE_TYPE || m.kind() == MoveKind::EN_PASSANT || !pos.empty(m.to()))
        expected.push_back(m.code());
    for (Move m : leaving.listed) got.push_back(m.code());
    EXPECT_EQ(got, expected) << to_fen(pos);
  }
  EXPECT_EQ(checked, 3000) << name;
}

// expect_split_on_move_trees() on `fens` and expect_split_on_random_positions() on
// `materials`, under `condition`.
template <std::size_t N>
void expect_split_under(const char* condition, const char* const (&fens)[N],
                        std::initializer_list<const char*> materials) {
  const RuleSet rules = test::rules(condition);
  expect_split_on_move_trees(rules, fens);
  if (::testing::Test::HasFatalFailure()) return;
  for (const char* name : materials) {
    rules.visit([&](const auto& r) { expect_split_on_random_positions(rules, r, name); });
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(Movegen, SplitLegalMovesOnRandomTablePositions) {
  for (const char* name : {"KQRvKR", "KQvKQ", "KRPvKP", "KBNvKP", "KPPvKP", "KNNvKB"}) {
    expect_split_on_random_positions(RuleSet::orthodox(), OrthodoxRules{}, name);
    if (HasFatalFailure()) return;
  }
  for (const char* condition : ParalysisConditions) {
    const RuleSet rules = test::rules(condition);
    for (const char* name : {"KQRvKR", "KQvKQ", "KRPvKP", "KBNvKP", "KPPvKP", "KNNvKB", "KBvKN", "KQvKPP"}) {
      rules.visit([&](const auto& r) { expect_split_on_random_positions(rules, r, name); });
      if (HasFatalFailure()) return;
    }
  }
}

// Under Annan and Nanna alone the split keeps the quiet moves by a borrowed or own king's,
// leaper's or slider's walk as bitboards: a lender behind a unit, a lender taken, a unit
// leaving the line of an enemy unit that borrows a slider's walk, a king that borrows.
TEST(Movegen, SplitLegalMovesUnderAnnanCountsWhatGenerateLegalLists) {
  const char* fens[] = {
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1",
      "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
      "4k3/8/8/8/1q6/8/3N4/4K2R w - - 0 1",
      "8/8/3k4/8/2pP4/8/8/K2Q4 b - d3 0 1",
      "4k3/4n3/8/8/8/8/4R3/4K3 w - - 0 1",
      "4k3/8/4b3/4r3/8/8/4N3/4K3 w - - 0 1",
      "8/8/8/3k4/3n4/8/3R4/3K4 b - - 0 1",
      "k7/8/8/8/8/8/R7/KN6 w - - 0 1",
      // A rook lent a pawn's walk pinned on a diagonal, a pawn pinned on one, and a pawn
      // that blocks a check by promoting.
      "4k3/8/8/b7/8/2R5/2P5/4K3 w - - 0 1",
      "4k3/8/8/b7/8/8/3P4/4K3 w - - 0 1",
      "r6K/1P6/8/8/8/8/8/k7 w - - 0 1",
  };
  for (const char* condition : {"annan", "annan-b", "annan-c", "annan-d", "nanna", "nanna-c"}) {
    expect_split_under(condition, fens, {"KQRvKR", "KQvKQ", "KRPvKP", "KBNvKP", "KNNvKB", "KBvKN", "KQvKPP"});
    if (HasFatalFailure()) return;
  }
}

// may_leave_material() is false only where no legal move captures, takes en passant or
// promotes, under every walk policy and restriction, and false often enough to be worth
// asking (the solver's short cut for a position found lost); with a grasshopper, a
// locust or a magic unit on the board it is always true.
TEST(Movegen, MayLeaveMaterialOnlyWhereALegalMoveCapturesOrPromotes) {
  const char* conditions[] = {
      "orthodox", "madrasi", "madrasi-ri",   "eiffel",       "isardam-b-ri",     "leffie",       "annan",
      "annan-d",  "nanna-c", "face-to-face", "back-to-back", "madrasi-ri+annan", "isardam+annan"};
  for (const char* condition : conditions) {
    const RuleSet rule_set = test::rules(condition);
    for (const char* name : {"KQRvKR", "KRPvKP", "KPPvKP", "KPvKP", "KNPvKB", "KGvKP", "KmRvKP"}) {
      Indexer indexer(*Material::parse(name), rule_set);
      const bool fairy = std::string(name).find_first_of("Gm") != std::string::npos;
      std::mt19937_64 rng(2026);
      int checked = 0, none = 0, leaving = 0;
      for (int n = 0; checked < 2000 && n < 100000; ++n) {
        const std::uint64_t i = random_entry(indexer, rng, n);
        Position pos;
        if (!indexer.decode(i, Color(n & 1), pos)) continue;
        rule_set.visit([&](const auto& rules) {
          if (!is_legal_position(pos, rules)) return;
          ++checked;
          MoveList moves;
          generate_legal(pos, rules, moves);
          const bool leaves = std::any_of(moves.begin(), moves.end(), [&](Move m) {
            return m.promotion() != NO_PIECE_TYPE || m.kind() == MoveKind::EN_PASSANT || !pos.empty(m.to());
          });
          const bool may = may_leave_material(pos, rules);
          if (leaves) {
            ++leaving;
            EXPECT_TRUE(may) << condition << " " << to_fen(pos);
          }
          if (fairy) {
            EXPECT_TRUE(may) << condition << " " << to_fen(pos);
          }
          if (!may) ++none;
        });
        if (HasFailure()) return;
      }
      EXPECT_EQ(checked, 2000) << condition << " " << name;
      if (!fairy) {
        EXPECT_GT(none, 200) << condition << " " << name;
      }
      EXPECT_GT(leaving, 0) << condition << " " << name;
    }
  }
}

TEST(Movegen, SplitLegalMovesLeavesFairyAndMagicPositionsToGenerateLegal) {
  SplitMoves split;
  EXPECT_FALSE(split_legal_moves(test::position("4k3/8/8/8/8/8/8/G3K3 w - - 0 1"), OrthodoxRules{}, split));
  EXPECT_FALSE(split_legal_moves(test::position("4k3/8/8/8/8/8/3N*4/R3K3 w - - 0 1"), OrthodoxRules{}, split));
  const RuleSet madrasi = test::rules("madrasi");
  EXPECT_TRUE(
      split_legal_moves(test::position("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), *madrasi.get_if<ParalysisRules>(), split));
  EXPECT_FALSE(
      split_legal_moves(test::position("4k3/8/8/8/8/8/8/G3K3 w - - 0 1"), *madrasi.get_if<ParalysisRules>(), split));
  const RuleSet isardam = test::rules("isardam");
  EXPECT_TRUE(
      split_legal_moves(test::position("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), *isardam.get_if<IsardamRules>(), split));
  EXPECT_FALSE(
      split_legal_moves(test::position("4k3/8/8/8/8/8/8/L3K3 w - - 0 1"), *isardam.get_if<IsardamRules>(), split));
  const RuleSet combined = test::rules("madrasi+annan");
  EXPECT_TRUE(
      split_legal_moves(test::position("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), *combined.get_if<CombinedRules>(), split));
  EXPECT_FALSE(
      split_legal_moves(test::position("4k3/8/8/8/8/8/8/G3K3 w - - 0 1"), *combined.get_if<CombinedRules>(), split));
  // Isardam forbids moves into a pair: no split with its borrowed walks.
  const RuleSet isardam_annan = test::rules("isardam+annan");
  EXPECT_FALSE(split_legal_moves(test::position("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"),
                                 *isardam_annan.get_if<CombinedIsardamRules>(), split));
}

// Paralysis with borrowed walks from friends (madrasi+annan, ...): a quiet move leaves the
// king in check only through an enemy unit that reaches it now or by a line the move
// opens, paralysed or not. Move trees with paralysis freed or made by a move, lenders
// taken and given, checks by a borrowed walk, kings side by side under Madrasi RI; random
// positions with pawns that lend, borrow, push and promote.
TEST(Movegen, SplitLegalMovesUnderParalysisWithAnnanCountsWhatGenerateLegalLists) {
  const char* fens[] = {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1",
                        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
                        "8/8/3k4/8/2pP4/8/8/K2Q4 b - d3 0 1",
                        "8/8/8/3k4/3K4/8/8/r6R w - - 0 1",
                        "4k3/8/8/8/4r3/8/4R3/4K3 w - - 0 1",
                        "4k3/8/8/2q5/8/8/8/Q3K3 w - - 0 1",
                        "4k3/4n3/8/8/8/8/4R3/4K3 w - - 0 1",
                        "4k3/8/4b3/4r3/8/8/4N3/4K3 w - - 0 1",
                        "8/8/8/3k4/3n4/8/3R4/3K4 b - - 0 1",
                        "k7/8/8/8/8/8/R7/KN6 w - - 0 1",
                        "4k3/8/8/8/4q3/8/4B3/4KR2 w - - 0 1",
                        "8/8/8/8/2k5/2r5/8/R1BK4 b - - 0 1"};
  for (const char* condition :
       {"madrasi+annan", "madrasi-ri+annan", "madrasi-ri+annan-b", "eiffel+nanna", "madrasi+nanna-c"}) {
    expect_split_under(condition, fens,
                       {"KQRvKR", "KQvKQ", "KRPvKP", "KRBvKN", "KNNvKB", "KBvKN", "KQvKPP", "KPPvKP", "KRPvKR"});
    if (HasFatalFailure()) return;
  }
}

}  // namespace
}  // namespace feerie

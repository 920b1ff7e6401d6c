// Perft under the paralysis conditions (all of them), cross-checked: no other program is at hand, so
// each count is computed twice, by the engine and by a slow reference written here from
// SPEC 3.1-3.2 alone. The reference decides observation by asking the move generator for
// a capture of that one unit (rules/walks.cpp add_walk_moves), not by the observation
// code the engine uses (capture_targets_bb), and recomputes paralysis and check from
// scratch for every move. The recorded counts pin both.
#include "rules/walks.h"
#include "tests/test_util.h"

namespace feerie {
namespace {

struct Reference {
  // The relation and the Isardam parameters, read from the engine's rule value (data
  // only: the logic below is the reference's own).
  test::ParalysisParameters params;

  bool relates(PieceType a, PieceType b) const { return params.paralyses[a] & (1u << b); }

  // Whether the unit on a could capture the unit on b, by its walk, if capturing were allowed.
  static bool observes(const Position& pos, Square a, Square b) {
    MoveList moves;
    add_walk_moves(pos, a, pos.piece_on(a).type(), square_bb(b), moves);
    for (Move m : moves)
      if (pos.capture_square(m) == b) return true;
    return false;
  }

  // Observed by an enemy unit whose type the relation pairs with its own.
  bool paralysed(const Position& pos, Square u) const {
    Piece unit = pos.piece_on(u);
    for (Bitboard b = pos.pieces(~unit.color()); b;) {
      Square a = pop_lsb(b);
      if (relates(pos.piece_on(a).type(), unit.type()) && observes(pos, a, u)) return true;
    }
    return false;
  }

  bool any_pair(const Position& pos) const {
    for (Bitboard b = pos.pieces(); b;)
      if (paralysed(pos, pop_lsb(b))) return true;
    return false;
  }

  bool in_check(const Position& pos, Color c) const {
    Square k = pos.king_square(c);
    for (Bitboard b = pos.pieces(~c); b;) {
      Square a = pop_lsb(b);
      if (!params.isardam && paralysed(pos, a)) continue;
      // Every way the unit could take the king (promotions included).
      MoveList takes;
      add_walk_moves(pos, a, pos.piece_on(a).type(), square_bb(k), takes);
      for (Move m : takes) {
        if (pos.capture_square(m) != k) continue;
        if (!params.isardam || params.ordinary_checks) return true;
        Position after = pos;
        UndoRecord undo;
        after.do_move(m, undo);
        if (!any_pair(after)) return true;  // type A: the capture itself leaves no pair
      }
    }
    return false;
  }

  std::uint64_t perft(const Position& pos, int depth) const {
    if (depth == 0) return 1;
    Color us = pos.side_to_move();
    std::uint64_t nodes = 0;
    for (Bitboard units = pos.pieces(us); units;) {
      Square s = pop_lsb(units);
      if (!params.isardam && paralysed(pos, s)) continue;
      MoveList moves;
      add_walk_moves(pos, s, pos.piece_on(s).type(), pos.pieces(~us) & ~pos.pieces(KING), moves);
      for (Move m : moves) {
        Position next = pos;
        UndoRecord undo;
        next.do_move(m, undo);
        if (in_check(next, us) || (params.isardam && any_pair(next))) continue;
        nodes += perft(next, depth - 1);
      }
    }
    return nodes;
  }
};

using Case = test::PerftCase;

class ParalysisPerft : public ::testing::TestWithParam<Case> {};

TEST_P(ParalysisPerft, EngineEqualsReferenceAndRecordedCount) {
  test::expect_perft(GetParam(), [](const RuleSet& rules, const Position& pos, int depth) {
    return Reference{test::paralysis_parameters(rules)}.perft(pos, depth);
  });
}

// Positions: the English text's example, Madrasi diagram B, kings that may meet, pawns
// with en passant, grasshoppers and locusts.
INSTANTIATE_TEST_SUITE_P(Madrasi, ParalysisPerft,
                         ::testing::Values(Case{"madrasi", "2kn4/5N2/P3P3/2R3r1/7r/1P1p4/1BP2nR1/K2B4 w - - 0 1", 3,
                                                5757},
                                           Case{"madrasi", "k7/8/8/p6q/1P2n3/2N5/8/4K2Q w - - 0 1", 3, 99},
                                           Case{"madrasi", "4k3/3p4/8/4P3/2K5/8/8/8 b - - 0 1", 4, 2694},
                                           Case{"madrasi", "7k/1G6/2P5/8/8/5g2/8/4K3 w - - 0 1", 3, 228},
                                           Case{"madrasi", "8/3k3l/8/8/8/8/2L5/4K3 b - - 0 1", 4, 1960},
                                           Case{"madrasi-ri", "8/8/4k3/8/4K3/8/8/8 w - - 0 1", 5, 15360},
                                           Case{"madrasi-ri", "8/8/3qk3/8/3QK3/8/8/8 w - - 0 1", 3, 164},
                                           Case{"madrasi-ri", "r3k3/8/8/8/8/8/8/R3K3 w - - 0 1", 3, 170}));

// Under Isardam the English text's position has no legal move at all (every white move
// leaves one of its pairs), hence 0.
INSTANTIATE_TEST_SUITE_P(IsardamEiffelLeffie, ParalysisPerft,
                         ::testing::Values(Case{"isardam", "2kn4/5N2/P3P3/2R3r1/7r/1P1p4/1BP2nR1/K2B4 w - - 0 1", 3, 0},
                                           Case{"isardam", "4k3/3p4/8/4P3/2K5/8/8/8 b - - 0 1", 4, 1192},
                                           Case{"isardam-b", "r3k3/8/8/8/8/8/8/R3K3 w - - 0 1", 3, 514},
                                           Case{"isardam-ri", "8/8/3qk3/8/3QK3/8/8/8 w - - 0 1", 3, 2970},
                                           Case{"eiffel", "8/6k1/p7/3p4/1K2N3/8/Q7/8 w - - 0 1", 4, 27116},
                                           Case{"eiffel", "2kn4/5N2/P3P3/2R3r1/7r/1P1p4/1BP2nR1/K2B4 w - - 0 1", 3,
                                                10730},
                                           Case{"eiffel:qb,bq,rn,nr", "3b3k/8/8/8/8/2n5/8/K1RQ4 w - - 0 1", 3, 3962},
                                           Case{"leffie", "8/6k1/p7/3p4/1K2N3/8/Q7/8 w - - 0 1", 4, 479},
                                           Case{"leffie", "7k/6P1/8/8/8/K7/8/7q b - - 0 1", 4, 2396}));

}  // namespace
}  // namespace feerie

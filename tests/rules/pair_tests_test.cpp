// The local pair tests of ParalysisRelation (has_pair_through, has_pair_after_move), on
// which Isardam's and Leffie's legality without making the move rests, against the whole
// board's has_pair on random boards: each looks only at the lines through the square a
// unit left (paralysis.h states when that is enough), so a board where it is not enough
// is a bug in it.
#include <bit>
#include <cctype>
#include <cstdio>
#include <random>
#include <string>
#include <utility>

#include "rules/conditions/isardam.h"
#include "rules/conditions/paralysis.h"
#include "rules/fen.h"
#include "rules/move.h"
#include "tests/test_util.h"

namespace feerie {
namespace {

ParalysisRelation relation_of(const std::string& condition) {
  ParalysisRelation relation;
  relation.paralyses = test::paralysis_parameters(test::rules(condition)).paralyses;
  return relation;
}

// Whether every pair of `board` involves the unit on `s`.
bool pairs_all_involve(const ParalysisRelation& relation, const BoardEdit& board, Square s) {
  for (Bitboard units = board.occupied() & ~square_bb(s); units;) {
    const Square u = pop_lsb(units);
    if (relation.observed_paralysed_types_bb(board, u) & ~square_bb(s)) return false;
  }
  return true;
}

struct Counts {
  int through = 0, through_pairs = 0, after_move = 0, after_move_pairs = 0;
};

Counts compare_on_random_boards(const std::string& condition, const std::string& units, int boards) {
  const ParalysisRelation relation = relation_of(condition);
  std::mt19937 rng(20261127);
  Counts counts;
  for (int b = 0; b < boards; ++b) {
    const Position pos = test::random_board(rng, units);
    const BoardEdit board(pos);
    const bool board_has_pair = relation.has_pair(board);
    for (Bitboard units_left = pos.pieces(); units_left;) {
      const Square from = pop_lsb(units_left);
      // Lifting the unit: the board's other pairs are those that do not involve it.
      if (pairs_all_involve(relation, board, from)) {
        const BoardEdit lifted(pos, square_bb(from));
        const bool expected = relation.has_pair(lifted);
        EXPECT_EQ(relation.has_pair_through(lifted, from, 0), expected)
            << condition << " " << units << ": lifting " << square_name(from) << " of board " << b;
        ++counts.through;
        counts.through_pairs += expected;
      }
      // Moving it (to an empty square or taking) on a board without a pair.
      if (board_has_pair) continue;
      for (Bitboard targets = ~pos.pieces(pos.piece_on(from).color()) & ~pos.pieces(KING); targets;) {
        const Square to = pop_lsb(targets);
        const BoardEdit after(pos, from, to, pos.piece_on(from).type());
        const bool expected = relation.has_pair(after);
        EXPECT_EQ(relation.has_pair_after_move(after, from, to), expected)
            << condition << " " << units << ": " << square_name(from) << "-" << square_name(to) << " of board " << b;
        ++counts.after_move;
        counts.after_move_pairs += expected;
      }
    }
  }
  return counts;
}

TEST(PairTests, ThroughAnEmptiedSquareAgreeWithTheWholeBoard) {
  for (const char* condition : {"isardam", "isardam-ri", "leffie", "eiffel:qb,bq,rn,nr,kk,pp"}) {
    Counts total;
    for (const char* units : {"KQRkq", "KRBkrb", "KQBNkqrn", "KRRkrrp", "KBPkbnp", "KQkqQq", "KQRBNkqrbn"}) {
      const Counts counts = compare_on_random_boards(condition, units, 300);
      total.through += counts.through;
      total.through_pairs += counts.through_pairs;
      total.after_move += counts.after_move;
      total.after_move_pairs += counts.after_move_pairs;
    }
    // The comparisons must include boards where a pair appears and boards where none
    // does, else they prove nothing.
    EXPECT_GT(total.through_pairs, 20) << condition;
    EXPECT_GT(total.through - total.through_pairs, 1000) << condition;
    EXPECT_GT(total.after_move_pairs, 1000) << condition;
    EXPECT_GT(total.after_move - total.after_move_pairs, 1000) << condition;
    std::printf("%s: lifted %d (%d with a pair), moved %d (%d with a pair)\n", condition, total.through,
                total.through_pairs, total.after_move, total.after_move_pairs);
  }
}

// Isardam's move_allowed (asked of each position whose predecessors are looked for),
// whose short cut with own walks and ordinary units looks for pairs walk by walk,
// against the units paralysed_bb finds, on random boards with and without pairs.
TEST(PairTests, MoveAllowedAgreesWithTheParalysedUnits) {
  for (const char* condition : {"isardam", "isardam-ri", "leffie", "eiffel:qb,bq,rn,nr,kk,pp"}) {
    const Isardam<IsardamCheck::TypeA> isardam{relation_of(condition), {}};
    std::mt19937 rng(20261130);
    int allowed = 0, boards = 0;
    for (const char* units : {"KQRkq", "KRBkrb", "KQBNkqrn", "KBPkbnp", "KQkqQq", "KPkpP"}) {
      for (int b = 0; b < 300; ++b, ++boards) {
        const Position pos = test::random_board(rng, units);
        const bool expected = !isardam.paralysed_bb(pos, OwnWalk{});
        ASSERT_EQ(isardam.move_allowed(pos, OwnWalk{}), expected) << condition << " " << to_fen(pos);
        allowed += expected;
      }
    }
    EXPECT_GT(allowed, 100) << condition;
    EXPECT_GT(boards - allowed, 100) << condition;
  }
}

// Whether the unit on `from` (own walk, ordinary type) observes `to`, by stepping square
// by square: a slow reference independent of the attack tables. A pawn observes its two
// forward diagonal squares, none from its own first rank (SPEC 2).
bool observes_by_steps(const Position& pos, Square from, Square to) {
  const Piece unit = pos.piece_on(from);
  const int f = file_of(from), r = rank_of(from);
  auto on_board = [](int file, int rank) { return file >= 0 && file < 8 && rank >= 0 && rank < 8; };
  auto is_to = [&](int file, int rank) { return on_board(file, rank) && Square(rank * 8 + file) == to; };
  const int forward = unit.color() == WHITE ? 1 : -1;
  switch (unit.type()) {
    case PAWN:
      return relative_rank(unit.color(), from) != 0 && (is_to(f - 1, r + forward) || is_to(f + 1, r + forward));
    case KNIGHT:
      for (auto [df, dr] : {std::pair{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}})
        if (is_to(f + df, r + dr)) return true;
      return false;
    case KING:
      for (int df = -1; df <= 1; ++df)
        for (int dr = -1; dr <= 1; ++dr)
          if ((df || dr) && is_to(f + df, r + dr)) return true;
      return false;
    default:
      for (int df = -1; df <= 1; ++df)
        for (int dr = -1; dr <= 1; ++dr) {
          const bool straight = !df || !dr;
          if (!(df || dr) || (straight && unit.type() == BISHOP) || (!straight && unit.type() == ROOK)) continue;
          for (int file = f + df, rank = r + dr; on_board(file, rank); file += df, rank += dr) {
            if (Square(rank * 8 + file) == to) return true;
            if (!pos.empty(Square(rank * 8 + file))) break;
          }
        }
      return false;
  }
}

// paralysed_bb and is_paralysed (asked of every position the split judges and of every
// unit that reaches a king; with own walks and ordinary units both look walk by walk or
// from the unit backwards) against the definition unit by unit with stepped walks, on
// random boards of mutual (Madrasi) and one-way (Eiffel, variant cycles) relations.
TEST(PairTests, ParalysedUnitsAgreeWithTheDefinitionStepByStep) {
  for (const char* condition : {"madrasi", "madrasi-ri", "eiffel", "eiffel:qb,bq,rn,nr,kk,pp", "eiffel:pn,nk,kq,qp"}) {
    const ParalysisRelation relation = relation_of(condition);
    std::mt19937 rng(20261130);
    int units_asked = 0, paralysed_units = 0;
    for (const char* units : {"KQRkq", "KRBkrb", "KQBNkqrn", "KRPkrp", "KBPkbnp", "KQkqQq", "KPkpP", "KQRBNPkqrbnp"}) {
      for (int b = 0; b < 300; ++b) {
        const Position pos = test::random_board(rng, units);
        Bitboard expected = 0;
        for (Bitboard victims = pos.pieces(); victims;) {
          const Square v = pop_lsb(victims);
          const Piece victim = pos.piece_on(v);
          for (Bitboard observers = pos.pieces(~victim.color()); observers;) {
            const Square o = pop_lsb(observers);
            if (relation.relates(pos.piece_on(o).type(), victim.type()) && observes_by_steps(pos, o, v))
              expected |= square_bb(v);
          }
          ASSERT_EQ(relation.is_paralysed(pos, v, OwnWalk{}), bool(expected & square_bb(v)))
              << condition << " " << to_fen(pos) << " " << square_name(v);
          ++units_asked;
        }
        ASSERT_EQ(relation.paralysed_bb(pos, OwnWalk{}), expected) << condition << " " << to_fen(pos);
        paralysed_units += std::popcount(expected);
      }
    }
    EXPECT_GT(paralysed_units, 500) << condition;
    EXPECT_GT(units_asked - paralysed_units, 5000) << condition;
  }
}

// Isardam type A's check (Isardam::gives_check, asked of a board edit with own walks and
// ordinary units) against the capture of the king made on a copy of the position and the
// pairs of the position after it (paralysed_bb), on random boards that may hold pairs
// before the capture; pawns promoting by the capture included.
TEST(PairTests, TypeACheckOnTheBoardAgreesWithTheCaptureMade) {
  for (const char* condition : {"isardam", "isardam-ri", "leffie"}) {
    const ParalysisRelation relation = relation_of(condition);
    const Isardam<IsardamCheck::TypeA> isardam{relation, {}};
    std::mt19937 rng(20261129);
    int asked = 0, checking = 0;
    for (const char* units : {"KQRkq", "KQkqQq", "KRBkrb", "KPPkrn", "KQRBNkqrbn", "KPkpP"}) {
      for (int b = 0; b < 400; ++b) {
        Position pos = test::random_board(rng, units);
        for (Color them : {WHITE, BLACK}) {
          const Square king = pos.king_square(~them);
          pos.set_side_to_move(them);
          const BoardEdit board(pos);
          for (Bitboard attackers = ParalysisRelation::attackers_bb(board, king, them); attackers;) {
            const Square s = pop_lsb(attackers);
            const Piece unit = pos.piece_on(s);
            if (unit.type() == PAWN && relative_rank(them, s) == 0) continue;  // captures nothing (SPEC 2)
            const bool promotes = unit.type() == PAWN && relative_rank(them, king) == 7;
            bool leaves_no_pair = false;
            for (PieceType promotion : {QUEEN, ROOK, BISHOP, KNIGHT, NO_PIECE_TYPE}) {
              if (promotes == (promotion == NO_PIECE_TYPE)) continue;
              Position after = pos;
              UndoRecord undo;
              after.do_move(Move(s, king, MoveKind::NORMAL, promotion), undo);
              leaves_no_pair = leaves_no_pair || !relation.paralysed_bb(after, OwnWalk{});
            }
            ASSERT_EQ(isardam.gives_check(pos, s, king, OwnWalk{}), leaves_no_pair)
                << condition << " " << to_fen(pos) << " " << square_name(s) << "x" << square_name(king);
            ++asked;
            checking += leaves_no_pair;
          }
        }
      }
    }
    // Both answers must occur, else the comparison proves nothing.
    EXPECT_GT(checking, 100) << condition;
    EXPECT_GT(asked - checking, 100) << condition;
  }
}

}  // namespace
}  // namespace feerie

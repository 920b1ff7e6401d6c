// Perft under Annan and Nanna, cross-checked: no other program is at hand, so each count
// is computed twice, by the engine and by a slow reference written here from SPEC 3.4
// alone. The reference never asks the condition which walk a unit uses: it finds the
// lender itself and puts a "shadow" unit of the lender's type on the unit's square,
// then plays the shadow's orthodox walk on that board and maps the result back
// (promotion only for a real pawn, however it moved; none for a non-pawn moving as a
// pawn). Check is the orthodox check of a shadow board where every enemy unit is
// replaced by its shadow and enemy pawns on their first rank are removed. The recorded
// counts pin both.
#include "rules/walks.h"
#include "tests/test_util.h"

namespace feerie {
namespace {

struct Reference {
  bool nanna = false;
  bool kings_lend = true;
  bool kings_borrow = true;

  // The type whose walk the unit on s uses.
  PieceType shadow_type(const Position& pos, Square s) const {
    Piece unit = pos.piece_on(s);
    if (unit.type() == KING && !kings_borrow) return KING;
    // Annan: the lender is behind (south of White); Nanna: in front.
    int dr = (unit.color() == WHITE) == nanna ? 1 : -1;
    int r = rank_of(s) + dr;
    if (r < 0 || r > 7) return unit.type();
    Piece lender = pos.piece_on(make_square(file_of(s), r));
    if (lender.empty() || lender.color() != unit.color()) return unit.type();
    if (lender.type() == KING && !kings_lend) return unit.type();
    return lender.type();
  }

  bool in_check(const Position& pos, Color c) const {
    Position shadow;
    shadow.set_side_to_move(pos.side_to_move());
    for (Bitboard b = pos.pieces(); b;) {
      Square s = pop_lsb(b);
      Piece unit = pos.piece_on(s);
      if (unit.color() == c) {
        shadow.put_piece(unit, s);
      } else if (!(shadow_type(pos, s) == PAWN && (relative_rank(unit.color(), s) % 7 == 0))) {
        shadow.put_piece(Piece(unit.color(), shadow_type(pos, s)), s);
      } else {
        // The pawn walk gives no check from its first or last rank (a pawn there without a
        // lender, or lent a pawn's walk), but the unit still blocks lines: a friendly
        // blocker of the checked side stands in for it (it attacks nothing of c).
        shadow.put_piece(Piece(c, KNIGHT), s);
      }
    }
    return king_in_check(shadow, c, OrthodoxRules{});
  }

  void legal_moves(const Position& pos, std::vector<Move>& out) const {
    Color us = pos.side_to_move();
    for (Bitboard units = pos.pieces(us); units;) {
      Square s = pop_lsb(units);
      Piece unit = pos.piece_on(s);
      PieceType walk = shadow_type(pos, s);
      // The pawn walk has no move from the first rank (the reference solver's base rank)
      // and none from the last; with another lender a pawn there moves like any unit.
      if (walk == PAWN && relative_rank(us, s) % 7 == 0) continue;
      Position shadow = pos;
      shadow.replace_piece(s, Piece(us, walk));
      MoveList moves;
      add_walk_moves(shadow, s, walk, pos.pieces(~us) & ~pos.pieces(KING), moves);
      for (Move m : moves) {
        bool last_rank = relative_rank(us, m.to()) == 7;
        MoveKind kind = m.kind();
        // Only a real pawn's double step is one.
        if (kind == MoveKind::DOUBLE_STEP && unit.type() != PAWN) kind = MoveKind::NORMAL;
        if (unit.type() == PAWN && last_rank) {
          if (walk == PAWN) {
            if (m.promotion() != NO_PIECE_TYPE) out.push_back(m);  // the pawn walk promotes itself
          } else {
            for (PieceType pt : {QUEEN, ROOK, BISHOP, KNIGHT, GRASSHOPPER, LOCUST})
              if (pt <= QUEEN || pos.pieces(pt)) out.push_back(Move(m.from(), m.to(), kind, pt));
          }
        } else if (m.promotion() == NO_PIECE_TYPE) {
          out.push_back(Move(m.from(), m.to(), kind));
        } else if (m.promotion() == QUEEN) {
          out.push_back(Move(m.from(), m.to(), kind));  // a shadow pawn: one move, no promotion
        }
      }
    }
    std::vector<Move> legal;
    for (Move m : out) {
      Position next = pos;
      UndoRecord undo;
      next.do_move(m, undo);
      if (!in_check(next, us)) legal.push_back(m);
    }
    out = legal;
  }

  std::uint64_t perft(const Position& pos, int depth) const {
    if (depth == 0) return 1;
    std::vector<Move> moves;
    legal_moves(pos, moves);
    std::uint64_t nodes = 0;
    for (Move m : moves) {
      Position next = pos;
      UndoRecord undo;
      next.do_move(m, undo);
      nodes += depth == 1 ? 1 : perft(next, depth - 1);
    }
    return nodes;
  }
};

Reference reference_for(const std::string& condition) {
  Reference r;
  r.nanna = condition.rfind("nanna", 0) == 0;
  char type = condition.size() > 6 ? condition.back() : 'a';
  r.kings_lend = type == 'a' || type == 'c';
  r.kings_borrow = type == 'a' || type == 'b';
  return r;
}

using Case = test::PerftCase;

class AnnanPerft : public ::testing::TestWithParam<Case> {};

TEST_P(AnnanPerft, EngineAgreesWithReferenceAndRecordedCount) {
  const char* condition = GetParam().condition;
  test::expect_perft(GetParam(), [&](const RuleSet&, const Position& pos, int depth) {
    return reference_for(condition).perft(pos, depth);
  });
}

// Counts recorded after engine and reference agreed (docs/conditions/annan.md).
INSTANTIATE_TEST_SUITE_P(
    Recorded, AnnanPerft,
    ::testing::Values(Case{"annan", "4k3/4p3/8/8/3K4/R2R4/B7/8 w - - 0 1", 3, 7606},
                      Case{"annan", "8/8/8/8/R7/1K5k/R7/8 w - - 0 1", 4, 6478},
                      Case{"annan", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", 4, 4333038},
                      Case{"annan", "4k3/1p1p4/2P1P3/8/3pN3/4P3/1P6/4K3 b - - 0 1", 4, 20382},
                      Case{"annan", "4k3/3p4/8/2P1N3/2R1P3/8/8/4K3 b - - 0 1", 4, 18140},  // knight e5 takes en passant
                      Case{"annan", "4k3/8/8/8/2p5/8/1N6/1P2K3 w - - 0 1", 4, 2945},  // knight b2-b4: no en passant
                      Case{"annan-b", "r3k2r/ppp2ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPP2PPP/R3K2R w - - 0 1", 3, 42644},
                      Case{"annan-c", "8/3k4/3r4/8/8/3R4/3K4/8 w - - 0 1", 4, 28223},
                      Case{"annan-d", "8/3k4/3r4/8/8/3R4/3K4/8 w - - 0 1", 4, 17754},
                      Case{"nanna", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", 4, 67243},
                      Case{"nanna", "4k3/8/8/8/3pN3/8/1P6/1NR1K3 w - - 0 1", 4, 17612},
                      Case{"nanna-b", "8/8/2k5/2r5/8/8/2R5/2K5 w - - 0 1", 4, 21945},
                      // Pawns on their first and last ranks, lent walks: they move, capture, check and
                      // promote by the lent walk (SPEC 3.4, issue 26).
                      Case{"annan", "7P/7R/8/8/8/k7/p7/4K3 w - - 0 1", 4, 108653},
                      Case{"nanna", "2p1k3/2r5/8/8/8/8/7R/4K2P b - - 0 1", 4, 109920}));

}  // namespace
}  // namespace feerie

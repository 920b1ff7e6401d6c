// The retro/forward property test (SPEC 5): for sampled positions, the predecessors found
// by un-move generation equal those found by brute force: every position that differs by
// one unit of the side that just moved (on any other empty square, with or without an
// en-passant square), kept when the forward generator plays a legal move from it to the
// position.
#include <random>
#include <set>

#include "probe/indexer.h"
#include "rules/retro.h"
#include "tests/rules/edge_pawn_positions.h"
#include "tests/test_util.h"

namespace feerie {
namespace {

// The types an ordinary unit may have had before a move, for the brute force: any type of
// the mutation chain (and the fairy types when the material has them). Without magic
// units nothing changes type without a capture or promotion, so only the type it has.
std::vector<PieceType> brute_force_types(const Position& pos, Piece unit) {
  if (!pos.magic_pieces() || unit.type() == KING) return {unit.type()};
  std::vector<PieceType> types{PAWN, KNIGHT, BISHOP, ROOK, QUEEN};
  for (PieceType fairy : {GRASSHOPPER, LOCUST})
    if (pos.pieces(fairy)) types.push_back(fairy);
  if (unit.magic() && unit.type() != PAWN) return {unit.type(), PAWN};  // a magic pawn may have promoted
  return types;
}

std::set<std::string> brute_force_predecessors(const Position& pos, const RuleSet& rules) {
  std::set<std::string> out;
  Color mover = ~pos.side_to_move();
  // With magic units, every other ordinary unit may have had any type before the move
  // (mutations): all assignments are tried.
  std::vector<Square> others;
  for (Bitboard b = pos.pieces() & ~pos.magic_pieces() & ~pos.pieces(KING); b;) others.push_back(pop_lsb(b));
  for (Bitboard units = pos.pieces(mover); units;) {
    Square to = pop_lsb(units);
    Piece unit = pos.piece_on(to);
    std::vector<Square> rest;
    for (Square o : others)
      if (o != to && pos.magic_pieces()) rest.push_back(o);
    for (int f = 0; f < 64; ++f) {
      if (!pos.empty(Square(f))) continue;
      for (PieceType identity : brute_force_types(pos, unit)) {
        std::vector<std::size_t> digit(rest.size(), 0);
        for (;;) {
          Position before = pos;
          before.set_ep_square(SQ_NONE);
          before.remove_piece(to);
          before.put_piece(Piece(unit.color(), identity, unit.magic()), Square(f));
          for (std::size_t k = 0; k < rest.size(); ++k) {
            Piece o = pos.piece_on(rest[k]);
            before.replace_piece(rest[k], Piece(o.color(), brute_force_types(pos, o)[digit[k]]));
          }
          before.set_side_to_move(mover);
          std::vector<Position> variants{before};
          for (int e = 0; e < 64; ++e) {
            Position v = before;
            v.set_ep_square(Square(e));
            Color other = pos.side_to_move();
            Square pawn = Square(e + pawn_push(other));
            if (relative_rank(other, Square(e)) != 2 || v.piece_on(pawn) != Piece(other, PAWN) || !v.empty(Square(e)) ||
                !v.empty(Square(e - pawn_push(other))) || !ep_square_usable(v, rules) || !ep_square_possible(v, rules))
              continue;
            variants.push_back(v);
          }
          for (const Position& q : variants) {
            if (!is_legal_position(q, rules)) continue;
            for (const MoveResult& r : legal_moves_with_results(q, rules)) {
              // Captures always leave the material; promotions too unless mutations
              // may bring it back (magic units on the board).
              bool capture = r.after.piece_count() < q.piece_count();
              if (capture || (r.move.promotion() != NO_PIECE_TYPE && !pos.magic_pieces())) continue;
              if (r.after == pos) out.insert(to_fen(q));
            }
          }
          std::size_t k = 0;
          while (k < rest.size() && ++digit[k] >= brute_force_types(pos, pos.piece_on(rest[k])).size()) digit[k++] = 0;
          if (k == rest.size()) break;
        }
      }
    }
  }
  return out;
}

std::set<std::string> retro_predecessors(const Position& pos, const RuleSet& rules) {
  std::set<std::string> out;
  rules.visit([&](const auto& r) {
    for_each_predecessor(pos, r, [&](const Position& q, Square, Square) {
      bool fresh = out.insert(to_fen(q)).second;
      EXPECT_TRUE(fresh) << "predecessor reported twice: " << to_fen(q);
    });
  });
  return out;
}

// The solver's fast path (for_each_simple_unmove, each un-move with its en-passant
// variants) gives the predecessors that for_each_predecessor<false> gives, where it
// applies: the same positions. Returns how many of them carry an en-passant square.
int expect_fast_unmoves_agree(const Position& pos, const RuleSet& rules) {
  int with_en_passant = 0;
  rules.visit([&](const auto& r) {
    if (!simple_unmoves_suffice(pos, r)) return;
    std::multiset<std::string> fast, general;
    Position before = pos;
    before.set_side_to_move(~pos.side_to_move());
    const Bitboard double_steps = double_step_pawns_before(pos, r);
    for_each_simple_unmove(pos, r, before, [&](Piece unit, Square to, Bitboard origins) {
      EXPECT_EQ(pos.piece_on(to), unit);
      while (origins) {
        const Square from = pop_lsb(origins);
        before.move_piece(to, from);
        fast.insert(to_fen(before));
        for_each_en_passant_variant(before, r, double_steps, [&] {
          fast.insert(to_fen(before));
          ++with_en_passant;
        });
        before.move_piece(from, to);
      }
    });
    for_each_predecessor<false>(pos, r, [&](const Position& q, Square, Square) { general.insert(to_fen(q)); });
    EXPECT_EQ(fast, general) << rules.name() << " " << to_fen(pos);
    Position untouched = pos;
    untouched.set_side_to_move(~pos.side_to_move());
    EXPECT_EQ(to_fen(before), to_fen(untouched)) << "the working copy was not left as it was";
  });
  return with_en_passant;
}

void check_material(const char* name, int samples, const RuleSet& rules = RuleSet::orthodox()) {
  Indexer indexer(*Material::parse(name), rules);
  std::mt19937_64 rng(12345);
  int checked = 0, with_predecessors = 0;
  for (int n = 0; checked < samples && n < samples * 50; ++n) {
    // Half the samples from the en-passant region when there is one.
    std::uint64_t i = rng() % indexer.size();
    if (n % 2 && indexer.size() > indexer.base_size())
      i = indexer.base_size() + rng() % (indexer.size() - indexer.base_size());
    Position pos;
    if (!indexer.decode(i, Color(n & 1), pos) || !is_legal_position(pos, rules)) continue;
    ++checked;
    std::set<std::string> expected = brute_force_predecessors(pos, rules);
    with_predecessors += !expected.empty();
    EXPECT_EQ(retro_predecessors(pos, rules), expected) << name << " " << to_fen(pos);
    expect_fast_unmoves_agree(pos, rules);
  }
  EXPECT_EQ(checked, samples);
  EXPECT_GT(with_predecessors, samples / 4);
}

TEST(RetroProperty, KRvK) { check_material("KRvK", 300); }
TEST(RetroProperty, KQvKR) { check_material("KQvKR", 200); }
TEST(RetroProperty, KBNvK) { check_material("KBNvK", 200); }
TEST(RetroProperty, KPvK) { check_material("KPvK", 300); }
TEST(RetroProperty, KPvKPWithEnPassant) { check_material("KPvKP", 400); }
TEST(RetroProperty, KPPvKP) { check_material("KPPvKP", 200); }
TEST(RetroProperty, KGvKL) { check_material("KGvKL", 200); }
TEST(RetroProperty, KGPvKP) { check_material("KGPvKP", 200); }

}  // namespace
}  // namespace feerie

namespace feerie {
namespace {

RuleSet condition(const char* name) { return test::rules(name); }

TEST(RetroPropertyParalysis, Madrasi) {
  check_material("KRvKR", 150, condition("madrasi"));
  check_material("KPvKP", 200, condition("madrasi"));
}
TEST(RetroPropertyParalysis, MadrasiRexInclusive) {
  check_material("KQvK", 200, condition("madrasi-ri"));
  check_material("KNvKN", 150, condition("madrasi-ri"));
}
TEST(RetroPropertyParalysis, Isardam) {
  check_material("KRvKR", 150, condition("isardam"));
  check_material("KPvKP", 200, condition("isardam-b-ri"));
}
TEST(RetroPropertyParalysis, EiffelAndVariants) {
  check_material("KQvKR", 150, condition("eiffel"));
  check_material("KNvKP", 150, condition("eiffel"));
  check_material("KQvKR", 100, condition("eiffel:kq,qr,rk"));
}
TEST(RetroPropertyParalysis, Leffie) { check_material("KBvKR", 150, condition("leffie")); }
TEST(RetroPropertyParalysis, GrasshopperAndLocust) {
  check_material("KGvKG", 150, condition("madrasi"));
  check_material("KLvKL", 150, condition("madrasi-ri"));
}

}  // namespace
}  // namespace feerie

namespace feerie {
namespace {

// Annan (SPEC 3.4): a unit's walk depends on the unit behind it, so retro moves try every
// walk a friendly unit could have lent and keep those the forward rules confirm.
TEST(RetroPropertyAnnan, TypeA) {
  check_material("KRvK", 200, condition("annan"));
  check_material("KPvKP", 300, condition("annan"));
  check_material("KRPvKP", 150, condition("annan"));
}
// Hand-picked borrowed-walk un-moves: a knight that came from b2 as a pawn (lender b1),
// a pawn that came from a2 as a rook (lender a1: an ordinary move, so no en-passant
// square follows it even with a black pawn ready on b4).
TEST(RetroPropertyAnnan, BorrowedWalksByHand) {
  RuleSet annan = condition("annan");
  auto expect_same = [&](const char* fen) {
    Position pos = test::position(fen);
    std::set<std::string> expected = brute_force_predecessors(pos, annan);
    EXPECT_EQ(retro_predecessors(pos, annan), expected) << fen;
    return expected;
  };
  EXPECT_TRUE(expect_same("K6k/8/8/8/1N6/8/8/1P6 b - - 0 1").count("K6k/8/8/8/8/8/1N6/1P6 w - - 0 1"));
  EXPECT_TRUE(expect_same("4k3/8/8/8/Pp6/8/8/R6K b - - 0 1").count("4k3/8/8/8/1p6/8/P7/R6K w - - 0 1"));
  EXPECT_TRUE(expect_same("4k3/8/8/8/Pp6/8/8/R6K b - a3 0 1").empty());
  EXPECT_EQ(expect_same("4k3/8/8/8/Pp6/8/8/7K b - a3 0 1").size(), 1u);  // the double step a2-a4
}

TEST(RetroPropertyAnnan, TypesBCD) {
  check_material("KQvKR", 150, condition("annan-b"));
  check_material("KRPvK", 150, condition("annan-c"));
  check_material("KPvKN", 150, condition("annan-d"));
}
TEST(RetroPropertyAnnan, Nanna) {
  check_material("KPvKP", 300, condition("nanna"));
  check_material("KRBvK", 150, condition("nanna"));
  check_material("KNPvKP", 150, condition("nanna-b"));
}

// Face-to-face and Back-to-back: the walk comes from an enemy unit, so a quiet move may
// change the walk of the unit it leaves or of the one it comes to face.
TEST(RetroPropertyConfrontation, FaceToFaceAndBackToBack) {
  check_material("KRvKN", 200, condition("face-to-face"));
  check_material("KPvKP", 300, condition("face-to-face"));
  check_material("KQvKR", 150, condition("back-to-back"));
  check_material("KRPvKP", 150, condition("back-to-back"));
}
TEST(RetroPropertyConfrontation, CombinedWithParalysis) {
  check_material("KRvKR", 150, condition("madrasi-ri+face-to-face"));
  check_material("KQvKQ", 150, condition("isardam+back-to-back"));
}

// Samples `samples` positions of `name` under `condition_name` (seeded), compares the fast
// un-moves with the general ones on each, and calls f(rules, unit, to, from, walk) for each
// fast un-move, `walk` the one the unit used on `from`; returns how many positions the fast
// path applied to, and counts in `en_passant` (when given) the predecessors with an
// en-passant square among them.
template <class F>
int for_each_sampled_fast_unmove(const char* name, const char* condition_name, std::uint64_t seed, int samples, F&& f,
                                 int* en_passant = nullptr) {
  const RuleSet rules = condition(condition_name);
  Indexer indexer(*Material::parse(name), rules);
  std::mt19937_64 rng(seed);
  int applied = 0;
  for (int n = 0; n < samples; ++n) {
    Position pos;
    if (!indexer.decode(rng() % indexer.base_size(), Color(n & 1), pos) || !is_legal_position(pos, rules)) continue;
    const int variants = expect_fast_unmoves_agree(pos, rules);
    if (en_passant) *en_passant += variants;
    rules.visit([&](const auto& r) {
      if (!simple_unmoves_suffice(pos, r)) return;
      ++applied;
      Position before = pos;
      before.set_side_to_move(~pos.side_to_move());
      for_each_simple_unmove(pos, r, before, [&](Piece unit, Square to, Bitboard origins) {
        while (origins) {
          const Square from = pop_lsb(origins);
          Position moved = before;
          moved.move_piece(to, from);
          f(unit, to, from, r.walk_of(moved, from));
        }
      });
    });
  }
  return applied;
}

// The solver's fast un-moves under borrowed walks (for_each_walk_region): many sampled
// positions of materials with several lenders or confronters, compared with the general
// un-moves, and a count of the un-moves made by a borrowed walk, so that the test cannot
// pass without lending happening.
void check_fast_unmoves_where_units_borrow(const char* name, const char* condition_name) {
  int borrowed = 0;
  const int applied = for_each_sampled_fast_unmove(
      name, condition_name, 2026, 4000,
      [&](Piece unit, Square, Square, PieceType walk) { borrowed += walk != unit.type(); });
  EXPECT_GT(applied, 2000) << name << " " << condition_name;
  EXPECT_GT(borrowed, 100) << name << " " << condition_name;
}
// The fast un-moves by the pawn walk (a real pawn's or one lent to another unit): sampled
// positions of materials with pawns, compared with the general un-moves, counting the
// un-moves by the pawn walk and the double steps among them so that the test cannot pass
// without them.
void check_fast_unmoves_of_pawns(const char* name, const char* condition_name, bool pawns_move_back = true) {
  int pawn_walk = 0, double_steps = 0;
  const int applied = for_each_sampled_fast_unmove(
      name, condition_name, 2027, 6000, [&](Piece unit, Square to, Square from, PieceType walk) {
        if (walk != PAWN) return;
        ++pawn_walk;
        double_steps += unit.type() == PAWN && std::abs(int(to) - int(from)) == 16;
      });
  EXPECT_GT(applied, 1000) << name << " " << condition_name;
  if (!pawns_move_back) return;
  EXPECT_GT(pawn_walk, 200) << name << " " << condition_name;
  EXPECT_GT(double_steps, 10) << name << " " << condition_name;
}
TEST(RetroProperty, FastUnmovesOfPawnsAgree) {
  for (const char* c : {"orthodox", "madrasi", "madrasi-ri", "isardam", "eiffel", "leffie"})
    check_fast_unmoves_of_pawns("KRPvKN", c);
  for (const char* c :
       {"annan", "annan-c", "nanna", "nanna-b", "face-to-face", "back-to-back", "madrasi-ri+annan", "isardam+nanna"})
    check_fast_unmoves_of_pawns("KPPvKR", c);
  // The side to move with a pawn and the side that moved last without one (and lending
  // only to friends): no pawn walk moves back there.
  for (const char* c : {"orthodox", "madrasi-ri", "annan"}) check_fast_unmoves_of_pawns("KRvKPP", c, false);
}

// Pawns on both sides: a predecessor may carry an en-passant square (the side to move has
// just made a double step that the side that moved last could answer en passant). The
// fast un-moves with their en-passant variants equal the general predecessors, counted so
// that the test cannot pass without such variants.
TEST(RetroProperty, FastUnmovesWithEnPassantVariantsAgree) {
  for (const char* c : {"orthodox", "madrasi", "madrasi-ri", "isardam", "eiffel", "leffie", "annan", "annan-c", "nanna",
                        "face-to-face", "back-to-back", "madrasi-ri+annan", "isardam+nanna"}) {
    for (const char* name : {"KPvKP", "KRPvKP", "KPPvKP"}) {
      int en_passant = 0;
      const int applied = for_each_sampled_fast_unmove(
          name, c, 2028, 6000, [](Piece, Square, Square, PieceType) {}, &en_passant);
      EXPECT_GT(applied, 1000) << name << " " << c;
      EXPECT_GT(en_passant, 5) << name << " " << c;
    }
  }
}

// A real pawn's double step leads to the position as it stands only when its en-passant
// square could not be used. Face-to-face: the black rook e4 faced by the white pawn e3
// moves as a black pawn and could take on d3, so d2-d4 is no un-move of this position
// (it leads to the position with the en-passant square d3); with the pawn on e2 instead,
// the rook keeps its own walk and d2-d4 is one.
TEST(RetroProperty, FastUnmovesKeepADoubleStepOnlyWithoutAUsableEnPassantSquare) {
  const RuleSet rules = condition("face-to-face");
  auto fast_origins_of = [&](const char* fen, Square to) {
    const Position pos = test::position(fen);
    expect_fast_unmoves_agree(pos, rules);
    Bitboard found = 0;
    rules.visit([&](const auto& r) {
      ASSERT_TRUE(simple_unmoves_suffice(pos, r)) << fen;
      Position before = pos;
      before.set_side_to_move(~pos.side_to_move());
      for_each_simple_unmove(pos, r, before, [&](Piece, Square t, Bitboard origins) {
        if (t == to) found = origins;
      });
    });
    return found;
  };
  EXPECT_EQ(fast_origins_of("k7/8/8/8/3Pr3/4P3/8/7K b - - 0 1", SQ_D4), square_bb(SQ_D3));
  EXPECT_EQ(fast_origins_of("k7/8/8/8/3Pr3/8/4P3/7K b - - 0 1", SQ_D4), square_bb(SQ_D3) | square_bb(SQ_D2));
}

TEST(RetroPropertyBorrowedWalks, FastUnmovesAgree) {
  for (const char* c : {"annan", "annan-b", "annan-c", "annan-d", "nanna", "face-to-face", "back-to-back"})
    check_fast_unmoves_where_units_borrow("KRBvKN", c);
  for (const char* c : {"madrasi+annan", "madrasi-ri+annan", "isardam+nanna", "eiffel+annan-d", "leffie+annan",
                        "madrasi-ri+face-to-face", "isardam-b-ri+nanna-c"})
    check_fast_unmoves_where_units_borrow("KQRvKB", c);
}

}  // namespace
}  // namespace feerie

namespace feerie {
namespace {

// Magic units (SPEC 3.5): the moved unit may have mutated on arrival or promoted first,
// and a magic mover changes the units it touches; predecessors may belong to other
// materials. The brute force tries every type for every ordinary unit.
TEST(RetroPropertyMagic, WhiteMagicRookBlackPawn) { check_material("KmRvKP", 150); }
TEST(RetroPropertyMagic, MutationsOfBothColours) { check_material("KmBNvKN", 60); }
TEST(RetroPropertyMagic, PromotionThenMutation) { check_material("KNvKmQP", 60); }
TEST(RetroPropertyMagic, MagicPawn) { check_material("KmPvKR", 150); }
TEST(RetroPropertyMagic, MagicUnitsOnly) { check_material("KmRvKmN", 100); }
TEST(RetroPropertyMagic, MagicGrasshopperEndsTheChain) { check_material("KmGvKQ", 100); }
TEST(RetroPropertyMagic, UnderMadrasiRexInclusive) { check_material("KmRvKR", 80, condition("madrasi-ri")); }
TEST(RetroPropertyMagic, UnderAnnan) { check_material("KmRPvKN", 60, condition("annan")); }

}  // namespace
}  // namespace feerie

namespace feerie {
namespace {

// Combinations (SPEC 3.6): paralysis decided by borrowed walks, so a move can paralyse or
// free units through the lender behind them; every family of paralysis with Annan or
// Nanna, kings inside the relation, Isardam's check types, and magic units under one.
TEST(RetroPropertyCombination, MadrasiWithAnnan) {
  check_material("KRBvK", 120, condition("madrasi+annan"));
  check_material("KRvKB", 150, condition("madrasi+annan"));
  check_material("KPvKP", 200, condition("madrasi+annan"));
}
TEST(RetroPropertyCombination, MadrasiRexInclusiveWithAnnan) {
  check_material("KQvK", 200, condition("madrasi-ri+annan"));
  check_material("KRvKR", 120, condition("madrasi-ri+annan-b"));
}
TEST(RetroPropertyCombination, IsardamWithNanna) {
  check_material("KRvKR", 120, condition("isardam+nanna"));
  check_material("KBvKN", 120, condition("isardam-b-ri+nanna-c"));
}
TEST(RetroPropertyCombination, EiffelAndLeffieWithAnnan) {
  check_material("KQvKR", 100, condition("eiffel+annan-d"));
  check_material("KBvKR", 120, condition("leffie+annan"));
}
TEST(RetroPropertyCombination, MagicUnitsUnderMadrasiRexInclusiveWithAnnan) {
  check_material("KmRvKR", 60, condition("madrasi-ri+annan"));
}

}  // namespace
}  // namespace feerie

namespace feerie {
namespace {

// Pawns on their first or last rank with lenders (SPEC 3.4, issue 26): they leave those
// ranks by a lent walk and arrive on them by one, so un-moves start and end there too.
// Random positions of test::random_edge_pawn_position, kings and a few units beside.
void check_edge_pawn_positions(const char* name, int samples) {
  RuleSet rules = test::rules(name);
  const bool nanna = test::annan_walk(rules).lender_in_front;
  std::mt19937_64 rng(2611);
  int checked = 0, from_edge = 0;
  for (int n = 0; checked < samples && n < samples * 50; ++n) {
    Position pos = test::random_edge_pawn_position(rng, nanna);
    // Half the samples with an edge pawn moved off its rank by its lent walk (either side
    // to move): the position after one of its moves, whose predecessors include the edge
    // square.
    if (n % 2) {
      std::vector<MoveResult> moves;
      for (Color side : {WHITE, BLACK}) {
        pos.set_side_to_move(side);
        if (!is_legal_position(pos, rules)) continue;
        for (const MoveResult& m : legal_moves_with_results(pos, rules))
          if (pos.piece_on(m.move.from()).type() == PAWN && relative_rank(side, m.move.from()) % 7 == 0 &&
              m.move.promotion() == NO_PIECE_TYPE && m.after.piece_count() == pos.piece_count())
            moves.push_back(m);
      }
      if (moves.empty()) continue;
      pos = moves[rng() % moves.size()].after;
      ++from_edge;
    }
    if (!is_legal_position(pos, rules)) continue;
    ++checked;
    EXPECT_EQ(retro_predecessors(pos, rules), brute_force_predecessors(pos, rules)) << name << " " << to_fen(pos);
  }
  EXPECT_EQ(checked, samples) << name;
  EXPECT_GT(from_edge, samples / 4) << name;
}

TEST(RetroPropertyAnnan, PawnsOnFirstAndLastRanksWithLenders) {
  for (const char* name : {"annan", "annan-c", "nanna", "nanna-b", "madrasi-ri+annan", "isardam+nanna"})
    check_edge_pawn_positions(name, 150);
}

}  // namespace
}  // namespace feerie

#include "probe/indexer.h"

#include <random>
#include <set>

#include "probe/header_check.h"
#include "rules/movegen.h"
#include "tests/test_util.h"

namespace feerie {
namespace {

Indexer make_indexer(const char* material, const RuleSet& rules = RuleSet::orthodox()) {
  return Indexer(*Material::parse(material), rules);
}

// Every entry that decodes to a position indexes back to itself.
void expect_round_trip(const Indexer& indexer, std::uint64_t stride) {
  std::uint64_t positions = 0;
  for (std::uint64_t i = 0; i < indexer.size(); i += stride)
    for (Color c : {WHITE, BLACK}) {
      Position pos;
      if (!indexer.decode(i, c, pos)) continue;
      ++positions;
      ASSERT_EQ(indexer.index(pos), i) << to_fen(pos);
      ASSERT_EQ(Material::of(pos), indexer.material());
    }
  EXPECT_GT(positions, 0u);
}

TEST(Indexer, SizesFollowTheDocumentedFormula) {
  EXPECT_EQ(make_indexer("KvK").size(), 462u);
  EXPECT_EQ(make_indexer("KQvKR").size(), 462u * 64 * 64);
  EXPECT_EQ(make_indexer("KRRvK").size(), 462u * 2016);  // C(64, 2) = 2016
  // With pawns: the white king on files a-d, the black king anywhere not touching it.
  Indexer kpk = make_indexer("KPvK");
  EXPECT_EQ(kpk.size() % 64, 0u);
  EXPECT_EQ(kpk.symmetry_count(), 2);
  // Pawns on both sides: the en-passant region, 8 files times the units without the pawn
  // that made the double step, for the side to move whose region is larger.
  Indexer kpkp = make_indexer("KPvKP");
  EXPECT_EQ(kpkp.base_size(), 1806u * 64 * 64);
  EXPECT_EQ(kpkp.size(), kpkp.base_size() + 1806u * 8 * 64);
  EXPECT_EQ(kpkp.layout(), "kk1806/sym2/wP1/bP1/epfile");
  Indexer kppkp = make_indexer("KPPvKP");
  EXPECT_EQ(kppkp.base_size(), 1806u * 2016 * 64);
  // Black to move: one of White's two pawns leaves its group (C(64, 1) for the other).
  EXPECT_EQ(kppkp.size(), kppkp.base_size() + 1806u * 8 * 64 * 64);
  EXPECT_DOUBLE_EQ(kppkp.ep_region_share(), 8.0 * 2 / 63);
  EXPECT_EQ(make_indexer("KRPvKR").layout(), "kk1806/sym2/wR1/wP1/bR1/ep0");
  EXPECT_EQ(make_indexer("KRPvKR").size(), make_indexer("KRPvKR").base_size());
}

TEST(Indexer, WorkedExampleOfTheHeaderComment) {
  Indexer indexer = make_indexer("KQvKR");
  Position pos = test::position("8/8/1r2k3/8/3Q4/8/2K5/8 w - - 0 1");
  std::uint64_t i = indexer.index(pos);
  EXPECT_EQ(i % 64, 41u);         // rook b6
  EXPECT_EQ((i / 64) % 64, 27u);  // queen d4
  EXPECT_EQ(i, 1115881u);         // king pair 272 (c2, e6): docs/format.md, "Index of a position"
  EXPECT_EQ(indexer.layout(), "kk462/sym8/wQ1/bR1/ep0");
}

// The king pairs of a pawn table by their images under the whole group
// (Indexer::king_pair_runs_by_full_images, the initialisation's order of gen/solver.cpp):
// each pair's entries once, and the pairs of one image together, that image found
// independently as the king pair of a pawnless table's index. A pawnless table keeps
// index order; pawns of both colours add the en-passant region as one last run.
TEST(Indexer, KingPairRunsByFullImagesGroupThePairsOfOnePawnlessKingPair) {
  for (const RuleSet& rules : {RuleSet::orthodox(), *RuleSet::parse("madrasi-ri")}) {
    const Indexer pawns = make_indexer("KRPvKR", rules), pawnless = make_indexer("KQvK", rules);
    const std::vector<Indexer::Run> runs = pawns.king_pair_runs_by_full_images();
    ASSERT_EQ(runs.size(), pawns.king_pair_count());
    std::vector<bool> seen(runs.size(), false);
    std::set<std::uint64_t> images_done;
    std::uint64_t current = ~std::uint64_t(0);
    for (const Indexer::Run& r : runs) {
      ASSERT_EQ(r.count, pawns.pair_span());
      const std::uint64_t run = r.first;
      ASSERT_EQ(run % pawns.pair_span(), 0u);
      const std::uint64_t pair = run / pawns.pair_span();
      ASSERT_LT(pair, runs.size());
      EXPECT_FALSE(seen[pair]) << "pair " << pair << " twice";
      seen[pair] = true;
      // The pair's kings: the first entry of the pair that is a position.
      Position pos;
      std::uint64_t i = run;
      while (!pawns.decode(i, WHITE, pos)) ++i;
      ASSERT_LT(i, run + pawns.pair_span());
      Position kings;
      kings.put_piece(Piece(WHITE, KING), pos.king_square(WHITE));
      kings.put_piece(Piece(BLACK, KING), pos.king_square(BLACK));
      kings.put_piece(Piece(WHITE, QUEEN), lsb(~kings.pieces()));
      const std::uint64_t image = pawnless.index(kings) / 64;  // the pawnless king pair
      if (image != current) {
        EXPECT_TRUE(images_done.insert(image).second) << "the pairs of pawnless pair " << image << " apart";
        current = image;
      }
    }
    const Indexer kqkr = make_indexer("KQvKR", rules);
    const std::vector<Indexer::Run> pawnless_runs = kqkr.king_pair_runs_by_full_images();
    ASSERT_EQ(pawnless_runs.size(), kqkr.king_pair_count());
    for (std::uint64_t k = 0; k < pawnless_runs.size(); ++k)
      ASSERT_EQ(pawnless_runs[k], (Indexer::Run{k * kqkr.pair_span(), kqkr.pair_span()}));
  }
  const Indexer both = make_indexer("KPvKP");  // the en-passant region after the pairs
  const std::vector<Indexer::Run> runs = both.king_pair_runs_by_full_images();
  ASSERT_EQ(runs.size(), both.king_pair_count() + 1);
  EXPECT_EQ(runs.back(), (Indexer::Run{both.base_size(), both.size() - both.base_size()}));
  EXPECT_EQ(make_indexer("KRPvKR").king_pair_runs_by_full_images().size(), make_indexer("KRPvKR").king_pair_count());
}

TEST(Indexer, RoundTripPawnless) {
  expect_round_trip(make_indexer("KQvK"), 1);
  expect_round_trip(make_indexer("KRRvK"), 7);
  expect_round_trip(make_indexer("KQvKR"), 13);
}

TEST(Indexer, RoundTripWithPawnsAndEnPassant) {
  expect_round_trip(make_indexer("KPvK"), 1);
  Indexer kpkp = make_indexer("KPvKP");
  expect_round_trip(kpkp, 97);
  // Some en-passant entries decode to positions with an en-passant square.
  int ep_positions = 0;
  for (std::uint64_t i = kpkp.base_size(); i < kpkp.size(); i += 101) {
    Position pos;
    if (kpkp.decode(i, WHITE, pos)) {
      ++ep_positions;
      EXPECT_NE(pos.ep_square(), SQ_NONE);
      EXPECT_EQ(kpkp.index(pos), i);
    }
  }
  EXPECT_GT(ep_positions, 0);
  for (const char* name : {"KPPvKP", "KPvKPP"}) {
    SCOPED_TRACE(name);
    const Indexer indexer = make_indexer(name);
    expect_round_trip(indexer, 9973);
    // The region itself, both sides to move: White's is the smaller in KPPvKP, Black's in
    // KPvKPP; the entries past it are no positions.
    std::uint64_t found[2] = {0, 0}, past[2] = {0, 0};
    for (std::uint64_t i = indexer.base_size(); i < indexer.size(); i += 13)
      for (Color c : {WHITE, BLACK}) {
        Position pos;
        if (!indexer.decode(i, c, pos)) continue;
        ++found[c];
        ASSERT_NE(pos.ep_square(), SQ_NONE) << i;
        ASSERT_EQ(indexer.index(pos), i) << to_fen(pos);
        past[c] = std::max(past[c], i);
      }
    EXPECT_GT(found[WHITE], 1000u);
    EXPECT_GT(found[BLACK], 1000u);
    const Color smaller = std::string(name) == "KPPvKP" ? WHITE : BLACK;
    EXPECT_LT(past[smaller] - indexer.base_size(), (indexer.size() - indexer.base_size()) / 2);
    EXPECT_GT(past[~smaller] - indexer.base_size(), (indexer.size() - indexer.base_size()) / 2);
  }
}

// Every position with a usable en-passant square has an entry in the region that decodes
// to it or its mirror image: random placements of KPPvKP and KPvKPP around a double step.
TEST(Indexer, EveryEnPassantPositionHasItsEntry) {
  std::mt19937_64 rng(11);
  for (const char* name : {"KPPvKP", "KPvKPP", "KPvKP"}) {
    SCOPED_TRACE(name);
    const Indexer indexer = make_indexer(name);
    const Material& m = indexer.material();
    int checked = 0;
    for (int k = 0; k < 200000 && checked < 3000; ++k) {
      const Color stm = Color(k & 1), mover = ~stm;
      Position pos;
      pos.set_side_to_move(stm);
      const int file = int(rng() % 8);
      const Square pawn = make_square(file, mover == WHITE ? 3 : 4);
      pos.put_piece(Piece(mover, PAWN), pawn);
      // A pawn of the side to move beside it, the other units anywhere free.
      const int side_file = file == 0 ? 1 : file == 7 ? 6 : file + (rng() % 2 ? 1 : -1);
      pos.put_piece(Piece(stm, PAWN), make_square(side_file, mover == WHITE ? 3 : 4));
      auto free_square = [&] {
        Square s;
        do s = Square(rng() % 64);
        while (!pos.empty(s));
        return s;
      };
      pos.put_piece(Piece(WHITE, KING), free_square());
      pos.put_piece(Piece(BLACK, KING), free_square());
      for (Color c : {WHITE, BLACK})
        for (int n = popcount(pos.pieces(c, PAWN)); n < m.count(c, PAWN); ++n)
          pos.put_piece(Piece(c, PAWN), free_square());
      const Square crossed = Square(pawn - pawn_push(mover)), origin = Square(crossed - pawn_push(mover));
      if (!pos.empty(crossed) || !pos.empty(origin)) continue;  // no double step
      pos.set_ep_square(crossed);
      if (!indexer.can_index(pos) || !ep_square_usable(pos, RuleSet::orthodox()) ||
          !ep_square_possible(pos, RuleSet::orthodox()))
        continue;
      ++checked;
      const std::uint64_t i = indexer.index(pos);
      ASSERT_GE(i, indexer.base_size()) << to_fen(pos);
      Position decoded;
      ASSERT_TRUE(indexer.decode(i, stm, decoded)) << to_fen(pos);
      EXPECT_TRUE(decoded == pos || decoded == Indexer::transform(1, pos)) << to_fen(pos) << " " << to_fen(decoded);
    }
    EXPECT_EQ(checked, 3000);
  }
}

TEST(Indexer, SymmetricPositionsShareTheirEntry) {
  Indexer indexer = make_indexer("KQvKR");
  std::mt19937 rng(7);
  for (int n = 0; n < 2000; ++n) {
    Position pos;
    if (!indexer.decode(rng() % indexer.size(), Color(n & 1), pos)) continue;
    std::uint64_t i = indexer.index(pos);
    for (int t = 0; t < 8; ++t) EXPECT_EQ(indexer.index(Indexer::transform(t, pos)), i) << t << " " << to_fen(pos);
  }
}

// index_after_move (the solver's shortcut) agrees with a full index() for every unit
// moved to every empty square, kings included.
void expect_incremental_index(const char* material, int samples) {
  Indexer indexer = make_indexer(material);
  std::mt19937_64 rng(99);
  int checked = 0;
  for (int n = 0; checked < samples; ++n) {
    std::uint64_t i = rng() % indexer.base_size();
    Position before;
    if (!indexer.decode(i, Color(n & 1), before)) continue;
    ++checked;
    for (Bitboard units = before.pieces(); units;) {
      Square from = pop_lsb(units);
      for (int t = 0; t < 64; ++t) {
        Square to = Square(t);
        if (!before.empty(to)) continue;
        Position after = before;
        after.move_piece(from, to);
        if (king_bb(after.king_square(WHITE)) & square_bb(after.king_square(BLACK))) continue;
        ASSERT_EQ(indexer.index_after_move(i, before, after, from, to), indexer.index(after))
            << material << " " << to_fen(before) << " " << square_name(from) << square_name(to);
      }
    }
  }
}

TEST(Indexer, IncrementalIndexAfterAMoveEqualsTheFullIndex) {
  expect_incremental_index("KQvKR", 300);
  expect_incremental_index("KRRvK", 200);
  expect_incremental_index("KPvKP", 300);
}

// The king moves of one position through one KingMoveCache (the solver's un-moves of a
// king): every shortcut taken is index(), whatever symmetry the move needs and in whatever
// order the moves come; the shortcut is missing only where both kings of the canonical
// image stand on the diagonal (two candidate images).
TEST(Indexer, KingMovesThroughOneCacheEqualTheFullIndex) {
  struct Case {
    const char* material;
    const char* rules;
  };
  std::mt19937_64 rng(5);
  for (const Case& c : {Case{"KQvKR", "orthodox"}, Case{"KQRvKR", "orthodox"}, Case{"KRRvK", "orthodox"},
                        Case{"KPvKP", "orthodox"}, Case{"KRvKB", "madrasi-ri"}, Case{"KmRvKP", "orthodox"}}) {
    SCOPED_TRACE(std::string(c.material) + " " + c.rules);
    const Indexer indexer(*Material::parse(c.material), test::rules(c.rules));
    int shortcuts = 0, through_symmetry = 0, missing = 0;
    for (int checked = 0; checked < 400;) {
      const std::uint64_t i = rng() % indexer.base_size();
      Position pos;
      if (!indexer.decode(i, Color(checked & 1), pos)) continue;
      ++checked;
      Indexer::KingMoveCache cache;
      for (Color mover : {WHITE, BLACK}) {
        const Square from = pos.king_square(mover);
        // Every empty square, not only the king's steps: the cache serves any target.
        for (int k = 0; k < 64; ++k) {
          const Square to = Square((k * 37 + checked) % 64);
          if (!pos.empty(to)) continue;
          Position after = pos;
          after.move_piece(from, to);
          if (!indexer.kings_indexable(after)) continue;
          const std::uint64_t got =
              indexer.index_after_king_move(i, pos, after.king_square(WHITE), after.king_square(BLACK), cache);
          if (got == Indexer::NoShortcut) {
            ++missing;
            continue;
          }
          ++shortcuts;
          ASSERT_EQ(got, indexer.index(after)) << to_fen(pos) << " " << square_name(from) << square_name(to);
          // The entry's position is another image when the move needed a symmetry.
          Position image;
          ASSERT_TRUE(indexer.decode(got, pos.side_to_move(), image));
          through_symmetry += image.king_square(WHITE) != after.king_square(WHITE) ||
                              image.king_square(BLACK) != after.king_square(BLACK);
        }
      }
    }
    EXPECT_GT(shortcuts, 20 * missing);
    EXPECT_GT(through_symmetry, 0);
  }
}

// Positions with both kings on the a1-h8 diagonal under the full group (two candidate
// images): every move of a unit alone in its group through diagonal_moves() is index();
// where the shortcut does not apply (identical units, kings elsewhere) it says so.
TEST(Indexer, LoneUnitMovesWithBothKingsOnTheDiagonalEqualTheFullIndex) {
  std::mt19937_64 rng(13);
  for (const char* material : {"KQvKR", "KQRvKR", "KRRvKB"}) {
    SCOPED_TRACE(material);
    const Indexer indexer = make_indexer(material);
    int diagonal_positions = 0, moves = 0, reflected = 0;
    for (int tried = 0; diagonal_positions < 300; ++tried) {
      ASSERT_LT(tried, 1000000);
      const std::uint64_t i = rng() % indexer.base_size();
      Position pos;
      if (!indexer.decode(i, Color(tried & 1), pos)) continue;
      const auto on_diagonal = [](Square s) { return file_of(s) == rank_of(s); };
      const bool diagonal = on_diagonal(pos.king_square(WHITE)) && on_diagonal(pos.king_square(BLACK));
      for (Bitboard units = pos.pieces() & ~pos.pieces(KING); units;) {
        const Square from = pop_lsb(units);
        const Piece unit = pos.piece_on(from);
        const Indexer::DiagonalMoves shortcut = indexer.diagonal_moves(pos, i, unit);
        const bool lone = popcount(pos.pieces(unit.color(), unit.type())) == 1;
        ASSERT_EQ(shortcut.stride != 0, diagonal && lone) << to_fen(pos);
        if (!shortcut.stride) continue;
        for (int t = 0; t < 64; ++t) {
          const Square to = Square(t);
          if (!pos.empty(to)) continue;
          Position after = pos;
          after.move_piece(from, to);
          const std::uint64_t want = indexer.index(after);
          ASSERT_EQ(shortcut.after(i, from, to), want) << to_fen(pos) << " " << square_name(from) << square_name(to);
          ++moves;
          // The reflection's index is the smaller one: the entry is the other image.
          Position image;
          ASSERT_TRUE(indexer.decode(want, pos.side_to_move(), image));
          reflected += image.piece_on(to) != unit;
        }
      }
      diagonal_positions += diagonal;
    }
    EXPECT_GT(moves, 1000);
    EXPECT_GT(reflected, 100);
  }
}

TEST(Indexer, UnusableEnPassantSquareIsDropped) {
  Indexer indexer = make_indexer("KPvKP");
  Position with_ep = test::position("4k3/8/8/3p4/8/8/4P3/4K3 w - d6 0 1");
  Position without = test::position("4k3/8/8/3p4/8/8/4P3/4K3 w - - 0 1");
  EXPECT_EQ(indexer.index(with_ep), indexer.index(without));
  Position usable = test::position("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
  EXPECT_GE(indexer.index(usable), indexer.base_size());
}

TEST(Indexer, AdjacentKingsOnlyWhenTheRulesAllowThem) {
  // Orthodox: a king pair that touches is not in the index at all.
  Indexer indexer = make_indexer("KvK");
  for (std::uint64_t i = 0; i < indexer.size(); ++i) {
    Position pos;
    if (indexer.decode(i, WHITE, pos)) {
      EXPECT_FALSE(king_bb(pos.king_square(WHITE)) & square_bb(pos.king_square(BLACK)));
    }
  }
}

// A cursor decodes what decode() decodes, walking the entries in order (as the solver's
// threads do, in runs of consecutive entries) and after jumps, for both sides: full
// symmetry with kings on the diagonal, the a<->h mirror of pawn tables, adjacent kings,
// magic units, and the materials it leaves to decode() (two identical units innermost,
// en-passant region). Runs of 300 entries, every 4099 entries (65537 on 5-man tables: in every king pair).
// colour_parity() is the parity of the square colours of the king of a colour and of its
// first unit alone in its group (in the order K Q R B N G L P), in every entry (in the
// en-passant region for its side to move); every
// entry reached by moving a unit of the other colour (a board symmetry may then apply) has
// the same; -1 where the colour has no unit alone.
TEST(Indexer, ColourParityOfTheUnitsTheOtherSideLeavesInPlace) {
  auto colour = [](Square s) { return (rank_of(s) + file_of(s)) & 1; };
  for (const char* name : {"KQRvKR", "KRPvKR", "KPvKP", "KRRvKB", "KQvK", "KBNvKP", "KNvKP"}) {
    SCOPED_TRACE(name);
    const Indexer indexer = make_indexer(name);
    std::mt19937_64 rng(5);
    int checked = 0, symmetric = 0;
    for (int k = 0; k < 100000 && checked < 500; ++k) {
      const std::uint64_t i = rng() % indexer.size();
      Position pos;
      if (!indexer.decode(i, Color(k & 1), pos)) continue;
      ++checked;
      for (Color c : {WHITE, BLACK}) {
        int expected = -1;
        for (PieceType pt : {QUEEN, ROOK, BISHOP, KNIGHT, GRASSHOPPER, LOCUST, PAWN})
          if (expected < 0 && indexer.material().count(c, pt) == 1)
            expected = colour(pos.king_square(c)) ^ colour(lsb(pos.pieces(c, pt)));
        // The en-passant region's layout depends on the side to move: asked for it only.
        if (i >= indexer.base_size() && c != pos.side_to_move()) continue;
        ASSERT_EQ(indexer.colour_parity(i, c), expected) << to_fen(pos);
        if (expected < 0) continue;
        Position moved = pos;
        moved.set_ep_square(SQ_NONE);
        for (Bitboard units = pos.pieces(~c); units;) {
          const Square from = pop_lsb(units);
          for (Bitboard empty = ~pos.pieces(); empty;) {
            const Square to = pop_lsb(empty);
            moved.move_piece(from, to);
            if (indexer.can_index(moved)) {
              const std::uint64_t j = indexer.index(moved);
              ASSERT_EQ(indexer.colour_parity(j, c), expected) << to_fen(moved);
              Position canonical;
              ASSERT_TRUE(indexer.decode(j, moved.side_to_move(), canonical));
              symmetric += canonical.pieces(c) != moved.pieces(c);
            }
            moved.move_piece(to, from);
          }
        }
      }
    }
    EXPECT_EQ(checked, 500);
    EXPECT_GT(symmetric, 0);  // moves that the index maps through a board symmetry
  }
}

TEST(Indexer, ACursorDecodesWhatDecodeDoes) {
  struct Case {
    const char* material;
    const char* rules;
    std::uint64_t stride;  // between the starts of two runs (1: one run over every entry)
  };
  std::mt19937_64 rng(11);
  for (const Case& c :
       {Case{"KQvKR", "orthodox", 4099}, Case{"KRvKB", "madrasi-ri", 4099}, Case{"KPvKR", "orthodox", 4099},
        Case{"KRvKP", "annan", 4099}, Case{"KmRvKP", "orthodox", 4099}, Case{"KRRvK", "orthodox", 4099},
        Case{"KPvKP", "orthodox", 4099}, Case{"KQRvKB", "orthodox", 65537}, Case{"KRPvKR", "isardam", 65537}}) {
    SCOPED_TRACE(std::string(c.material) + " " + c.rules);
    const Indexer indexer(*Material::parse(c.material), test::rules(c.rules));
    std::uint64_t positions = 0;
    for (Color side : {WHITE, BLACK}) {
      Indexer::Cursor cursor;
      for (std::uint64_t start = 0; start < indexer.size(); start += c.stride == 1 ? indexer.size() : c.stride) {
        // A run of 300 entries from `start` (all of them when stride is 1), then a jump.
        const std::uint64_t end = c.stride == 1 ? indexer.size() : std::min(indexer.size(), start + 300);
        for (std::uint64_t i = start; i < end; ++i) {
          Position want, got;
          const bool is_position = indexer.decode(i, side, want);
          ASSERT_EQ(indexer.decode(i, side, got, cursor), is_position) << i;
          if (!is_position) continue;
          ++positions;
          ASSERT_EQ(to_fen(got), to_fen(want)) << i;
          ASSERT_EQ(got.pieces(), want.pieces()) << i;
        }
        // A jump back into the run just walked: the cursor follows.
        const std::uint64_t back = start + rng() % (end - start);
        Position want, got;
        ASSERT_EQ(indexer.decode(back, side, got, cursor), indexer.decode(back, side, want)) << back;
      }
    }
    EXPECT_GT(positions, 0u);
  }
}

// decode_in_place() gives the cursor's own position: equal to decode()'s, and still right
// for the next entries when the caller makes and unmakes moves on it (the solver's
// initialisation does), after the entries that are no position too.
TEST(Indexer, DecodingInPlaceSurvivesMovesMadeAndUnmade) {
  for (const char* rules_name : {"orthodox", "annan"}) {
    for (const char* material : {"KRPvKR", "KmRvKP", "KQvKR"}) {
      SCOPED_TRACE(std::string(material) + " " + rules_name);
      const RuleSet rules = test::rules(rules_name);
      const Indexer indexer(*Material::parse(material), rules);
      Indexer::Cursor cursor;
      std::uint64_t moved = 0;
      for (std::uint64_t i = 0; i < indexer.size(); i += i % 64 == 63 ? 8191 : 1) {
        Position want;
        const bool is_position = indexer.decode(i, WHITE, want);
        Position* got = indexer.decode_in_place(i, WHITE, cursor);
        ASSERT_EQ(got != nullptr, is_position) << i;
        if (!got) continue;
        ASSERT_TRUE(*got == want) << i << " " << to_fen(*got) << " " << to_fen(want);
        MoveList moves;
        generate_legal(*got, rules, moves);
        for (Move m : moves) {
          UndoRecord undo;
          make_move(*got, m, undo, rules);
          got->undo_move(m, undo);
          ++moved;
        }
        ASSERT_TRUE(*got == want) << i;
      }
      EXPECT_GT(moved, 1000u);
    }
  }
}

// A unit that borrows a pawn's walk takes en passant, so the position with the square is
// not the one without it: under Face-to-face the white king faced by the black pawn e6
// moves as a white pawn and takes d5 en passant (the only move; without the square White
// is mated), under Annan the rook e5 with a magic pawn behind it does. Both materials had
// no en-passant entries, and such a position read the value of the one without the square.
TEST(Indexer, UnitsThatBorrowAPawnsWalkHaveEnPassantEntries) {
  const struct {
    const char* condition;
    const char* material;  // as stored
    const char* fen;
  } cases[] = {
      {"face-to-face", "KPPvK", "8/8/4p3/3pK3/8/8/8/k7 w - d6 0 1"},  // KvKPP stored with colours exchanged
      {"back-to-back", "KPPvK", "8/8/8/3pK3/4p3/8/8/k7 w - d6 0 1"},
      {"annan", "KRmPvKP", "4k3/8/8/3pR3/4P*3/8/8/4K3 w - d6 0 1"},
      {"nanna", "KRmPvKP", "4k3/8/4P*3/3pR3/8/8/8/4K3 w - d6 0 1"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.fen);
    const RuleSet rules = *RuleSet::parse(c.condition);
    const Indexer indexer = make_indexer(c.material, rules);
    Position pos = test::position(c.fen);
    ASSERT_TRUE(ep_square_usable(pos, rules));
    if (Material::of(pos) != indexer.material()) pos = color_flipped(pos);
    ASSERT_EQ(Material::of(pos), indexer.material());
    Position without = pos;
    without.set_ep_square(SQ_NONE);
    const std::uint64_t i = indexer.index(pos);
    EXPECT_GE(i, indexer.base_size());
    EXPECT_NE(i, indexer.index(without));
    Position decoded;
    ASSERT_TRUE(indexer.decode(i, pos.side_to_move(), decoded));
    EXPECT_TRUE(decoded == pos || decoded == Indexer::transform(1, pos)) << to_fen(decoded);
    expect_round_trip(indexer, 997);
  }
  // Without a borrowed walk no unit but a pawn takes: orthodox KRmPvKP and Face-to-face
  // KRvKP (no second enemy pawn) have no region.
  EXPECT_EQ(make_indexer("KRmPvKP").size(), make_indexer("KRmPvKP").base_size());
  const Indexer krkp = make_indexer("KRvKP", *RuleSet::parse("face-to-face"));
  EXPECT_EQ(krkp.size(), krkp.base_size());
  const Indexer krkp_annan = make_indexer("KRvKP", *RuleSet::parse("annan"));
  EXPECT_EQ(krkp_annan.size(), krkp_annan.base_size());
}

// A table written with the earlier en-passant layout ("/ep1": a whole copy of the base part
// per pawn) is refused, never misread, with the command that generates it again; the
// tables without an en-passant region keep their layout and are read as before.
TEST(Indexer, ATableOfTheEarlierEnPassantLayoutIsRefusedWithTheCommandToRegenerateIt) {
  const RuleSet madrasi_ri = *RuleSet::parse("madrasi-ri");
  const Indexer kpkp = make_indexer("KPvKP", madrasi_ri);
  TableHeader header;
  header.condition = "madrasi-ri";
  header.material = "KPvKP";
  header.index_layout = "kk2016/sym2/touch/wP1/bP1/ep1";
  header.entries = 2 * kpkp.base_size();
  const Status refused = check_header_matches(header, "my tables/madrasi-ri/KPvKP.ftb", kpkp.material(), madrasi_ri);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error_kind(), ErrorKind::Corruption);
  EXPECT_NE(refused.error_message().find("layout 'kk2016/sym2/touch/wP1/bP1/ep1', expected "
                                         "'kk2016/sym2/touch/wP1/bP1/epfile'"),
            std::string::npos)
      << refused.error_message();
  EXPECT_NE(refused.error_message().find("generate it again with: feerie gen --tables 'my tables' --condition "
                                         "madrasi-ri KPvKP)"),
            std::string::npos)
      << refused.error_message();
  header.index_layout = kpkp.layout();
  header.entries = kpkp.size();
  EXPECT_TRUE(check_header_matches(header, "t/madrasi-ri/KPvKP.ftb", kpkp.material(), madrasi_ri));
  const Indexer krpkr = make_indexer("KRPvKR");
  header = TableHeader{};
  header.condition = "orthodox";
  header.material = "KRPvKR";
  header.index_layout = "kk1806/sym2/wR1/wP1/bR1/ep0";  // as every earlier table without a region
  header.entries = 1806u * 64 * 64 * 64;
  EXPECT_TRUE(check_header_matches(header, "t/orthodox/KRPvKR.ftb", krpkr.material(), RuleSet::orthodox()));
}

}  // namespace
}  // namespace feerie

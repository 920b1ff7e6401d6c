// The statistics of a table (gen/statistics.h) against an entry-by-entry reference: every
// entry decoded on its own, its images counted by distinct_images(), on invented values
// so that every outcome lands on every kind of entry.
#include "gen/statistics.h"

#include <gtest/gtest.h>

#include <random>
#include <span>

#include "probe/indexer.h"
#include "rules/fen.h"
#include "rules/ruleset.h"

namespace feerie {
namespace {

struct Reference {
  std::uint64_t raw[3] = {}, classes[3] = {};
};

int outcome_of(ValueCode v) { return v == value::Draw ? 1 : value::is_win(v) ? 2 : 0; }

// The counts of entries [first, first + values.size()) of one side, one decode per entry.
Reference count_each(const Indexer& indexer, const std::vector<ValueCode>& values, Color side, std::uint64_t first,
                     std::uint64_t labels) {
  Reference r;
  for (std::uint64_t i = 0; i < values.size(); ++i) {
    if (values[i] == value::Illegal) continue;
    Position pos;
    EXPECT_TRUE(indexer.decode(first + i, side, pos));
    int pointwise = 0;
    const int images = distinct_images(indexer, pos, &pointwise);
    const int o = outcome_of(values[i]);
    r.raw[o] += std::uint64_t(images);
    if (pos.ep_square() == SQ_NONE && !(pos.pieces(PAWN) & FirstAndLastRanks))
      r.classes[o] += std::uint64_t(images) * labels * std::uint64_t(pointwise);
  }
  return r;
}

// Values for every entry: Illegal where the entry is no position, otherwise a loss, a draw
// or a win drawn at random.
std::vector<ValueCode> invented_values(const Indexer& indexer, Color side, std::mt19937_64& random) {
  std::vector<ValueCode> out(indexer.size(), value::Illegal);
  for (std::uint64_t i = 0; i < indexer.size(); ++i) {
    Position pos;
    if (!indexer.decode(i, side, pos)) continue;
    const int o = int(random() % 3);
    out[i] = o == 0 ? value::mate_in_plies(2) : o == 1 ? value::Draw : value::mate_in_plies(3);
  }
  return out;
}

TEST(Statistics, RunsOfOneInnermostUnitCountWhatEachEntryCounts) {
  // Pawns as the innermost unit and outside it, the full group with kings on the diagonal,
  // identical units (no runs), the en-passant region (no runs), touching kings.
  const struct {
    const char* material;
    const char* condition;
    std::uint64_t labels;
  } cases[] = {{"KPvK", "orthodox", 1},    {"KRvKP", "orthodox", 1},  {"KPvKR", "orthodox", 1},
               {"KQvKR", "orthodox", 1},   {"KRRvK", "orthodox", 2},  {"KPvKP", "orthodox", 1},
               {"KNvKN", "madrasi-ri", 1}, {"KPvKB", "madrasi-ri", 1}};
  std::mt19937_64 random(20261127);
  for (const auto& c : cases) {
    SCOPED_TRACE(c.material);
    const RuleSet rules = *RuleSet::parse(c.condition);
    const Indexer indexer(*Material::parse(c.material), rules);
    std::vector<ValueCode> codes[2] = {invented_values(indexer, WHITE, random),
                                       invented_values(indexer, BLACK, random)};
    // Whole, then a part starting inside a run of 64 (a process of a spread solve).
    for (const std::uint64_t first : {std::uint64_t(0), std::uint64_t(100)}) {
      MemberValues values;
      for (int side = 0; side < 2; ++side)
        values[side] = ValueArray::of(std::span(codes[side]).subspan(first, codes[side].size() - first - 37));
      const auto stats = partial_statistics(indexer, values, 2, first);
      for (int side = 0; side < 2; ++side) {
        const std::vector<ValueCode> part(codes[side].begin() + std::ptrdiff_t(first), codes[side].end() - 37);
        const Reference r = count_each(indexer, part, Color(side), first, c.labels);
        EXPECT_EQ(stats[side].loss, r.raw[0]);
        EXPECT_EQ(stats[side].draw, r.raw[1]);
        EXPECT_EQ(stats[side].win, r.raw[2]);
        EXPECT_EQ(stats[side].classes_loss, r.classes[0]);
        EXPECT_EQ(stats[side].classes_draw, r.classes[1]);
        EXPECT_EQ(stats[side].classes_win, r.classes[2]);
      }
    }
  }
}

// The longest wins (over every entry, and over the positions of the reference convention,
// each at its lowest index) found alike in the three forms of a value array: one byte per
// entry, one byte with a high bit for mates beyond 151 plies (scanned window by window),
// two bytes.
TEST(Statistics, LongestMatesAlikeInEveryWidthOfTheValues) {
  const RuleSet rules = RuleSet::orthodox();
  const Indexer indexer(*Material::parse("KPvK"), rules);
  std::mt19937_64 random(20261130);
  for (const int longest : {75, 201, 401}) {  // narrow, extended, wide
    SCOPED_TRACE(longest);
    std::vector<ValueCode> codes[2] = {invented_values(indexer, WHITE, random),
                                       invented_values(indexer, BLACK, random)};
    MemberValues values;
    for (int side = 0; side < 2; ++side) {
      for (ValueCode& v : codes[side])
        if (v != value::Illegal && random() % 50 == 0)
          v = value::mate_in_plies(int(2 * (random() % ((longest + 1) / 2)) + 1));
      values[side] = ValueArray::of(codes[side]);
    }
    EXPECT_EQ(values[WHITE].extended(), longest == 201);
    EXPECT_EQ(values[WHITE].wide(), longest == 401);
    const auto stats = partial_statistics(indexer, values, 2, 0);
    for (int side = 0; side < 2; ++side) {
      int any = -1, usual = -1;
      std::string any_fen, usual_fen;
      for (std::uint64_t i = 0; i < indexer.size(); ++i) {
        const ValueCode v = codes[side][i];
        if (!value::is_win(v) || value::plies(v) <= usual) continue;
        Position pos;
        ASSERT_TRUE(indexer.decode(i, Color(side), pos));
        if (value::plies(v) > any) any = value::plies(v), any_fen = to_fen(pos);
        if (pos.ep_square() == SQ_NONE && !(pos.pieces(PAWN) & FirstAndLastRanks))
          usual = value::plies(v), usual_fen = to_fen(pos);
      }
      EXPECT_EQ(stats[side].longest_mate_plies, any);
      EXPECT_EQ(stats[side].longest_mate_fen, any_fen);
      EXPECT_EQ(stats[side].classes_longest_mate_plies, usual);
      EXPECT_EQ(stats[side].classes_longest_mate_fen, usual_fen);
    }
  }
}

}  // namespace
}  // namespace feerie

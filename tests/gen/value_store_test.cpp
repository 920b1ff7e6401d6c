// The solver's value store (gen/value_store.h): ownership, the block minima that let a
// pass skip blocks, the atomic updates of the passes.
#include "gen/value_store.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include "probe/table_file.h"  // DefaultBlockEntries, the unit of ownership

namespace feerie {
namespace {

constexpr std::uint64_t Block = ValueStore::BlockSize;

// The entries for_entries_with() visits for `code`, as (member, side, index).
std::set<std::tuple<int, int, std::uint64_t>> visited(ValueStore& store, ValueCode code) {
  std::set<std::tuple<int, int, std::uint64_t>> seen;
  store.for_entries_with<false>(
      code,
      [&](int member, int side, std::uint64_t i) {
#pragma omp critical
        seen.insert({member, side, i});
      },
      [] {});
  return seen;
}

TEST(ValueStore, EveryEntryStartsUnknownAndOneProcessOwnsAll) {
  ValueStore store({10, 3 * Block + 5}, 0, 1, 2);
  EXPECT_EQ(store.members(), 2);
  EXPECT_EQ(store.range(1).size(), 3 * Block + 5);
  EXPECT_EQ(store.values()[1][1].size(), 3 * Block + 5);
  for (std::uint64_t i : {std::uint64_t(0), 3 * Block + 4}) {
    EXPECT_EQ(store.load(Entry::of(1, 1, i)), value::Unknown);
    EXPECT_TRUE(store.owns(Entry::of(1, 1, i)));
    EXPECT_EQ(store.owner(Entry::of(1, 1, i)), 0);
  }
  EXPECT_EQ(store.count_decided(), 2 * (10 + 3 * Block + 5));  // Unknown is not open
}

// The initialisation's scan: every own entry once, and the progress after each chunk
// counting up to all of them (a 6-man initialisation runs for many minutes).
TEST(ValueStore, ForAllEntriesVisitsEveryOwnEntryOnceAndReportsProgressByChunk) {
  const std::uint64_t big = ValueStore::ChunkEntries + 3;
  for (int rank = 0; rank < 2; ++rank) {
    ValueStore store({7, big}, rank, 2, 2);
    std::uint64_t own = 0;
    for (int m = 0; m < 2; ++m) own += 2 * store.range(m).size();
    std::vector<int> seen(2 * (7 + big));
    std::vector<std::pair<std::uint64_t, std::uint64_t>> reports;
    store.for_all_entries(
        [&](int member, int side, std::uint64_t i) {
          // Distinct entries, so distinct counters: no race.
          ++seen[std::size_t(side) * (7 + big) + (member ? 7 : 0) + i];
        },
        [&](std::uint64_t done, std::uint64_t total) {
          reports.push_back({done, total});
        });
    std::uint64_t visited = 0;
    for (int m = 0; m < 2; ++m)
      for (int side = 0; side < 2; ++side)
        for (std::uint64_t i = 0; i < (m ? big : 7); ++i) {
          const int expected = store.owns(Entry::of(m, side, i)) ? 1 : 0;
          ASSERT_EQ(seen[std::size_t(side) * (7 + big) + (m ? 7 : 0) + i], expected) << m << " " << side << " " << i;
          visited += std::uint64_t(expected);
        }
    EXPECT_EQ(visited, own);
    ASSERT_FALSE(reports.empty());
    for (std::size_t r = 1; r < reports.size(); ++r) EXPECT_GT(reports[r].first, reports[r - 1].first);
    EXPECT_EQ(reports.back(), std::make_pair(own, own));
  }
}

TEST(ValueStore, SpreadOverProcessesEachOwnsItsRangeAndAddressesItByTableIndex) {
  const std::uint64_t size = 5 * DefaultBlockEntries + 7;
  for (int rank = 0; rank < 3; ++rank) {
    ValueStore store({size}, rank, 3, 1);
    const OwnedRange range = owned_range(size, rank, 3);
    EXPECT_EQ(store.range(0).first, range.first);
    EXPECT_EQ(store.values()[0][0].size(), range.size());
    if (range.size() == 0) continue;
    const Entry first = Entry::of(0, 1, range.first), last = Entry::of(0, 1, range.end - 1);
    EXPECT_TRUE(store.owns(first));
    EXPECT_TRUE(store.owns(last));
    EXPECT_FALSE(store.owns(Entry::of(0, 1, range.end)));
    if (range.first) {
      EXPECT_FALSE(store.owns(Entry::of(0, 1, range.first - 1)));
    }
    EXPECT_EQ(store.owner(last), rank);
    // Stored through the table index, found at its place in the own range.
    store.store(last, value::Draw);
    EXPECT_EQ(store.values()[0][1][range.size() - 1], value::Draw);
    EXPECT_EQ(store.load(last), value::Draw);
  }
}

TEST(ValueStore, APassVisitsExactlyTheEntriesOfItsValueAndSkipsLaterOnesUntilTheirTurn) {
  ValueStore store({4 * Block}, 0, 1, 2);
  const ValueCode loss0 = value::mate_in_plies(0), win1 = value::mate_in_plies(1), loss2 = value::mate_in_plies(2);
  store.store(Entry::of(0, 0, 5), loss0);
  store.store(Entry::of(0, 1, 3 * Block + 1), loss0);
  store.store(Entry::of(0, 0, 6), loss2);  // same block as a loss in 0
  store.store(Entry::of(0, 1, 2 * Block), win1);
  EXPECT_EQ(store.max_plies(), 2);
  EXPECT_EQ(visited(store, loss0), (std::set<std::tuple<int, int, std::uint64_t>>{{0, 0, 5}, {0, 1, 3 * Block + 1}}));
  // A value written during a pass, after its block was scanned, is still found later.
  store.store(Entry::of(0, 0, 7), win1);
  EXPECT_EQ(visited(store, win1), (std::set<std::tuple<int, int, std::uint64_t>>{{0, 0, 7}, {0, 1, 2 * Block}}));
  EXPECT_EQ(visited(store, loss2), (std::set<std::tuple<int, int, std::uint64_t>>{{0, 0, 6}}));
  // Everything propagated: the next pass finds nothing, even in blocks with values.
  EXPECT_TRUE(visited(store, value::mate_in_plies(3)).empty());
  EXPECT_EQ(store.resolved(), std::vector<std::uint64_t>{5});
  store.reset_resolved();
  EXPECT_EQ(store.resolved(), std::vector<std::uint64_t>{0});
}

TEST(ValueStore, RebuiltMinimaFindResumedValuesFromTheirPassOn) {
  ValueStore store({2 * Block}, 0, 1, 1);
  store.values()[0][0].set(3, value::mate_in_plies(4));
  store.values()[0][1].set(Block + 9, value::mate_in_plies(2));  // already propagated at pass 3
  store.adopt_filled_values();
  store.rebuild_block_minima(3);
  EXPECT_TRUE(visited(store, value::mate_in_plies(2)).empty());
  EXPECT_EQ(visited(store, value::mate_in_plies(4)), (std::set<std::tuple<int, int, std::uint64_t>>{{0, 0, 3}}));
}

// The scan of a narrow block takes 16 bytes at a time (SSE2): every pass, in order, must
// still visit exactly the entries of its value, which needs each block's pending minimum
// right, whatever the codes around (open counts, never-lost, draws, shorter mates) and
// wherever in the block, the tail past the last 16 bytes included.
TEST(ValueStore, EveryPassInOrderVisitsExactlyTheEntriesOfItsValueAmongRandomCodes) {
  const std::uint64_t size = 3 * Block + 37;
  ValueStore store({size}, 0, 1, 2);
  std::mt19937_64 rng(7);
  std::vector<std::set<std::tuple<int, int, std::uint64_t>>> want(narrow::MaxPlies + 1);
  for (int side = 0; side < 2; ++side)
    for (std::uint64_t i = 0; i < size; ++i) {
      // Sparse mates (most blocks hold a few), short mates more often than long ones.
      const unsigned r = unsigned(rng() % 100);
      ValueCode v = r < 40   ? value::Draw
                    : r < 60 ? value::Illegal
                    : r < 80 ? value::open(int(rng() % (narrow::MaxCount + 1)))
                    : r < 85 ? value::open(value::NeverLost)
                             : value::mate_in_plies(int(rng() % (r < 95 ? 20 : narrow::MaxPlies + 1)));
      store.values()[0][std::size_t(side)].set(i, v);
      if (value::is_mate(v)) want[std::size_t(value::plies(v))].insert({0, side, i});
    }
  store.adopt_filled_values();
  store.rebuild_block_minima(0);
  for (int plies = 0; plies <= narrow::MaxPlies; ++plies)
    ASSERT_EQ(visited(store, value::mate_in_plies(plies)), want[std::size_t(plies)]) << "pass " << plies;
}

TEST(ValueStore, WinsKeepTheShortestAndCountsGoDownToTheLastSuccessor) {
  ValueStore store({16}, 0, 1, 1);
  const Entry e = Entry::of(0, 1, 9);
  store.store(e, value::open(2));
  store.offer_win(e, value::mate_in_plies(5));
  EXPECT_EQ(store.load(e), value::mate_in_plies(5));
  store.offer_win(e, value::mate_in_plies(7));
  EXPECT_EQ(store.load(e), value::mate_in_plies(5));
  store.offer_win(e, value::mate_in_plies(3));
  EXPECT_EQ(store.load(e), value::mate_in_plies(3));
  // Decided otherwise: a loss or a draw is never replaced by a win.
  const Entry lost = Entry::of(0, 0, 1), drawn = Entry::of(0, 0, 2);
  store.store(lost, value::mate_in_plies(4));
  store.store(drawn, value::Draw);
  store.offer_win(lost, value::mate_in_plies(1));
  store.offer_win(drawn, value::mate_in_plies(1));
  EXPECT_EQ(store.load(lost), value::mate_in_plies(4));
  EXPECT_EQ(store.load(drawn), value::Draw);

  const Entry open = Entry::of(0, 0, 3);
  store.store(open, value::open(2));
  EXPECT_EQ(store.take_successor(open), value::open(2));
  EXPECT_EQ(store.take_successor(open), value::open(1));
  EXPECT_EQ(store.load(open), value::open(0));
  store.store(Entry::of(0, 0, 4), value::open(value::NeverLost));
  store.settle_open_as_draws();
  EXPECT_EQ(store.load(open), value::Draw);
  EXPECT_EQ(store.load(Entry::of(0, 0, 4)), value::Draw);
  EXPECT_EQ(store.load(Entry::of(0, 0, 5)), value::Unknown);  // not open: left alone
}

// The initialisation's walk in king pairs (gen/solver.cpp, king_pair_runs): every entry of
// both sides once, with runs that do not divide the threads' pieces; on one thread, the
// runs in the given order and each in index order. The progress ends at every entry.
TEST(ValueStore, ForAllEntriesInRunsVisitsEachEntryOnceInTheRunsOrder) {
  // Runs of 1000 entries and, at the end, a longer one, an empty one and a short one (an
  // en-passant region is one run of its own size).
  const std::uint64_t run_size = 1000, run_count = 50, size = run_size * run_count + 40000 + 7;
  std::vector<Indexer::Run> runs;
  for (std::uint64_t r = 0; r < run_count; ++r) runs.push_back({r * run_size, run_size});
  std::shuffle(runs.begin(), runs.end(), std::mt19937_64(5));
  runs.push_back({run_size * run_count, 40000});
  runs.push_back({size, 0});
  runs.push_back({size - 7, 7});
  std::vector<std::uint64_t> expected_walk;  // side 0 on one thread
  for (const Indexer::Run& run : runs)
    for (std::uint64_t i = run.first; i < run.first + run.count; ++i) expected_walk.push_back(i);
  for (int threads : {1, 2}) {
    ValueStore store({size}, 0, 1, threads);
    std::vector<int> visits[2] = {std::vector<int>(size), std::vector<int>(size)};
    std::vector<std::uint64_t> walk;
    std::uint64_t done = 0, total = 0;
    store.for_all_entries_in_runs(
        runs,
        [&](int member, int side, std::uint64_t i) {
#pragma omp critical
          {
            EXPECT_EQ(member, 0);
            ++visits[side][i];
            if (side == 0) walk.push_back(i);
          }
        },
        [&](std::uint64_t d, std::uint64_t t) { done = d, total = t; });
    for (int side = 0; side < 2; ++side)
      for (std::uint64_t i = 0; i < size; ++i) ASSERT_EQ(visits[side][i], 1) << side << " " << i;
    if (threads == 1) {
      EXPECT_EQ(walk, expected_walk);
    }
    EXPECT_EQ(done, 2 * size);
    EXPECT_EQ(total, 2 * size);
  }
}

// The end of a solve in each width: every open entry (any count) is a draw, every other
// value stays, long mates of an extended array with their high bits included.
TEST(ValueStore, SettlingMakesEveryOpenEntryADrawAndLeavesTheRestInEachWidth) {
  for (int width = 0; width < 3; ++width) {  // narrow, extended, wide
    ValueStore store({Block + 37, 21}, 0, 1, 2);
    const ValueCode values[] = {
        value::Unknown, value::Illegal,  value::Draw,     value::mate_in_plies(0),      value::mate_in_plies(151),
        value::open(0), value::open(17), value::open(99), value::open(value::NeverLost)};
    std::mt19937_64 random(11 + width);
    std::map<std::pair<int, std::uint64_t>, ValueCode> expected;  // (table, index): value after
    for (int member = 0; member < 2; ++member)
      for (int side = 0; side < 2; ++side)
        for (std::uint64_t i = 0; i < store.range(member).size(); ++i) {
          const ValueCode v = values[random() % std::size(values)];
          store.store(Entry::of(member, side, i), v);
          expected[{2 * member + side, i}] = value::is_open(v) ? value::Draw : v;
        }
    if (width == 1) {
      store.store(Entry::of(1, 0, 3), value::mate_in_plies(200));
      store.settle_overflow();
      ASSERT_TRUE(store.extended());
      expected[{2, 3}] = value::mate_in_plies(200);
    }
    if (width == 2) store.widen();
    store.settle_open_as_draws();
    for (const auto& [where, v] : expected)
      EXPECT_EQ(store.load(Entry::of(where.first / 2, where.first % 2, where.second)), v)
          << "width " << width << ", member " << where.first / 2 << ", side " << where.first % 2 << ", entry "
          << where.second;
  }
}

TEST(ValueStore, ConcurrentSuccessorTakesLoseNoUpdate) {
  for (int narrow_max_plies : {narrow::MaxPlies, -1}) {  // one byte, two bytes
    ValueStore store({8}, 0, 1, 4, narrow_max_plies);
    const Entry e = Entry::of(0, 0, 2);
    store.store(e, value::open(narrow::MaxCount));
#pragma omp parallel for num_threads(4)
    for (int k = 0; k < narrow::MaxCount; ++k) store.take_successor(e);
    EXPECT_EQ(store.load(e), value::open(0));
  }
}

TEST(ValueStore, WhatDoesNotFitAByteWaitsForTheEndOfThePassThenWidensEverything) {
  ValueStore store({16, 4}, 0, 1, 2);
  const Entry many = Entry::of(0, 1, 3), far = Entry::of(1, 0, 2), near = Entry::of(0, 0, 5);
  store.store(near, value::mate_in_plies(7));
  store.store(many, value::open(narrow::MaxCount + 1));  // no high bit holds it
  store.store(far, value::mate_in_plies(narrow::MaxPlies + 1));
  EXPECT_FALSE(store.wide());
  EXPECT_EQ(store.max_plies(), narrow::MaxPlies + 1);
  EXPECT_EQ(store.load(many), value::Unknown);  // not yet: no pass reads it back
  EXPECT_TRUE(store.settle_overflow());
  EXPECT_TRUE(store.wide());
  EXPECT_TRUE(store.values()[1][1].wide());
  EXPECT_EQ(store.load(many), value::open(narrow::MaxCount + 1));
  EXPECT_EQ(store.load(far), value::mate_in_plies(narrow::MaxPlies + 1));
  EXPECT_EQ(store.load(near), value::mate_in_plies(7));
  EXPECT_FALSE(store.settle_overflow());
  // Found by the pass of its value.
  EXPECT_EQ(visited(store, value::mate_in_plies(narrow::MaxPlies + 1)),
            (std::set<std::tuple<int, int, std::uint64_t>>{{1, 0, 2}}));
}

// Mates too long for a byte: a high bit per entry holds the next narrow::MaxPlies + 1 of them,
// still about a byte per entry; longer ones widen.
TEST(ValueStore, LongMatesExtendEveryArrayWithAHighBitThenTooLongOnesWiden) {
  ValueStore store({3 * Block, 64}, 0, 1, 2);
  const Entry near = Entry::of(0, 0, 5), far = Entry::of(0, 1, 2 * Block + 7), other = Entry::of(1, 0, 63);
  const ValueCode longest_high = value::mate_in_plies(narrow::HighOffset + narrow::MaxPlies);
  store.store(near, value::mate_in_plies(7));
  store.store(far, value::mate_in_plies(narrow::HighOffset));
  store.store(other, longest_high);
  EXPECT_EQ(store.load(far), value::Unknown);  // not yet: no pass reads it back
  EXPECT_TRUE(store.settle_overflow());
  EXPECT_TRUE(store.extended());
  EXPECT_FALSE(store.wide());
  EXPECT_EQ(store.bytes_per_entry(), 1.125);
  EXPECT_TRUE(store.values()[1][1].extended());  // every array, the untouched ones too
  EXPECT_EQ(store.load(near), value::mate_in_plies(7));
  EXPECT_EQ(store.load(far), value::mate_in_plies(narrow::HighOffset));
  EXPECT_EQ(store.load(other), longest_high);
  EXPECT_EQ(store.values()[0][1].at(2 * Block + 7), value::mate_in_plies(narrow::HighOffset));
  // Extended, long mates are stored at once; a shorter win replacing a long one clears its bit.
  const Entry won = Entry::of(0, 0, 64 + 3), long_won = Entry::of(0, 0, 64 + 4);
  const ValueCode long_win = value::mate_in_plies(narrow::HighOffset + 11);
  for (Entry e : {won, long_won}) {
    store.store(e, value::open(3));
    store.offer_win(e, long_win);
    EXPECT_EQ(store.load(e), long_win);
  }
  store.offer_win(won, value::mate_in_plies(9));
  EXPECT_EQ(store.load(won), value::mate_in_plies(9));
  EXPECT_EQ(store.values()[0][0].at(64 + 3), value::mate_in_plies(9));
  EXPECT_EQ(store.load(long_won), long_win);
  // The passes, in their order, find each value, long or short, in its turn.
  EXPECT_EQ(visited(store, value::mate_in_plies(7)), (std::set<std::tuple<int, int, std::uint64_t>>{{0, 0, 5}}));
  EXPECT_EQ(visited(store, value::mate_in_plies(9)), (std::set<std::tuple<int, int, std::uint64_t>>{{0, 0, 64 + 3}}));
  EXPECT_EQ(visited(store, value::mate_in_plies(narrow::HighOffset)),
            (std::set<std::tuple<int, int, std::uint64_t>>{{0, 1, 2 * Block + 7}}));
  EXPECT_EQ(visited(store, long_win), (std::set<std::tuple<int, int, std::uint64_t>>{{0, 0, 64 + 4}}));
  EXPECT_EQ(visited(store, longest_high), (std::set<std::tuple<int, int, std::uint64_t>>{{1, 0, 63}}));
  // Counts still go down in the bytes of an extended array.
  EXPECT_EQ(store.take_successor(Entry::of(1, 0, 1)), value::Unknown);
  const Entry open = Entry::of(1, 0, 2);
  store.store(open, value::open(2));
  EXPECT_EQ(store.take_successor(open), value::open(2));
  EXPECT_EQ(store.load(open), value::open(1));
  // Longer than a high bit holds: widened, every value kept.
  store.store(near, value::mate_in_plies(narrow::HighOffset + narrow::MaxPlies + 1));
  EXPECT_TRUE(store.settle_overflow());
  EXPECT_TRUE(store.wide());
  EXPECT_FALSE(store.extended());
  EXPECT_EQ(store.load(near), value::mate_in_plies(narrow::HighOffset + narrow::MaxPlies + 1));
  EXPECT_EQ(store.load(far), value::mate_in_plies(narrow::HighOffset));
  EXPECT_EQ(store.load(other), longest_high);
  EXPECT_EQ(store.load(won), value::mate_in_plies(9));
  EXPECT_EQ(store.load(open), value::open(1));
}

// Before a pass: the store holds the mates it will offer, extended first, widened beyond.
TEST(ValueStore, HoldingLongerMatesExtendsThenWidens) {
  ValueStore store({64}, 0, 1, 1, 40);
  store.store(Entry::of(0, 0, 1), value::mate_in_plies(40));
  store.hold_mates_up_to(40);
  EXPECT_FALSE(store.extended());
  store.hold_mates_up_to(41);
  EXPECT_TRUE(store.extended());
  EXPECT_EQ(store.high_offset(), 41);
  store.store(Entry::of(0, 0, 2), value::mate_in_plies(41 + narrow::MaxPlies));
  EXPECT_FALSE(store.settle_overflow());  // it fitted
  store.hold_mates_up_to(41 + narrow::MaxPlies + 1);
  EXPECT_TRUE(store.wide());
  EXPECT_EQ(store.load(Entry::of(0, 0, 1)), value::mate_in_plies(40));
  EXPECT_EQ(store.load(Entry::of(0, 0, 2)), value::mate_in_plies(41 + narrow::MaxPlies));
}

// A checkpoint's values: extended arrays (ValueArray::set) of the store's high offset stay
// extended, every array with them; of another high offset, all are widened.
TEST(ValueStore, FilledExtendedValuesAreAdopted) {
  for (int narrow_max_plies : {narrow::MaxPlies, 60}) {
    ValueStore store({2 * Block}, 0, 1, 1, narrow_max_plies);
    store.values()[0][0].set(3, value::mate_in_plies(200));
    EXPECT_TRUE(store.values()[0][0].extended());
    store.adopt_filled_values();
    EXPECT_EQ(store.extended(), narrow_max_plies == narrow::MaxPlies);
    EXPECT_EQ(store.wide(), narrow_max_plies != narrow::MaxPlies);
    EXPECT_EQ(store.load(Entry::of(0, 0, 3)), value::mate_in_plies(200));
    store.rebuild_block_minima(150);
    EXPECT_EQ(visited(store, value::mate_in_plies(200)), (std::set<std::tuple<int, int, std::uint64_t>>{{0, 0, 3}}));
  }
}

TEST(ValueArray, NarrowCodesAreTheValueCodesBelowTheOpenOnesAndWideningKeepsEveryValue) {
  for (int v = 0; v < 0x10000; ++v) {
    std::uint8_t b;
    if (narrow::encode(ValueCode(v), b)) {
      EXPECT_EQ(narrow::decode(b), v);
      if (v < narrow::OpenBase) {
        EXPECT_EQ(b, v);
      }
    }
  }
  std::vector<ValueCode> codes;
  for (int p = 0; p <= narrow::MaxPlies; ++p) codes.push_back(value::mate_in_plies(p));
  for (int c = 0; c <= narrow::MaxCount; ++c) codes.push_back(value::open(c));
  for (ValueCode v : {value::Unknown, value::Illegal, value::Draw, value::open(value::NeverLost)}) codes.push_back(v);
  ValueArray a = ValueArray::of(codes);
  EXPECT_FALSE(a.wide());
  EXPECT_EQ(a.bytes(), codes.size());
  EXPECT_EQ(a.codes(), codes);
  a.set(7, value::mate_in_plies(narrow::MaxPlies + 1));  // does not fit a byte: extends
  codes[7] = value::mate_in_plies(narrow::MaxPlies + 1);
  EXPECT_TRUE(a.extended());
  EXPECT_FALSE(a.wide());
  EXPECT_EQ(a.bytes(), codes.size() + (codes.size() + 63) / 64 * 8);
  EXPECT_EQ(a.codes(), codes);
  // Every long mate a high bit holds, and a short one over a long one.
  for (int p = narrow::HighOffset; p <= narrow::HighOffset + narrow::MaxPlies; ++p) {
    a.set(100, value::mate_in_plies(p));
    EXPECT_EQ(a.at(100), value::mate_in_plies(p));
  }
  a.set(100, value::mate_in_plies(1));
  EXPECT_EQ(a.at(100), value::mate_in_plies(1));
  codes[100] = value::mate_in_plies(1);
  a.set(101, value::mate_in_plies(narrow::HighOffset + 5));
  codes[101] = value::mate_in_plies(narrow::HighOffset + 5);
  EXPECT_EQ(a.codes(), codes);
  a.set(8, value::open(narrow::MaxCount + 1));  // fits neither: widens, the long mates kept
  codes[8] = value::open(narrow::MaxCount + 1);
  EXPECT_TRUE(a.wide());
  EXPECT_FALSE(a.extended());
  EXPECT_EQ(a.bytes(), 2 * codes.size());
  EXPECT_EQ(a.codes(), codes);
}

TEST(ValueStore, ChunkedScansCallBetweenChunksAsOftenInEveryProcess) {
  // Three processes own 8, 9 and 9 blocks of the file format (256 and 288 solver blocks):
  // one chunk of 256 blocks would do for the first, two for the others, and each calls
  // between_chunks() twice per side, as the largest range needs.
  const std::uint64_t size = 26 * std::uint64_t(DefaultBlockEntries) - 5;
  std::vector<int> calls;
  for (int rank = 0; rank < 3; ++rank) {
    ValueStore store({size}, rank, 3, 1);
    int n = 0;
    store.for_entries_with<true>(
        value::mate_in_plies(0), [](int, int, std::uint64_t) {}, [&] { ++n; });
    calls.push_back(n);
  }
  EXPECT_EQ(calls, (std::vector<int>{4, 4, 4}));
}

}  // namespace
}  // namespace feerie

namespace feerie {
namespace {

// The entries for_entries_above() visits for `code` on `side`, as (member, index), and how
// many it said it visited.
std::set<std::pair<int, std::uint64_t>> visited_above(ValueStore& store, int side, ValueCode code,
                                                      std::uint64_t& count) {
  std::set<std::pair<int, std::uint64_t>> seen;
  count = store.for_entries_above(side, code, [&](int member, std::uint64_t i) {
#pragma omp critical
    seen.insert({member, i});
  });
  return seen;
}

// The candidates of a pulled pass of losses (gen/solver.h, LossPassChoice): every entry of
// one side above a code, open ones included, in each width, the 16-byte scan's tail too.
TEST(ValueStore, ForEntriesAboveVisitsAndCountsLongerMatesAndOpenEntriesOfOneSide) {
  ValueStore store({2 * Block + 21, 40}, 0, 1, 2);
  const ValueCode code = value::mate_in_plies(9);
  std::set<std::pair<int, std::uint64_t>> expected;
  std::mt19937_64 random(7);
  const ValueCode below[] = {value::Illegal, value::Draw, value::mate_in_plies(0), value::mate_in_plies(8), code};
  const ValueCode above[] = {value::mate_in_plies(10), value::mate_in_plies(151), value::open(0), value::open(99),
                             value::open(value::NeverLost)};
  for (int member = 0; member < 2; ++member)
    for (std::uint64_t i = 0; i < store.range(member).size(); ++i) {
      const bool is_above = random() % 3 == 0;
      store.store(Entry::of(member, 1, i), is_above ? above[random() % 5] : below[random() % 5]);
      store.store(Entry::of(member, 0, i), value::open(3));  // the other side: never visited
      if (is_above) expected.insert({member, i});
    }
  std::uint64_t count = 0;
  EXPECT_EQ(visited_above(store, 1, code, count), expected);
  EXPECT_EQ(count, expected.size());
  EXPECT_EQ(store.count_entries_above(1, code), expected.size());
  // Above every mate a byte holds: the open entries only.
  std::set<std::pair<int, std::uint64_t>> open;
  for (const auto& [member, i] : expected)
    if (value::is_open(store.load(Entry::of(member, 1, i)))) open.insert({member, i});
  EXPECT_EQ(visited_above(store, 1, value::mate_in_plies(200), count), open);
  EXPECT_EQ(store.count_entries_above(1, value::mate_in_plies(200)), open.size());
  // Extended: a long mate (a high bit) is above a code a byte holds.
  store.store(Entry::of(0, 1, 5), value::mate_in_plies(200));
  store.settle_overflow();
  ASSERT_TRUE(store.extended());
  expected.insert({0, 5});
  EXPECT_EQ(visited_above(store, 1, code, count), expected);
  EXPECT_EQ(count, expected.size());
  EXPECT_EQ(store.count_entries_above(1, code), expected.size());
  store.widen();
  EXPECT_EQ(visited_above(store, 1, code, count), expected);
  EXPECT_EQ(count, expected.size());
  EXPECT_EQ(store.count_entries_above(1, code), expected.size());
}

// The losses a pass would pull, counted per side and length as they are stored (once per
// entry), and again from the values after a resume.
TEST(ValueStore, LossesAreCountedPerSideAndLengthAndRebuilt) {
  ValueStore store({3 * Block}, 0, 1, 2);
  for (std::uint64_t i = 0; i < 10; ++i) store.store(Entry::of(0, 1, i), value::mate_in_plies(4));
  for (std::uint64_t i = 10; i < 13; ++i) store.store(Entry::of(0, 0, i), value::mate_in_plies(4));
  store.store(Entry::of(0, 0, 20), value::mate_in_plies(5));  // a win: not counted
  store.store(Entry::of(0, 0, 21), value::open(2));
  EXPECT_EQ(store.losses(1, 4), 10u);
  EXPECT_EQ(store.losses(0, 4), 3u);
  EXPECT_EQ(store.losses(0, 5), 0u);
  EXPECT_EQ(store.losses(0, 6), 0u);
  EXPECT_EQ(store.losses(0, ValueStore::CountedLossPlies + 2), 0u);
  store.rebuild_block_minima(0);
  EXPECT_EQ(store.losses(1, 4), 10u);
  EXPECT_EQ(store.losses(0, 4), 3u);
}

}  // namespace
}  // namespace feerie

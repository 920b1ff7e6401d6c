// Tables spread over processes (gen/partition.h) without MPI: the ownership arithmetic,
// the statistics of parts, and whole generations by "processes" that are threads of this
// test (ThreadPartition: the collectives through shared memory and a barrier), compared
// byte for byte with one process's tables. The MPI runs themselves are tests/mpi/.
#include "gen/partition.h"

#include <barrier>
#include <filesystem>
#include <thread>

#include "gen/generate.h"
#include "gen/solver.h"
#include "gen/statistics.h"
#include "gen/verify.h"
#include "tests/gen/table_test_util.h"
#include "tests/test_util.h"

namespace feerie {
namespace {

namespace fs = std::filesystem;

TEST(Ownership, RangesCoverEveryEntryOnceInWholeBlocks) {
  for (std::uint64_t entries : {std::uint64_t(1), std::uint64_t(32767), std::uint64_t(32768), std::uint64_t(32769),
                                std::uint64_t(1000003), std::uint64_t(121110528)})
    for (int ranks = 1; ranks <= 7; ++ranks) {
      std::uint64_t next = 0;
      for (int r = 0; r < ranks; ++r) {
        const OwnedRange range = owned_range(entries, r, ranks);
        EXPECT_EQ(range.first, next) << entries << " " << r << "/" << ranks;
        EXPECT_EQ(range.first % DefaultBlockEntries, 0u);
        EXPECT_TRUE(range.end == entries || range.end % DefaultBlockEntries == 0);
        next = range.end;
        // Probe the edges of the range: each index's owner is r.
        for (std::uint64_t i : {range.first, range.end - 1}) {
          if (range.size()) {
            EXPECT_EQ(owner_of(i, entries, ranks), r) << entries << " " << i << " " << ranks;
          }
        }
      }
      EXPECT_EQ(next, entries);
      // Balanced to a block: no process owns two blocks more than another.
      const std::uint64_t blocks = (entries + DefaultBlockEntries - 1) / DefaultBlockEntries;
      for (int r = 0; r < ranks; ++r) {
        const OwnedRange range = owned_range(entries, r, ranks);
        const std::uint64_t own_blocks = (range.size() + DefaultBlockEntries - 1) / DefaultBlockEntries;
        EXPECT_LE(own_blocks, blocks / std::uint64_t(ranks) + 1);
      }
    }
}

// P "processes" as threads of one process: each collective writes this thread's part to
// a shared slot, waits for all, reads what it needs, and waits again before the slots are
// reused. Enough to run the partitioned solver, statistics and writer as MPI runs them.
class ThreadPartition final : public Partition {
 public:
  struct Hub {
    explicit Hub(int ranks)
        : ranks(ranks),
          sync(ranks),
          words(std::size_t(ranks)),
          counts(std::size_t(ranks)),
          numbers(std::size_t(ranks)),
          texts(std::size_t(ranks)) {}
    int ranks;
    std::barrier<> sync;
    std::vector<std::vector<std::uint64_t>> words, counts;
    std::vector<std::vector<std::int64_t>> numbers;
    std::vector<std::string> texts;
  };
  ThreadPartition(Hub& hub, int rank) : hub_(hub), rank_(rank) {}
  int rank() const override { return rank_; }
  int ranks() const override { return hub_.ranks; }

  Expected<std::vector<std::uint64_t>> exchange(std::vector<std::uint64_t> outgoing,
                                                const std::vector<std::uint64_t>& counts) override {
    hub_.words[std::size_t(rank_)] = std::move(outgoing);
    hub_.counts[std::size_t(rank_)] = counts;
    hub_.sync.arrive_and_wait();
    std::vector<std::uint64_t> received;
    for (int sender = 0; sender < hub_.ranks; ++sender) {
      std::uint64_t at = 0;
      for (int r = 0; r < rank_; ++r) at += hub_.counts[std::size_t(sender)][std::size_t(r)];
      const auto& from = hub_.words[std::size_t(sender)];
      received.insert(received.end(), from.begin() + std::ptrdiff_t(at),
                      from.begin() + std::ptrdiff_t(at + hub_.counts[std::size_t(sender)][std::size_t(rank_)]));
    }
    hub_.sync.arrive_and_wait();
    return received;
  }
  Status max(std::vector<std::int64_t>& values) override {
    return reduce(values, [](std::int64_t a, std::int64_t b) { return std::max(a, b); });
  }
  Status sum(std::vector<std::uint64_t>& values) override {
    std::vector<std::int64_t> v(values.begin(), values.end());
    Status s = reduce(v, [](std::int64_t a, std::int64_t b) { return a + b; });
    std::copy(v.begin(), v.end(), values.begin());
    return s;
  }
  Expected<std::vector<std::string>> all_gather(const std::string& mine) override {
    hub_.texts[std::size_t(rank_)] = mine;
    hub_.sync.arrive_and_wait();
    std::vector<std::string> all = hub_.texts;
    hub_.sync.arrive_and_wait();
    return all;
  }
  // The file calls of the base class, then every process waits for the others (a
  // collective returns when the file is whole).
  Status write_pieces(const std::string& path,
                      const std::vector<std::pair<std::uint64_t, std::string_view>>& pieces) override {
    Status written = Partition::write_pieces(path, pieces);
    hub_.sync.arrive_and_wait();
    return written;
  }

 private:
  template <class Op>
  Status reduce(std::vector<std::int64_t>& values, Op op) {
    hub_.numbers[std::size_t(rank_)] = values;
    hub_.sync.arrive_and_wait();
    for (int r = 0; r < hub_.ranks; ++r)
      if (r != rank_)
        for (std::size_t k = 0; k < values.size(); ++k) values[k] = op(values[k], hub_.numbers[std::size_t(r)][k]);
    hub_.sync.arrive_and_wait();
    return Ok{};
  }
  Hub& hub_;
  int rank_;
};

// Generates `materials` under `condition` into `dir` with `ranks` thread-processes.
void generate_spread(const std::string& dir, const char* condition, const std::vector<Material>& materials, int ranks,
                     std::uint64_t exchange_limit = 0) {
  ThreadPartition::Hub hub(ranks);
  std::vector<std::string> failures(static_cast<std::size_t>(ranks));
  std::vector<std::thread> processes;
  for (int r = 0; r < ranks; ++r)
    processes.emplace_back([&, r] {
      ThreadPartition partition(hub, r);
      GenerateOptions options;
      options.tables_dir = dir;
      options.threads = 1;
      options.checkpoint_seconds = -1;
      options.partition = &partition;
      options.exchange_limit = exchange_limit;
      auto done = generate(materials, *RuleSet::parse(condition), options);
      if (!done) failures[std::size_t(r)] = done.error_message();
    });
  for (std::thread& t : processes) t.join();
  for (int r = 0; r < ranks; ++r) EXPECT_EQ(failures[std::size_t(r)], "") << "process " << r;
}

class SpreadTables : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = test::temporary_tables_dir("feerie-spread-"); }
  void TearDown() override { fs::remove_all(dir_); }

  // Every table of `condition` generated alone and spread over `ranks`, byte for byte.
  void expect_identical(const char* condition, const std::vector<const char*>& names, int ranks,
                        std::uint64_t exchange_limit = 0) {
    std::vector<Material> materials;
    for (const char* n : names) materials.push_back(*Material::parse(n));
    GenerateOptions alone;
    alone.tables_dir = dir_ + "/alone";
    alone.threads = 2;
    alone.checkpoint_seconds = -1;
    ASSERT_TRUE(generate(materials, *RuleSet::parse(condition), alone).ok());
    const std::string spread = dir_ + "/spread-" + std::to_string(ranks);
    generate_spread(spread, condition, materials, ranks, exchange_limit);
    int compared = 0;
    for (const auto& file : fs::directory_iterator(fs::path(alone.tables_dir) / condition)) {
      const fs::path other = fs::path(spread) / condition / file.path().filename();
      EXPECT_EQ(test::file_bytes(file.path().string()), test::file_bytes(other.string())) << other;
      ++compared;
    }
    EXPECT_GT(compared, 2);
    // No temporary file or checkpoint left behind (lock files stay, as with one process).
    for (const auto& file : fs::directory_iterator(fs::path(spread) / condition)) {
      const std::string name = file.path().filename().string();
      EXPECT_TRUE(name.find(".tmp.") == std::string::npos && file.path().extension() != ".ckpt") << name;
    }
  }
  std::string dir_;
};

TEST_F(SpreadTables, OrthodoxOverThreeProcessesIsByteIdentical) { expect_identical("orthodox", {"KQvKR", "KPvK"}, 3); }

TEST_F(SpreadTables, MadrasiRiInRoundsOfAHundredUpdatesIsByteIdentical) {
  expect_identical("madrasi-ri", {"KRvKB"}, 4, /*exchange_limit=*/100);
}

TEST(PartStatistics, PartsMergeIntoTheWholeTablesStatistics) {
  const RuleSet rules = RuleSet::orthodox();
  const std::string dir = test::temporary_tables_dir("feerie-part-stats-");
  GenerateOptions options;
  options.tables_dir = dir;
  ASSERT_TRUE(generate({*Material::parse("KRvK")}, rules, options).ok());
  Tablebase tb = Tablebase::open(dir, rules);
  const Material material = *Material::parse("KRvKN");
  ASSERT_TRUE(generate({material}, rules, options).ok());
  // The values of KRvKN, solved again here, cut into three parts.
  Indexer indexer(material, rules);
  Tablebase subtables = Tablebase::open(dir, rules);
  auto solved = solve(indexer, subtables, SolveOptions{});
  ASSERT_TRUE(solved.ok());
  const auto whole = compute_statistics(indexer, solved->values, 2);
  std::vector<std::array<SideStatistics, 2>> parts;
  for (int r = 0; r < 3; ++r) {
    const OwnedRange range = owned_range(indexer.size(), r, 3);
    MemberValues part;
    for (int side = 0; side < 2; ++side) {
      const std::vector<ValueCode> all = solved->values[side].codes();
      part[side] = ValueArray::of(std::span(all).subspan(range.first, range.size()));
    }
    parts.push_back(partial_statistics(indexer, part, 2, range.first));
  }
  const auto merged = merge_statistics(indexer, parts);
  for (int side = 0; side < 2; ++side) {
    EXPECT_EQ(merged[side].positions, whole[side].positions);
    EXPECT_EQ(merged[side].win, whole[side].win);
    EXPECT_EQ(merged[side].loss, whole[side].loss);
    EXPECT_EQ(merged[side].classes_win, whole[side].classes_win);
    EXPECT_EQ(merged[side].classes_draw, whole[side].classes_draw);
    EXPECT_EQ(merged[side].longest_mate_plies, whole[side].longest_mate_plies);
    EXPECT_EQ(merged[side].longest_mate_fen, whole[side].longest_mate_fen);
    EXPECT_EQ(merged[side].classes_longest_mate_fen, whole[side].classes_longest_mate_fen);
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace feerie

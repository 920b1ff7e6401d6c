// Three-man orthodox tables end to end: generate, verify, compare with the published
// figures (docs/results/published/README.md), probe with best moves and principal variations.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <thread>

#include "gen/generate.h"
#include "gen/graph.h"
#include "gen/solver.h"
#include "gen/verify.h"
#include "probe/indexer.h"
#include "probe/table_file.h"
#include "probe/tablebase.h"
#include "tests/gen/table_test_util.h"
#include "tests/test_util.h"

namespace feerie {
namespace {

namespace fs = std::filesystem;

using test::flip_byte_near_end;

class ThreeMan : public ::testing::Test {
 protected:
  // The tables are shared by every test process (tests/gen/table_test_util.h): the first
  // generates them, the others find them sound and read their statistics back.
  static void SetUpTestSuite() {
    dir_ = test::shared_tables_dir("three_man");
    GenerateOptions options;
    options.tables_dir = dir_;
    auto generated = generate({*Material::parse("KQvK"), *Material::parse("KRvK"), *Material::parse("KPvK")},
                              RuleSet::orthodox(), options);
    ASSERT_TRUE(generated.ok()) << generated.error_message();
    tables_ = *generated;
    for (GeneratedTable& t : tables_) {
      if (!t.reused) continue;
      auto file = TableFile::open(t.path);
      ASSERT_TRUE(file.ok()) << file.error_message();
      t.stats = (*file)->header().stats;
    }
  }

  static const GeneratedTable& table(const char* name) {
    for (const GeneratedTable& t : tables_)
      if (t.material.name() == name) return t;
    throw std::runtime_error(name);
  }

  // A directory of its own (prefix `prefix`) holding the suite's KvK and its KQvK written
  // again with `edit` applied to its values: blocks and checksums sound, values not.
  template <class Edit>
  static std::string tables_with_edited_kqvk(const char* prefix, Edit&& edit) {
    const std::string other = test::temporary_tables_dir(prefix);
    fs::create_directories(fs::path(other) / "orthodox");
    fs::copy_file(fs::path(dir_) / "orthodox" / "KvK.ftb", fs::path(other) / "orthodox" / "KvK.ftb");
    auto file = TableFile::open((fs::path(dir_) / "orthodox" / "KQvK.ftb").string());
    EXPECT_TRUE(file.ok()) << file.error_message();
    if (!file.ok()) return other;
    std::array<std::vector<ValueCode>, 2> values;
    for (int side = 0; side < 2; ++side) values[side] = *(*file)->load_side(side);
    edit(values);
    EXPECT_TRUE(write_table((fs::path(other) / "orthodox" / "KQvK.ftb").string(), (*file)->header(), values).ok());
    return other;
  }

  // Plays the PV and checks it ends in mate after exactly dtm plies.
  static void expect_pv_mates(const Tablebase& tb, const std::string& fen, int dtm_plies) {
    Position pos = test::position(fen);
    auto pv = tb.principal_variation(pos);
    ASSERT_TRUE(pv.ok()) << pv.error_message();
    ASSERT_EQ(int(pv->size()), dtm_plies) << fen;
    for (Move m : *pv) {
      MoveList legal;
      generate_legal(pos, RuleSet::orthodox(), legal);
      ASSERT_TRUE(std::find(legal.begin(), legal.end(), m) != legal.end()) << to_uci(m);
      UndoRecord undo;
      make_move(pos, m, undo, OrthodoxRules{});
    }
    MoveList none;
    generate_legal(pos, RuleSet::orthodox(), none);
    EXPECT_TRUE(none.empty()) << to_fen(pos);
    EXPECT_TRUE(in_check(pos, RuleSet::orthodox())) << to_fen(pos);
  }

  static std::string dir_;
  static std::vector<GeneratedTable> tables_;
};

std::string ThreeMan::dir_;
std::vector<GeneratedTable> ThreeMan::tables_;

TEST_F(ThreeMan, DependenciesComeFirst) {
  ASSERT_FALSE(tables_.empty());
  EXPECT_EQ(tables_.front().material.name(), "KvK");
}

TEST_F(ThreeMan, RawCountsOfTheReference) {
  const GeneratedTable& kqk = table("KQvK");
  EXPECT_EQ(kqk.stats[WHITE].win, 144508u);
  EXPECT_EQ(kqk.stats[WHITE].draw, 0u);
  EXPECT_EQ(kqk.stats[BLACK].draw, 23048u);
  EXPECT_EQ(kqk.stats[BLACK].loss, 200896u);
  const GeneratedTable& krk = table("KRvK");
  EXPECT_EQ(krk.stats[WHITE].win, 175168u);
  EXPECT_EQ(krk.stats[BLACK].draw, 22244u);
  EXPECT_EQ(krk.stats[BLACK].loss, 201700u);
}

TEST_F(ThreeMan, LongestMatesAndClassesOfTheReference) {
  EXPECT_EQ((table("KQvK").stats[WHITE].longest_mate_plies + 1) / 2, 10);
  EXPECT_EQ(table("KQvK").stats[WHITE].longest_mate_plies, 19);
  EXPECT_EQ((table("KRvK").stats[WHITE].longest_mate_plies + 1) / 2, 16);
  const GeneratedTable& kpk = table("KPvK");
  EXPECT_EQ((kpk.stats[WHITE].longest_mate_plies + 1) / 2, 28);
  EXPECT_EQ(kpk.stats[WHITE].classes_win, 62480u);
  EXPECT_EQ(kpk.stats[WHITE].classes_draw, 19184u);
  EXPECT_EQ(kpk.stats[BLACK].classes_draw, 35210u);
  EXPECT_EQ(kpk.stats[BLACK].classes_loss, 48802u);
}

TEST_F(ThreeMan, VerifierFindsNoInconsistency) {
  for (const char* name : {"KvK", "KQvK", "KRvK", "KPvK"}) {
    auto report = verify_table(*Material::parse(name), RuleSet::orthodox(), dir_, 0);
    ASSERT_TRUE(report.ok()) << report.error_message();
    EXPECT_EQ(report->inconsistent, 0u) << name;
    EXPECT_GT(report->checked, 0u);
  }
}

TEST_F(ThreeMan, ProbeMateInOneAndItsMoves) {
  Tablebase tb = Tablebase::open(dir_, RuleSet::orthodox());
  Position pos = test::position("6k1/8/6K1/8/8/8/8/R7 w - - 0 1");
  auto r = tb.probe(pos);
  ASSERT_TRUE(r.ok()) << r.error_message();
  EXPECT_EQ(r->wdl, Wdl::Win);
  EXPECT_EQ(r->dtm_plies, 1);
  EXPECT_EQ(r->mate_in(), 1);
  auto best = tb.best_moves(pos);
  ASSERT_TRUE(best.ok());
  ASSERT_EQ(best->size(), 1u);
  EXPECT_EQ(to_uci(best->front()), "a1a8");
}

TEST_F(ThreeMan, PrincipalVariationsMateInTheStatedNumberOfMoves) {
  Tablebase tb = Tablebase::open(dir_, RuleSet::orthodox());
  for (const GeneratedTable& t : tables_) {
    if (t.reused || t.stats[WHITE].longest_mate_plies < 0) continue;
    expect_pv_mates(tb, t.stats[WHITE].longest_mate_fen, t.stats[WHITE].longest_mate_plies);
  }
}

TEST_F(ThreeMan, BlackSideMaterialIsProbedThroughTheColourFlip) {
  Tablebase tb = Tablebase::open(dir_, RuleSet::orthodox());
  // KvKQ with Black to move: Black mates in 1 (Qa1-a8 mirrored to the black side).
  auto r = tb.probe(test::position("r7/8/8/8/8/6k1/8/6K1 b - - 0 1"));
  ASSERT_TRUE(r.ok()) << r.error_message();
  EXPECT_EQ(r->wdl, Wdl::Win);
  EXPECT_EQ(r->dtm_plies, 1);
}

TEST_F(ThreeMan, MatedPositionAndDraw) {
  Tablebase tb = Tablebase::open(dir_, RuleSet::orthodox());
  auto mated = tb.probe(test::position("R5k1/8/6K1/8/8/8/8/8 b - - 0 1"));
  ASSERT_TRUE(mated.ok());
  EXPECT_EQ(mated->wdl, Wdl::Loss);
  EXPECT_EQ(mated->dtm_plies, 0);
  auto pv = tb.principal_variation(test::position("R5k1/8/6K1/8/8/8/8/8 b - - 0 1"));
  ASSERT_TRUE(pv.ok());
  EXPECT_TRUE(pv->empty());
  // Black to move takes the undefended queen: a draw.
  auto draw = tb.probe(test::position("8/8/8/8/8/8/1q6/K1k5 w - - 0 1"));
  ASSERT_TRUE(draw.ok()) << draw.error_message();
}

TEST_F(ThreeMan, MissingTableIsAClearError) {
  Tablebase tb = Tablebase::open(dir_, RuleSet::orthodox());
  auto r = tb.probe(test::position("4k3/8/8/8/8/8/8/2BBK3 w - - 0 1"));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error_message().find("missing table KBBvK"), std::string::npos) << r.error_message();
}

TEST_F(ThreeMan, CorruptAndTruncatedTablesAreRejected) {
  fs::path source = fs::path(dir_) / "orthodox" / "KQvK.ftb";
  std::string other = test::temporary_tables_dir("feerie-e2e-bad-");
  fs::create_directories(fs::path(other) / "orthodox");
  fs::path copy = fs::path(other) / "orthodox" / "KQvK.ftb";
  Position pos = test::position("6k1/8/6K1/8/8/8/8/Q7 w - - 0 1");
  // Truncated.
  fs::copy_file(source, copy, fs::copy_options::overwrite_existing);
  fs::resize_file(copy, fs::file_size(copy) - 100);
  auto r = Tablebase::open(other, RuleSet::orthodox()).probe(pos);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error_message().find("truncated"), std::string::npos) << r.error_message();
  // A flipped byte in every block region: some probe reports corruption, none crashes.
  fs::copy_file(source, copy, fs::copy_options::overwrite_existing);
  flip_byte_near_end(copy);
  Tablebase tb = Tablebase::open(other, RuleSet::orthodox());
  auto report = verify_table(*Material::parse("KQvK"), RuleSet::orthodox(), other, 1);
  fs::copy_file(fs::path(dir_) / "orthodox" / "KvK.ftb", fs::path(other) / "orthodox" / "KvK.ftb");
  report = verify_table(*Material::parse("KQvK"), RuleSet::orthodox(), other, 1);
  ASSERT_FALSE(report.ok());
  EXPECT_NE(report.error_message().find("corrupt"), std::string::npos) << report.error_message();
  fs::remove_all(other);
}

// A table whose blocks are sound but one value is wrong: the verifier names the position
// (as the index decodes it, one of its symmetric images).
TEST_F(ThreeMan, VerifierFindsAWrongValue) {
  // A mate in one stored as a draw.
  const Position pos = test::position("6k1/8/6K1/8/8/8/8/Q7 w - - 0 1");
  const Indexer indexer(*Material::parse("KQvK"), RuleSet::orthodox());
  const std::string other = tables_with_edited_kqvk("feerie-e2e-wrong-", [&](auto& values) {
    ValueCode& v = values[WHITE][indexer.index(pos)];
    ASSERT_EQ(v, value::mate_in_plies(1));
    v = value::Draw;
  });

  auto report = verify_table(*Material::parse("KQvK"), RuleSet::orthodox(), other, 2);
  ASSERT_TRUE(report.ok()) << report.error_message();
  EXPECT_GE(report->inconsistent, 1u);
  bool named = false;
  for (const std::string& e : report->examples)
    named |= e.find(" w - - 0 1: stored draw, expected win in 1 plies") != std::string::npos;
  EXPECT_TRUE(named) << (report->examples.empty() ? "no example" : report->examples[0]);
  fs::remove_all(other);
}

// `verify --part`: one part of one is the whole table, checked through the path that holds
// only its part in memory, and finds the same wrong value; a part that does not exist is
// refused.
TEST_F(ThreeMan, VerifierOfAPartFindsTheWrongValueOfItsPart) {
  const Position pos = test::position("6k1/8/6K1/8/8/8/8/Q7 w - - 0 1");
  const Indexer indexer(*Material::parse("KQvK"), RuleSet::orthodox());
  const std::string other = tables_with_edited_kqvk(
      "feerie-e2e-part-", [&](auto& values) { values[WHITE][indexer.index(pos)] = value::Draw; });
  const auto whole = verify_table(*Material::parse("KQvK"), RuleSet::orthodox(), other, 2);
  const auto part = verify_table_part(*Material::parse("KQvK"), RuleSet::orthodox(), other, 2, VerifyPart{0, 1});
  ASSERT_TRUE(whole.ok()) << whole.error_message();
  ASSERT_TRUE(part.ok()) << part.error_message();
  EXPECT_EQ(part->checked, 2 * indexer.size());
  EXPECT_EQ(part->checked, whole->checked);
  EXPECT_GE(part->inconsistent, 1u);
  EXPECT_EQ(part->inconsistent, whole->inconsistent);
  EXPECT_EQ(part->examples, whole->examples);
  for (VerifyPart bad : {VerifyPart{1, 1}, VerifyPart{-1, 2}, VerifyPart{0, 0}}) {
    const auto refused = verify_table_part(*Material::parse("KQvK"), RuleSet::orthodox(), other, 1, bad);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error_kind(), ErrorKind::InvalidArgument);
  }
  fs::remove_all(other);
}

// A successor whose entry holds no value (Unknown, as a solve cut short would leave it):
// the verifier stops with a corruption that names the successor (no test reached it).
TEST_F(ThreeMan, VerifierNamesASuccessorWithoutAValue) {
  const Position pos = test::position("6k1/8/6K1/8/8/8/8/Q7 w - - 0 1");
  const Indexer indexer(*Material::parse("KQvK"), RuleSet::orthodox());
  const std::string other = tables_with_edited_kqvk(
      "feerie-e2e-unknown-", [&](auto& values) { values[WHITE][indexer.index(pos)] = value::Unknown; });

  auto report = verify_table(*Material::parse("KQvK"), RuleSet::orthodox(), other, 2);
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.error_kind(), ErrorKind::Corruption);
  EXPECT_NE(report.error_message().find("successor "), std::string::npos) << report.error_message();
  EXPECT_NE(report.error_message().find(" w - - 0 1 has no value (unknown)"), std::string::npos)
      << report.error_message();
  fs::remove_all(other);
}

// A table whose blocks are sound but whose values contradict each other (an exploratory
// test of the Python module): best_moves() and principal_variation() said "no move" where
// probe() reported a corrupt table. Each now names the table file.
TEST_F(ThreeMan, BestMovesAndLineReportATableWhoseValuesAreWrong) {
  const Position pos = test::position("8/8/8/5k2/8/8/1Q6/K7 w - - 0 1");
  const Indexer indexer(*Material::parse("KQvK"), RuleSet::orthodox());
  for (ValueCode damage : {value::Unknown, value::mate_in_plies(1)}) {
    const std::string sound_dir = tables_with_edited_kqvk("feerie-e2e-values-", [](auto&) {});
    Tablebase sound = Tablebase::open(sound_dir, RuleSet::orthodox());
    ASSERT_TRUE(sound.best_moves(pos).ok());
    ASSERT_FALSE(sound.best_moves(pos)->empty());
    fs::remove_all(sound_dir);
    const std::string other = tables_with_edited_kqvk(
        "feerie-e2e-values-", [&](auto& values) { values[WHITE][indexer.index(pos)] = damage; });
    const std::string path = (fs::path(other) / "orthodox" / "KQvK.ftb").string();

    Tablebase tb = Tablebase::open(other, RuleSet::orthodox());
    auto best = tb.best_moves(pos);
    ASSERT_FALSE(best.ok()) << "damage " << damage << ": " << best->size() << " best moves";
    EXPECT_EQ(best.error().kind, ErrorKind::Corruption);
    EXPECT_NE(best.error_message().find(path), std::string::npos) << best.error_message();
    auto line = tb.principal_variation(pos);
    ASSERT_FALSE(line.ok()) << "damage " << damage;
    EXPECT_EQ(line.error().kind, ErrorKind::Corruption);
    EXPECT_NE(line.error_message().find(path), std::string::npos) << line.error_message();
    if (damage == value::Unknown) {
      auto probed = tb.probe(pos);
      ASSERT_FALSE(probed.ok());
      EXPECT_NE(probed.error_message().find(path), std::string::npos) << probed.error_message();
    }
    fs::remove_all(other);
  }
}

// A table file replaced on disk while a tablebase has it open (as `feerie gen` replaces a
// damaged or outdated table: a new file renamed over it) is read again within a second: an
// open handle (serve, the C API, Python) once answered from the old file until it was
// closed, its values and its corruption. A file removed is a missing table.
TEST_F(ThreeMan, ATableReplacedOnDiskIsReadAgainWithinASecond) {
  const Position pos = test::position("6k1/8/6K1/8/8/8/8/Q7 w - - 0 1");
  const Indexer indexer(*Material::parse("KQvK"), RuleSet::orthodox());
  const std::string other = tables_with_edited_kqvk(
      "feerie-e2e-replaced-", [&](auto& values) { values[WHITE][indexer.index(pos)] = value::Draw; });
  const fs::path path = fs::path(other) / "orthodox" / "KQvK.ftb";
  Tablebase tb = Tablebase::open(other, RuleSet::orthodox());
  // Each thread keeps its recent tables: this one and another probe before and after.
  std::promise<void> replaced;
  std::promise<Wdl> other_before;
  std::future<Wdl> other_after = std::async(std::launch::async, [&] {
    auto seen = tb.probe(pos);
    other_before.set_value(seen.ok() ? seen->wdl : Wdl::Loss);
    replaced.get_future().wait();
    seen = tb.probe(pos);
    return seen.ok() ? seen->wdl : Wdl::Loss;
  });
  EXPECT_EQ(other_before.get_future().get(), Wdl::Draw);
  auto before = tb.probe(pos);
  ASSERT_TRUE(before.ok()) << before.error_message();
  EXPECT_EQ(before->wdl, Wdl::Draw);  // the wrong value, read from the open file

  // The sound table, renamed over the wrong one.
  const fs::path renamed = path.string() + ".new";
  fs::copy_file(fs::path(dir_) / "orthodox" / "KQvK.ftb", renamed);
  fs::rename(renamed, path);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  auto after = tb.probe(pos);
  ASSERT_TRUE(after.ok()) << after.error_message();
  EXPECT_EQ(after->wdl, Wdl::Win);
  EXPECT_EQ(after->dtm_plies, 1);
  replaced.set_value();
  EXPECT_EQ(other_after.get(), Wdl::Win);

  fs::remove(path);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  auto gone = tb.probe(pos);
  ASSERT_FALSE(gone.ok());
  EXPECT_EQ(gone.error().kind, ErrorKind::NotFound) << gone.error_message();
  fs::remove_all(other);
}

// A thread count beyond what the program supports is refused before any work (the Python
// module and the C API passed 100000 on to OpenMP, which crashed the interpreter).
TEST_F(ThreeMan, GenerateRefusesAThreadCountOutsideItsRange) {
  for (int threads : {-1, MaxThreads + 1, 100000}) {
    GenerateOptions options;
    options.tables_dir = dir_;
    options.threads = threads;
    auto done = generate({*Material::parse("KQvK")}, RuleSet::orthodox(), options);
    ASSERT_FALSE(done.ok()) << threads;
    EXPECT_EQ(done.error().kind, ErrorKind::InvalidArgument);
    EXPECT_NE(done.error_message().find(std::to_string(threads)), std::string::npos) << done.error_message();
    auto one = generate_one(*Material::parse("KQvK"), RuleSet::orthodox(), options);
    ASSERT_FALSE(one.ok()) << threads;
    EXPECT_EQ(one.error().kind, ErrorKind::InvalidArgument);
  }
}

TEST_F(ThreeMan, BitIdenticalForOneAndTwoThreads) {
  Tablebase subtables = Tablebase::open(dir_, RuleSet::orthodox());
  Indexer indexer(*Material::parse("KPvK"), RuleSet::orthodox());
  SolveOptions one, two;
  one.threads = 1;
  two.threads = 2;
  auto a = solve(indexer, subtables, one);
  auto b = solve(indexer, subtables, two);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_TRUE(a->values[WHITE].codes() == b->values[WHITE].codes());
  EXPECT_TRUE(a->values[BLACK].codes() == b->values[BLACK].codes());
}

// The promotion tables read through their compressed blocks (the solver's way) or whole give
// the same values.
TEST_F(ThreeMan, SubTablesReadThroughBlocksOrWholeGiveTheSameValues) {
  Tablebase subtables = Tablebase::open(dir_, RuleSet::orthodox());
  Indexer indexer(*Material::parse("KPvK"), RuleSet::orthodox());
  SolveOptions blocks, whole;
  blocks.subtable_reading = Tablebase::Reading::ThroughBlocks;
  blocks.small_subtables_whole = false;
  whole.subtable_reading = Tablebase::Reading::Whole;
  auto a = solve(indexer, subtables, blocks);
  auto b = solve(indexer, Tablebase::open(dir_, RuleSet::orthodox()), whole);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_TRUE(a->values[WHITE].codes() == b->values[WHITE].codes());
  EXPECT_TRUE(a->values[BLACK].codes() == b->values[BLACK].codes());
}

// A promotion table with a bad block: the solve reading it through its blocks stops with an
// error naming the file, as the one reading it whole does.
TEST_F(ThreeMan, ACorruptSubTableBlockStopsTheSolveWithAnError) {
  const std::string other = test::temporary_tables_dir("feerie-e2e-bad-subtable-");
  fs::create_directories(fs::path(other) / "orthodox");
  for (const char* name : {"KvK", "KQvK", "KRvK", "KBvK", "KNvK"})
    fs::copy_file(fs::path(dir_) / "orthodox" / (std::string(name) + ".ftb"),
                  fs::path(other) / "orthodox" / (std::string(name) + ".ftb"));
  flip_byte_near_end(fs::path(other) / "orthodox" / "KQvK.ftb");  // its black side: one block
  Indexer indexer(*Material::parse("KPvK"), RuleSet::orthodox());
  for (Tablebase::Reading reading : {Tablebase::Reading::ThroughBlocks, Tablebase::Reading::Whole}) {
    SolveOptions options;
    options.subtable_reading = reading;
    options.small_subtables_whole = false;
    auto solved = solve(indexer, Tablebase::open(other, RuleSet::orthodox()), options);
    ASSERT_FALSE(solved.ok());
    EXPECT_EQ(solved.error_kind(), ErrorKind::Corruption) << solved.error_message();
    EXPECT_NE(solved.error_message().find("KQvK.ftb"), std::string::npos) << solved.error_message();
  }
  fs::remove_all(other);
}

TEST_F(ThreeMan, ReusesTablesOnDisk) {
  GenerateOptions options;
  options.tables_dir = dir_;
  auto again = generate({*Material::parse("KQvK")}, RuleSet::orthodox(), options);
  ASSERT_TRUE(again.ok());
  for (const GeneratedTable& t : *again) EXPECT_TRUE(t.reused) << t.material.name();
}

// A table another run wrote after this run made its plan is reused, not solved again (a
// set and a run of one of its materials started together once both generated it): here
// KRvK appears on disk while KQvK is being written.
TEST_F(ThreeMan, ATableWrittenByAnotherRunSinceThePlanIsReused) {
  const std::string other = test::temporary_tables_dir("feerie-written-since-plan-");
  fs::remove_all(other);
  fs::create_directories(fs::path(other) / "orthodox");
  fs::copy_file(fs::path(dir_) / "orthodox" / "KvK.ftb", fs::path(other) / "orthodox" / "KvK.ftb");
  GenerateOptions options;
  options.tables_dir = other;
  options.checkpoint_seconds = -1;
  options.on_table = [&](const GeneratedTable& t) {
    if (t.material.name() == "KQvK")
      fs::copy_file(fs::path(dir_) / "orthodox" / "KRvK.ftb", fs::path(other) / "orthodox" / "KRvK.ftb");
  };
  auto done = generate({*Material::parse("KQvK"), *Material::parse("KRvK")}, RuleSet::orthodox(), options);
  ASSERT_TRUE(done.ok()) << done.error_message();
  ASSERT_EQ(done->back().material.name(), "KRvK");
  EXPECT_TRUE(done->back().reused);
  fs::remove_all(other);
}

TEST(Graph, SuccessorsOfKQvKR) {
  std::vector<std::string> names;
  for (const Material& m : material_successors(*Material::parse("KQvKR"), RuleSet::orthodox()))
    names.push_back(m.name());
  EXPECT_EQ(names.size(), 2u);
  EXPECT_TRUE(test::contains(names, "KQvK"));
  EXPECT_TRUE(test::contains(names, "KRvK"));
}

TEST(Graph, PromotionsWithAndWithoutCapture) {
  std::vector<std::string> names;
  for (const Material& m : material_successors(*Material::parse("KPvKR"), RuleSet::orthodox()))
    names.push_back(m.name());
  for (const char* n : {"KPvK", "KRvK", "KQvKR", "KRvKR", "KRvKB", "KRvKN", "KQvK", "KBvK", "KNvK"})
    EXPECT_TRUE(test::contains(names, n)) << n;
}

TEST(Graph, SolvingOrderPutsDependenciesFirst) {
  auto order = solving_order({*Material::parse("KQvKR")}, RuleSet::orthodox());
  std::vector<std::string> names;
  for (const auto& component : order) {
    ASSERT_EQ(component.size(), 1u);
    names.push_back(component.front().name());
  }
  ASSERT_EQ(names.back(), "KQvKR");
  EXPECT_EQ(names.front(), "KvK");
  EXPECT_EQ(names.size(), 4u);
}

}  // namespace
}  // namespace feerie

namespace feerie {
namespace {

// Regression tests for failures a new user found (the reliability issue): a table on disk
// is trusted again only after its blocks match their checksums and its header names the
// right material and condition.
class Reuse : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (fs::temp_directory_path() / ("feerie-reuse-" + std::to_string(::getpid()))).string();
    options_.tables_dir = dir_;
    auto generated = generate({*Material::parse("KQvK"), *Material::parse("KRvK")}, RuleSet::orthodox(), options_);
    ASSERT_TRUE(generated.ok()) << generated.error_message();
    path_ = (fs::path(dir_) / "orthodox" / "KQvK.ftb").string();
    original_ = test::file_bytes(path_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  GeneratedTable regenerate_kqvk() {
    auto again = generate({*Material::parse("KQvK")}, RuleSet::orthodox(), options_);
    EXPECT_TRUE(again.ok()) << again.error_message();
    return again.ok() ? again->back() : GeneratedTable{};
  }

  std::string dir_, path_, original_;
  GenerateOptions options_;
};

TEST_F(Reuse, GenRegeneratesATableWithAFlippedByteInABlock) {
  flip_byte_near_end(path_);
  GeneratedTable t = regenerate_kqvk();
  EXPECT_FALSE(t.reused);
  EXPECT_NE(t.replaced_because.find("checksum mismatch"), std::string::npos) << t.replaced_because;
  EXPECT_TRUE(test::file_bytes(path_) == original_);
}

TEST_F(Reuse, GenDoesNotReuseATableOfAnotherMaterialWithoutSayingSo) {
  fs::copy_file(fs::path(dir_) / "orthodox" / "KRvK.ftb", path_, fs::copy_options::overwrite_existing);
  GeneratedTable t = regenerate_kqvk();
  EXPECT_FALSE(t.reused);
  EXPECT_NE(t.replaced_because.find("holds material KRvK, not KQvK"), std::string::npos) << t.replaced_because;
  EXPECT_TRUE(test::file_bytes(path_) == original_);
}

TEST_F(Reuse, SoundTableIsReusedWithoutComment) {
  GeneratedTable t = regenerate_kqvk();
  EXPECT_TRUE(t.reused);
  EXPECT_TRUE(t.replaced_because.empty());
}

// SIGINT (or a kill, or a power loss) during a write used to leave ".tmp" files for ever.
TEST_F(Reuse, GenRemovesTemporaryFilesOfInterruptedRuns) {
  fs::path orthodox = fs::path(dir_) / "orthodox";
  // A process id above the kernel's maximum (4194304) belongs to no process.
  fs::path stale = orthodox / "KQvKR.ftb.tmp.99999999.0",
           live = orthodox / ("KQvKR.ftb.tmp." + std::to_string(::getpid()) + ".7");
  std::ofstream(stale) << "half a table";
  std::ofstream(live) << "a table being written";
  regenerate_kqvk();
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(live));  // its writer still runs
}

TEST_F(Reuse, TablesPathThatIsAFileIsNotAMissingTable) {
  auto r = Tablebase::open(path_, RuleSet::orthodox()).probe(test::position("6k1/8/6K1/8/8/8/8/Q7 w - - 0 1"));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error_message().find("is not a directory"), std::string::npos) << r.error_message();
}

}  // namespace
}  // namespace feerie

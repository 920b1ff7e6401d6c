// The slow half of loss_passes_test.cpp (ctest label `slow`): tables whose moves leave the
// material in more ways are the same bytes whether their passes of losses push or pull
// (gen/solver.h, LossPassChoice): orthodox KPvKP (double steps reaching en-passant
// sections, promotions to the sub-tables) and the component of magic materials of KmRvKP
// (mutations leading from member to member). The sub-tables are generated once (pushed)
// and copied; the last component is solved both ways, pulling as `pulling` says (these
// drawish tables have far more candidates than losses: the default choice seldom pulls).
#include <filesystem>

#include "gen/generate.h"
#include "tests/gen/table_test_util.h"
#include "tests/test_util.h"

namespace feerie {
namespace fs = std::filesystem;
namespace {

void expect_same_tables_pushed_and_pulled(const char* material, LossPassChoice pulling) {
  const std::string pushed = test::temporary_tables_dir("feerie-pushed-"),
                    pulled = test::temporary_tables_dir("feerie-pulled-");
  auto run = [&](const std::string& dir, LossPassChoice choice) {
    GenerateOptions options;
    options.tables_dir = dir;
    options.threads = 2;
    options.checkpoint_seconds = -1;
    options.loss_passes = choice;
    return generate({*Material::parse(material)}, RuleSet::orthodox(), options);
  };
  Expected<std::vector<GeneratedTable>> first = run(pushed, LossPassChoice::push_only());
  ASSERT_TRUE(first.ok()) << first.error_message();
  ASSERT_FALSE(first->empty());
  const std::vector<Material>& component = first->back().component;
  for (const GeneratedTable& t : *first) {
    if (std::find(component.begin(), component.end(), t.material) != component.end()) continue;
    const fs::path to = fs::path(pulled) / fs::relative(t.path, pushed);
    fs::create_directories(to.parent_path());
    fs::copy_file(t.path, to);
  }
  Expected<std::vector<GeneratedTable>> second = run(pulled, pulling);
  ASSERT_TRUE(second.ok()) << second.error_message();
  EXPECT_EQ(first->back().pulled, 0);
  EXPECT_GT(second->back().pulled, 0);
  int compared = 0;
  for (const GeneratedTable& t : *second) {
    if (t.reused) continue;
    const fs::path before = fs::path(pushed) / fs::relative(t.path, pulled);
    EXPECT_TRUE(test::file_bytes(before.string()) == test::file_bytes(t.path)) << t.material.name();
    ++compared;
  }
  EXPECT_EQ(compared, int(component.size()));
  fs::remove_all(pushed);
  fs::remove_all(pulled);
}

// Pulling wherever the candidates are fewer than a hundred times the losses.
TEST(LossPassesSlow, PawnTablesWithEnPassantAreTheSamePushedOrPulled) {
  expect_same_tables_pushed_and_pulled("KPvKP", LossPassChoice{0.01, 1});
}

// Whatever the candidates, in the passes of 12,000 losses or more (passes 4 and 6, black's
// losses: a few thousand each, against millions of open white entries).
TEST(LossPassesSlow, MagicComponentIsTheSamePushedOrPulled) {
  expect_same_tables_pushed_and_pulled("KmRvKP", LossPassChoice{0, 12000});
}

}  // namespace
}  // namespace feerie

// The slow half of magic_tables_test.cpp (ctest label `slow`): every member of the KmRvKP
// component verifies entry by entry, and the component's tables are the same bytes when
// solved with 1 and with 2 threads.
#include <fstream>
#include <iterator>

#include "tests/gen/table_test_util.h"
#include "tests/test_util.h"

namespace feerie {
namespace {

TEST(MagicTablesSlow, EveryMemberVerifiesAndThreadCountsGiveTheSameBytes) {
  const std::string dir2 = test::temporary_tables_dir("feerie-magic-2-"),
                    dir1 = test::temporary_tables_dir("feerie-magic-1-");
  std::vector<GeneratedTable> two = test::generate_with_threads(dir2, "KmRvKP", 2);
  std::vector<GeneratedTable> one = test::generate_with_threads(dir1, "KmRvKP", 1);
  ASSERT_EQ(two.size(), 6u);
  ASSERT_EQ(one.size(), two.size());
  for (std::size_t i = 0; i < two.size(); ++i) {
    EXPECT_TRUE(test::file_bytes(two[i].path) == test::file_bytes(one[i].path)) << two[i].material.name();
    auto report = verify_table(two[i].material, RuleSet::orthodox(), dir2, 0);
    ASSERT_TRUE(report.ok()) << report.error_message();
    EXPECT_EQ(report->inconsistent, 0u) << two[i].material.name();
  }
  std::filesystem::remove_all(dir2);
  std::filesystem::remove_all(dir1);
}

}  // namespace
}  // namespace feerie

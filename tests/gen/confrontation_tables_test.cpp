// Tables under Face-to-face and Back-to-back (rules/conditions/face_to_face.h): KQvK, KPvK
// and KRvKN of each verified, and the mate lengths of 174 positions equal to the reference
// solver's (Popeye 4.104, tests/data/popeye_confrontation/mates.txt, recorded outside
// the suite).
#include <fstream>

#include "probe/tablebase.h"
#include "tests/gen/table_test_util.h"
#include "tests/test_util.h"

namespace feerie {
namespace {

class ConfrontationTables : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { dir_ = test::shared_tables_dir("confrontation"); }
  static std::string dir_;
};

std::string ConfrontationTables::dir_;

TEST_F(ConfrontationTables, MateLengthsEqualPopeyes) {
  for (const char* condition : {"face-to-face", "back-to-back"})
    for (const char* material : {"KQvK", "KPvK", "KRvKN"}) test::generate_and_verify(dir_, condition, material);
  std::ifstream in(FEERIE_SOURCE_DIR "/tests/data/popeye_confrontation/mates.txt");
  ASSERT_TRUE(in) << "tests/data/popeye_confrontation/mates.txt";
  int compared = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const std::size_t a = line.find('|'), b = line.find('|', a + 1);
    ASSERT_NE(b, std::string::npos) << line;
    Tablebase tb = Tablebase::open(dir_, *RuleSet::parse(line.substr(0, a)));
    auto r = tb.probe(test::position(line.substr(a + 1, b - a - 1)));
    ASSERT_TRUE(r.ok()) << line << ": " << r.error_message();
    EXPECT_EQ(r->wdl, Wdl::Win) << line;
    EXPECT_EQ(r->dtm_plies, 2 * std::stoi(line.substr(b + 1)) - 1) << line;
    ++compared;
  }
  EXPECT_EQ(compared, 174);
}

}  // namespace
}  // namespace feerie

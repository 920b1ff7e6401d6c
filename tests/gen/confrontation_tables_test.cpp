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

// The tables of `condition` verified, and the recorded mate lengths of its positions
// equal to the table's; returns the number of positions compared.
int check_mate_lengths(const std::string& dir, const std::string& condition) {
  for (const char* material : {"KQvK", "KPvK", "KRvKN"}) test::generate_and_verify(dir, condition.c_str(), material);
  std::ifstream in(FEERIE_SOURCE_DIR "/tests/data/popeye_confrontation/mates.txt");
  EXPECT_TRUE(in) << "tests/data/popeye_confrontation/mates.txt";
  Tablebase tb = Tablebase::open(dir, *RuleSet::parse(condition));
  int compared = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#' || line.rfind(condition + "|", 0) != 0) continue;
    const std::size_t a = line.find('|'), b = line.find('|', a + 1);
    EXPECT_NE(b, std::string::npos) << line;
    auto r = tb.probe(test::position(line.substr(a + 1, b - a - 1)));
    EXPECT_TRUE(r.ok()) << line << ": " << (r.ok() ? "" : r.error_message());
    if (!r.ok()) continue;
    EXPECT_EQ(r->wdl, Wdl::Win) << line;
    EXPECT_EQ(r->dtm_plies, 2 * std::stoi(line.substr(b + 1)) - 1) << line;
    ++compared;
  }
  return compared;
}

TEST_F(ConfrontationTables, FaceToFaceMateLengthsEqualPopeyes) {
  EXPECT_EQ(check_mate_lengths(dir_, "face-to-face"), 87);
}
TEST_F(ConfrontationTables, BackToBackMateLengthsEqualPopeyes) {
  EXPECT_EQ(check_mate_lengths(dir_, "back-to-back"), 87);
}

}  // namespace
}  // namespace feerie

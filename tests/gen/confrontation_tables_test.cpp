// Tables under Face-to-face and Back-to-back (rules/conditions/face_to_face.h): KQvK, KPvK
// and KRvKN of each verified, and the mate lengths of 174 positions equal to the reference
// solver's (Popeye 4.104, tests/data/popeye_confrontation/mates.txt, recorded outside
// the suite).
#include "tests/gen/popeye_mates.h"
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
  return test::check_popeye_mate_lengths(dir, condition,
                                         FEERIE_SOURCE_DIR "/tests/data/popeye_confrontation/mates.txt");
}

TEST_F(ConfrontationTables, FaceToFaceMateLengthsEqualPopeyes) {
  EXPECT_EQ(check_mate_lengths(dir_, "face-to-face"), 87);
}
TEST_F(ConfrontationTables, BackToBackMateLengthsEqualPopeyes) {
  EXPECT_EQ(check_mate_lengths(dir_, "back-to-back"), 87);
}

}  // namespace
}  // namespace feerie

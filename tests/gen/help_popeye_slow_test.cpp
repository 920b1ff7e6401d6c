// Every helpmate Popeye recorded (tests/gen/help_corpus.h), 3- and 4-man, under orthodox
// chess, Madrasi RI and Annan: at least 300 positions each (slow suite: the 4-man tables
// take a minute or two per condition).
#include "tests/gen/help_corpus.h"

namespace feerie {
namespace {

const std::set<std::string> All = {"KQvK", "KRvK", "KPvK", "KBNvK", "KQvKR", "KRvKN", "KPvKP", "KRvKP"};

TEST(HelpPopeyeSlow, OrthodoxEqualsPopeyes) { EXPECT_GE(test::expect_popeye_helpmates("orthodox", All), 300); }
TEST(HelpPopeyeSlow, MadrasiRiEqualsPopeyes) { EXPECT_GE(test::expect_popeye_helpmates("madrasi-ri", All), 300); }
TEST(HelpPopeyeSlow, AnnanEqualsPopeyes) { EXPECT_GE(test::expect_popeye_helpmates("annan", All), 300); }

}  // namespace
}  // namespace feerie

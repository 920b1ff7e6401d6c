// probe/material_set.h: the sets of `gen --set`, counted by hand and by pattern.
#include "probe/material_set.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace feerie {
namespace {

std::vector<std::string> names(const char* spec, PawnFilter pawns = PawnFilter::Any) {
  Expected<std::vector<Material>> set = material_set(spec, pawns);
  EXPECT_TRUE(set.ok()) << spec << ": " << (set.ok() ? "" : set.error_message());
  std::vector<std::string> out;
  if (set.ok())
    for (const Material& m : *set) out.push_back(m.name());
  return out;
}

TEST(MaterialSet, EveryMaterialOfANumberOfMen) {
  EXPECT_EQ(names("2"), std::vector<std::string>{"KvK"});
  EXPECT_EQ(names("3"), (std::vector<std::string>{"KBvK", "KNvK", "KPvK", "KQvK", "KRvK"}));
  // 4 men: two units on one side (15 pairs of Q R B N P) or one each (15 unordered pairs).
  EXPECT_EQ(names("4").size(), 30u);
  // 5 men: 3 v 0 (35 triples) and 2 v 1 (15 pairs times 5).
  EXPECT_EQ(names("5").size(), 110u);
  // A range is the sets of each number, smallest first.
  std::vector<std::string> range = names("3-4");
  ASSERT_EQ(range.size(), 35u);
  EXPECT_EQ(range.front(), "KBvK");
  EXPECT_EQ(range.back().size(), 5u);  // a 4-man name: K?vK? or K??vK
  // Pawnless 4-man: 10 on one side, 10 one each; with pawns the other 10.
  EXPECT_EQ(names("4", PawnFilter::WithoutPawns).size(), 20u);
  EXPECT_EQ(names("4", PawnFilter::WithPawns).size(), 10u);
}

TEST(MaterialSet, PatternsStandForEachUnitInTheStoredOrientation) {
  EXPECT_EQ(names("K?vK"), (std::vector<std::string>{"KBvK", "KNvK", "KPvK", "KQvK", "KRvK"}));
  // KRvKQ is stored as KQvKR: 15 tables, not 25.
  EXPECT_EQ(names("K?vK?").size(), 15u);
  EXPECT_EQ(names("KvK?").size(), 5u);
  std::vector<std::string> rook_pawn = names("KR?vKR");
  EXPECT_EQ(rook_pawn, (std::vector<std::string>{"KQRvKR", "KRBvKR", "KRNvKR", "KRPvKR", "KRRvKR"}));
  EXPECT_EQ(names("K?PvK?").size(), 25u);
  EXPECT_EQ(names("K?PvK?", PawnFilter::WithoutPawns).size(), 0u);
  // Fairy and magic units are named, never stood for (a bishop outweighs a grasshopper
  // in the stored orientation, a grasshopper a pawn).
  EXPECT_EQ(names("KGvK?"), (std::vector<std::string>{"KBvKG", "KGvKP", "KNvKG", "KQvKG", "KRvKG"}));
  EXPECT_EQ(names("KmRvK").size(), 1u);
}

TEST(MaterialSet, BadSetsAreRefusedWithTheReason) {
  for (const char* bad : {"1", "8", "5-3", "0-2", "KXvK", "K?", "K??????????vK", ""}) {
    Expected<std::vector<Material>> set = material_set(bad);
    ASSERT_FALSE(set.ok()) << bad;
    EXPECT_EQ(set.error_kind(), ErrorKind::InvalidArgument) << bad;
    EXPECT_NE(set.error_message().find(std::string("bad set '") + bad + "'"), std::string::npos) << set.error_message();
  }
}

}  // namespace
}  // namespace feerie

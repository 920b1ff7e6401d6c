#include "probe/material.h"

#include <gtest/gtest.h>

#include "tests/test_util.h"

namespace feerie {
namespace {

TEST(Material, CanonicalNames) {
  for (auto [input, canonical] : std::vector<std::pair<const char*, const char*>>{
           {"KQvKR", "KQvKR"},
           {"kqvkr", "KQvKR"},
           {"KRQvK", "KQRvK"},
           {"KPNvKB", "KNPvKB"},
           {"KGLvKL", "KGLvKL"},
           {"KmRvKN", "KmRvKN"},
           {"KMRVKN", "KmRvKN"},  // the magic mark in either case too (refused before)
           {"kmrvkn", "KmRvKN"},
           {"KRmRvK", "KRmRvK"},
           {"KPGvK", "KGPvK"}}) {
    Expected<Material> m = Material::parse(input);
    ASSERT_TRUE(m.ok()) << input << ": " << m.error_message();
    EXPECT_EQ(m->name(), canonical) << input;
  }
}

TEST(Material, BadNames) {
  for (auto [input, message] :
       std::vector<std::pair<const char*, const char*>>{{"KQK", "one 'v'"},
                                                        {"KQvKvK", "one 'v'"},
                                                        {"KXvK", "unknown piece letter 'X' at character 2"},
                                                        {"QvK", "exactly one king, White has 0"},
                                                        {"KKvK", "White has 2"},
                                                        {"KmvK", "'m' not followed"},
                                                        {"KvKm", "'m' not followed"},
                                                        {"KmKvK", "a king cannot be magic"}}) {
    Expected<Material> m = Material::parse(input);
    ASSERT_FALSE(m.ok()) << input;
    EXPECT_NE(m.error_message().find(message), std::string::npos) << m.error_message();
  }
}

TEST(Material, OfPositionAndSwap) {
  Material m = Material::of(test::position("4k3/8/8/8/8/8/3rQ3/4K3 w - - 0 1"));
  EXPECT_EQ(m.name(), "KQvKR");
  EXPECT_EQ(m.colors_swapped().name(), "KRvKQ");
  EXPECT_EQ(m.total(), 4);
  EXPECT_TRUE(m.has(ROOK));
  EXPECT_FALSE(m.has(PAWN));
}

}  // namespace
}  // namespace feerie

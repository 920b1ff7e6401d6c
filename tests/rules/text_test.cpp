// User text quoted in messages stays valid UTF-8 (rules/text.h, issue 27 B).
#include "rules/text.h"

#include <gtest/gtest.h>

namespace feerie {
namespace {

TEST(Text, Utf8SequenceLengths) {
  EXPECT_EQ(utf8_sequence_length("a", 0), 1u);
  EXPECT_EQ(utf8_sequence_length("\xd0\xa4", 0), 2u);          // Ф
  EXPECT_EQ(utf8_sequence_length("\xe2\x99\x9e", 0), 3u);      // ♞
  EXPECT_EQ(utf8_sequence_length("\xf0\x9f\x98\x80", 0), 4u);  // 😀
  EXPECT_EQ(utf8_sequence_length("\xd0", 0), 0u);              // cut
  EXPECT_EQ(utf8_sequence_length("\xa4", 0), 0u);              // a continuation byte alone
  EXPECT_EQ(utf8_sequence_length("\xc0\xaf", 0), 0u);          // overlong '/'
  EXPECT_EQ(utf8_sequence_length("\xed\xa0\x80", 0), 0u);      // a surrogate
  EXPECT_EQ(utf8_sequence_length("\xf4\x90\x80\x80", 0), 0u);  // beyond U+10FFFF
  EXPECT_EQ(utf8_sequence_length("\xe9t\xe9", 0), 0u);         // Latin-1 "été"
}

TEST(Text, PrintableKeepsUtf8AndEscapesTheRest) {
  EXPECT_EQ(printable("KQvKR"), "KQvKR");
  EXPECT_EQ(printable("1\xd0\xa4"
                      "6"),
            "1\xd0\xa4"
            "6");
  EXPECT_EQ(printable("\xe9t\xe9"), "\\xe9t\\xe9");
  EXPECT_EQ(printable("a\tb\x7f"), "a\\x09b\\x7f");
  EXPECT_EQ(printable(std::string_view("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(printable_character_at("1\xd0\xa4"
                                   "6",
                                   1),
            "\xd0\xa4");
  EXPECT_EQ(printable_character_at("1\xd0"
                                   "6",
                                   1),
            "\\xd0");
}

// Whatever the bytes, the result is valid UTF-8 (every sequence in it has a length).
TEST(Text, PrintableOfEveryByteIsValidUtf8) {
  std::string all;
  for (int b = 0; b < 256; ++b) all += char(b);
  for (std::string input : {all, all + "\xd0", "\xf0\x9f" + all}) {
    std::string out = printable(input);
    for (std::size_t i = 0; i < out.size();) {
      std::size_t n = utf8_sequence_length(out, i);
      ASSERT_GT(n, 0u) << "at " << i;
      i += n;
    }
  }
}

// A message quoting a huge input stays short (a 1 MB FEN gave a 1 MB error).
TEST(Text, ExcerptCutsALongInputAndSaysItsLength) {
  EXPECT_EQ(printable_excerpt("abc", 3), "abc");
  EXPECT_EQ(printable_excerpt("abcd", 3), "abc... (4 bytes)");
  EXPECT_EQ(printable_excerpt("a\nbcd", 3), "a\\x0ab... (5 bytes)");
}

}  // namespace
}  // namespace feerie

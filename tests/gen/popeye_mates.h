// Mate lengths recorded from Popeye (the outside referee, run outside the suite) checked
// against Feerie's tables: each corpus line `condition|FEN|N` is a position with White to
// move that Popeye solves as #N and not as #N-1.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "probe/tablebase.h"
#include "tests/gen/table_test_util.h"
#include "tests/test_util.h"

namespace feerie::test {

// The corpus of direct mates under the paralysis family, Annan, Nanna and madrasi-ri+annan
// (tests/data/popeye_mates: its make_corpus.py and FINDINGS.md).
inline const std::string PopeyeMatesCorpus = FEERIE_SOURCE_DIR "/tests/data/popeye_mates/mates.txt";

// The lines of `corpus` (a path) for `condition` whose material `wanted` accepts, each
// probed in the tables of `dir`: a win for White in 2N-1 plies. Returns the number of
// positions compared.
inline int check_popeye_mate_lengths(
    const std::string& dir, const std::string& condition, const std::string& corpus,
    const std::function<bool(const Material&)>& wanted = [](const Material&) { return true; }) {
  std::ifstream in(corpus);
  EXPECT_TRUE(in) << corpus;
  Tablebase tb = Tablebase::open(dir, *RuleSet::parse(condition));
  int compared = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#' || line.rfind(condition + "|", 0) != 0) continue;
    const std::size_t a = line.find('|'), b = line.find('|', a + 1);
    EXPECT_NE(b, std::string::npos) << line;
    const Position pos = position(line.substr(a + 1, b - a - 1));
    if (!wanted(Material::of(pos))) continue;
    auto r = tb.probe(pos);
    EXPECT_TRUE(r.ok()) << line << ": " << (r.ok() ? "" : r.error_message());
    if (!r.ok()) continue;
    EXPECT_EQ(r->wdl, Wdl::Win) << line;
    EXPECT_EQ(r->dtm_plies, 2 * std::stoi(line.substr(b + 1)) - 1) << line;
    ++compared;
  }
  return compared;
}

// One condition's expected count of corpus lines, with its name as a test name.
struct PopeyeMatesExpectation {
  const char* condition;
  int positions;
};
inline std::string test_name(const ::testing::TestParamInfo<PopeyeMatesExpectation>& info) {
  std::string name = info.param.condition;
  for (char& c : name)
    if (c == '-' || c == '+') c = '_';
  return name;
}

}  // namespace feerie::test

// Orthodox perft counts (published figures; no castling rights, which do not matter at
// these depths). All of them run in about a second in a Release build.
#include "tests/test_util.h"

namespace feerie {
namespace {

struct PerftCase {
  const char* fen;
  int depth;
  std::uint64_t nodes;
  friend void PrintTo(const PerftCase& c, std::ostream* os) { *os << c.fen << " depth " << c.depth; }
};

const char* const Start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1";
const char* const Endgame = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
const char* const Middlegame = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";

class Perft : public ::testing::TestWithParam<PerftCase> {};

TEST_P(Perft, MatchesPublishedCount) {
  Position pos = test::position(GetParam().fen);
  EXPECT_EQ(perft(pos, RuleSet::orthodox(), GetParam().depth), GetParam().nodes);
}

INSTANTIATE_TEST_SUITE_P(Orthodox, Perft,
                         ::testing::Values(PerftCase{Start, 1, 20}, PerftCase{Start, 2, 400}, PerftCase{Start, 3, 8902},
                                           PerftCase{Start, 4, 197281}, PerftCase{Endgame, 1, 14},
                                           PerftCase{Endgame, 2, 191}, PerftCase{Endgame, 3, 2812},
                                           PerftCase{Endgame, 4, 43238}, PerftCase{Endgame, 5, 674624},
                                           PerftCase{Middlegame, 1, 46}, PerftCase{Middlegame, 2, 2079},
                                           PerftCase{Middlegame, 3, 89890}, PerftCase{Start, 5, 4865609},
                                           PerftCase{Endgame, 6, 11030083}, PerftCase{Middlegame, 4, 3894594}));

}  // namespace
}  // namespace feerie

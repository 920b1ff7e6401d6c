// Magic units, cross-checked: every legal move with the position after it, and perft
// counts, computed by the engine and by an independent slow reference written from SPEC
// 3.5 alone (tests/rules/magic_reference.{h,cpp}: its own board, FEN reader, walks,
// mutation and check; no engine code). The recorded counts pin both.
#include "tests/rules/magic_reference.h"
#include "tests/test_util.h"

namespace feerie {
namespace {

const char* const Positions[] = {
    "8/8/8/n1N5/8/1R*6/8/K6k w - - 0 1",    // seed diagrams A and B
    "K7/8/8/8/2R*1r*3/8/8/4N2k w - - 0 1",  // contacts of both colours
    "2b*r4/4P3/8/8/8/8/8/K6k w - - 0 1",    // promotion, then mutation
    "7k/8/8/8/8/7R*/3n4/4K3 w - - 0 1",     // mutations that expose the own king
    "7k/8/8/2B*5/4p3/8/3P4/K7 w - - 0 1",   // a double step mutated on arrival
    "K6k/8/8/3Q4/8/8/1B*6/g*7 w - - 0 1",   // a magic grasshopper ends the chain
    "4k3/1P*2p*3/2g*5/3pP3/8/5l2/2P*3P1/4K3 w - d6 0 1",
    "8/8/8/3k4/8/2R*5/4p3/K7 b - - 0 1",  // the KmRvKP component
    "r*3k3/8/8/8/8/8/P7/4K2Q w - - 0 1",
    "4k3/8/3n*4/8/2PpP3/8/8/4K3 b - c3 0 1",  // en passant beside a magic knight
    "1n*6/8/1k6/8/8/8/5PPP/Q*1B2K1N w - - 0 1",
};

TEST(MagicReference, MovesAndPositionsAfterThem) {
  for (const char* fen : Positions) {
    std::vector<std::pair<std::string, std::string>> engine, reference;
    for (const MoveResult& r : legal_moves_with_results(test::position(fen), RuleSet::orthodox()))
      engine.push_back({to_uci(r.move), to_fen(r.after)});
    for (const test::magic_reference::RefMove& r : test::magic_reference::legal_moves_after(fen))
      reference.push_back({r.uci, r.fen_after});
    std::sort(engine.begin(), engine.end());
    std::sort(reference.begin(), reference.end());
    EXPECT_EQ(engine, reference) << fen;
  }
}

class MagicPerft : public ::testing::TestWithParam<test::PerftCase> {};

TEST_P(MagicPerft, EngineEqualsReference) {
  test::expect_perft(GetParam(), [](const RuleSet&, const Position& pos, int depth) {
    return test::magic_reference::perft(to_fen(pos), depth);
  });
}

INSTANTIATE_TEST_SUITE_P(Magic, MagicPerft,
                         ::testing::Values(test::PerftCase{"orthodox", Positions[0], 3, 3183},
                                           test::PerftCase{"orthodox", Positions[2], 4, 34451},
                                           test::PerftCase{"orthodox", Positions[3], 3, 1823},
                                           test::PerftCase{"orthodox", Positions[4], 4, 6069},
                                           test::PerftCase{"orthodox", Positions[5], 3, 3204},
                                           test::PerftCase{"orthodox", Positions[6], 3, 1812},
                                           test::PerftCase{"orthodox", Positions[7], 4, 29161},
                                           test::PerftCase{"orthodox", Positions[8], 3, 6059},
                                           test::PerftCase{"orthodox", Positions[9], 3, 981},
                                           test::PerftCase{"orthodox", Positions[10], 3, 11088}));

}  // namespace
}  // namespace feerie

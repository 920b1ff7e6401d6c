// `feerie mine` and `feerie probe --popeye` as a user runs them: filters on known
// positions, --unique-key and --sound against the brute force of mine_cli_util.h,
// --differs-from, zugzwangs, sampling, the Popeye problems read back, and bad input (the
// problem-quality filters and solution trees: problem_test.cpp).
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "probe/indexer.h"
#include "probe/tablebase.h"
#include "rules/fen.h"
#include "rules/movegen.h"
#include "study/popeye.h"
#include "tests/study/mine_fixture.h"
#include "tests/test_util.h"
#include "tests/tools/command_run.h"
#include "tests/tools/mine_cli_util.h"

namespace {

using namespace feerie;
using namespace feerie::test;

// --- filters on known positions ---

// Interrupted (Ctrl-C, SIGTERM), mine left half a FEN in its output, an open Popeye input
// and no word; it now finishes the result it is writing, closes the input and says so.
// The signal comes once the output has begun (the whole run takes some 7 s on a quiet
// machine; a signal at a fixed 0.5 s came before the first problem on a loaded one).
TEST(Mine, InterruptedLeavesWholeOutputAndSaysSo) {
  const std::string out = mine_fixture_tables() + "/interrupted." + std::to_string(::getpid());
  const std::string script = std::string(FEERIE_BINARY) + " mine --tables " + mine_fixture_tables() +
                             " --threads 1 --unique-key --popeye KQvKR > " + out + " 2> " + out +
                             ".err & pid=$!; for i in $(seq 600); do [ -s " + out +
                             " ] && break; sleep 0.05; done; kill -INT $pid; wait $pid";
  const int status = std::system(("bash -c '" + script + "'").c_str());
  EXPECT_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 130) << "it ended before the signal came?";
  const std::string text = test::file_bytes(out);
  EXPECT_NE(text.rfind("BeginProblem\n", 0), std::string::npos) << text.substr(0, 200);
  auto tail = [&](std::size_t n) { return text.substr(text.size() - std::min(text.size(), n)); };
  EXPECT_EQ(tail(11), "EndProblem\n") << tail(200);
  EXPECT_EQ(test::file_bytes(out + ".err"), "feerie: interrupted\n");
  std::filesystem::remove(out);
  std::filesystem::remove(out + ".err");
}

// --count counts every match, whatever --limit says: it once kept a sample of up to
// --limit matches in memory, uncounted (KQvKR with a limit of 10^9: 235 MB and std::bad_alloc
// exit 1 under a 150 MB address space; 22 MB now). Memory that runs out is exit 7.
TEST(Mine, CountWithALimitKeepsNoSampleAndMemoryRunningOutIsALimit) {
  const std::string mine = std::string(FEERIE_BINARY) + " mine --tables " + mine_fixture_tables() + " --threads 1 ";
  test::JoinedRun r = test::run_joined("bash -c 'ulimit -v 150000; " + mine + "--count KQvKR'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string all = r.output;
  r = test::run_joined("bash -c 'ulimit -v 150000; " + mine + "--count --limit 1000000000 KQvKR'");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, all);
  r = test::run_joined("bash -c 'ulimit -v 150000; " + mine + "--limit 1000000000 KQvKR > /dev/null'");
  EXPECT_EQ(r.exit_code, 7) << r.output;
  EXPECT_NE(r.output.find("feerie: out of memory"), std::string::npos) << r.output;
}

TEST(Mine, MateInTenOfKqvkIsItsLongestMate) {
  CommandRun r = run_mine("--mate 10 KQvK");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "8/8/8/5k2/8/8/1Q6/K7 w - - 0 1\n");
  EXPECT_EQ(run_mine("--mate 11-40 KQvK").out, "");
}

TEST(Mine, FiltersOnKnownPositions) {
  // k7/8/1K6/8/8/8/8/2Q5 w: c1c8 is the only mate (the probe test's position).
  std::string mate_in_one = stored_image("k7/8/1K6/8/8/8/8/2Q5 w - - 0 1", RuleSet::orthodox());
  EXPECT_TRUE(line_set(run_mine("--mate 1 --unique-key KQvK").out).count(mate_in_one));
  EXPECT_EQ(run_mine("--side black --result win --count KQvK").out, "0\n");
  // Each line of a range: its mate_in in the range; --count counts the lines.
  CommandRun json = run_mine("--mate 2-3 --side white --json KQvK");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  std::vector<std::string> objects = lines(json.out);
  ASSERT_FALSE(objects.empty());
  for (const std::string& o : objects)
    EXPECT_TRUE(o.find("\"mate_in\":2,") != std::string::npos || o.find("\"mate_in\":3,") != std::string::npos) << o;
  EXPECT_EQ(run_mine("--mate 2-3 --side white --count KQvK").out, std::to_string(objects.size()) + "\n");
  // Results: a draw line says so; losses are Black's in KQvK.
  for (const std::string& o : lines(run_mine("--result draw --json --limit 20 KQvK").out))
    EXPECT_NE(o.find("\"wdl\":\"draw\""), std::string::npos) << o;
  for (const std::string& fen : lines(run_mine("--result loss --limit 20 KQvK").out))
    EXPECT_NE(fen.find(" b "), std::string::npos) << fen;
}

// --values: one "FEN: value" line per position, the value the JSON of the same sample
// gives, and every position of the table when no filter is set.
TEST(Mine, ValuesAreTheJsonValuesOfTheSameSample) {
  EXPECT_EQ(run_mine("--mate 10 --values KQvK").out, "8/8/8/5k2/8/8/1Q6/K7 w - - 0 1: mate in 10\n");
  const std::vector<std::string> plain = lines(run_mine("--values --limit 300 --seed 5 KQvK").out);
  const std::vector<std::string> json = lines(run_mine("--json --limit 300 --seed 5 KQvK").out);
  ASSERT_EQ(plain.size(), 300u);
  ASSERT_EQ(json.size(), plain.size());
  std::set<std::string> seen;
  for (std::size_t k = 0; k < plain.size(); ++k) {
    const nlohmann::json j = nlohmann::json::parse(json[k]);
    const std::string wdl = j["wdl"];
    const std::string value = wdl == "draw"  ? "draw"
                              : wdl == "win" ? fmt::format("mate in {}", int(j["mate_in"]))
                                             : fmt::format("mated in {}", -int(j["mate_in"]));
    EXPECT_EQ(plain[k], std::string(j["fen"]) + ": " + value);
    seen.insert(value.substr(0, value.find(" in ")));
  }
  EXPECT_EQ(seen, (std::set<std::string>{"draw", "mate", "mated"}));
  EXPECT_EQ(lines(run_mine("--values KQvK").out).size(), std::stoull(run_mine("--count KQvK").out));
  EXPECT_NE(run_mine("--values --stipulation h# KQvK").err.find("--values is for direct-mate tables"),
            std::string::npos);
}
TEST(Mine, TheOtherOrientationIsTheStoredTableWithColoursExchanged) {
  EXPECT_EQ(run_mine("--mate 10 KvKQ").out, "k7/1q6/8/8/5K2/8/8/8 b - - 0 1\n");
  EXPECT_EQ(run_mine("--side black --result win --count KvKQ").out,
            run_mine("--side white --result win --count KQvK").out);
}

// --- --unique-key and --sound against the brute force, over the whole table ---

TEST(Mine, UniqueKeyAndSoundAgreeWithABruteForceOverKqvk) {
  Tablebase tb = Tablebase::open(mine_fixture_tables(), RuleSet::orthodox());
  std::set<std::string> unique, sound;
  std::map<std::string, bool> known;
  for_each_entry("KQvK", RuleSet::orthodox(), [&](const Position& pos) {
    if (!brute_unique_key(tb, pos)) return;
    unique.insert(to_fen(pos));
    if (brute_sound(tb, pos, known)) sound.insert(to_fen(pos));
  });
  ASSERT_GT(unique.size(), 1000u);
  ASSERT_GT(sound.size(), 100u);
  EXPECT_LT(sound.size(), unique.size());
  EXPECT_EQ(line_set(run_mine("--unique-key KQvK").out), unique);
  EXPECT_EQ(line_set(run_mine("--sound KQvK").out), sound);
}

TEST(Mine, SoundSampleOfKrvkIsSoundByTheBruteForce) {
  Tablebase tb = Tablebase::open(mine_fixture_tables(), RuleSet::orthodox());
  std::map<std::string, bool> known;
  std::vector<std::string> sample = lines(run_mine("--sound --mate 3-16 --limit 40 --seed 11 KRvK").out);
  ASSERT_EQ(sample.size(), 40u);
  for (const std::string& fen : sample) EXPECT_TRUE(brute_sound(tb, test::position(fen), known)) << fen;
  // And the other way: unique keys that the command does not call sound are not.
  std::set<std::string> sound = line_set(run_mine("--sound --mate 3-5 KRvK").out);
  int unsound = 0;
  for (const std::string& fen : lines(run_mine("--unique-key --mate 3-5 --limit 60 --seed 2 KRvK").out)) {
    EXPECT_EQ(brute_sound(tb, test::position(fen), known), sound.count(fen) == 1) << fen;
    unsound += !sound.count(fen);
  }
  EXPECT_GT(unsound, 0);
}

// --- --differs-from ---

TEST(Mine, DiffersFromOrthodoxOnMadrasiRiAgreesWithProbingBoth) {
  RuleSet ri = test::rules("madrasi-ri");
  Tablebase tb = Tablebase::open(mine_fixture_tables(), ri);
  Tablebase orthodox = Tablebase::open(mine_fixture_tables(), RuleSet::orthodox());
  std::set<std::string> value_differs, result_differs;
  int illegal_there = 0;
  for_each_entry("KQvK", ri, [&](const Position& pos) {
    ProbeResult here = *tb.probe(pos);
    // Touching kings or a check only Madrasi RI forgives: no position in orthodox chess.
    bool legal =
        !touching(pos.king_square(WHITE), pos.king_square(BLACK)) && is_legal_position(pos, RuleSet::orthodox());
    std::optional<ProbeResult> there;
    if (legal) there = *orthodox.probe(pos);
    illegal_there += !legal;
    if (!there || there->wdl != here.wdl || there->dtm_plies != here.dtm_plies) value_differs.insert(to_fen(pos));
    if (!there || there->wdl != here.wdl) result_differs.insert(to_fen(pos));
  });
  ASSERT_GT(illegal_there, 0);
  const std::string args = "--condition madrasi-ri --differs-from orthodox ";
  EXPECT_EQ(line_set(run_mine(args + "KQvK").out), value_differs);
  EXPECT_EQ(line_set(run_mine(args + "--differs-in result KQvK").out), result_differs);
  // Orthodox stalemate, Madrasi RI loss: the black king may step next to the white one.
  std::string stalemate = stored_image("8/8/8/8/8/8/4Q3/K1k5 b - - 0 1", ri);
  bool found = false;
  for (const std::string& o : lines(run_mine(args + "--differs-in result --result loss --json KQvK").out)) {
    if (o.find("\"fen\":\"" + stalemate + "\"") == std::string::npos) continue;
    found = true;
    EXPECT_NE(o.find("\"wdl\":\"loss\",\"dtm_plies\":2"), std::string::npos) << o;
    EXPECT_NE(o.find("\"differs_from\":{\"condition\":\"orthodox\",\"legal\":true,\"wdl\":\"draw\""), std::string::npos)
        << o;
  }
  EXPECT_TRUE(found) << stalemate;
}

// --- issue 24: the small faults, each named after it ---

// --mate could not ask for "the side to move is mated in N".
TEST(Mine, Issue24_MatedKeepsTheSideToMoveMatedInNMoves) {
  const Tablebase tb = Tablebase::open(mine_fixture_tables(), RuleSet::orthodox());
  std::set<std::string> mated_3, mated_2_to_4;
  for_each_entry("KQvK", RuleSet::orthodox(), [&](const Position& pos) {
    const ProbeResult r = *tb.probe(pos);
    if (r.wdl != Wdl::Loss || r.dtm_plies == 0) return;
    const int moves = r.dtm_plies / 2;
    if (moves == 3) mated_3.insert(to_fen(pos));
    if (moves >= 2 && moves <= 4) mated_2_to_4.insert(to_fen(pos));
  });
  ASSERT_FALSE(mated_3.empty());
  EXPECT_EQ(line_set(run_mine("--mated 3 KQvK").out), mated_3);
  EXPECT_EQ(line_set(run_mine("--mated 2-4 KQvK").out), mated_2_to_4);
  const CommandRun contradiction = run_mine("--mated 3 --result win KQvK");
  EXPECT_EQ(contradiction.exit_code, 2);
  EXPECT_NE(contradiction.err.find("--mated asks for positions the side to move loses"), std::string::npos)
      << contradiction.err;
  EXPECT_EQ(run_mine("--mated 0 KQvK").exit_code, 2);
}

// --differs-from counted positions illegal under the other condition, and no flag kept
// the legal ones only.
TEST(Mine, Issue24_LegalThereKeepsPositionsLegalUnderTheOtherCondition) {
  const std::string args = "--condition madrasi-ri --differs-from orthodox ";
  const std::vector<std::string> all = lines(run_mine(args + "--json KQvK").out);
  const std::set<std::string> legal = line_set(run_mine(args + "--legal-there --json KQvK").out);
  std::set<std::string> expected;
  for (const std::string& j : all)
    if (j.find("\"legal\":true") != std::string::npos) expected.insert(j);
  ASSERT_FALSE(expected.empty());
  ASSERT_LT(expected.size(), all.size());
  EXPECT_EQ(legal, expected);
  EXPECT_EQ(run_mine("--legal-there KQvK").exit_code, 2);  // only with --differs-from
}

// `mine --popeye` with no match printed nothing at all.
TEST(Mine, Issue24_PopeyeWithoutAMatchSaysSo) {
  const CommandRun r = run_mine("--popeye --mate 50 KQvK");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("feerie: no position matched: no problem written"), std::string::npos) << r.err;
}

// --- --zugzwang against a brute force over every placement ---

// Every placement of `material`'s units on distinct squares (pawns on every rank, as in
// the tables: SPEC 1) with White to move and no en-passant square, for which `keep` holds.
void for_each_placement(const std::string& material_name, const std::function<bool(const Position&)>& keep,
                        const std::function<void(const Position&)>& visit) {
  const Material material = *Material::parse(material_name);
  std::vector<Piece> units;
  for (Color c : {WHITE, BLACK})
    for (int pt = PAWN; pt < PIECE_TYPE_NB; ++pt)
      for (int n = 0; n < material.count(c, PieceType(pt)); ++n) units.push_back(Piece(c, PieceType(pt)));
  Position pos;
  std::function<void(std::size_t)> place = [&](std::size_t k) {
    if (k == units.size()) {
      if (keep(pos)) visit(pos);
      return;
    }
    for (int s = 0; s < SQUARE_NB; ++s) {
      const Square sq = Square(s);
      if (!pos.empty(sq)) continue;
      pos.put_piece(units[k], sq);
      place(k + 1);
      pos.remove_piece(sq);
    }
  };
  pos.set_side_to_move(WHITE);
  place(0);
}

// The reciprocal zugzwangs of the placements `for_each_placement` visits, as FENs with
// White to move, from probe() alone: White to move does worse (for White) than Black to move.
std::map<std::string, std::set<std::string>> brute_zugzwangs(const Tablebase& tb, const std::string& material,
                                                             const std::function<bool(const Position&)>& keep) {
  std::map<std::string, std::set<std::string>> out;  // kind -> FENs
  auto for_white = [](Wdl w, bool white_moves) {
    if (white_moves || w == Wdl::Draw) return w;
    return w == Wdl::Win ? Wdl::Loss : Wdl::Win;
  };
  for_each_placement(material, keep, [&](const Position& white_to_move) {
    Position black_to_move = white_to_move;
    black_to_move.set_side_to_move(BLACK);
    if (!is_legal_position(white_to_move, tb.rules()) || !is_legal_position(black_to_move, tb.rules())) return;
    const Wdl moving = for_white(tb.probe(white_to_move)->wdl, true);
    const Wdl waiting = for_white(tb.probe(black_to_move)->wdl, false);
    const std::string fen = to_fen(white_to_move);
    if (moving == Wdl::Loss && waiting == Wdl::Win) out["full"].insert(fen);
    if ((moving == Wdl::Draw && waiting == Wdl::Win) || (moving == Wdl::Loss && waiting == Wdl::Draw))
      out["half"].insert(fen);
  });
  return out;
}

// `mine --zugzwang KIND` (and `flags`) on a material, each stored position with every
// symmetric image that `keep` keeps.
std::set<std::string> mined_zugzwangs(const std::string& condition, const std::string& kind, const std::string& flags,
                                      const std::string& material, const std::function<bool(const Position&)>& keep) {
  const RuleSet rules = test::rules(condition);
  const Indexer indexer(*Material::parse(material), rules);
  std::set<std::string> out;
  const CommandRun run = run_mine("--condition " + condition + " --zugzwang " + kind + " " + flags + " " + material);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  for (const std::string& fen : lines(run.out)) {
    const Position stored = test::position(fen);
    EXPECT_EQ(stored.side_to_move(), WHITE) << fen;
    for (int t = 0; t < indexer.symmetry_count(); ++t) {
      const Position image = Indexer::transform(t, stored);
      if (keep(image)) out.insert(to_fen(image));
    }
  }
  return out;
}

TEST(Mine, ZugzwangsAgreeWithABruteForceOverEveryPlacement) {
  std::vector<Square> edge_squares;
  for (int s = 0; s < SQUARE_NB; ++s)
    if (rank_of(Square(s)) == 0 || rank_of(Square(s)) == 7) edge_squares.push_back(Square(s));
  const std::vector<Square>& Edge = edge_squares;
  const auto every = [](const Position&) { return true; };
  // A white pawn on the b-file: an eighth of KPvKP's placements, and both kinds of zugzwang.
  const auto b_pawn = [](const Position& pos) {
    for (int s = 0; s < SQUARE_NB; ++s)
      if (pos.piece_on(Square(s)) == Piece(WHITE, PAWN)) return file_of(Square(s)) == 1;
    return false;
  };
  struct Case {
    const char* condition;
    const char* material;
    std::function<bool(const Position&)> keep;
  };
  for (const Case& c :
       {Case{"orthodox", "KPvK", every}, Case{"annan", "KPvK", every}, Case{"orthodox", "KPvKP", b_pawn}}) {
    SCOPED_TRACE(std::string(c.condition) + " " + c.material);
    const Tablebase tb = Tablebase::open(mine_fixture_tables(), test::rules(c.condition));
    // Every position of the table, then with --usual-pawn-ranks those of orthodox tablebases.
    for (bool usual_ranks : {false, true}) {
      SCOPED_TRACE(usual_ranks ? "pawns on ranks 2 to 7" : "every position");
      const auto keep = [&](const Position& pos) {
        const bool edge_pawn =
            std::any_of(Edge.begin(), Edge.end(), [&](Square s) { return pos.piece_on(s).type() == PAWN; });
        return c.keep(pos) && !(usual_ranks && edge_pawn);
      };
      std::map<std::string, std::set<std::string>> brute = brute_zugzwangs(tb, c.material, keep);
      std::set<std::string> any = brute["full"];
      any.insert(brute["half"].begin(), brute["half"].end());
      ASSERT_FALSE(brute["half"].empty());
      const std::string flags = usual_ranks ? "--usual-pawn-ranks" : "";
      EXPECT_EQ(mined_zugzwangs(c.condition, "full", flags, c.material, keep), brute["full"]);
      EXPECT_EQ(mined_zugzwangs(c.condition, "half", flags, c.material, keep), brute["half"]);
      EXPECT_EQ(mined_zugzwangs(c.condition, "any", flags, c.material, keep), any);
    }
  }
  // The published orthodox counts (docs/study.md): KPvK 80 half-point; KPvKP 15 full-point
  // and 106 half-point, each colour-reversed pair counted once there and twice here.
  EXPECT_EQ(run_mine("--zugzwang half --usual-pawn-ranks --count KPvK").out, "80\n");
  EXPECT_EQ(run_mine("--zugzwang full --usual-pawn-ranks --count KPvKP").out, "30\n");
  EXPECT_EQ(run_mine("--zugzwang half --usual-pawn-ranks --count KPvKP").out, "212\n");
  // The known examples: the trebuchet (whoever moves loses) and K+P v K with the
  // defending king in front (Black to move loses, White to move draws).
  const std::string trebuchet = stored_image("8/8/8/3pK3/2kP4/8/8/8 w - - 0 1", RuleSet::orthodox());
  EXPECT_EQ(line_set(run_mine("--zugzwang full KPvKP").out).count(trebuchet), 1u) << trebuchet;
  const std::string opposition = stored_image("3k4/8/3KP3/8/8/8/8/8 w - - 0 1", RuleSet::orthodox());
  EXPECT_EQ(line_set(run_mine("--zugzwang half KPvK").out).count(opposition), 1u) << opposition;
  // --side black: the same placements with Black to move; JSON gives the other side's value.
  const std::vector<std::string> black = lines(run_mine("--zugzwang any --side black --json KPvK").out);
  EXPECT_EQ(black.size(), lines(run_mine("--zugzwang any KPvK").out).size());
  for (const std::string& j : black) {
    EXPECT_NE(j.find(" b - - 0 1\""), std::string::npos) << j;
    EXPECT_NE(j.find("\"wdl\":\"loss\""), std::string::npos) << j;
    EXPECT_NE(j.find("\"other_side_to_move\":{\"wdl\":\"draw\""), std::string::npos) << j;
  }
}

// The issue's Madrasi RI example: the king move next to the enemy king is the only win
// in 1 (Kb1-c2 paralyses both kings, and the queen a1 mates the paralysed king d1); in
// orthodox chess the position is a mate in 5.
TEST(Mine, MadrasiRiKingMoveNextToTheEnemyKingIsTheOnlyMate) {
  RuleSet ri = test::rules("madrasi-ri");
  std::string image = stored_image("8/8/8/8/8/8/8/QK1k4 w - - 0 1", ri);
  bool found = false;
  for (const std::string& o : lines(run_mine("--condition madrasi-ri --differs-from orthodox --unique-key --mate 1 "
                                             "--side white --json KQvK")
                                        .out)) {
    if (o.find("\"fen\":\"" + image + "\"") == std::string::npos) continue;
    found = true;
    EXPECT_NE(o.find("\"differs_from\":{\"condition\":\"orthodox\",\"legal\":true,\"wdl\":\"win\",\"dtm_plies\":9"),
              std::string::npos)
        << o;
    // The one key is a king move ending next to the black king.
    Position pos = test::position(image);
    std::size_t at = o.find("\"best_moves\":[\"");
    ASSERT_NE(at, std::string::npos) << o;
    std::string key = o.substr(at + 15, 4);
    EXPECT_EQ(o.substr(at + 19, 2), "\"]") << o;
    EXPECT_EQ(square_name(pos.king_square(WHITE)), key.substr(0, 2)) << o;
    Square to = Square((key[2] - 'a') + 8 * (key[3] - '1'));
    EXPECT_TRUE(touching(to, pos.king_square(BLACK))) << o;
  }
  EXPECT_TRUE(found) << image;
}

// --- sampling ---

TEST(Mine, ASampleIsSpreadAndTheSameForTheSameSeed) {
  std::vector<std::string> all = lines(run_mine("--unique-key --mate 2-6 KQvK").out);
  ASSERT_GT(all.size(), 100u);
  CommandRun a = run_mine("--unique-key --mate 2-6 --limit 12 --seed 1 KQvK");
  EXPECT_EQ(lines(a.out).size(), 12u);
  EXPECT_EQ(a.out, run_mine("--unique-key --mate 2-6 --limit 12 --seed 1 --threads 1 KQvK").out);
  EXPECT_NE(a.out, run_mine("--unique-key --mate 2-6 --limit 12 --seed 2 KQvK").out);
  // In scan order, from all over the table: not the first twelve, and past the middle.
  std::vector<std::string> sample = lines(a.out);
  EXPECT_NE(sample, std::vector<std::string>(all.begin(), all.begin() + 12));
  std::size_t last = 0, previous = 0;
  for (const std::string& fen : sample) {
    auto it = std::find(all.begin(), all.end(), fen);
    ASSERT_NE(it, all.end()) << fen;
    last = std::size_t(it - all.begin());
    EXPECT_TRUE(fen == sample.front() || last > previous) << fen;
    previous = last;
  }
  EXPECT_GT(last, all.size() / 2);
  // A limit above the number of matches gives them all.
  EXPECT_EQ(run_mine("--mate 10 --limit 5 KQvK").out, "8/8/8/5k2/8/8/1Q6/K7 w - - 0 1\n");
}

// --- Popeye: the written problems read back ---

struct PopeyeProblem {
  std::string condition;  // the Condition keywords, space-separated
  std::vector<std::string> remarks;
  std::set<std::string> options;  // option words (squares left out)
  std::string ep_squares;         // after EnPassant
  int mate_in = 0;
  Position position;  // the side to move from HalfDuplex and PostKeyPlay
};

// A small reader of what popeye.cpp writes, after Popeye's rules: keywords are not case
// sensitive, Remark runs to the end of its line, a piece group is a colour, optional
// attributes, then units each written as a letter (S knight, G grasshopper, L locust)
// and a square.
std::vector<PopeyeProblem> read_popeye(const std::string& text) {
  std::vector<PopeyeProblem> problems;
  auto lower = [](std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  bool open = false, ended = false;
  for (const std::string& line : lines(text)) {
    std::istringstream words(line);
    std::string command;
    words >> command;
    command = lower(command);
    if (command == "beginproblem") {
      EXPECT_FALSE(open);
      open = true;
      problems.emplace_back();
      continue;
    }
    EXPECT_TRUE(open && !ended) << line;
    if (command == "nextproblem") {
      problems.emplace_back();
      continue;
    }
    if (command == "endproblem") {
      ended = true;
      continue;
    }
    PopeyeProblem& p = problems.back();
    std::string rest;
    std::getline(words >> std::ws, rest);
    std::istringstream tokens(rest);
    if (command == "remark") {
      p.remarks.push_back(rest);
    } else if (command == "condition") {
      p.condition = rest;
    } else if (command == "option") {
      for (std::string w; tokens >> w;) {
        p.options.insert(lower(w));
        std::string squares;
        if (lower(w) == "enpassant") tokens >> p.ep_squares;
        if (lower(w) == "nocastling") tokens >> squares;
      }
    } else if (command == "stipulation") {
      EXPECT_EQ(rest[0], '#') << line;
      p.mate_in = std::stoi(rest.substr(1));
    } else if (command == "pieces") {
      Color colour = WHITE;
      bool magic = false;
      for (std::string w; tokens >> w;) {
        if (lower(w) == "white" || lower(w) == "black") {
          colour = lower(w) == "white" ? WHITE : BLACK;
          magic = false;
        } else if (lower(w) == "magic") {
          magic = true;
        } else {
          EXPECT_EQ(w.size(), 3u) << w;
          const std::string letters = "KQRBSPGL";
          const PieceType types[] = {KING, QUEEN, ROOK, BISHOP, KNIGHT, PAWN, GRASSHOPPER, LOCUST};
          std::size_t t = letters.find(char(std::toupper(static_cast<unsigned char>(w[0]))));
          EXPECT_NE(t, std::string::npos) << w;
          if (t == std::string::npos) continue;
          p.position.put_piece(Piece(colour, types[t], magic), Square((w[1] - 'a') + 8 * (w[2] - '1')));
        }
      }
    } else {
      ADD_FAILURE() << "unknown command: " << line;
    }
  }
  EXPECT_TRUE(ended) << text;
  for (PopeyeProblem& p : problems) {
    // White mates unless HalfDuplex; the mated side is to move after the key (PostKeyPlay).
    Color attacker = p.options.count("halfduplex") ? BLACK : WHITE;
    p.position.set_side_to_move(p.options.count("postkeyplay") ? ~attacker : attacker);
    if (!p.ep_squares.empty()) {
      EXPECT_EQ(p.ep_squares.size(), 6u);
      p.position.set_ep_square(Square((p.ep_squares[2] - 'a') + 8 * (p.ep_squares[3] - '1')));
    }
  }
  return problems;
}

TEST(Popeye, ProbeWritesProblemsThatReadBackAsThePositions) {
  // White mates in 4; Black mates in 4 (HalfDuplex); Black to play is mated in 3
  // (PostKeyPlay, #4 counting White's key).
  const std::vector<std::pair<std::string, int>> cases = {{"8/8/8/8/8/8/2Q5/2K4k w - - 0 1", 4},
                                                          {"8/8/8/8/8/8/2q5/2k4K b - - 0 1", 4},
                                                          {"8/8/8/8/8/8/2Q5/3K3k b - - 0 1", 4},
                                                          {"8/8/8/8/8/8/5R2/K6k w - - 0 1", 8}};
  std::string args;
  for (const auto& c : cases) args += " '" + c.first + "'";
  CommandRun r = run_feerie("probe --popeye --tables " + mine_fixture_tables() + args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("BeginProblem\n", 0), 0u) << r.out;
  std::vector<PopeyeProblem> problems = read_popeye(r.out);
  ASSERT_EQ(problems.size(), cases.size()) << r.out;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    EXPECT_EQ(to_fen(problems[i].position), cases[i].first) << r.out;
    EXPECT_EQ(problems[i].mate_in, cases[i].second) << cases[i].first;
    EXPECT_TRUE(problems[i].options.count("nocastling")) << cases[i].first;
    EXPECT_EQ(problems[i].condition, "");
  }
  EXPECT_TRUE(problems[1].options.count("halfduplex"));
  EXPECT_TRUE(problems[2].options.count("postkeyplay"));
  EXPECT_FALSE(problems[0].options.count("halfduplex") || problems[0].options.count("postkeyplay"));
}

TEST(Popeye, MineWritesOneProblemPerMatchUnderTheCondition) {
  CommandRun r = run_mine("--condition madrasi-ri --differs-from orthodox --mate 1-3 --limit 5 --seed 3 --popeye KQvK");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<PopeyeProblem> problems = read_popeye(r.out);
  std::vector<std::string> fens = lines(run_mine("--condition madrasi-ri --differs-from orthodox --mate 1-3 --limit 5 "
                                                 "--seed 3 KQvK")
                                            .out);
  ASSERT_EQ(problems.size(), fens.size());
  Tablebase tb = Tablebase::open(mine_fixture_tables(), test::rules("madrasi-ri"));
  for (std::size_t i = 0; i < fens.size(); ++i) {
    EXPECT_EQ(to_fen(problems[i].position), fens[i]);
    EXPECT_EQ(problems[i].condition, "Madrasi RexInclusive");
    EXPECT_EQ(problems[i].mate_in, tb.probe(test::position(fens[i]))->mate_in());
    EXPECT_NE(problems[i].remarks.at(0).find("under orthodox"), std::string::npos);
  }
  // Draws have no stipulation: refused with mine --popeye, and by probe --popeye.
  EXPECT_EQ(run_mine("--result draw --popeye KQvK").exit_code, 2);
  CommandRun draw = run_feerie("probe --popeye --tables " + mine_fixture_tables() + " '8/8/8/8/8/8/8/K6k w - - 0 1'");
  EXPECT_EQ(draw.exit_code, 6) << draw.err;
  EXPECT_NE(draw.err.find("is a draw: a Popeye problem needs a mate to play"), std::string::npos) << draw.err;
}

// Positions the fixture tables cannot probe, written by the library writer with a given
// value: fairy units and their letters, magic units in their own group, en passant,
// conditions and their keywords, and the remarks where Popeye differs.
TEST(Popeye, EveryUnitConditionAndOptionReadsBack) {
  struct Case {
    const char* condition;
    const char* fen;
    int plies;  // the value for the side to move
    const char* keywords;
    const char* remark;  // a part of a remark expected, or ""
  };
  const Case cases[] = {
      {"madrasi", "4k3/8/8/8/2G5/8/1L6/4K1N1 w - - 0 1", 3, "Madrasi", ""},
      {"isardam-b-ri", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", 5, "Isardam TypeB RexInclusive", ""},
      {"isardam-ri", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", 5, "Isardam RexInclusive", ""},
      {"eiffel", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", 5, "EiffelChess", ""},
      {"leffie", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", 5, "Leffie", ""},
      {"nanna-c", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", 5, "NannaChess TypeC", ""},
      {"madrasi-ri+annan-b", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", 5, "Madrasi RexInclusive AnnanChess TypeB", ""},
      {"eiffel:qb,bq,rn,nr", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", 5, "", "eiffel:bq,nr,qb,rn"},
      {"orthodox", "8/8/1R*6/p1B5/8/8/8/K6k b - - 0 1", 6, "", "Popeye's Magic pieces change the colour"},
      {"orthodox", "7k/8/8/3pP3/8/8/8/K7 w - d6 0 1", 7, "", ""},
      {"orthodox", "k7/8/8/8/3Pp3/8/8/7K b - d3 0 1", 9, "", ""},
  };
  std::ostringstream out;
  PopeyeWriter w(out);
  for (const Case& c : cases) {
    Expected<std::string> p =
        popeye_problem(test::position(c.fen), test::rules(c.condition), value::mate_in_plies(c.plies));
    ASSERT_TRUE(p.ok()) << p.error_message();
    w.write(*p);
  }
  w.finish();
  std::vector<PopeyeProblem> problems = read_popeye(out.str());
  ASSERT_EQ(problems.size(), std::size(cases)) << out.str();
  for (std::size_t i = 0; i < problems.size(); ++i) {
    const Case& c = cases[i];
    EXPECT_EQ(to_fen(problems[i].position), c.fen) << out.str();
    EXPECT_EQ(problems[i].condition, c.keywords) << c.condition;
    bool win = c.plies % 2;
    EXPECT_EQ(problems[i].mate_in, win ? (c.plies + 1) / 2 : c.plies / 2 + 1) << c.fen;
    std::string remarks;
    for (const std::string& r : problems[i].remarks) remarks += r + "\n";
    EXPECT_NE(remarks.find(c.remark), std::string::npos) << remarks;
  }
  EXPECT_EQ(problems[9].ep_squares, "d7d6d5");
  EXPECT_EQ(problems[10].ep_squares, "d2d3d4");
  EXPECT_NE(out.str().find("Pieces White Ke1 Sg1 Gc4 Lb2 Black Ke8\n"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("Pieces White Ka1 Bc5 White Magic Rb6 Black Kh1 Pa5\n"), std::string::npos) << out.str();
  // Mated now and draws: nothing to stipulate.
  EXPECT_EQ(
      popeye_problem(test::position("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), RuleSet::orthodox(), value::Draw).error_kind(),
      ErrorKind::NotSupported);
}

// --- bad input ---

struct BadMine {
  std::string args;
  int exit_code;
  std::string message_part;
  friend void PrintTo(const BadMine& b, std::ostream* os) { *os << b.args; }
};

class MineErrors : public ::testing::TestWithParam<BadMine> {};

TEST_P(MineErrors, OneLineReasonAndTheExitCodeOfItsKind) {
  CommandRun r = run_mine(GetParam().args);
  EXPECT_EQ(r.exit_code, GetParam().exit_code) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(lines(r.err).size(), 1u) << r.err;
  EXPECT_EQ(r.err.rfind("feerie: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(GetParam().message_part), std::string::npos) << r.err;
}

INSTANTIATE_TEST_SUITE_P(
    Table, MineErrors,
    ::testing::Values(BadMine{"--condition madrasi-x KQvK", 2, "unknown condition 'madrasi-x' (known: orthodox"},
                      BadMine{"--differs-from nonsense KQvK", 2, "unknown condition 'nonsense'"},
                      BadMine{"KQvKX", 2, "KQvKX"}, BadMine{"KBBvK", 3, "missing table KBBvK for condition orthodox"},
                      BadMine{"--condition isardam KQvK", 3, "missing table KQvK for condition isardam"},
                      BadMine{"--differs-from leffie KQvK", 3,
                              "--differs-from leffie: missing table KQvK for condition leffie"},
                      BadMine{"--differs-from orthodox KQvK", 2, "--differs-from orthodox is the condition mined"},
                      BadMine{"--mate 0 KQvK", 2, "bad --mate '0'"}, BadMine{"--mate 5-3 KQvK", 2, "bad --mate '5-3'"},
                      BadMine{"--mate x KQvK", 2, "bad --mate 'x'"},
                      BadMine{"--mate 2 --result draw KQvK", 2, "contradicts"},
                      BadMine{"--sound --result loss KQvK", 2, "contradicts"},
                      // The filters given are the ones named (it named a mate, a unique key and soundness).
                      BadMine{"--quiet-key --result draw KQvK", 2, "a win is asked for (a quiet key)"},
                      BadMine{"--mated 2 --unique-key KQvK", 2, "it contradicts a win, asked for by a unique key"},
                      BadMine{"--side green KQvK", 2, "--side"}, BadMine{"--seed 3 KQvK", 2, "--seed requires --limit"},
                      BadMine{"--json --popeye KQvK", 2, "excludes"}));

}  // namespace

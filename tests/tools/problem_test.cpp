// `feerie mine`'s problem-quality filters, `probe --problem` and `probe --tree` (issue 24)
// against a brute force written from probe() and move_values() alone.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "rules/san.h"
#include "study/solution_tree.h"
#include "tests/tools/mine_cli_util.h"

namespace {

using namespace feerie;
using namespace feerie::test;

// --- issue 24: the problem-quality filters against a brute force from probe() and
// move_values() ---

bool brute_captures(const Position& before, const Position& after) {
  return Material::of(after).total() < Material::of(before).total();
}

// Every shortest move neither captures nor checks.
bool brute_quiet_key(const Tablebase& tb, const Position& pos) {
  const std::vector<MoveValue> keys = shortest_moves(tb, pos);
  for (const MoveValue& k : keys)
    if (brute_captures(pos, k.after) || in_check(k.after, tb.rules())) return false;
  return !keys.empty();
}

// No capture by either side in the tree of shortest moves and all defences.
bool brute_no_capture(const Tablebase& tb, const Position& pos) {
  for (const MoveValue& k : shortest_moves(tb, pos)) {
    if (brute_captures(pos, k.after)) return false;
    if (k.checkmate) continue;
    // A copy: a range over the temporary Expected's contents would dangle.
    for (const MoveValue& defence : std::vector<MoveValue>(*tb.move_values(k.after)))
      if (brute_captures(k.after, defence.after) || !brute_no_capture(tb, defence.after)) return false;
  }
  return true;
}

// The solution below `pos` as text: at the attacker's turn its shortest moves, at the
// defender's every move, each with what follows, sorted by name (from move_values() only).
std::string brute_solution(const Tablebase& tb, const Position& pos, bool attacker) {
  std::vector<std::string> parts;
  const std::vector<MoveValue> moves =
      attacker ? shortest_moves(tb, pos) : std::vector<MoveValue>(*tb.move_values(pos));
  for (const MoveValue& m : moves)
    parts.push_back(to_uci(m.move) + (m.checkmate ? "#" : "(" + brute_solution(tb, m.after, !attacker) + ")"));
  std::sort(parts.begin(), parts.end());
  std::string out;
  for (const std::string& p : parts) out += p + " ";
  return out;
}

// Without any one non-king unit: not a position, another value, or another solution.
bool brute_every_unit_needed(const Tablebase& tb, const Position& pos) {
  const ProbeResult r = *tb.probe(pos);
  auto key_names = [&](const Position& p) {
    std::set<std::string> names;
    for (const MoveValue& k : shortest_moves(tb, p)) names.insert(to_uci(k.move));
    return names;
  };
  const std::set<std::string> keys = key_names(pos);
  std::string solution;  // the whole solution, made when a removal keeps the keys
  for (int s = 0; s < SQUARE_NB; ++s) {
    const Piece p = pos.piece_on(Square(s));
    if (p.empty() || p.type() == KING) continue;
    Position without = pos;
    without.remove_piece(Square(s));
    if (!is_legal_position(without, tb.rules())) continue;
    const Expected<ProbeResult> probed = tb.probe(without);
    if (!probed.ok()) {
      ADD_FAILURE() << to_fen(without) << ": " << probed.error_message();
      return false;
    }
    const ProbeResult w = *probed;
    if (w.wdl != r.wdl || w.dtm_plies != r.dtm_plies || key_names(without) != keys) continue;  // other keys: needed
    if (solution.empty()) solution = brute_solution(tb, pos, true);
    if (brute_solution(tb, without, true) == solution) return false;
  }
  return true;
}

// The attacker's checks that do not mate, over the tree of shortest moves and all defences.
int brute_checks(const Tablebase& tb, const Position& pos) {
  int checks = 0;
  for (const MoveValue& k : shortest_moves(tb, pos)) {
    if (k.checkmate) continue;
    checks += in_check(k.after, tb.rules());
    for (const MoveValue& defence : std::vector<MoveValue>(*tb.move_values(k.after)))
      checks += brute_checks(tb, defence.after);
  }
  return checks;
}
bool brute_no_check(const Tablebase& tb, const Position& pos) { return brute_checks(tb, pos) == 0; }
bool brute_one_to_two_checks(const Tablebase& tb, const Position& pos) {
  const int n = brute_checks(tb, pos);
  return n >= 1 && n <= 2;
}

// The squares the king of the side to move reaches by a legal move ("e1", ...).
std::set<std::string> brute_flights(const Position& pos, const RuleSet& rules) {
  std::set<std::string> out;
  const std::string king = square_name(lsb(pos.pieces(pos.side_to_move(), KING)));
  for (const std::string& m : test::legal_moves(to_fen(pos), rules))
    if (m.substr(0, 2) == king) out.insert(m.substr(2, 2));
  return out;
}

// Every key gives (or takes) a flight: a square of the defending king's after the key and
// not in the diagram with the defender to move (or the reverse).
bool brute_key_flights(const Tablebase& tb, const Position& pos, bool gives) {
  Position waiting = pos;
  waiting.set_side_to_move(~pos.side_to_move());
  waiting.set_ep_square(SQ_NONE);
  if (!is_legal_position(waiting, tb.rules())) return false;
  const std::set<std::string> before = brute_flights(waiting, tb.rules());
  const std::vector<MoveValue> keys = shortest_moves(tb, pos);
  for (const MoveValue& k : keys) {
    const std::set<std::string> after = brute_flights(k.after, tb.rules());
    const std::set<std::string>& more = gives ? after : before;
    const std::set<std::string>& fewer = gives ? before : after;
    if (std::none_of(more.begin(), more.end(), [&](const std::string& sq) { return !fewer.count(sq); })) return false;
  }
  return !keys.empty();
}
bool brute_key_gives_flight(const Tablebase& tb, const Position& pos) { return brute_key_flights(tb, pos, true); }
bool brute_key_takes_flight(const Tablebase& tb, const Position& pos) { return brute_key_flights(tb, pos, false); }

TEST(Mine, Issue24_ProblemQualityFiltersAgreeWithABruteForce) {
  const Tablebase tb = Tablebase::open(mine_fixture_tables(), RuleSet::orthodox());
  struct Filter {
    const char* flag;
    const char* verdict;  // what `probe --problem` says when the position passes
    bool (*brute)(const Tablebase&, const Position&);
  };
  const Filter filters[] = {{"--quiet-key", "quiet key yes", brute_quiet_key},
                            {"--no-capture", "no capture yes", brute_no_capture},
                            {"--every-unit-needed", "every unit needed yes", brute_every_unit_needed},
                            {"--checks 0", "checks 0,", brute_no_check},
                            {"--checks 1-2", "", brute_one_to_two_checks},
                            {"--key-flights gives", "key gives a flight yes", brute_key_gives_flight},
                            {"--key-flights takes", "key takes a flight yes", brute_key_takes_flight}};
  // KPvKP through `mine` (every mate-in-2 position filtered, a sample checked).
  const std::vector<std::string> sample = lines(run_mine("--mate 2 --limit 300 --seed 7 KPvKP").out);
  ASSERT_EQ(sample.size(), 300u);
  for (const Filter& f : filters) {
    SCOPED_TRACE(std::string("KPvKP ") + f.flag);
    const std::set<std::string> kept = line_set(run_mine(std::string("--mate 2 ") + f.flag + " KPvKP").out);
    int yes = 0;
    for (const std::string& fen : sample) {
      const bool brute = f.brute(tb, test::position(fen));
      EXPECT_EQ(kept.count(fen) == 1, brute) << fen;
      yes += brute;
    }
    // Both outcomes occur in the sample: the filter is tested both ways.
    EXPECT_GT(yes, 0);
    EXPECT_LT(yes, int(sample.size()));
  }
  // KQRvK, where a defence may take a unit, through `probe --problem` (the same verdicts on
  // one position; mining all its mates in 2 with --no-capture takes 12 s).
  const std::vector<std::string> rooks = lines(run_mine("--mate 2 --limit 120 --seed 7 KQRvK").out);
  ASSERT_EQ(rooks.size(), 120u);
  std::string fens;
  for (const std::string& fen : rooks) fens += " '" + fen + "'";
  const CommandRun probed = run_feerie("probe --problem --no-pv --tables " + mine_fixture_tables() + fens);
  ASSERT_EQ(probed.exit_code, 0) << probed.err;
  std::vector<std::string> verdicts;
  for (const std::string& line : lines(probed.out))
    if (line.rfind("problem: ", 0) == 0) verdicts.push_back(line);
  ASSERT_EQ(verdicts.size(), rooks.size());
  for (const Filter& f : filters) {
    if (!*f.verdict) continue;  // a range: probe --problem gives the number, tested above
    SCOPED_TRACE(std::string("KQRvK ") + f.flag);
    int yes = 0;
    for (std::size_t i = 0; i < rooks.size(); ++i) {
      const bool brute = f.brute(tb, test::position(rooks[i]));
      const bool said = verdicts[i].find(f.verdict) != std::string::npos;
      EXPECT_EQ(said, brute) << rooks[i] << ": " << verdicts[i];
      yes += brute;
    }
    EXPECT_GT(yes, 0);
    // Taking off the queen or the rook always changes a KQRvK mate: every unit is needed.
    if (f.verdict != std::string("every unit needed yes")) {
      EXPECT_LT(yes, int(rooks.size()));
    }
  }
  // --units: the number of units on the board, kings included.
  EXPECT_EQ(run_mine("--units 3 --count KPvKP").out, "0\n");
  EXPECT_EQ(run_mine("--units 4 --mate 2 --count KPvKP").out, run_mine("--mate 2 --count KPvKP").out);
  EXPECT_EQ(run_mine("--units 5-3 KPvKP").exit_code, 2);
}

// --- issue 24: the whole solution (probe --tree) ---

// Every path of the tree below `pos` (whose value is `plies` for the side to move) ends
// in a mate after exactly `plies` moves; the attacker's moves are the shortest moves, the
// defender's every legal move.
void expect_tree_is_the_solution(const Tablebase& tb, const Position& pos, const std::vector<SolutionNode>& nodes,
                                 bool attacker, int plies, int& leaves) {
  std::set<std::string> want, got;
  if (attacker) {
    for (const MoveValue& k : shortest_moves(tb, pos)) want.insert(to_uci(k.move));
  } else {
    for (const MoveValue& m : std::vector<MoveValue>(*tb.move_values(pos))) want.insert(to_uci(m.move));
  }
  for (const SolutionNode& n : nodes) got.insert(to_uci(n.move));
  EXPECT_EQ(got, want) << to_fen(pos);
  for (const SolutionNode& n : nodes) {
    Position after = pos;
    UndoRecord undo;
    make_move(after, n.move, undo, tb.rules());
    EXPECT_EQ(n.san, to_san(pos, n.move, tb.rules()));
    EXPECT_EQ(n.attacker, attacker);
    if (plies == 1) {
      EXPECT_TRUE(n.checkmate) << to_fen(pos) << " " << n.san;
      ++leaves;
      continue;
    }
    expect_tree_is_the_solution(tb, after, n.children, !attacker, plies - 1, leaves);
  }
}

TEST(Probe, Issue24_TheSolutionTreeIsEveryKeyEveryDefenceEveryShortestContinuation) {
  const Tablebase tb = Tablebase::open(mine_fixture_tables(), RuleSet::orthodox());
  int leaves = 0;
  for (const char* material : {"KQRvK", "KPvKP"})
    for (const std::string& fen : lines(run_mine(std::string("--mate 3 --limit 20 --seed 3 ") + material).out)) {
      const Position pos = test::position(fen);
      const Expected<SolutionNode> root = solution_tree(tb, pos);
      ASSERT_TRUE(root.ok()) << root.error_message();
      expect_tree_is_the_solution(tb, pos, root->children, true, 5, leaves);
    }
  EXPECT_GT(leaves, 100);
  // The side to move mated: its every move, then the mates.
  const Position lost = test::position("k7/8/1K6/8/8/8/8/3Q4 b - - 0 1");
  const Expected<SolutionNode> root = solution_tree(tb, lost);
  ASSERT_TRUE(root.ok());
  expect_tree_is_the_solution(tb, lost, root->children, false, value::plies(*tb.value_code(lost)), leaves);
  // A draw has none; --width bounds the replies and counts the others.
  EXPECT_FALSE(solution_tree(tb, test::position("8/8/8/8/8/8/8/K6k w - - 0 1")).ok());
  const CommandRun narrow = run_feerie("probe --tree --width 1 --no-pv --tables " + mine_fixture_tables() +
                                       " '8/8/8/8/8/1k6/8/K1Q5 w - - 0 1'");
  EXPECT_EQ(narrow.exit_code, 0) << narrow.err;
  EXPECT_NE(narrow.out.find("\n1.Qc5!\n  1...Ka4 2.Kb1\n"), std::string::npos) << narrow.out;
  EXPECT_NE(narrow.out.find("more)"), std::string::npos) << narrow.out;
  // Black first: its move is 1..., White's answer 2.; the PGN has the same numbers.
  const std::string black_first = "'k7/8/1K6/8/8/8/8/3Q4 b - - 0 1'";
  const CommandRun text = run_feerie("probe --tree --no-pv --tables " + mine_fixture_tables() + " " + black_first);
  EXPECT_NE(text.out.find("\n1...Kb8 2.Qd8#\n"), std::string::npos) << text.out;
  const CommandRun pgn = run_feerie("probe --tree --pgn --no-pv --tables " + mine_fixture_tables() + " " + black_first);
  EXPECT_NE(pgn.out.find("[FEN \"k7/8/1K6/8/8/8/8/3Q4 b - - 0 1\"]\n[Result \"*\"]\n\n1... Kb8 2. Qd8# *\n"),
            std::string::npos)
      << pgn.out;
  // Variations: every defence of a won position appears once, in parentheses but the first.
  const CommandRun rav =
      run_feerie("probe --tree --pgn --no-pv --tables " + mine_fixture_tables() + " '8/8/8/8/8/1k6/8/K1Q5 w - - 0 1'");
  EXPECT_NE(rav.out.find("1. Qc5 (1. Qc6 $2 Kb4 $1)"), std::string::npos) << rav.out;
  EXPECT_NE(rav.out.find(" 1... Ka4 2. Kb1 (2. Qb6"), std::string::npos) << rav.out;
  // Tries (their agreement with Popeye: tests/study/threat_sound_test.cpp), Black to play:
  // "?" on the try, "!" on the refutation; in PGN a variation of the first move.
  const std::string black_wins = "'k1K5/8/4R3/8/6q1/8/8/8 b - - 0 1'";
  const CommandRun tries = run_feerie("probe --tree --no-pv --tables " + mine_fixture_tables() + " " + black_wins);
  EXPECT_NE(tries.out.find("\n1...Qxe6+!\n"), std::string::npos) << tries.out;
  EXPECT_NE(tries.out.find("\n1...Ka7? 2.Kd7!\n"), std::string::npos) << tries.out;
  const CommandRun tries_pgn =
      run_feerie("probe --tree --pgn --no-pv --tables " + mine_fixture_tables() + " " + black_wins);
  EXPECT_NE(tries_pgn.out.find("\n1... Qxe6+ (1... Ka7 $2 2. Kd7 $1) 2. Kc7"), std::string::npos) << tries_pgn.out;
}

// One position could not be tested for a unique key or soundness without mining the
// whole table: `probe --problem` (checked against the brute force above on KQRvK) gives the
// verdicts; unique key and soundness as `mine` decides them.
TEST(Probe, Issue24_ProblemGivesUniqueKeyAndSoundnessOnOnePosition) {
  const Tablebase tb = Tablebase::open(mine_fixture_tables(), RuleSet::orthodox());
  for (const std::string& fen : lines(run_mine("--mate 3 --limit 6 --seed 11 KQvK").out)) {
    const CommandRun r = run_feerie("probe --problem --no-pv --tables " + mine_fixture_tables() + " '" + fen + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const Position pos = test::position(fen);
    EXPECT_NE(r.out.find(std::string("unique key ") + (brute_unique_key(tb, pos) ? "yes" : "no")), std::string::npos)
        << r.out;
    std::map<std::string, bool> known;
    EXPECT_NE(r.out.find(std::string("sound ") + (brute_sound(tb, pos, known) ? "yes" : "no")), std::string::npos)
        << r.out;
  }
  EXPECT_NE(run_feerie("probe --problem --no-pv --tables " + mine_fixture_tables() + " '8/8/8/8/8/8/8/K6k w - - 0 1'")
                .out.find("problem: none (the side to move does not win)"),
            std::string::npos);
}

// The checks of a long mate's tree, counted on each line, pass the counter's limit: the
// limit was printed as the count ("checks 1073741824"); it now says "or more".
TEST(Probe, ProblemSaysWhenTheChecksPassTheCountersLimit) {
  const CommandRun r = run_feerie("probe --problem --no-pv --tables " + mine_fixture_tables() +
                                  " '8/8/8/8/2r5/8/2k5/K6Q w - - 0 1'");  // KQvKR, #35
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(", checks 1073741824 or more, "), std::string::npos) << r.out;
}

// --sound=threat (study/threat_sound.h; its verdicts against Popeye are in
// tests/study/threat_sound_test.cpp) on the command line: every problem sound with every
// reply a defence is sound with only the replies that stop the threats, not the other way
// round; the key's threats in JSON and in Popeye remarks; the present --sound kept.
TEST(Mine, Issue24_SoundThreatAcceptsEverySoundProblemAndMore) {
  const std::string base = "--condition madrasi-ri --mate 2-3 --side white ";
  const std::vector<std::string> every_reply = lines(run_mine(base + "--sound KRvKB").out);
  EXPECT_EQ(lines(run_mine(base + "--sound=every-reply KRvKB").out), every_reply);
  const std::vector<std::string> threat_list = lines(run_mine(base + "--sound=threat KRvKB").out);
  const std::set<std::string> threat(threat_list.begin(), threat_list.end());
  ASSERT_FALSE(every_reply.empty());
  for (const std::string& fen : every_reply) EXPECT_TRUE(threat.count(fen)) << fen;
  EXPECT_GT(threat.size(), every_reply.size());
  const CommandRun bad = run_mine(base + "--sound=popeye KRvKB");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("every-reply"), std::string::npos) << bad.err;

  const std::string json = run_mine(base + "--sound=threat --json --limit 2 --seed 3 KRvKB").out;
  EXPECT_NE(json.find("\"key_kind\":"), std::string::npos) << json;
  EXPECT_NE(json.find("\"threats_san\":"), std::string::npos) << json;
  EXPECT_NE(json.find("\"double_threat\":"), std::string::npos) << json;
  const std::string popeye = run_mine(base + "--sound=threat --popeye --limit 1 --seed 3 KRvKB").out;
  EXPECT_NE(popeye.find("Remark"), std::string::npos) << popeye;
  EXPECT_NE(popeye.find("key "), std::string::npos) << popeye;
}

// The issue's example: 1.Rb5! threatens 2.Rb1#; after 1...Bh2 a second mate is only a dual
// after a non-defence. --sound (every reply) rejects it, --sound=threat accepts it.
TEST(Probe, Issue24_ProblemShowsTheThreatReading) {
  const CommandRun r = run_feerie("probe --problem --no-pv --condition madrasi-ri --tables " + mine_fixture_tables() +
                                  " '8/8/8/6R1/8/8/8/2kK2b1 w - - 0 1'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("unique key yes, sound no, sound (threat) yes"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("key Rb5: threat Rb1#\n"), std::string::npos) << r.out;
  // With --popeye the verdicts become remarks of the problem (they were dropped before).
  const CommandRun popeye = run_feerie("probe --problem --popeye --condition madrasi-ri --tables " +
                                       mine_fixture_tables() + " '8/8/8/6R1/8/8/8/2kK2b1 w - - 0 1'");
  ASSERT_EQ(popeye.exit_code, 0) << popeye.err;
  EXPECT_NE(popeye.out.find("\nRemark problem: #2 (4 units); unique key yes"), std::string::npos) << popeye.out;
  EXPECT_NE(popeye.out.find("\nRemark key Rb5: threat Rb1#\n"), std::string::npos) << popeye.out;
  EXPECT_NE(popeye.out.find("\nStipulation #2\n"), std::string::npos) << popeye.out;
  // A double (here triple) threat, orthodox-011 of the Popeye verdicts: shown, not a flaw.
  const CommandRun triple =
      run_feerie("probe --problem --no-pv --tables " + mine_fixture_tables() + " '8/2Q5/8/8/8/3K4/7r/3k4 w - - 0 1'");
  EXPECT_NE(triple.out.find("sound (threat) yes"), std::string::npos) << triple.out;
  EXPECT_NE(triple.out.find("key Qxh2: threat "), std::string::npos) << triple.out;
  EXPECT_NE(triple.out.find(" (double threat)\n"), std::string::npos) << triple.out;
}

}  // namespace

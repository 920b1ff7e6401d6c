// `feerie probe`: the value of positions, their best moves and lines, every move's value,
// a problem's verdicts and its whole solution; text, JSON or Popeye problems (docs/cli.md).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <functional>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "probe/tablebase.h"
#include "rules/fen.h"
#include "rules/san.h"
#include "rules/text.h"
#include "study/mine.h"
#include "study/popeye.h"
#include "study/problem_quality.h"
#include "study/solution_tree.h"
#include "study/threat_sound.h"
#include "tools/cli.h"
#include "tools/help_commands.h"
#include "tools/json_text.h"
#include "tools/table_command.h"
#include "tools/threat_text.h"

namespace feerie::cli {

namespace {

// A move's value for the side that plays it.
std::string move_verdict_text(const MoveValue& mv) {
  if (mv.checkmate) return "checkmate";
  if (mv.stalemate) return "stalemate (draw)";
  ProbeResult r = ProbeResult::of(mv.value);
  if (r.wdl == Wdl::Draw) return "draw";
  if (r.wdl == Wdl::Win) return fmt::format("mates in {} ({} plies)", r.mate_in(), r.dtm_plies);
  return fmt::format("is mated in {} ({} plies)", -r.mate_in(), r.dtm_plies);
}

struct ProbeOptions {
  bool json = false;
  bool moves = false;  // every legal move with its value
  bool pv = true;
  bool uci = false;                // long algebraic notation instead of SAN in the text
  int tree_width = -1;             // >= 0: the solution tree, at most that many replies per node (0: all)
  bool problem = false;            // the mining filters' verdicts on the position (issue 24)
  bool figurine = false;           // SAN with figurines (♘f3)
  bool pgn = false;                // with --tree: the tree as PGN
  PopeyeWriter* popeye = nullptr;  // with --popeye: each position as a Popeye problem
};

// The verdicts of `mine`'s problem filters on one position (issue 24: one position could
// not be tested without mining its whole table): "problem: unique key yes, sound no, ...",
// then with a unique key what it threatens ("key Rb5: threat Rb1#").
std::string problem_text(const Tablebase& tb, const Position& pos) {
  const ValueCode v = take(tb.value_code(pos));
  if (!value::is_win(v)) return "problem: none (the side to move does not win)\n";
  auto yes = [](Expected<bool> b) { return take(std::move(b)) ? "yes" : "no"; };
  const ThreatReading threats = take(read_threats(tb, pos));
  const std::vector<KeyFlights> flights = take(key_flights(tb, pos, v));
  auto every_key = [&](auto&& does) {
    return std::all_of(flights.begin(), flights.end(), does) && !flights.empty() ? "yes" : "no";
  };
  // Counted on each line that reaches a position, the checks of a long mate's tree can
  // pass any bound: the count stops at CheckCountLimit and says so (it once printed the
  // limit as the count).
  constexpr int CheckCountLimit = 1 << 30;
  const int checks = take(checks_in_solution(tb, pos, v, CheckCountLimit));
  const std::string checks_text =
      checks >= CheckCountLimit ? fmt::format("{} or more", CheckCountLimit) : std::to_string(checks);
  std::string text = fmt::format(
      "problem: #{} ({} units); unique key {}, sound {}, sound (threat) {}, quiet key {}, no capture {}, every unit "
      "needed {}, checks {}, key gives a flight {}, key takes a flight {}\n",
      value::moves(v), popcount(pos.pieces()), yes(has_unique_key(tb, pos)), yes(is_sound(tb, pos)),
      threats.sound ? "yes" : "no", yes(has_quiet_key(tb, pos, v)), yes(solution_has_no_capture(tb, pos, v)),
      yes(every_unit_needed(tb, pos, v)), checks_text, every_key([](const KeyFlights& k) { return k.given != 0; }),
      every_key([](const KeyFlights& k) { return k.taken != 0; }));
  if (threats.keys == 1) text += threat_text(pos, threats, tb.rules()) + "\n";
  return text;
}

void probe_one(const Tablebase& tb, const std::string& fen, const ProbeOptions& o) {
  Position pos = parse_position(fen, tb.rules());  // a legal position
  if (o.popeye) {
    // With --problem, the verdicts go into the problem as remarks (one per line).
    std::vector<std::string> remarks;
    if (o.problem) {
      std::istringstream verdicts(problem_text(tb, pos));
      for (std::string line; std::getline(verdicts, line);) remarks.push_back(line);
    }
    o.popeye->write(take(popeye_problem(pos, tb.rules(), take(tb.value_code(pos)), remarks)));
    return;
  }
  if (o.json) {
    std::cout << probe_json(tb, pos, o.moves, o.pv, o.tree_width) << "\n";
    return;
  }
  ProbeResult r = take(tb.probe(pos));
  std::vector<Move> best = take(tb.best_moves(pos));
  std::vector<Move> pv = o.pv ? take(tb.principal_variation(pos)) : std::vector<Move>{};
  std::vector<MoveValue> values = o.moves ? take(tb.move_values(pos)) : std::vector<MoveValue>{};
  // SAN (numbered lines) for people; --uci the long algebraic names.
  const RuleSet& rules = tb.rules();
  auto people = [&](const std::string& san) { return o.figurine ? to_figurine(san) : san; };
  auto move_text = [&](const Position& at, Move m) { return o.uci ? to_uci(m) : people(to_san(at, m, rules)); };
  auto line_text = [&](const Position& at, const std::vector<Move>& line) {
    return o.uci ? fmt::format("{}", fmt::join(move_names(line), " ")) : people(san_line(at, line, rules));
  };
  // A draw without a legal move is a stalemate, said as the moves' list says it.
  MoveList legal;
  if (r.wdl == Wdl::Draw) generate_legal(pos, rules, legal);
  std::cout << to_fen(pos) << ": "
            << (r.wdl == Wdl::Draw && legal.size() == 0 ? "the side to move is stalemated (draw)" : verdict_text(r));
  if (!best.empty()) {
    std::vector<std::string> names;
    for (Move m : best) names.push_back(move_text(pos, m));
    std::cout << "; best: " << fmt::format("{}", fmt::join(names, " "));
  }
  if (!pv.empty()) std::cout << "; pv: " << line_text(pos, pv);
  std::cout << "\n";
  if (o.problem) std::cout << problem_text(tb, pos);
  if (o.tree_width >= 0 && r.wdl != Wdl::Draw && r.dtm_plies > 0) {
    const SolutionNode root = take(solution_tree(tb, pos, o.tree_width, TreeNodeBudget));
    std::cout << (o.pgn ? solution_pgn(pos, root, rules.name()) : people(solution_text(pos, root)));
  }
  for (const MoveValue& mv : values) {
    std::cout << fmt::format("  {:<7} {}", move_text(pos, mv.move), move_verdict_text(mv));
    if (o.pv && value::is_mate(mv.value) && !mv.checkmate)
      std::cout << "; pv: " << line_text(mv.after, take(tb.principal_variation(mv.after)));
    std::cout << "\n";
  }
}

// The FENs given as arguments, or one per line on stdin when none is. A batch keeps going
// past a bad position: each failure is reported on its own (a JSON object with an "error"
// field under `json`), and the exit status says at the end. One FEN argument fails as a
// command does (its reason alone). Several arguments once stopped at the first failure.
void probe_batch(const std::vector<std::string>& args, bool json,
                 const std::function<void(const std::string&)>& probe_line) {
  if (args.size() == 1) return probe_line(args.front());
  int number = 0, positions = 0, failed = 0;  // stdin's line numbers count blank lines too
  ErrorKind first_failure = ErrorKind::Internal;
  auto probe = [&](const std::string& fen, const char* where) {
    ++positions;
    try {
      probe_line(fen);
    } catch (const CommandError& e) {
      if (failed++ == 0) first_failure = e.kind;
      if (json)
        std::cout << json_text(nlohmann::ordered_json{
                         {"fen", printable(fen)}, {"error", e.what()}, {"error_kind", kind_name(e.kind)}})
                  << "\n";
      else
        std::cerr << "feerie: " << where << " " << number << ": " << e.what() << "\n";
    }
  };
  if (!args.empty()) {
    for (const std::string& fen : args) ++number, probe(fen, "argument");
  } else {
    for (std::string line; std::getline(std::cin, line);)
      if (++number, line.find_first_not_of(" \t\r") != std::string::npos) probe(line, "line");
  }
  if (failed)
    throw CommandError(std::to_string(failed) + " of " + std::to_string(positions) + " positions failed",
                       first_failure);
}

// probe --stipulation h# or s#: each position's helpmate or selfmate, from the arguments or
// one FEN per line on stdin. The direct-mate options do not apply.
void probe_helpmates(const TableOptions& opt, StipulationKind kind, Color mated, const ProbeOptions& o, bool popeye,
                     int solutions) {
  if (solutions > 0 && kind != StipulationKind::Helpmate)
    throw CommandError("--solutions is for --stipulation h# (a selfmate's solution is a tree)",
                       ErrorKind::InvalidArgument);
  // (--no-pv too: a helpmate answer has no principal variation, and was silently taken.)
  if (o.moves || !o.pv || o.tree_width >= 0 || o.problem || o.pgn)
    throw CommandError("--moves, --no-pv, --tree, --problem and --pgn are for direct mates, not --stipulation h# or s#",
                       ErrorKind::InvalidArgument);
  // (The solution lines are written in SAN only.)
  if (o.figurine || o.uci)
    throw CommandError("--figurine and --uci are for direct mates: helpmate solutions are written in SAN",
                       ErrorKind::InvalidArgument);
  const HelpTablebase tb(parse_condition(opt.condition), opt.tables, kind);
  PopeyeWriter writer(std::cout);
  PopeyeWriter* problems = popeye ? &writer : nullptr;
  // EndProblem after the last problem, also when a line of a batch failed.
  struct Finish {
    PopeyeWriter& w;
    ~Finish() { w.finish(); }
  } finish{writer};
  probe_batch(opt.args, opt.json,
              [&](const std::string& line) { probe_help(tb, line, mated, opt.json, problems, solutions); });
}

}  // namespace

void add_probe_command(CLI::App& app) {
  auto opt = std::make_shared<TableOptions>();
  CLI::App* cmd = app.add_subcommand("probe", "Probe positions (FEN arguments, or one FEN per line on stdin)");
  add_table_options(cmd, *opt);
  cmd->add_flag("--json", opt->json, "One JSON object per position");
  auto probe_options = std::make_shared<ProbeOptions>();
  cmd->add_flag("--moves", probe_options->moves,
                "Also every legal move with the value of the position after it, for the mover, best first");
  cmd->add_flag(
      "--no-pv", [probe_options](std::int64_t) { probe_options->pv = false; }, "Leave the principal variations out");
  auto* tree = cmd->add_flag(
      "--tree", [probe_options](std::int64_t) { probe_options->tree_width = std::max(probe_options->tree_width, 0); },
      "The whole solution of a mate: every key, every defence, every continuation keeping the shortest mate");
  cmd->add_option("--width", probe_options->tree_width,
                  "With --tree: at most this many defences per move (the others counted; default: all)")
      ->check(whole_number_in(1, MaxTreeWidth))
      ->needs(tree);
  cmd->add_flag("--pgn", probe_options->pgn, "With --tree: the solution as a PGN game with variations")
      ->needs(tree)
      ->excludes("--json");
  cmd->add_flag("--problem", probe_options->problem,
                "Also the verdicts of mine's problem filters on the position: unique key, sound (every reply, "
                "threat), quiet key, no capture, every unit needed, checks, flights; and the key's threat (with "
                "--popeye: as remarks of the problem)")
      ->excludes("--json");
  // (JSON has both notations; the solution tree is written in SAN: options that would be
  // silently ignored there are refused.)
  auto* figurine = cmd->add_flag("--figurine", probe_options->figurine, "SAN with figurines for the pieces (\u2658f3)")
                       ->excludes("--json");
  cmd->add_flag("--uci", probe_options->uci,
                "Moves in long algebraic notation (e2e4, e7e8q) instead of SAN in the text output")
      ->excludes(figurine)
      ->excludes("--json")
      ->excludes(tree);
  auto popeye = std::make_shared<bool>(false);
  cmd->add_flag("--popeye", *popeye,
                "Each position as a problem in Popeye's input language (stipulation #N; h#N, h#N.5 or s#N with "
                "--stipulation)")
      ->excludes("--json")
      ->excludes("--moves")
      ->excludes(tree)
      ->excludes(figurine)
      ->excludes("--uci");
  auto stipulation = std::make_shared<std::string>("#");
  auto mated = std::make_shared<std::optional<std::string>>();
  cmd->add_option("--stipulation", *stipulation,
                  "# (direct mate, the default), h# (helpmate) or s# (selfmate), from the tables of gen "
                  "--stipulation");
  cmd->add_option("--mated", *mated,
                  "With --stipulation h# or s#: the colour mated, white or black (default: black for h#, white for "
                  "s#)")
      ->check(refuse_empty_value);
  auto solutions = std::make_shared<int>(0);
  cmd->add_option("--solutions", *solutions,
                  "With --stipulation h#: also the shortest solutions, at most N (SAN, numbered by the colour mated's "
                  "moves)")
      ->check(whole_number_in(1, MaxSolutionLines));
  cmd->add_option("fen", opt->args, "Positions in FEN (each quoted)");
  cmd->callback([opt, probe_options, popeye, stipulation, mated, solutions] {
    if (const StipulationKind kind = parse_stipulation(*stipulation); kind != StipulationKind::DirectMate) {
      probe_helpmates(*opt, kind, parse_mated(*mated, kind), *probe_options, *popeye, *solutions);
      return;
    }
    if (*mated) throw CommandError("--mated is for --stipulation h# and s#", ErrorKind::InvalidArgument);
    if (*solutions) throw CommandError("--solutions is for --stipulation h#", ErrorKind::InvalidArgument);
    Tablebase tb = Tablebase::open(opt->tables, parse_condition(opt->condition));
    ProbeOptions o = *probe_options;
    o.json = opt->json;
    PopeyeWriter writer(std::cout);
    if (*popeye) o.popeye = &writer;
    // EndProblem after the last problem, also when a line of a batch failed.
    struct Finish {
      PopeyeWriter& w;
      ~Finish() { w.finish(); }
    } finish{writer};
    probe_batch(opt->args, opt->json, [&](const std::string& line) { probe_one(tb, line, o); });
  });
}

}  // namespace feerie::cli

// `feerie mine`: the positions of a table that pass a problemist's filters (study/mine.h),
// as FENs, JSON objects or Popeye problems (docs/cli.md, docs/study.md).
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "gen/generate.h"
#include "probe/tablebase.h"
#include "rules/fen.h"
#include "rules/san.h"
#include "rules/text.h"
#include "study/mine.h"
#include "study/popeye.h"
#include "tools/cli.h"
#include "tools/help_commands.h"
#include "tools/json_text.h"
#include "tools/threat_text.h"
#include "tools/whole_output.h"

namespace feerie::cli {

namespace {

struct MineCommandOptions {
  std::string condition = "orthodox";
  std::string tables = "tables";
  std::string material;
  std::string side, result, mate, units, differs_from, differs_in = "value", zugzwang, sound, checks, key_flights;
  std::optional<std::string> mated;  // the mated side (h#, s#) or the moves to mate (#)
  std::string stipulation = "#";
  bool unique = false;  // --stipulation h#: exactly one solution
  bool unique_key = false, usual_pawn_ranks = false, legal_there = false;
  bool quiet_key = false, no_capture = false, every_unit_needed = false;
  std::uint64_t limit = 0, seed = 0;
  int threads = 0;
  bool json = false, popeye = false, count = false;
  bool values = false;  // each position's FEN and value, one per line
};

// "N" or "N-M" read by `number` (which throws `bad` for a bad one), low <= high.
template <class Number>
void parse_range(const std::string& text, const std::string& bad, Number&& number, int& low, int& high) {
  const std::size_t dash = text.find('-');
  low = number(text.substr(0, dash));
  high = dash == std::string::npos ? low : number(text.substr(dash + 1));
  if (low > high) throw CommandError(bad, ErrorKind::InvalidArgument);
}

// "3" or "2-5": N moves, exact or a range, for --mate and --mated.
void parse_moves_range(const std::string& text, const std::string& flag, int& low, int& high,
                       const std::string& what = "moves", int least = 1) {
  const std::string bad =
      "bad " + flag + " '" + text + "' (expected N or N-M, " + what + ", " + std::to_string(least) + " <= N <= M)";
  auto number = [&](const std::string& s) {
    if (s.empty() || s.size() > 5 || s.find_first_not_of("0123456789") != std::string::npos || std::stoi(s) < least)
      throw CommandError(bad, ErrorKind::InvalidArgument);
    return std::stoi(s);
  };
  parse_range(text, bad, number, low, high);
}

// "draw", "mate in 3", "mated in 2" ("mated in 0": mated now), for --values: the exact
// value, since a win in N moves is 2N - 1 plies and a loss in N moves 2N.
std::string plain_value_text(ValueCode v) {
  if (!value::is_mate(v)) return "draw";
  return fmt::format("{} in {}", value::is_win(v) ? "mate" : "mated", value::moves(v));
}

// The same for remarks: "a draw", "mate in 3", "mated in 2", "not a legal position".
std::string value_text(ValueCode v) {
  if (v == value::Illegal) return "not a legal position";
  return value::is_mate(v) ? plain_value_text(v) : "a draw";
}

// `other` is the canonical name of the --differs-from condition, or empty.
void print_match(const Tablebase& tb, const MineCommandOptions& o, const std::string& other, const MineMatch& m,
                 PopeyeWriter& popeye) {
  if (o.popeye) {
    std::vector<std::string> remarks;
    if (!other.empty())
      remarks.push_back("under " + tb.rules().name() + " " + value_text(m.value) + " for the side to move; under " +
                        other + " " + value_text(m.other_value));
    if (o.sound == "threat") remarks.push_back(threat_text(m.position, take(read_threats(tb, m.position)), tb.rules()));
    if (m.other_side_value != value::Unknown)
      remarks.push_back("reciprocal zugzwang: with the other side to move, " + value_text(m.other_side_value) +
                        " for that side");
    popeye.write(take(popeye_problem(m.position, tb.rules(), m.value, remarks)));
    return;
  }
  if (o.values) {
    std::cout << to_fen(m.position) << ": " << plain_value_text(m.value) << "\n";
    return;
  }
  if (!o.json) {
    std::cout << to_fen(m.position) << "\n";
    return;
  }
  nlohmann::ordered_json j;
  j["fen"] = to_fen(m.position);
  j["condition"] = tb.rules().name();
  add_result_json(j, ProbeResult::of(m.value));
  std::vector<std::string> best, best_san;
  for (Move mv : take(tb.best_moves(m.position))) {
    best.push_back(to_uci(mv));
    best_san.push_back(to_san(m.position, mv, tb.rules()));
  }
  j["best_moves"] = best;
  j["best_moves_san"] = best_san;
  if (o.sound == "threat") add_threat_json(j, take(read_threats(tb, m.position)), tb.rules());
  if (!other.empty()) {
    nlohmann::ordered_json there;
    there["condition"] = other;
    there["legal"] = m.other_value != value::Illegal;
    if (m.other_value == value::Illegal) {
      there["wdl"] = nullptr;
      there["dtm_plies"] = nullptr;
      there["mate_in"] = nullptr;
    } else {
      add_result_json(there, ProbeResult::of(m.other_value));
    }
    j["differs_from"] = there;
  }
  if (m.other_side_value != value::Unknown) {
    // The same placement with the other side to move, from that side's point of view.
    nlohmann::ordered_json other_to_move;
    add_result_json(other_to_move, ProbeResult::of(m.other_side_value));
    j["other_side_to_move"] = other_to_move;
  }
  std::cout << json_text(j) << "\n";
}

// --mate with --stipulation h# or s#: "2", "1.5" or "0.5-2" (h#N.5 counts as N.5; s# has
// whole moves only), as half moves: h#X is 2X.
void parse_problem_lengths(const std::string& text, StipulationKind kind, int& low, int& high) {
  const bool help = kind == StipulationKind::Helpmate;
  const std::string bad = "bad --mate '" + printable_excerpt(text, 40) + "' (expected N or N-M, " +
                          (help ? "h#N to h#M: whole or half moves such as 2, 1.5 or 0.5-2" : "s#N to s#M: 1 <= N") +
                          ", N <= M)";
  auto half_moves = [&](const std::string& s) {
    const bool half = help && s.size() > 2 && s.compare(s.size() - 2, 2, ".5") == 0;
    const std::string whole = half ? s.substr(0, s.size() - 2) : s;
    if (whole.empty() || whole.size() > 4 || whole.find_first_not_of("0123456789") != std::string::npos)
      throw CommandError(bad, ErrorKind::InvalidArgument);
    const int n = 2 * std::stoi(whole) + (half ? 1 : 0);
    if (n < 1 || (!help && n < 2)) throw CommandError(bad, ErrorKind::InvalidArgument);
    return n;
  };
  parse_range(text, bad, half_moves, low, high);
}

// mine --stipulation h# or s#: the helpmate or selfmate table's positions by side to move,
// length (--mate in problem moves), unique solution, units and pawn ranks; the direct-mate
// filters do not apply.
void run_help_mine(const MineCommandOptions& o, StipulationKind kind) {
  const std::vector<std::pair<bool, const char*>> direct_only = {{!o.result.empty(), "--result"},
                                                                 {o.unique_key, "--unique-key"},
                                                                 {!o.sound.empty(), "--sound"},
                                                                 {o.quiet_key, "--quiet-key"},
                                                                 {o.no_capture, "--no-capture"},
                                                                 {o.every_unit_needed, "--every-unit-needed"},
                                                                 {!o.checks.empty(), "--checks"},
                                                                 {!o.key_flights.empty(), "--key-flights"},
                                                                 {!o.differs_from.empty(), "--differs-from"},
                                                                 {!o.zugzwang.empty(), "--zugzwang"}};
  for (const auto& [given, flag] : direct_only)
    if (given)
      throw CommandError(std::string(flag) + " is for direct mates, not --stipulation " +
                             (kind == StipulationKind::Selfmate ? "s#" : "h#"),
                         ErrorKind::InvalidArgument);
  if (o.unique && kind != StipulationKind::Helpmate)
    throw CommandError("--unique is for --stipulation h# (a selfmate table counts no solutions)",
                       ErrorKind::InvalidArgument);
  const RuleSet rules = parse_condition(o.condition);
  const Material material = take(Material::parse(o.material));
  HelpMineFilter f;
  f.mated = parse_mated(o.mated, kind);
  if (!o.side.empty()) f.side = o.side == "white" ? WHITE : BLACK;
  if (!o.mate.empty()) parse_problem_lengths(o.mate, kind, f.half_moves_min, f.half_moves_max);
  if (!o.units.empty()) parse_moves_range(o.units, "--units", f.units_min, f.units_max, "units");
  f.unique = o.unique;
  f.pawns_on_ranks_2_to_7 = o.usual_pawn_ranks;
  const HelpMineOutput output = o.count    ? HelpMineOutput::Count
                                : o.json   ? HelpMineOutput::Json
                                : o.popeye ? HelpMineOutput::Popeye
                                           : HelpMineOutput::Fen;
  mine_help(HelpTablebase(rules, o.tables, kind), material, f, o.count ? 0 : o.limit, o.seed, output);
}

void run_mine(const MineCommandOptions& o) {
  if (const StipulationKind kind = parse_stipulation(o.stipulation); kind != StipulationKind::DirectMate) {
    if (o.values)
      throw CommandError("--values is for direct-mate tables (--stipulation #)", ErrorKind::InvalidArgument);
    run_help_mine(o, kind);
    return;
  }
  if (o.unique)
    throw CommandError("--unique is for --stipulation h# (for direct mates: --unique-key)", ErrorKind::InvalidArgument);
  RuleSet rules = parse_condition(o.condition);
  Material material = take(Material::parse(o.material));
  Tablebase tb = Tablebase::open(o.tables, rules);
  MineOptions options;
  MineFilter& f = options.filter;
  if (!o.side.empty()) f.side = o.side == "white" ? WHITE : BLACK;
  if (!o.result.empty()) f.result = o.result == "win" ? Wdl::Win : o.result == "draw" ? Wdl::Draw : Wdl::Loss;
  if (!o.mate.empty()) parse_moves_range(o.mate, "--mate", f.mate_min, f.mate_max);
  if (o.mated) parse_moves_range(*o.mated, "--mated", f.mated_min, f.mated_max);
  if (!o.units.empty()) parse_moves_range(o.units, "--units", f.units_min, f.units_max, "units");
  if (!o.checks.empty()) parse_moves_range(o.checks, "--checks", f.checks_min, f.checks_max, "checks", 0);
  if (!o.key_flights.empty())
    f.key_flights = o.key_flights == "gives"   ? KeyFlightsWanted::Gives
                    : o.key_flights == "takes" ? KeyFlightsWanted::Takes
                                               : KeyFlightsWanted::NoneTaken;
  f.quiet_key = o.quiet_key;
  f.no_capture = o.no_capture;
  f.every_unit_needed = o.every_unit_needed;
  f.unique_key = o.unique_key;
  f.sound = o.sound == "every-reply";
  f.sound_threat = o.sound == "threat";
  f.mate_to_play = o.popeye;
  if (o.popeye && f.result == Wdl::Draw)
    throw CommandError("--popeye writes problems with a mate to play; --result draw has none",
                       ErrorKind::InvalidArgument);
  std::string other_name;
  if (!o.differs_from.empty()) {
    RuleSet other = parse_condition(o.differs_from);
    if (other == rules)
      throw CommandError("--differs-from " + other.name() + " is the condition mined", ErrorKind::InvalidArgument);
    other_name = other.name();
    f.differs_from = Tablebase::open(o.tables, other);
    f.difference = o.differs_in == "result" ? Difference::Result : Difference::Value;
    f.legal_there = o.legal_there;
  }
  if (!o.zugzwang.empty())
    f.zugzwang = o.zugzwang == "full" ? Zugzwang::Full : o.zugzwang == "half" ? Zugzwang::Half : Zugzwang::Any;
  f.pawns_on_ranks_2_to_7 = o.usual_pawn_ranks;
  // A count counts every match: a sample would only hold them in memory.
  options.limit = o.count ? 0 : o.limit;
  options.seed = o.seed;
  options.threads = o.threads;
  const bool terminal = isatty(STDERR_FILENO);
  if (terminal)
    options.on_progress = [&](double done) {
      const std::lock_guard lock(output_lock());
      std::cerr << "\r\033[K"
                << fmt::format("mining {} ({}): {}% scanned", material.name(), rules.name(), int(100 * done))
                << std::flush;
    };
  PopeyeWriter popeye(std::cout);
  const OutputCloser closer([&popeye] { popeye.finish(); });
  auto start = std::chrono::steady_clock::now();
  // Progress and results on one terminal: each result on a line of its own.
  const bool clear_before_output = terminal && isatty(STDOUT_FILENO);
  MineReport report = take(mine(tb, material, options, [&](const MineMatch& m) {
    if (o.count) return;
    const std::lock_guard lock(output_lock());  // a match written whole, also when interrupted
    if (clear_before_output) clear_progress();
    print_match(tb, o, other_name, m, popeye);
  }));
  popeye.finish();
  if (o.count) {
    if (clear_before_output) clear_progress();  // the count on a line of its own
    std::cout << report.matches << "\n";
  }
  // Issue 24: an empty Popeye input said nothing at all.
  if (o.popeye && report.matches == 0) {
    clear_progress();
    std::cerr << "feerie: no position matched: no problem written\n";
  }
  if (terminal) {
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    clear_progress();
    std::cerr << fmt::format(
        "feerie: {} match{} in {} entries, {:.2f} s{}\n", report.matches, report.matches == 1 ? "" : "es",
        report.entries, seconds,
        !o.count && o.limit && report.matches > o.limit ? fmt::format(" ({} sampled)", o.limit) : "");
  }
}

}  // namespace

void add_mine_command(CLI::App& app) {
  auto o = std::make_shared<MineCommandOptions>();
  CLI::App* cmd =
      app.add_subcommand("mine", "Find the positions of a table that pass filters (one pass over the table)");
  cmd->add_option("--condition", o->condition, "Condition (default: orthodox)");
  cmd->add_option("--tables", o->tables, "Tables directory (default: ./tables)")->check(refuse_empty_directory);
  cmd->add_option("--side", o->side, "Side to move")->check(CLI::IsMember({"white", "black"}));
  cmd->add_option("--result", o->result, "Result for the side to move")->check(CLI::IsMember({"win", "draw", "loss"}));
  cmd->add_option("--mate", o->mate, "The side to move mates in N moves, or in N to M moves (N-M)");
  cmd->add_option("--mated", o->mated,
                  "The side to move is mated in N moves, or in N to M moves (N-M); with --stipulation h# or s#: the "
                  "colour mated, white or black (default: black for h#, white for s#)")
      ->check(refuse_empty_value);
  cmd->add_option("--stipulation", o->stipulation,
                  "# (direct mate, the default), h# (helpmate) or s# (selfmate): mine the tables of gen "
                  "--stipulation; --mate N-M then selects h#N to h#M (h#N.5 counts as N.5) or s#N to s#M");
  cmd->add_flag("--unique", o->unique, "With --stipulation h#: exactly one shortest solution");
  cmd->add_flag("--unique-key", o->unique_key, "The side to move wins and exactly one move keeps the shortest mate");
  cmd->add_flag("--sound{every-reply}", o->sound,
                "A sound direct mate: a unique key, and after every reply (--sound, --sound=every-reply) or every "
                "reply that stops all threats (--sound=threat, a problemist's soundness) exactly one shortest "
                "continuation, down to the mate")
      ->check(CLI::IsMember({"every-reply", "threat"}));
  cmd->add_flag("--quiet-key", o->quiet_key, "The side to move wins and every key is neither a capture nor a check");
  cmd->add_flag("--no-capture", o->no_capture,
                "The side to move wins and no move of the solution (keys, every defence, every continuation that "
                "keeps the shortest mate) captures");
  cmd->add_flag("--every-unit-needed", o->every_unit_needed,
                "The side to move wins and removing any unit but a king changes the value or the keys (or makes the "
                "position illegal)");
  cmd->add_option("--checks", o->checks,
                  "Checks in the solution: the attacker's checking moves that do not mate, over the whole solution "
                  "tree (keys, every defence, every shortest continuation): N, or N to M (N-M); 0 for none");
  cmd->add_option("--key-flights", o->key_flights,
                  "What every key does to the defending king's flight squares: 'gives' one at least, 'takes' one at "
                  "least, or 'none-taken'")
      ->check(CLI::IsMember({"gives", "takes", "none-taken"}));
  cmd->add_option("--units", o->units, "Units on the board, kings included: N, or N to M (N-M)");
  auto* differs =
      cmd->add_option("--differs-from", o->differs_from,
                      "Positions whose value differs under this condition (its table in the same --tables)");
  cmd->add_option("--differs-in", o->differs_in,
                  "With --differs-from: compare the value (result or mate distance; default) or the result only")
      ->check(CLI::IsMember({"value", "result"}))
      ->needs(differs);
  cmd->add_flag("--legal-there", o->legal_there,
                "With --differs-from: only positions legal under that condition too (not touching kings, no check "
                "it does not forgive)")
      ->needs(differs);
  cmd->add_option("--zugzwang", o->zugzwang,
                  "Reciprocal zugzwangs: the side to move does worse than with the other side to move; 'full' "
                  "(whoever moves loses), 'half' (one draws instead of winning, the other loses instead of drawing) "
                  "or 'any'. Each placement once, White to move unless --side black")
      ->check(CLI::IsMember({"full", "half", "any"}));
  cmd->add_flag("--usual-pawn-ranks", o->usual_pawn_ranks,
                "Only positions whose pawns stand on ranks 2 to 7, as in orthodox tablebases (a pawn on its first or "
                "last rank is a position here, SPEC 1)");
  auto* limit = cmd->add_option("--limit", o->limit, "A random sample of at most N matches (default: every match)")
                    ->check(whole_number_in(1));
  cmd->add_option("--seed", o->seed, "Seed of the sample (default 0): the same seed gives the same sample")
      ->check(whole_number_in(0))
      ->needs(limit);
  cmd->add_option("--threads", o->threads, "Threads (default: all cores)")->check(whole_number_in(0, MaxThreads));
  auto* json = cmd->add_flag("--json", o->json, "One JSON object per position");
  auto* popeye = cmd->add_flag("--popeye", o->popeye, "Popeye problems (positions with a mate to play only)");
  auto* count = cmd->add_flag("--count", o->count, "Print the number of matches only");
  auto* values = cmd->add_flag("--values", o->values,
                               "Each position's FEN and value, one per line ('FEN: mate in 3', 'FEN: mated in 2', "
                               "'FEN: draw'); direct-mate tables only");
  json->excludes(popeye);
  count->excludes(json)->excludes(popeye);
  values->excludes(json)->excludes(popeye)->excludes(count);
  cmd->add_option("material", o->material, "Material signature, e.g. KQvKR")->required();
  // Extra words are refused in the callback, where --sound's can be told apart.
  cmd->allow_extras();
  cmd->callback([o, cmd] {
    // --sound takes its value after '=' only (CLI11's flag with an optional value):
    // `--sound threat KQvK` read "threat" as the material and blamed KQvK.
    if (o->sound == "every-reply" && (o->material == "threat" || o->material == "every-reply"))
      throw CommandError("--sound takes its value after '=' (--sound=" + o->material + "): '" + o->material +
                             "' was read as the material",
                         ErrorKind::InvalidArgument);
    if (const std::vector<std::string> extra = cmd->remaining(); !extra.empty())
      throw CommandError("the following argument was not expected: " + extra.front() + " (see feerie mine --help)",
                         ErrorKind::InvalidArgument);
    keep_output_whole_when_interrupted();  // first: the scan's threads inherit its signal mask
    run_mine(*o);
  });
}

}  // namespace feerie::cli

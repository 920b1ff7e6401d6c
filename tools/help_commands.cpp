#include "tools/help_commands.h"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <iostream>
#include <nlohmann/json.hpp>

#include "gen/help_generate.h"
#include "rules/fen.h"
#include "rules/movegen.h"
#include "rules/san.h"
#include "rules/text.h"
#include "tools/cli.h"
#include "tools/json_text.h"
#include "tools/whole_output.h"

namespace feerie::cli {

StipulationKind parse_stipulation(const std::string& text) { return take(parse_stipulation_kind(text)); }

// (Read from --mated and from the viewer's `mated` parameter.)
Color parse_mated(const std::optional<std::string>& text, StipulationKind kind) {
  return take(parse_mated_colour(text, kind));
}

namespace {

// "helpmate" or "selfmate".
const char* kind_word(StipulationKind kind) { return kind == StipulationKind::Selfmate ? "selfmate" : "helpmate"; }

const char* colour_name(Color c) { return c == WHITE ? "white" : "black"; }

// The problem a length states with `side` to move and `mated` mated ("h#2", "h#1.5", "s#3"),
// or "" where a selfmate states none (StipulationKind and HelpEntry::problem_name()).
std::string problem_of(StipulationKind kind, int plies) {
  return HelpEntry{value::mate_in_plies(plies), 1}.problem_name(kind);
}

// A problem's name in JSON: null where none is stated, in stat, mine and probe alike (stat
// wrote "", mine null, and probe left the field out).
nlohmann::ordered_json problem_json(const std::string& problem) {
  return problem.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(problem);
}

}  // namespace

void run_help_gen(StipulationKind kind, const std::vector<Material>& targets, const RuleSet& rules,
                  const std::string& tables, int threads, std::uint64_t max_memory,
                  const std::string& max_memory_source) {
  HelpGenerateOptions options;
  options.kind = kind;
  options.tables_dir = tables;
  options.threads = threads;
  options.max_memory = max_memory;
  options.max_memory_source = max_memory_source;
  options.on_notice = [](const std::string& message) { std::cerr << "feerie: " << message << "\n"; };
  options.on_table = [kind](const GeneratedHelpTable& t) {
    if (!t.replaced_because.empty())
      std::cout << t.material.name() << ": the tables on disk were not reused: " << t.replaced_because << "\n";
    if (t.reused) {
      std::cout << fmt::format("{}: reused {} and {}", t.material.name(), t.paths[WHITE], t.paths[BLACK]) << std::endl;
      return;
    }
    auto longest = [](int plies) { return plies < 0 ? std::string("none") : fmt::format("{} plies", plies); };
    std::cout << fmt::format(
                     "{}: generated {} and {} in {:.2f} s ({} entries per side; longest {}: white mated "
                     "{}, black mated {})",
                     t.material.name(), t.paths[WHITE], t.paths[BLACK], t.seconds, t.entries, kind_word(kind),
                     longest(t.longest_plies[WHITE]), longest(t.longest_plies[BLACK]))
              << std::endl;
  };
  take(generate_helpmates(targets, rules, options));
}

nlohmann::ordered_json help_probe_json(const HelpTablebase& tb, const Position& pos, Color mated, int solutions,
                                       bool with_moves) {
  const HelpEntry e = take(tb.entry(pos, mated));
  const StipulationKind kind = tb.kind();
  const bool self = kind == StipulationKind::Selfmate;
  // The problem's name where its length states one (HelpEntry::problem_name()), as stat
  // and mine name it: with the other colour mated than Popeye's (Black in a helpmate,
  // White in a selfmate), the problem with colours exchanged, as --popeye writes it.
  const std::string problem = e.problem_name(kind);
  nlohmann::ordered_json out;
  out["fen"] = to_fen(pos);
  out["stipulation"] = self ? "s#" : "h#";
  out["mated"] = colour_name(mated);
  out[kind_word(kind)] = value::is_mate(e.plies);
  if (value::is_mate(e.plies)) {
    out["plies"] = value::plies(e.plies);
    if (!self) {
      out["solutions"] = e.solutions;
      out["solutions_capped"] = e.solutions >= HelpSolutionsCap;
      if (solutions > 0) {
        const std::vector<std::vector<Move>> lines = take(helpmate_solutions(tb, pos, mated, solutions));
        std::vector<std::string> text;
        nlohmann::ordered_json uci = nlohmann::ordered_json::array();
        for (const std::vector<Move>& line : lines) {
          text.push_back(help_line_text(san_moves(pos, line, tb.rules()), pos.side_to_move(), mated));
          std::vector<std::string> names;
          for (Move m : line) names.push_back(to_uci(m));
          uci.push_back(names);
        }
        out["solution_lines"] = text;
        out["solution_lines_uci"] = uci;
      }
    }
    out["problem"] = problem_json(problem);
  }
  if (with_moves) {
    // Every legal move with the entry of the position it leads to, the same colour mated.
    nlohmann::ordered_json moves = nlohmann::ordered_json::array();
    for (const MoveResult& m : legal_moves_with_results(pos, tb.rules())) {
      const HelpEntry after = take(tb.entry(m.after, mated));
      nlohmann::ordered_json j;
      j["move"] = to_uci(m.move);
      j["san"] = to_san(pos, m.move, tb.rules());
      j["fen_after"] = to_fen(m.after);
      j[kind_word(kind)] = value::is_mate(after.plies);
      if (value::is_mate(after.plies)) {
        j["plies"] = value::plies(after.plies);
        if (!self) j["solutions"] = after.solutions;
      }
      moves.push_back(j);
    }
    out["moves"] = moves;
  }
  return out;
}

void probe_help(const HelpTablebase& tb, const std::string& fen, Color mated, bool json, PopeyeWriter* popeye,
                int solutions) {
  const Position pos = parse_position(fen, tb.rules());
  if (popeye) {
    popeye->write(take(popeye_help_problem(pos, tb.rules(), tb.kind(), mated, take(tb.entry(pos, mated)))));
    return;
  }
  const nlohmann::ordered_json j = help_probe_json(tb, pos, mated, solutions, false);
  if (json) {
    std::cout << json_text(j) << "\n";
    return;
  }
  const StipulationKind kind = tb.kind();
  const bool self = kind == StipulationKind::Selfmate;
  std::cout << to_fen(pos) << ": ";
  if (!j.contains("plies")) {
    std::cout << "no " << kind_word(kind) << " (" << j["mated"].get<std::string>() << " mated)\n";
    return;
  }
  const int plies = j["plies"];
  const std::string problem = j["problem"].is_null() ? "" : j["problem"].get<std::string>();
  if (plies == 0) {  // (its one solution is the empty sequence: no count, no line)
    std::cout << fmt::format("{} is mated now{}\n", j["mated"].get<std::string>(),
                             problem.empty() ? "" : " (" + problem + ")");
    return;
  }
  std::cout << fmt::format("{} mated in {} {}{}", j["mated"].get<std::string>(), plies, plies == 1 ? "ply" : "plies",
                           problem.empty() ? "" : " (" + problem + ")");
  if (self) {
    std::cout << ", forced\n";
    return;
  }
  const int count = j["solutions"];
  std::cout << ", " << solutions_text(count) << "\n";
  if (!j.contains("solution_lines")) return;
  for (const auto& line : j["solution_lines"]) std::cout << "  " << line.get<std::string>() << "\n";
  const int shown = int(j["solution_lines"].size());
  const bool capped = count >= HelpSolutionsCap;  // the table counts up to its cap
  if (shown > 0 && capped && shown < solutions)   // fewer lines than asked for: every solution
    std::cout << fmt::format("  ({} solutions in all)\n", shown);
  else if (shown > 0 && (shown < count || capped))
    std::cout << fmt::format("  ({} of {} shown)\n", shown, solution_count_text(count));
}

nlohmann::ordered_json help_stat_json(const HelpTablebase& tb, const Material& material, Color mated,
                                      const std::array<HelpSideSurvey, 2>& survey) {
  const StipulationKind kind = tb.kind();
  const bool self = kind == StipulationKind::Selfmate;
  nlohmann::ordered_json out;
  out["material"] = material.name();
  out["condition"] = tb.rules().name();
  out["stipulation"] = self ? "s#" : "h#";
  out["mated"] = colour_name(mated);
  for (Color side : {WHITE, BLACK}) {
    const HelpSideSurvey& s = survey[side];
    nlohmann::ordered_json j;
    j["positions"] = s.positions;
    j["with_mate"] = s.with_mate;
    if (!self) j["unique"] = s.unique;
    nlohmann::ordered_json lengths = nlohmann::ordered_json::array();
    for (int p = 0; p <= HelpMaxPlies; ++p) {
      const HelpLengthCount& c = s.by_plies[std::size_t(p)];
      if (!c.positions) continue;
      nlohmann::ordered_json l;
      l["plies"] = p;
      l["problem"] = problem_json(problem_of(kind, p));
      l["positions"] = c.positions;
      if (!self) l["unique"] = c.unique;
      lengths.push_back(l);
    }
    j["lengths"] = lengths;
    // Without a mate every longest_ key is null (longest_problem and longest_fen were left
    // out, where the direct-mate stat's longest_mate_ keys are null).
    const bool mate = s.longest_plies >= 0;
    j["longest_plies"] = mate ? nlohmann::ordered_json(s.longest_plies) : nullptr;
    j["longest_problem"] = mate ? problem_json(problem_of(kind, s.longest_plies)) : nullptr;
    j["longest_fen"] = mate ? nlohmann::ordered_json(s.longest_fen) : nullptr;
    if (!self) {
      j["longest_solutions"] = mate ? nlohmann::ordered_json(s.longest_solutions) : nullptr;
      j["longest_solutions_capped"] = mate ? nlohmann::ordered_json(s.longest_solutions >= HelpSolutionsCap) : nullptr;
    }
    out[side == WHITE ? "wtm" : "btm"] = j;
  }
  return out;
}

void stat_help(const HelpTablebase& tb, const Material& material, Color mated, bool json, int threads) {
  const std::array<HelpSideSurvey, 2> survey = take(survey_help_table(tb, material, mated, threads));
  const StipulationKind kind = tb.kind();
  const bool self = kind == StipulationKind::Selfmate;
  if (json) {
    std::cout << json_text(help_stat_json(tb, material, mated, survey)) << "\n";
    return;
  }
  std::cout << fmt::format("{} ({}), {}s, {} mated\n", material.name(), tb.rules().name(), kind_word(kind),
                           colour_name(mated));
  for (Color side : {WHITE, BLACK}) {
    const HelpSideSurvey& s = survey[side];
    std::cout << fmt::format("  {} to move: {} positions, {} with a {}", side == WHITE ? "White" : "Black", s.positions,
                             s.with_mate, kind_word(kind));
    if (!self) std::cout << fmt::format(" ({} with a unique solution)", s.unique);
    if (s.longest_plies >= 0) {
      std::cout << fmt::format("; longest {} plies", s.longest_plies);
      const std::string problem = problem_of(kind, s.longest_plies);
      if (!problem.empty()) std::cout << " (" << problem << ")";
      std::cout << ", e.g. " << s.longest_fen;
      if (!self) std::cout << " (" << solutions_text(s.longest_solutions) << ")";
    }
    std::cout << "\n";
    if (s.longest_plies < 0) continue;
    std::cout << (self ? "    plies  problem  positions\n" : "    plies  problem  positions  unique\n");
    for (int p = 0; p <= s.longest_plies; ++p) {
      const HelpLengthCount& c = s.by_plies[std::size_t(p)];
      if (!c.positions) continue;
      std::cout << fmt::format("    {:>5}  {:<7}  {:>9}", p, problem_of(kind, p), c.positions);
      if (!self) std::cout << fmt::format("  {:>6}", c.unique);
      std::cout << "\n";
    }
  }
}

void mine_help(const HelpTablebase& tb, const Material& material, HelpMineFilter filter, std::uint64_t limit,
               std::uint64_t seed, HelpMineOutput output) {
  const StipulationKind kind = tb.kind();
  filter.problem_only = filter.problem_only || output == HelpMineOutput::Popeye;
  PopeyeWriter popeye(std::cout);
  const OutputCloser closer([&popeye] { popeye.finish(); });
  const bool terminal = isatty(STDERR_FILENO);
  const auto start = std::chrono::steady_clock::now();
  const HelpMineReport report = take(mine_help_table(tb, material, filter, limit, seed, [&](const HelpMineMatch& m) {
    const std::lock_guard lock(output_lock());  // a match written whole, also when interrupted
    switch (output) {
      case HelpMineOutput::Count:
        return;
      case HelpMineOutput::Fen:
        std::cout << to_fen(m.position) << "\n";
        return;
      case HelpMineOutput::Popeye:
        popeye.write(take(popeye_help_problem(m.position, tb.rules(), kind, filter.mated, m.entry)));
        return;
      case HelpMineOutput::Json: {
        nlohmann::ordered_json j;
        j["fen"] = to_fen(m.position);
        j["condition"] = tb.rules().name();
        j["stipulation"] = kind == StipulationKind::Selfmate ? "s#" : "h#";
        j["mated"] = colour_name(filter.mated);
        j["plies"] = value::plies(m.entry.plies);
        j["problem"] = problem_json(m.entry.problem_name(kind));
        if (kind == StipulationKind::Helpmate) {
          j["solutions"] = m.entry.solutions;
          j["solutions_capped"] = m.entry.solutions >= HelpSolutionsCap;
        }
        std::cout << json_text(j) << "\n";
        return;
      }
    }
  }));
  popeye.finish();
  if (output == HelpMineOutput::Count) std::cout << report.matches << "\n";
  if (output == HelpMineOutput::Popeye && report.matches == 0)
    std::cerr << "feerie: no position matched: no problem written\n";
  if (terminal) {
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cerr << fmt::format("feerie: {} match{} in {} entries, {:.2f} s{}\n", report.matches,
                             report.matches == 1 ? "" : "es", report.entries, seconds,
                             limit && report.matches > limit ? fmt::format(" ({} sampled)", limit) : "");
  }
}

}  // namespace feerie::cli

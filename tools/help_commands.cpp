#include "tools/help_commands.h"

#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "gen/help_generate.h"
#include "rules/fen.h"
#include "tools/cli.h"
#include "tools/json_text.h"

namespace feerie::cli {

StipulationKind parse_stipulation(const std::string& text) {
  if (text == "#") return StipulationKind::DirectMate;
  if (text == "h#") return StipulationKind::Helpmate;
  if (text == "s#") return StipulationKind::Selfmate;
  throw CommandError("unknown stipulation '" + text + "' (known: # for direct mate, h# for helpmate, s# for selfmate)",
                     ErrorKind::InvalidArgument);
}

Color parse_mated(const std::string& text, StipulationKind kind) {
  if (text.empty()) return kind == StipulationKind::Selfmate ? WHITE : BLACK;
  if (text == "white") return WHITE;
  if (text == "black") return BLACK;
  throw CommandError("--mated takes white or black, not '" + text + "'", ErrorKind::InvalidArgument);
}

namespace {

// "helpmate" or "selfmate".
const char* kind_word(StipulationKind kind) { return kind == StipulationKind::Selfmate ? "selfmate" : "helpmate"; }

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
  options.on_table = [kind](const GeneratedHelpTable& t) {
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

void probe_help(const HelpTablebase& tb, const std::string& fen, Color mated, bool json) {
  const Position pos = parse_position(fen, tb.rules());
  const HelpEntry e = take(tb.entry(pos, mated));
  const StipulationKind kind = tb.kind();
  const bool self = kind == StipulationKind::Selfmate;
  const char* mated_name = mated == WHITE ? "white" : "black";
  // The problem's name where a problem states it: Black mated in a helpmate, White in a
  // selfmate (HelpEntry::problem_name()).
  const std::string problem = mated == (self ? WHITE : BLACK) ? e.problem_name(kind) : "";
  if (json) {
    nlohmann::ordered_json out;
    out["fen"] = to_fen(pos);
    out["stipulation"] = self ? "s#" : "h#";
    out["mated"] = mated_name;
    out[kind_word(kind)] = value::is_mate(e.plies);
    if (value::is_mate(e.plies)) {
      out["plies"] = value::plies(e.plies);
      if (!self) {
        out["solutions"] = e.solutions;
        out["solutions_capped"] = e.solutions >= HelpSolutionsCap;
      }
      if (!problem.empty()) out["problem"] = problem;
    }
    std::cout << json_text(out) << "\n";
    return;
  }
  std::cout << to_fen(pos) << ": ";
  if (!value::is_mate(e.plies)) {
    std::cout << "no " << kind_word(kind) << " (" << mated_name << " mated)\n";
    return;
  }
  const int plies = value::plies(e.plies);
  std::cout << fmt::format("{} mated in {} {}{}", mated_name, plies, plies == 1 ? "ply" : "plies",
                           problem.empty() ? "" : " (" + problem + ")");
  if (self) {
    std::cout << ", forced\n";
    return;
  }
  const std::string count =
      e.solutions >= HelpSolutionsCap ? fmt::format("{} or more", HelpSolutionsCap) : std::to_string(e.solutions);
  std::cout << fmt::format(", {} solution{}\n", count, e.solutions == 1 ? "" : "s");
}

}  // namespace feerie::cli

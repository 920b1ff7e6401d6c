#include "tools/help_commands.h"

#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "gen/help_generate.h"
#include "rules/fen.h"
#include "tools/cli.h"
#include "tools/json_text.h"

namespace feerie::cli {

Stipulation parse_stipulation(const std::string& text, Color mated) {
  if (text == "#") return Stipulation::direct_mate();
  if (text == "h#") return Stipulation::helpmate(mated);
  throw CommandError("unknown stipulation '" + text + "' (known: # for direct mate, h# for helpmate)",
                     ErrorKind::InvalidArgument);
}

Color parse_mated(const std::string& text) {
  if (text == "white") return WHITE;
  if (text == "black") return BLACK;
  throw CommandError("--mated takes white or black, not '" + text + "'", ErrorKind::InvalidArgument);
}

void run_help_gen(const std::vector<Material>& targets, const RuleSet& rules, const std::string& tables, int threads,
                  std::uint64_t max_memory, const std::string& max_memory_source) {
  HelpGenerateOptions options;
  options.tables_dir = tables;
  options.threads = threads;
  options.max_memory = max_memory;
  options.max_memory_source = max_memory_source;
  options.on_table = [](const GeneratedHelpTable& t) {
    if (t.reused) {
      std::cout << fmt::format("{}: reused {} and {}", t.material.name(), t.paths[WHITE], t.paths[BLACK]) << std::endl;
      return;
    }
    auto longest = [](int plies) { return plies < 0 ? std::string("none") : fmt::format("{} plies", plies); };
    std::cout << fmt::format(
                     "{}: generated {} and {} in {:.2f} s ({} entries per side; longest helpmate: white mated "
                     "{}, black mated {})",
                     t.material.name(), t.paths[WHITE], t.paths[BLACK], t.seconds, t.entries,
                     longest(t.longest_plies[WHITE]), longest(t.longest_plies[BLACK]))
              << std::endl;
  };
  take(generate_helpmates(targets, rules, options));
}

void probe_help(const HelpTablebase& tb, const std::string& fen, Color mated, bool json) {
  const Position pos = parse_position(fen, tb.rules());
  const HelpEntry e = take(tb.entry(pos, mated));
  const char* mated_name = mated == WHITE ? "white" : "black";
  if (json) {
    nlohmann::ordered_json out;
    out["fen"] = to_fen(pos);
    out["stipulation"] = "h#";
    out["mated"] = mated_name;
    out["helpmate"] = value::is_mate(e.plies);
    if (value::is_mate(e.plies)) {
      out["plies"] = value::plies(e.plies);
      out["solutions"] = e.solutions;
      out["solutions_capped"] = e.solutions >= HelpSolutionsCap;
      if (mated == BLACK) out["problem"] = e.problem_name();
    }
    std::cout << json_text(out) << "\n";
    return;
  }
  std::cout << to_fen(pos) << ": ";
  if (!value::is_mate(e.plies)) {
    std::cout << "no helpmate (" << mated_name << " mated)\n";
    return;
  }
  const int plies = value::plies(e.plies);
  const std::string count =
      e.solutions >= HelpSolutionsCap ? fmt::format("{} or more", HelpSolutionsCap) : std::to_string(e.solutions);
  std::cout << fmt::format("{} mated in {} {}{}, {} solution{}\n", mated_name, plies, plies == 1 ? "ply" : "plies",
                           mated == BLACK ? " (" + e.problem_name() + ")" : "", count, e.solutions == 1 ? "" : "s");
}

}  // namespace feerie::cli

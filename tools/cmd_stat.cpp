// `feerie stat`: the statistics a table's header holds; with --stipulation h# or s#, the
// lengths of a helpmate or selfmate table counted over its entries (docs/cli.md).
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <optional>

#include "gen/generate.h"
#include "probe/header_check.h"
#include "probe/table_file.h"
#include "probe/tablebase.h"
#include "tools/cli.h"
#include "tools/help_commands.h"
#include "tools/table_command.h"

namespace feerie::cli {

void add_stat_command(CLI::App& app) {
  auto opt = std::make_shared<TableOptions>();
  CLI::App* cmd = app.add_subcommand("stat", "Statistics of a table");
  add_table_options(cmd, *opt);
  cmd->add_flag("--json", opt->json, "JSON output");
  cmd->add_option("material", opt->args, "Material signature")->required()->expected(1);
  auto stipulation = std::make_shared<std::string>("#");
  auto mated = std::make_shared<std::optional<std::string>>();
  cmd->add_option("--stipulation", *stipulation,
                  "# (direct mate, the default), h# (helpmate) or s# (selfmate): the lengths per side to move, "
                  "and for helpmates the positions with a unique solution");
  cmd->add_option("--mated", *mated,
                  "With --stipulation h# or s#: the colour mated, white or black (default: black for h#, white for "
                  "s#)")
      ->check(refuse_empty_value);
  cmd->add_option("--threads", opt->threads, "With --stipulation h# or s#: threads (default: all cores)")
      ->check(whole_number_in(0, MaxThreads));
  cmd->callback([opt, stipulation, mated] {
    RuleSet rules = parse_condition(opt->condition);
    Material material = take(Material::parse(opt->args.at(0)));
    if (const StipulationKind kind = parse_stipulation(*stipulation); kind != StipulationKind::DirectMate) {
      stat_help(HelpTablebase(rules, opt->tables, kind), material, parse_mated(*mated, kind), opt->json, opt->threads);
      return;
    }
    if (*mated) throw CommandError("--mated is for --stipulation h# and s#", ErrorKind::InvalidArgument);
    Tablebase tb = Tablebase::open(opt->tables, rules);
    // Either orientation is accepted (docs/notation.md): the statistics are those of the
    // table as stored, which the first line names (KvKQ prints KQvK's).
    material = material.canonical_orientation();
    std::string path = tb.table_path(material);
    std::unique_ptr<TableFile> file = take(open_table(path, material, rules));
    const TableHeader& h = file->header();
    if (opt->json) {
      std::cout << stat_json(h) << "\n";
      return;
    }
    std::cout << h.material << " (" << h.condition << ")\n";
    for (int side = 0; side < 2; ++side) {
      const SideStatistics& s = h.stats[side];
      std::cout << fmt::format("  {} to move: {} positions: {} win, {} draw, {} loss", side == 0 ? "White" : "Black",
                               s.positions, s.win, s.draw, s.loss);
      if (s.longest_mate_plies >= 0)
        std::cout << fmt::format("; longest mate {} move{} ({} pl{}), e.g. {}", (s.longest_mate_plies + 1) / 2,
                                 s.longest_mate_plies <= 2 ? "" : "s", s.longest_mate_plies,
                                 s.longest_mate_plies == 1 ? "y" : "ies", s.longest_mate_fen);
      std::cout << "\n";
    }
  });
}

}  // namespace feerie::cli

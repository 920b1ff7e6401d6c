// `feerie diagram`: a position as an SVG board (tools/diagram.h), on stdout or in a file.
#include <fstream>
#include <iostream>
#include <memory>

#include "rules/fen.h"
#include "tools/cli.h"
#include "tools/diagram.h"

namespace feerie::cli {

void add_diagram_command(CLI::App& app) {
  struct Options {
    std::string condition;
    std::string output;
    int size = 360;
    std::vector<std::string> fen;
  };
  auto opt = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("diagram", "Draw a position as an SVG board");
  cmd->add_option("--condition", opt->condition,
                  "Check the position is legal under this condition and name it under the board (default: no "
                  "condition, only the FEN's structure is checked)");
  cmd->add_option("-o,--output", opt->output, "Write the SVG to this file (default: stdout)");
  cmd->add_option("--size", opt->size, "Width and height in pixels (default 360)")->check(CLI::Range(16, 10000));
  cmd->add_option("fen", opt->fen, "Position in FEN (one argument, or its fields)")->required();
  cmd->callback([opt] {
    diagram::DiagramOptions d;
    d.size = opt->size;
    Position pos;
    if (opt->condition.empty()) {
      pos = take(parse_fen(join_fen_fields(opt->fen)));
    } else {
      RuleSet rules = parse_condition(opt->condition);
      pos = parse_position(opt->fen, rules);
      d.condition = rules.name();
    }
    std::string svg = diagram::diagram_svg(pos, d);
    if (opt->output.empty()) {
      std::cout << svg;
      return;
    }
    std::ofstream out(opt->output, std::ios::binary | std::ios::trunc);
    out << svg;
    out.close();
    if (!out) throw CommandError("cannot write '" + opt->output + "'", ErrorKind::IOError);
  });
}

}  // namespace feerie::cli

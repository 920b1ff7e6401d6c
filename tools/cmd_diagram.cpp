// `feerie diagram`: a position as an SVG board (study/diagram.h), on stdout or in a file.
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>

#include "rules/fen.h"
#include "rules/text.h"
#include "study/diagram.h"
#include "tools/cli.h"

namespace feerie::cli {

void add_diagram_command(CLI::App& app) {
  struct Options {
    std::string condition;
    std::string output, stipulation;
    int size = 360;
    std::vector<std::string> fen;
  };
  auto opt = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("diagram", "Draw a position as an SVG board");
  cmd->add_option("--condition", opt->condition,
                  "Check the position is legal under this condition and name it under the board (default: no "
                  "condition, only the FEN's structure is checked)")
      ->check(refuse_empty_value);
  cmd->add_option("-o,--output", opt->output, "Write the SVG to this file (default: stdout)")
      ->check([](const std::string& s) { return s.empty() ? std::string("an empty file name") : std::string(); });
  cmd->add_option("--stipulation", opt->stipulation, "A stipulation to print under the board (#3, h#2, s#4)")
      ->check([](const std::string& s) {
        return s.size() <= 16 && std::all_of(s.begin(), s.end(), [](unsigned char c) { return c > ' ' && c < 127; })
                   ? std::string()
                   : "a stipulation is at most 16 printable ASCII characters without spaces, not '" + printable(s) +
                         "'";
      });
  cmd->add_option("--size", opt->size, "Width and height in pixels (default 360)")
      ->check(whole_number_in(diagram::MinSize, diagram::MaxSize));
  cmd->add_option("fen", opt->fen, "Position in FEN (one argument, or its fields)")->required();
  cmd->callback([opt] {
    diagram::DiagramOptions d;
    d.size = opt->size;
    d.stipulation = opt->stipulation;
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
    errno = 0;
    std::ofstream out(opt->output, std::ios::binary | std::ios::trunc);
    out << svg;
    out.close();
    if (!out)
      throw CommandError(
          "cannot write '" + opt->output + "'" + (errno ? std::string(" (") + std::strerror(errno) + ")" : ""),
          ErrorKind::IOError);
  });
}

}  // namespace feerie::cli

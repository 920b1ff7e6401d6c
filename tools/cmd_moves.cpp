// `feerie moves`, `feerie perft` and `feerie play`: the rules engine seen from the command line.
#include <algorithm>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "probe/tablebase.h"
#include "rules/fen.h"
#include "rules/movegen.h"
#include "rules/san.h"
#include "tools/cli.h"
#include "tools/json_text.h"

namespace feerie::cli {

namespace {

std::vector<std::string> sorted_move_names(const Position& pos, const RuleSet& rules) {
  MoveList moves;
  generate_legal(pos, rules, moves);
  std::vector<std::string> names;
  for (Move m : moves) names.push_back(to_uci(m));
  std::sort(names.begin(), names.end());
  return names;
}

// Each legal move with the FEN of the position after it (captures, promotions and
// mutations applied), sorted by move name.
struct MoveAfter {
  std::string uci, san, fen;
  bool operator<(const MoveAfter& o) const { return uci < o.uci; }
};
std::vector<MoveAfter> moves_with_fens(const Position& pos, const RuleSet& rules) {
  std::vector<MoveAfter> out;
  for (const MoveResult& r : legal_moves_with_results(pos, rules))
    out.push_back({to_uci(r.move), to_san(pos, r.move, rules), to_fen(r.after)});
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

void add_moves_command(CLI::App& app) {
  struct Options {
    std::string condition = "orthodox";
    bool json = false;
    bool after = false;
    std::vector<std::string> fen;
  };
  auto opt = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("moves", "List the legal moves of a position");
  cmd->add_option("--condition", opt->condition, "Condition (default: orthodox)");
  cmd->add_flag("--json", opt->json, "Print a JSON array of moves in long algebraic notation");
  cmd->add_flag("--after", opt->after,
                "Give each move with the FEN of the position after it (captures, promotions, mutations applied)");
  cmd->add_option("fen", opt->fen, "Position in FEN (one argument, or its fields)")->required();
  cmd->callback([opt] {
    RuleSet rules = parse_condition(opt->condition);
    Position pos = parse_position(opt->fen, rules);
    if (opt->after) {
      std::vector<MoveAfter> moves = moves_with_fens(pos, rules);
      if (opt->json) {
        nlohmann::ordered_json out = nlohmann::ordered_json::array();
        for (const MoveAfter& m : moves) out.push_back({{"move", m.uci}, {"fen", m.fen}, {"san", m.san}});
        std::cout << json_text(out) << "\n";
        return;
      }
      for (const MoveAfter& m : moves) std::cout << m.uci << ' ' << m.fen << "\n";
      return;
    }
    std::vector<std::string> names = sorted_move_names(pos, rules);
    if (opt->json) {
      std::cout << json_text(nlohmann::json(names)) << "\n";
      return;
    }
    std::cout << names.size() << " legal move" << (names.size() == 1 ? "" : "s") << (names.empty() ? "" : ":");
    for (const std::string& n : names) std::cout << ' ' << n;
    std::cout << "\n";
  });
}

void add_perft_command(CLI::App& app) {
  struct Options {
    std::string condition = "orthodox";
    int depth = 0;
    bool divide = false;
    std::vector<std::string> fen;
  };
  auto opt = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("perft", "Count the leaves of the legal move tree");
  cmd->add_option("--condition", opt->condition, "Condition (default: orthodox)");
  cmd->add_option("--depth", opt->depth, "Depth in plies")->required()->check(whole_number_in(0, 12));
  cmd->add_flag("--divide", opt->divide, "Also print the count below each first move");
  cmd->add_option("fen", opt->fen, "Position in FEN (one argument, or its fields)")->required();
  cmd->callback([opt] {
    RuleSet rules = parse_condition(opt->condition);
    Position pos = parse_position(opt->fen, rules);
    if (opt->divide && opt->depth > 0) {
      MoveList moves;
      generate_legal(pos, rules, moves);
      for (Move m : moves) {
        Position next = pos;
        UndoRecord undo;
        make_move(next, m, undo, rules);
        std::cout << to_uci(m) << ": " << perft(next, rules, opt->depth - 1) << "\n";
      }
    }
    std::cout << perft(pos, rules, opt->depth) << "\n";
  });
}

void add_play_command(CLI::App& app) {
  struct Options {
    std::string condition = "orthodox";
    std::string tables;  // with tables: the value of each position reached
    bool figurine = false;
    std::vector<std::string> args;
  };
  auto opt = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("play", "Play moves from a position and print the position after each");
  cmd->add_option("--condition", opt->condition, "Condition (default: orthodox)");
  cmd->add_flag("--figurine", opt->figurine, "Print the moves with figurines for the pieces (\u2658f3)");
  cmd->add_option("--tables", opt->tables, "Also give the value of each position reached, from this tables directory");
  cmd->add_option("args", opt->args,
                  "A position in FEN (quoted, or its fields), then moves in SAN (Nf3, exd5, e8=Q) or long algebraic "
                  "notation (g1f3)")
      ->required();
  cmd->callback([opt] {
    RuleSet rules = parse_condition(opt->condition);
    // The FEN is one argument, or its 4 or 6 fields; the moves follow.
    std::size_t fields = 1;
    if (opt->args[0].find(' ') == std::string::npos) {
      fields = std::min<std::size_t>(4, opt->args.size());
      while (fields < opt->args.size() && fields < 6 &&
             opt->args[fields].find_first_not_of("0123456789") == std::string::npos)
        ++fields;
    }
    Position pos = parse_position(std::vector<std::string>(opt->args.begin(), opt->args.begin() + long(fields)), rules);
    std::optional<Tablebase> tb;
    if (!opt->tables.empty()) {
      tb = Tablebase::open(opt->tables, rules);
      const std::string value = verdict_text(take(tb->probe(pos)));  // before any output: it may fail
      std::cout << "start " << to_fen(pos) << " (" << value << ")\n";
    } else if (fields == opt->args.size()) {
      // No move to play: the position itself, as read (it once printed nothing).
      MoveList moves;
      generate_legal(pos, rules, moves);
      std::cout << "start " << to_fen(pos)
                << (!moves.empty()         ? ""
                    : in_check(pos, rules) ? " (checkmate)"
                                           : " (stalemate)")
                << "\n";
    }
    for (std::size_t i = fields; i < opt->args.size(); ++i) {
      Expected<Move> m = parse_san(pos, opt->args[i], rules);
      if (!m) throw CommandError("in '" + to_fen(pos) + "': " + m.error_message(), m.error_kind());
      const std::string san = opt->figurine ? to_figurine(to_san(pos, *m, rules)) : to_san(pos, *m, rules);
      pos = position_after(pos, *m, rules);
      std::string line = san + ' ' + to_fen(pos);
      MoveList replies;
      generate_legal(pos, rules, replies);
      if (replies.empty())
        line += in_check(pos, rules) ? " (checkmate)" : " (stalemate)";
      else if (tb)
        line += " (" + verdict_text(take(tb->probe(pos))) + ")";
      std::cout << line << "\n";
    }
  });
}

}  // namespace feerie::cli

// The JSON objects and names the commands and the viewer print (`probe --json`, `stat
// --json`, `serve`'s API): one definition each, shared (tools/cli.h).
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "probe/table_file.h"
#include "probe/tablebase.h"
#include "rules/fen.h"
#include "rules/san.h"
#include "study/solution_tree.h"
#include "tools/cli.h"
#include "tools/json_text.h"

namespace feerie::cli {

namespace {

std::string wdl_name(Wdl w) { return w == Wdl::Win ? "win" : w == Wdl::Loss ? "loss" : "draw"; }

}  // namespace

std::vector<std::string> move_names(const std::vector<Move>& moves) {
  std::vector<std::string> names;
  for (Move m : moves) names.push_back(to_uci(m));
  return names;
}

std::string verdict_text(const ProbeResult& r) {
  if (r.wdl == Wdl::Draw) return "draw";
  if (r.dtm_plies == 0) return "the side to move is mated";
  if (r.wdl == Wdl::Win)
    return fmt::format("the side to move mates in {} ({} {})", r.mate_in(), r.dtm_plies,
                       r.dtm_plies == 1 ? "ply" : "plies");
  return fmt::format("the side to move is mated in {} ({} plies)", -r.mate_in(), r.dtm_plies);
}

void add_result_json(nlohmann::ordered_json& j, const ProbeResult& r) {
  j["wdl"] = wdl_name(r.wdl);
  j["dtm_plies"] = r.wdl == Wdl::Draw ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.dtm_plies);
  j["mate_in"] = r.mate_in();
}

// The object `probe --json` prints for `pos` (and `serve`'s API returns): the value, the
// best moves, with `with_pv` the principal variation, with `with_moves` every legal move with its
// value for the mover (best first) and, with `with_pv`, its variation.
namespace {

// A solution tree node and what follows it, as JSON.
nlohmann::ordered_json tree_json(const SolutionNode& n) {
  nlohmann::ordered_json j;
  j["move"] = to_uci(n.move);
  j["san"] = n.san;
  j["checkmate"] = n.checkmate;
  j["next"] = nlohmann::ordered_json::array();
  for (const SolutionNode& c : n.children) j["next"].push_back(tree_json(c));
  if (n.omitted) j["omitted"] = n.omitted;
  if (n.cut) j["cut"] = true;
  return j;
}

}  // namespace

std::string probe_json(const Tablebase& tb, const Position& pos, bool with_moves, bool with_pv, int tree_width) {
  ProbeResult r = take(tb.probe(pos));
  std::vector<Move> best = take(tb.best_moves(pos));
  std::vector<Move> pv = with_pv ? take(tb.principal_variation(pos)) : std::vector<Move>{};
  std::vector<MoveValue> values = with_moves ? take(tb.move_values(pos)) : std::vector<MoveValue>{};
  nlohmann::ordered_json j;
  j["fen"] = to_fen(pos);
  j["condition"] = tb.rules().name();
  add_result_json(j, r);
  // The game over in the position itself, as each move's object says it of the position
  // after the move (a stalemate read as a bare draw). Every legal move is best or not
  // when there is none.
  j["checkmate"] = best.empty() && r.wdl == Wdl::Loss;
  j["stalemate"] = best.empty() && r.wdl == Wdl::Draw;
  j["best_moves"] = move_names(best);
  std::vector<std::string> best_san;
  for (Move m : best) best_san.push_back(to_san(pos, m, tb.rules()));
  j["best_moves_san"] = best_san;
  if (with_pv) {
    j["pv"] = move_names(pv);
    j["pv_san"] = san_moves(pos, pv, tb.rules());
  }
  if (with_moves) {
    j["moves"] = nlohmann::ordered_json::array();
    for (const MoveValue& mv : values) {
      nlohmann::ordered_json m;
      m["move"] = to_uci(mv.move);
      m["san"] = to_san(pos, mv.move, tb.rules());
      m["fen_after"] = to_fen(mv.after);
      add_result_json(m, ProbeResult::of(mv.value));  // for the mover
      m["checkmate"] = mv.checkmate;
      m["stalemate"] = mv.stalemate;
      if (with_pv) {
        const std::vector<Move> line = take(tb.principal_variation(mv.after));
        m["pv"] = move_names(line);
        m["pv_san"] = san_moves(mv.after, line, tb.rules());
      }
      j["moves"].push_back(m);
    }
  }
  if (tree_width >= 0 && r.wdl != Wdl::Draw && r.dtm_plies > 0) {
    const SolutionNode root = take(solution_tree(tb, pos, tree_width, TreeNodeBudget));
    j["tree"] = nlohmann::ordered_json::array();
    for (const SolutionNode& c : root.children) j["tree"].push_back(tree_json(c));
    if (root.omitted) j["tree_omitted"] = root.omitted;
    // Each try with its refutation as its only "next".
    j["tries"] = nlohmann::ordered_json::array();
    for (const SolutionNode& t : root.tries) j["tries"].push_back(tree_json(t));
    j["tree_text"] = solution_text(pos, root);
  }
  return json_text(j);
}

namespace {

nlohmann::json side_json(const SideStatistics& s) {
  nlohmann::json j;
  j["positions"] = s.positions;
  j["win"] = s.win;
  j["draw"] = s.draw;
  j["loss"] = s.loss;
  j["classes"] = {
      {"win", s.classes_win},
      {"draw", s.classes_draw},
      {"loss", s.classes_loss},
      {"longest_mate_moves", s.classes_longest_mate_plies < 0 ? nlohmann::json(nullptr)
                                                              : nlohmann::json((s.classes_longest_mate_plies + 1) / 2)},
      {"longest_mate_fen",
       s.classes_longest_mate_plies < 0 ? nlohmann::json(nullptr) : nlohmann::json(s.classes_longest_mate_fen)}};
  // Without a mate, null as the plies and the example are (it was 0).
  j["longest_mate_moves"] =
      s.longest_mate_plies < 0 ? nlohmann::json(nullptr) : nlohmann::json((s.longest_mate_plies + 1) / 2);
  j["longest_mate_plies"] = s.longest_mate_plies < 0 ? nlohmann::json(nullptr) : nlohmann::json(s.longest_mate_plies);
  j["longest_mate_fen"] = s.longest_mate_plies < 0 ? nlohmann::json(nullptr) : nlohmann::json(s.longest_mate_fen);
  return j;
}

}  // namespace

std::string stat_json(const TableHeader& header) {
  nlohmann::json j;
  j["material"] = header.material;
  j["condition"] = header.condition;
  j["wtm"] = side_json(header.stats[WHITE]);
  j["btm"] = side_json(header.stats[BLACK]);
  return json_text(j, 2);
}

}  // namespace feerie::cli

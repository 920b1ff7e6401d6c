#include "tools/serve_api.h"

#include <nlohmann/json.hpp>

#include "probe/header_check.h"
#include "probe/material.h"
#include "probe/table_file.h"
#include "rules/text.h"
#include "study/diagram.h"
#include "tools/cli.h"
#include "tools/help_commands.h"
#include "tools/json_text.h"

namespace feerie::cli {

int http_status(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::InvalidArgument:
      return 400;
    case ErrorKind::NotFound:
      return 404;
    case ErrorKind::NotSupported:
      return 422;
    default:
      return 500;
  }
}

std::string api_error_json(const std::string& message, ErrorKind kind) {
  return json_text(nlohmann::ordered_json{{"error", message}, {"error_kind", kind_name(kind)}}) + "\n";
}

Tablebase ServeApi::tablebase(const std::string& condition) {
  RuleSet rules = parse_condition(condition);
  std::lock_guard lock(mutex_);
  auto it = opened_.find(rules.name());
  if (it == opened_.end()) it = opened_.emplace(rules.name(), Tablebase::open(tables_dir_, rules)).first;
  return it->second;
}

const HelpTablebase& ServeApi::help_tablebase(const std::string& condition, const std::string& stipulation) {
  RuleSet rules = parse_condition(condition);
  const StipulationKind kind = parse_stipulation(stipulation);
  if (kind == StipulationKind::DirectMate)
    throw CommandError("/api/help answers h# and s#; direct mates are /api/probe", ErrorKind::InvalidArgument);
  const std::string key = rules.name() + " " + stipulation;
  std::lock_guard lock(mutex_);
  std::unique_ptr<HelpTablebase>& slot = help_opened_[key];
  if (!slot) slot = std::make_unique<HelpTablebase>(std::move(rules), tables_dir_, kind);
  return *slot;
}

namespace {

// A parameter's value; an empty one counts as missing (the page sends empty fields).
std::string parameter(const std::multimap<std::string, std::string>& params, const std::string& name,
                      const std::string& fallback = "") {
  auto it = params.find(name);
  if (it != params.end() && !it->second.empty()) return it->second;
  if (!fallback.empty()) return fallback;
  throw CommandError("missing parameter '" + name + "'", ErrorKind::InvalidArgument);
}

}  // namespace

ApiReply ServeApi::answer(const std::string& path, const std::multimap<std::string, std::string>& params) {
  ApiReply reply;
  try {
    const std::string default_condition = default_rules_.name();
    if (path == "/api/probe" || path == "/api/moves") {
      Tablebase tb = tablebase(parameter(params, "condition", default_condition));
      Position pos = parse_position(parameter(params, "fen"), tb.rules());
      // `tree=N`: the solution tree, at most N replies after each move (the page asks for 3).
      int tree_width = -1;
      if (params.count("tree")) {
        const std::string w = parameter(params, "tree");
        if (w.size() > 3 || w.find_first_not_of("0123456789") != std::string::npos || std::stoi(w) < 1)
          throw CommandError("bad tree width '" + printable(w) + "' (expected 1 to 999)", ErrorKind::InvalidArgument);
        tree_width = std::stoi(w);
      }
      reply.body = probe_json(tb, pos, path == "/api/moves", true, tree_width) + "\n";
    } else if (path == "/api/stat") {
      // The statistics of a material (`material=KQvKR`, either orientation, or the
      // material of `fen=`), as `feerie stat --json` prints them.
      Tablebase tb = tablebase(parameter(params, "condition", default_condition));
      Material material = params.count("material") ? take(Material::parse(parameter(params, "material")))
                                                   : Material::of(parse_position(parameter(params, "fen"), tb.rules()));
      material = material.canonical_orientation();
      std::unique_ptr<TableFile> file = take(open_table(tb.table_path(material), material, tb.rules()));
      reply.body = stat_json(file->header()) + "\n";
    } else if (path == "/api/help") {
      // One position's helpmate or selfmate (`stipulation=h#|s#`, `mated=white|black`), as
      // `probe --stipulation h# --json` prints it, with every move and, for h#, `solutions=N`
      // solution lines (the page asks for 5).
      const std::string stipulation = parameter(params, "stipulation", "h#");
      const HelpTablebase& tb = help_tablebase(parameter(params, "condition", default_condition), stipulation);
      const Position pos = parse_position(parameter(params, "fen"), tb.rules());
      int solutions = 0;
      if (params.count("solutions")) {
        const std::string n = parameter(params, "solutions");
        if (n.size() > 3 || n.find_first_not_of("0123456789") != std::string::npos || std::stoi(n) < 1)
          throw CommandError("bad solutions '" + printable(n) + "' (expected 1 to 999)", ErrorKind::InvalidArgument);
        if (tb.kind() == StipulationKind::Helpmate) solutions = std::stoi(n);
      }
      const Color mated = parse_mated(params.count("mated") ? parameter(params, "mated") : "", tb.kind());
      reply.body = json_text(help_probe_json(tb, pos, mated, solutions, true)) + "\n";
    } else if (path == "/api/help-stat") {
      // The lengths of a material's helpmate or selfmate table (`stat --stipulation h#
      // --json`), by `material=` in either orientation (the other one with the other colour
      // mated) or by `fen=`.
      const std::string stipulation = parameter(params, "stipulation", "h#");
      const HelpTablebase& tb = help_tablebase(parameter(params, "condition", default_condition), stipulation);
      Material material = params.count("material") ? take(Material::parse(parameter(params, "material")))
                                                   : Material::of(parse_position(parameter(params, "fen"), tb.rules()));
      Color mated = parse_mated(params.count("mated") ? parameter(params, "mated") : "", tb.kind());
      if (!material.is_canonical_orientation()) material = material.colors_swapped(), mated = ~mated;
      reply.body =
          json_text(help_stat_json(tb, material, mated, take(survey_help_table(tb, material, mated, 1)))) + "\n";
    } else if (path == "/api/diagram") {
      RuleSet rules = parse_condition(parameter(params, "condition", default_condition));
      diagram::DiagramOptions d;
      d.condition = rules.name();
      std::string size = parameter(params, "size", "360");
      if (size.size() > 5 || size.find_first_not_of("0123456789") != std::string::npos || std::stoi(size) < 16)
        throw CommandError("bad size '" + printable(size) + "' (expected 16 to 10000)", ErrorKind::InvalidArgument);
      d.size = std::min(std::stoi(size), 10000);
      reply.body = diagram::diagram_svg(parse_position(parameter(params, "fen"), rules), d);
      reply.content_type = "image/svg+xml";
    } else {
      throw CommandError("no such API path '" + printable(path) + "'", ErrorKind::NotFound);
    }
  } catch (const CommandError& e) {
    reply = {http_status(e.kind), api_error_json(e.what(), e.kind)};
  } catch (const std::exception& e) {
    reply = {http_status(ErrorKind::Internal), api_error_json(e.what(), ErrorKind::Internal)};
  }
  return reply;
}

}  // namespace feerie::cli

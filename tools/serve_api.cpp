#include "tools/serve_api.h"

#include <algorithm>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

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

const HelpTablebase& ServeApi::help_tablebase(const std::string& path, const std::string& condition,
                                              const std::string& stipulation) {
  RuleSet rules = parse_condition(condition);
  const StipulationKind kind = parse_stipulation(stipulation);
  if (kind == StipulationKind::DirectMate)
    throw CommandError(
        path + " answers h# and s#; direct mates are " + (path == "/api/help-stat" ? "/api/stat" : "/api/probe"),
        ErrorKind::InvalidArgument);
  const std::string key = rules.name() + " " + stipulation;
  std::lock_guard lock(mutex_);
  std::unique_ptr<HelpTablebase>& slot = help_opened_[key];
  if (!slot) slot = std::make_unique<HelpTablebase>(std::move(rules), tables_dir_, kind);
  return *slot;
}

namespace {

// A parameter's value. An empty one counts as not given (the page sends empty fields):
// the fallback then, or an error when the parameter has none.
std::string parameter(const std::multimap<std::string, std::string>& params, const std::string& name,
                      const std::string& fallback = "") {
  auto it = params.find(name);
  if (it != params.end() && !it->second.empty()) return it->second;
  if (!fallback.empty()) return fallback;
  throw CommandError("missing parameter '" + name + "'", ErrorKind::InvalidArgument);
}

bool given(const std::multimap<std::string, std::string>& params, const std::string& name) {
  auto it = params.find(name);
  return it != params.end() && !it->second.empty();
}

// A parameter's value, or none when it is not given (or empty).
std::optional<std::string> optional_parameter(const std::multimap<std::string, std::string>& params,
                                              const std::string& name) {
  return given(params, name) ? std::optional<std::string>(parameter(params, name)) : std::nullopt;
}

// A whole-number parameter from `low` to `high`, the bounds of the command line's option of
// the same meaning; `fallback` when not given.
int number_parameter(const std::multimap<std::string, std::string>& params, const std::string& name, int low, int high,
                     int fallback) {
  if (!given(params, name)) return fallback;
  const std::string text = parameter(params, name);
  const bool digits = text.size() <= 9 && text.find_first_not_of("0123456789") == std::string::npos;
  if (!digits || std::stoi(text) < low || std::stoi(text) > high)
    throw CommandError("bad " + name + " '" + printable_excerpt(text, 40) + "' (expected " + std::to_string(low) +
                           " to " + std::to_string(high) + ")",
                       ErrorKind::InvalidArgument);
  return std::stoi(text);
}

// A condition as typed in an address: a '+' there reads as a space, and no condition name
// holds a space, so "madrasi-ri annan" is "madrasi-ri+annan".
std::string condition_parameter(const std::multimap<std::string, std::string>& params, const std::string& fallback) {
  std::string condition = parameter(params, "condition", fallback);
  std::replace(condition.begin(), condition.end(), ' ', '+');
  return condition;
}

// The material a statistics request names: `material=` (either orientation) or the
// material of `fen=`, not both.
Material material_parameter(const std::multimap<std::string, std::string>& params, const RuleSet& rules) {
  if (given(params, "material") && given(params, "fen"))
    throw CommandError("give material or fen, not both", ErrorKind::InvalidArgument);
  if (given(params, "material")) return take(Material::parse(parameter(params, "material")));
  if (!given(params, "fen")) throw CommandError("missing parameter 'material' or 'fen'", ErrorKind::InvalidArgument);
  return Material::of(parse_position(parameter(params, "fen"), rules));
}

// Refuses a parameter the answer to `path` does not read (`read`, listed by each path
// beside the code that reads them): it was answered as if it were not there
// (`/api/probe?...&stipulation=h%23` gave the direct mate).
void refuse_parameters_not_read(const std::string& path, const std::multimap<std::string, std::string>& params,
                                std::initializer_list<std::string_view> read) {
  for (const auto& [name, value] : params)
    if (std::find(read.begin(), read.end(), name) == read.end()) {
      std::string list;
      for (std::string_view n : read) list += (list.empty() ? "" : ", ") + std::string(n);
      throw CommandError("unknown parameter '" + printable_excerpt(name, 40) + "' (" + path + " takes " + list + ")",
                         ErrorKind::InvalidArgument);
    }
}

}  // namespace

ApiReply ServeApi::answer(const std::string& path, const std::multimap<std::string, std::string>& params) {
  ApiReply reply;
  try {
    // Which of two values was meant is not guessed (the first one was taken).
    for (auto it = params.begin(); it != params.end(); it = params.upper_bound(it->first))
      if (params.count(it->first) > 1)
        throw CommandError("parameter '" + printable_excerpt(it->first, 40) + "' is given more than once",
                           ErrorKind::InvalidArgument);
    const std::string default_condition = default_rules_.name();
    if (path == "/api/probe" || path == "/api/moves") {
      refuse_parameters_not_read(path, params, {"fen", "condition", "tree"});
      Tablebase tb = tablebase(condition_parameter(params, default_condition));
      Position pos = parse_position(parameter(params, "fen"), tb.rules());
      // `tree=N`: the solution tree, at most N replies after each move (the page asks for 3).
      // (probe --width's bounds.)
      const int tree_width = number_parameter(params, "tree", 1, MaxTreeWidth, -1);
      reply.body = probe_json(tb, pos, path == "/api/moves", true, tree_width) + "\n";
    } else if (path == "/api/stat") {
      refuse_parameters_not_read(path, params, {"material", "fen", "condition"});
      // The statistics of a material (`material=KQvKR`, either orientation, or the
      // material of `fen=`), as `feerie stat --json` prints them.
      Tablebase tb = tablebase(condition_parameter(params, default_condition));
      const Material material = material_parameter(params, tb.rules()).canonical_orientation();
      std::unique_ptr<TableFile> file = take(open_table(tb.table_path(material), material, tb.rules()));
      reply.body = stat_json(file->header()) + "\n";
    } else if (path == "/api/help") {
      refuse_parameters_not_read(path, params, {"fen", "condition", "stipulation", "mated", "solutions"});
      // One position's helpmate or selfmate (`stipulation=h#|s#`, `mated=white|black`), as
      // `probe --stipulation h# --json` prints it, with every move and, for h#, `solutions=N`
      // solution lines (the page asks for 5).
      const std::string stipulation = parameter(params, "stipulation", "h#");
      const HelpTablebase& tb = help_tablebase(path, condition_parameter(params, default_condition), stipulation);
      const Position pos = parse_position(parameter(params, "fen"), tb.rules());
      // (probe --solutions's bounds and refusal.)
      if (tb.kind() == StipulationKind::Selfmate && given(params, "solutions"))
        throw CommandError("solutions= is for stipulation=h# (a selfmate's solution is a tree)",
                           ErrorKind::InvalidArgument);
      const int solutions = number_parameter(params, "solutions", 1, MaxSolutionLines, 0);
      const Color mated = parse_mated(optional_parameter(params, "mated"), tb.kind());
      reply.body = json_text(help_probe_json(tb, pos, mated, solutions, true)) + "\n";
    } else if (path == "/api/help-stat") {
      refuse_parameters_not_read(path, params, {"material", "fen", "condition", "stipulation", "mated"});
      // The lengths of a material's helpmate or selfmate table (`stat --stipulation h#
      // --json`), by `material=` in either orientation (the other one with the other colour
      // mated) or by `fen=`.
      const std::string stipulation = parameter(params, "stipulation", "h#");
      const HelpTablebase& tb = help_tablebase(path, condition_parameter(params, default_condition), stipulation);
      Material material = material_parameter(params, tb.rules());
      Color mated = parse_mated(optional_parameter(params, "mated"), tb.kind());
      if (!material.is_canonical_orientation()) material = material.colors_swapped(), mated = ~mated;
      // The survey reads the file whole, through a tablebase of its own let go after the
      // answer: the server's kept the copy, held it for ever and answered /api/help from it
      // after the file was replaced on disk.
      const HelpTablebase survey(tb.rules(), tb.directory(), tb.kind());
      reply.body =
          json_text(help_stat_json(survey, material, mated, take(survey_help_table(survey, material, mated, 1)))) +
          "\n";
    } else if (path == "/api/diagram") {
      refuse_parameters_not_read(path, params, {"fen", "condition", "size"});
      RuleSet rules = parse_condition(condition_parameter(params, default_condition));
      diagram::DiagramOptions d;
      d.condition = rules.name();
      // (diagram --size's bounds and default.)
      d.size = number_parameter(params, "size", diagram::MinSize, diagram::MaxSize, d.size);
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

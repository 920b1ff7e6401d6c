#include "probe/header_check.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>

#include "probe/indexer.h"

namespace feerie {

namespace {

// `word` as the shell reads it back: as it stands when it holds no character the shell
// treats apart, else in single quotes (a directory with a space in its name).
std::string shell_word(const std::string& word) {
  const bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](unsigned char c) {
    return std::isalnum(c) || std::strchr("_./+-:=@%,", c);
  });
  if (plain) return word;
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace

Status check_header_matches(const TableHeader& h, const std::string& path, const Material& material,
                            const RuleSet& rules, const Stipulation& stipulation) {
  if (h.condition != rules.name())
    return error(ErrorKind::ConditionMismatch,
                 "table '" + path + "' was built for condition '" + h.condition + "', not '" + rules.name() + "'");
  if (h.material != material.name())
    return error(ErrorKind::Corruption,
                 "table '" + path + "' holds material " + h.material + ", not " + material.name());
  if (!(h.stipulation == stipulation))
    return error(ErrorKind::Corruption, "table '" + path + "' answers stipulation " + h.stipulation.header_name() +
                                            ", not " + stipulation.header_name());
  Indexer indexer(material, rules);
  if (h.index_layout != indexer.layout())
    return error(ErrorKind::Corruption, "table '" + path + "' does not match this program's index for " +
                                            material.name() + " (layout '" + h.index_layout + "', expected '" +
                                            indexer.layout() + "')");
  if (h.entries != indexer.size())
    return error(ErrorKind::Corruption, "table '" + path + "' says it has " + std::to_string(h.entries) +
                                            " entries per side; this program's index for " + material.name() + " has " +
                                            std::to_string(indexer.size()));
  return Ok{};
}

Expected<std::unique_ptr<TableFile>> open_table(const std::string& path, const Material& material, const RuleSet& rules,
                                                const Stipulation& stipulation) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path dir = fs::path(path).parent_path().parent_path();  // <tables>/<condition>/<material>.ftb
  if (!dir.empty() && fs::exists(dir, ec) && !fs::is_directory(dir, ec))
    return error(ErrorKind::InvalidArgument, "the tables directory '" + dir.string() + "' is not a directory");
  bool exists = fs::exists(path, ec);
  if (ec) return error(ErrorKind::IOError, "cannot read table '" + path + "': " + ec.message());
  if (!exists) {
    // The command to copy names the tables directory unless it is the default one.
    const std::string tables =
        dir.empty() || dir == "tables" || dir == "./tables" ? "" : " --tables " + shell_word(dir.string());
    const StipulationKind kind = stipulation.kind;
    const std::string what = kind == StipulationKind::DirectMate ? "table "
                             : kind == StipulationKind::Helpmate ? "helpmate table "
                                                                 : "selfmate table ";
    const std::string option = kind == StipulationKind::DirectMate ? ""
                               : kind == StipulationKind::Helpmate ? " --stipulation h#"
                                                                   : " --stipulation s#";
    return error(ErrorKind::NotFound, "missing " + what + material.name() + " for condition " + rules.name() + " ('" +
                                          path + "'; generate it with: feerie gen" + tables + option + " --condition " +
                                          rules.name() + " " + material.name() + ")");
  }
  Expected<std::unique_ptr<TableFile>> file = TableFile::open(path);
  if (!file) return file.error();
  if (Status s = check_header_matches((*file)->header(), path, material, rules, stipulation); !s) return s.error();
  return file;
}

}  // namespace feerie

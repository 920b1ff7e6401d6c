#include "probe/header_check.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>

#include "probe/indexer.h"

namespace feerie {

namespace {

// `given` as the shell and feerie's options read it back: as it stands when it holds no
// character the shell treats apart, else in single quotes (a directory with a space in its
// name); "./" before a word that starts with '-', which would be read as an option.
std::string shell_word(const std::string& given) {
  const std::string word = given.rfind('-', 0) == 0 ? "./" + given : given;
  const bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](unsigned char c) {
    return std::isalnum(c) || std::strchr("_./+-:=@%,", c);
  });
  if (plain) return word;
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// The command that generates the table at `path`, <tables>/<condition>/<material>.ftb: it
// names the tables directory unless it is the default one (an empty directory is the
// working one, which --tables names as ".").
std::string gen_command(const std::string& path, const Material& material, const RuleSet& rules,
                        const Stipulation& stipulation) {
  const std::filesystem::path dir = std::filesystem::path(path).parent_path().parent_path();
  const std::string tables = dir == "tables" || dir == "./tables" ? ""
                             : dir.empty()                        ? " --tables ."
                                                                  : " --tables " + shell_word(dir.string());
  const std::string option = stipulation.kind == StipulationKind::DirectMate ? ""
                             : stipulation.kind == StipulationKind::Helpmate ? " --stipulation h#"
                                                                             : " --stipulation s#";
  return "feerie gen" + tables + option + " --condition " + rules.name() + " " + material.name();
}

}  // namespace

Status require_condition_directory(const std::string& condition_dir) {
  const std::filesystem::path dir = condition_dir;
  for (const std::filesystem::path& d : {dir.parent_path(), dir}) {
    std::error_code ec;
    if (!d.empty() && std::filesystem::exists(d, ec) && !std::filesystem::is_directory(d, ec))
      return error(ErrorKind::InvalidArgument,
                   std::string("'") + d.string() + "' is not a directory (a directory of tables was expected)");
  }
  return Ok{};
}

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
    return error(ErrorKind::Corruption,
                 "table '" + path + "' does not match this program's index for " + material.name() + " (layout '" +
                     h.index_layout + "', expected '" + indexer.layout() +
                     "'; a table of another layout is never read: " + "generate it again with: " +
                     gen_command(path, material, rules, stipulation) + ")");
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
  if (Status s = require_condition_directory(fs::path(path).parent_path().string()); !s) return s.error();
  bool exists = fs::exists(path, ec);
  if (ec) return error(ErrorKind::IOError, "cannot read table '" + path + "': " + ec.message());
  if (!exists) {
    // A material that no table can be generated for (more than 8 units of one kind) is
    // said to be so: the gen command suggested for it was refused.
    if (Expected<Material> valid = Material::parse(material.name()); !valid)
      return error(ErrorKind::NotSupported, "no table can be generated for this position: " + valid.error_message());
    const StipulationKind kind = stipulation.kind;
    const std::string what = kind == StipulationKind::DirectMate ? "table "
                             : kind == StipulationKind::Helpmate ? "helpmate table "
                                                                 : "selfmate table ";
    // A tables directory that is not there at all is more often a typo than tables not yet
    // made: said, so that the gen command is not taken as the only way out.
    const fs::path tables = fs::path(path).parent_path().parent_path();
    const std::string no_directory = !tables.empty() && !fs::exists(tables, ec)
                                         ? "; the tables directory '" + tables.string() + "' does not exist"
                                         : "";
    return error(ErrorKind::NotFound,
                 "missing " + what + material.name() + " for condition " + rules.name() + " ('" + path + "'" +
                     no_directory + "; generate it with: " + gen_command(path, material, rules, stipulation) + ")");
  }
  Expected<std::unique_ptr<TableFile>> file = TableFile::open(path);
  if (!file) return file.error();
  if (Status s = check_header_matches((*file)->header(), path, material, rules, stipulation); !s) return s.error();
  return file;
}

}  // namespace feerie

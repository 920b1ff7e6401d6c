// `feerie check`: the tables of a directory checked as gen checks them before reuse.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include "gen/checkpoint.h"
#include "gen/plan.h"
#include "probe/table_file.h"
#include "tools/cli.h"
#include "tools/table_command.h"

namespace feerie::cli {

namespace {

// The files of a directory with one extension, by name; an error when the directory
// cannot be listed (issue 27 D: an unreadable directory once passed as empty).
Expected<std::vector<std::filesystem::path>> files_with_extension(const std::filesystem::path& dir,
                                                                  const std::string& extension) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  std::filesystem::directory_iterator it(dir, ec), end;
  for (; !ec && it != end; it.increment(ec))
    if (it->path().extension() == extension) files.push_back(it->path());
  if (ec) return error(ErrorKind::IOError, "cannot list '" + dir.string() + "': " + ec.message());
  std::sort(files.begin(), files.end());
  return files;
}

// The checkpoints of a condition's directory ("KQRvKR.ckpt", "KQRvKR.0-of-3.ckpt") whose
// component's first member, named by the file, has a table on disk: the table was
// finished after them, so they are stale (gen removes them when it writes a table).
std::vector<std::filesystem::path> stale_checkpoints(const std::vector<std::filesystem::path>& checkpoints) {
  std::vector<std::filesystem::path> stale;
  for (const std::filesystem::path& c : checkpoints) {
    std::optional<CheckpointName> name = parse_checkpoint_name(c.filename().string());
    std::error_code ec;
    if (name && std::filesystem::exists(c.parent_path() / table_file_name(name->first_member), ec)) stale.push_back(c);
  }
  return stale;
}

}  // namespace

void add_check_command(CLI::App& app) {
  auto opt = std::make_shared<TableOptions>();
  auto all_conditions = std::make_shared<bool>(true);
  CLI::App* cmd = app.add_subcommand(
      "check", "Check the tables of a directory as gen checks them before reuse (header, rules, material, checksums)");
  cmd->add_option("--condition", opt->condition, "Only this condition's tables (default: every condition)")
      ->each([all_conditions](const std::string&) { *all_conditions = false; });
  cmd->add_option("--tables", opt->tables, "Tables directory (default: ./tables)")->check(refuse_empty_directory);
  cmd->add_option("material", opt->args, "Only these materials (default: every table file)");
  auto deep = std::make_shared<bool>(false);
  cmd->add_flag("--deep", *deep,
                "Decompress every block too (slower; finds a block whose checksum matches but whose data is damaged)");
  cmd->callback([opt, all_conditions, deep] {
    namespace fs = std::filesystem;
    std::error_code ec;
    require_tables_directory(opt->tables);
    std::vector<std::string> conditions;
    if (*all_conditions) {
      for (fs::directory_iterator it(opt->tables, ec), end; !ec && it != end; it.increment(ec)) {
        // An entry whose type cannot be read (a symbolic link in a loop) is listed below
        // as a directory that cannot be read, not thrown past the other directories.
        std::error_code type;
        if (it->is_directory(type) || type) conditions.push_back(it->path().filename().string());
      }
      std::sort(conditions.begin(), conditions.end());
    } else {
      conditions.push_back(parse_condition(opt->condition).name());
    }
    if (ec)
      throw CommandError("cannot list the tables directory '" + opt->tables + "': " + ec.message(), ErrorKind::IOError);
    int checked = 0, bad = 0, unreadable = 0, stale = 0;
    auto report = [&](const std::string& path, const std::string& problem) {
      ++checked;
      bad += !problem.empty();
      std::cout << path << ": " << (problem.empty() ? "ok" : problem) << "\n";
    };
    const std::vector<Material> materials = parse_materials(opt->args);
    std::vector<bool> found(materials.size(), false);
    // Whether a file named for `material_name` is one this check was asked about.
    auto asked = [&](const std::string& material_name) {
      if (materials.empty()) return true;
      Expected<Material> m = Material::parse(material_name);
      return m && std::any_of(materials.begin(), materials.end(), [&](const Material& a) {
               return a.canonical_orientation().name() == m->canonical_orientation().name();
             });
    };
    for (const std::string& condition : conditions) {
      Expected<RuleSet> rules = RuleSet::parse(condition);
      const fs::path dir = fs::path(opt->tables) / condition;
      Expected<std::vector<fs::path>> listed = files_with_extension(dir, TableExtension);
      // (symlink_status: a link in a loop is there, though nothing can be read through it.)
      if (!listed && (*all_conditions || fs::exists(fs::symlink_status(dir, ec)))) {
        std::cout << dir.string() << ": " << listed.error_message() << "\n";
        ++unreadable;
        continue;
      }
      const std::vector<fs::path> files = listed ? *listed : std::vector<fs::path>{};
      // Files no command reads: in a directory named by no condition, or by another
      // spelling of one (`annan-a/` for `annan/`: every command reads the canonical name's).
      const std::string misplaced =
          !rules                       ? "in no condition's directory: " + rules.error_message()
          : rules->name() != condition ? "in no condition's directory: the tables of condition " + rules->name() +
                                             " are read from '" + (fs::path(opt->tables) / rules->name()).string() + "'"
                                       : "";
      if (!misplaced.empty()) {
        for (const fs::path& file : files)
          if (Expected<std::pair<std::string, Stipulation>> stem = split_table_stem(file.stem().string());
              materials.empty() || (stem && asked(stem->first)))
            report(file.string(), misplaced);
        continue;
      }
      if (Expected<std::vector<fs::path>> checkpoints = files_with_extension(dir, ".ckpt"))
        for (const fs::path& c : stale_checkpoints(*checkpoints)) {
          if (std::optional<CheckpointName> name = parse_checkpoint_name(c.filename().string());
              !name || !asked(name->first_member))
            continue;
          std::cout << c.string() << ": stale checkpoint (its table is finished; the next gen of it removes it)\n";
          ++stale;
        }
      struct Wanted {
        std::string path;
        Material material;
        Stipulation stipulation;
        std::string bad_name;  // why the file's name is not one a command reads ("": it is)
      };
      std::vector<Wanted> wanted;
      if (!materials.empty()) {
        // Every condition's directory is searched: a material is checked where it is, and
        // missing only when it is in none (issue 27 G).
        // A material's files are its direct-mate table and the helpmate and selfmate
        // tables of gen --stipulation, whichever are there (the direct-mate one is named as
        // missing when none is).
        for (std::size_t i = 0; i < materials.size(); ++i) {
          const Material m = materials[i].canonical_orientation();
          const std::size_t before = wanted.size();
          // In the order of the files' names, as without materials: KQvK.ftb,
          // KQvK.help-black.ftb, KQvK.help-white.ftb, KQvK.self-black.ftb, KQvK.self-white.ftb.
          for (const Stipulation& stipulation :
               {Stipulation::direct_mate(), Stipulation::of(StipulationKind::Helpmate, BLACK),
                Stipulation::of(StipulationKind::Helpmate, WHITE), Stipulation::of(StipulationKind::Selfmate, BLACK),
                Stipulation::of(StipulationKind::Selfmate, WHITE)}) {
            const std::string path = table_file_path(opt->tables, condition, m.name(), stipulation);
            if (fs::exists(path, ec)) wanted.push_back({path, m, stipulation, ""});
          }
          if (wanted.size() == before && !*all_conditions)
            wanted.push_back({table_file_path(opt->tables, condition, m.name()), m, Stipulation::direct_mate(), ""});
          found[i] = found[i] || wanted.size() > before;
        }
      } else {
        for (const fs::path& file : files) {
          // <material>.ftb, or a helpmate table's <material>.help-<colour>.ftb.
          Expected<std::pair<std::string, Stipulation>> stem = split_table_stem(file.stem().string());
          Expected<Material> m = stem ? Material::parse(stem->first) : Expected<Material>(stem.error());
          if (!m || !m->is_canonical_orientation()) {
            wanted.push_back({file.string(), Material(), Stipulation::direct_mate(),
                              "not a table name (expected a material in its stored orientation, e.g. KQvK.ftb "
                              "or KQvK.help-white.ftb)"});
          } else if (m->name() != stem->first) {
            // KRvPK.ftb, kqvk.ftb: the material, but every command reads its canonical name.
            wanted.push_back({file.string(), *m, stem->second,
                              "not a table name: the table of " + m->name() + " is read from '" +
                                  table_file_path(opt->tables, condition, m->name(), stem->second) + "'"});
          } else {
            wanted.push_back({file.string(), *m, stem->second, ""});
          }
        }
      }
      for (const Wanted& w : wanted)
        report(w.path,
               w.bad_name.empty() ? reuse_problem(w.path, w.material, *rules, *deep, w.stipulation) : w.bad_name);
    }
    for (std::size_t i = 0; i < materials.size(); ++i)
      if (*all_conditions && !found[i]) {
        std::cout << materials[i].canonical_orientation().name() << ": missing (in no condition's directory under '"
                  << opt->tables << "')\n";
        ++checked;
        ++bad;
      }
    auto count = [](int n, const char* one, const char* many) {
      return std::to_string(n) + " " + (n == 1 ? one : many);
    };
    std::cout << count(checked, "table", "tables") << " checked, " << bad << " bad"
              << (unreadable ? ", " + count(unreadable, "directory", "directories") + " unreadable" : "")
              << (stale ? ", " + count(stale, "stale checkpoint", "stale checkpoints") : "") << "\n";
    if (unreadable)
      throw CommandError(count(unreadable, "condition directory", "condition directories") + " could not be read",
                         ErrorKind::IOError);
    if (bad)
      throw CommandError(std::to_string(bad) + " of " + std::to_string(checked) + " tables are bad",
                         ErrorKind::Corruption);
  });
}

}  // namespace feerie::cli

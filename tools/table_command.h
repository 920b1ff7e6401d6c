// What the table commands (gen, probe, stat, verify, check) share: the options every one
// of them takes and the reading of material names.
#pragma once

#include <string>
#include <vector>

#include "probe/material.h"
#include "tools/cli.h"

namespace feerie::cli {

struct TableOptions {
  std::string condition = "orthodox";
  std::string tables = "tables";
  int threads = 0;
  bool json = false;
  std::vector<std::string> args;
};

inline void add_table_options(CLI::App* cmd, TableOptions& opt) {
  cmd->add_option("--condition", opt.condition, "Condition (default: orthodox)");
  cmd->add_option("--tables", opt.tables, "Tables directory (default: ./tables)")->check(refuse_empty_directory);
}

inline std::vector<Material> parse_materials(const std::vector<std::string>& names) {
  std::vector<Material> out;
  for (const std::string& n : names) out.push_back(take(Material::parse(n)));
  return out;
}

}  // namespace feerie::cli

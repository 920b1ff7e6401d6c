// The one check that a table file is the table a reader asked for (the reliability issue:
// the prober, `stat`, `gen`'s reuse and `verify` used to check different subsets): it
// exists, it is a sound Feerie table file (TableFile::open), and its header says it was
// built for these rules, holds this material, answers this stipulation and is laid out as
// this program indexes it.
#pragma once

#include <memory>
#include <string>

#include "probe/material.h"
#include "probe/table_file.h"
#include "rules/expected.h"
#include "rules/ruleset.h"

namespace feerie {

// An error naming the file and what differs (kind Corruption), or Ok. `material` in its
// stored orientation.
Status check_header_matches(const TableHeader& header, const std::string& path, const Material& material,
                            const RuleSet& rules, const Stipulation& stipulation = Stipulation::direct_mate());

// InvalidArgument when a condition's directory of tables (<tables>/<condition>) or the
// tables directory above it is something other than a directory (a file where one should
// be), naming it; Ok when each is a directory, does not exist or is empty (the working
// directory).
Status require_condition_directory(const std::string& condition_dir);

// Opens the table of `material` (stored orientation) for `rules` at `path` and checks its
// header: NotFound when there is no file (with the command that makes it), Corruption for
// a damaged or foreign file, IOError when it cannot be read, InvalidArgument when the
// tables directory or the condition's directory in it is not a directory. Block checksums are checked
// when blocks are read, or all at once by TableFile::check_blocks().
Expected<std::unique_ptr<TableFile>> open_table(const std::string& path, const Material& material, const RuleSet& rules,
                                                const Stipulation& stipulation = Stipulation::direct_mate());

}  // namespace feerie

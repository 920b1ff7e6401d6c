// The one check that a table file's header is the table a reader asked for (the
// reliability issue: the prober, `stat` and `gen`'s reuse used to check three different
// subsets): built for these rules, holding this material, laid out as this program
// indexes it.
#pragma once

#include <string>

#include "probe/material.h"
#include "probe/table_file.h"
#include "rules/expected.h"
#include "rules/ruleset.h"

namespace feerie {

// An error naming the file and what differs, or Ok. `material` in its stored orientation.
Status check_header_matches(const TableHeader& header, const std::string& path, const Material& material,
                            const RuleSet& rules);

}  // namespace feerie

#include "probe/header_check.h"

#include "probe/indexer.h"

namespace feerie {

Status check_header_matches(const TableHeader& h, const std::string& path, const Material& material,
                            const RuleSet& rules) {
  if (h.condition != rules.name())
    return error("table '" + path + "' was built for condition '" + h.condition + "', not '" + rules.name() + "'");
  if (h.material != material.name())
    return error("table '" + path + "' holds material " + h.material + ", not " + material.name());
  Indexer indexer(material, rules);
  if (h.index_layout != indexer.layout() || h.entries != indexer.size())
    return error("table '" + path + "' does not match this program's index for " + material.name() + " (layout '" +
                 h.index_layout + "', expected '" + indexer.layout() + "')");
  return Ok{};
}

}  // namespace feerie

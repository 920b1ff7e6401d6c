// The dependency graph of material signatures (SPEC 5): an edge M -> M' when one move can
// turn M into M' (a capture, a promotion, a magic mutation, or several at once). Materials are taken in their
// canonical orientation. Strongly connected components are returned in the order they
// must be solved: every component after all the components it depends on. In orthodox
// chess each component is one material; magic units make materials that turn into each
// other (KmRvKP -> KmRvKQ by promotion -> KmRvKR by mutation ...), solved together.
#pragma once

#include <vector>

#include "probe/material.h"
#include "rules/ruleset.h"

namespace feerie {

// The materials one move can lead to from `m` (canonical orientation, without `m`).
std::vector<Material> material_successors(const Material& m, const RuleSet& rules);

// All materials `targets` depend on, themselves included, grouped in strongly connected
// components, in solving order.
std::vector<std::vector<Material>> solving_order(const std::vector<Material>& targets, const RuleSet& rules);

}  // namespace feerie

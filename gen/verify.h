// The verifier (SPEC 5): recomputes every stored value of a table from its successors
// with the forward move generator only, and reports every inconsistency.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gen/partition.h"
#include "probe/material.h"
#include "rules/expected.h"
#include "rules/ruleset.h"

namespace feerie {

struct VerifyReport {
  std::uint64_t checked = 0;          // entries of both sides
  std::uint64_t inconsistent = 0;     // entries whose value does not follow from their moves
  std::vector<std::string> examples;  // the first few, as "FEN: stored X, expected Y"
};

// Reads <tables_dir>/<rules>/<material>.ftb and the tables of its successors. The file
// holds both orientations of `material`: its entries are checked as it stores them (the
// examples in that orientation).
// With a partition (gen/partition.h; `feerie verify --mpi`) every process checks the
// entries it would own in a solve and all of them return the whole table's report (the
// examples of the lowest processes first); each holds in memory only the verified table's
// entries it checks (both sides) and reads the others through the compressed blocks, so
// that the processes divide the table's memory as well as the time. Collective. The tables
// its moves lead to are read through their compressed blocks.
// `on_progress` (may be empty) is called from the calling thread after each slice of the
// entries this process checks, with the entries of both sides done and their total: a
// 6-man table takes hours.
using VerifyProgress = std::function<void(std::uint64_t done, std::uint64_t total)>;
Expected<VerifyReport> verify_table(const Material& material, const RuleSet& rules, const std::string& tables_dir,
                                    int threads, Partition* partition = nullptr,
                                    const VerifyProgress& on_progress = {});

// One of `parts` parts of the entries of both sides (`index` from 0; the ranges `verify
// --mpi` gives as many processes): a verification split over runs or machines without MPI
// (`feerie verify --part K/N`). The reports of the parts add up to the whole table's. Holds
// in memory only the part's entries, as a process of `verify --mpi` does.
struct VerifyPart {
  int index = 0;
  int parts = 1;
};
Expected<VerifyReport> verify_table_part(const Material& material, const RuleSet& rules, const std::string& tables_dir,
                                         int threads, VerifyPart part, const VerifyProgress& on_progress = {});

}  // namespace feerie

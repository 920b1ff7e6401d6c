// Statistics of a solved table (SPEC 1, "Counting positions"), stored in its header.
#pragma once

#include <array>
#include <vector>

#include "gen/value_store.h"  // MemberValues
#include "probe/indexer.h"
#include "probe/table_file.h"

namespace feerie {

// Per side to move:
// - positions / win / draw / loss: raw counts of legal positions, every board symmetry
//   image counted once, identical units unordered, en-passant positions and pawns on
//   their first or last rank included;
// - classes_*: the reference convention (docs/results/published/README.md): symmetry classes
//   of placements with identical units told apart, without en-passant squares and with
//   pawns on ranks 2 to 7 only;
// - the longest win for the side to move, with the lowest-index example, over all
//   positions and over those of the classes.
std::array<SideStatistics, 2> compute_statistics(const Indexer& indexer, const MemberValues& values, int threads);

// The same in two steps, for a table spread over processes (gen/partition.h): each part's
// statistics, `values` holding the entries from `first` on (the classes_* counts are
// numerators, not yet divided by the symmetry group), then the table's from its parts in
// index order: the counts add up, and each longest mate's example is the one of lowest
// index, as one process alone finds it.
std::array<SideStatistics, 2> partial_statistics(const Indexer& indexer, const MemberValues& values, int threads,
                                                 std::uint64_t first);
std::array<SideStatistics, 2> merge_statistics(const Indexer& indexer,
                                               const std::vector<std::array<SideStatistics, 2>>& parts);

}  // namespace feerie

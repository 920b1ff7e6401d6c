// Statistics of a solved table (SPEC 1, "Counting positions"), stored in its header.
#pragma once

#include <array>
#include <vector>

#include "probe/indexer.h"
#include "probe/table_file.h"

namespace feerie {

// Per side to move:
// - positions / win / draw / loss: raw counts of legal positions, every board symmetry
//   image counted once, identical units unordered, en-passant positions and pawns on
//   their first or last rank included;
// - classes_*: the reference convention (shared/reference/README.md): symmetry classes
//   of placements with identical units told apart, without en-passant squares and with
//   pawns on ranks 2 to 7 only;
// - the longest win for the side to move, with the lowest-index example, over all
//   positions and over those of the classes.
std::array<SideStatistics, 2> compute_statistics(const Indexer& indexer,
                                                 const std::array<std::vector<ValueCode>, 2>& values, int threads);

}  // namespace feerie

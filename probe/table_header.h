// The header of a table file (docs/format.md): what the table is (rule set, material,
// index layout), where its blocks are, its statistics; and the header as the text a file
// holds (a Boost.Serialization text archive, read with bounds: a damaged or crafted header
// never makes the reader allocate beyond what the text holds).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "probe/stipulation.h"
#include "rules/expected.h"

namespace feerie {

// Win/draw/loss counts and the longest mate for one side to move.
struct SideStatistics {
  std::uint64_t positions = 0;  // legal positions, raw count (SPEC 1)
  std::uint64_t win = 0, draw = 0, loss = 0;
  std::uint64_t classes_win = 0, classes_draw = 0, classes_loss = 0;  // symmetry classes (reference convention)
  int longest_mate_plies = -1;                                        // longest win for the side to move, -1 if none
  std::string longest_mate_fen;
  // The same over the positions of the classes (no en passant, pawns on ranks 2-7).
  int classes_longest_mate_plies = -1;
  std::string classes_longest_mate_fen;
};

struct BlockRef {
  std::uint64_t offset = 0;    // from the start of the body
  std::uint32_t size = 0;      // compressed bytes
  std::uint64_t checksum = 0;  // XXH64 (seed 0) of the compressed bytes
};

struct TableHeader {
  std::string condition;      // canonical rule-set name, e.g. "orthodox"
  std::string material;       // canonical material name, e.g. "KQvKR"
  std::string index_layout;   // the indexer's description; must match the reader's
  std::uint64_t entries = 0;  // index entries per side to move
  std::uint32_t block_entries = 0;
  std::array<std::vector<BlockRef>, 2> blocks;  // per side to move
  std::array<SideStatistics, 2> stats;          // per side to move
  std::string generator;                        // free text: program version
  // Not in the Boost archive: a direct-mate table's header (format version 2) has none; any
  // other's (format version 3) follows the archive as "stipulation <name>" (docs/format.md).
  Stipulation stipulation;
};

// The format version of a file with this header: 2 for direct mate, 3 for the others.
std::uint32_t format_version_of(const TableHeader& header);

// This program as table headers (TableHeader::generator) and checkpoints name it; a
// checkpoint of another generator is not resumed.
inline constexpr const char* GeneratorName = "feerie 0.1";

// A header as the text a table file holds (Boost text archive), and back, read with the
// same bounds as a file's header (no allocation beyond what the text holds): how the
// processes of a spread solve pass each other their blocks and statistics. Errors of the
// reader: Corruption.
Expected<std::string> header_text(const TableHeader& header);
Expected<TableHeader> parse_header_text(const std::string& text);

}  // namespace feerie

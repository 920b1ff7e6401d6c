// Helpmate and selfmate tables (issue 25, docs/stipulations.md): for every position of a
// material and each colour, the fewest plies in which the two sides together checkmate
// that colour, and the number of move sequences of that length (helpmates); or the fewest
// plies in which that colour forces the other to checkmate it, the other avoiding it as
// long as it can (selfmates; no count). Both are tables per colour mated, held alike.
//
// Helpmate conventions:
// Conventions:
//   - the mated side is to move, in check, with no legal move; a position where the other
//     side is mated, and a stalemate, end a sequence without a helpmate;
//   - distances are in plies from the position. With Black mated, a problem's h#N is 2N
//     plies with Black to move first, h#N.5 is 2N + 1 plies with White to move first;
//   - a solution is a sequence of legal moves (two promotions of one pawn are two
//     solutions), counted up to HelpSolutionsCap.
//
// On disk a material has two files, one per colour mated (probe/stipulation.h), each
// holding per side to move one 16-bit code per index entry (help_code()).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "probe/indexer.h"
#include "probe/material.h"
#include "probe/table_file.h"
#include "probe/table_header.h"
#include "probe/value.h"
#include "rules/expected.h"
#include "rules/position.h"
#include "rules/ruleset.h"

namespace feerie {

// Counts of shortest helpmates above this are stored as this.
inline constexpr int HelpSolutionsCap = 255;
// A count of shortest helpmates as the tools write it: "12", "255 or more" (a count at the
// cap is a bound).
std::string solution_count_text(int count);
// "1 solution", "12 solutions", "255 or more solutions".
std::string solutions_text(int count);
// The longest helpmate a table file holds (its code keeps the distance in a byte).
inline constexpr int HelpMaxPlies = 255 - value::FirstMate;

// One position's helpmate: `plies` is value::mate_in_plies(distance), value::Draw when
// the colour can never be mated from it, value::Illegal when there is no such position.
struct HelpEntry {
  ValueCode plies = value::Illegal;
  int solutions = 0;  // shortest sequences, capped at HelpSolutionsCap; 0 unless plies is a mate

  // As a problem states it. Helpmate, with the colour mated moving first at even plies:
  // "h#2" (4 plies), "h#1.5" (3 plies, the other colour to move), "h#0" (mated now).
  // Selfmate, with the colour mated to move: "s#2" (4 plies); empty at odd plies (the
  // other colour to move), which a selfmate problem does not state. "-" without a mate.
  std::string problem_name(StipulationKind kind = StipulationKind::Helpmate) const;
};

// A helpmate entry in a table file: the low byte is the distance code (a ValueCode of at
// most 255: Illegal, Draw, or a mate of up to HelpMaxPlies plies), the high byte the
// number of solutions. Precondition of help_code: the distance fits.
constexpr ValueCode help_code(const HelpEntry& e) { return ValueCode(e.solutions << 8 | e.plies); }
constexpr HelpEntry help_entry(ValueCode code) { return HelpEntry{ValueCode(code & 0xFF), code >> 8}; }

// The helpmate values of one material (canonical orientation), for both colours mated and
// both sides to move: [colour mated][side to move][index entry].
struct HelpTable {
  Material material;
  std::array<std::array<std::vector<ValueCode>, 2>, 2> plies;
  std::array<std::array<std::vector<std::uint8_t>, 2>, 2> solutions;
};

// How a HelpTablebase reads the files under its directory for entry().
enum class HelpReading {
  Blocks,  // through the files' block caches (probe/table_file.h): memory bounded, for probing
  Whole,   // each file whole into memory on first use: for solvers and verifiers, which
           // look up most entries of their sub-tables many times
};

// Helpmate (or selfmate) tables looked up by position: tables added in memory (a solve's
// results) and, with a directory, the table files under it, opened on first use.
// load() reads a file whole whatever the reading (a scan needs every entry).
// Thread-safety: entry() and load() may be called from several threads; add() too. A
// table once looked up stays valid for the object's life (add() of a material already
// there keeps the old record alive).
class HelpTablebase {
 public:
  // `directory`: the tables directory (<directory>/<condition>/<material>.help-*.ftb, or
  // .self-*.ftb for selfmates); empty: memory only.
  explicit HelpTablebase(RuleSet rules, std::string directory = "", StipulationKind kind = StipulationKind::Helpmate,
                         HelpReading reading = HelpReading::Blocks);
  HelpTablebase(HelpTablebase&&) noexcept;
  ~HelpTablebase();
  const RuleSet& rules() const { return rules_; }
  const std::string& directory() const { return directory_; }
  StipulationKind kind() const { return kind_; }

  void add(HelpTable table);
  // The table of `material` (canonical orientation): in memory, else read from its files.
  // NotFound without them (with the command that makes them), Corruption for a damaged or
  // foreign file.
  Expected<const HelpTable*> load(const Material& material) const;
  // The same with only the values of `mated` mated read (`plies[mated]`, `solutions[mated]`;
  // the other colour's may be empty): only that colour's file is needed.
  Expected<const HelpTable*> load(const Material& material, Color mated) const;
  // The helpmate of `pos` in which `mated` is mated (in the colours of `pos`: a position of
  // the other orientation is looked up with colours exchanged).
  Expected<HelpEntry> entry(const Position& pos, Color mated) const;

 private:
  struct Loaded {
    std::unique_ptr<Indexer> indexer;
    HelpTable table;                                  // the values of colour mated c filled when whole[c]
    std::array<bool, 2> whole{};                      // [colour mated]
    std::array<std::unique_ptr<TableFile>, 2> files;  // [colour mated], for a table on disk, opened when first wanted
  };
  // A record of `material` whose files are still to be opened.
  std::unique_ptr<Loaded> record_on_disk(const Material& material) const;
  // The record of `material`, in memory or with the files of the colours mated `wanted`
  // opened (and read whole when `whole` or the reading says so): one look-up under the
  // lock (entry() runs once per move out of a component in the solvers' loops).
  // `*is_whole` receives, under the lock, which colours' values its `table` holds, and
  // `*files` the files to read the others through (a file replaced on disk is swapped for
  // the new one under the lock).
  Expected<const Loaded*> load_record(const Material& material, std::array<bool, 2> wanted, bool whole,
                                      std::array<bool, 2>* is_whole = nullptr,
                                      std::array<const TableFile*, 2>* files = nullptr) const;

  RuleSet rules_;
  std::string directory_;
  StipulationKind kind_;
  HelpReading reading_;
  mutable std::unique_ptr<std::mutex> mutex_;
  mutable std::map<Material, std::unique_ptr<Loaded>> tables_;
  // Records replaced by add(), or because a file of theirs was replaced on disk: kept, a
  // caller may hold them.
  mutable std::vector<std::unique_ptr<Loaded>> replaced_;
};

// Writes the two files of `table` (one per colour mated) into <directory>/<condition>/,
// each with its statistics (SideStatistics: `win` counts the entries with a mate, `draw`
// those without, the longest mate is the longest one). NotSupported for a mate longer than
// HelpMaxPlies.
Status write_help_table(const std::string& directory, const RuleSet& rules, const HelpTable& table,
                        StipulationKind kind = StipulationKind::Helpmate);

}  // namespace feerie

// The probing API inside Feerie: open a directory of tables built for one rule set and
// ask for the exact value of positions, the moves that keep it, and a principal
// variation. Internal: programs outside this tree use libfeerie through feerie/feerie.h
// or feerie/feerie.hpp (docs/probing.md).
//
// Values are from the point of view of the side to move. Distances are in plies (half
// moves): a win in p plies (p odd) means the side to move mates with its ((p+1)/2)-th
// move; a loss in p plies (p even) means it is mated after p plies, 0 = mated now.
//
// Thread-safety: a Tablebase may be probed from several threads at once; tables are
// opened lazily and their decompressed blocks cached behind a lock. Copies share the
// same open tables.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "probe/material.h"
#include "probe/value.h"
#include "rules/expected.h"
#include "rules/move.h"
#include "rules/position.h"
#include "rules/ruleset.h"

namespace feerie {

enum class Wdl { Loss, Draw, Win };

struct ProbeResult {
  Wdl wdl = Wdl::Draw;
  int dtm_plies = -1;  // plies to mate (see above); -1 for a draw
  // Moves to mate for people: positive when the side to move mates in that many moves,
  // negative when it is mated in that many, 0 for a draw and for "mated now".
  int mate_in() const;
  // The result a value code (a mate distance or Draw) stands for, from the point of view
  // of the side it belongs to.
  static ProbeResult of(ValueCode v);
};

// One legal move with the value of the position it leads to.
struct MoveValue {
  Move move;
  Position after;  // the position after the move: captures, promotions, mutations applied
  // The value for the side that made the move (probe/value.h codes): a win in p plies
  // counts the move itself (a mating move is a win in 1), a loss in p plies likewise.
  ValueCode value = value::Draw;
  bool checkmate = false;  // the move mates at once
  bool stalemate = false;  // the move leaves the opponent without a legal move, not in check
};

class Tablebase {
 public:
  // `directory` is the tables root: tables of rule set R are read from <directory>/<R>/.
  // Opening checks nothing yet; each table is opened when first needed.
  static Tablebase open(const std::string& directory, const RuleSet& rules);

  const RuleSet& rules() const;
  // The tables root given to open().
  const std::string& directory() const;
  // The file that holds (or would hold) `material` (any orientation).
  std::string table_path(const Material& material) const;
  // The materials with a table file in this rule set's directory, sorted by name: the
  // files a probe opens (the material's own name, a regular file or a link to one), listed,
  // not checked. Errors: the directory exists but cannot be read (IOError); the tables
  // directory or the condition's is a file (InvalidArgument, as from a probe).
  Expected<std::vector<Material>> tables_on_disk() const;

  // The value code (probe/value.h) of a legal position. Errors: a missing table (naming
  // the file and the material), a corrupt table, a table built for other rules.
  Expected<ValueCode> value_code(const Position& pos) const;
  // value_code() as a result for people and programs; also rejects illegal positions.
  Expected<ProbeResult> probe(const Position& pos) const;
  // Every legal move that keeps the value (shortest win, longest loss, a draw), sorted;
  // empty only when there is no legal move. Errors as move_values(), and a corrupt table
  // when an entry is not a value or no move keeps the position's value.
  Expected<std::vector<Move>> best_moves(const Position& pos) const;
  // Every legal move with its value for the mover, best first: wins (shortest first),
  // draws, losses (longest first); moves of equal value by name. Errors as value_code()
  // for the positions after the moves, and an illegal position.
  Expected<std::vector<MoveValue>> move_values(const Position& pos) const;
  // Best moves played out until mate (empty for a draw or a mated position); at most
  // `max_plies` moves. Errors as best_moves().
  Expected<std::vector<Move>> principal_variation(const Position& pos, int max_plies = 1000) const;

  // Reads a whole table into memory, for callers that probe it many times (the
  // generator). Later probes of that material avoid block decompression.
  Status preload(const Material& material) const;

  // How a program that looks a table up many times (the generator, the verifier) reads it:
  // Whole: decompressed into memory once (a byte per entry when its values fit, else two),
  // looked up without locks; ThroughBlocks: through the file's compressed blocks and their
  // caches (a few MiB; a block decompressed on each miss of the caches).
  enum class Reading { Whole, ThroughBlocks };
  // A table looked up many times, read as `reading` says. `material` in either orientation.
  class LookupTable;
  Expected<std::shared_ptr<const LookupTable>> lookup_table(const Material& material, Reading reading) const;

 private:
  struct Impl;
  explicit Tablebase(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  // value_code() of a position that has a value (a legal one): a code that is neither a
  // mate nor a draw is a corrupt table, named with its file.
  Expected<ValueCode> decided_value_code(const Position& pos) const;
  std::shared_ptr<Impl> impl_;
};

// A table looked up many times (Tablebase::lookup_table). Thread-safe; shares the table
// with the tablebase. Read whole, no look-up takes a lock or fails; read through blocks, a
// look-up takes a lock when its block is in neither the thread's nor the shared cache, and
// fails when that block is corrupt.
class Tablebase::LookupTable {
 public:
  const Material& material() const;  // in the stored orientation
  Reading reading() const { return reading_; }
  // The value code of a legal position of this material (either orientation).
  Expected<ValueCode> value_code(const Position& pos) const;
  // The same when the caller knows the orientation: `flipped` when the position's
  // material is this table's with the colours exchanged.
  Expected<ValueCode> value_code(const Position& pos, bool flipped) const;

 private:
  friend class Tablebase;
  std::shared_ptr<const void> table_;  // the opened table, kept alive
  const void* raw_ = nullptr;
  Reading reading_ = Reading::Whole;
};

// The value of a move's successor seen from the mover: the successor's value code is
// from the opponent's view. Returns the mover's value code (Draw stays Draw; a loss in p
// for the opponent is a win in p + 1 for the mover, and the other way round).
ValueCode value_through_move(ValueCode successor);

}  // namespace feerie

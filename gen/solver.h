// The retrograde DTM solver (SPEC 5) for one strongly connected component of materials
// (one material in orthodox chess; with magic units, materials that turn into each other
// by promotion and mutation, solved together ply by ply), in memory.
//
// Passes, each a function over index ranges run in parallel with OpenMP:
//   initialise      every entry of every member: Illegal, mated (loss in 0), stalemate
//                   (draw), or the values of moves that leave the component read
//                   from finished sub-tables through the prober: a win through such a
//                   move is recorded at once (a shorter win inside the material may
//                   replace it), a position whose every move leaves is final.
//   propagate       ply by ply, n = 0, 1, 2, ...: from each loss in n, every predecessor
//                   (exact un-moves, rules/retro.h, in any member) becomes a win in n + 1 unless it has
//                   a shorter one; each win in n takes one off the count of open
//                   successor entries of each unresolved predecessor entry (counted at
//                   initialisation and kept in the entry's value code itself, see
//                   probe/value.h "open"); at zero, every move leads to a win of the
//                   opponent and the predecessor is lost in 1 + the longest of them.
//   finish          what is still unresolved is a draw.
// Memory: 1 byte per entry and side to move of every member while every value fits in a
// byte, 1.125 (a high bit per entry) while the mates fit in 303 plies, 2 bytes after
// (probe/value_array.h), plus the block caches of the
// sub-tables (read through their compressed blocks, SolveOptions::subtable_reading).
// gen/solver.cpp runs these passes as a script (Solver::run()); the values live in a
// ValueStore, the updates between processes go through an UpdateExchange.
// A pass writes only values of one parity (wins or losses) and reads only final values
// of the other, so the result does not depend on the order of work: it is bit-identical
// for any number of threads.
#pragma once

#include <array>
#include <functional>
#include <limits>
#include <optional>
#include <vector>

#include "gen/partition.h"
#include "gen/value_store.h"
#include "probe/indexer.h"
#include "probe/tablebase.h"
#include "rules/expected.h"

namespace feerie {

struct SolveProgress {
  int plies = 0;                         // pass reached
  std::uint64_t resolved = 0;            // entries resolved in that pass, all members
  std::vector<std::uint64_t> by_member;  // the same per member, in the order given
  // Entries decided so far (illegal, drawn at initialisation, or a mate found), and all
  // entries (every member, both sides): how far the solve is. What is never decided ends
  // as a draw at the end, so the fraction jumps to 1 then (slightly over-counted when a
  // win is replaced by a shorter one).
  std::uint64_t decided = 0, entries = 0;
  // Partitioned: the updates the processes sent each other in that pass (8 bytes each).
  std::uint64_t sent = 0;
  // Bytes per entry the values take now: 1 while every value fits in a byte, 1.125 with a
  // high bit per entry for mates too long for a byte, 2 after (probe/value_array.h; this
  // process's store).
  double value_bytes = 1;
  // The sides whose losses that pass pulled rather than pushed (0 to 2; LossPassChoice).
  int pulled = 0;
  // The sides whose wins that pass two threads split between them by the colour parity of
  // the winning side's units, without locked instructions (0 to 2; gen/solver.cpp,
  // wins_split()).
  int split = 0;
};

// Where a solve stands between two passes (with the values of every member): what a
// checkpoint saves and what a resumed solve starts from.
struct SolverState {
  int next_ply = 0;   // the next pass propagates the entries whose mate is this many plies away
  int max_plies = 0;  // the longest mate found so far: the passes go on up to it
};

// How a pass of losses reaches their predecessors, per side: it pushes each loss in n
// plies to its predecessors, or has the entries of the other side that may still win in
// more than n + 1 plies (open, or winning through an exit) pull it from their successors
// (the same values). It pulls when the losses are at least `minimum_losses` and the
// candidates times `pull_cost` are fewer than the losses (both cost about the moves of the
// side that wins); the default is what orthodox KQRvKR measured (gen/solver.cpp,
// pulling_pays). Tests change it to pull more; a spread solve always pushes.
struct LossPassChoice {
  double pull_cost = 1.0;
  std::uint64_t minimum_losses = std::uint64_t(1) << 16;
  static LossPassChoice push_only() { return {std::numeric_limits<double>::infinity(), 0}; }
};

struct SolveOptions {
  int threads = 0;  // 0: OpenMP's default
  // The processes the solve is spread over (gen/partition.h), each holding and scanning
  // the entries it owns; null: this process alone, holding everything. Every process
  // calls solve_component() with the same members and options.
  Partition* partition = nullptr;
  // Partitioned: how many updates for other processes a process may buffer before the
  // processes exchange them in the middle of a pass (a pass ends with an exchange anyway).
  std::uint64_t exchange_limit = std::uint64_t(1) << 18;  // 2 MiB of updates
  // The longest mate (plies) the values hold in one byte before they are extended with a
  // high bit per entry (which holds narrow_max_plies + 1 more) and then widened to two
  // (probe/value_array.h); at most narrow::MaxPlies; negative: two bytes from the start.
  // Lower values exist for tests of the extension and the widening and for comparing the
  // widths.
  int narrow_max_plies = narrow::MaxPlies;
  // How the tables the moves out of the component lead to are read (gen/exit_tables.h):
  // whole (fastest) or through their compressed blocks (a few MiB instead of a byte or two
  // per entry of each).
  Tablebase::Reading subtable_reading = Tablebase::Reading::ThroughBlocks;
  // Read the small ones whole whatever subtable_reading says (read_whole_instead_of_blocks():
  // no more memory than their block caches, and faster); false for tests of the blocks.
  bool small_subtables_whole = true;
  LossPassChoice loss_passes;
  std::function<void(const SolveProgress&)> on_pass;  // called after each pass (may be empty)
  // Called during the initialisation (every few million entries) with the own entries
  // initialised so far and in all: a 6-man initialisation takes many minutes. May be
  // empty.
  std::function<void(std::uint64_t done, std::uint64_t total)> on_initialising;
  // Called once, before initialisation, with every member's values allocated: fills them
  // from a checkpoint and returns the state to go on from, or nothing to start afresh (the
  // values it may have written are then all overwritten). Partitioned, the solve resumes
  // only when every process resumes at the same state. May be empty.
  std::function<std::optional<SolverState>(std::vector<MemberValues>&)> resume;
  // Called when `resume` gave a state, once its values are checked against it
  // (gen/resume_check.h) and, partitioned, the processes have agreed on it:
  // `refused_because` is empty when the solve goes on from it, else says why not (what
  // disagrees, or that the processes' checkpoints are not all at one state), and the solve
  // starts afresh. May be empty.
  std::function<void(const SolverState&, const std::string& refused_because)> on_resume_checked;
  // Polled after initialisation and after each pass: true stops the solve with an
  // Interrupted error (after after_pass). May be empty.
  std::function<bool()> cancelled;
  // Called after initialisation and after each pass with the state reached; `stopping`
  // when the solve stops there (cancelled; partitioned: any process cancelled). A
  // checkpoint writer saves the state when one is due, and always before a stop. An error
  // stops the solve. Partitioned, every process calls it at the same points, so it may
  // use the partition's collectives. May be empty.
  std::function<Status(const SolverState&, const std::vector<MemberValues>&, bool stopping)> after_pass;
};

struct SolvedTable {
  MemberValues values;  // the entries `range` of each side (all of them unless partitioned)
  OwnedRange range;
  int passes = 0;
};

// Solves the component made of `members` (one indexer per material, canonical
// orientation) under `subtables.rules()`, returning one table per member in the same
// order. Every material a move leads to outside the component must already be in
// `subtables` (missing ones are an error).
Expected<std::vector<SolvedTable>> solve_component(const std::vector<const Indexer*>& members,
                                                   const Tablebase& subtables, const SolveOptions& options);

// solve_component() of one material.
Expected<SolvedTable> solve(const Indexer& indexer, const Tablebase& subtables, const SolveOptions& options);

}  // namespace feerie

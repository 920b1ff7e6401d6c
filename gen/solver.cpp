#include "gen/solver.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cmath>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>

#include "gen/component_entries.h"
#include "gen/entry.h"
#include "gen/exit_tables.h"
#include "gen/resume_check.h"
#include "gen/symmetry_lines.h"
#include "gen/unit_moves.h"
#include "gen/update_exchange.h"
#include "gen/value_store.h"
#include "rules/fen.h"
#include "rules/retro.h"

namespace feerie {

namespace {

// The solve of one component under `Rules`, as a script of passes (run()) over a value
// store (gen/value_store.h); the moves and un-moves of the passes are the rules' own
// (rules/movegen.h, rules/retro.h). `Spread`: the solve is partitioned over several
// processes (SolveOptions::partition), updates of other processes' entries go through
// the exchange (gen/update_exchange.h); one process alone compiles to the code without
// ownership tests. A documented hot kernel (STYLE.md: a long .cpp needs a reason): the
// passes and their per-entry work stay in one class, inlined into one another.
template <class Rules, bool Spread>
class Solver {
 public:
  Solver(const std::vector<const Indexer*>& members, const Rules& rules, const Tablebase& subtables,
         const SolveOptions& options)
      : members_(members),
        rules_(rules),
        subtables_(subtables),
        options_(options),
        exchange_(*partition_, threads(), options.exchange_limit) {
    for (const Indexer* m : members) symmetry_lines_.push_back(symmetry_lines(*m));
  }

  Expected<std::vector<SolvedTable>> run() {
    if (Status s = check_members(); !s) return s.error();
    Expected<ExitTables> exits =
        ExitTables::load(members_, subtables_, options_.subtable_reading, options_.small_subtables_whole);
    if (!exits) return exits.error();
    exits_ = std::move(*exits);
    std::vector<std::uint64_t> sizes;
    for (const Indexer* m : members_) sizes.push_back(m->size());
    store_ = std::make_unique<ValueStore>(sizes, partition_->rank(), ranks_, threads(), options_.narrow_max_plies);
    Expected<int> first = resume_or_initialise();
    if (!first) return first.error();
    int n = *first;
    for (; n <= store_->max_plies(); ++n)
      if (Status s = propagate(n); !s) return s.error();
    store_->settle_open_as_draws();
    return tables(n);
  }

 private:
  // Predecessors of one position: un-moves of each unit, more with magic units (a moved
  // unit's past identities and the past types of the units it touched).
  static constexpr int MaxPredecessors = 2048;

  int threads() const { return options_.threads > 0 ? options_.threads : omp_get_max_threads(); }

  Status check_members() const {
    if (members_.size() > std::size_t(ValueStore::MaxMembers))
      return error(ErrorKind::NotSupported,
                   "a component of more than " + std::to_string(ValueStore::MaxMembers) + " materials");
    for (const Indexer* m : members_)
      if (m->symmetry_count() != members_.front()->symmetry_count())
        return error(ErrorKind::Internal, "the members of a component must share one symmetry group (" +
                                              members_.front()->material().name() + ", " + m->material().name() + ")");
    return Ok{};
  }

  // The first pass to run: where a checkpoint the processes agree on left off, or 0 after
  // initialise().
  Expected<int> resume_or_initialise() {
    std::optional<SolverState> resumed = resume();
    if (Status s = agree_on_resume(resumed); !s) return s.error();
    if (resumed) {
      if (options_.on_resume_checked) options_.on_resume_checked(*resumed, "");  // said once agreed on
      store_->set_max_plies(resumed->max_plies);
      store_->rebuild_block_minima(resumed->next_ply);
      count_decided();
      return resumed->next_ply;
    }
    initialise();
    initialised_here_ = true;
    count_decided();
    report(0, /*already_counted=*/true);
    if (Status s = after_pass(0); !s) return s.error();
    return 0;
  }

  // The state a checkpoint gives (SolveOptions::resume), once its values agree with it
  // (gen/resume_check.h); nothing to start afresh.
  std::optional<SolverState> resume() {
    if (!options_.resume) return std::nullopt;
    std::optional<SolverState> resumed = options_.resume(store_->values());
    store_->adopt_filled_values();
    if (!resumed) return resumed;
    auto inside = [this](int member, const Position& after, Move m, const UndoRecord& undo,
                         std::pair<int, std::uint64_t>& out) {
      Entry e;
      if (!component_.lands_inside(member, after, m, undo, true, e)) return false;
      out = {e.table(), e.index()};
      return true;
    };
    const std::string why = resumed_values_disagree(members_, rules_, *resumed, store_->values(), !Spread, inside);
    if (!why.empty()) {
      if (options_.on_resume_checked)
        options_.on_resume_checked(*resumed, "the checkpoint's values disagree with its state (" + why + ")");
      resumed.reset();  // the initialisation overwrites every value
    }
    return resumed;
  }

  // Pass "initialise": every entry's first value (SPEC 5, gen/solver.h).
  void initialise() {
    // Each thread walks runs of consecutive entries, decoded through its cursor.
    auto initialise_entry = [&](int member, int side, std::uint64_t i) {
      store_->store(Entry::of(member, side, i), initial_value(member, Color(side), i, thread_cursor(member)));
    };
    auto progress = [&](std::uint64_t done, std::uint64_t total) {
      if (options_.on_initialising) options_.on_initialising(done, total);
    };
    if (const std::vector<Indexer::Run> runs = king_pair_runs(); !runs.empty())
      store_->for_all_entries_in_runs(runs, initialise_entry, progress);
    else
      store_->for_all_entries(initialise_entry, progress);
    store_->settle_overflow();
  }

  // The order in which the initialisation takes the entries of a pawn table of one member
  // solved in one process: a king pair's entries at a time, the pairs with the same images
  // under all 8 board symmetries one after the other (Indexer::king_pair_runs_by_full_images).
  // A promotion reaches a pawnless table, read through its blocks, at the image of the king
  // pair: taken in index order, the up to four pairs with one image are far apart and the
  // blocks cached for the first are gone when the next comes (orthodox KRPvKR: 47,260 block
  // decompressions for 25,822 distinct blocks). Empty, for index order: a table with the
  // full group (nothing to gain), a component of several members or a spread solve (whose
  // own entries are one range of index order).
  std::vector<Indexer::Run> king_pair_runs() const {
    const Indexer& indexer = *members_[0];
    if (Spread || members_.size() > 1 || indexer.symmetry_count() == 8) return {};
    return indexer.king_pair_runs_by_full_images();
  }

  // Pass n of "propagate": the entries mated in n plies (losses when n is even, wins when
  // odd) pass their value on to their predecessors. Partitioned, updates of other
  // processes' entries are buffered and exchanged when the buffers fill and at the end of
  // the pass.
  Status propagate(int n) {
    // The pass scans n and offers n + 1.
    store_->hold_mates_up_to(n + 1);
    store_->reset_resolved();
    int pulled = 0, split = 0;
    for (Color side : {WHITE, BLACK}) {
      if (n % 2 == 0 && pulling_pays(side, n)) {
        pull_wins(~side, n);
        ++pulled;
        // The scan of the losses without work: their blocks' minima move past n.
        store_->for_entries_with<Spread>(
            side, value::mate_in_plies(n), [](int, int, std::uint64_t) {}, [&] { exchange_if_full(n); });
        continue;
      }
      if (n % 2 == 1 && wins_split(side)) {
        const Indexer& indexer = *members_[0];
        store_->for_entries_with_split(
            side, value::mate_in_plies(n), [&](std::uint64_t i) { return indexer.colour_parity(i, side); },
            [&](int member, int side_to_move, std::uint64_t i) {
              propagate_win(member, Color(side_to_move), i, n, /*exclusive=*/true);
            });
        ++split;
        continue;
      }
      store_->for_entries_with<Spread>(
          side, value::mate_in_plies(n),
          [&](int member, int side_to_move, std::uint64_t i) {
            if (n % 2 == 0)
              propagate_loss(member, Color(side_to_move), i, n);
            else
              propagate_win(member, Color(side_to_move), i, n, omp_get_num_threads() == 1);
          },
          [&] { exchange_if_full(n); });
    }
    if (Spread) exchange(n);
    store_->settle_overflow();  // losses longer than a byte holds (through long exits)
    report(n + 1, false, pulled, split);
    return after_pass(n + 1);
  }

  // The solved tables, after `passes` passes.
  std::vector<SolvedTable> tables(int passes) {
    std::vector<SolvedTable> out(members_.size());
    for (std::size_t m = 0; m < members_.size(); ++m) {
      out[m].values = std::move(store_->values()[m]);
      out[m].range = store_->range(int(m));
      out[m].passes = passes;
    }
    return out;
  }

  // After initialisation and after each pass: the processes agree on the longest mate
  // found and on whether to go on (a failure or a cancellation anywhere stops all), then
  // the state goes to the checkpoint writer, then a cancellation is honoured.
  Status after_pass(int next_ply) {
    bool stopping = options_.cancelled && options_.cancelled();
    std::vector<std::int64_t> shared{store_->max_plies(), error_ ? 1 : 0, stopping ? 1 : 0};
    if (Status s = partition_->max(shared); !s) return s;
    store_->set_max_plies(int(shared[0]));
    if (error_) return *error_;
    if (shared[1]) return error(ErrorKind::Internal, "another process of the solve failed (its own message says why)");
    stopping = shared[2] != 0;
    if (options_.after_pass)
      if (Status s = options_.after_pass(SolverState{next_ply, store_->max_plies()}, store_->values(), stopping); !s)
        return s;
    if (stopping) return error(ErrorKind::Interrupted, "interrupted before pass " + std::to_string(next_ply));
    return Ok{};
  }

  // A partitioned solve resumes only when every process found its checkpoint at one
  // state; otherwise every process starts afresh.
  Status agree_on_resume(std::optional<SolverState>& resumed) {
    if (!Spread) return Ok{};
    const std::int64_t next = resumed ? resumed->next_ply : -1, max = resumed ? resumed->max_plies : -1;
    std::vector<std::int64_t> bounds{next, -next, max, -max};  // maxima and minima
    if (Status s = partition_->max(bounds); !s) return s;
    if (resumed && (bounds[0] != -bounds[1] || bounds[2] != -bounds[3])) {
      // Started afresh with the others, and said so (it once said it resumed, and did not).
      if (options_.on_resume_checked)
        options_.on_resume_checked(*resumed, "the other processes' checkpoints are not all at this pass");
      resumed.reset();
    }
    return Ok{};
  }

  // Whether the entry belongs to this process (always, unless partitioned).
  bool owns(Entry e) const {
    if constexpr (!Spread) return true;
    return store_->owns(e);
  }

  // Buffers an update of an entry another process owns (the pass says which update).
  void send(Entry e) { exchange_.send(e, store_->owner(e)); }

  // Exchanges the buffered updates if some process holds more than the limit. Collective.
  void exchange_if_full(int n) {
    Expected<bool> full = exchange_.full();
    if (!full) return fail(full.error());
    if (*full) exchange(n);
  }

  // Sends every buffered update to its owner and applies those received: in a pass of
  // losses (n even) a win in n + 1 offered to the entry, in a pass of wins one successor
  // fewer not yet won by the opponent. Collective.
  void exchange(int n) {
    Expected<std::vector<std::uint64_t>> received = exchange_.swap();
    if (!received) return fail(received.error());
    const std::int64_t count = std::int64_t(received->size());
    const ValueCode win = value::mate_in_plies(n + 1);
#pragma omp parallel for schedule(dynamic, 1024) num_threads(threads())
    for (std::int64_t k = 0; k < count; ++k) {
      const Entry e{(*received)[std::size_t(k)]};
      if (!owns(e)) {
        fail("an update for an entry this process does not own");
        continue;
      }
      if (n % 2 == 0) {
        store_->offer_win(e, win);
      } else {
        if (value::counts_down(store_->load(e))) take_successor(e, n, /*alone=*/false);
      }
    }
  }

  void fail(Error e) {
    std::lock_guard lock(error_mutex_);
    if (!error_) error_ = std::move(e);
  }
  void fail(const std::string& message) { fail(error(ErrorKind::Internal, message)); }

  // Tells the caller what the pass resolved; `already_counted`: decided_ includes it.
  void report(int plies, bool already_counted = false, int pulled = 0, int split = 0) {
    SolveProgress progress{plies, 0, store_->resolved()};
    if (Status s = partition_->sum(progress.by_member); !s) fail(s.error());
    for (std::uint64_t n : progress.by_member) progress.resolved += n;
    std::vector<std::uint64_t> sent{exchange_.take_sent()};
    if (Status s = partition_->sum(sent); !s) fail(s.error());
    progress.sent = sent[0];
    if (!already_counted) decided_ += progress.resolved;
    progress.decided = decided_;
    progress.value_bytes = store_->bytes_per_entry();
    progress.pulled = pulled;
    progress.split = split;
    for (const Indexer* m : members_) progress.entries += 2 * m->size();
    if (options_.on_pass) options_.on_pass(progress);
  }

  // The entries already decided (not open), over every process: after initialisation or
  // a resume.
  void count_decided() {
    std::vector<std::uint64_t> all{store_->count_decided()};
    if (Status s = partition_->sum(all); !s) fail(s.error());
    decided_ = all[0];
  }

  ValueCode initial_value(int member, Color side, std::uint64_t i, Indexer::Cursor& cursor) {
    const Indexer& indexer = *members_[member];
    // Under orthodox legality the quiet moves of kings, leapers and sliders come as
    // bitboards: counted when moves reach distinct entries (most positions), indexed by
    // the indexer's shortcuts when they may not; the rest is listed.
    SplitMoves split;
    // The cursor's position: every move made on it below is unmade.
    Position* decoded = indexer.decode_in_place(i, side, cursor);
    if (!decoded || !legal_moves_if_legal(*decoded, split)) return value::Illegal;
    Position& pos = *decoded;
    // Two moves can lead to one entry through a symmetry (moves_may_share_entries), and
    // with magic units through two promotion choices that give the same unit after mutation.
    const bool may_share_entries = moves_may_share_entries(member, pos, pos.king_square(~side)) || pos.magic_pieces();
    const MoveList& moves = split.listed;
    const int quiet_moves = split.quiet_count();
    if (moves.empty() && !quiet_moves) return king_in_check(pos, side, rules_) ? value::mate_in_plies(0) : value::Draw;
    std::uint64_t successors[MoveList::Capacity];
    int inside = may_share_entries ? quiet_successor_indices(member, pos, i, split, successors) : quiet_moves;
    int shortest_win = INT_MAX, longest_loss = -1;
    bool draw_exit = false;
    for (Move m : moves) {
      if (quiet(pos, m)) {
        // Stays in the material; its entry is needed only when entries may repeat.
        std::uint64_t entry = 0;
        if (may_share_entries) {
          Position after = pos;
          UndoRecord undo;
          after.do_move(m, undo);
          entry = indexer.index_after_move(i, pos, after, m.from(), m.to());
        }
        successors[inside++] = entry;
        continue;
      }
      UndoRecord undo;
      make_move(pos, m, undo, rules_);
      Entry entry;
      if (component_.lands_inside(member, pos, m, undo, may_share_entries, entry)) {
        successors[inside++] = entry.code;
      } else {
        Expected<ValueCode> v = exits_.value(member, pos, m, undo);
        if (!v) {
          fail(v.error());
          return value::Unknown;
        }
        if (value::is_win(*v))
          shortest_win = std::min(shortest_win, value::plies(*v));
        else if (value::is_loss(*v))
          longest_loss = std::max(longest_loss, value::plies(*v));
        else
          draw_exit = true;
      }
      pos.undo_move(m, undo);
    }
    if (shortest_win != INT_MAX) return value::mate_in_plies(shortest_win);
    if (!inside) return draw_exit ? value::Draw : value::mate_in_plies(longest_loss);
    int distinct = inside;
    if (may_share_entries) {
      std::sort(successors, successors + inside);
      distinct = int(std::unique(successors, successors + inside) - successors);
    }
    if (distinct >= value::NeverLost) {
      fail("a position of " + indexer.material().name() + " has more than 254 successors: " + to_fen(pos));
      return value::Unknown;
    }
    return value::open(draw_exit ? value::NeverLost : distinct);
  }

  // The legal moves of a position not known to be legal as split_legal_moves() splits
  // them, or all of them listed (and no quiet targets) where it does not apply; false
  // (`out` not set) when it is illegal. The split under borrowed walks finds that from the
  // walks it asks anyway.
  bool legal_moves_if_legal(const Position& pos, SplitMoves& out) const {
    const SplitOutcome outcome = split_legal_moves_if_legal(pos, rules_, out);
    if (outcome == SplitOutcome::NotSplit) list_legal_moves(pos, out);
    return outcome != SplitOutcome::IllegalPosition;
  }
  // All the legal moves of `pos` listed, no quiet targets.
  void list_legal_moves(const Position& pos, SplitMoves& out) const {
    out.units = 0;
    out.listed.clear();
    generate_legal(pos, rules_, out.listed);
  }

  // The indices (in `member`, the opponent to move) reached by the quiet moves of `split`
  // from `pos`, entry i.
  int quiet_successor_indices(int member, const Position& pos, std::uint64_t i, const SplitMoves& split,
                              std::uint64_t* out) const {
    const Indexer& indexer = *members_[member];
    Position after = pos;
    after.set_side_to_move(~pos.side_to_move());
    after.set_ep_square(SQ_NONE);
    int count = 0;
    for (int u = 0; u < split.units; ++u) {
      const Square from = split.from[u];
      const Piece unit = pos.piece_on(from);
      UnitMoveShortcuts shortcuts(indexer, pos, i, unit);
      for (Bitboard targets = split.quiet_targets[u]; targets;)
        out[count++] = index_after_unit_move(indexer, pos, i, after, unit, from, pop_lsb(targets), shortcuts);
    }
    return count;
  }

  // Whether two moves of `pos` by one side (or two un-moves) may reach one entry; `still`:
  // the king of the other side, which moves in none. Positions X != Y share an entry only
  // when a board symmetry h maps X onto Y. Each differs from `pos` by the square of one
  // moved unit, so every other unit alone of its kind stands on a square h leaves in place,
  // among them `still`: all units but at most two. Only the reflections in the long
  // diagonals leave squares in place (with the full group). Where identical units may be
  // swapped by h, only the king test applies. Without such an h every move reaches its own
  // entry, and the caller needs neither the successors' indices nor a sort.
  bool moves_may_share_entries(int member, const Position& pos, Square still) const {
    const SymmetryLines& symmetries = symmetry_lines_[member];
    for (Bitboard line : symmetries.lines)
      if ((line & square_bb(still)) && (symmetries.identical_units || popcount(pos.pieces() & ~line) <= 2)) return true;
    return false;
  }

  // A position with more predecessors than the collecting arrays hold (MaxPredecessors).
  void fail_too_many_predecessors(const Position& pos) {
    fail("more than " + std::to_string(MaxPredecessors) + " predecessors of " + to_fen(pos));
  }

  // The entries of the predecessors of `pos` (entry i of `member`, `side` to move), with
  // their values prefetched: the look-ups land all over the tables, and issuing them
  // together lets the memory system serve them in parallel. Illegal predecessors hold
  // Illegal in the table and are never updated, so the retro generator need not test
  // their legality. Predecessors in materials outside the component (solved later, they
  // read this one as a sub-table) are left out.
  // `unmoves` (when not null): the un-move that gave each, where one unit went back.
  int collect_predecessors(int member, const Position& pos, std::uint64_t i, Color side, Entry* out,
                           Unmove* unmoves = nullptr) {
    if (simple_unmoves_suffice(pos, rules_))
      return unmoves ? collect_simple_predecessors<true>(member, pos, i, side, out, unmoves)
                     : collect_simple_predecessors<false>(member, pos, i, side, out, nullptr);
    const Indexer& indexer = *members_[member];
    // Without magic units a predecessor is in the same material, its index by arithmetic.
    // Across mutations it may belong to another member; every member of a component has
    // the same symmetry group (run() checks it), so the predecessors of the canonical image
    // are all there are, up to symmetry.
    const bool mutations = pos.magic_pieces();
    int count = 0;
    for_each_predecessor<false>(pos, rules_, [&](const Position& before, Square from, Square to) {
      if (count == MaxPredecessors) {
        fail_too_many_predecessors(pos);
        return;
      }
      Entry e;
      if (!mutations)
        e = Entry::of(member, ~side, indexer.index_after_move(i, pos, before, to, from));
      else if (!component_.locate(before, e))
        return;  // a material solved after this component
      if (owns(e)) store_->prefetch(e);
      if (unmoves) unmoves[count] = Unmove::unknown();  // an en-passant square or mutations
      out[count++] = e;
    });
    return count;
  }

  // collect_predecessors() when the un-moves are simple: those of kings, knights, bishops,
  // rooks, queens and the pawn walk that change nothing but the unit's square
  // (rules/retro.h, for_each_simple_unmove): the index of most follows
  // by arithmetic; and their variants where the side that moved last could have taken a
  // pawn en passant (for_each_en_passant_variant), indexed in full: few positions have them.
  // Orthodox tables of the default suite (KQvKR, KRvK, KBNvK) are verified
  // entry by entry, and the slow suite checks all 35 published tables; the fairy ones are
  // verified per condition.
  template <bool Unmoves>
  int collect_simple_predecessors(int member, const Position& pos, std::uint64_t i, Color side, Entry* out,
                                  Unmove* unmoves) {
    const Indexer& indexer = *members_[member];
    const Color mover = ~side;
    const Bitboard double_steps = double_step_pawns_before(pos, rules_);
    // The working copy of the un-moves and of index_after_unit_move().
    Position before = pos;
    before.set_side_to_move(mover);
    int count = 0;
    auto add = [&](Entry e, Unmove unmove) {
      if (count == MaxPredecessors) {
        fail_too_many_predecessors(pos);
        return false;
      }
      if (owns(e)) store_->prefetch(e);
      if constexpr (Unmoves) unmoves[count] = unmove;
      out[count++] = e;
      return true;
    };
    // The entries of a unit alone in its group differ from i by a multiple of its stride:
    // computed and prefetched in a loop of their own (the most common un-moves), without the
    // general loop's bookkeeping per un-move (8-12% of an orthodox KQRvKR solve). Not with
    // en-passant variants to add, nor spread (each entry's owner decides its prefetch).
    const std::uint64_t prefix = Entry::of(member, mover, 0).code;
    const ValueStore::Slots slots = store_->slots(Entry{prefix}.table());
    for_each_simple_unmove(pos, rules_, before, [&](Piece unit, Square to, Bitboard origins) {
      UnitMoveShortcuts shortcuts(indexer, pos, i, unit);
      const std::uint64_t stride = shortcuts.stride;
      if (stride && !double_steps && !Spread) {
        const int n = popcount(origins);
        if (count + n > MaxPredecessors) {
          fail_too_many_predecessors(pos);
          return;
        }
        Entry* next = out + count;
        Unmove* unmove = Unmoves ? unmoves + count : nullptr;
        const std::uint64_t at_to = i - std::uint64_t(to) * stride;  // the unit on a1 (modulo 2^64)
        for (; origins; ++next) {
          const Square from = pop_lsb(origins);
          const std::uint64_t index = at_to + std::uint64_t(from) * stride;
          slots.prefetch(index);
          next->code = prefix | index;
          if constexpr (Unmoves) *unmove++ = {from, to};
        }
        count += n;
        return;
      }
      while (origins) {
        const Square from = pop_lsb(origins);
        // The unit on `to` goes back to `from`.
        bool room =
            add(Entry::of(member, mover, index_after_unit_move(indexer, pos, i, before, unit, to, from, shortcuts)),
                Unmove{from, to});
        if (room && double_steps) {
          before.move_piece(to, from);
          // With an en-passant square: not one unit gone back alone.
          for_each_en_passant_variant(before, rules_, double_steps, [&] {
            room = room && add(Entry::of(member, mover, indexer.index(before)), Unmove::unknown());
          });
          before.move_piece(from, to);
        }
        if (!room) return;
      }
    });
    return count;
  }

  // The decoding cursor of this thread for `member`: the initialisation walks runs of
  // consecutive entries, and a pass visits the entries of a block in index order, so
  // neighbours decoded one after the other share their outer units.
  Indexer::Cursor& thread_cursor(int member) {
    return cursors_[std::size_t(omp_get_thread_num()) * members_.size() + std::size_t(member)];
  }

  // The position of an entry a pass scans (it holds a mate value, so it is a position), in
  // this thread's cursor.
  const Position* decode_scanned(int member, Color side, std::uint64_t i) {
    const Position* pos = members_[member]->decode_in_place(i, side, thread_cursor(member));
    if (!pos)
      fail("entry " + std::to_string(i) + " of " + members_[member]->material().name() +
           " holds a mate value but is no position");
    return pos;
  }

  // Whether two threads split the wins of `side` in a pass by their colour parity
  // (Indexer::colour_parity): the predecessors of a win, reached by un-moves of the other
  // side, have the units of `side` where they were (up to a board symmetry), so each
  // thread takes the counts of entries no other thread touches, without locked
  // instructions (orthodox KQRvKR, two threads: the passes of wins 25% faster). Not with
  // magic units (a mutation changes the units of `side`) nor across members or processes.
  // (Handing each count to a thread that owns its entry, tried earlier, cost more than
  // the locks: the entries then travel between the cores' caches.)
  bool wins_split(Color side) const {
    return !Spread && threads() == 2 && members_.size() == 1 && !members_[0]->material().has_magic() &&
           members_[0]->has_colour_parity(side);
  }

  // Whether the pass of losses in n plies pulls those of `side` (pull_wins) rather than
  // pushing them (propagate_loss): the same values, from the other end. Pulling pays late
  // in a solve, when the side that wins has few entries left undecided and the other has
  // many losses, each with dozens of predecessors mostly decided already (orthodox KQRvKR,
  // pass 12: 10.9 M black losses, 4.6 M white candidates; pushed 4.75 s, pulled 1.81 s on
  // one thread). Losses are counted as stored (ValueStore::losses); the candidates are
  // counted again only when the last count (an upper bound: they only ever decrease) does
  // not already decide.
  //
  // A move into a member stored in the other orientation keeps the side to move of the
  // entries (locate()): the losses of one side then have predecessors on both sides, and
  // pulling the losses of one side while pushing the other's would miss those. Such
  // components (6 men with magic units and more) always push; the initialisation, which
  // locates every move between members, finds them (a resumed solve does not look).
  bool pulling_pays(Color side, int n) {
    if (members_.size() > 1 && (!initialised_here_ || component_.flips_seen())) return false;
    const LossPassChoice& choice = options_.loss_passes;
    const std::uint64_t losses = store_->losses(side, n);
    if (Spread || losses == 0 || losses < choice.minimum_losses || !std::isfinite(choice.pull_cost)) return false;
    std::uint64_t& candidates = pull_candidates_[~side];
    if (double(candidates) * choice.pull_cost >= double(losses))
      candidates = store_->count_entries_above(~side, value::mate_in_plies(n + 1));
    return double(candidates) * choice.pull_cost < double(losses);
  }

  // Each entry of `side` that is open or wins later than in n + 1 plies (through an exit)
  // wins in n + 1 if one of its moves reaches a loss in n plies.
  void pull_wins(Color side, int n) {
    const ValueCode loss = value::mate_in_plies(n), win = value::mate_in_plies(n + 1);
    pull_candidates_[side] = store_->for_entries_above(side, win, [&](int member, std::uint64_t i) {
      const Entry e = Entry::of(member, side, i);
      if (value::is_loss(store_->load(e))) return;  // decided: a loss longer than n + 1 through exits
      const Position* pos = members_[member]->decode_in_place(i, side, thread_cursor(member));
      SplitMoves split;
      if (!pos || !legal_moves_if_legal(*pos, split))
        return fail("entry " + std::to_string(i) + " of " + members_[member]->material().name() +
                    " may still win sooner but is no legal position");
      Entry next[MoveList::Capacity];
      const int count = successor_entries(member, *pos, i, split, next);
      for (int k = 0; k < count; ++k)
        if (store_->load(next[k]) == loss) return store_->store(e, win);
    });
  }

  // The entries inside the component that the moves `split` gives of `pos` (entry i of
  // `member`) reach, with their values prefetched; their number. Moves out of the
  // component (to the sub-tables) are left out.
  int successor_entries(int member, const Position& pos, std::uint64_t i, const SplitMoves& split, Entry* out) {
    const Indexer& indexer = *members_[member];
    const Color side = pos.side_to_move();
    std::uint64_t indices[MoveList::Capacity];
    const int quiet_targets = quiet_successor_indices(member, pos, i, split, indices);
    int count = 0;
    for (int k = 0; k < quiet_targets; ++k) out[count++] = Entry::of(member, ~side, indices[k]);
    for (Move m : split.listed) {
      Position after = pos;
      UndoRecord undo;
      if (quiet(pos, m)) {
        after.do_move(m, undo);
        out[count++] = Entry::of(member, ~side, indexer.index_after_move(i, pos, after, m.from(), m.to()));
        continue;
      }
      make_move(after, m, undo, rules_);
      if (component_.lands_inside(member, after, m, undo, true, out[count])) ++count;
    }
    for (int k = 0; k < count; ++k) store_->prefetch(out[k]);
    return count;
  }

  // Every predecessor of a position lost in n plies wins in n + 1, unless it wins faster.
  void propagate_loss(int member, Color side, std::uint64_t i, int n) {
    const Position* decoded = decode_scanned(member, side, i);
    if (!decoded) return;
    const Position& pos = *decoded;
    const ValueCode win = value::mate_in_plies(n + 1);
    Entry found[MaxPredecessors];
    int count = collect_predecessors(member, pos, i, side, found);
    for (int k = 0; k < count; ++k) {
      if (owns(found[k]))
        store_->offer_win(found[k], win);
      else
        send(found[k]);
    }
  }

  // Each unresolved predecessor entry of a position won in n plies has one successor
  // entry fewer that is not yet a win for the opponent; at none left, it is lost.
  // Counting entries (not moves) keeps the count right for symmetric positions: the
  // predecessor entries of an entry are exactly the entries that have it as a successor.
  // `exclusive`: no other thread takes successors of the entries this one does.
  void propagate_win(int member, Color side, std::uint64_t i, int n, bool exclusive) {
    const Position* decoded = decode_scanned(member, side, i);
    if (!decoded) return;
    const Position& pos = *decoded;
    Entry found[MaxPredecessors];
    Unmove unmoves[MaxPredecessors];
    int all = collect_predecessors(member, pos, i, side, found, unmoves);
    // Simple un-moves give distinct positions, which share an entry only as
    // moves_may_share_entries() says (the king of `side` moved in neither): otherwise every
    // entry found is distinct and needs no comparison with the others.
    const bool may_repeat =
        !simple_unmoves_suffice(pos, rules_) || moves_may_share_entries(member, pos, pos.king_square(side));
    int count = 0, away = 0;
    // Own entries: the unresolved ones, once each. Other processes' entries: once each,
    // the owner filters them (found[] is disjoint from away[]: ownership splits them).
    Entry elsewhere[Spread ? MaxPredecessors : 1];
    for (int k = 0; k < all; ++k) {
      Entry e = found[k];
      if (!owns(e)) {
        bool repeated = false;
        for (int d = 0; d < away && may_repeat && !repeated; ++d) repeated = elsewhere[d].code == e.code;
        if (!repeated) elsewhere[away++] = e;
        continue;
      }
      if (!value::counts_down(store_->load(e))) continue;
      bool repeated = false;
      for (int d = 0; d < count && may_repeat && !repeated; ++d) repeated = found[d].code == e.code;
      if (repeated) continue;
      unmoves[count] = unmoves[k];
      found[count++] = e;
    }
    for (int k = 0; k < away; ++k) send(elsewhere[k]);
    // A thread that alone takes the counts of these entries does so without the locked
    // instruction of an atomic decrement (5% of an orthodox solve on one thread; for two
    // threads see wins_split()).
    for (int k = 0; k < count; ++k) take_successor(found[k], n, exclusive, &pos, unmoves[k]);
  }

  // One successor entry of the unresolved entry `e` fewer; the thread that takes the count
  // to zero resolves it as lost in 1 + the longest of its moves (n plies inside).
  // `alone`: no other thread writes values meanwhile. `won` and `unmove` (when known): the
  // position won whose predecessor `e` is, and the un-move between them; the position lost
  // is then `won` with that unit gone back (up to a board symmetry, which changes no
  // value), without decoding the entry (its decode was 6% of an orthodox solve's passes of
  // wins).
  void take_successor(Entry e, int n, bool alone, const Position* won = nullptr, Unmove unmove = Unmove::unknown()) {
    const ValueCode old = alone ? store_->take_successor_alone(e) : store_->take_successor(e);
    if (value::open_successors(old) > 1) return;
    Position lost;
    if (won && unmove.known()) {
      lost = *won;
      lost.move_piece(unmove.to, unmove.from);
      lost.set_side_to_move(Color(e.side()));
    } else {
      members_[e.member()]->decode(e.index(), Color(e.side()), lost);
    }
    if (value::open_successors(old) == 0) return fail("successor count below zero at " + to_fen(lost));
    ValueCode loss = loss_value(e.member(), lost, n);
    if (loss != value::Unknown) store_->store(e, loss);
  }

  // The loss value of `pos` (of `member`), whose moves inside the component all lead to
  // wins of the opponent in at most n plies: 1 + the longest of those and of the moves
  // that leave.
  ValueCode loss_value(int member, const Position& pos, int n) {
    if (!may_leave_material(pos, rules_)) return value::mate_in_plies(n + 1);  // (most losses)
    // The quiet moves stay in the material (already counted): only the others matter.
    SplitMoves split;
    if (!split_leaving_moves(pos, rules_, split)) list_legal_moves(pos, split);
    const MoveList& moves = split.listed;
    int longest = n;
    for (Move m : moves) {
      if (quiet(pos, m)) continue;  // stays in the material: already counted
      Position after = pos;
      UndoRecord undo;
      make_move(after, m, undo, rules_);
      Entry inside;
      if (component_.lands_inside(member, after, m, undo, false, inside)) continue;
      Expected<ValueCode> v = exits_.value(member, after, m, undo);
      if (!v) {
        fail(v.error());
        return value::Unknown;
      }
      if (!value::is_loss(*v)) {
        fail("a move leaving " + members_[member]->material().name() +
             " does not lose, yet the position was counted lost: " + to_fen(pos));
        return value::Unknown;
      }
      longest = std::max(longest, value::plies(*v) - 1);
    }
    return value::mate_in_plies(longest + 1);
  }

  const std::vector<const Indexer*>& members_;
  const Rules& rules_;
  const Tablebase& subtables_;
  const SolveOptions& options_;
  std::vector<SymmetryLines> symmetry_lines_;  // per member
  ComponentEntries component_{members_};       // where positions and moves land
  std::vector<Indexer::Cursor> cursors_ =
      std::vector<Indexer::Cursor>(std::size_t(threads()) * members_.size());  // thread_cursor()
  SingleProcess single_;
  Partition* partition_ = options_.partition ? options_.partition : &single_;
  const int ranks_ = partition_->ranks();
  UpdateExchange exchange_;            // updates for other processes' entries
  std::unique_ptr<ValueStore> store_;  // the own entries' values
  ExitTables exits_;                   // the tables the moves out of the component lead to
  std::uint64_t decided_ = 0;          // entries decided so far (SolveProgress::decided)
  // Per side: at most this many entries may win later than the pass offers (pulling_pays),
  // counted when last needed.
  std::uint64_t pull_candidates_[2] = {~std::uint64_t(0), ~std::uint64_t(0)};
  bool initialised_here_ = false;  // not resumed from a checkpoint
  std::mutex error_mutex_;
  std::optional<Error> error_;  // the first failure of any thread
};

}  // namespace

Expected<std::vector<SolvedTable>> solve_component(const std::vector<const Indexer*>& members,
                                                   const Tablebase& subtables, const SolveOptions& options) {
  return subtables.rules().visit([&](const auto& rules) {
    using Rules = std::decay_t<decltype(rules)>;
    if (options.partition && options.partition->ranks() > 1)
      return Solver<Rules, true>(members, rules, subtables, options).run();
    return Solver<Rules, false>(members, rules, subtables, options).run();
  });
}

Expected<SolvedTable> solve(const Indexer& indexer, const Tablebase& subtables, const SolveOptions& options) {
  Expected<std::vector<SolvedTable>> solved = solve_component({&indexer}, subtables, options);
  if (!solved) return solved.error();
  return std::move(solved->front());
}

}  // namespace feerie

#include "gen/solver.h"

#include <omp.h>

#include <atomic>
#include <algorithm>
#include <climits>
#include <mutex>

#include "gen/graph.h"
#include "rules/fen.h"
#include "rules/retro.h"

namespace feerie {

namespace {

template <class Rules>
class Solver {
 public:
  Solver(const Indexer& indexer, const Rules& rules, const Tablebase& subtables, const SolveOptions& options)
      : indexer_(indexer), rules_(rules), subtables_(subtables), options_(options), fixed_squares_(fixed_squares(indexer)) {}

  Expected<SolvedTable> run() {
    if (Status s = load_subtables(); !s) return s.error();
    for (auto& side : values_) side.assign(indexer_.size(), value::Unknown);
    for (auto& side : block_min_) side.assign((indexer_.size() + BlockSize - 1) / BlockSize, NoMate);
    for_all_entries([&](int side, std::uint64_t i) { store(side, i, initial_value(Color(side), i)); });
    if (!error_.empty()) return error(error_);
    report(0);
    int n = 0;
    for (; n <= max_plies_.load(); ++n) {
      for (auto& r : resolved_) r.count = 0;
      for_entries_with(value::mate_in_plies(n), [&](int side, std::uint64_t i) {
        if (n % 2 == 0)
          propagate_loss(Color(side), i, n);
        else
          propagate_win(Color(side), i, n);
      });
      if (!error_.empty()) return error(error_);
      report(n + 1);
    }
    for_all_entries([&](int side, std::uint64_t i) {
      if (value::is_open(load(side, i))) store(side, i, value::Draw);
    });
    SolvedTable out;
    out.values = std::move(values_);
    out.passes = n;
    return out;
  }

 private:
  // Runs f(side, index) over every entry of both sides, in parallel.
  template <class F>
  void for_all_entries(F&& f) {
    const std::int64_t size = std::int64_t(indexer_.size());
    int threads = options_.threads > 0 ? options_.threads : omp_get_max_threads();
    for (int side = 0; side < 2; ++side) {
#pragma omp parallel for schedule(dynamic, 4096) num_threads(threads)
      for (std::int64_t i = 0; i < size; ++i) f(side, std::uint64_t(i));
    }
  }

  // Runs f(side, index) over the entries whose value is `code`, in parallel, skipping the
  // blocks whose smallest pending mate value is larger. A block's minimum is reset when
  // it is scanned and lowered again by the scan and by every store, so values written
  // during the pass (always larger than `code`) are never lost.
  template <class F>
  void for_entries_with(ValueCode code, F&& f) {
    const std::int64_t blocks = std::int64_t(block_min_[0].size());
    const std::uint64_t size = indexer_.size();
    int threads = options_.threads > 0 ? options_.threads : omp_get_max_threads();
    for (int side = 0; side < 2; ++side) {
#pragma omp parallel for schedule(dynamic, 8) num_threads(threads)
      for (std::int64_t b = 0; b < blocks; ++b) {
        std::atomic_ref<ValueCode> block_min(block_min_[side][b]);
        if (block_min.load(std::memory_order_acquire) > code) continue;
        block_min.exchange(NoMate, std::memory_order_acq_rel);
        ValueCode pending = NoMate;
        const std::uint64_t end = std::min(size, std::uint64_t(b + 1) * BlockSize);
        // Mate values above `code`: code < v < OpenBase, one unsigned comparison.
        const unsigned above = code + 1u, span = value::OpenBase - above;
        for (std::uint64_t i = std::uint64_t(b) * BlockSize; i < end; ++i) {
          ValueCode v = load(side, i);
          if (v == code) [[unlikely]] {
            f(side, i);
            continue;
          }
          pending = std::min(pending, unsigned(v) - above < span ? v : NoMate);
        }
        lower_block_min(side, std::uint64_t(b) * BlockSize, pending);
      }
    }
  }

  void lower_block_min(int side, std::uint64_t i, ValueCode v) {
    std::atomic_ref<ValueCode> block_min(block_min_[side][i / BlockSize]);
    ValueCode seen = block_min.load(std::memory_order_relaxed);
    while (v < seen && !block_min.compare_exchange_weak(seen, v, std::memory_order_acq_rel)) {}
  }

  ValueCode load(int side, std::uint64_t i) {
    return std::atomic_ref<ValueCode>(values_[side][i]).load(std::memory_order_relaxed);
  }
  void store(int side, std::uint64_t i, ValueCode v) {
    std::atomic_ref<ValueCode>(values_[side][i]).store(v, std::memory_order_relaxed);
    if (value::is_mate(v)) {
      lower_block_min(side, i, v);
      int p = value::plies(v), seen = max_plies_.load(std::memory_order_relaxed);
      while (p > seen && !max_plies_.compare_exchange_weak(seen, p)) {}
      ++resolved_[omp_get_thread_num() % MaxThreads].count;
    }
  }

  void fail(const std::string& message) {
    std::lock_guard lock(error_mutex_);
    if (error_.empty()) error_ = message;
  }

  void report(int plies) {
    std::uint64_t resolved = 0;
    for (const auto& r : resolved_) resolved += r.count;
    if (options_.on_pass) options_.on_pass(SolveProgress{plies, resolved});
  }

  // Reads every material a move can lead to into memory, once, for lock-free look-ups,
  // and notes for each (mover, captured unit, promotion) which table holds the result
  // and in which orientation.
  Status load_subtables() {
    for (const Material& m : material_successors(indexer_.material(), subtables_.rules())) {
      Expected<std::shared_ptr<const Tablebase::MemoryTable>> t = subtables_.load(m);
      if (!t) return t.error();
      exits_.push_back(*t);
    }
    const Material& own = indexer_.material();
    for (Color mover : {WHITE, BLACK})
      for (int code = 0; code < 64; ++code)
        for (int promotion = 0; promotion < PIECE_TYPE_NB; ++promotion) {
          Piece captured = Piece::from_code(std::uint8_t(code));
          Material m = own;
          if (!captured.empty()) {
            if (captured.type() >= PIECE_TYPE_NB || captured.color() != ~mover || captured.type() == KING ||
                captured.type() == NO_PIECE_TYPE || own.count(captured.color(), captured.type(), captured.magic()) == 0)
              continue;
            m.set_count(captured.color(), captured.type(), captured.magic(),
                        own.count(captured.color(), captured.type(), captured.magic()) - 1);
          }
          if (promotion != NO_PIECE_TYPE) {
            if (own.count(mover, PAWN) == 0 || promotion == PAWN || promotion == KING) continue;
            m.set_count(mover, PAWN, false, m.count(mover, PAWN) - 1);
            m.set_count(mover, PieceType(promotion), false, m.count(mover, PieceType(promotion)) + 1);
          }
          for (const auto& t : exits_)
            if (t->material() == m.canonical_orientation())
              exit_route_[mover][code][promotion] = {t.get(), !m.is_canonical_orientation()};
        }
    return Ok{};
  }

  // The value, for the mover, of a move that leaves the material, found by the unit it
  // captured and its promotion.
  Expected<ValueCode> exit_value(const Position& after, Move m, const UndoRecord& undo) const {
    if (undo.change_count == 0) {
      const ExitRoute& route = exit_route_[~after.side_to_move()][undo.captured.code()][m.promotion()];
      if (route.table) return value_through_move(route.table->value_code(after, route.flipped));
    } else {
      // After-move effects changed units: find the table by the material itself.
      Material material = Material::of(after).canonical_orientation();
      for (const auto& t : exits_)
        if (t->material() == material) return value_through_move(t->value_code(after));
    }
    return error("no sub-table " + Material::of(after).canonical_orientation().name() + " for a move out of " +
                 indexer_.material().name());
  }

  ValueCode initial_value(Color side, std::uint64_t i) {
    Position pos;
    if (!indexer_.decode(i, side, pos) || !is_legal_position(pos, rules_)) return value::Illegal;
    MoveList moves;
    generate_legal(pos, rules_, moves);
    if (moves.empty()) return king_in_check(pos, side, rules_) ? value::mate_in_plies(0) : value::Draw;
    // Two moves can lead to one entry only through a symmetry that fixes a king.
    const bool may_share_entries = symmetry_fixes_a_king(pos);
    int inside = 0, shortest_win = INT_MAX, longest_loss = -1;
    bool draw_exit = false;
    std::uint64_t successors[MoveList::Capacity];
    for (Move m : moves) {
      if (quiet(pos, m)) {
        // Stays in the material; its entry is needed only when entries may repeat.
        std::uint64_t entry = 0;
        if (may_share_entries) {
          Position after = pos;
          UndoRecord undo;
          after.do_move(m, undo);
          entry = indexer_.index_after_move(i, pos, after, m.from(), m.to());
        }
        successors[inside++] = entry;
        continue;
      }
      UndoRecord undo;
      make_move(pos, m, undo, rules_);
      if (keeps_material(m, undo, pos)) {
        successors[inside++] = may_share_entries ? indexer_.index(pos) : 0;
      } else {
        Expected<ValueCode> v = exit_value(pos, m, undo);
        if (!v) {
          fail(v.error_message());
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
      fail("a position of " + indexer_.material().name() + " has more than 254 successors: " + to_fen(pos));
      return value::Unknown;
    }
    return value::open(draw_exit ? value::NeverLost : distinct);
  }

  // Whether a board symmetry other than the identity leaves a king of `pos` in place.
  // Two successors X and g(X) of one position differ by one moved unit, so g fixes the
  // king that did not move; without such a g every move reaches its own entry.
  bool symmetry_fixes_a_king(const Position& pos) const {
    return fixed_squares_ & (square_bb(pos.king_square(WHITE)) | square_bb(pos.king_square(BLACK)));
  }

  // The squares some board symmetry other than the identity leaves in place (the two long
  // diagonals with the full group, none with the mirror only).
  static Bitboard fixed_squares(const Indexer& indexer) {
    Bitboard fixed = 0;
    for (int t = 1; t < indexer.symmetry_count(); ++t)
      for (int s = 0; s < SQUARE_NB; ++s)
        if (Indexer::transform(t, Square(s)) == Square(s)) fixed |= square_bb(Square(s));
    return fixed;
  }

  // A move known to keep the material without playing it: no capture, no promotion, and
  // rules without after-move effects.
  bool quiet(const Position& pos, Move m) const {
    if constexpr (!Rules::OrthodoxLegality) return false;
    return m.promotion() == NO_PIECE_TYPE && m.kind() != MoveKind::EN_PASSANT &&
           m.kind() != MoveKind::LOCUST_CAPTURE && pos.empty(m.to());
  }

  bool keeps_material(Move m, const UndoRecord& undo, const Position& after) const {
    if (undo.captured.empty() && m.promotion() == NO_PIECE_TYPE && undo.change_count == 0) return true;
    return Material::of(after) == indexer_.material();
  }

  // The entries of the predecessors of `pos` (entry i of `side`), with their values
  // prefetched: the look-ups land all over the table, and issuing them together lets
  // the memory system serve them in parallel. Illegal predecessors hold Illegal in the
  // table and are never updated, so the retro generator need not test their legality.
  int collect_predecessors(const Position& pos, std::uint64_t i, Color side, std::uint64_t* out) {
    if constexpr (Rules::ExactRetroWalks) {
      Color mover = ~side;
      if (pos.ep_square() == SQ_NONE &&
          !(pos.pieces(mover) & (pos.pieces(PAWN) | pos.pieces(GRASSHOPPER) | pos.pieces(LOCUST))))
        return collect_leaper_slider_predecessors(pos, i, side, out);
    }
    int count = 0;
    for_each_predecessor<false>(pos, rules_, [&](const Position& before, Square from, Square to) {
      if (count == int(MoveList::Capacity)) {
        fail("more than 512 predecessors of " + to_fen(pos));
        return;
      }
      std::uint64_t j = indexer_.index_after_move(i, pos, before, to, from);
      __builtin_prefetch(&values_[~side][j]);
      out[count++] = j;
    });
    return count;
  }

  // collect_predecessors() when the units to un-move are kings, knights, bishops, rooks
  // and queens under exact retro walks (orthodox chess) and no en passant is involved
  // (the mover has no pawn to take one with): every empty square a unit's reversed walk
  // reaches is a predecessor, and the index of most follows by arithmetic, without
  // building the position. Orthodox tables of the default suite (KQvKR, KRvK, KBNvK)
  // are verified entry by entry, and the slow suite checks all 35 published tables.
  int collect_leaper_slider_predecessors(const Position& pos, std::uint64_t i, Color side, std::uint64_t* out) {
    int count = 0;
    Color mover = ~side;
    const Bitboard occupied = pos.pieces();
    const Square other_king = pos.king_square(side);
    Position before = pos;
    before.set_side_to_move(mover);
    for (Bitboard units = pos.pieces(mover); units;) {
      Square to = pop_lsb(units);
      Piece unit = pos.piece_on(to);
      Bitboard origins = leaper_or_slider_bb(unit.type(), to, occupied) & ~occupied;
      if (unit.type() == KING && !rules_.kings_may_touch()) origins &= ~king_bb(other_king);
      const std::uint64_t stride = unit.type() == KING ? 0 : indexer_.unit_stride(pos, i, unit);
      for (; origins; ++count) {
        Square from = pop_lsb(origins);
        if (count == int(MoveList::Capacity)) {
          fail("more than 512 predecessors of " + to_fen(pos));
          return count;
        }
        std::uint64_t j = Indexer::NoShortcut;
        if (stride) {
          j = i + std::uint64_t(std::int64_t(from) - std::int64_t(to)) * stride;
        } else if (unit.type() == KING) {
          Square wk = mover == WHITE ? from : pos.king_square(WHITE), bk = mover == BLACK ? from : pos.king_square(BLACK);
          j = indexer_.index_after_king_move(i, pos, wk, bk);
        }
        if (j == Indexer::NoShortcut) {
          before.move_piece(to, from);
          j = indexer_.index_after_move(i, pos, before, to, from);
          before.move_piece(from, to);
        }
        __builtin_prefetch(&values_[mover][j]);
        out[count] = j;
      }
    }
    return count;
  }

  // Every predecessor of a position lost in n plies wins in n + 1, unless it wins faster.
  void propagate_loss(Color side, std::uint64_t i, int n) {
    Position pos;
    indexer_.decode(i, side, pos);
    const ValueCode win = value::mate_in_plies(n + 1);
    std::uint64_t found[MoveList::Capacity];
    int count = collect_predecessors(pos, i, side, found);
    for (int k = 0; k < count; ++k) {
      ValueCode v = load(~side, found[k]);
      if (value::is_open(v) || (value::is_win(v) && v > win)) store(~side, found[k], win);
    }
  }

  // Each unresolved predecessor entry of a position won in n plies has one successor
  // entry fewer that is not yet a win for the opponent; at none left, it is lost.
  // Counting entries (not moves) keeps the count right for symmetric positions: the
  // predecessor entries of an entry are exactly the entries that have it as a successor.
  void propagate_win(Color side, std::uint64_t i, int n) {
    Position pos;
    indexer_.decode(i, side, pos);
    std::uint64_t found[MoveList::Capacity];
    int all = collect_predecessors(pos, i, side, found);
    int count = 0;
    for (int k = 0; k < all; ++k) {
      std::uint64_t j = found[k];
      ValueCode v = load(~side, j);
      if (!value::is_open(v) || value::open_successors(v) == value::NeverLost) continue;
      bool repeated = false;
      for (int d = 0; d < count && !repeated; ++d) repeated = found[d] == j;
      if (!repeated) found[count++] = j;
    }
    for (int k = 0; k < count; ++k) {
      // One successor entry fewer; the thread that takes the count to zero resolves it.
      std::atomic_ref<ValueCode> entry(values_[~side][found[k]]);
      ValueCode old = entry.load(std::memory_order_relaxed);
      while (!entry.compare_exchange_weak(old, ValueCode(old - 1), std::memory_order_relaxed)) {}
      if (value::open_successors(old) > 1) continue;
      Position lost;
      indexer_.decode(found[k], ~side, lost);
      if (value::open_successors(old) == 0) {
        fail("successor count below zero at " + to_fen(lost));
        continue;
      }
      ValueCode loss = loss_value(lost, n);
      if (loss != value::Unknown) store(~side, found[k], loss);
    }
  }

  // The loss value of `pos`, whose moves inside the material all lead to wins of the
  // opponent in at most n plies: 1 + the longest of those and of the moves that leave.
  ValueCode loss_value(const Position& pos, int n) {
    MoveList moves;
    generate_legal(pos, rules_, moves);
    int longest = n;
    for (Move m : moves) {
      if (quiet(pos, m)) continue;  // stays in the material: already counted
      Position after = pos;
      UndoRecord undo;
      make_move(after, m, undo, rules_);
      if (keeps_material(m, undo, after)) continue;
      Expected<ValueCode> v = exit_value(after, m, undo);
      if (!v) {
        fail(v.error_message());
        return value::Unknown;
      }
      if (!value::is_loss(*v)) {
        fail("a move leaving " + indexer_.material().name() + " does not lose, yet the position was counted lost: " +
             to_fen(pos));
        return value::Unknown;
      }
      longest = std::max(longest, value::plies(*v) - 1);
    }
    return value::mate_in_plies(longest + 1);
  }

  const Indexer& indexer_;
  const Rules& rules_;
  const Tablebase& subtables_;
  const SolveOptions& options_;
  const Bitboard fixed_squares_;
  std::array<std::vector<ValueCode>, 2> values_;
  std::vector<std::shared_ptr<const Tablebase::MemoryTable>> exits_;
  struct ExitRoute {
    const Tablebase::MemoryTable* table = nullptr;
    bool flipped = false;
  };
  // [mover][captured Piece::code()][promotion type]
  ExitRoute exit_route_[COLOR_NB][64][PIECE_TYPE_NB] = {};
  std::atomic<int> max_plies_{0};
  // Entries resolved in the current pass, one counter per thread on its own cache line
  // (a shared atomic counter would make the threads fight over one line).
  static constexpr int MaxThreads = 256;
  struct alignas(64) Counter {
    std::uint64_t count = 0;
  };
  std::array<Counter, MaxThreads> resolved_{};
  // Per block of entries: the smallest mate value not yet propagated (NoMate if none).
  static constexpr std::uint64_t BlockSize = 1024;
  static constexpr ValueCode NoMate = 0xFFFF;
  std::array<std::vector<ValueCode>, 2> block_min_;
  std::mutex error_mutex_;
  std::string error_;
};

}  // namespace

Expected<SolvedTable> solve(const Indexer& indexer, const Tablebase& subtables, const SolveOptions& options) {
  return subtables.rules().visit([&](const auto& rules) {
    using Rules = std::decay_t<decltype(rules)>;
    return Solver<Rules>(indexer, rules, subtables, options).run();
  });
}

}  // namespace feerie

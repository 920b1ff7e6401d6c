// The values of a solve (SPEC 5): one code (probe/value.h) per entry this process owns,
// for every member of the component and both sides to move, with what lets a pass skip
// the entries it has nothing to do with.
//
// Width. Every array starts narrow, one byte per entry (probe/value_array.h); all are
// extended together (a high bit per entry: mates of high_offset() = narrow_max_plies() + 1
// plies and more, up to narrow::MaxPlies more) when a mate is too long for a byte, and
// widened together to two bytes when a value does not fit even so. A store that does not
// fit goes to an overflow list instead, and settle_overflow() (between passes) extends or
// widens and applies it: safe because no pass reads back a value it wrote in the same pass,
// except the win offered to an open entry, whose value is the same for every offer of the
// pass. The solver calls hold_mates_up_to(n + 1) before pass n, so that the passes scan and
// offer only values that fit.
//
// An extended entry's byte and high bit are two atomic words: a long mate writes the byte,
// then sets the bit; a short one replacing a long win (a win through an exit replaced by a
// shorter one) writes the byte, then clears the bit. A reader between the two sees a wrong
// mate value, only where it does not matter: an offer of the value being written anyway, or
// a block minimum lowered too far (a scan for nothing), never raised past a pending value
// (a store's own block minimum follows its two writes).
//
// Blocks. The entries of each member and side are cut into blocks of BlockSize; each
// block keeps the smallest mate value in it that is not yet propagated (NoMate if none).
// A pass over the entries mated in n plies scans only the blocks whose minimum is at most
// that value. Every store of a mate value lowers its block's minimum, and a scan resets
// the minimum of the block it scans and lowers it again to what it sees, so a value
// written during a pass (always larger than the one the pass propagates) is never lost.
//
// Threads. Every access is atomic (std::atomic_ref, relaxed: the passes need no order
// between entries, only that no update is lost), but for the scans of narrow blocks, 16
// plain bytes at a time: scan_narrow_block, read while only the other side is written, and
// scan_narrow_above, whose caller writes only the entry it is given, in a block no other
// thread reads; the parallel loops are OpenMP's.
//
// Layout of the own entries: those of the member's OwnedRange (gen/partition.h), the
// whole table unless the solve is spread over processes.
#pragma once

#include <omp.h>

#include <algorithm>
#include <array>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <atomic>
#include <bit>
#include <cstdint>
#include <vector>

#include "gen/entry.h"
#include "gen/partition.h"
#include "probe/indexer.h"
#include "probe/value.h"
#include "probe/value_array.h"

namespace feerie {

// The values of one member: per side to move, from the first entry the process owns.
using MemberValues = std::array<ValueArray, 2>;

class ValueStore {
 public:
  static constexpr int MaxMembers = 64;
  static constexpr std::uint64_t BlockSize = 1024;
  static constexpr ValueCode NoMate = 0xFFFF;

  // Values for members of `sizes` entries per side, of which this process (`rank` of
  // `ranks`) owns its ranges, every one Unknown; `threads` for the parallel loops. Narrow
  // values hold mates up to `narrow_max_plies` (at most narrow::MaxPlies; negative: wide
  // from the start). Precondition: at most MaxMembers members.
  ValueStore(const std::vector<std::uint64_t>& sizes, int rank, int ranks, int threads,
             int narrow_max_plies = narrow::MaxPlies);
  ValueStore(const ValueStore&) = delete;
  ValueStore& operator=(const ValueStore&) = delete;

  int members() const { return int(sizes_.size()); }
  const OwnedRange& range(int member) const { return ranges_[std::size_t(member)]; }
  // Whether this process owns the entry, and which process does.
  bool owns(Entry e) const { return e.index() - first_[e.table()] < owned_[e.table()]; }
  int owner(Entry e) const { return owner_of(e.index(), sizes_[std::size_t(e.member())], ranks_); }

  // Of an own entry.
  ValueCode load(Entry e) const {
    if (wide_) return std::atomic_ref<ValueCode>(*wide_slot(e)).load(std::memory_order_relaxed);
    const std::uint8_t b = std::atomic_ref<std::uint8_t>(*narrow_slot(e)).load(std::memory_order_relaxed);
    // An open code has no high bit: the bit's word only for a mate (one memory access less
    // for most of the predecessors a pass looks at, which are still open).
    if (!extended_ || b >= narrow::OpenBase) return narrow::decode(b);
    return narrow::decode(b, high_word(e).load(std::memory_order_relaxed) & high_mask(e), high_offset());
  }
  void prefetch(Entry e) const { slots(e.table()).prefetch(e.index()); }
  // For prefetching many entries of one table (member * 2 + side) in a tight loop: entry
  // `index` lies at base + (index << shift), in either width (narrow_slot, wide_slot).
  struct Slots {
    std::uintptr_t base;
    int shift;
    void prefetch(std::uint64_t index) const {
      __builtin_prefetch(reinterpret_cast<const void*>(base + (index << shift)));
    }
  };
  Slots slots(int table) const { return {value_tables_[std::size_t(table)], wide_ ? 1 : 0}; }
  // Writes a value (narrow and too large: to the overflow list); a mate value also lowers
  // its block's minimum, raises the longest mate and counts as resolved in this pass.
  void store(Entry e, ValueCode v) {
    std::uint8_t b;
    if (wide_) {
      std::atomic_ref<ValueCode>(*wide_slot(e)).store(v, std::memory_order_relaxed);
    } else if ((!value::is_mate(v) || v <= narrow_max_code_) && narrow::encode(v, b)) {
      std::atomic_ref<std::uint8_t>(*narrow_slot(e)).store(b, std::memory_order_relaxed);
      if (extended_ && (high_word(e).load(std::memory_order_relaxed) & high_mask(e)))
        high_word(e).fetch_and(~high_mask(e), std::memory_order_relaxed);
    } else if (extended_ && narrow::encode_high(v, high_offset(), b)) {
      store_long_mate(e, b);
    } else {
      overflow_[thread_slot()].list.push_back({e, v});
    }
    if (!value::is_mate(v)) return;
    if (value::is_loss(v) && value::plies(v) < CountedLossPlies)
      ++thread_losses().count[std::size_t(e.side())][std::size_t(value::plies(v) / 2)];
    lower_block_min(e, v);
    int plies = value::plies(v), seen = max_plies_.load(std::memory_order_relaxed);
    while (plies > seen && !max_plies_.compare_exchange_weak(seen, plies)) {
    }
    ++resolved_[thread_slot()].count[std::size_t(e.member())];
  }
  // The entry wins in `win` unless it is decided otherwise or wins faster.
  void offer_win(Entry e, ValueCode win) {
    ValueCode v = load(e);
    if (value::is_open(v) || (value::is_win(v) && v > win)) store(e, win);
  }
  // The entry is reached in `code` (a mate value) unless it is decided otherwise or is
  // reached sooner: the breadth-first passes of helpmates (gen/help_solver.h), where every
  // offer of a pass is the same value.
  void offer_shorter(Entry e, ValueCode code) {
    ValueCode v = load(e);
    if (value::is_open(v) || (value::is_mate(v) && v > code)) store(e, code);
  }
  // One open successor fewer for an open entry (precondition: value::counts_down);
  // returns the code before. Narrow open codes count down like wide ones.
  ValueCode take_successor(Entry e) {
    if (wide_) return decrement(std::atomic_ref<ValueCode>(*wide_slot(e)));
    return narrow::decode(decrement(std::atomic_ref<std::uint8_t>(*narrow_slot(e))));
  }
  // take_successor() when no other thread writes the values meanwhile (one thread): a load
  // and a store, without the locked instruction of an atomic decrement.
  ValueCode take_successor_alone(Entry e) {
    if (wide_) return decrement_alone(std::atomic_ref<ValueCode>(*wide_slot(e)));
    return narrow::decode(decrement_alone(std::atomic_ref<std::uint8_t>(*narrow_slot(e))));
  }

  // Whether the values are two bytes wide.
  bool wide() const { return wide_; }
  // Whether the values are narrow with a high bit per entry.
  bool extended() const { return extended_; }
  // The longest mate narrow values hold (without the high bit), and the first of the long
  // mates of extended values (which hold narrow::MaxPlies more).
  int narrow_max_plies() const { return narrow_max_code_ - value::FirstMate; }
  int high_offset() const { return narrow_max_plies() + 1; }
  // Before a pass that offers mates of `plies`: extends or widens every array so that they
  // hold them. Not during a pass.
  void hold_mates_up_to(int plies);
  // Widens every array (nothing when already wide). Not during a pass.
  void widen();
  // Between passes: extends (when every store that did not fit a byte fits extended) or
  // widens, then applies every such store. Returns whether it extended or widened.
  bool settle_overflow();
  // After values were filled from elsewhere (a checkpoint, ValueArray::set() extending or
  // widening what did not fit): widens all when any is wide, or when any is extended with
  // another high offset than this store's; else extends all when any is extended.
  void adopt_filled_values();
  // Bytes per entry: 1, 1.125 extended, 2 wide.
  double bytes_per_entry() const { return wide_ ? 2 : extended_ ? 1.125 : 1; }

  // The longest mate stored so far (or set: the processes agree on it between passes).
  int max_plies() const { return max_plies_.load(); }
  void set_max_plies(int plies) { max_plies_ = plies; }
  // Mate values stored per member since the last reset.
  std::vector<std::uint64_t> resolved() const;
  void reset_resolved();
  // The own entries of `side` (every member) lost in `plies`, for plies below
  // CountedLossPlies (0 above): a loss is stored once per entry and never replaced, so the
  // losses stored so far (and those rebuild_block_minima() finds) are those entries.
  std::uint64_t losses(int side, int plies) const;
  static constexpr int CountedLossPlies = 512;
  // The own entries whose value is not open, over every member and side.
  std::uint64_t count_decided() const;

  // Runs f(member, side, index) over every own entry, in parallel, and after each chunk
  // of ChunkEntries entries after_chunk(entries done, own entries in all), outside the
  // parallel loop.
  template <class F, class G>
  void for_all_entries(F&& f, G&& after_chunk);
  static constexpr std::uint64_t ChunkEntries = std::uint64_t(1) << 22;
  // for_all_entries() of one member owning all its entries (a solve in one process), its
  // entries taken a run at a time in the order of `runs` (Indexer::Run: entries [first,
  // first + count)), which hold every entry once. For an initialisation whose look-ups
  // into other tables repeat for runs far apart in index order.
  template <class F, class G>
  void for_all_entries_in_runs(const std::vector<Indexer::Run>& runs, F&& f, G&& after_chunk);
  // Runs f(member, side, index) over the own entries whose value is `code`, in parallel,
  // skipping the blocks whose minimum is larger. `Chunked`: the blocks of each member and
  // side are scanned in chunks of ChunkBlocks with between_chunks() after each, the same
  // number of times in every process of a spread solve (the largest own range sets it),
  // so that it may call collectives.
  template <bool Chunked, class F, class G>
  void for_entries_with(ValueCode code, F&& f, G&& between_chunks) {
    for (int side = 0; side < 2; ++side) for_entries_with<Chunked>(side, code, f, between_chunks);
  }
  // The same over the entries of one side to move.
  template <bool Chunked, class F, class G>
  void for_entries_with(int side, ValueCode code, F&& f, G&& between_chunks);
  // for_entries_with() of one side, not chunked, for two threads that split the entries
  // between them by `key`: thread t runs f(member, side, index) on those whose key(index)
  // is t, in index order. Each thread scans every block holding such entries; the other
  // threads the caller gives no work to. For passes where the entries one thread's f
  // writes are never those of the other's (gen/solver.cpp, propagate_win), so that they
  // need no locked instruction. As for_entries_with(), f writes only the other side.
  template <class Key, class F>
  void for_entries_with_split(int side, ValueCode code, Key&& key, F&& f);
  // Runs f(member, index) over the own entries of `side` whose value is above `code` (a
  // longer mate, or open), in parallel; returns how many there were. f may write the
  // entry it is given, and no other of that side.
  template <class F>
  std::uint64_t for_entries_above(int side, ValueCode code, F&& f);
  // How many entries for_entries_above() would visit: narrow bytes counted 16 at a time
  // rather than visited one by one (orthodox KRPvKR: the counts of pulling_pays() were
  // 2.5% of a two-thread profile, nearly all in the loop over the bits of each 16).
  std::uint64_t count_entries_above(int side, ValueCode code);
  // The block minima of values filled from elsewhere (a checkpoint): the smallest mate
  // value of each block from mate_in_plies(next_ply) on; and the losses() they hold.
  void rebuild_block_minima(int next_ply);
  // Every entry still open is a draw (the end of the solve).
  void settle_open_as_draws();

  // Every value, [member][side]: for checkpoints and resuming (which fills them and then
  // calls rebuild_block_minima()), and for the tables at the end.
  std::vector<MemberValues>& values() { return values_; }

 private:
  // One slot of the per-thread counters and lists for each thread of any loop that stores:
  // the store's threads, and OpenMP's default for loops that run with it. Two threads on
  // one slot would race on its list.
  int slot_count() const { return std::max({threads_, omp_get_max_threads(), 2}); }
  std::size_t thread_slot() const { return std::size_t(omp_get_thread_num()); }
  // Blocks scanned between two calls of between_chunks() in a chunked scan.
  static constexpr std::int64_t ChunkBlocks = 256;

  ValueCode* wide_slot(Entry e) const {
    return reinterpret_cast<ValueCode*>(value_tables_[e.table()] + e.index() * sizeof(ValueCode));
  }
  std::uint8_t* narrow_slot(Entry e) const {
    return reinterpret_cast<std::uint8_t*>(value_tables_[e.table()] + e.index());
  }
  // An extended entry's high bit: in the word of its own index (from the first own entry,
  // whose index is a multiple of 64: owned ranges are whole blocks).
  std::atomic_ref<std::uint64_t> high_word(Entry e) const {
    return std::atomic_ref<std::uint64_t>(high_tables_[e.table()][(e.index() - first_[e.table()]) / 64]);
  }
  static std::uint64_t high_mask(Entry e) { return std::uint64_t(1) << (e.index() % 64); }
  // An extended entry's long mate, `b` its byte: the byte first, then the bit (see "Width").
  void store_long_mate(Entry e, std::uint8_t b) {
    std::atomic_ref<std::uint8_t>(*narrow_slot(e)).store(b, std::memory_order_relaxed);
    high_word(e).fetch_or(high_mask(e), std::memory_order_relaxed);
  }
  // Extends every array (nothing when already extended or wide). Not during a pass.
  void extend();
  template <class T>
  static T decrement(std::atomic_ref<T> entry) {
    return entry.fetch_sub(T(1), std::memory_order_relaxed);
  }
  template <class T>
  static T decrement_alone(std::atomic_ref<T> entry) {
    const T old = entry.load(std::memory_order_relaxed);
    entry.store(T(old - 1), std::memory_order_relaxed);
    return old;
  }
  // value_tables_ for the arrays as they are (their addresses and width).
  void locate_arrays();
  // The scan of one block of for_entries_with(), over the array's own codes (`OpenBase`:
  // where the open codes of that width begin); returns the smallest mate value left.
  template <class T, unsigned OpenBase, class F>
  static ValueCode scan_block(T* values, std::uint64_t from, std::uint64_t end, ValueCode code, F&& f) {
    ValueCode pending = NoMate;
    // Mate values above `code`: code < v < OpenBase, one unsigned comparison.
    const unsigned above = code + 1u, span = OpenBase - above;
    for (std::uint64_t i = from; i < end; ++i) {
      const T v = std::atomic_ref<T>(values[i]).load(std::memory_order_relaxed);
      if (v == code) [[unlikely]] {
        f(i);
        continue;
      }
      pending = std::min<ValueCode>(pending, unsigned(v) - above < span ? ValueCode(v) : NoMate);
    }
    return pending;
  }
  // scan_block() of the block [start, end) of `values` at the store's width.
  template <class F>
  ValueCode scan_any_block(const ValueArray& values, std::uint64_t start, std::uint64_t end, ValueCode code,
                           F&& found) const {
    return wide_       ? scan_block<ValueCode, value::OpenBase>(values.words(), start, end, code, found)
           : extended_ ? scan_extended_block(values.narrow_data(), values.high_words(), start, end, code, found)
                       : scan_narrow_block(values.narrow_data(), start, end, code, found);
  }
  // scan_block() of a narrow array, 16 bytes at a time where SSE2 is there (every x86-64):
  // the pass's code is compared and the pending minimum taken for 16 entries at once, and
  // f is called for the matches in index order, as the scalar loop does. Plain loads: while
  // one side is scanned only the other side is written (every move changes the side to
  // move), so no thread writes the bytes being read.
  template <class F>
  static ValueCode scan_narrow_block(std::uint8_t* values, std::uint64_t from, std::uint64_t end, ValueCode code,
                                     F&& f) {
#ifdef __SSE2__
    static_assert(narrow::OpenBase < 0xFF);
    if (code >= narrow::OpenBase) return scan_block<std::uint8_t, narrow::OpenBase>(values, from, end, code, f);
    // As in scan_block: v is pending when above <= v < OpenBase, that is when v - above
    // (mod 256) is at most span - 1 < 0xFF; others count as 0xFF, which no pending value is.
    const unsigned above = code + 1u, span = narrow::OpenBase - above;
    const __m128i code16 = _mm_set1_epi8(char(code)), above16 = _mm_set1_epi8(char(above));
    const __m128i last16 = _mm_set1_epi8(char(span - 1)), none16 = _mm_set1_epi8(char(0xFF));
    __m128i smallest = none16;
    std::uint64_t i = from;
    for (; i + 16 <= end; i += 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(values + i));
      for (unsigned hits = unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(v, code16))); hits; hits &= hits - 1)
        f(i + unsigned(__builtin_ctz(hits)));
      const __m128i shifted = _mm_sub_epi8(v, above16);
      const __m128i pending = _mm_cmpeq_epi8(_mm_min_epu8(shifted, last16), shifted);  // shifted <= span - 1
      smallest =
          _mm_min_epu8(smallest, _mm_or_si128(_mm_and_si128(pending, shifted), _mm_andnot_si128(pending, none16)));
    }
    alignas(16) std::uint8_t lanes[16];
    _mm_store_si128(reinterpret_cast<__m128i*>(lanes), smallest);
    unsigned least = 0xFF;
    for (std::uint8_t l : lanes) least = std::min<unsigned>(least, l);
    const ValueCode head = least == 0xFF ? NoMate : ValueCode(least + above);
    return std::min(head, scan_block<std::uint8_t, narrow::OpenBase>(values, i, end, code, f));
#else
    return scan_block<std::uint8_t, narrow::OpenBase>(values, from, end, code, f);
#endif
  }
  // The same over an extended array: bytes and high bits. Most words of high bits are zero
  // (long mates are the tail of a table), and their 64 bytes hold no mate longer than a
  // byte holds: scanned as narrow ones for a short mate, skipped for a long one.
  template <class F>
  ValueCode scan_extended_block(std::uint8_t* values, std::uint64_t* high, std::uint64_t from, std::uint64_t end,
                                ValueCode code, F&& f) const {
    ValueCode pending = NoMate;
    for (std::uint64_t start = from; start < end;) {
      const std::uint64_t stop = std::min(end, (start / 64 + 1) * 64);
      const std::uint64_t word = std::atomic_ref<std::uint64_t>(high[start / 64]).load(std::memory_order_relaxed);
      if (word == 0) {
        if (code <= narrow_max_code_) pending = std::min(pending, scan_narrow_block(values, start, stop, code, f));
        start = stop;
        continue;
      }
      for (std::uint64_t i = start; i < stop; ++i) {
        const std::uint8_t b = std::atomic_ref<std::uint8_t>(values[i]).load(std::memory_order_relaxed);
        const ValueCode v = narrow::decode(b, (word >> (i % 64)) & 1, high_offset());
        if (v == code) [[unlikely]] {
          f(i);
          continue;
        }
        if (value::is_mate(v) && v > code) pending = std::min(pending, v);
      }
      start = stop;
    }
    return pending;
  }

  // The entries of a narrow block whose byte is above `code` (a narrow code, below
  // narrow::OpenBase: bytes are ordered as their values), 16 at a time where SSE2 is there.
  // Plain loads: the caller's f writes only the entry it is given, after the load of it.
#ifdef __SSE2__
  // Bit k: byte k of the 16 at `bytes` is at least the byte of `least16` (all 16 the same),
  // unsigned: the larger of the two is the byte itself.
  static unsigned at_least16(const std::uint8_t* bytes, __m128i least16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes));
    return unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(v, least16), v)));
  }
#endif
  template <class F>
  static void scan_narrow_above(const std::uint8_t* values, std::uint64_t from, std::uint64_t end, ValueCode code,
                                F&& f) {
    std::uint64_t i = from;
#ifdef __SSE2__
    const __m128i least16 = _mm_set1_epi8(char(code + 1));
    for (; i + 16 <= end; i += 16)
      for (unsigned hits = at_least16(values + i, least16); hits; hits &= hits - 1)
        f(i + unsigned(__builtin_ctz(hits)));
#endif
    for (; i < end; ++i)
      if (values[i] > code) f(i);
  }

  // How many bytes of values[from, end) are above `code`, as scan_narrow_above finds them.
  static std::uint64_t count_narrow_above(const std::uint8_t* values, std::uint64_t from, std::uint64_t end,
                                          ValueCode code) {
    std::uint64_t count = 0, i = from;
#ifdef __SSE2__
    const __m128i least16 = _mm_set1_epi8(char(code + 1));
    for (; i + 16 <= end; i += 16) count += unsigned(std::popcount(at_least16(values + i, least16)));
#endif
    for (; i < end; ++i) count += values[i] > code;
    return count;
  }

  // Asks for the values of entries [from, end) of `table`, a cache line at a time: a
  // block a scan reads next, while it works on the one before.
  void prefetch_range(int table, std::uint64_t from, std::uint64_t end) const {
    const Slots s = slots(table);
    for (std::uint64_t i = from; i < end; i += std::uint64_t(64) >> s.shift) s.prefetch(i);
  }

  void lower_block_min(Entry e, ValueCode v) {
    std::atomic_ref<ValueCode> block_min(
        *reinterpret_cast<ValueCode*>(block_min_tables_[e.table()] + e.index() / BlockSize * sizeof(ValueCode)));
    ValueCode seen = block_min.load(std::memory_order_relaxed);
    while (v < seen && !block_min.compare_exchange_weak(seen, v, std::memory_order_acq_rel)) {
    }
  }

  std::vector<std::uint64_t> sizes_;  // per member: entries per side
  const int ranks_;
  const int threads_;
  std::vector<OwnedRange> ranges_;                                // per member: the entries this process owns
  std::vector<std::int64_t> scan_steps_;                          // per member: chunks of a chunked scan
  std::vector<MemberValues> values_;                              // [member][side], the own entries
  std::vector<std::array<std::vector<ValueCode>, 2>> block_min_;  // [member][side][block]
  bool wide_ = false;
  bool extended_ = false;
  // The code of the longest mate a narrow store writes as such.
  ValueCode narrow_max_code_;
  // By Entry::table(): where entry 0 and block 0 of values_ and block_min_ would be (their
  // data less the first own index times the width; unsigned arithmetic, only own entries
  // are ever looked up through them), the first own index and how many entries the
  // process owns.
  std::array<std::uintptr_t, 2 * MaxMembers> value_tables_{}, block_min_tables_{};
  std::array<std::uint64_t*, 2 * MaxMembers> high_tables_{};  // extended: each array's high bits
  std::array<std::uint64_t, 2 * MaxMembers> first_{}, owned_{};
  std::atomic<int> max_plies_{0};
  // Mate values stored per member, one set of counters per thread on its own cache lines
  // (a shared atomic counter would make the threads fight over one).
  struct alignas(64) Counter {
    std::array<std::uint64_t, MaxMembers> count{};
  };
  std::vector<Counter> resolved_ = std::vector<Counter>(std::size_t(slot_count()));
  // Losses stored per side and length (losses()), one set per thread of the store's loops
  // (4 KiB each: one per thread, not a fixed number, which would weigh on the peak of small tables).
  struct alignas(64) LossCounter {
    std::array<std::array<std::uint64_t, CountedLossPlies / 2>, 2> count{};
  };
  std::vector<LossCounter> losses_ = std::vector<LossCounter>(std::size_t(slot_count()));
  LossCounter& thread_losses() { return losses_[thread_slot()]; }
  // Narrow stores that did not fit, per thread, until settle_overflow().
  struct alignas(64) Overflow {
    std::vector<std::pair<Entry, ValueCode>> list;
  };
  std::vector<Overflow> overflow_ = std::vector<Overflow>(std::size_t(slot_count()));
};

template <class F, class G>
void ValueStore::for_all_entries(F&& f, G&& after_chunk) {
  std::uint64_t total = 0, done = 0;
  for (const OwnedRange& range : ranges_) total += 2 * range.size();
  for (int side = 0; side < 2; ++side)
    for (int member = 0; member < members(); ++member) {
      const std::uint64_t first = ranges_[std::size_t(member)].first;
      const std::int64_t size = std::int64_t(ranges_[std::size_t(member)].size());
      for (std::int64_t from = 0; from < size; from += std::int64_t(ChunkEntries)) {
        const std::int64_t to = std::min(size, from + std::int64_t(ChunkEntries));
#pragma omp parallel for schedule(dynamic, 32768) num_threads(threads_)
        for (std::int64_t i = from; i < to; ++i) f(member, side, first + std::uint64_t(i));
        done += std::uint64_t(to - from);
        after_chunk(done, total);
      }
    }
}

template <class F, class G>
void ValueStore::for_all_entries_in_runs(const std::vector<Indexer::Run>& runs, F&& f, G&& after_chunk) {
  // The runs one after the other make a sequence of entries; the threads take pieces of up
  // to ParallelPiece of it, as for_all_entries() takes pieces of index order.
  constexpr std::uint64_t ParallelPiece = 32768;
  std::vector<std::uint64_t> starts(runs.size() + 1, 0);  // run r from starts[r] in the sequence
  for (std::size_t r = 0; r < runs.size(); ++r) starts[r + 1] = starts[r] + runs[r].count;
  const std::uint64_t per_side = starts.back();
  for (int side = 0; side < 2; ++side)
    for (std::uint64_t from = 0; from < per_side; from += ChunkEntries) {
      const std::uint64_t to = std::min(per_side, from + ChunkEntries);
      const std::int64_t pieces = std::int64_t((to - from + ParallelPiece - 1) / ParallelPiece);
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads_)
      for (std::int64_t p = 0; p < pieces; ++p) {
        const std::uint64_t end = std::min(to, from + std::uint64_t(p + 1) * ParallelPiece);
        std::uint64_t q = from + std::uint64_t(p) * ParallelPiece;
        // The last run starting at or before q (empty runs share their start with the next).
        std::size_t r = std::size_t(std::upper_bound(starts.begin(), starts.end(), q) - starts.begin()) - 1;
        for (; q < end; ++r) {
          const std::uint64_t within = q - starts[r];
          const std::uint64_t first = runs[r].first + within;
          const std::uint64_t n = std::min(end - q, runs[r].count - within);
          for (std::uint64_t i = first; i < first + n; ++i) f(0, side, i);
          q += n;
        }
      }
      after_chunk(std::uint64_t(side) * per_side + to, 2 * per_side);
    }
}

template <bool Chunked, class F, class G>
void ValueStore::for_entries_with(int side, ValueCode code, F&& f, G&& between_chunks) {
  for (int member = 0; member < members(); ++member) {
    std::vector<ValueCode>& mins = block_min_[std::size_t(member)][std::size_t(side)];
    const ValueArray& values = values_[std::size_t(member)][std::size_t(side)];
    const std::int64_t blocks = std::int64_t(mins.size());
    const std::uint64_t size = ranges_[std::size_t(member)].size(), first = ranges_[std::size_t(member)].first;
    const std::int64_t chunk = Chunked ? ChunkBlocks : blocks, steps = Chunked ? scan_steps_[std::size_t(member)] : 1;
    for (std::int64_t step = 0; step < steps; ++step) {
      const std::int64_t from = std::min(blocks, step * chunk), to = std::min(blocks, from + chunk);
#pragma omp parallel for schedule(dynamic, 8) num_threads(threads_)
      for (std::int64_t b = from; b < to; ++b) {
        std::atomic_ref<ValueCode> block_min(mins[std::size_t(b)]);
        if (block_min.load(std::memory_order_acquire) > code) continue;
        block_min.exchange(NoMate, std::memory_order_acq_rel);
        const std::uint64_t start = std::uint64_t(b) * BlockSize, end = std::min(size, start + BlockSize);
        auto found = [&](std::uint64_t i) { f(member, side, first + i); };
        lower_block_min(Entry::of(member, side, first + start), scan_any_block(values, start, end, code, found));
      }
      if constexpr (Chunked) between_chunks();
    }
  }
}

template <class Key, class F>
void ValueStore::for_entries_with_split(int side, ValueCode code, Key&& key, F&& f) {
  for (int member = 0; member < members(); ++member) {
    std::vector<ValueCode>& mins = block_min_[std::size_t(member)][std::size_t(side)];
    const ValueArray& values = values_[std::size_t(member)][std::size_t(side)];
    const std::uint64_t size = ranges_[std::size_t(member)].size(), first = ranges_[std::size_t(member)].first;
    // The blocks to scan, their minima set aside until both threads are done (f writes the
    // other side only: nothing lowers them meanwhile); thread 0's scan gives their new ones.
    std::vector<std::uint32_t> due;
    for (std::size_t b = 0; b < mins.size(); ++b)
      if (mins[b] <= code) due.push_back(std::uint32_t(b));
    std::vector<ValueCode> pending(due.size());
#pragma omp parallel num_threads(2)
    {
      const int thread = omp_get_thread_num();
      for (std::size_t d = 0; d < due.size(); ++d) {
        const std::uint64_t start = std::uint64_t(due[d]) * BlockSize, end = std::min(size, start + BlockSize);
        // The next block's lines asked for before this one is scanned: both threads read
        // every due block, each between two propagate_win() calls that evict it, and the
        // first load of each line was 28% of this loop's samples (orthodox KRPvKR), 5% after.
        if (d + 1 < due.size()) {
          const std::uint64_t next = std::uint64_t(due[d + 1]) * BlockSize;
          prefetch_range(2 * member + side, first + next, first + std::min(size, next + BlockSize));
        }
        auto found = [&](std::uint64_t i) {
          if (key(first + i) == thread) f(member, side, first + i);
        };
        const ValueCode left = scan_any_block(values, start, end, code, found);
        if (thread == 0) pending[d] = left;
      }
    }
    for (std::size_t d = 0; d < due.size(); ++d) mins[due[d]] = pending[d];
  }
}

template <class F>
std::uint64_t ValueStore::for_entries_above(int side, ValueCode code, F&& f) {
  std::uint64_t visited = 0;
  for (int member = 0; member < members(); ++member) {
    const ValueArray& values = values_[std::size_t(member)][std::size_t(side)];
    const std::uint64_t size = ranges_[std::size_t(member)].size(), first = ranges_[std::size_t(member)].first;
    const std::int64_t blocks = std::int64_t((size + BlockSize - 1) / BlockSize);
#pragma omp parallel for schedule(dynamic, 8) num_threads(threads_) reduction(+ : visited)
    for (std::int64_t b = 0; b < blocks; ++b) {
      const std::uint64_t start = std::uint64_t(b) * BlockSize, end = std::min(size, start + BlockSize);
      auto found = [&](std::uint64_t i) {
        ++visited;
        f(member, first + i);
      };
      if (wide_ || code > narrow_max_code_) {  // value by value (no narrow code orders the bytes)
        for (std::uint64_t i = start; i < end; ++i)
          if (load(Entry::of(member, side, first + i)) > code) found(i);
        continue;
      }
      if (!extended_) {
        scan_narrow_above(values.narrow_data(), start, end, code, found);
        continue;
      }
      // Extended: words of high bits at zero hold no long mate, their bytes are narrow.
      for (std::uint64_t from = start; from < end;) {
        const std::uint64_t stop = std::min(end, (from / 64 + 1) * 64);
        if (std::atomic_ref<std::uint64_t>(values.high_words()[from / 64]).load(std::memory_order_relaxed) == 0)
          scan_narrow_above(values.narrow_data(), from, stop, code, found);
        else
          for (std::uint64_t i = from; i < stop; ++i)
            if (load(Entry::of(member, side, first + i)) > code) found(i);
        from = stop;
      }
    }
  }
  return visited;
}

}  // namespace feerie

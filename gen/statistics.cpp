#include "gen/statistics.h"

#include <omp.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <algorithm>
#include <string>
#include <vector>

#include "rules/fen.h"

namespace feerie {

namespace {

int outcome(ValueCode v) { return v == value::Draw ? 1 : value::is_win(v) ? 2 : 0; }

bool pawns_on_usual_ranks(const Position& pos) {
  Bitboard pawns = pos.pieces(PAWN);
  return !(pawns & FirstAndLastRanks);
}

std::uint64_t labelling_factor(const Material& m) {
  std::uint64_t f = 1;
  for (int magic = 0; magic < 2; ++magic)
    for (Color c : {WHITE, BLACK})
      for (int pt = PAWN; pt < PIECE_TYPE_NB; ++pt)
        for (int k = 2; k <= m.count(c, PieceType(pt), magic); ++k) f *= k;
  return f;
}

// The raw positions and the class numerators of some entries, by outcome.
struct Tally {
  std::uint64_t raw[3] = {};      // loss, draw, win
  std::uint64_t classes[3] = {};  // numerators: divide by the group size at the end
  Tally& operator+=(const Tally& o) {
    for (int k = 0; k < 3; ++k) raw[k] += o.raw[k], classes[k] += o.classes[k];
    return *this;
  }
};
#pragma omp declare reduction(+ : Tally : omp_out += omp_in)

bool counted(ValueCode v) { return v != value::Illegal && v != value::Unknown; }

// The codes of a plain narrow array, read straight from the bytes, without
// ValueArray::at()'s tests of the width per entry (the hottest instructions of the
// statistics' profile); and of any other array, through at().
struct NarrowCodes {
  const std::uint8_t* bytes;
  ValueCode operator()(std::uint64_t i) const { return narrow::decode(bytes[i]); }
};
// A narrow array extended with a high bit per entry (a long mate: probe/value_array.h).
struct ExtendedCodes {
  const std::uint8_t* bytes;
  const std::uint64_t* high;
  int high_offset;
  ValueCode operator()(std::uint64_t i) const {
    return narrow::decode(bytes[i], (high[i / 64] >> (i % 64)) & 1, high_offset);
  }
};
struct ArrayCodes {
  const ValueArray* values;
  ValueCode operator()(std::uint64_t i) const { return (*values)[i]; }
};

// Calls f(codes) with `codes(i)` the code of entry i of `v`.
template <class F>
decltype(auto) with_codes(const ValueArray& v, F&& f) {
  if (!v.wide() && !v.extended()) return f(NarrowCodes{v.narrow_data()});
  if (!v.wide()) return f(ExtendedCodes{v.narrow_data(), v.high_words(), v.high_offset()});
  return f(ArrayCodes{&v});
}

// The first index of [i, hi) whose code may be a win longer than `plies` (hi: none): every
// index for codes read one by one; for narrow bytes, the first such byte, 16 at a time
// (a win's byte is FirstMate plus an odd number of plies, so even, and below OpenBase).
std::uint64_t next_longer_win(const ArrayCodes&, std::uint64_t i, std::uint64_t, int) { return i; }
std::uint64_t next_longer_win(const NarrowCodes& v, std::uint64_t i, std::uint64_t hi, int plies) {
  const int least = value::FirstMate + plies + 1;  // the smallest byte of a longer mate
  if (least >= narrow::OpenBase) return hi;
#ifdef __SSE2__
  static_assert(value::FirstMate % 2 == 1 && narrow::OpenBase < 0x100);
  const __m128i least16 = _mm_set1_epi8(char(least)), last16 = _mm_set1_epi8(char(narrow::OpenBase - 1));
  const __m128i odd16 = _mm_set1_epi8(1), zero = _mm_setzero_si128();
  for (; i + 16 <= hi; i += 16) {
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(v.bytes + i));
    const __m128i in_range = _mm_and_si128(_mm_cmpeq_epi8(_mm_max_epu8(b, least16), b),  // b >= least
                                           _mm_cmpeq_epi8(_mm_min_epu8(b, last16), b));  // b < OpenBase
    const __m128i even = _mm_cmpeq_epi8(_mm_and_si128(b, odd16), zero);
    if (const unsigned hits = unsigned(_mm_movemask_epi8(_mm_and_si128(in_range, even))))
      return i + unsigned(__builtin_ctz(hits));
  }
#endif
  for (; i < hi; ++i)
    if (v.bytes[i] >= least && v.bytes[i] < narrow::OpenBase && v.bytes[i] % 2 == 0) return i;
  return hi;
}
// For an extended array: the first entry that is either such a byte without its high bit
// (read as a narrow one) or a long mate (its high bit set, any byte), window by window so
// that neither search runs far past the other's find.
std::uint64_t next_longer_win(const ExtendedCodes& v, std::uint64_t i, std::uint64_t hi, int plies) {
  constexpr std::uint64_t Window = 4096;
  for (std::uint64_t lo = i; lo < hi; lo += Window) {
    const std::uint64_t end = std::min(hi, lo + Window);
    const std::uint64_t by_byte = next_longer_win(NarrowCodes{v.bytes}, lo, end, plies);
    for (std::uint64_t w = lo / 64; w * 64 < by_byte; ++w) {
      std::uint64_t bits = v.high[w];
      if (w == lo / 64) bits &= ~std::uint64_t(0) << (lo % 64);
      if (bits) return std::min(by_byte, w * 64 + std::uint64_t(__builtin_ctzll(bits)));
    }
    if (by_byte < end) return by_byte;
  }
  return hi;
}

// Entry `first + i` of `side`, decoded.
template <class Codes>
void count_entry(const Indexer& indexer, const Codes& v, Color side, std::uint64_t first, std::uint64_t i,
                 std::uint64_t labels, Indexer::Cursor& cursor, Tally& tally) {
  if (!counted(v(i))) return;
  Position pos;
  indexer.decode(first + i, side, pos, cursor);
  int pointwise = 0;
  const int images = distinct_images(indexer, pos, &pointwise);
  const int o = outcome(v(i));
  tally.raw[o] += std::uint64_t(images);
  if (pos.ep_square() == SQ_NONE && pawns_on_usual_ranks(pos))
    tally.classes[o] += std::uint64_t(images) * labels * std::uint64_t(pointwise);
}

// Entries [first + lo, first + hi) of one run of 64 (Indexer::innermost_walks()), with one
// decode: when no symmetry but the identity leaves both kings in place, every position of
// the run has the group's size of distinct images and the identity alone fixes its
// squares, and whether it is a class of the reference convention depends on the outer
// pawns and on the innermost unit's square only (no en-passant region). False, counting
// nothing, when the kings are fixed by another symmetry.
template <class Codes>
bool count_run_by_kings(const Indexer& indexer, const Codes& v, Color side, std::uint64_t first, std::uint64_t lo,
                        std::uint64_t hi, std::uint64_t labels, Indexer::Cursor& cursor, Tally& tally) {
  std::uint64_t i = lo;
  while (i < hi && !counted(v(i))) ++i;
  if (i == hi) return true;
  Position pos;
  indexer.decode(first + i, side, pos, cursor);
  int fixing[8];
  if (king_fixing_symmetries(indexer, pos, fixing) > 1) return false;
  const std::uint64_t images = std::uint64_t(indexer.symmetry_count());
  const Bitboard outer_pawns = pos.pieces(PAWN) & ~square_bb(Square((first + i) & 63));
  const bool outer_usual = !(outer_pawns & FirstAndLastRanks);
  const Bitboard inner_unusual = indexer.innermost_unit().type() == PAWN ? FirstAndLastRanks : 0;
  for (; i < hi; ++i) {
    const ValueCode code = v(i);
    if (!counted(code)) continue;
    const int o = outcome(code);
    tally.raw[o] += images;
    if (outer_usual && !(inner_unusual & square_bb(Square((first + i) & 63)))) tally.classes[o] += images * labels;
  }
  return true;
}

// The longest win of some entries, at the lowest index that has it; -1 plies: none.
struct LongestMate {
  int plies = -1;
  std::uint64_t index = 0;  // global
};
struct LongestMates {
  LongestMate any;
  LongestMate usual;  // among the positions of the classes (no en passant, pawns on ranks 2-7)
};

// The longest wins among the entries [lo, hi) of one side (global indices from `first`),
// each at its lowest index. Only the entries longer than the usual one so far are decoded.
template <class Codes>
LongestMates longest_mates(const Indexer& indexer, const Codes& v, Color side, std::uint64_t first, std::uint64_t lo,
                           std::uint64_t hi) {
  LongestMates out;
  for (std::uint64_t i = next_longer_win(v, lo, hi, out.usual.plies); i < hi;
       i = next_longer_win(v, i + 1, hi, out.usual.plies)) {
    const ValueCode code = v(i);
    if (!value::is_win(code) || value::plies(code) <= out.usual.plies) continue;
    const int plies = value::plies(code);
    Position pos;
    indexer.decode(first + i, side, pos);
    if (plies > out.any.plies) out.any = {plies, first + i};
    if (pos.ep_square() == SQ_NONE && pawns_on_usual_ranks(pos)) out.usual = {plies, first + i};
  }
  return out;
}

// The FEN of a longest win found (none: empty).
std::string fen_of(const Indexer& indexer, Color side, const LongestMate& m) {
  if (m.plies < 0) return "";
  Position pos;
  indexer.decode(m.index, side, pos);
  return to_fen(pos);
}

}  // namespace

std::array<SideStatistics, 2> partial_statistics(const Indexer& indexer, const MemberValues& values, int threads,
                                                 std::uint64_t first) {
  std::array<SideStatistics, 2> stats;
  const std::uint64_t labels = labelling_factor(indexer.material());
  if (threads <= 0) threads = omp_get_max_threads();
  for (int side = 0; side < 2; ++side) {
    const ValueArray& array = values[side];
    const std::uint64_t size = array.size();
    // Runs of 64 indices from multiples of 64 (global indices): with innermost_walks(),
    // the placements of one innermost unit beside the same other units.
    const std::int64_t runs = size ? std::int64_t((first + size - 1) / 64 - first / 64 + 1) : 0;
    Tally tally;
    with_codes(array, [&](const auto& v) {
#pragma omp parallel num_threads(threads) reduction(+ : tally)
      {
        Indexer::Cursor cursor;  // each thread's runs of consecutive entries
#pragma omp for schedule(dynamic, 64)
        for (std::int64_t r = 0; r < runs; ++r) {
          const std::uint64_t start = (first / 64 + std::uint64_t(r)) * 64;
          const std::uint64_t lo = std::max(start, first) - first, hi = std::min(start + 64, first + size) - first;
          if (!indexer.innermost_walks() || start >= indexer.base_size() ||
              !count_run_by_kings(indexer, v, Color(side), first, lo, hi, labels, cursor, tally))
            for (std::uint64_t i = lo; i < hi; ++i)
              count_entry(indexer, v, Color(side), first, i, labels, cursor, tally);
        }
      }
    });
    SideStatistics& s = stats[side];
    s.loss = tally.raw[0], s.draw = tally.raw[1], s.win = tally.raw[2];
    s.positions = s.loss + s.draw + s.win;
    s.classes_loss = tally.classes[0], s.classes_draw = tally.classes[1], s.classes_win = tally.classes[2];
    // The longest wins over consecutive ranges in parallel, then the first range holding
    // each: the lowest index that has it, as one scan in index order finds it.
    const int ranges = 8 * threads;
    std::vector<LongestMates> found(std::size_t(ranges), LongestMates{});
    with_codes(array, [&](const auto& v) {
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
      for (int r = 0; r < ranges; ++r)
        found[std::size_t(r)] =
            longest_mates(indexer, v, Color(side), first, size * std::uint64_t(r) / std::uint64_t(ranges),
                          size * std::uint64_t(r + 1) / std::uint64_t(ranges));
    });
    LongestMates longest;
    for (const LongestMates& f : found) {
      if (f.any.plies > longest.any.plies) longest.any = f.any;
      if (f.usual.plies > longest.usual.plies) longest.usual = f.usual;
    }
    s.longest_mate_plies = longest.any.plies;
    s.longest_mate_fen = fen_of(indexer, Color(side), longest.any);
    s.classes_longest_mate_plies = longest.usual.plies;
    s.classes_longest_mate_fen = fen_of(indexer, Color(side), longest.usual);
  }
  return stats;
}

std::array<SideStatistics, 2> merge_statistics(const Indexer& indexer,
                                               const std::vector<std::array<SideStatistics, 2>>& parts) {
  std::array<SideStatistics, 2> out;
  for (int side = 0; side < 2; ++side) {
    SideStatistics& s = out[side];
    for (const auto& part : parts) {
      const SideStatistics& p = part[side];
      s.positions += p.positions, s.win += p.win, s.draw += p.draw, s.loss += p.loss;
      s.classes_win += p.classes_win, s.classes_draw += p.classes_draw, s.classes_loss += p.classes_loss;
      // Strictly longer only: on a tie the earlier part, which holds the lower indices, keeps its example.
      if (p.longest_mate_plies > s.longest_mate_plies)
        s.longest_mate_plies = p.longest_mate_plies, s.longest_mate_fen = p.longest_mate_fen;
      if (p.classes_longest_mate_plies > s.classes_longest_mate_plies)
        s.classes_longest_mate_plies = p.classes_longest_mate_plies,
        s.classes_longest_mate_fen = p.classes_longest_mate_fen;
    }
    const std::uint64_t group = std::uint64_t(indexer.symmetry_count());
    s.classes_loss /= group, s.classes_draw /= group, s.classes_win /= group;
  }
  return out;
}

std::array<SideStatistics, 2> compute_statistics(const Indexer& indexer, const MemberValues& values, int threads) {
  return merge_statistics(indexer, {partial_statistics(indexer, values, threads, 0)});
}

}  // namespace feerie

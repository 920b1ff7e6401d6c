// The position indexer shared by the generator and the prober (SPEC 4): a reversible map
// between the positions of one material signature (one side to move at a time) and the
// integers [0, size()).
//
// Layout. Units are taken in groups: the white king, the black king, then each group of
// identical units (same colour, type and magic flag) in the material's canonical order.
// Positions without an en-passant square fill [0, base_size()):
//
//   index = ((kk * C(64, n1) + g1) * C(64, n2) + g2) ...
//
// - kk is the position of the (white king, black king) pair in the list of canonical
//   king pairs. With the full symmetry group (8 board symmetries: no pawn can appear —
//   none on the board and no magic unit that could demote an enemy unit to one — and
//   rules unchanged by flips) the white king stands in the triangle a1-d1-d4 and, when it is on
//   the a1-d4 diagonal, the black king on or below the a1-h8 diagonal; with the a<->h
//   mirror only, the white king stands on files a-d. With both kings on the diagonal the
//   reflection in it keeps the pair canonical: of the two images the one with the
//   smaller index is the entry, the other entry is no position. Adjacent kings are in the list only
//   when the rules let kings touch (Madrasi RI); equal squares never are.
// - g_i is the combinatorial number of the group's squares s_1 < ... < s_n over all 64
//   squares: sum C(s_j, j). Squares that collide with other units are entries that are
//   not positions (value Illegal); this wastes a little space and keeps the formula
//   simple and the same for every material.
//
// En-passant region. When the side not to move has ordinary pawns and the side to move a
// unit that could take en passant (an ordinary pawn; under Annan and Nanna any unit with
// a pawn of its own, magic or not, as lender; under Face-to-face and Back-to-back any unit
// faced by another enemy pawn), the index also holds the positions where a pawn of the side
// not to move has just made a double step that the side to move could take en passant (an
// en-passant square no unit could use is dropped before indexing: the position is the
// same as without it). That pawn stands on its
// fourth rank, so its file says where it is; it leaves its group, which counts one unit
// less (C(64, n - 1) combinations, 1 for a pawn alone), and
//
//   index = base_size() + (kk * 8 + file) * R + units,
//
// where `units` are the digits of the groups as above with that group reduced and R is
// the product of their combinations. R depends on the side to move (it is the other
// side's pawn that left its group); size() covers the larger of the two regions, the
// entries past a side's own region are no positions. An earlier layout ("/ep<N>" in the
// layout string) gave each pawn of the side not to move a whole copy of the base part:
// a table with a pawn on each side was twice the size of one with two pawns on one side.
//
// Worked example, KQvKR with the full group (no adjacent kings: 462 king pairs):
// White Kc2 (square 10), Qd4 (27), Black Ke6 (44), Rb6 (41). The white king is already in
// the triangle and not on the diagonal, so no symmetry applies. The canonical king pairs
// are numbered in increasing order of 64 * white king + black king (squares a1 = 0, b1 = 1,
// ..., h8 = 63): (c2, e6) is pair 272, so index = (272 * 64 + 27) * 64 + 41 = 1,115,881;
// size() = 462 * 64 * 64 = 1,892,352. docs/format.md ("Index of a position") gives the
// whole formula for readers of the files.
//
// Thread-safety: const methods may be called concurrently.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "probe/material.h"
#include "rules/position.h"
#include "rules/ruleset.h"

namespace feerie {

class Indexer {
 public:
  Indexer(const Material& material, const RuleSet& rules);

  std::uint64_t size() const { return size_; }
  // The number of canonical king pairs and the en-passant region's share: with the
  // groups' combinations they give size() = king_pair_count() * product * (1 + share),
  // which a caller can so compute in floating point for materials whose size does not fit
  // in 64 bits (size() is then meaningless).
  std::uint64_t king_pair_count() const { return pair_wk_.size(); }
  double ep_region_share() const { return ep_share_; }
  // The positions without an en-passant square: [0, base_size()).
  std::uint64_t base_size() const { return base_size_; }
  // The entries of one king pair below base_size(): a king pair's entries are consecutive,
  // from pair * pair_span().
  std::uint64_t pair_span() const { return pair_stride_; }
  // Entries [first, first + count).
  struct Run {
    std::uint64_t first = 0, count = 0;
    bool operator==(const Run&) const = default;
  };
  // Every entry once: the entries of every king pair below base_size(), the pairs whose
  // images under the 8 board symmetries are the same next to each other (ordered by the
  // smallest image, then by pair), then the en-passant region in index order. With the
  // a<->h mirror only, the pairs whose positions reach the same king pair of a table with
  // the full group (a promotion into a pawnless material) come up to four at a time, where
  // index order has them far apart. With the full group: index order.
  std::vector<Run> king_pair_runs_by_full_images() const;
  const Material& material() const { return material_; }
  // 8 with the full symmetry group, 2 with the a<->h mirror only.
  int symmetry_count() const { return full_symmetry_ ? 8 : 2; }
  // A description of the layout, stored in table headers and compared on opening.
  std::string layout() const;

  // Whether `pos` has an entry: its material, and kings that do not touch unless the
  // rules let them. index() requires it.
  bool can_index(const Position& pos) const;
  // The king part of can_index(), cheap enough for hot paths.
  bool kings_indexable(const Position& pos) const;

  // The index of `pos`, after choosing its canonical symmetric image and dropping an
  // unusable en-passant square. Precondition: Material::of(pos) == material().
  std::uint64_t index(const Position& pos) const;
  // The index of `after`: the position `before` (decoded from `before_index`, so in its
  // canonical image) with the unit on `from` moved to `to`. Cheaper than index(): without
  // en-passant squares, only the moved unit's group (or the king pair, when the new pair
  // is canonical as it stands) changes. Falls back to index(after) otherwise.
  std::uint64_t index_after_move(std::uint64_t before_index, const Position& before, const Position& after, Square from,
                                 Square to) const;

  // The shortcut of index_after_move() for a non-king unit alone in its group: when it
  // applies, moving `unit` from `from` to `to` in `pos` (decoded from `index`) gives
  // index + (to - from) * unit_stride(...). 0 when it does not apply (en-passant
  // region, both kings on the diagonal with the full group, several such units).
  std::uint64_t unit_stride(const Position& pos, std::uint64_t index, Piece unit) const;

  // The same for the positions unit_stride() leaves out because both kings stand on the
  // a1-h8 diagonal under the full group: index() takes the smaller index of two images,
  // the position and its reflection in the diagonal (which keeps the kings in place), and
  // a move of a unit alone in its group changes each of them by the stride times the
  // change of the unit's square in that image. `stride` 0: does not apply (not such a
  // position, en-passant region or square, several such units).
  struct DiagonalMoves {
    std::uint64_t reflected = 0;  // the reflection's index
    std::uint64_t stride = 0;
    // The index after the unit moves from `from` to the empty square `to` in the position
    // of entry `index` (the smaller of its two images' indices).
    std::uint64_t after(std::uint64_t index, Square from, Square to) const {
      return std::min(index + (std::uint64_t(to) - std::uint64_t(from)) * stride,
                      reflected + (std::uint64_t(flip_diagonal(to)) - std::uint64_t(flip_diagonal(from))) * stride);
    }
  };
  DiagonalMoves diagonal_moves(const Position& pos, std::uint64_t index, Piece unit) const;

  // The shortcut of index_after_move() for a king move: the index after the kings of
  // `pos` (decoded from `index`) move to (new_wk, new_bk); NoShortcut where it does not
  // apply (en-passant region or square, both kings of the new pair on the diagonal with
  // the full group, a pair not in the list).
  static constexpr std::uint64_t NoShortcut = ~std::uint64_t(0);
  // A king move changes only the king pair, and with it maybe the symmetry that makes the
  // position canonical (a king leaving the triangle or the files a-d); every other unit
  // then moves to its image. The other units' part of the index under each symmetry is
  // the same for all the king moves of one position: a cache, one per position, keeps it
  // from the first move that needs it (a position's king moves fall under two or three
  // symmetries; without it each such move computed the whole index).
  struct KingMoveCache {
    std::uint8_t known = 0;  // bit t: units[t] holds the units' part under symmetry t
    std::array<std::uint64_t, 8> units;
  };
  std::uint64_t index_after_king_move(std::uint64_t index, const Position& pos, Square new_wk, Square new_bk,
                                      KingMoveCache& cache) const {
    if (index >= base_size_ || pos.ep_square() != SQ_NONE) return NoShortcut;
    const std::size_t kings = std::size_t(new_wk) * 64 + std::size_t(new_bk);
    const std::int32_t pair = image_pair_index_[kings];
    if (pair < 0) return NoShortcut;
    const int t = canonical_symmetry_[kings];
    if (!(cache.known & (1u << t))) fill_king_move_cache(index, pos, t, cache);
    return std::uint64_t(pair) * pair_stride_ + cache.units[std::size_t(t)];
  }
  std::uint64_t index_after_king_move(std::uint64_t index, const Position& pos, Square new_wk, Square new_bk) const {
    KingMoveCache cache;
    return index_after_king_move(index, pos, new_wk, new_bk, cache);
  }

  // The position at `index`, with `side_to_move`. False when the entry is not a position
  // (units on the same square, a non-canonical king pair, an impossible en-passant
  // square, an entry past the side's own en-passant region); legality under the rules is
  // not checked here.
  bool decode(std::uint64_t index, Color side_to_move, Position& out) const;

  // Consecutive indices decoded faster (the solver's initialisation, the statistics and the
  // verifier walk the entries in index order). A cursor keeps the kings and the units of
  // every group but the innermost of the last index decoded through it; the next index,
  // which differs only in the innermost unit's square 63 times in 64, moves that unit
  // alone. Used below base_size() when the innermost group is one unit; otherwise (the
  // en-passant region too), and when the cursor holds another index's outer units, this
  // is decode(). The results are decode()'s. One cursor per thread and per indexer.
  // Aligned to a cache line: the solver keeps one per thread side by side, and each thread
  // writes its own position for every entry it decodes.
  class alignas(64) Cursor {
   public:
    Cursor() = default;

   private:
    friend class Indexer;
    std::uint64_t outer_ = ~std::uint64_t(0);  // the position's index without the innermost unit; ~0: none
    Color side_ = WHITE;
    bool ok_ = false;          // the outer units are a placement (no two units on one square)
    bool diagonal_ = false;    // both kings on the a1-h8 diagonal under the full group: index() decides
    Square placed_ = SQ_NONE;  // where position_ holds the innermost unit; SQ_NONE: not placed
    Position position_;        // the outer units of outer_, and the innermost unit on placed_
  };
  bool decode(std::uint64_t index, Color side_to_move, Position& out, Cursor& cursor) const;
  // decode() through a cursor without copying the position: the result is the cursor's own
  // position, valid until the cursor's next use; null when the entry is not a position. The
  // caller may change it only if it puts it back as it was (a move made and unmade), so
  // that the next index can be reached from it. The solver's passes and initialisation
  // decode every entry this way (no copy per entry: 2% of an orthodox solve on one thread).
  Position* decode_in_place(std::uint64_t index, Color side_to_move, Cursor& cursor) const;
  // Whether the 64 indices of each run starting at a multiple of 64 below base_size() stand
  // for one placement of every unit but innermost_unit(), which stands on the square of the
  // index's lowest six bits (what a cursor relies on; not so in the en-passant region).
  bool innermost_walks() const { return cursor_walks_; }
  Piece innermost_unit() const { return groups_.back().piece; }

  // The parity of the square colours of the king of `c` and of its first unit alone in its
  // group, in entry `index` of the side to move `c` (the en-passant region's layout
  // depends on the side to move): 0 or 1; -1 when `c` has no such unit. Every
  // board symmetry changes the colour of every square or of none, so all images of a
  // position have one parity; and a move of the other side that keeps the material leaves
  // it as it is. The solver splits the wins of a pass between two threads by it: the
  // predecessors of a win, reached by un-moves of the other side, share its parity.
  int colour_parity(std::uint64_t index, Color c) const {
    const int g = lone_group_[c];
    if (g < 0) return -1;
    if (index >= base_size_) return colour_parity_by_decoding(index, c);
    const std::uint64_t base = index;
    const std::uint64_t pair = pair_shift_ >= 0 ? base >> pair_shift_ : base / pair_stride_;
    const unsigned king = c == WHITE ? pair_wk_[pair] : pair_bk_[pair];
    // Most strides are powers of two: a shift, not a division (the hottest instruction of
    // the split scan of wins, which asks this of every entry it finds, on both threads).
    const int shift = lone_shift_[c];
    const unsigned unit = unsigned((shift >= 0 ? base >> shift : base / groups_[std::size_t(g)].stride) % 64);
    return squares_parity(king, unit);
  }

  // Whether colour_parity() has a parity for `c` (a unit alone in its group besides the king).
  bool has_colour_parity(Color c) const { return lone_group_[c] >= 0; }

  // Symmetry number t (0 <= t < symmetry_count()) applied to a square: bit 2 reflects in
  // the a1-h8 diagonal, then bit 0 mirrors a<->h, then bit 1 flips ranks.
  static Square transform(int t, Square s);
  static Position transform(int t, const Position& pos);

 private:
  struct Group {
    Piece piece;
    int count;
    std::uint64_t combinations;  // C(64, count)
    std::uint64_t stride;        // product of the combinations of the groups after it
    int shift;                   // log2(combinations) when a power of two, else -1
  };

  // The parity of the colours of two squares (0: the same colour).
  static int squares_parity(unsigned a, unsigned b) { return int(((a >> 3) ^ a ^ (b >> 3) ^ b) & 1); }
  int colour_parity_by_decoding(std::uint64_t index, Color c) const;
  int canonical_symmetry(Square wk, Square bk) const;
  int find_canonical_symmetry(Square wk, Square bk) const;
  std::uint64_t index_with_symmetry(const Position& pos, int t, bool then_reflect) const;
  // The units' part of index_with_symmetry() (the digits of every group but the king pair,
  // each times its stride) with the square map `images`; `ep_pawn` the image of the pawn
  // that may be taken en passant (SQ_NONE: none), left out of its group (the en-passant
  // region's digits).
  std::uint64_t units_index(const Position& pos, const Square* images, Square ep_pawn) const;
  // Puts the units' part of `pos` (entry `index`) under symmetry t into `cache`.
  void fill_king_move_cache(std::uint64_t index, const Position& pos, int t, KingMoveCache& cache) const;
  bool is_canonical_pair(Square wk, Square bk) const;
  // Puts on `out` the units of groups_[0, groups) decoded from `rest` (the digits of the
  // last of them lowest) and then the kings of the king pair left in `rest`; false when two
  // stand on one square. Group `reduced` (-1: none) counts one unit less: the en-passant
  // region's digits, its pawn placed by the caller.
  bool place_units(std::uint64_t rest, std::size_t groups, int reduced, Position& out) const;
  bool decode_ep_region(std::uint64_t index, Color side_to_move, Position& out) const;

  Material material_;
  RuleSet rules_;  // decides which en-passant squares are usable
  bool full_symmetry_;
  bool kings_may_touch_;
  std::vector<Group> groups_;             // non-king groups
  std::array<std::int8_t, 64> group_of_;  // Piece::code() -> its group, or -1
  std::vector<std::uint16_t> pair_wk_, pair_bk_;
  std::vector<std::int32_t> pair_index_;          // [wk * 64 + bk] -> kk or -1
  std::vector<std::uint8_t> canonical_symmetry_;  // [wk * 64 + bk] -> symmetry to apply
  // [wk * 64 + bk] -> kk of the pair's canonical image, or -1 when it has none or when it
  // has both kings on the diagonal with the full group (two candidate images: index()).
  std::vector<std::int32_t> image_pair_index_;
  // Per side to move: the group of the other side's ordinary pawns (-1: no en-passant
  // region), R of the layout and the region's entries.
  std::array<int, 2> ep_group_{-1, -1};
  std::array<std::uint64_t, 2> ep_rest_{0, 0}, ep_size_{0, 0};
  double ep_share_ = 0;
  bool cursor_walks_ = false;              // decode() with a cursor can move the innermost unit alone
  std::uint64_t pair_stride_ = 0;          // product of all group combinations: one king pair's span
  int pair_shift_ = -1;                    // log2(pair_stride_) when a power of two, else -1
  std::array<int, 2> lone_group_{-1, -1};  // per colour: its first group of one unit (colour_parity)
  std::array<int, 2> lone_shift_{-1, -1};  // per colour: log2 of that group's stride, or -1
  std::uint64_t base_size_ = 0;
  std::uint64_t size_ = 0;
};

// The symmetries of the indexer's group that leave both kings of `pos` in place (the
// identity first), into `out`; their number. Only these can map a position onto itself.
int king_fixing_symmetries(const Indexer& indexer, const Position& pos, int out[8]);

// The distinct board-symmetry images of `pos` under the indexer's group: the group's size
// divided by the number of symmetries that map the position onto itself. Every position
// has exactly one entry, so this is the number of raw positions (SPEC 1, "Counting
// positions") an entry stands for. `pointwise`, when given, receives the number of
// symmetries that fix every occupied square (the reference convention's class count).
int distinct_images(const Indexer& indexer, const Position& pos, int* pointwise = nullptr);

}  // namespace feerie

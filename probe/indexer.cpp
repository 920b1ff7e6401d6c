#include "probe/indexer.h"

#include <algorithm>
#include <bit>
#include <sstream>

#include "rules/movegen.h"

namespace feerie {

namespace {

// Binomial coefficients C(n, k) for n <= 64, k <= 8 (material groups hold at most 8 units).
struct Binomials {
  std::uint64_t c[65][9] = {};
  constexpr Binomials() {
    for (int n = 0; n <= 64; ++n) {
      c[n][0] = 1;
      for (int k = 1; k <= 8 && k <= n; ++k) c[n][k] = c[n - 1][k - 1] + (k <= n - 1 ? c[n - 1][k] : 0);
    }
  }
};
constexpr Binomials Binomial{};

bool in_triangle(Square s) { return file_of(s) <= 3 && rank_of(s) <= file_of(s); }
bool on_diagonal(Square s) { return file_of(s) == rank_of(s); }
bool below_or_on_diagonal(Square s) { return rank_of(s) <= file_of(s); }
bool adjacent(Square a, Square b) { return king_bb(a) & square_bb(b); }

}  // namespace

namespace {

// Images of every square under the 8 symmetries, and the reflection in the diagonal
// applied after them (index() needs it when both kings are on the diagonal).
struct SymmetryTables {
  Square image[8][SQUARE_NB];
  Square reflected_image[8][SQUARE_NB];
  SymmetryTables() {
    for (int t = 0; t < 8; ++t)
      for (int i = 0; i < SQUARE_NB; ++i) {
        Square s = Square(i);
        if (t & 4) s = flip_diagonal(s);
        if (t & 1) s = mirror_file(s);
        if (t & 2) s = flip_rank(s);
        image[t][i] = s;
        reflected_image[t][i] = flip_diagonal(s);
      }
  }
};
const SymmetryTables Symmetry;

}  // namespace

Square Indexer::transform(int t, Square s) { return Symmetry.image[t][s]; }

Position Indexer::transform(int t, const Position& pos) {
  Position out;
  for (Bitboard b = pos.pieces(); b;) {
    Square s = pop_lsb(b);
    out.put_piece(pos.piece_on(s), transform(t, s));
  }
  out.set_side_to_move(pos.side_to_move());
  if (pos.ep_square() != SQ_NONE) out.set_ep_square(transform(t, pos.ep_square()));
  return out;
}

bool Indexer::is_canonical_pair(Square wk, Square bk) const {
  if (wk == bk || (!kings_may_touch_ && adjacent(wk, bk))) return false;
  if (!full_symmetry_) return file_of(wk) <= 3;
  return in_triangle(wk) && (!on_diagonal(wk) || below_or_on_diagonal(bk));
}

int Indexer::canonical_symmetry(Square wk, Square bk) const { return canonical_symmetry_[wk * 64 + bk]; }

int Indexer::find_canonical_symmetry(Square wk, Square bk) const {
  for (int t = 0; t < symmetry_count(); ++t) {
    Square w = transform(t, wk), b = transform(t, bk);
    if (full_symmetry_ ? in_triangle(w) && (!on_diagonal(w) || below_or_on_diagonal(b)) : file_of(w) <= 3) return t;
  }
  return 0;  // unreachable: some image of any pair is canonical
}

std::vector<Indexer::Run> Indexer::king_pair_runs_by_full_images() const {
  std::vector<std::pair<int, std::uint32_t>> keyed;  // (smallest image as wk * 64 + bk, pair)
  for (std::uint32_t pair = 0; pair < pair_wk_.size(); ++pair) {
    int smallest = 64 * 64;
    for (int t = 0; t < 8 && !full_symmetry_; ++t)  // with the full group, no two pairs share images
      smallest = std::min(smallest, transform(t, Square(pair_wk_[pair])) * 64 + transform(t, Square(pair_bk_[pair])));
    keyed.push_back({smallest, pair});
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<Run> runs;
  for (const auto& [image, pair] : keyed) runs.push_back({pair * pair_stride_, pair_stride_});
  if (size_ > base_size_) runs.push_back({base_size_, size_ - base_size_});
  return runs;
}

namespace {

// Whether a pawn can stand on the board in this material or in one it turns into without
// capture: a pawn is there, or a magic unit can demote an enemy unit step by step down to
// a pawn (SPEC 3.5). Pawns move one way, so only the a<->h mirror keeps such positions'
// values. Every member of a component answers alike: they have the same units up to
// the types of the ordinary ones.
bool pawns_may_appear(const Material& m) {
  if (m.has(PAWN)) return true;
  for (Color c : {WHITE, BLACK}) {
    bool enemy_chain_units = false;
    for (int pt = KNIGHT; pt <= QUEEN; ++pt) enemy_chain_units = enemy_chain_units || m.count(~c, PieceType(pt), false);
    if (m.has_magic(c) && enemy_chain_units) return true;
  }
  return false;
}

// Whether a unit of `side` could take en passant in some position of the material (the
// side not to move having an ordinary pawn): an ordinary pawn of its own; under Annan and
// Nanna any unit with a pawn of its own as lender, a magic one too (SPEC 3.6: magic units
// lend their walk); under Face-to-face and Back-to-back any unit faced by an enemy pawn
// other than the one that moved (the taker stands beside that one), a magic one too.
bool may_take_en_passant(const Material& m, const RuleSet& rules, Color side) {
  if (m.count(side, PAWN, false)) return true;
  if (rules.own_walks()) return false;
  if (rules.enemies_lend()) return m.count(~side, PAWN, false) + m.count(~side, PAWN, true) >= 2;
  return m.count(side, PAWN, true) > 0;
}

}  // namespace

Indexer::Indexer(const Material& material, const RuleSet& rules) : material_(material), rules_(rules) {
  full_symmetry_ = !pawns_may_appear(material) && rules.full_symmetry();
  kings_may_touch_ = rules.kings_may_touch();
  pair_index_.assign(64 * 64, -1);
  canonical_symmetry_.resize(64 * 64);
  for (int wk = 0; wk < 64; ++wk)
    for (int bk = 0; bk < 64; ++bk)
      canonical_symmetry_[wk * 64 + bk] = std::uint8_t(find_canonical_symmetry(Square(wk), Square(bk)));
  for (int wk = 0; wk < 64; ++wk)
    for (int bk = 0; bk < 64; ++bk)
      if (is_canonical_pair(Square(wk), Square(bk))) {
        pair_index_[wk * 64 + bk] = std::int32_t(pair_wk_.size());
        pair_wk_.push_back(std::uint16_t(wk));
        pair_bk_.push_back(std::uint16_t(bk));
      }
  image_pair_index_.assign(64 * 64, -1);
  for (int wk = 0; wk < 64; ++wk)
    for (int bk = 0; bk < 64; ++bk) {
      const int t = canonical_symmetry_[wk * 64 + bk];
      const Square w = transform(t, Square(wk)), b = transform(t, Square(bk));
      if (!(full_symmetry_ && on_diagonal(w) && on_diagonal(b)))
        image_pair_index_[wk * 64 + bk] = pair_index_[w * 64 + b];
    }
  base_size_ = pair_wk_.size();
  for (Color c : {WHITE, BLACK})
    for (int magic = 0; magic < 2; ++magic)
      for (PieceType pt : NameOrder) {
        int n = pt == KING ? 0 : material.count(c, pt, magic);
        if (n == 0) continue;
        groups_.push_back({Piece(c, pt, magic), n, Binomial.c[64][n], 0, -1});
        base_size_ *= Binomial.c[64][n];
      }
  group_of_.fill(-1);
  for (std::size_t g = 0; g < groups_.size(); ++g) group_of_[groups_[g].piece.code()] = std::int8_t(g);
  std::uint64_t stride = 1;
  for (auto g = groups_.rbegin(); g != groups_.rend(); ++g) {
    g->stride = stride;
    stride *= g->combinations;
    // A single unit has 64 = 2^6 combinations: decode() then shifts instead of dividing.
    g->shift = std::has_single_bit(g->combinations) ? std::countr_zero(g->combinations) : -1;
  }
  pair_stride_ = stride;
  pair_shift_ = std::has_single_bit(stride) ? std::countr_zero(stride) : -1;
  for (std::size_t g = groups_.size(); g-- > 0;)
    if (groups_[g].count == 1) lone_group_[groups_[g].piece.color()] = int(g);
  for (Color c : {WHITE, BLACK})
    if (lone_group_[c] >= 0) {
      const std::uint64_t lone_stride = groups_[std::size_t(lone_group_[c])].stride;
      lone_shift_[c] = std::has_single_bit(lone_stride) ? std::countr_zero(lone_stride) : -1;
    }
  // The en-passant region: a double step of the side not to move's ordinary pawn that the
  // side to move could take.
  for (Color side_to_move : {WHITE, BLACK}) {
    const int g = group_of_[Piece(~side_to_move, PAWN, false).code()];
    if (g < 0 || !may_take_en_passant(material, rules, side_to_move)) continue;
    const Group& pawns = groups_[std::size_t(g)];
    ep_group_[side_to_move] = g;
    ep_rest_[side_to_move] = pair_stride_ / pawns.combinations * Binomial.c[64][pawns.count - 1];
    ep_size_[side_to_move] = pair_wk_.size() * 8 * ep_rest_[side_to_move];
    // 8 files times C(64, n - 1) / C(64, n) = n / (65 - n) of the base part.
    ep_share_ = std::max(ep_share_, 8.0 * pawns.count / (65 - pawns.count));
  }
  size_ = base_size_ + std::max(ep_size_[WHITE], ep_size_[BLACK]);
  // Below base_size() only: the en-passant region decodes whole.
  cursor_walks_ = !groups_.empty() && groups_.back().count == 1 && groups_.back().shift == 6;
}

std::string Indexer::layout() const {
  std::ostringstream s;
  s << "kk" << pair_wk_.size() << (full_symmetry_ ? "/sym8" : "/sym2") << (kings_may_touch_ ? "/touch" : "");
  for (const Group& g : groups_)
    s << "/" << (g.piece.color() == WHITE ? "w" : "b") << (g.piece.magic() ? "m" : "") << PieceLetters[g.piece.type()]
      << g.count;
  // "/ep0": no en-passant region; "/epfile": the region by the file of the pawn (the
  // earlier "/ep<N>" had N copies of the base part).
  s << (size_ > base_size_ ? "/epfile" : "/ep0");
  return s.str();
}

bool Indexer::kings_indexable(const Position& pos) const {
  Square wk = pos.king_square(WHITE), bk = pos.king_square(BLACK);
  if (wk == SQ_NONE || bk == SQ_NONE || wk == bk) return false;
  return kings_may_touch_ || !adjacent(wk, bk);
}

bool Indexer::can_index(const Position& pos) const { return kings_indexable(pos) && Material::of(pos) == material_; }

std::uint64_t Indexer::index(const Position& pos) const {
  Square wk = pos.king_square(WHITE), bk = pos.king_square(BLACK);
  int t = canonical_symmetry(wk, bk);
  std::uint64_t idx = index_with_symmetry(pos, t, false);
  // Both kings on the a1-h8 diagonal: the reflection in it keeps the king pair canonical,
  // so the position has two candidate images. The smaller index is the entry; the other
  // one is not a position (decode() refuses it), so every position has one entry.
  if (full_symmetry_ && on_diagonal(transform(t, wk)) && on_diagonal(transform(t, bk)))
    idx = std::min(idx, index_with_symmetry(pos, t, true));
  return idx;
}

std::uint64_t Indexer::index_with_symmetry(const Position& pos, int t, bool then_reflect) const {
  const Square* images = then_reflect ? Symmetry.reflected_image[t] : Symmetry.image[t];
  Square wk = pos.king_square(WHITE), bk = pos.king_square(BLACK);
  // (kk * C1 + g1) * C2 + g2 ... = kk * pair_stride + the units' part.
  const std::uint64_t pair = std::uint64_t(pair_index_[images[wk] * 64 + images[bk]]);
  const Color stm = pos.side_to_move();
  if (ep_group_[stm] >= 0 && ep_square_usable(pos, rules_)) {
    const Square ep_pawn = images[Square(pos.ep_square() - pawn_push(stm))];
    return base_size_ + (pair * 8 + std::uint64_t(file_of(ep_pawn))) * ep_rest_[stm] +
           units_index(pos, images, ep_pawn);
  }
  return pair * pair_stride_ + units_index(pos, images, SQ_NONE);
}

std::uint64_t Indexer::units_index(const Position& pos, const Square* images, Square ep_pawn) const {
  const Piece ep_pawns = Piece(~pos.side_to_move(), PAWN, false);
  const Bitboard magic = pos.magic_pieces();
  std::uint64_t idx = 0;
  for (const Group& g : groups_) {
    const Bitboard units = pos.pieces(g.piece.color(), g.piece.type()) & (g.piece.magic() ? magic : ~magic);
    const bool reduced = ep_pawn != SQ_NONE && g.piece == ep_pawns;
    if (g.count == 1 && !reduced) {
      // C(s, 1) = s: the unit's image square is the digit.
      idx = idx * g.combinations + std::uint64_t(images[lsb(units)]);
      continue;
    }
    Bitboard squares = 0;
    for (Bitboard b = units; b;) squares |= square_bb(images[pop_lsb(b)]);
    if (reduced) squares &= ~square_bb(ep_pawn);
    std::uint64_t combination = 0;
    for (int j = 1; squares; ++j) combination += Binomial.c[pop_lsb(squares)][j];
    idx = idx * Binomial.c[64][reduced ? g.count - 1 : g.count] + combination;
  }
  return idx;
}

namespace {

std::uint64_t combination_of(Bitboard squares) {
  std::uint64_t combination = 0;
  for (int j = 1; squares; ++j) combination += Binomial.c[pop_lsb(squares)][j];
  return combination;
}

}  // namespace

std::uint64_t Indexer::index_after_move(std::uint64_t before_index, const Position& before, const Position& after,
                                        Square from, Square to) const {
  Piece unit = after.piece_on(to);
  Square wk = before.king_square(WHITE), bk = before.king_square(BLACK);
  if (before.ep_square() != SQ_NONE || after.ep_square() != SQ_NONE || before_index >= base_size_) return index(after);
  if (unit.type() == KING) {
    // Only the king pair changes, if the new pair needs no symmetry to be canonical.
    std::uint64_t shortcut =
        index_after_king_move(before_index, before, after.king_square(WHITE), after.king_square(BLACK));
    return shortcut != NoShortcut ? shortcut : index(after);
  }
  // The king pair, and so the symmetry, stays as in `before` (canonical, identity).
  if (full_symmetry_ && on_diagonal(wk) && on_diagonal(bk)) return index(after);
  int group = group_of_[unit.code()];
  if (group >= 0) {
    const Group& g = groups_[group];
    if (g.count == 1) return before_index + (std::uint64_t(to) - std::uint64_t(from)) * g.stride;
    Bitboard old_squares = 0, new_squares = 0;
    for (Bitboard b = before.pieces(unit.color(), unit.type()); b;) {
      Square s = pop_lsb(b);
      if (before.piece_on(s) == unit) old_squares |= square_bb(s);
    }
    new_squares = (old_squares & ~square_bb(from)) | square_bb(to);
    return before_index + (combination_of(new_squares) - combination_of(old_squares)) * g.stride;
  }
  return index(after);
}

void Indexer::fill_king_move_cache(std::uint64_t index, const Position& pos, int t, KingMoveCache& cache) const {
  if (t == 0) {
    // `pos` is canonical as it stands (decoded from `index`), its pair in the list: the
    // units' part is what the pair leaves of the index.
    const std::int32_t pair = pair_index_[pos.king_square(WHITE) * 64 + pos.king_square(BLACK)];
    cache.units[0] = index - std::uint64_t(pair) * pair_stride_;
  } else {
    cache.units[std::size_t(t)] = units_index(pos, Symmetry.image[t], SQ_NONE);
  }
  cache.known |= std::uint8_t(1u << t);
}

std::uint64_t Indexer::unit_stride(const Position& pos, std::uint64_t index, Piece unit) const {
  if (index >= base_size_ || pos.ep_square() != SQ_NONE) return 0;
  if (full_symmetry_ && on_diagonal(pos.king_square(WHITE)) && on_diagonal(pos.king_square(BLACK))) return 0;
  int group = group_of_[unit.code()];
  return group >= 0 && groups_[group].count == 1 ? groups_[group].stride : 0;
}

Indexer::DiagonalMoves Indexer::diagonal_moves(const Position& pos, std::uint64_t index, Piece unit) const {
  if (index >= base_size_ || pos.ep_square() != SQ_NONE) return {};
  if (!full_symmetry_ || !on_diagonal(pos.king_square(WHITE)) || !on_diagonal(pos.king_square(BLACK))) return {};
  const int group = group_of_[unit.code()];
  if (group < 0 || groups_[std::size_t(group)].count != 1) return {};
  // `pos` decoded from `index` is the image index() chose: its own index is `index`.
  return {index_with_symmetry(pos, 0, true), groups_[std::size_t(group)].stride};
}

bool Indexer::place_units(std::uint64_t rest, std::size_t groups, int reduced, Position& out) const {
  Bitboard occupied = out.pieces();
  for (std::size_t k = groups; k-- > 0;) {
    const Group& g = groups_[k];
    const int count = int(k) == reduced ? g.count - 1 : g.count;
    std::uint64_t combination;
    if (int(k) == reduced) {
      combination = rest % Binomial.c[64][count];
      rest /= Binomial.c[64][count];
    } else if (g.shift >= 0) {
      combination = rest & (g.combinations - 1);
      rest >>= g.shift;
    } else {
      combination = rest % g.combinations;
      rest /= g.combinations;
    }
    // Greedy decoding of the combinatorial number, largest square first.
    int limit = 64;
    for (int j = count; j >= 1; --j) {
      // The largest s below `limit` with C(s, j) <= combination (C(s, 1) = s).
      int s = j - 1;
      if (j == 1) {
        s = int(combination);
      } else {
        while (s + 1 < limit && Binomial.c[s + 1][j] <= combination) ++s;
      }
      combination -= Binomial.c[s][j];
      limit = s;
      if (occupied & square_bb(Square(s))) return false;
      occupied |= square_bb(Square(s));
      out.put_piece(g.piece, Square(s));
    }
  }
  Square wk = Square(pair_wk_[rest]), bk = Square(pair_bk_[rest]);
  if (occupied & (square_bb(wk) | square_bb(bk))) return false;
  out.put_piece(Piece(WHITE, KING), wk);
  out.put_piece(Piece(BLACK, KING), bk);
  return true;
}

bool Indexer::decode(std::uint64_t index, Color side_to_move, Position& out) const {
  out = Position();
  out.set_side_to_move(side_to_move);
  if (index >= base_size_) return decode_ep_region(index, side_to_move, out);
  if (!place_units(index, groups_.size(), -1, out)) return false;
  Square wk = out.king_square(WHITE), bk = out.king_square(BLACK);
  // With both kings on the diagonal only the smaller of two reflected entries is used.
  if (full_symmetry_ && on_diagonal(wk) && on_diagonal(bk) && this->index(out) != index) return false;
  return true;
}

bool Indexer::decode_ep_region(std::uint64_t index, Color side_to_move, Position& out) const {
  const std::uint64_t entry = index - base_size_;
  if (entry >= ep_size_[side_to_move]) return false;
  const std::uint64_t rest = ep_rest_[side_to_move];
  const std::uint64_t pair_and_file = entry / rest, units = entry % rest;
  // The digits with the king pair above them, as place_units() reads them.
  if (!place_units((pair_and_file / 8) * rest + units, groups_.size(), ep_group_[side_to_move], out)) return false;
  // The pawn stands where its double step ended, with the two squares it crossed empty.
  const Color mover = ~side_to_move;
  const Square pawn = make_square(int(pair_and_file % 8), mover == WHITE ? 3 : 4);  // its fourth rank
  const Square crossed = Square(pawn - pawn_push(mover)), origin = Square(crossed - pawn_push(mover));
  if (!out.empty(pawn) || !out.empty(crossed) || !out.empty(origin)) return false;
  out.put_piece(Piece(mover, PAWN, false), pawn);
  out.set_ep_square(crossed);
  return ep_square_usable(out, rules_) && ep_square_possible(out, rules_);
}

int Indexer::colour_parity_by_decoding(std::uint64_t index, Color c) const {
  Position pos;
  if (!decode(index, c, pos)) return 0;
  const Piece unit = groups_[std::size_t(lone_group_[c])].piece;
  const Bitboard magic = pos.magic_pieces();
  return squares_parity(unsigned(pos.king_square(c)),
                        unsigned(lsb(pos.pieces(unit.color(), unit.type()) & (unit.magic() ? magic : ~magic))));
}

bool Indexer::decode(std::uint64_t index, Color side_to_move, Position& out, Cursor& cursor) const {
  const Position* pos = decode_in_place(index, side_to_move, cursor);
  if (pos) out = *pos;
  return pos != nullptr;
}

Position* Indexer::decode_in_place(std::uint64_t index, Color side_to_move, Cursor& cursor) const {
  if (!cursor_walks_ || index >= base_size_) {
    cursor.outer_ = ~std::uint64_t(0);  // the position no longer holds the outer units of an index
    cursor.placed_ = SQ_NONE;
    return decode(index, side_to_move, cursor.position_) ? &cursor.position_ : nullptr;
  }
  const std::uint64_t outer = index >> 6;  // the innermost unit's square is the lowest 6 bits
  Position& pos = cursor.position_;
  if (outer != cursor.outer_ || side_to_move != cursor.side_) {
    cursor.outer_ = outer;
    cursor.side_ = side_to_move;
    cursor.placed_ = SQ_NONE;
    pos = Position();
    pos.set_side_to_move(side_to_move);
    cursor.ok_ = place_units(outer, groups_.size() - 1, -1, pos);
    cursor.diagonal_ =
        cursor.ok_ && full_symmetry_ && on_diagonal(pos.king_square(WHITE)) && on_diagonal(pos.king_square(BLACK));
  }
  const Square s = Square(index & 63);
  if (!cursor.ok_) return nullptr;
  // The innermost unit moves from where it stood to s: its piece is known, so the
  // position's bitboards are updated without reading its board first (the board read
  // and the read-modify-writes behind it were the hottest instructions of decoding).
  const Piece unit = groups_.back().piece;
  const Square placed = cursor.placed_;
  const Bitboard others = placed == SQ_NONE ? pos.pieces() : pos.pieces() ^ square_bb(placed);
  if (others & square_bb(s)) {
    if (placed != SQ_NONE) pos.remove_piece(placed);
    cursor.placed_ = SQ_NONE;
    return nullptr;
  }
  if (placed == SQ_NONE)
    pos.put_piece(unit, s);
  else if (placed != s)
    pos.move_unit(unit, placed, s);
  cursor.placed_ = s;
  return !cursor.diagonal_ || this->index(pos) == index ? &pos : nullptr;
}

int king_fixing_symmetries(const Indexer& indexer, const Position& pos, int out[8]) {
  Square wk = pos.king_square(WHITE), bk = pos.king_square(BLACK);
  int n = 0;
  for (int t = 0; t < indexer.symmetry_count(); ++t)
    if (Indexer::transform(t, wk) == wk && Indexer::transform(t, bk) == bk) out[n++] = t;
  return n;
}

int distinct_images(const Indexer& indexer, const Position& pos, int* pointwise) {
  int candidates[8];
  int n = king_fixing_symmetries(indexer, pos, candidates);
  int stabiliser = 0;
  int fixing_every_square = 0;
  for (int k = 0; k < n; ++k) {
    int t = candidates[k];
    bool fixes_squares = true;
    for (Bitboard b = pos.pieces(); b && fixes_squares;) {
      Square s = pop_lsb(b);
      fixes_squares = Indexer::transform(t, s) == s;
    }
    fixing_every_square += fixes_squares;
    stabiliser += fixes_squares || Indexer::transform(t, pos) == pos;
  }
  if (pointwise) *pointwise = fixing_every_square;
  return indexer.symmetry_count() / stabiliser;
}

}  // namespace feerie

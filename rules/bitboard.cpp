#include "rules/bitboard.h"

#include <mutex>

namespace feerie {

namespace tables {
Bitboard ray[DIRECTION_NB][SQUARE_NB];
Bitboard knight[SQUARE_NB];
Bitboard king[SQUARE_NB];
Bitboard pawn_capture[COLOR_NB][SQUARE_NB];
Bitboard pawn_attackers[COLOR_NB][SQUARE_NB];
Bitboard between[SQUARE_NB][SQUARE_NB];
Bitboard line[SQUARE_NB][SQUARE_NB];
Bitboard rook_lines[SQUARE_NB], bishop_lines[SQUARE_NB];
#if defined(__BMI2__)
Bitboard rook_mask[SQUARE_NB], bishop_mask[SQUARE_NB];
unsigned rook_offset[SQUARE_NB], bishop_offset[SQUARE_NB];
// 102400 rook and 5248 bishop entries: the sum over squares of 2^(relevant bits).
Bitboard slider_attacks[102400 + 5248];
#endif
}  // namespace tables

namespace {

Bitboard leaper_bb(Square s, const int (*deltas)[2], int count) {
  Bitboard b = 0;
  for (int i = 0; i < count; ++i) {
    int f = file_of(s) + deltas[i][0], r = rank_of(s) + deltas[i][1];
    if (on_board(f, r)) b |= square_bb(make_square(f, r));
  }
  return b;
}

#if defined(__BMI2__)
// The occupancy bits that matter for a slider on s: its rays without their last square
// (a unit on the edge blocks nothing further).
Bitboard relevant_mask(Square s, bool rook) {
  Bitboard mask = 0;
  for (int d = rook ? 0 : 4; d < (rook ? 4 : 8); ++d) {
    Bitboard r = tables::ray[d][s];
    if (!r) continue;
    Square last = is_increasing(Direction(d)) ? msb(r) : lsb(r);
    mask |= r & ~square_bb(last);
  }
  return mask;
}

void fill_slider_tables() {
  unsigned offset = 0;
  for (bool rook : {true, false})
    for (int i = 0; i < SQUARE_NB; ++i) {
      Square s = Square(i);
      Bitboard mask = relevant_mask(s, rook);
      (rook ? tables::rook_mask : tables::bishop_mask)[s] = mask;
      (rook ? tables::rook_offset : tables::bishop_offset)[s] = offset;
      // Carry-Rippler: subsets of the mask in the order of their PEXT value.
      Bitboard subset = 0;
      do {
        tables::slider_attacks[offset++] = rook ? rook_attacks_by_rays(s, subset) : bishop_attacks_by_rays(s, subset);
        subset = (subset - mask) & mask;
      } while (subset);
    }
}
#endif

void fill_tables() {
  static const int KnightDeltas[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
  static const int KingDeltas[8][2] = {{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}};
  static const int WhitePawnDeltas[2][2] = {{-1, 1}, {1, 1}};
  static const int BlackPawnDeltas[2][2] = {{-1, -1}, {1, -1}};
  for (int i = 0; i < SQUARE_NB; ++i) {
    Square s = Square(i);
    tables::knight[s] = leaper_bb(s, KnightDeltas, 8);
    tables::king[s] = leaper_bb(s, KingDeltas, 8);
    // A pawn on its own first rank captures nothing (SPEC 2).
    tables::pawn_capture[WHITE][s] = rank_of(s) == 0 ? 0 : leaper_bb(s, WhitePawnDeltas, 2);
    tables::pawn_capture[BLACK][s] = rank_of(s) == 7 ? 0 : leaper_bb(s, BlackPawnDeltas, 2);
    for (int d = 0; d < DIRECTION_NB; ++d) {
      Bitboard b = 0;
      for (Square t = step(s, Direction(d)); t != SQ_NONE; t = step(t, Direction(d))) b |= square_bb(t);
      tables::ray[d][s] = b;
      (is_rook_direction(Direction(d)) ? tables::rook_lines : tables::bishop_lines)[s] |= b;
    }
  }
  for (int c = 0; c < COLOR_NB; ++c)
    for (int from = 0; from < SQUARE_NB; ++from)
      for (Bitboard b = tables::pawn_capture[c][from]; b; b &= b - 1)
        tables::pawn_attackers[c][lsb(b)] |= square_bb(Square(from));
#if defined(__BMI2__)
  fill_slider_tables();
#endif
  for (int a = 0; a < SQUARE_NB; ++a)
    for (int d = 0; d < DIRECTION_NB; ++d)
      for (Square t = step(Square(a), Direction(d)); t != SQ_NONE; t = step(t, Direction(d)))
        tables::between[a][t] = tables::ray[d][a] & ~tables::ray[d][t] & ~square_bb(t);
  for (int a = 0; a < SQUARE_NB; ++a)
    for (int d = 0; d < DIRECTION_NB; ++d) {
      Bitboard whole = tables::ray[d][a] | tables::ray[(d + 2) % 4 + (d >= 4 ? 4 : 0)][a] | square_bb(Square(a));
      for (Bitboard b = tables::ray[d][a]; b; b &= b - 1) tables::line[a][lsb(b)] = whole;
    }
}

// Static initialisation makes the tables ready before main() and before any test.
const bool TablesReady = (init_bitboards(), true);

}  // namespace

void init_bitboards() {
  static std::once_flag once;
  std::call_once(once, fill_tables);
}

Bitboard rook_attacks_by_rays(Square s, Bitboard occupied) {
  return ray_attacks_bb(DIR_N, s, occupied) | ray_attacks_bb(DIR_E, s, occupied) | ray_attacks_bb(DIR_S, s, occupied) |
         ray_attacks_bb(DIR_W, s, occupied);
}

Bitboard bishop_attacks_by_rays(Square s, Bitboard occupied) {
  return ray_attacks_bb(DIR_NE, s, occupied) | ray_attacks_bb(DIR_SE, s, occupied) |
         ray_attacks_bb(DIR_SW, s, occupied) | ray_attacks_bb(DIR_NW, s, occupied);
}

}  // namespace feerie

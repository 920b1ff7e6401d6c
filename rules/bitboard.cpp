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
    }
  }
  for (int c = 0; c < COLOR_NB; ++c)
    for (int from = 0; from < SQUARE_NB; ++from)
      for (Bitboard b = tables::pawn_capture[c][from]; b; b &= b - 1)
        tables::pawn_attackers[c][lsb(b)] |= square_bb(Square(from));
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

Bitboard rook_attacks_bb(Square s, Bitboard occupied) {
  return ray_attacks_bb(DIR_N, s, occupied) | ray_attacks_bb(DIR_E, s, occupied) |
         ray_attacks_bb(DIR_S, s, occupied) | ray_attacks_bb(DIR_W, s, occupied);
}

Bitboard bishop_attacks_bb(Square s, Bitboard occupied) {
  return ray_attacks_bb(DIR_NE, s, occupied) | ray_attacks_bb(DIR_SE, s, occupied) |
         ray_attacks_bb(DIR_SW, s, occupied) | ray_attacks_bb(DIR_NW, s, occupied);
}

}  // namespace feerie

// Bitboards and attack tables of the leapers and the sliding lines. Sliding attacks use
// rays and the first blocker on each ray; all fairy walks in Feerie are built from these
// rays too (a grasshopper or a locust looks for the first unit on a queen line).
#pragma once

#include <bit>
#if defined(__BMI2__)
#include <immintrin.h>
#endif

#include "rules/types.h"

namespace feerie {

// The eight queen directions, in the order N, E, S, W, NE, SE, SW, NW.
enum Direction : std::uint8_t { DIR_N, DIR_E, DIR_S, DIR_W, DIR_NE, DIR_SE, DIR_SW, DIR_NW, DIRECTION_NB };

inline constexpr int DirectionStep[DIRECTION_NB] = {8, 1, -8, -1, 9, -7, -9, 7};
inline constexpr int DirectionFile[DIRECTION_NB] = {0, 1, 0, -1, 1, 1, -1, -1};
inline constexpr int DirectionRank[DIRECTION_NB] = {1, 0, -1, 0, 1, -1, -1, 1};

constexpr bool is_rook_direction(Direction d) { return d < DIR_NE; }
// Rays towards increasing square numbers find their first blocker with the lowest bit.
constexpr bool is_increasing(Direction d) { return DirectionStep[d] > 0; }

// The first and the eighth rank: where pawns do not stand in orthodox tablebases (SPEC 1
// makes a pawn there a position too).
inline constexpr Bitboard FirstAndLastRanks = 0xFF000000000000FFULL;
// Where a pawn of colour c stands after a double step: the fourth rank as c sees it.
constexpr Bitboard double_step_rank_bb(Color c) { return c == WHITE ? 0x00000000FF000000ULL : 0x000000FF00000000ULL; }

constexpr int popcount(Bitboard b) { return std::popcount(b); }
inline Square lsb(Bitboard b) { return Square(std::countr_zero(b)); }
inline Square msb(Bitboard b) { return Square(63 - std::countl_zero(b)); }
inline Square pop_lsb(Bitboard& b) {
  Square s = lsb(b);
  b &= b - 1;
  return s;
}

namespace tables {
extern Bitboard ray[DIRECTION_NB][SQUARE_NB];
extern Bitboard knight[SQUARE_NB];
extern Bitboard king[SQUARE_NB];
extern Bitboard pawn_capture[COLOR_NB][SQUARE_NB];
extern Bitboard pawn_attackers[COLOR_NB][SQUARE_NB];
extern Bitboard between[SQUARE_NB][SQUARE_NB];
extern Bitboard line[SQUARE_NB][SQUARE_NB];
extern Bitboard rook_lines[SQUARE_NB], bishop_lines[SQUARE_NB];
#if defined(__BMI2__)
// Slider attacks by PEXT: attacks[offset[s] + pext(occupied, mask[s])].
extern Bitboard rook_mask[SQUARE_NB], bishop_mask[SQUARE_NB];
extern unsigned rook_offset[SQUARE_NB], bishop_offset[SQUARE_NB];
extern Bitboard slider_attacks[];
#endif
}  // namespace tables

// Fills the tables; idempotent and thread-safe (called from static initialisation).
void init_bitboards();

inline Bitboard ray_bb(Direction d, Square s) { return tables::ray[d][s]; }
inline Bitboard knight_bb(Square s) { return tables::knight[s]; }
inline Bitboard king_bb(Square s) { return tables::king[s]; }
// The (up to two) squares a pawn of colour `c` on `s` captures on. A pawn on its own
// first rank captures nothing (SPEC 2).
inline Bitboard pawn_capture_bb(Color c, Square s) { return tables::pawn_capture[c][s]; }
// The squares from which a pawn of colour `c` captures on `s` (the reverse of
// pawn_capture_bb, so pawns on their own first rank are excluded).
inline Bitboard pawn_attackers_bb(Color c, Square s) { return tables::pawn_attackers[c][s]; }
// Squares strictly between two squares on a common queen line, else empty.
inline Bitboard between_bb(Square a, Square b) { return tables::between[a][b]; }
// Whether one of the units on `lines_from` still sees `to` once the squares `blockers` are
// filled (for a leaper, between_bb is empty: nothing blocks it).
inline bool some_line_open(Bitboard lines_from, Square to, Bitboard blockers) {
  for (Bitboard b = lines_from; b;)
    if (!(between_bb(pop_lsb(b), to) & blockers)) return true;
  return false;
}
// The whole queen line through two squares (both included), else empty.
inline Bitboard line_bb(Square a, Square b) { return tables::line[a][b]; }
// The squares a rook or a bishop on `s` reaches on the empty board (1 KiB of tables, where
// the attack tables take 845 KiB: a first filter before those).
inline Bitboard rook_lines_bb(Square s) { return tables::rook_lines[s]; }
inline Bitboard bishop_lines_bb(Square s) { return tables::bishop_lines[s]; }

// The first occupied square along direction `d` from `s` (exclusive), or SQ_NONE.
inline Square first_blocker(Direction d, Square s, Bitboard occupied) {
  Bitboard hit = ray_bb(d, s) & occupied;
  if (!hit) return SQ_NONE;
  return is_increasing(d) ? lsb(hit) : msb(hit);
}

// The squares reachable along `d` up to and including the first blocker.
inline Bitboard ray_attacks_bb(Direction d, Square s, Bitboard occupied) {
  Square b = first_blocker(d, s, occupied);
  return b == SQ_NONE ? ray_bb(d, s) : ray_bb(d, s) ^ ray_bb(d, b);
}

// Ray by ray, from the first blocker on each ray (used to fill the PEXT tables, and as
// the portable implementation).
Bitboard rook_attacks_by_rays(Square s, Bitboard occupied);
Bitboard bishop_attacks_by_rays(Square s, Bitboard occupied);

#if defined(__BMI2__)
inline Bitboard rook_attacks_bb(Square s, Bitboard occupied) {
  return tables::slider_attacks[tables::rook_offset[s] + _pext_u64(occupied, tables::rook_mask[s])];
}
inline Bitboard bishop_attacks_bb(Square s, Bitboard occupied) {
  return tables::slider_attacks[tables::bishop_offset[s] + _pext_u64(occupied, tables::bishop_mask[s])];
}
#else
inline Bitboard rook_attacks_bb(Square s, Bitboard occupied) { return rook_attacks_by_rays(s, occupied); }
inline Bitboard bishop_attacks_bb(Square s, Bitboard occupied) { return bishop_attacks_by_rays(s, occupied); }
#endif
inline Bitboard queen_attacks_bb(Square s, Bitboard occupied) {
  return rook_attacks_bb(s, occupied) | bishop_attacks_bb(s, occupied);
}

// The square one step beyond `s` in direction `d`, or SQ_NONE off the board.
inline Square step(Square s, Direction d) {
  int f = file_of(s) + DirectionFile[d], r = rank_of(s) + DirectionRank[d];
  return on_board(f, r) ? make_square(f, r) : SQ_NONE;
}

}  // namespace feerie

// Per-position values, as stored in memory by the generator and on disk in tables.
//
// One 16-bit code per position and side to move, from the side to move's point of view:
//   0            Unknown  generator only: not resolved yet (a draw once solving ends)
//   1            Illegal  no position: squares overlap, the side not to move is in check,
//                         an en-passant flag that cannot be, a symmetric duplicate
//   2            Draw     neither side can force mate (stalemate included)
//   3 + p        a mate distance of p plies: p even = the side to move is mated in p
//                plies (p = 0: mated now), p odd = the side to move mates in p plies
//   0xFF00 + c   generator only, "open": not resolved yet, with c successor entries
//                that are not yet known to be wins of the opponent (c = 255: a move
//                out of the material draws, so the position can never be lost)
// Every state is named here; nothing else in Feerie compares codes with numbers.
#pragma once

#include <cstdint>

namespace feerie {

using ValueCode = std::uint16_t;

namespace value {

inline constexpr ValueCode Unknown = 0;
inline constexpr ValueCode Illegal = 1;
inline constexpr ValueCode Draw = 2;
inline constexpr ValueCode FirstMate = 3;
inline constexpr ValueCode OpenBase = 0xFF00;
inline constexpr int NeverLost = 255;
inline constexpr int MaxPlies = OpenBase - 1 - FirstMate;

constexpr ValueCode mate_in_plies(int plies) { return ValueCode(FirstMate + plies); }
constexpr bool is_mate(ValueCode v) { return v >= FirstMate && v < OpenBase; }
constexpr ValueCode open(int successors) { return ValueCode(OpenBase + successors); }
constexpr bool is_open(ValueCode v) { return v >= OpenBase; }
constexpr int open_successors(ValueCode v) { return v - OpenBase; }
// Unresolved and counting its successors down: a win of the opponent may still make it lost
// (not an entry with a move that leaves to a draw, whose count is NeverLost).
constexpr bool counts_down(ValueCode v) { return is_open(v) && open_successors(v) != NeverLost; }
constexpr int plies(ValueCode v) { return v - FirstMate; }  // precondition: is_mate(v)
constexpr bool is_win(ValueCode v) { return is_mate(v) && (plies(v) & 1); }
constexpr bool is_loss(ValueCode v) { return is_mate(v) && !(plies(v) & 1); }
// "Mate in N" / "mated in N" moves for people: N = ceil(plies / 2).
constexpr int moves(ValueCode v) { return (plies(v) + 1) / 2; }

}  // namespace value
}  // namespace feerie

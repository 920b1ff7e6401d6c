// Independent, deliberately slow reference move generator for magic pieces (SPEC 3.5).
//
// Test oracle only: it shares no code with the engine (no feerie headers) and is written
// straight from SPEC sections 1, 2 and 3.5 and the seed text on "pièces magiciennes".
// Rules covered: orthodox chess without castling, grasshopper (G) and locust (L), and
// magic units (letter followed by '*' in FEN) with mutation after every move.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace feerie::test::magic_reference {

struct RefMove {
  // Long algebraic: e2e4, e7e8q (promotion letter lower case: q r b n g l); a locust
  // capture is written from-square + landing square.
  std::string uci;
  // The position after the move (promotion, capture and mutations applied), written
  // exactly as `<placement> <w|b> - <ep> 0 1`, '*' after magic units, the en-passant
  // field present only when the side to move has an ordinary pawn that could capture
  // onto it diagonally.
  std::string fen_after;
};

// All legal moves of `fen` under orthodox chess extended with grasshopper, locust and
// magic units. Sorted by uci, then by fen_after.
// Throws std::invalid_argument on a FEN it cannot parse (bad placement, letters, side,
// a castling field other than '-', a malformed en-passant field, field count other than
// 4 or 6, or not exactly one king per side).
std::vector<RefMove> legal_moves_after(const std::string& fen);

// Leaf count of the legal move tree to `depth` plies (depth 0 -> 1).
std::uint64_t perft(const std::string& fen, int depth);

}  // namespace feerie::test::magic_reference

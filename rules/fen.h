// FEN in and out (docs/notation.md): standard six fields (the two counters may be left
// out), fairy letters G/g (grasshopper) and L/l (locust), a magic unit marked by `*`
// after its letter. Castling rights are rejected: Feerie has no castling (SPEC 1).
#pragma once

#include <string>
#include <string_view>

#include "rules/expected.h"
#include "rules/position.h"

namespace feerie {

// Parses and checks the structure: one king per side, a plausible en-passant square
// (the pawn that made the double step stands in front of it, the squares it crossed are
// empty). Whether the side not to move is in check depends on the condition and is
// checked by check_position_legal() (rules/movegen.h).
Expected<Position> parse_fen(std::string_view fen);

// Six fields, counters written as "0 1".
std::string to_fen(const Position& pos);

}  // namespace feerie

// Standard algebraic notation (SAN) for people, as in PGN, with the fairy units
// (docs/notation.md "Moves"):
//
//   e4  exd5  e8=Q  exd8=N+  Nbd2  R1a3  Qh4xe1  Kxc2#   (orthodox SAN)
//   Gd4  Lxe5-f6                                        (grasshopper; a locust takes on
//                                                        e5 and lands on f6, as Popeye shows it)
//   R*a4  P*e3                                          (magic units: the letter and '*',
//                                                        as in FEN; a magic pawn keeps its letter)
//
// The unit named is the one that moves, with its own letter, whatever walk it uses
// (Annan: a pawn moving as a knight is still a pawn move, "ef4" when its origin must be
// told). Disambiguation as in PGN: among the legal moves of units with the same letter
// (and magic mark) to the same square, the origin's file if it tells them apart, else
// its rank, else both. A pawn's capture always names its file. `x` for any capture
// (en passant, a locust's), `=` and the letter for a promotion, `+` for check and `#` for
// mate under the rules given (a paralysed checker gives no check).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rules/expected.h"
#include "rules/position.h"
#include "rules/ruleset.h"

namespace feerie {

// The SAN of legal move `m` of `pos`.
std::string to_san(const Position& pos, Move m, const RuleSet& rules);

// The legal move of `pos` that `text` names: SAN as to_san() writes it (the check and
// mate marks, `!` and `?` are optional; `x`, `=` and `-` may be left out when the move
// stays unambiguous; figurines, white or black, stand for the letters), or long algebraic
// notation (e2e4, e7e8q). Errors (InvalidArgument):
// no legal move has that name, or several have (naming them).
Expected<Move> parse_san(const Position& pos, std::string_view text, const RuleSet& rules);

// The SAN of each move of a line of legal moves played from `pos`, in order.
std::vector<std::string> san_moves(const Position& pos, const std::vector<Move>& line, const RuleSet& rules);
// The line as people print it, numbered from 1: "1.Kc2 Kb8 2.Qb7#", or with Black to
// move first "1...Kb8 2.Qb7#".
std::string san_line(const Position& pos, const std::vector<Move>& line, const RuleSet& rules);

// `san` with the letters of the orthodox pieces as figurines (K Q R B N: ♔ ♕ ♖ ♗ ♘, the
// same for both colours as in print); G, L and promotion letters after '=' too.
std::string to_figurine(std::string_view san);

}  // namespace feerie

// Legal move generation, make/unmake with a condition's after-move effects, check and
// position legality, perft. Each function exists twice: templated on a condition type
// (for hot loops that dispatched once, e.g. the generator) and taking a RuleSet (one
// dispatch per call, for everything else).
#pragma once

#include <cstdint>
#include <vector>

#include "rules/capture.h"
#include "rules/expected.h"
#include "rules/magic.h"
#include "rules/move.h"
#include "rules/position.h"
#include "rules/ruleset.h"

namespace feerie {

// All legal moves of the side to move: pseudo-legal moves of its units (by the walks the
// condition assigns, without its immobile units), kept when, after the move and its
// after-move effects, the mover's king is not in check and the condition allows the
// resulting position.
template <class Rules>
void generate_legal(const Position& pos, const Rules& rules, MoveList& out);

// The legal moves of the side to move split for the retrograde solver: the quiet moves
// (no capture, promotion or en passant) of kings, knights, bishops, rooks and queens as
// a bitboard of targets per unit, so that they can be counted or indexed without being
// made, and every other move (pawn moves, captures) listed. The same moves as
// generate_legal(). Only where legality follows from the board without making the moves:
// pins and checkers under orthodox legality, the restriction's own test with own walks
// (the paralysis family: rules/conditions/paralysis.h, isardam.h), the lines to the king
// under borrowed walks from friends where every move is allowed (Annan, Nanna, and those
// combined with paralysis), and no grasshopper, locust or magic unit on the board; false
// elsewhere, and the caller uses generate_legal(). `pos` must be legal
// (split_legal_moves_if_legal() below is for positions not known to be).
struct SplitMoves {
  static constexpr int MaxUnits = 32;
  Square from[MaxUnits];
  Bitboard quiet_targets[MaxUnits];
  int units = 0;
  MoveList listed;

  int quiet_count() const {
    int n = 0;
    for (int u = 0; u < units; ++u) n += popcount(quiet_targets[u]);
    return n;
  }
};
template <class Rules>
bool split_legal_moves(const Position& pos, const Rules& rules, SplitMoves& out);
// split_legal_moves() of the moves that leave the material only (captures, en passant,
// promotions), all listed: no quiet targets, no quiet move listed. What the solver asks of
// a position found lost (its moves that stay were counted already); under the paralysis
// family the quiet targets are not judged at all. False where split_legal_moves() is.
template <class Rules>
bool split_leaving_moves(const Position& pos, const Rules& rules, SplitMoves& out);
// Whether a move of `pos` may leave its material (capture, en passant, promotion): false
// only where none can, whatever the legality, judged by the walks its units use on the
// board: no unit of the side to move reaches a capturable unit, no real pawn may promote,
// no en-passant square. Positions with a grasshopper, a locust or a magic unit (hurdles,
// mutations) always may. The solver's short cut for a position found lost: most have no
// move out of the material, and the split of its moves is then needless.
template <class Rules>
bool may_leave_material(const Position& pos, const Rules& rules);

// What split_legal_moves_if_legal() found.
enum class SplitOutcome { Split, NotSplit, IllegalPosition };
// split_legal_moves() of a position not known to be legal: IllegalPosition when the side
// not to move is in check (is_legal_position() false), else Split, or NotSplit where the
// split does not apply (`out` not set: the caller uses generate_legal()). Under borrowed
// walks the split finds the check itself, from the walks it asks anyway.
template <class Rules>
SplitOutcome split_legal_moves_if_legal(const Position& pos, const Rules& rules, SplitMoves& out);

// do_move() followed by the mutations magic units cause (SPEC 3.5, under every
// condition), all recorded in `undo`. The rules are not needed for that today; the
// parameter keeps every call site ready for a condition with an after-move effect.
template <class Rules>
void make_move(Position& pos, Move m, UndoRecord& undo, const Rules&) {
  do_move_with_mutations(pos, m, undo);
}

// make_move() after the one dispatch on the rule set (one-off callers).
inline void make_move(Position& pos, Move m, UndoRecord& undo, const RuleSet& rules) {
  rules.visit([&](const auto& r) { make_move(pos, m, undo, r); });
}

// Legal as a position to solve or probe (SPEC 1): the side not to move is not in check.
template <class Rules>
bool is_legal_position(const Position& pos, const Rules& rules) {
  return !king_in_check(pos, ~pos.side_to_move(), rules);
}

// True when the en-passant square of `pos` could be used: a unit of the side to move
// that moves as a pawn (a real pawn; under Annan any unit lent a pawn's walk) stands
// where it could take the pawn that just made the double step. An unusable square
// changes nothing, so tables and retro moves drop it. ep_square_usable_at() asks the same
// of the square `ep` on the board of `pos` (whatever its own en-passant square).
template <class Rules>
bool ep_square_usable_at(const Position& pos, const Rules& rules, Square ep) {
  Color us = pos.side_to_move();
  for (Bitboard takers = pawn_attackers_bb(us, ep) & pos.pieces(us) & ~pos.magic_pieces(); takers;)
    if (rules.walk_of(pos, pop_lsb(takers)) == PAWN) return true;
  return false;
}
template <class Rules>
bool ep_square_usable(const Position& pos, const Rules& rules) {
  return pos.ep_square() != SQ_NONE && ep_square_usable_at(pos, rules, pos.ep_square());
}

// True when the pawn in front of the en-passant square of `pos` could have reached it by
// a double step: on its origin square it moved as a pawn, and it arrived unmutated.
// Always so in orthodox chess without magic units; under Annan a pawn with a knight
// behind it on its second rank moves as a knight and never makes a double step, and a
// pawn that meets a magic unit by its double step mutates on arrival (SPEC 3.5).
// Requires an en-passant square whose pawn stands in front and whose origin square is
// empty (what the FEN parser checks).
template <class Rules>
bool ep_square_possible(const Position& pos, const Rules& rules) {
  Color mover = ~pos.side_to_move();
  Square pawn = Square(pos.ep_square() + pawn_push(mover)), origin = Square(pos.ep_square() - pawn_push(mover));
  Position before = pos;
  before.move_piece(pawn, origin);
  if (rules.walk_of(before, origin) != PAWN) return false;
  if (!pos.magic_pieces()) return true;
  MutationDirection arrival = contact_direction(pos, mover, magic_met_bb(pos, origin, pawn));
  return mutated_type(PAWN, arrival, chain_end(pos)) == PAWN;
}

// Leaf-node count of the legal move tree to `depth` plies.
template <class Rules>
std::uint64_t perft(Position& pos, const Rules& rules, int depth);

void generate_legal(const Position& pos, const RuleSet& rules, MoveList& out);
// Each legal move with the position after it: captures, promotions and mutations
// applied, an en-passant square kept only when usable. In generation order.
struct MoveResult {
  Move move;
  Position after;
};
std::vector<MoveResult> legal_moves_with_results(const Position& pos, const RuleSet& rules);
// The position after the legal move `m` as every output writes it, the same as
// legal_moves_with_results' (probe --moves, play and moves --after once gave three FENs).
Position position_after(const Position& pos, Move m, const RuleSet& rules);
bool in_check(const Position& pos, const RuleSet& rules);  // the side to move is in check
bool is_legal_position(const Position& pos, const RuleSet& rules);
bool ep_square_usable(const Position& pos, const RuleSet& rules);
bool ep_square_possible(const Position& pos, const RuleSet& rules);
std::uint64_t perft(Position& pos, const RuleSet& rules, int depth);

// An error naming the side in check when the position is not legal under `rules`.
Status check_position_legal(const Position& pos, const RuleSet& rules);

// parse_fen() followed by check_position_legal(): a position users may ask about.
Expected<Position> parse_legal_position(std::string_view fen, const RuleSet& rules);

}  // namespace feerie

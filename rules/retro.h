// Retro (un-move) generation: the positions from which one legal move leads to a given
// position, for the moves that keep the material (no capture, no promotion). Captures and
// promotions leave the material and are handled by the generator through finished
// sub-tables.
//
// Exactness under fairy rules (SPEC 5): a generous superset of candidate predecessors is
// built from reversed walks (every walk the condition says the unit may have used), and a
// candidate is kept only if the forward rules, applied to it, produce a legal move that
// leads exactly to the given position. Candidates include the en-passant variants: a
// predecessor may itself carry an en-passant square.
#pragma once

#include "rules/movegen.h"
#include "rules/walks.h"

namespace feerie {

namespace retro_detail {

// Squares the unit on `to` may have come from with `walk`, in position `pos` (before
// un-moving it), together with whether that move would be a double step.
template <class F>
void for_each_origin(const Position& pos, Square to, PieceType walk, Color mover, F&& f) {
  Bitboard empty = ~pos.pieces();
  Bitboard origins = 0;
  switch (walk) {
    case KING: origins = king_bb(to); break;
    case KNIGHT: origins = knight_bb(to); break;
    case BISHOP: origins = bishop_attacks_bb(to, pos.pieces()); break;
    case ROOK: origins = rook_attacks_bb(to, pos.pieces()); break;
    case QUEEN: origins = queen_attacks_bb(to, pos.pieces()); break;
    case PAWN: {
      int back = -pawn_push(mover);
      int rank = relative_rank(mover, to);
      if (rank >= 2) {
        Square one = Square(to + back);
        if (pos.empty(one)) {
          f(one, false);
          if (rank == 3 && pos.empty(Square(one + back))) f(Square(one + back), true);
        }
      }
      return;
    }
    case GRASSHOPPER:
      // It jumped over a hurdle just behind `to`, from any empty square beyond the hurdle
      // up to the next unit.
      for (int d = 0; d < DIRECTION_NB; ++d) {
        Direction away = Direction(d);
        Square hurdle = step(to, away);
        if (hurdle == SQ_NONE || pos.empty(hurdle)) continue;
        for (Square s = step(hurdle, away); s != SQ_NONE && pos.empty(s); s = step(s, away)) f(s, false);
      }
      return;
    default: return;  // a locust only moves by capturing
  }
  for (origins &= empty; origins;) f(pop_lsb(origins), false);
}

// True when the forward rules play `m` legally in `before` and it leads exactly to
// `target`.
template <class Rules>
bool leads_to(const Position& before, Move m, const Position& target, const Rules& rules) {
  if constexpr (Rules::ExactRetroWalks) {
    // The reversed walk is the move; `target` is legal, so the mover is not in check
    // after it. What remains: a double step whose en-passant square the opponent could
    // use leads to a position with that square, which `target` must then have. A real
    // pawn reaching its last rank always promotes, so it never arrives there unchanged.
    if (before.piece_on(m.from()).type() == PAWN && relative_rank(before.side_to_move(), m.to()) == 7) return false;
    if (m.kind() != MoveKind::DOUBLE_STEP) return target.ep_square() == SQ_NONE;
    Position after = target;
    after.set_ep_square(Square((m.from() + m.to()) / 2));
    return ep_square_usable(after, rules) == (target.ep_square() != SQ_NONE);
  }
  Color mover = before.side_to_move();
  if (rules.immobile_bb(before) & square_bb(m.from())) return false;
  PieceType walk = rules.walk_of(before, m.from());
  Piece unit = before.piece_on(m.from());
  if (unit.type() == PAWN && (relative_rank(mover, m.from()) == 0 || relative_rank(mover, m.from()) == 7 ||
                              relative_rank(mover, m.to()) == 7))
    return false;  // a pawn on its first or last rank never moves; reaching its last rank it promotes
  if (walk >= KNIGHT && walk <= KING && m.kind() == MoveKind::NORMAL) {
    // A leaper or slider moving to an empty square: plain geometry.
    if (!(leaper_or_slider_bb(walk, m.from(), before.pieces()) & square_bb(m.to()))) return false;
  } else {
    MoveList unit_moves;
    add_walk_moves(before, m.from(), walk, rules.capturable_bb(before, mover), unit_moves);
    bool generated = false;
    for (Move g : unit_moves) generated = generated || g == m;
    if (!generated) return false;
  }
  Position after = before;
  UndoRecord undo;
  make_move(after, m, undo, rules);
  if (rules.in_check(after, mover) || !rules.move_allowed(after)) return false;
  if (!ep_square_usable(after, rules)) after.set_ep_square(SQ_NONE);  // an unusable square is not kept
  return after == target;
}

}  // namespace retro_detail

// Calls f(const Position& predecessor, Square from, Square to) once for each
// predecessor of `pos` by a material-keeping move, where the unit that stands on `to` in
// `pos` stood on `from`. Predecessors are legal positions (the side not to move in them
// is not in check) and carry an en-passant square exactly when one is usable. The
// position passed to f is only valid during the call.
//
// With CheckLegality false, predecessors in which the side not to move is in check are
// reported too (but never kings standing next to each other where the rules forbid it:
// such positions have no index entry); callers that look predecessors up in a table
// whose illegal entries are marked as such (the solver) save the check.
template <bool CheckLegality = true, class Rules, class F>
void for_each_predecessor(const Position& pos, const Rules& rules, F&& f) {
  Color mover = ~pos.side_to_move(), other = pos.side_to_move();
  Square ep = pos.ep_square();
  // One working copy, changed in place for each candidate and restored after it.
  Position before = pos;
  before.set_ep_square(SQ_NONE);
  before.set_side_to_move(mover);
  // After a double step only that double step can have been the last move.
  Bitboard candidates = ep == SQ_NONE ? pos.pieces(mover) : square_bb(Square(ep + pawn_push(mover)));
  for (Bitboard units = candidates; units;) {
    Square to = pop_lsb(units);
    unsigned walks = rules.retro_walks(pos, to);
    // Origins already tried, by kind of move (ordinary, double step): under Annan a
    // pawn may have come two squares by its own walk (a double step) or by a lent
    // rook's walk (an ordinary move), two different moves.
    Bitboard tried[2] = {0, 0};
    for (int w = PAWN; w < PIECE_TYPE_NB; ++w) {
      if (!(walks & (1u << w))) continue;
      retro_detail::for_each_origin(pos, to, PieceType(w), mover, [&](Square from, bool double_step) {
        // Only a real pawn makes a double step; a unit lent the pawn's walk makes an
        // ordinary two-square move.
        double_step = double_step && pos.piece_on(to).type() == PAWN;
        if (tried[double_step] & square_bb(from)) return;
        tried[double_step] |= square_bb(from);
        if (!CheckLegality && !rules.kings_may_touch() && pos.piece_on(to).type() == KING &&
            (king_bb(from) & pos.pieces(other, KING)))
          return;
        before.move_piece(to, from);
        Move m(from, to, double_step ? MoveKind::DOUBLE_STEP : MoveKind::NORMAL);
        if (!CheckLegality || is_legal_position(before, rules)) {
          if (retro_detail::leads_to(before, m, pos, rules)) f(static_cast<const Position&>(before), from, to);
          // The same move from positions where the side to move could have taken a
          // pawn of the other side en passant.
          for (Bitboard pawns = before.pieces(other, PAWN); pawns;) {
            Square p = pop_lsb(pawns);
            if (relative_rank(other, p) != 3) continue;
            Square crossed = Square(p - pawn_push(other)), origin = Square(crossed - pawn_push(other));
            if (!before.empty(crossed) || !before.empty(origin)) continue;
            before.set_ep_square(crossed);
            if (ep_square_usable(before, rules) && ep_square_possible(before, rules) &&
                (!CheckLegality || is_legal_position(before, rules)) &&
                retro_detail::leads_to(before, m, pos, rules))
              f(static_cast<const Position&>(before), from, to);
            before.set_ep_square(SQ_NONE);
          }
        }
        before.move_piece(from, to);
      });
    }
  }
}

}  // namespace feerie

// A position seen after a move without making it: the board of `pos` (its bitboards
// copied) with some squares emptied and at most two units put down. The paralysis family answers legality on it
// (rules/conditions/paralysis.h, isardam.h): the position after a move, and under
// Isardam type A the one after the enemy then takes the king. Only the units and the
// occupancy change; side to move, en-passant square and magic units are the caller's
// concern (the callers work where there are none of the latter).
#pragma once

#include <type_traits>

#include "rules/position.h"
#include "rules/walks.h"

namespace feerie {

class BoardEdit {
 public:
  explicit BoardEdit(const Position& pos) : pos_(pos) {
    for (Color c : {WHITE, BLACK}) color_[c] = pos.pieces(c);
    for (int pt = 0; pt < PIECE_TYPE_NB; ++pt) type_[pt] = pos.pieces(PieceType(pt));
  }
  // Every edit is made while copying, never on the bitboards in memory after: an edit
  // reloads what the copy has just stored, in wider or narrower pieces than it stored
  // them, and the processor stalls until the store is done (the legality tests of every
  // position's moves build these by the million).
  //
  // The board of `pos` with the units on `lifted` taken off.
  BoardEdit(const Position& pos, Bitboard lifted) : pos_(pos), removed_(lifted) {
    for (Color c : {WHITE, BLACK}) color_[c] = pos.pieces(c) & ~lifted;
    for (int pt = 0; pt < PIECE_TYPE_NB; ++pt) type_[pt] = pos.pieces(PieceType(pt)) & ~lifted;
  }
  // The board after the unit on `from` of `board` (a position or a board edit) moves to
  // `to`, taking what stands there, arriving as `arriving` (at most two moves from a
  // position).
  template <class Board>
  BoardEdit(const Board& board, Square from, Square to, PieceType arriving) : pos_(position_of(board)) {
    const Color mover = board.piece_on(from).color();
    const Bitboard target = square_bb(to), kept = ~(square_bb(from) | target);
    for (Color c : {WHITE, BLACK}) color_[c] = (board.pieces(c) & kept) | (c == mover ? target : 0);
    for (int pt = 0; pt < PIECE_TYPE_NB; ++pt)
      type_[pt] = (board.pieces(PieceType(pt)) & kept) | (pt == arriving ? target : 0);
    removed_ = ~kept;  // (`to` too: piece_on() finds the unit put down there first)
    if constexpr (std::is_same_v<Board, BoardEdit>) {
      // The units the edit put down stay, but the one moved or taken.
      removed_ |= board.removed_;
      for (int i = 0; i < board.added_; ++i)
        if (board.square_[i] != from && board.square_[i] != to) {
          square_[added_] = board.square_[i];
          piece_[added_++] = board.piece_[i];
        }
    }
    square_[added_] = to;
    piece_[added_++] = Piece(mover, arriving);
  }

  Bitboard occupied() const { return color_[WHITE] | color_[BLACK]; }
  Bitboard pieces(Color c) const { return color_[c]; }
  Bitboard pieces(PieceType pt) const { return type_[pt]; }
  Bitboard pieces(Color c, PieceType pt) const { return color_[c] & type_[pt]; }
  Piece piece_on(Square s) const {
    for (int i = 0; i < added_; ++i)
      if (square_[i] == s) return piece_[i];
    return removed_ & square_bb(s) ? NO_PIECE : pos_.piece_on(s);
  }
  Square king_square(Color c) const {
    const Bitboard k = pieces(c, KING);
    return k ? lsb(k) : SQ_NONE;
  }

 private:
  static const Position& position_of(const Position& pos) { return pos; }
  static const Position& position_of(const BoardEdit& board) { return board.pos_; }

  const Position& pos_;
  Bitboard color_[2];
  Bitboard type_[PIECE_TYPE_NB];
  Bitboard removed_ = 0;
  Square square_[2];
  Piece piece_[2];
  int added_ = 0;
};

// The squares of `targets` for which `keep(square)` holds: a unit's legal targets,
// judged one by one where no bitboard answers for them all.
template <class Keep>
Bitboard targets_where(Bitboard targets, Keep&& keep) {
  for (Bitboard t = targets; t;) {
    const Square to = pop_lsb(t);
    if (!keep(to)) targets ^= square_bb(to);
  }
  return targets;
}

// Which moves of the side to move may leave its king attacked, from the board before
// them. A king move may only to a square some enemy unit reaches once the king has left
// its own (a unit does not reach its own square, so taking it changes nothing there).
// Another unit's move may only if some enemy unit reaches the king now, or if the unit
// leaves a line between the king and an enemy slider (its target only blocks, or takes).
// A move that may not needs no check test. Ordinary units only (own walks).
class CheckLines {
 public:
  explicit CheckLines(const Position& pos) {
    const Color us = pos.side_to_move(), them = ~us;
    king_ = pos.king_square(us);
    const Bitboard occupied = pos.pieces(), without_king = occupied ^ square_bb(king_);
    reached_ = orthodox_attackers_bb(pos, king_, them, occupied) != 0;
    for (Bitboard enemies = pos.pieces(them); enemies;) {
      const Square s = pop_lsb(enemies);
      const PieceType type = pos.piece_on(s).type();
      if (type == BISHOP || type == ROOK || type == QUEEN) lines_ |= between_bb(king_, s);
      reached_by_enemy_ |= orthodox_observation_bb(type, them, s, without_king);
    }
  }
  bool may_check_after_move_of(Square from) const { return from == king_ || reached_ || (lines_ & square_bb(from)); }
  bool may_check_after_move(Square from, Square to) const {
    return from == king_ ? bool(reached_by_enemy_ & square_bb(to)) : reached_ || (lines_ & square_bb(from));
  }
  // The squares some enemy unit reaches with the king off its square.
  Bitboard reached_by_enemy() const { return reached_by_enemy_; }

 private:
  Square king_;
  bool reached_;
  Bitboard lines_ = 0;
  Bitboard reached_by_enemy_ = 0;  // with the king off its square
};

}  // namespace feerie

// A position seen after a move without making it: the board of `pos` (its bitboards
// copied) with some squares emptied and at most two units put down. The paralysis family answers legality on it
// (rules/conditions/paralysis.h, isardam.h): the position after a move, and under
// Isardam type A the one after the enemy then takes the king. Only the units and the
// occupancy change; side to move, en-passant square and magic units are the caller's
// concern (the callers work where there are none of the latter).
#pragma once

#include "rules/position.h"
#include "rules/walks.h"

namespace feerie {

class BoardEdit {
 public:
  explicit BoardEdit(const Position& pos) : pos_(pos) {
    for (Color c : {WHITE, BLACK}) color_[c] = pos.pieces(c);
    for (int pt = 0; pt < PIECE_TYPE_NB; ++pt) type_[pt] = pos.pieces(PieceType(pt));
  }

  // Empties `s`: the unit of `pos` there, or one put down there.
  void remove(Square s) {
    const Piece piece = piece_on(s);
    if (piece.empty()) return;
    color_[piece.color()] &= ~square_bb(s);
    type_[piece.type()] &= ~square_bb(s);
    removed_ |= square_bb(s);
    for (int i = 0; i < added_; ++i)
      if (square_[i] == s) {
        square_[i] = square_[added_ - 1];
        piece_[i] = piece_[--added_];
        return;
      }
  }
  // Puts `piece` on the empty square `s` (at most two units put down in all).
  void put(Square s, Piece piece) {
    color_[piece.color()] |= square_bb(s);
    type_[piece.type()] |= square_bb(s);
    square_[added_] = s;
    piece_[added_++] = piece;
  }
  // A move of the unit on `from` to `to`, taking what stands there, arriving as `arriving`.
  void move(Square from, Square to, PieceType arriving) {
    const Color c = piece_on(from).color();
    remove(from);
    remove(to);
    put(to, Piece(c, arriving));
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
  const Position& pos_;
  Bitboard color_[2];
  Bitboard type_[PIECE_TYPE_NB];
  Bitboard removed_ = 0;
  Square square_[2];
  Piece piece_[2];
  int added_ = 0;
};

// Which moves of the side to move may leave its king attacked, from the board before
// them: a king move may; another unit's move may only if some enemy unit reaches the king
// now, or the unit leaves a line between the king and an enemy slider (its target only
// blocks, or takes). A move that may not needs no check test.
class CheckLines {
 public:
  explicit CheckLines(const Position& pos) {
    const Color us = pos.side_to_move(), them = ~us;
    king_ = pos.king_square(us);
    reached_ = orthodox_attackers_bb(pos, king_, them, pos.pieces()) != 0;
    for (Bitboard sliders = pos.pieces(them) & (pos.pieces(ROOK) | pos.pieces(BISHOP) | pos.pieces(QUEEN)); sliders;)
      lines_ |= between_bb(king_, pop_lsb(sliders));
  }
  bool may_check_after_move_of(Square from) const { return from == king_ || reached_ || (lines_ & square_bb(from)); }

 private:
  Square king_;
  bool reached_;
  Bitboard lines_ = 0;
};

}  // namespace feerie

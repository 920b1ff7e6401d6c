#include "rules/position.h"

#include <algorithm>
#include <iterator>

namespace feerie {

Square Position::capture_square(Move m) const {
  switch (m.kind()) {
    case MoveKind::EN_PASSANT:
      return Square(m.to() - pawn_push(piece_on(m.from()).color()));
    case MoveKind::LOCUST_CAPTURE: {
      // The victim stands on the square just before `to` on the line from `from`.
      int df = file_of(m.to()) - file_of(m.from()), dr = rank_of(m.to()) - rank_of(m.from());
      int sf = (df > 0) - (df < 0), sr = (dr > 0) - (dr < 0);
      return make_square(file_of(m.to()) - sf, rank_of(m.to()) - sr);
    }
    default:
      return empty(m.to()) ? SQ_NONE : m.to();
  }
}

void Position::do_move(Move m, UndoRecord& undo) {
  undo.moved = board_[m.from()];
  undo.previous_ep = ep_square_;
  undo.change_count = 0;
  undo.captured_square = capture_square(m);
  undo.captured = undo.captured_square == SQ_NONE ? NO_PIECE : board_[undo.captured_square];
  if (undo.captured_square != SQ_NONE) remove_piece(undo.captured_square);
  move_piece(m.from(), m.to());
  if (m.promotion() != NO_PIECE_TYPE)
    replace_piece(m.to(), Piece(undo.moved.color(), m.promotion(), undo.moved.magic()));
  ep_square_ = m.kind() == MoveKind::DOUBLE_STEP ? Square((m.from() + m.to()) / 2) : SQ_NONE;
  side_to_move_ = ~side_to_move_;
}

void Position::undo_move(Move m, const UndoRecord& undo) {
  for (int i = undo.change_count - 1; i >= 0; --i) replace_piece(undo.changed_square[i], undo.changed_from[i]);
  remove_piece(m.to());
  put_piece(undo.moved, m.from());
  if (undo.captured_square != SQ_NONE) put_piece(undo.captured, undo.captured_square);
  ep_square_ = undo.previous_ep;
  side_to_move_ = ~side_to_move_;
}

bool Position::operator==(const Position& o) const {
  // The bitboards determine the board (colour, type and magic flag of every square) and
  // compare in a dozen words instead of 64 bytes.
  return side_to_move_ == o.side_to_move_ && ep_square_ == o.ep_square_ && magic_ == o.magic_ &&
         std::equal(std::begin(by_color_), std::end(by_color_), std::begin(o.by_color_)) &&
         std::equal(std::begin(by_type_), std::end(by_type_), std::begin(o.by_type_));
}

Position color_flipped(const Position& pos) {
  Position out;
  for (Bitboard b = pos.pieces(); b;) {
    Square s = pop_lsb(b);
    Piece p = pos.piece_on(s);
    out.put_piece(Piece(~p.color(), p.type(), p.magic()), flip_rank(s));
  }
  out.set_side_to_move(~pos.side_to_move());
  if (pos.ep_square() != SQ_NONE) out.set_ep_square(flip_rank(pos.ep_square()));
  return out;
}

}  // namespace feerie

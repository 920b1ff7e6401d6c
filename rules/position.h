// A position: the units on the board, the side to move and an en-passant square.
// No castling rights and no move counters (SPEC 1). Rule-agnostic: the condition hooks
// (rules/conditions/) decide which moves are legal; Position only applies them.
//
// Thread-safety: a Position is a plain value; distinct objects may be used concurrently.
#pragma once

#include <string>
#include <string_view>

#include "rules/bitboard.h"
#include "rules/expected.h"
#include "rules/move.h"

namespace feerie {

// Everything do_move() changed beyond what the Move itself says, so that undo_move()
// restores the exact previous position. Conditions with after-move effects (magic
// mutation) record the units they changed here.
struct UndoRecord {
  Piece moved;     // the unit as it stood on `from` before the move
  Piece captured;  // NO_PIECE when nothing was captured
  Square captured_square = SQ_NONE;
  Square previous_ep = SQ_NONE;
  // Units changed by an after-move effect, with their previous identity.
  static constexpr int MaxChanges = 32;
  int change_count = 0;
  Square changed_square[MaxChanges];
  Piece changed_from[MaxChanges];
};

// Whether move `m`, played with record `undo`, left the material as it was: it captured
// nothing, promoted nothing and changed no unit.
inline bool kept_material(Move m, const UndoRecord& undo) {
  return undo.captured.empty() && m.promotion() == NO_PIECE_TYPE && undo.change_count == 0;
}

class Position {
 public:
  Position() = default;

  Piece piece_on(Square s) const { return board_[s]; }
  bool empty(Square s) const { return board_[s].empty(); }
  Bitboard pieces() const { return by_color_[WHITE] | by_color_[BLACK]; }
  Bitboard pieces(Color c) const { return by_color_[c]; }
  Bitboard pieces(PieceType pt) const { return by_type_[pt]; }
  Bitboard pieces(Color c, PieceType pt) const { return by_color_[c] & by_type_[pt]; }
  // Magic units of both colours (SPEC 3.5).
  Bitboard magic_pieces() const { return magic_; }
  // SQ_NONE when the side has no king.
  Square king_square(Color c) const {
    Bitboard k = pieces(c, KING);
    return k ? lsb(k) : SQ_NONE;
  }
  Color side_to_move() const { return side_to_move_; }
  Square ep_square() const { return ep_square_; }
  int piece_count() const { return popcount(pieces()); }

  // Building and editing (set-up, indexers, retro moves). put_piece needs an empty square.
  // Inline (below the class): the indexer's decode and the retro moves call them for
  // every entry of a table.
  void put_piece(Piece p, Square s);
  void remove_piece(Square s);
  void move_piece(Square from, Square to);
  // move_piece() for a caller that knows the unit `p` on `from` (`to` empty, from != to):
  // the board need not be read first, so the bitboards' addresses are known at once.
  void move_unit(Piece p, Square from, Square to);
  // A copy with the unit on `s` taken off: remove_piece() made while copying, not on the
  // copy just stored (a reload the store buffer serves slowly: rules/board_edit.h).
  Position without_unit_on(Square s) const;
  void set_side_to_move(Color c) { side_to_move_ = c; }
  void set_ep_square(Square s) { ep_square_ = s; }
  // Replaces the unit on `s` (used by promotion and mutation).
  void replace_piece(Square s, Piece p) {
    remove_piece(s);
    put_piece(p, s);
  }

  // Applies a pseudo-legal move (the unit on from() moves to to(), captures, promotes,
  // sets the new en-passant square) and flips the side to move. Condition after-move
  // effects are applied by the caller (rules/movegen.h make_move).
  void do_move(Move m, UndoRecord& undo);
  void undo_move(Move m, const UndoRecord& undo);

  // The square of the unit that `m` captures, or SQ_NONE.
  Square capture_square(Move m) const;

  bool operator==(const Position& o) const;

 private:
  Piece board_[SQUARE_NB] = {};
  Bitboard by_color_[COLOR_NB] = {};
  Bitboard by_type_[PIECE_TYPE_NB] = {};
  Bitboard magic_ = 0;
  Color side_to_move_ = WHITE;
  Square ep_square_ = SQ_NONE;
};

inline void Position::put_piece(Piece p, Square s) {
  board_[s] = p;
  Bitboard b = square_bb(s);
  by_color_[p.color()] |= b;
  by_type_[p.type()] |= b;
  if (p.magic()) magic_ |= b;
}

inline void Position::remove_piece(Square s) {
  Piece p = board_[s];
  if (p.empty()) return;
  Bitboard b = ~square_bb(s);
  by_color_[p.color()] &= b;
  by_type_[p.type()] &= b;
  magic_ &= b;
  board_[s] = NO_PIECE;
}

inline Position Position::without_unit_on(Square s) const {
  Position copy;
  const Bitboard kept = ~square_bb(s);
  for (int i = 0; i < SQUARE_NB; ++i) copy.board_[i] = board_[i];
  copy.board_[s] = NO_PIECE;
  for (int c = 0; c < COLOR_NB; ++c) copy.by_color_[c] = by_color_[c] & kept;
  for (int pt = 0; pt < PIECE_TYPE_NB; ++pt) copy.by_type_[pt] = by_type_[pt] & kept;
  copy.magic_ = magic_ & kept;
  copy.side_to_move_ = side_to_move_;
  copy.ep_square_ = ep_square_;
  return copy;
}

inline void Position::move_piece(Square from, Square to) { move_unit(board_[from], from, to); }

inline void Position::move_unit(Piece p, Square from, Square to) {
  // Hot in retro generation and decoding: one XOR per bitboard instead of a removal and a
  // placement.
  const Bitboard from_to = square_bb(from) | square_bb(to);
  board_[to] = p;
  board_[from] = NO_PIECE;
  by_color_[p.color()] ^= from_to;
  by_type_[p.type()] ^= from_to;
  if (p.magic()) magic_ ^= from_to;
}

// The same position seen from the other side: colours exchanged, board flipped
// vertically, the other side to move. Values (from the side to move's view) are equal
// under every condition of Feerie.
Position color_flipped(const Position& pos);

// Whether every unit of `pos` is an ordinary K, Q, R, B, N or P: no grasshopper or locust
// (their walks attack through hurdles) and no magic unit (a mutation may turn a unit into
// one that gives or stops a check). The board-only legality tests need it.
inline bool only_ordinary_units(const Position& pos) {
  return !(pos.pieces(GRASSHOPPER) | pos.pieces(LOCUST) | pos.magic_pieces());
}

}  // namespace feerie

#include "rules/walks.h"

#include "rules/capture.h"

namespace feerie {

namespace {

void add_promotions(const Position& pos, Square from, Square to, MoveList& out, MoveKind kind = MoveKind::NORMAL) {
  for (PieceType pt : promotion_types(pos)) out.push(Move(from, to, kind, pt));
}

void add_destination(const Position& pos, Square from, Square to, bool promotes, MoveList& out) {
  if (promotes)
    add_promotions(pos, from, to, out);
  else
    out.push(Move(from, to));
}

void add_pawn_walk_moves(const Position& pos, Square s, Color c, bool real_pawn, bool magic, Bitboard capturable,
                         MoveList& out) {
  auto promotes = [&](Square to) { return real_pawn && relative_rank(c, to) == 7; };
  int rank = relative_rank(c, s);
  if (rank == 7) return;  // nowhere to go
  Square one = Square(s + pawn_push(c));
  if (pos.empty(one)) {
    add_destination(pos, s, one, promotes(one), out);
    Square two = Square(one + pawn_push(c));
    // Only an ordinary real pawn's double step gives the opponent an en-passant square
    // (SPEC 3.4, 3.5); a unit moving as a pawn, or a magic pawn, makes an ordinary
    // two-square move.
    if (rank == 1 && pos.empty(two))
      out.push(Move(s, two, real_pawn && !magic ? MoveKind::DOUBLE_STEP : MoveKind::NORMAL));
  }
  for (Bitboard b = pawn_capture_bb(c, s) & capturable; b;) {
    Square to = pop_lsb(b);
    add_destination(pos, s, to, promotes(to), out);
  }
  Square ep = pos.ep_square();
  if (ep != SQ_NONE && (pawn_capture_bb(c, s) & square_bb(ep)) && (capturable & square_bb(Square(ep - pawn_push(c)))))
    out.push(Move(s, ep, MoveKind::EN_PASSANT));
}

void add_grasshopper_moves(const Position& pos, Square s, Color c, bool real_pawn, Bitboard capturable, MoveList& out) {
  for (int d = 0; d < DIRECTION_NB; ++d) {
    Square hurdle = first_blocker(Direction(d), s, pos.pieces());
    if (hurdle == SQ_NONE) continue;
    Square land = step(hurdle, Direction(d));
    if (land == SQ_NONE) continue;
    if (pos.empty(land) || (capturable & square_bb(land)))
      add_destination(pos, s, land, real_pawn && relative_rank(c, land) == 7, out);
  }
}

void add_locust_moves(const Position& pos, Square s, Color c, bool real_pawn, Bitboard capturable, MoveList& out) {
  for (int d = 0; d < DIRECTION_NB; ++d) {
    Square victim = first_blocker(Direction(d), s, pos.pieces());
    if (victim == SQ_NONE || !(capturable & square_bb(victim))) continue;
    Square land = step(victim, Direction(d));
    if (land == SQ_NONE || !pos.empty(land)) continue;
    if (real_pawn && relative_rank(c, land) == 7) {
      // A real pawn moving as a locust onto its last rank promotes (Annan).
      add_promotions(pos, s, land, out, MoveKind::LOCUST_CAPTURE);
    } else {
      out.push(Move(s, land, MoveKind::LOCUST_CAPTURE));
    }
  }
}

}  // namespace

Bitboard hurdle_capture_targets_bb(const Position& pos, Square s, PieceType walk, Color c) {
  const Bitboard occupied = pos.pieces(), enemies = pos.pieces(~c);
  Bitboard targets = 0;
  for (int d = 0; d < DIRECTION_NB; ++d) {
    const Square hurdle = first_blocker(Direction(d), s, occupied);
    if (hurdle == SQ_NONE) continue;
    const Square beyond = step(hurdle, Direction(d));
    if (beyond == SQ_NONE) continue;
    // A grasshopper takes on the square beyond its hurdle; a locust takes the hurdle itself
    // when the square beyond is empty.
    if (walk == GRASSHOPPER)
      targets |= square_bb(beyond);
    else if (pos.empty(beyond))
      targets |= square_bb(hurdle);
  }
  return targets & enemies;
}

void add_walk_moves(const Position& pos, Square s, PieceType walk, Bitboard capturable, MoveList& out) {
  Piece unit = pos.piece_on(s);
  Color c = unit.color();
  bool real_pawn = unit.type() == PAWN;
  // The pawn walk has no move from its own first rank (SPEC 2), whoever uses it: a real
  // pawn there without a lender does nothing. With a lender it moves by the borrowed walk
  // like any unit, and promotes when it lands on its last rank (SPEC 3.4).
  if (walk == PAWN && relative_rank(c, s) == 0) return;
  // A magic unit captures nothing (SPEC 3.5): no capture, no en passant, and a magic
  // locust has no move at all.
  capturable &= unit.magic() ? 0 : pos.pieces(~c);
  switch (walk) {
    case PAWN:
      add_pawn_walk_moves(pos, s, c, real_pawn, unit.magic(), capturable, out);
      return;
    case GRASSHOPPER:
      add_grasshopper_moves(pos, s, c, real_pawn, capturable, out);
      return;
    case LOCUST:
      add_locust_moves(pos, s, c, real_pawn, capturable, out);
      return;
    default: {
      Bitboard targets = leaper_or_slider_bb(walk, s, pos.pieces()) & (~pos.pieces() | capturable);
      while (targets) {
        Square to = pop_lsb(targets);
        add_destination(pos, s, to, real_pawn && relative_rank(c, to) == 7, out);
      }
    }
  }
}

}  // namespace feerie

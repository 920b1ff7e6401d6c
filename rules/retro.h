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

// Calls f() once for each variant of `before` (the side that moves next to move, no
// en-passant square) where a pawn of the other side among `pawns` has just made a double
// step whose en-passant square the side to move could use: the square it crossed and the
// one it came from empty, the square usable (ep_square_usable) and the double step
// possible (ep_square_possible). `before` carries that square during the call only.
template <class Rules, class F>
void for_each_en_passant_variant(Position& before, const Rules& rules, Bitboard pawns, F&& f) {
  const Color other = ~before.side_to_move();
  while (pawns) {
    const Square p = pop_lsb(pawns);
    const Square crossed = Square(p - pawn_push(other)), origin = Square(crossed - pawn_push(other));
    if (!before.empty(crossed) || !before.empty(origin)) continue;
    before.set_ep_square(crossed);
    if (ep_square_usable(before, rules) && ep_square_possible(before, rules)) f();
    before.set_ep_square(SQ_NONE);
  }
}

namespace retro_detail {

// Squares the unit on `to` may have come from with `walk`, in position `pos` (before
// un-moving it), together with whether that move would be a double step.
template <class F>
void for_each_origin(const Position& pos, Square to, PieceType walk, Color mover, F&& f) {
  Bitboard empty = ~pos.pieces();
  Bitboard origins = 0;
  switch (walk) {
    case KING:
      origins = king_bb(to);
      break;
    case KNIGHT:
      origins = knight_bb(to);
      break;
    case BISHOP:
      origins = bishop_attacks_bb(to, pos.pieces());
      break;
    case ROOK:
      origins = rook_attacks_bb(to, pos.pieces());
      break;
    case QUEEN:
      origins = queen_attacks_bb(to, pos.pieces());
      break;
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
    default:
      return;  // a locust only moves by capturing
  }
  for (origins &= empty; origins;) f(pop_lsb(origins), false);
}

// Whether `m` played in `before` leads to `target`, for leads_to() below, when the
// reversed walk is exactly the move (orthodox units without magic ones: nothing changes
// but the moved unit's square).
template <class Rules>
bool leads_to_by_reversed_walk(const Position& before, Move m, const Position& target, const Rules& rules) {
  // `target` is legal, so the mover is not in check after the move. What remains: a
  // double step whose en-passant square the opponent could use leads to a position with
  // that square, which `target` must then have. A real pawn reaching its last rank
  // always promotes, so it never arrives there unchanged.
  if (before.piece_on(m.from()).type() == PAWN && relative_rank(before.side_to_move(), m.to()) == 7) return false;
  if (m.kind() != MoveKind::DOUBLE_STEP) return target.ep_square() == SQ_NONE;
  Position after = target;
  after.set_ep_square(Square((m.from() + m.to()) / 2));
  return ep_square_usable(after, rules) == (target.ep_square() != SQ_NONE);
}

// The same by playing the move: the unit must be able to move, its walk must generate
// the move, and the position after it (mutations included) must be legal and equal to
// `target`.
template <class Rules>
bool leads_to_by_forward_rules(const Position& before, Move m, const Position& target, const Rules& rules) {
  Color mover = before.side_to_move();
  if (rules.immobile_bb(before) & square_bb(m.from())) return false;
  PieceType walk = rules.walk_of(before, m.from());
  Piece unit = before.piece_on(m.from());
  // A real pawn promotes exactly when it lands on its last rank, however it moved (from
  // its first or last rank too, by a lent walk: SPEC 3.4); the walk decides below whether
  // it could move at all.
  if (unit.type() == PAWN && (relative_rank(mover, m.to()) == 7) != (m.promotion() != NO_PIECE_TYPE)) return false;
  if (unit.type() != PAWN && m.promotion() != NO_PIECE_TYPE) return false;
  if (walk >= KNIGHT && walk <= KING && m.kind() == MoveKind::NORMAL && m.promotion() == NO_PIECE_TYPE) {
    // A leaper or slider moving to an empty square: plain geometry.
    if (!(leaper_or_slider_bb(walk, m.from(), before.pieces()) & square_bb(m.to()))) return false;
  } else {
    MoveList unit_moves;
    add_walk_moves(before, m.from(), walk, capturable_bb(before, mover), unit_moves);
    bool generated = false;
    for (Move g : unit_moves) generated = generated || g == m;
    if (!generated) return false;
  }
  Position after = before;
  UndoRecord undo;
  make_move(after, m, undo, rules);
  if (king_in_check(after, mover, rules) || !rules.move_allowed(after)) return false;
  if (!ep_square_usable(after, rules)) after.set_ep_square(SQ_NONE);  // an unusable square is not kept
  return after == target;
}

// The squares from which the pawn walk of colour `c` reaches the empty square `to` by a
// move without capture, on the board `occupied` (without the moving unit), as
// add_pawn_walk_moves() generates them: one step forward, or two from the second rank over
// an empty square when `two_steps`; nothing from the first rank.
inline Bitboard pawn_walk_quiet_origins_bb(Square to, Color c, Bitboard occupied, bool two_steps) {
  const int rank = relative_rank(c, to);
  if (rank < 2) return 0;
  const Square one = Square(to - pawn_push(c));
  if (occupied & square_bb(one)) return 0;
  const Square two = Square(one - pawn_push(c));
  return square_bb(one) | (two_steps && rank == 3 && !(occupied & square_bb(two)) ? square_bb(two) : 0);
}

// The same for a rule set where every move is allowed (the walk conditions, Annan, Nanna,
// Face-to-face..., whose units may move by a borrowed walk, alone or with paralysis:
// madrasi+annan, ...), without magic
// units, for an ordinary move without promotion into a position without en-passant
// square: the unit must not be immobile in `before` and the walk it uses there (its
// lender's or confronter's) must reach `to`; then the position after the move is `target` itself (nothing
// but the unit's square changes), legal, so the move is too. The pawn walk's ordinary
// moves are geometry too (pawn_walk_quiet_origins_bb); falls back to the forward rules
// for the fairy walks.
template <class Rules>
bool leads_to_by_borrowed_walk(const Position& before, Move m, const Position& target, const Rules& rules) {
  if (rules.immobile(before, m.from())) return false;
  const PieceType walk = rules.walk_of(before, m.from());
  if (walk != PAWN && (walk < KNIGHT || walk > KING)) return leads_to_by_forward_rules(before, m, target, rules);
  // A real pawn arriving on its last rank promotes, by whatever walk it came.
  const bool real_pawn = before.piece_on(m.from()).type() == PAWN;
  if (real_pawn && relative_rank(before.side_to_move(), m.to()) == 7) return false;
  // An ordinary move: a real pawn's two steps by its walk are a double step.
  if (walk == PAWN)
    return pawn_walk_quiet_origins_bb(m.to(), before.side_to_move(), before.pieces() ^ square_bb(m.from()),
                                      !real_pawn) &
           square_bb(m.from());
  return leaper_or_slider_bb(walk, m.from(), before.pieces()) & square_bb(m.to());
}

// True when the forward rules play `m` legally in `before` and it leads exactly to
// `target`, a legal position. Under exact retro walks the caller has checked that the
// rules allow a move into `target` (moves_may_lead_to).
template <class Rules>
bool leads_to(const Position& before, Move m, const Position& target, const Rules& rules) {
  if constexpr (Rules::ExactRetroWalks) {
    if (!before.magic_pieces())
      return !rules.immobile(before, m.from()) && leads_to_by_reversed_walk(before, m, target, rules);
  } else if constexpr (Rules::RestrictionPart::EveryMoveAllowed) {
    if (!before.magic_pieces() && m.kind() == MoveKind::NORMAL && m.promotion() == NO_PIECE_TYPE &&
        target.ep_square() == SQ_NONE)
      return leads_to_by_borrowed_walk(before, m, target, rules);
  }
  return leads_to_by_forward_rules(before, m, target, rules);
}

// Whether a move without magic units may lead to `pos` at all: Isardam forbids every move
// into a position that holds a pair (move_allowed), whichever unit moved.
template <class Rules>
bool moves_may_lead_to(const Position& pos, const Rules& rules) {
  if constexpr (Rules::RestrictionPart::EveryMoveAllowed) return true;
  return rules.move_allowed(pos);
}

// Sets `before` to the working copy for the un-moves of `pos` (changed in place for each
// candidate and restored after it): the side that just moved to move, no en-passant
// square. Returns the units that may have made the last move: after a double step only
// that pawn.
inline Bitboard start_retro(const Position& pos, Position& before) {
  Color mover = ~pos.side_to_move();
  before = pos;
  before.set_ep_square(SQ_NONE);
  before.set_side_to_move(mover);
  Square ep = pos.ep_square();
  return ep == SQ_NONE ? pos.pieces(mover) : square_bb(Square(ep + pawn_push(mover)));
}

// Reports `before` (the candidate predecessor, side to move set, no en-passant square)
// to f when `m` leads from it to `pos`, and the same move from the variants of `before`
// where the side to move could have taken a pawn of the other side en passant.
template <bool CheckLegality, class Rules, class F>
void report_candidate(Position& before, Move m, const Position& pos, const Rules& rules, Square from, Square to, F& f) {
  if (CheckLegality && !is_legal_position(before, rules)) return;
  if (leads_to(before, m, pos, rules)) f(static_cast<const Position&>(before), from, to);
  const Color other = pos.side_to_move();
  const Bitboard pawns = before.pieces(other, PAWN) & ~before.magic_pieces() & double_step_rank_bb(other);
  for_each_en_passant_variant(before, rules, pawns, [&] {
    if ((!CheckLegality || is_legal_position(before, rules)) && leads_to(before, m, pos, rules))
      f(static_cast<const Position&>(before), from, to);
  });
}

// What the unit now on `to` may have been before the move that brought it there, and the
// promotion that move made. A king and a magic unit were themselves (a magic unit on its
// last rank may also have been a magic pawn that promoted); an ordinary unit may have
// mutated one step up or down on arrival (SPEC 3.5), and on its last rank may have been
// a pawn that promoted first. A superset: leads_to() keeps what the rules allow.
struct PastIdentity {
  Piece piece;
  PieceType promotion;
};
struct PastIdentities {
  PastIdentity items[16];
  int count = 0;
  void add(Piece piece, PieceType promotion) {
    for (int i = 0; i < count; ++i)
      if (items[i].piece == piece && items[i].promotion == promotion) return;
    items[count++] = {piece, promotion};
  }
};

inline PastIdentities past_identities(const Position& pos, Square to, PieceType chain_end) {
  PastIdentities out;
  Piece unit = pos.piece_on(to);
  Color c = unit.color();
  const bool last_rank = relative_rank(c, to) == 7;
  auto promoted = [](PieceType t) { return t != PAWN && t != KING; };
  if (unit.type() == KING || unit.magic()) {
    out.add(unit, NO_PIECE_TYPE);
    if (unit.magic() && last_rank && promoted(unit.type())) out.add(Piece(c, PAWN, true), unit.type());
    return out;
  }
  for (MutationDirection d : {MutationDirection::NONE, MutationDirection::UP, MutationDirection::DOWN})
    for (PieceType t : unmutated_types(unit.type(), d, chain_end)) {
      out.add(Piece(c, t), NO_PIECE_TYPE);
      if (last_rank && promoted(t)) out.add(Piece(c, PAWN), t);
    }
  return out;
}

// for_each_predecessor() with magic units on the board: the moved unit may have had
// another identity (past_identities), and when it is magic, the ordinary units it
// touched on arrival may have had other types (each one step down from its type if of
// the mover's colour, up if not, or the same at a chain end). Every combination is a
// candidate; the forward rules confirm it. Predecessors may belong to other materials.
template <bool CheckLegality, class Rules, class F>
void for_each_predecessor_across_mutations(const Position& pos, const Rules& rules, F& f) {
  Color mover = ~pos.side_to_move(), other = pos.side_to_move();
  const PieceType end = chain_end(pos);
  Position before;
  for (Bitboard units = start_retro(pos, before); units;) {
    Square to = pop_lsb(units);
    Piece unit = pos.piece_on(to);
    PastIdentities past = past_identities(pos, to, end);
    for (int k = 0; k < past.count; ++k) {
      const PastIdentity id = past.items[k];
      // The walks the unit may have used, asked of the condition with the unit as it was.
      before.replace_piece(to, id.piece);
      unsigned walks = rules.retro_walks(before, to);
      before.replace_piece(to, unit);
      Bitboard tried[2] = {0, 0};
      for (int w = PAWN; w < PIECE_TYPE_NB; ++w) {
        if (!(walks & (1u << w))) continue;
        for_each_origin(pos, to, PieceType(w), mover, [&](Square from, bool double_step) {
          double_step = double_step && id.piece == Piece(mover, PAWN) && id.promotion == NO_PIECE_TYPE;
          if (tried[double_step] & square_bb(from)) return;
          tried[double_step] |= square_bb(from);
          if (!CheckLegality && !rules.kings_may_touch() && unit.type() == KING &&
              (king_bb(from) & pos.pieces(other, KING)))
            return;
          Move m(from, to, double_step ? MoveKind::DOUBLE_STEP : MoveKind::NORMAL, id.promotion);
          before.remove_piece(to);
          before.put_piece(id.piece, from);
          if (!id.piece.magic()) {
            report_candidate<CheckLegality>(before, m, pos, rules, from, to, f);
          } else {
            // Each touched unit's past types, enumerated as a mixed-radix counter.
            Square squares[8];
            TypeSet types[8];
            int n = 0;
            bool possible = true;  // false when a touched unit has no past type (a pawn gone up)
            for (Bitboard touched = touched_by_magic_bb(pos, from, to); touched; ++n) {
              squares[n] = pop_lsb(touched);
              Piece x = pos.piece_on(squares[n]);
              types[n] =
                  unmutated_types(x.type(), x.color() == mover ? MutationDirection::UP : MutationDirection::DOWN, end);
              possible = possible && types[n].count > 0;
            }
            int digit[8] = {};
            while (possible) {
              for (int i = 0; i < n; ++i)
                before.replace_piece(squares[i], Piece(pos.piece_on(squares[i]).color(), types[i].types[digit[i]]));
              report_candidate<CheckLegality>(before, m, pos, rules, from, to, f);
              int i = 0;
              while (i < n && ++digit[i] >= types[i].count) digit[i++] = 0;
              if (i == n) break;
            }
            for (int i = 0; i < n; ++i) before.replace_piece(squares[i], pos.piece_on(squares[i]));
          }
          before.remove_piece(from);
          before.put_piece(unit, to);
        });
      }
    }
  }
}

}  // namespace retro_detail

// Calls f(const Position& predecessor, Square from, Square to) once for each
// predecessor of `pos` by a move without capture, where the unit that stands on `to` in
// `pos` stood on `from`. Without magic units these moves keep the material (captures and
// promotions leave it); with magic units they include promotions and mutations, and the
// predecessor may belong to another material of the same component (SPEC 5). Predecessors are legal positions (the side
// not to move in them is not in check) and carry an en-passant square exactly when one is usable. The position passed
// to f is only valid during the call.
//
// With CheckLegality false, predecessors in which the side not to move is in check are
// reported too (but never kings standing next to each other where the rules forbid it:
// such positions have no index entry); callers that look predecessors up in a table
// whose illegal entries are marked as such (the solver) save the check.
template <bool CheckLegality = true, class Rules, class F>
void for_each_predecessor(const Position& pos, const Rules& rules, F&& f) {
  if (pos.magic_pieces()) {
    retro_detail::for_each_predecessor_across_mutations<CheckLegality>(pos, rules, f);
    return;
  }
  if constexpr (Rules::ExactRetroWalks)
    if (!retro_detail::moves_may_lead_to(pos, rules)) return;
  Color mover = ~pos.side_to_move(), other = pos.side_to_move();
  Position before;
  for (Bitboard units = retro_detail::start_retro(pos, before); units;) {
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
        retro_detail::report_candidate<CheckLegality>(
            before, Move(from, to, double_step ? MoveKind::DOUBLE_STEP : MoveKind::NORMAL), pos, rules, from, to, f);
        before.move_piece(from, to);
      });
    }
  }
}

// Whether the simple un-moves give every un-move of `pos`: for_each_simple_unmove(), each
// with its en-passant variants (for_each_en_passant_variant() of the pawns
// double_step_pawns_before() gives). A simple un-move changes nothing but the moving
// unit's square: no magic units, no en-passant square in `pos`, the walks the side that
// moved last may have used being a king's, knight's, bishop's, rook's, queen's (a
// reversed walk of those is the walk itself) or a pawn's (one step back, two to the second
// rank): its own units' walks and, under borrowed walks, their lenders' (friends: Annan,
// Nanna) or confronters' (enemies: Face-to-face, Back-to-back).
template <class Rules>
bool simple_unmoves_suffice(const Position& pos, const Rules&) {
  const Color mover = ~pos.side_to_move();
  const Bitboard walk_givers = Rules::QuietMovesKeepEnemyWalks ? pos.pieces(mover) : pos.pieces();
  return pos.ep_square() == SQ_NONE && !pos.magic_pieces() &&
         !(walk_givers & (pos.pieces(GRASSHOPPER) | pos.pieces(LOCUST)));
}

// The pawns of the side to move in `pos` that may have just made a double step in a
// predecessor found by a simple un-move, so that it carries an en-passant square: those
// on their fourth rank, when the side that moved last may have a unit moving as a pawn to
// take them (it has a pawn, or walks are lent by enemies too); none otherwise.
template <class Rules>
Bitboard double_step_pawns_before(const Position& pos, const Rules&) {
  const Color us = pos.side_to_move();
  if (Rules::QuietMovesKeepEnemyWalks && !pos.pieces(~us, PAWN)) return 0;
  return pos.pieces(us, PAWN) & double_step_rank_bb(us);
}

// The squares from which the unit of colour `c` now on `to` reached it by the pawn walk, in
// `pos` (with `occupied` its units but the one on `to`), by a move after which `pos` is the
// position as it stands (retro_detail::pawn_walk_quiet_origins_bb). A real pawn's two steps are a double
// step: they lead to `pos` only when the en-passant square they leave could not be used.
// The caller leaves out a real pawn on its last rank (it would have promoted).
template <class Rules>
Bitboard pawn_walk_origins_bb(const Position& pos, const Rules& rules, Square to, Color c, bool real_pawn,
                              Bitboard occupied) {
  const bool two_steps =
      !real_pawn || (relative_rank(c, to) == 3 && !ep_square_usable_at(pos, rules, Square(to - pawn_push(c))));
  return retro_detail::pawn_walk_quiet_origins_bb(to, c, occupied, two_steps);
}

// The un-moves of `pos` when simple_unmoves_suffice(), without their en-passant variants
// (for_each_en_passant_variant of double_step_pawns_before()): calls f(Piece unit, Square
// to, Bitboard origins) once per unit of the side that moved last, with the empty squares
// from which the walk it used there reaches `to` (its own, or the one it borrowed on that
// square: for_each_walk_region), where it was not immobile (paralysed) and, where the
// rules forbid it, not next to the other king. Such a move changes nothing but the unit's
// square, so the position after it is `pos` itself, legal: the move was legal (SPEC 5). As for_each_predecessor<false>,
// the predecessors are not tested for check (the solver finds such entries marked Illegal). `before` is the caller's
// working copy of `pos` with the side that moved last to move, where immobility is tested (units moved and put back:
// left as it was; the solver moves units on the same copy to index the predecessors). The fast path of the solver's
// propagation: no position is made per predecessor.
template <class Rules, class F>
void for_each_simple_unmove(const Position& pos, const Rules& rules, Position& before, F&& f) {
  if (!retro_detail::moves_may_lead_to(pos, rules)) return;
  const Color mover = ~pos.side_to_move();
  const Bitboard occupied = pos.pieces();
  const Square other_king = pos.king_square(pos.side_to_move());
  for (Bitboard units = pos.pieces(mover); units;) {
    const Square to = pop_lsb(units);
    const Piece unit = pos.piece_on(to);
    // A real pawn arriving on its last rank promotes, by whatever walk it came.
    const bool real_pawn = unit.type() == PAWN;
    if (real_pawn && relative_rank(mover, to) == 7) continue;
    // A leaper's or slider's line between `from` and `to` is the same before and after the
    // move, so the walk reaches `to` from `from` exactly when it reaches `from` from `to`.
    Bitboard origins = 0;
    rules.for_each_walk_region(pos, to, [&](PieceType walk, Bitboard squares) {
      origins |= (walk == PAWN ? pawn_walk_origins_bb(pos, rules, to, mover, real_pawn, occupied)
                               : leaper_or_slider_bb(walk, to, occupied)) &
                 squares;
    });
    origins &= ~occupied;
    if (unit.type() == KING && !rules.kings_may_touch()) origins &= ~king_bb(other_king);
    if constexpr (!Rules::RestrictionPart::NothingImmobile) {
      // A unit paralysed on `from` could not have moved. Where the restriction gives the
      // immobile squares at once: the unit has left `to`, and what stands on `from`
      // blocks no line to `from` itself, so the board is `occupied` without `to`.
      if constexpr (requires(Bitboard b) {
                      rules.immobile_squares_bb(before, mover, unit.type(), occupied, rules.observation_walk(), b);
                    }) {
        Bitboard immobile;
        if (rules.immobile_squares_bb(before, mover, unit.type(), occupied ^ square_bb(to), rules.observation_walk(),
                                      immobile)) {
          f(unit, to, origins & ~immobile);
          continue;
        }
      }
      for (Bitboard candidates = origins; candidates;) {
        const Square from = pop_lsb(candidates);
        before.move_piece(to, from);
        if (rules.immobile(before, from)) origins &= ~square_bb(from);
        before.move_piece(from, to);
      }
    }
    f(unit, to, origins);
  }
}

}  // namespace feerie

#include "rules/movegen.h"

#include <optional>
#include <string>
#include <vector>

#include "rules/fen.h"
#include "rules/walks.h"

namespace feerie {

namespace {

// Units of the side to move that stand alone between their king and an enemy slider.
Bitboard pinned_bb(const Position& pos, Square king) {
  Color us = pos.side_to_move(), them = ~us;
  Bitboard snipers = (rook_attacks_bb(king, 0) & (pos.pieces(them, ROOK) | pos.pieces(them, QUEEN))) |
                     (bishop_attacks_bb(king, 0) & (pos.pieces(them, BISHOP) | pos.pieces(them, QUEEN)));
  Bitboard pinned = 0;
  while (snipers) {
    Bitboard blockers = between_bb(king, pop_lsb(snipers)) & pos.pieces();
    if (popcount(blockers) == 1) pinned |= blockers & pos.pieces(us);
  }
  return pinned;
}

// Legality of orthodox pseudo-legal moves without making them. A king move is legal when
// its target is not attacked once the king has left its square (the unit it captures
// does not count). Other moves: never in double check; a pinned unit stays on its pin
// line; in single check the move takes the checker or blocks the line to it. En passant
// (two units leave their squares) is left to the caller.
bool legal_by_pins_and_checkers(const Position& pos, Move m, Square king, Bitboard pinned, Bitboard checkers) {
  Square from = m.from(), to = m.to();
  if (from == king) {
    Bitboard occupied = pos.pieces() ^ square_bb(from);
    return !(orthodox_attackers_bb(pos, to, ~pos.side_to_move(), occupied) & ~square_bb(to));
  }
  if (checkers & (checkers - 1)) return false;
  if ((pinned & square_bb(from)) && !(line_bb(king, from) & square_bb(to))) return false;
  return !checkers || ((checkers | between_bb(king, lsb(checkers))) & square_bb(to));
}

}  // namespace

// Whether the move of `pos` leaves its material: a capture (en passant included) or a
// promotion, every unit an ordinary one (split_leaving_moves()).
namespace {
bool leaves_material(const Position& pos, Move m) {
  return m.promotion() != NO_PIECE_TYPE || m.kind() == MoveKind::EN_PASSANT || !pos.empty(m.to());
}
}  // namespace

// Whether legal_by_pins_and_checkers() decides the legality of every move but en passant:
// orthodox legality, and no grasshopper or locust (their walks attack through hurdles, so
// any unit moving may open or close a check) nor magic unit (a mutation may turn a unit
// into one that gives or stops a check).
template <class Rules>
bool pins_decide_legality(const Position& pos) {
  if constexpr (!Rules::OrthodoxLegality) return false;
  return only_ordinary_units(pos);
}

// Appends the legal moves of `pseudo` to `out`: by pins and checkers where they decide
// (`pins_decide`, with the mover's king, its pinned units and the checkers), otherwise by
// making the move: the mover's king not in check after it and its after-move effects, and
// the condition allowing the position.
template <class Rules>
void keep_legal(const Position& pos, const Rules& rules, const MoveList& pseudo, bool pins_decide, Square king,
                Bitboard pinned, Bitboard checkers, MoveList& out) {
  const Color us = pos.side_to_move();
  // The working copy where moves are made, copied at the first: most calls judge every
  // move by pins or have none to judge (the copy was 2.8% of a profile of an orthodox
  // solve's passes of wins).
  std::optional<Position> after;
  for (Move m : pseudo) {
    if (pins_decide && m.kind() != MoveKind::EN_PASSANT) {
      if (legal_by_pins_and_checkers(pos, m, king, pinned, checkers)) out.push(m);
      continue;
    }
    if (!after) after.emplace(pos);
    UndoRecord undo;
    make_move(*after, m, undo, rules);
    if (!king_in_check(*after, us, rules) && rules.move_allowed(*after)) out.push(m);
    after->undo_move(m, undo);
  }
}

template <class Rules>
void generate_legal(const Position& pos, const Rules& rules, MoveList& out) {
  Color us = pos.side_to_move();
  MoveList pseudo;
  Bitboard capturable = capturable_bb(pos, us);
  for (Bitboard movers = pos.pieces(us) & ~rules.immobile_bb(pos); movers;) {
    Square s = pop_lsb(movers);
    add_walk_moves(pos, s, rules.walk_of(pos, s), capturable, pseudo);
  }
  const bool pins_decide = pins_decide_legality<Rules>(pos);
  Square king = pos.king_square(us);
  Bitboard pinned = 0, checkers = 0;
  if (pins_decide) {
    pinned = pinned_bb(pos, king);
    checkers = orthodox_attackers_bb(pos, king, ~us, pos.pieces());
  }
  keep_legal(pos, rules, pseudo, pins_decide, king, pinned, checkers, out);
}

// Whether the rules' restriction answers the legality of each move on the board alone,
// without making it (a board_legality() per position: Paralysis for Madrasi, Eiffel and
// their relations, Isardam<A|B> for Isardam and Leffie, with own walks); it does where
// every unit is an ordinary K, Q, R, B, N or P.
namespace {
template <class Rules>
constexpr bool BoardDecidesLegality = requires(const Rules& r, const Position& p) {
  r.board_legality(p, r.walk()).legal(SQ_A1, SQ_A1, PAWN);
  r.board_legality(p, r.walk()).legal_targets(SQ_A1, Bitboard(0));
};

// Borrowed walks from friends under a restriction that allows every move:
// split_with_borrowed_walks() applies.
template <class Rules>
constexpr bool BorrowedWalksSplit =
    !Rules::OwnWalks && Rules::RestrictionPart::EveryMoveAllowed && Rules::QuietMovesKeepEnemyWalks;

// Adds the unit on `from` to `out` with its legal `targets`: the empty ones as its quiet
// targets, the others (captures) listed.
void add_split_unit(SplitMoves& out, Square from, Bitboard targets, Bitboard occupied) {
  out.from[out.units] = from;
  out.quiet_targets[out.units++] = targets & ~occupied;
  for (Bitboard captures = targets & occupied; captures;) out.listed.push(Move(from, pop_lsb(captures)));
}

}  // namespace

// split_legal_moves() where BoardDecidesLegality: every pseudo-legal move of the units
// that are not immobile, judged by the restriction on the board; en passant (two units
// leave their squares), and under Isardam a double step, by making it.
// With LeavingOnly, the moves that leave the material only (split_leaving_moves()).
template <bool LeavingOnly = false, class Rules>
void split_by_board(const Position& pos, const Rules& rules, SplitMoves& out) {
  const Bitboard occupied = pos.pieces(), capturable = capturable_bb(pos, pos.side_to_move());
  // Most units need no test per move (all_legal: see CheckLines in rules/board_edit.h).
  const auto legality = rules.board_legality(pos, rules.walk());
  out.units = 0;
  out.listed.clear();
  MoveList pawn_moves, made;
  for (Bitboard units = pos.pieces(pos.side_to_move()) & ~rules.immobile_bb(pos); units;) {
    const Square from = pop_lsb(units);
    const PieceType type = pos.piece_on(from).type();
    if (type == PAWN) {
      add_walk_moves(pos, from, PAWN, capturable, pawn_moves);
      continue;
    }
    const Bitboard targets =
        leaper_or_slider_bb(type, from, occupied) & (LeavingOnly ? capturable : ~occupied | capturable);
    if (LeavingOnly && !targets) continue;
    add_split_unit(out, from, legality.legal_targets(from, targets), occupied);
  }
  for (Move m : pawn_moves) {
    if (LeavingOnly && !leaves_material(pos, m)) continue;
    // En passant takes a unit off another square; a double step leaves an en-passant
    // square whose observation may make an Isardam pair: both are made.
    if (m.kind() == MoveKind::EN_PASSANT ||
        (m.kind() == MoveKind::DOUBLE_STEP && !Rules::RestrictionPart::EveryMoveAllowed)) {
      made.push(m);
      continue;
    }
    if (legality.legal(m.from(), m.to(), m.promotion() != NO_PIECE_TYPE ? m.promotion() : PAWN)) out.listed.push(m);
  }
  keep_legal(pos, rules, made, false, SQ_NONE, 0, 0, out.listed);
}

// Whether the unit of `us` on `o` paralyses the enemy unit on `e`, of type `type`, on
// `board`, by the walk it uses there (under borrowed walks, its lender's).
template <class Rules>
bool paralyses_by_walk(const Position& board, const Rules& rules, Color us, Square o, Square e, PieceType type) {
  const PieceType walk = rules.walk_of(board, o);
  return rules.relates(walk, type) && (orthodox_observation_bb(walk, us, o, board.pieces()) & square_bb(e));
}

// The units of `us` on `board` that paralyse the enemy unit on `e`, of type `type`.
template <class Rules>
Bitboard paralysers_by_walks_bb(const Position& board, const Rules& rules, Color us, Square e, PieceType type) {
  Bitboard paralysers = 0;
  for (Bitboard ours = board.pieces(us); ours;) {
    const Square o = pop_lsb(ours);
    if (paralyses_by_walk(board, rules, us, o, e, type)) paralysers |= square_bb(o);
  }
  return paralysers;
}

// For the quiet moves (no promotion) of our unit on `from` under paralysis with borrowed
// walks from friends, judged on the board without the unit (`occupied`): the targets
// where the enemy unit on `e`, of type `type`, is paralysed after the move. There the unit
// observes it by the walk it uses on the target (for each region of
// for_each_walk_region(), the squares from which that walk reaches `e`), or one of
// `paralysers` (our units that paralyse it on the board without the unit) keeps its line
// open (a leaper's `between` is empty). The targets from which the unit would lend its
// walk to a unit of ours change that unit's walk: the caller judges them apart.
template <class Rules>
Bitboard paralysed_after_quiet_move_bb(const Position& pos, const Rules& rules, Square from, Square e, PieceType type,
                                       Bitboard paralysers, Bitboard occupied) {
  const Color us = pos.side_to_move();
  Bitboard squares = 0;
  rules.for_each_walk_region(pos, from, [&](PieceType walk, Bitboard region) {
    if (rules.relates(walk, type))
      squares |= region & (walk == PAWN ? pawn_attackers_bb(us, e) : leaper_or_slider_bb(walk, e, occupied));
  });
  for (Bitboard p = paralysers; p;) squares |= ~between_bb(pop_lsb(p), e);
  return squares;
}

// For split_with_borrowed_walks() under paralysis: those of the quiet targets `unsure` of
// the unit on `from` (not the king; a pawn's without promotion) after which the king is
// not in check, judged for all targets at once. With the unit lifted: the enemy units that
// reach the king (their walks do not depend on our units), and for each the units of ours
// that paralyse it. After the move to `to` an attacker still reaches the king unless the
// unit blocks its line (a leaper's walk reaches no square beyond a neighbour, so `between`
// is empty for it), and it is paralysed by the unit on `to` with the walk it borrows there,
// by the unit it lends its walk to from `to`, or by another of those paralysers whose line
// the unit does not block (their walks are those of the board without the unit: only the
// unit in front of `to` changes its lender). The targets from which the unit would lend
// (to a unit of ours in front of them) are judged one by one; on the others, per attacker,
// the squares where it is blocked, where the unit paralyses it (by the walk of each region
// of for_each_walk_region, the squares from which that walk observes the attacker) and
// where a paralyser's line stays open, as bitboards.
template <class Rules>
Bitboard unchecked_quiet_targets(const Position& pos, const Rules& rules, Square from, Bitboard unsure) {
  const Color us = pos.side_to_move(), them = ~us;
  const Square king = pos.king_square(us);
  Position after = pos.without_unit_on(from);
  const Piece unit = pos.piece_on(from);
  const Bitboard occupied = after.pieces();
  struct Attacker {
    Square square;
    PieceType type;
    Bitboard paralysers;
  };
  // Whether our unit on `o` paralyses the attacker on the board `after` as it stands.
  auto paralyses = [&](Square o, const Attacker& a) {
    return paralyses_by_walk(after, rules, us, o, a.square, a.type);
  };
  Attacker attackers[16];
  int n = 0;
  for (Bitboard enemies = after.pieces(them); enemies;) {
    const Square e = pop_lsb(enemies);
    if (!(orthodox_observation_bb(rules.walk_of(after, e), them, e, occupied) & square_bb(king))) continue;
    const PieceType type = after.piece_on(e).type();
    attackers[n++] = {e, type, paralysers_by_walks_bb(after, rules, us, e, type)};
  }
  if (!n) return unsure;
  const Bitboard lending = unsure & rules.lending_squares_bb(us, after.pieces(us));
  Bitboard safe = unsure & ~lending;
  for (int i = 0; i < n && safe; ++i) {
    const Attacker& a = attackers[i];
    safe &= between_bb(king, a.square) |
            paralysed_after_quiet_move_bb(pos, rules, from, a.square, a.type, a.paralysers, occupied);
  }
  return safe | targets_where(lending, [&](Square to) {
           const Bitboard target = square_bb(to);
           after.put_piece(unit, to);
           // The unit of ours whose lender is now the unit on `to`.
           const Bitboard borrower = rules.borrowing_squares_bb(us, target) & after.pieces(us);
           bool safe_here = true;
           for (int i = 0; i < n && safe_here; ++i) {
             const Attacker& a = attackers[i];
             if (between_bb(king, a.square) & target) continue;
             safe_here = paralyses(to, a) || paralyses(lsb(borrower), a) ||
                         some_line_open(a.paralysers & ~borrower, a.square, target);
           }
           after.remove_piece(to);
           return safe_here;
         });
}

// An enemy unit of split_with_borrowed_walks(), the walk it uses and the squares that walk
// reaches over the board without the king of the side to move.
struct EnemyReach {
  Square square;
  PieceType walk;
  Bitboard reach;
};

// For split_with_borrowed_walks() under a restriction (paralysis): those of the quiet
// targets `unsure` of the king after which it is not in check. A quiet move changes no
// enemy walk, so the enemy units that reach the target are those of `enemies` whose reach
// holds it; each must be paralysed there (paralysed_after_quiet_move_bb, with the units of
// ours that paralyse it once the king has left). The targets from which the king would
// lend its walk to a unit of ours are judged one by one on the board edited: the king's
// check asked of each enemy unit that reaches the target, with the king put there.
template <class Rules>
Bitboard unchecked_king_targets(const Position& pos, const Rules& rules, Bitboard unsure, const EnemyReach* enemies,
                                int n) {
  const Color us = pos.side_to_move();
  const Square king = pos.king_square(us);
  Position after = pos.without_unit_on(king);
  const Piece unit = pos.piece_on(king);
  after.set_side_to_move(~us);
  after.set_ep_square(SQ_NONE);
  const Bitboard occupied = after.pieces();
  const Bitboard lending = unsure & rules.lending_squares_bb(us, after.pieces(us));
  Bitboard safe = unsure & ~lending;
  for (int i = 0; i < n && safe; ++i) {
    const EnemyReach& e = enemies[i];
    if (!(e.reach & safe)) continue;
    const PieceType type = after.piece_on(e.square).type();
    safe &=
        ~e.reach | paralysed_after_quiet_move_bb(pos, rules, king, e.square, type,
                                                 paralysers_by_walks_bb(after, rules, us, e.square, type), occupied);
  }
  return safe | targets_where(lending, [&](Square to) {
           after.put_piece(unit, to);
           bool safe_here = true;
           for (int i = 0; i < n && safe_here; ++i)
             if (enemies[i].reach & square_bb(to)) safe_here = !rules.gives_check(after, enemies[i].square, to);
           after.remove_piece(to);
           return safe_here;
         });
}

// For split_with_borrowed_walks() where every unit that reaches the king checks (Annan
// and Nanna alone): those of the quiet targets `unsure` of the unit on `from` (not the
// king) after which the king is not in check, `enemies` being all the enemy units. The
// move changes no enemy walk: an enemy unit reaching the king by a leaper's, king's or
// pawn's walk still does, and one by a slider's walk does along a line holding no unit
// once this one has left `from`, unless it lands on that line.
inline Bitboard unchecked_quiet_targets_unrestricted(const Position& pos, Square from, Bitboard unsure,
                                                     const EnemyReach* enemies, int n) {
  const Bitboard king = pos.pieces(pos.side_to_move(), KING);
  const Bitboard others = pos.pieces() & ~square_bb(from);
  for (int i = 0; i < n; ++i) {
    const EnemyReach& e = enemies[i];
    if (e.walk != BISHOP && e.walk != ROOK && e.walk != QUEEN) {
      if (e.reach & king) return 0;  // a leaper's reach does not depend on the board
    } else if (leaper_or_slider_bb(e.walk, e.square, 0) & king) {
      const Bitboard line = between_bb(lsb(king), e.square);
      if (!(line & others)) unsure &= line;
    }
  }
  return unsure;
}

// split_legal_moves() under borrowed walks from friends (Annan and Nanna), alone or with
// paralysis (madrasi+annan, eiffel+nanna...: every move allowed). The units that are not
// immobile, other than real pawns, whose walk (their lender's, or their own) is a king's,
// knight's, bishop's, rook's or queen's have their quiet moves as bitboards. A quiet move
// changes no enemy unit's walk (only taking its lender does) and moves no enemy unit, and
// paralysis only takes checks away, so it leaves the king in check only if an enemy unit
// reaches the king's square after it, paralysed or not: for a king's move, its target
// must be outside what the enemy units reach once the king has left its square; another
// unit's move can only open a line, so it is safe when no enemy unit reaches the king
// now and the unit was on no line between the king and an enemy unit that uses a
// slider's walk. The other quiet moves are judged per unit: under paralysis by
// unchecked_quiet_targets (the king's by unchecked_king_targets), without it by the rule
// that every unit reaching the king checks (unchecked_quiet_targets_unrestricted); both
// judge the quiet moves of pawn walks too (the king's aside; under paralysis promotions
// aside); all other moves are made.
//
// Returns false, `out` left incomplete, when a unit of the side to move gives check: the
// position is illegal. The units asked are those that are not immobile, each with the walk
// it moves by: under paralysis exactly those that give check when they reach the enemy king
// (a unit is immobile when paralysed), without it every unit.
template <class Rules>
bool split_with_borrowed_walks(const Position& pos, const Rules& rules, SplitMoves& out) {
  const Color us = pos.side_to_move(), them = ~us;
  const Square king = pos.king_square(us);
  const Bitboard occupied = pos.pieces(), capturable = capturable_bb(pos, us), their_king = pos.pieces(them, KING);
  Bitboard reach = 0, lines = 0;  // reach: over the board without the king
  Bitboard immobile = 0;          // our units paralysed: rules.immobile_bb(pos) & pos.pieces(us)
  EnemyReach enemies[16];
  int enemy_count = 0;
  for (Bitboard units = pos.pieces(them); units;) {
    const Square s = pop_lsb(units);
    const PieceType walk = rules.walk_of(pos, s);
    if (walk == BISHOP || walk == ROOK || walk == QUEEN) lines |= between_bb(king, s);
    const Bitboard r = orthodox_observation_bb(walk, them, s, occupied ^ square_bb(king));
    reach |= r;
    enemies[enemy_count++] = {s, walk, r};
    // Only the enemy units paralyse ours (an en-passant observation paralyses the enemy's
    // double-stepper): with the walks just asked. Where the unit does not reach the king,
    // the king blocks none of its lines and `r` is its observation over the board.
    if constexpr (!Rules::RestrictionPart::NothingImmobile)
      if (const Bitboard victims = rules.paralysable_bb(pos, us, walk))
        immobile |= victims & (r & square_bb(king) ? orthodox_observation_bb(walk, them, s, occupied) : r);
  }
  const bool reached = reach & square_bb(king);
  // Whether the quiet moves of the unit on `from` (not the king) need a test.
  auto may_uncover_check = [&](Square from) { return reached || (lines & square_bb(from)); };
  // Of the quiet targets `unsure` of the unit on `from`, those after which the king is not
  // in check. Without paralysis every unit that reaches the king checks: the king's unsure
  // targets (reached by an enemy unit) are illegal, another unit's are judged at once. With
  // paralysis (the only restriction here under which a unit may reach the king without
  // checking) another unit's are judged at once too, the king's on the board edited.
  auto legal_quiet_targets = [&](Square from, Bitboard unsure) {
    if constexpr (Rules::EveryAttackerChecks)
      return from == king ? Bitboard(0) : unchecked_quiet_targets_unrestricted(pos, from, unsure, enemies, enemy_count);
    else
      return from == king ? unchecked_king_targets(pos, rules, unsure, enemies, enemy_count)
                          : unchecked_quiet_targets(pos, rules, from, unsure);
  };
  out.units = 0;
  out.listed.clear();
  MoveList made;
  // A pawn, or a unit lent a pawn's walk, other than the king: its moves are listed, the
  // quiet ones judged at once like any other unit's (without paralysis promotions too:
  // what lands on the target only blocks lines), the rest made.
  auto list_walk_moves_judging_quiet_ones = [&](Square from, PieceType walk) {
    MoveList moves;
    add_walk_moves(pos, from, walk, capturable, moves);
    // Under paralysis a promotion is made: the unit that arrives paralyses by another walk.
    auto is_quiet = [&](Move m) {
      return (m.kind() == MoveKind::NORMAL || m.kind() == MoveKind::DOUBLE_STEP) && !(occupied & square_bb(m.to())) &&
             (Rules::EveryAttackerChecks || m.promotion() == NO_PIECE_TYPE);
    };
    Bitboard quiet = 0;
    for (Move m : moves)
      if (is_quiet(m)) quiet |= square_bb(m.to());
    const Bitboard legal = may_uncover_check(from) ? legal_quiet_targets(from, quiet) : quiet;
    for (Move m : moves) {
      if (!is_quiet(m))
        made.push(m);
      else if (legal & square_bb(m.to()))
        out.listed.push(m);
    }
  };
  for (Bitboard units = pos.pieces(us) & ~immobile; units;) {
    const Square from = pop_lsb(units);
    const PieceType walk = rules.walk_of(pos, from);
    if (pos.piece_on(from).type() == PAWN || walk < KNIGHT || walk > KING) {
      if (orthodox_observation_bb(walk, us, from, occupied) & their_king) return false;
      if (from != king)
        list_walk_moves_judging_quiet_ones(from, walk);
      else
        add_walk_moves(pos, from, walk, capturable, made);
      continue;
    }
    const Bitboard walk_reach = leaper_or_slider_bb(walk, from, occupied);
    if (walk_reach & their_king) return false;
    const Bitboard targets = walk_reach & (~occupied | capturable);
    for (Bitboard captures = targets & occupied; captures;) made.push(Move(from, pop_lsb(captures)));
    Bitboard quiet = targets & ~occupied;
    const Bitboard unsure = from == king ? quiet & reach : may_uncover_check(from) ? quiet : 0;
    if (unsure) quiet = (quiet ^ unsure) | legal_quiet_targets(from, unsure);
    out.from[out.units] = from;
    out.quiet_targets[out.units++] = quiet;
  }
  keep_legal(pos, rules, made, false, SQ_NONE, 0, 0, out.listed);
  return true;
}

template <class Rules>
bool split_legal_moves(const Position& pos, const Rules& rules, SplitMoves& out) {
  if constexpr (BoardDecidesLegality<Rules>) {
    if (!only_ordinary_units(pos)) return false;
    split_by_board(pos, rules, out);
    return true;
  } else if constexpr (BorrowedWalksSplit<Rules>) {
    if (!only_ordinary_units(pos)) return false;
    split_with_borrowed_walks(pos, rules, out);  // the position is legal: it returns true
    return true;
  }
  if (!pins_decide_legality<Rules>(pos)) return false;
  const Color us = pos.side_to_move(), them = ~us;
  const Square king = pos.king_square(us);
  const Bitboard occupied = pos.pieces(), capturable = capturable_bb(pos, us);
  const Bitboard pinned = pinned_bb(pos, king), checkers = orthodox_attackers_bb(pos, king, them, occupied);
  out.units = 0;
  out.listed.clear();
  auto add_unit = [&](Square from, Bitboard targets) { add_split_unit(out, from, targets, occupied); };
  // The king, as legal_by_pins_and_checkers() judges it: its target must not be attacked
  // once it has left its square. One map of the squares the enemy's leapers and sliders
  // attack through that board (a captured unit does not attack its own square), and a
  // look-up for enemy pawns.
  const Bitboard without_king = occupied ^ square_bb(king);
  const Bitboard enemy_pawns = pos.pieces(them, PAWN);
  Bitboard attacked = 0;
  for (Bitboard enemies = pos.pieces(them) & ~enemy_pawns; enemies;) {
    Square s = pop_lsb(enemies);
    attacked |= leaper_or_slider_bb(pos.piece_on(s).type(), s, without_king);
  }
  Bitboard king_targets = king_bb(king) & (~occupied | capturable) & ~attacked;
  if (enemy_pawns)
    for (Bitboard targets = king_targets; targets;) {
      Square to = pop_lsb(targets);
      if (pawn_attackers_bb(them, to) & enemy_pawns) king_targets ^= square_bb(to);
    }
  add_unit(king, king_targets);
  if (checkers & (checkers - 1)) return true;  // double check: only the king moves
  // Leapers and sliders by bitboards: a pinned unit stays on its pin line, and in check
  // a move takes the checker or blocks the line to it. Pawns by their list (double steps,
  // promotions, en passant).
  const Bitboard answers_check = checkers ? checkers | between_bb(king, lsb(checkers)) : ~Bitboard(0);
  MoveList pawn_moves;
  for (Bitboard units = pos.pieces(us) & ~square_bb(king); units;) {
    Square s = pop_lsb(units);
    PieceType type = pos.piece_on(s).type();
    if (type == PAWN) {
      add_walk_moves(pos, s, PAWN, capturable, pawn_moves);
      continue;
    }
    Bitboard targets = leaper_or_slider_bb(type, s, occupied) & (~occupied | capturable) & answers_check;
    if (pinned & square_bb(s)) targets &= line_bb(king, s);
    add_unit(s, targets);
  }
  keep_legal(pos, rules, pawn_moves, true, king, pinned, checkers, out.listed);
  return true;
}

template <class Rules>
bool split_leaving_moves(const Position& pos, const Rules& rules, SplitMoves& out) {
  if constexpr (BoardDecidesLegality<Rules>) {
    if (!only_ordinary_units(pos)) return false;
    split_by_board<true>(pos, rules, out);
    out.units = 0;  // (each unit's quiet targets are empty)
    return true;
  }
  if (!split_legal_moves(pos, rules, out)) return false;
  // The other splits judge the quiet moves with the rest: drop them.
  out.units = 0;
  MoveList leaving;
  for (Move m : out.listed)
    if (leaves_material(pos, m)) leaving.push(m);
  out.listed = leaving;
  return true;
}

template <class Rules>
bool may_leave_material(const Position& pos, const Rules& rules) {
  if (!only_ordinary_units(pos) || pos.ep_square() != SQ_NONE) return true;
  const Color us = pos.side_to_move();
  const Bitboard capturable = capturable_bb(pos, us), occupied = pos.pieces();
  for (Bitboard units = pos.pieces(us); units;) {
    const Square s = pop_lsb(units);
    const PieceType walk = rules.walk_of(pos, s);
    // A real pawn promotes from its seventh rank by its own walk, and from anywhere its
    // last rank is in reach of a lent one (SPEC 3.4).
    if (pos.piece_on(s).type() == PAWN && (walk != PAWN || relative_rank(us, s) == 6)) return true;
    if (orthodox_observation_bb(walk, us, s, occupied) & capturable) return true;
  }
  return false;
}

template <class Rules>
SplitOutcome split_legal_moves_if_legal(const Position& pos, const Rules& rules, SplitMoves& out) {
  if constexpr (BorrowedWalksSplit<Rules>) {
    if (only_ordinary_units(pos))
      return split_with_borrowed_walks(pos, rules, out) ? SplitOutcome::Split : SplitOutcome::IllegalPosition;
  }
  if (!is_legal_position(pos, rules)) return SplitOutcome::IllegalPosition;
  return split_legal_moves(pos, rules, out) ? SplitOutcome::Split : SplitOutcome::NotSplit;
}

template <class Rules>
std::uint64_t perft(Position& pos, const Rules& rules, int depth) {
  if (depth <= 0) return 1;
  MoveList moves;
  generate_legal(pos, rules, moves);
  if (depth == 1) return moves.size();
  std::uint64_t nodes = 0;
  for (Move m : moves) {
    UndoRecord undo;
    make_move(pos, m, undo, rules);
    nodes += perft(pos, rules, depth - 1);
    pos.undo_move(m, undo);
  }
  return nodes;
}

// The templates for every rule set (rules/conditions/rule_sets.h), so that other
// libraries can call them after their own single dispatch (explicit instantiations:
// implicit ones may be inlined away and never emitted).
#define FEERIE_INSTANTIATE_MOVEGEN(Walk, Restriction)                                                        \
  template void generate_legal(const Position&, const ComposedRules<Walk, Restriction>&, MoveList&);         \
  template std::uint64_t perft(Position&, const ComposedRules<Walk, Restriction>&, int);                     \
  template bool split_legal_moves(const Position&, const ComposedRules<Walk, Restriction>&, SplitMoves&);    \
  template bool split_leaving_moves(const Position&, const ComposedRules<Walk, Restriction>&, SplitMoves&);  \
  template bool may_leave_material(const Position&, const ComposedRules<Walk, Restriction>&);                \
  template SplitOutcome split_legal_moves_if_legal(const Position&, const ComposedRules<Walk, Restriction>&, \
                                                   SplitMoves&);
FEERIE_RULE_SETS(FEERIE_INSTANTIATE_MOVEGEN)
#undef FEERIE_INSTANTIATE_MOVEGEN

void generate_legal(const Position& pos, const RuleSet& rules, MoveList& out) {
  rules.visit([&](const auto& r) { generate_legal(pos, r, out); });
}

namespace {

template <class Rules>
Position after_move(const Position& pos, Move m, const Rules& rules) {
  Position after = pos;
  UndoRecord undo;
  make_move(after, m, undo, rules);
  if (!ep_square_usable(after, rules)) after.set_ep_square(SQ_NONE);
  return after;
}

}  // namespace

std::vector<MoveResult> legal_moves_with_results(const Position& pos, const RuleSet& rules) {
  std::vector<MoveResult> out;
  rules.visit([&](const auto& r) {
    MoveList moves;
    generate_legal(pos, r, moves);
    for (Move m : moves) out.push_back({m, after_move(pos, m, r)});
  });
  return out;
}

Position position_after(const Position& pos, Move m, const RuleSet& rules) {
  return rules.visit([&](const auto& r) { return after_move(pos, m, r); });
}

bool in_check(const Position& pos, const RuleSet& rules) {
  return rules.visit([&](const auto& r) { return king_in_check(pos, pos.side_to_move(), r); });
}

bool is_legal_position(const Position& pos, const RuleSet& rules) {
  return rules.visit([&](const auto& r) { return is_legal_position(pos, r); });
}

bool ep_square_usable(const Position& pos, const RuleSet& rules) {
  return rules.visit([&](const auto& r) { return ep_square_usable(pos, r); });
}

bool ep_square_possible(const Position& pos, const RuleSet& rules) {
  return rules.visit([&](const auto& r) { return ep_square_possible(pos, r); });
}

std::uint64_t perft(Position& pos, const RuleSet& rules, int depth) {
  return rules.visit([&](const auto& r) { return perft(pos, r, depth); });
}

namespace {

// The units that check the king of `c`, as "Ka1 and Qc1" (for the message of an illegal
// position: not a hot path).
template <class Rules>
std::string checkers_text(const Position& pos, Color c, const Rules& rules) {
  const Square k = pos.king_square(c);
  std::vector<std::string> names;
  any_king_attacker(pos, c, rules, [&](Square s) {
    bool checks = true;
    if constexpr (!Rules::EveryAttackerChecks) checks = rules.gives_check(pos, s, k);
    if (checks) names.push_back(PieceLetters[pos.piece_on(s).type()] + square_name(s));
    return false;  // every one
  });
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i)
    text += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return text;
}

}  // namespace

Status check_position_legal(const Position& pos, const RuleSet& rules) {
  if (pos.ep_square() != SQ_NONE && !ep_square_possible(pos, rules))
    return error(ErrorKind::InvalidArgument,
                 "illegal position '" + to_fen(pos) + "': under " + rules.name() +
                     " the pawn in front of the en-passant square could not have made a double step (on its origin "
                     "square it does not move as a pawn, or it would have mutated on arrival)");
  if (is_legal_position(pos, rules)) return Ok{};
  const Color not_to_move = ~pos.side_to_move();
  const std::string checkers = rules.visit([&](const auto& r) { return checkers_text(pos, not_to_move, r); });
  return error(ErrorKind::InvalidArgument, "illegal position '" + to_fen(pos) + "': the side not to move (" +
                                               (not_to_move == WHITE ? "white" : "black") + ") is in check under " +
                                               rules.name() + (checkers.empty() ? "" : " (from " + checkers + ")"));
}

Expected<Position> parse_legal_position(std::string_view fen, const RuleSet& rules) {
  Expected<Position> pos = parse_fen(fen);
  if (!pos) return pos;
  if (Status s = check_position_legal(*pos, rules); !s) return s.error();
  return pos;
}

}  // namespace feerie

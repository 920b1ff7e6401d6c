#include "rules/conditions/paralysis.h"

#include <algorithm>
#include <bit>
#include <sstream>
#include <vector>

#include "rules/capture.h"
#include "rules/conditions/rule_sets.h"
#include "rules/text.h"

namespace feerie {

namespace {

// En-passant observation: the pawn that just made a double step is observed by each enemy
// unit that could take it en passant, that is each unit of the side to move on a pawn's
// capture square of the en-passant square that uses the pawn walk (a pawn, or under Annan
// any unit moving as a pawn). The double-stepper observes nothing new. Returns the
// double-stepper's square as a bitboard, or 0.
template <class Walk>
Bitboard observed_en_passant(const Position& pos, const Walk& walk) {
  Square ep = pos.ep_square();
  if (ep == SQ_NONE) return 0;
  Color taker = pos.side_to_move();
  const Bitboard candidates = pawn_attackers_bb(taker, ep) & pos.pieces(taker) & ~pos.magic_pieces();
  const Bitboard double_stepper = square_bb(Square(ep - pawn_push(taker)));
  if constexpr (Walk::OwnWalks) return (candidates & pos.pieces(PAWN)) ? double_stepper : 0;
  for (Bitboard takers = candidates; takers;)
    if (walk.walk_of(pos, pop_lsb(takers)) == PAWN) return double_stepper;
  return 0;
}

}  // namespace

template <class Walk>
Bitboard ParalysisRelation::paralysed_bb(const Position& pos, const Walk& walk) const {
  Bitboard paralysed = 0;
  const Bitboard magic = pos.magic_pieces();
  if constexpr (Walk::OwnWalks) {
    // Asked of every position the split judges: with ordinary units only, walk by walk
    // (any_pairs), so that the units of a walk that paralyses no enemy unit present cost
    // nothing and a pair of two units of one mutual walk is looked up once.
    if (!magic && !(pos.pieces(GRASSHOPPER) | pos.pieces(LOCUST))) {
      any_pairs(pos, [&](Square o, Bitboard observed) {
        paralysed |= observed;
        // The white unit of such a pair is observed back by the black one.
        const PieceType type = pos.piece_on(o).type();
        if (type != PAWN && relates(type, type) && (observed & pos.pieces(type))) paralysed |= square_bb(o);
        return false;
      });
      if (relates(PAWN, PAWN)) paralysed |= observed_en_passant(pos, walk);
      return paralysed;
    }
  }
  for (Bitboard observers = pos.pieces() & ~magic; observers;) {
    Square s = pop_lsb(observers);
    Piece unit = pos.piece_on(s);
    // With own walks the unit's type is its walk: no second look at the board.
    const PieceType used = Walk::OwnWalks ? unit.type() : walk.walk_of(pos, s);
    // The enemy units of the types this unit's walk paralyses; most often there are none,
    // and the unit's observation need not be computed.
    if (const Bitboard victims = paralysable_bb(pos, ~unit.color(), used))
      paralysed |= capture_targets_bb(pos, s, used, unit.color()) & victims;
  }
  if (relates(PAWN, PAWN)) paralysed |= observed_en_passant(pos, walk);
  return paralysed;
}

template <class Walk>
bool ParalysisRelation::is_paralysed(const Position& pos, Square s, const Walk& walk) const {
  Piece unit = pos.piece_on(s);
  if (unit.magic()) return false;
  // Asked of each unit that reaches a king (king_in_check): with ordinary units only, by
  // reverse look-ups from the unit, one per walk that paralyses its type.
  if constexpr (Walk::OwnWalks)
    if (!pos.magic_pieces() && !(pos.pieces(GRASSHOPPER) | pos.pieces(LOCUST)))
      return paralysers_bb(pos, s) ||
             (unit.type() == PAWN && relates(PAWN, PAWN) && (observed_en_passant(pos, walk) & square_bb(s)));
  for (Bitboard observers = pos.pieces(~unit.color()) & ~pos.magic_pieces(); observers;) {
    Square o = pop_lsb(observers);
    const PieceType used = Walk::OwnWalks ? pos.piece_on(o).type() : walk.walk_of(pos, o);
    if (relates(used, unit.type()) && reaches_for_capture(pos, o, used, ~unit.color(), s)) return true;
  }
  return unit.type() == PAWN && relates(PAWN, PAWN) && (observed_en_passant(pos, walk) & square_bb(s));
}

template <class Walk>
requires Walk::QuietMovesKeepEnemyWalks bool ParalysisRelation::paralysing_squares_bb(const Position& pos, Color c,
                                                                                      PieceType type, Bitboard occupied,
                                                                                      const Walk& walk_policy,
                                                                                      Bitboard& out) const {
  const Color them = ~c;
  const Bitboard observers = pos.pieces(them) & ~pos.magic_pieces();
  if (pos.ep_square() != SQ_NONE || (observers & (pos.pieces(GRASSHOPPER) | pos.pieces(LOCUST)))) return false;
  Bitboard observed = 0;
  if constexpr (Walk::OwnWalks) {
    // Asked per un-move of the solver's passes: walk by walk, so that only the units of the
    // walks that paralyse `type` are looked at (under Madrasi one walk: `type`'s own).
    for (int w = PAWN; w <= KING; ++w)
      if (relates(PieceType(w), type))
        for (Bitboard b = observers & pos.pieces(PieceType(w)); b;)
          observed |= orthodox_observation_bb(PieceType(w), them, pop_lsb(b), occupied);
  } else {
    for (Bitboard b = observers; b;) {
      const Square o = pop_lsb(b);
      const PieceType walk = walk_policy.walk_of(pos, o);
      if (relates(walk, type)) observed |= orthodox_observation_bb(walk, them, o, occupied);
    }
  }
  // (A pawn observes its capture squares, none from its own first rank: SPEC 2.)
  out = observed;
  return true;
}

template <class Board>
Bitboard ParalysisRelation::paralysers_bb(const Board& board, Square s) const {
  const Piece victim = board.piece_on(s);
  const Color observers = ~victim.color();
  const Bitboard occupied = board.pieces(WHITE) | board.pieces(BLACK);
  // The squares from which each paralysing walk reaches `s`, as reverse look-ups.
  Bitboard paralysers = 0;
  for (int w = PAWN; w < PIECE_TYPE_NB; ++w) {
    const PieceType walk = PieceType(w);
    if (!relates(walk, victim.type())) continue;
    const Bitboard reach = walk == PAWN ? pawn_attackers_bb(observers, s) : leaper_or_slider_bb(walk, s, occupied);
    paralysers |= reach & board.pieces(observers, walk);
  }
  return paralysers;
}

template Bitboard ParalysisRelation::paralysers_bb(const BoardEdit&, Square) const;
template Bitboard ParalysisRelation::paralysers_bb(const Position&, Square) const;

Bitboard ParalysisRelation::observed_paralysed_types_bb(const BoardEdit& board, Square s) const {
  const Piece unit = board.piece_on(s);
  // As paralysed_bb(): the unit's observation is computed only when the enemy has units of
  // a type its walk paralyses (most often none).
  const Bitboard victims = units_paralysed_by_bb(board, ~unit.color(), unit.type());
  return victims ? orthodox_observation_bb(unit.type(), unit.color(), s, board.occupied()) & victims : 0;
}

Bitboard ParalysisRelation::pairing_squares_bb(const BoardEdit& board, Color c, PieceType type) const {
  const Color them = ~c;
  const Bitboard occupied = board.occupied();
  Bitboard squares = 0;
  for (Bitboard enemies = board.pieces(them); enemies;) {
    const Square e = pop_lsb(enemies);
    const PieceType enemy = board.piece_on(e).type();
    const bool observes = relates(enemy, type);
    if (observes) squares |= orthodox_observation_bb(enemy, them, e, occupied);
    // Leapers' and sliders' observation is symmetric: the squares from which `type`
    // reaches e are those it reaches from e (for an enemy of its own type, the squares
    // just added).
    if (relates(type, enemy) && !(observes && enemy == type)) squares |= leaper_or_slider_bb(type, e, occupied);
  }
  return squares;
}

bool ParalysisRelation::has_pair_after_move(const BoardEdit& after, Square from, Square to) const {
  if (observes_paralysed_type(after, to) || observed_by_paralyser(after, to)) return true;
  return has_pair_through(after, from, square_bb(to));
}

bool ParalysisRelation::has_pair_through(const BoardEdit& board, Square emptied, Bitboard known) const {
  // A slider that now sees past `emptied` observes one unit more: the first one beyond
  // `emptied` on its line (which, if it is a slider of that line, now observes the first
  // slider back: both ends are among the sliders through `emptied`). Its other
  // observations are those it had, which made no pair.
  //
  // First, on the empty board: a pair needs a slider on one of its lines through
  // `emptied` with an enemy unit of a type its walk paralyses on that line. Most emptied
  // squares have none, and the attack look-ups below are then saved.
  const Bitboard straight = (board.pieces(ROOK) | board.pieces(QUEEN)) & rook_lines_bb(emptied);
  const Bitboard diagonal = (board.pieces(BISHOP) | board.pieces(QUEEN)) & bishop_lines_bb(emptied);
  bool possible = false;
  for (Bitboard candidates = (straight | diagonal) & ~known; candidates && !possible;) {
    const Square s = pop_lsb(candidates);
    const Piece slider = board.piece_on(s);
    possible = units_paralysed_by_bb(board, ~slider.color(), slider.type()) & line_bb(s, emptied);
  }
  if (!possible) return false;
  const Bitboard occupied = board.occupied();
  const Bitboard rook_lines = rook_attacks_bb(emptied, occupied);
  const Bitboard bishop_lines = bishop_attacks_bb(emptied, occupied);
  Bitboard sliders = (rook_lines & (board.pieces(ROOK) | board.pieces(QUEEN))) |
                     (bishop_lines & (board.pieces(BISHOP) | board.pieces(QUEEN)));
  const Bitboard seen = (rook_lines | bishop_lines) & occupied;
  for (sliders &= ~known; sliders;) {
    const Square s = pop_lsb(sliders);
    const Bitboard beyond = seen & line_bb(s, emptied) & ~square_bb(s);
    if (!beyond) continue;
    const Piece slider = board.piece_on(s), unit = board.piece_on(lsb(beyond));
    if (unit.color() != slider.color() && relates(slider.type(), unit.type())) return true;
  }
  return false;
}

unsigned ParalysisRelation::pairing_types(const Position& pos, Color c) const {
  // Asked of every position the solver splits: loops of fixed length without branches on
  // the board, which the compiler unrolls.
  unsigned own = 0, enemy = 0;
  const Bitboard ours = pos.pieces(c), theirs = pos.pieces(~c);
  for (int pt = PAWN; pt < PIECE_TYPE_NB; ++pt) {
    const Bitboard units = pos.pieces(PieceType(pt));
    own |= unsigned((units & ours) != 0) << pt;
    enemy |= unsigned((units & theirs) != 0) << pt;
  }
  unsigned pairing = 0;
  for (int pt = PAWN; pt < PIECE_TYPE_NB; ++pt) {
    // Our type pt paralyses an enemy type present; an enemy type pt present paralyses ours.
    pairing |= (paralyses[pt] & enemy) ? own & (1u << pt) : 0;
    pairing |= (enemy & (1u << pt)) ? paralyses[pt] & own : 0;
  }
  return pairing;
}

bool ParalysisRelation::king_safe_after_move(const Position& pos, Square from, Square to, PieceType arriving) const {
  const BoardEdit after(pos, from, to, arriving);
  // A unit that reaches the king gives check unless it is paralysed.
  for (Bitboard attackers = king_attackers(after, after.king_square(pos.side_to_move())); attackers;)
    if (!observed_by_paralyser(after, pop_lsb(attackers))) return false;
  return true;
}

Bitboard Paralysis::BoardLegality::legal_targets(Square from, Bitboard targets) const {
  if (all_legal(from)) return targets;
  const PieceType type = pos_.piece_on(from).type();
  const Square king = pos_.king_square(pos_.side_to_move());
  const BoardEdit lifted(pos_, square_bb(from));
  if (from == king) {
    // The king on `to` is in check from an enemy unit that reaches `to` with the king
    // lifted (not one it takes there: a unit reaches no square of its own) unless the king
    // itself paralyses it from `to`, or another unit does so with the king lifted and the
    // king on `to` blocks none of their lines to it. Per enemy unit, the targets where it
    // gives check: those it reaches, less the king's paralysing squares, within the lines
    // of all its paralysers (every target when it has none).
    const Color them = ~pos_.side_to_move();
    const Bitboard occupied = lifted.occupied();
    Bitboard checked = 0;
    for (Bitboard enemies = lifted.pieces(them); enemies;) {
      const Square s = pop_lsb(enemies);
      const PieceType type = lifted.piece_on(s).type();
      Bitboard checks = orthodox_observation_bb(type, them, s, occupied);
      if (rules_.relates(KING, type)) checks &= ~king_bb(s);
      for (Bitboard p = checks ? rules_.paralysers_bb(lifted, s) : 0; p && checks;) checks &= between_bb(pop_lsb(p), s);
      checked |= checks;
    }
    return targets & ~checked;
  }
  // After the move to `to` an enemy unit that reaches the king with the unit lifted still
  // does unless the unit takes it or blocks its line; it gives no check if the unit on
  // `to` paralyses it, or another unit that does so with the unit lifted and whose line
  // to it the unit does not block (nothing else changes: every walk is symmetric but the
  // pawn's, and the unit is no pawn; a unit observes through no other square). Per
  // attacker, for all targets at once: those where it gives no check (a paralyser's line
  // stays open off the squares between them; a leaper's has none).
  const Bitboard occupied = lifted.occupied();
  Bitboard legal = targets;
  for (Bitboard a = king_attackers(lifted, king); a && legal;) {
    const Square s = pop_lsb(a);
    Bitboard no_check = square_bb(s) | between_bb(king, s);
    if (rules_.relates(type, lifted.piece_on(s).type())) no_check |= leaper_or_slider_bb(type, s, occupied);
    for (Bitboard p = rules_.paralysers_bb(lifted, s); p;) no_check |= ~between_bb(pop_lsb(p), s);
    legal &= no_check;
  }
  return legal;
}

bool ParalysisRelation::includes_kings() const {
  for (std::uint16_t victims : paralyses)
    if (victims & (1u << KING)) return true;
  return false;
}

// Every walk policy (rules/conditions/rule_sets.h).
#define FEERIE_INSTANTIATE_RELATION(Unused, Walk)                                        \
  template Bitboard ParalysisRelation::paralysed_bb(const Position&, const Walk&) const; \
  template bool ParalysisRelation::is_paralysed(const Position&, Square, const Walk&) const;
FEERIE_WALK_POLICIES(FEERIE_INSTANTIATE_RELATION, 0)
#undef FEERIE_INSTANTIATE_RELATION
// The walk policies whose enemy walks stay put (Walk::QuietMovesKeepEnemyWalks).
template bool ParalysisRelation::paralysing_squares_bb(const Position&, Color, PieceType, Bitboard, const OwnWalk&,
                                                       Bitboard&) const;
template bool ParalysisRelation::paralysing_squares_bb(const Position&, Color, PieceType, Bitboard, const AnnanWalk&,
                                                       Bitboard&) const;

ParalysisRelation madrasi_relation(bool kings_included) {
  ParalysisRelation r;
  for (int pt = PAWN; pt < PIECE_TYPE_NB; ++pt)
    if (pt != KING || kings_included) r.paralyses[pt] = std::uint16_t(1u << pt);
  return r;
}

ParalysisRelation eiffel_relation() {
  ParalysisRelation r;
  r.paralyses[PAWN] = 1u << KNIGHT;
  r.paralyses[KNIGHT] = 1u << BISHOP;
  r.paralyses[BISHOP] = 1u << ROOK;
  r.paralyses[ROOK] = 1u << QUEEN;
  r.paralyses[QUEEN] = 1u << PAWN;
  return r;
}

bool parse_relation(const std::string& pairs, ParsedRelation& out, std::string& error_message) {
  out = ParsedRelation{};
  std::vector<std::string> canonical;
  // Every comma separates two pairs: "qb," and "qb,,bq" have an empty one.
  for (std::size_t start = 0; start <= pairs.size() && !pairs.empty();) {
    std::size_t comma = std::min(pairs.find(',', start), pairs.size());
    const std::string pair = pairs.substr(start, comma - start);
    start = comma + 1;
    if (pair.empty()) {
      error_message = "an empty pair (a comma at the start or end, or two commas together)";
      return false;
    }
    PieceType a = pair.size() == 2 ? piece_type_from_letter(pair[0]) : NO_PIECE_TYPE;
    PieceType b = pair.size() == 2 ? piece_type_from_letter(pair[1]) : NO_PIECE_TYPE;
    if (a == NO_PIECE_TYPE || b == NO_PIECE_TYPE) {
      error_message = "bad pair '" + printable(pair) + "' (expected two of the letters k q r b n p g l, as in qb)";
      return false;
    }
    out.relation.paralyses[a] |= std::uint16_t(1u << b);
    canonical.push_back({char(PieceLetters[a] - 'A' + 'a'), char(PieceLetters[b] - 'A' + 'a')});
  }
  if (canonical.empty()) {
    error_message = "no pairs given (expected a list such as qb,bq,rn,nr)";
    return false;
  }
  std::sort(canonical.begin(), canonical.end());
  canonical.erase(std::unique(canonical.begin(), canonical.end()), canonical.end());
  for (const std::string& c : canonical) out.canonical += (out.canonical.empty() ? "" : ",") + c;
  return true;
}

}  // namespace feerie

#include "rules/conditions/paralysis.h"

#include <algorithm>
#include <bit>
#include <sstream>
#include <vector>

#include "rules/capture.h"
#include "rules/magic.h"

namespace feerie {

Bitboard ParalysisRules::paralysed_bb(const Position& pos) const {
  Bitboard paralysed = 0;
  const Bitboard magic = pos.magic_pieces();
  for (Bitboard observers = pos.pieces() & ~magic; observers;) {
    Square s = pop_lsb(observers);
    Piece unit = pos.piece_on(s);
    // The enemy units of the types this unit paralyses; most often there are none, and
    // the unit's observation need not be computed.
    Bitboard victims = 0;
    for (unsigned types = paralyses[unit.type()]; types; types &= types - 1)
      victims |= pos.pieces(~unit.color(), PieceType(std::countr_zero(types)));
    victims &= ~magic;
    if (victims) paralysed |= capture_targets_bb(pos, s, unit.type(), unit.color()) & victims;
  }
  // En-passant observation: the pawn that just made a double step is observed by each
  // enemy pawn that could take it en passant (the double-stepper observes nothing new).
  Square ep = pos.ep_square();
  if (ep != SQ_NONE && relates(PAWN, PAWN)) {
    Color taker = pos.side_to_move();
    if (pawn_attackers_bb(taker, ep) & pos.pieces(taker, PAWN) & ~magic)
      paralysed |= square_bb(Square(ep - pawn_push(taker)));
  }
  return paralysed;
}

bool ParalysisRules::is_paralysed(const Position& pos, Square s) const {
  Piece unit = pos.piece_on(s);
  if (unit.magic()) return false;
  for (Bitboard observers = pos.pieces(~unit.color()) & ~pos.magic_pieces(); observers;) {
    Square o = pop_lsb(observers);
    Piece observer = pos.piece_on(o);
    if (relates(observer.type(), unit.type()) && reaches_for_capture(pos, o, observer.type(), observer.color(), s))
      return true;
  }
  // En-passant observation, as in paralysed_bb().
  Square ep = pos.ep_square();
  if (ep != SQ_NONE && relates(PAWN, PAWN)) {
    Color taker = pos.side_to_move();
    if (s == Square(ep - pawn_push(taker)) && (pawn_attackers_bb(taker, ep) & pos.pieces(taker, PAWN) & ~pos.magic_pieces()))
      return true;
  }
  return false;
}

bool ParalysisRules::kings_may_touch() const {
  // Under Isardam type A a king next to the enemy king is not in check when taking it
  // would leave a pair (Isardam: White Kb1 Ra2, Black Kc2 Rd2 is legal with Black to
  // move: Kxb1 would leave the rooks facing each other).
  // Under Isardam type B adjacent kings always give an ordinary check.
  if (isardam) return !ordinary_checks;
  for (std::uint16_t victims : paralyses)
    if (victims & (1u << KING)) return true;
  return false;
}

namespace {

// The position after the unit on `from` captures the king on `king` (a locust lands
// beyond it), promoting to `promotion` when given, and after the mutation that move
// causes. Used for Isardam type A checks.
Position after_king_capture(const Position& pos, Square from, Square king, PieceType promotion) {
  Position after = pos;
  Piece unit = pos.piece_on(from);
  Square land = king;
  if (unit.type() == LOCUST) {
    int df = file_of(king) - file_of(from), dr = rank_of(king) - rank_of(from);
    land = make_square(file_of(king) + (df > 0) - (df < 0), rank_of(king) + (dr > 0) - (dr < 0));
  }
  after.remove_piece(king);
  after.move_piece(from, land);
  if (promotion != NO_PIECE_TYPE) after.replace_piece(land, Piece(unit.color(), promotion, unit.magic()));
  after.set_ep_square(SQ_NONE);
  after.set_side_to_move(~pos.side_to_move());
  UndoRecord mutations;
  apply_mutations(after, from, land, mutations);
  return after;
}

// Whether taking the king from `from` is a move that leaves no pair. A real pawn that
// lands on its last rank promotes: the capture is legal if some promotion leaves no pair.
template <class HasPair>
bool king_capture_allowed(const Position& pos, Square from, Square king, HasPair&& has_pair) {
  Piece unit = pos.piece_on(from);
  if (unit.type() != PAWN || relative_rank(unit.color(), king) != 7)
    return !has_pair(after_king_capture(pos, from, king, NO_PIECE_TYPE));
  for (PieceType pt : promotion_types(pos))
    if (!has_pair(after_king_capture(pos, from, king, pt))) return true;
  return false;
}

}  // namespace

bool ParalysisRules::gives_check(const Position& pos, Square attacker, Square king) const {
  if (!isardam) return !is_paralysed(pos, attacker);
  return ordinary_checks ||
         king_capture_allowed(pos, attacker, king, [&](const Position& after) { return paralysed_bb(after) != 0; });
}

ParalysisRules madrasi_rules(bool kings_included) {
  ParalysisRules r;
  for (int pt = PAWN; pt < PIECE_TYPE_NB; ++pt)
    if (pt != KING || kings_included) r.paralyses[pt] = std::uint16_t(1u << pt);
  return r;
}

ParalysisRules eiffel_rules() {
  ParalysisRules r;
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
  std::stringstream in(pairs);
  for (std::string pair; std::getline(in, pair, ',');) {
    PieceType a = pair.size() == 2 ? piece_type_from_letter(pair[0]) : NO_PIECE_TYPE;
    PieceType b = pair.size() == 2 ? piece_type_from_letter(pair[1]) : NO_PIECE_TYPE;
    if (a == NO_PIECE_TYPE || b == NO_PIECE_TYPE) {
      error_message = "bad pair '" + pair + "' (expected two of the letters k q r b n p g l, as in qb)";
      return false;
    }
    out.rules.paralyses[a] |= std::uint16_t(1u << b);
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

// Independent, deliberately slow reference move generator for PARALYSIS+WALK (SPEC 3.6).
// See combination_reference.h.
//
// How it works: for every unit it finds the lender itself (SPEC 3.4) and asks the walk
// geometry (add_walk_moves) for that walk's moves from the unit's own square, then puts
// the result into the shape the rules give it: promotion exactly when a real pawn lands
// on its last rank (the choices are made here), a double step only for a real pawn moving
// as a pawn, en passant only for a unit moving as a pawn of the side to move. Observation
// is "this unit, by the walk it uses, has a move capturing that one unit" on the current
// board; paralysis, pairs and check are recomputed from scratch on every position, before
// the move for the mover and after it for legality (SPEC 3.1).
#include "tests/rules/combination_reference.h"

#include <algorithm>
#include <stdexcept>

#include "rules/move.h"
#include "rules/walks.h"
#include "tests/test_util.h"

namespace feerie::test::combination_reference {
namespace {

class Oracle {
 public:
  explicit Oracle(const Params& params) : params_(params) {}

  // Whether a unit using `walk` paralyses (or is paired with) an enemy unit of real type
  // `real` (SPEC 3.6: the observer's walk, the observed unit's real type).
  bool relates(PieceType walk, PieceType real) const { return params_.paralyses[walk] & (1u << real); }

  // The walk the unit on `s` uses: its lender's real walk, else its own (SPEC 3.4). The
  // lender is the friendly unit directly behind (Annan) or in front (Nanna); lending does
  // not chain, and paralysis does not stop a unit from lending (lending is not a move).
  PieceType walk_of(const Position& pos, Square s) const {
    Piece unit = pos.piece_on(s);
    if (unit.type() == KING && !params_.kings_borrow) return unit.type();
    // Behind a white unit is south; in front of it is north; the opposite for Black.
    int towards_lender = (unit.color() == WHITE) == params_.lender_in_front ? 1 : -1;
    int rank = rank_of(s) + towards_lender;
    if (rank < 0 || rank > 7) return unit.type();
    Piece lender = pos.piece_on(make_square(file_of(s), rank));
    if (lender.empty() || lender.color() != unit.color()) return unit.type();
    if (lender.type() == KING && !params_.kings_lend) return unit.type();
    return lender.type();
  }

  // The moves of the unit on `s` using `walk`, capturing only units in `capturable`, in
  // the form the rules give them. Used both for the side to move's moves and, with one
  // target square, for observation and check by either side.
  std::vector<Move> walk_moves(const Position& pos, Square s, PieceType walk, Bitboard capturable) const {
    std::vector<Move> out;
    Piece unit = pos.piece_on(s);
    Color c = unit.color();
    // SPEC 2 and 3.4: the pawn walk has no move and no capture from its first rank (the
    // reference solver's base rank) and none from its last (off the board), whoever uses
    // it: a real pawn there without a lender, or lent a pawn's walk, does nothing. Lent
    // another walk, a real pawn there moves, captures and observes with it like any unit.
    if (walk == PAWN && relative_rank(c, s) % 7 == 0) return out;
    MoveList raw;
    add_walk_moves(pos, s, walk, capturable, raw);
    for (Move m : raw) {
      MoveKind kind = m.kind();
      if (kind == MoveKind::EN_PASSANT) {
        // Only the side to move has an en-passant square to use, and only by a pawn walk
        // (SPEC 3.4: any unit moving as a pawn may take en passant).
        if (c != pos.side_to_move() || walk != PAWN || m.to() != pos.ep_square()) continue;
      } else if (kind != MoveKind::LOCUST_CAPTURE) {
        // Only a real pawn's double step is one (SPEC 3.4): a knight lent a pawn's walk
        // moving b2-b4 makes an ordinary move that no one can take en passant.
        bool double_step = unit.type() == PAWN && walk == PAWN && (m.to() - m.from() == 16 || m.from() - m.to() == 16);
        kind = double_step ? MoveKind::DOUBLE_STEP : MoveKind::NORMAL;
      }
      if (unit.type() == PAWN && relative_rank(c, m.to()) == 7) {
        // A real pawn promotes on its last rank however it moved (SPEC 3.4); the choices are
        // Q R B N and each fairy type on the board before the move (SPEC 2).
        for (PieceType pt : {QUEEN, ROOK, BISHOP, KNIGHT, GRASSHOPPER, LOCUST})
          if (pt <= QUEEN || pos.pieces(pt)) add_unique(out, Move(m.from(), m.to(), kind, pt));
      } else {
        // A unit that is not a real pawn never promotes, even moving as a pawn.
        add_unique(out, Move(m.from(), m.to(), kind));
      }
    }
    return out;
  }

  // Every way the unit on `a` could capture the enemy unit on `b` by the walk it uses,
  // capture being allowed or not: the observation of SPEC 3.1 and 3.6. The en-passant
  // observation of a pawn that just made a double step comes out of it too (the move
  // takes that pawn), and only for units of the side to move moving as pawns.
  std::vector<Move> captures_of(const Position& pos, Square a, Square b) const {
    std::vector<Move> takes;
    for (Move m : walk_moves(pos, a, walk_of(pos, a), square_bb(b)))
      if (pos.capture_square(m) == b) takes.push_back(m);
    return takes;
  }

  // Observed by an enemy unit whose walk the relation pairs with its real type: paralysed
  // under Madrasi and Eiffel, a forbidden pair under Isardam and Leffie.
  bool paralysed(const Position& pos, Square u) const {
    Piece unit = pos.piece_on(u);
    for (Bitboard enemies = pos.pieces(~unit.color()); enemies;) {
      Square a = pop_lsb(enemies);
      if (relates(walk_of(pos, a), unit.type()) && !captures_of(pos, a, u).empty()) return true;
    }
    return false;
  }

  bool any_pair(const Position& pos) const {
    for (Bitboard units = pos.pieces(); units;)
      if (paralysed(pos, pop_lsb(units))) return true;
    return false;
  }

  // Whether the king of `c` is in check in `pos` (SPEC 1: could be captured by an enemy
  // unit whose capture the condition allows).
  bool in_check(const Position& pos, Color c) const {
    Square king = pos.king_square(c);
    if (king == SQ_NONE) return false;
    for (Bitboard enemies = pos.pieces(~c); enemies;) {
      Square a = pop_lsb(enemies);
      std::vector<Move> takes = captures_of(pos, a, king);
      if (takes.empty()) continue;
      if (!params_.isardam) {
        // A paralysed unit gives no check (SPEC 3.1).
        if (!paralysed(pos, a)) return true;
        continue;
      }
      if (params_.ordinary_checks) return true;
      // Isardam type A: the capture of the king must itself leave no pair; with a
      // promotion, one promotion choice that leaves none is enough.
      for (Move m : takes) {
        Position after = pos;
        UndoRecord undo;
        after.do_move(m, undo);
        if (!any_pair(after)) return true;
      }
    }
    return false;
  }

  std::vector<Move> legal(const Position& pos) const {
    if (pos.magic_pieces()) throw std::invalid_argument("combination_reference: magic units are not covered");
    Color us = pos.side_to_move();
    std::vector<Move> result;
    for (Bitboard units = pos.pieces(us); units;) {
      Square s = pop_lsb(units);
      // Paralysis is evaluated before the move for the mover; under Isardam and Leffie it
      // never takes effect.
      if (!params_.isardam && paralysed(pos, s)) continue;
      for (Move m : walk_moves(pos, s, walk_of(pos, s), pos.pieces(~us) & ~pos.pieces(KING))) {
        Position next = pos;
        UndoRecord undo;
        next.do_move(m, undo);
        if (params_.isardam && any_pair(next)) continue;
        if (in_check(next, us)) continue;
        result.push_back(m);
      }
    }
    return result;
  }

  std::uint64_t perft(const Position& pos, int depth) const {
    if (depth == 0) return 1;
    std::vector<Move> moves = legal(pos);
    if (depth == 1) return moves.size();
    std::uint64_t nodes = 0;
    for (Move m : moves) {
      Position next = pos;
      UndoRecord undo;
      next.do_move(m, undo);
      nodes += perft(next, depth - 1);
    }
    return nodes;
  }

 private:
  static void add_unique(std::vector<Move>& moves, Move m) {
    if (std::find(moves.begin(), moves.end(), m) == moves.end()) moves.push_back(m);
  }

  const Params& params_;
};

}  // namespace

std::vector<std::string> legal_moves(const Position& pos, const Params& params) {
  std::vector<std::string> names;
  for (Move m : Oracle(params).legal(pos)) names.push_back(to_uci(m));
  std::sort(names.begin(), names.end());
  return names;
}

std::uint64_t perft(const Position& pos, const Params& params, int depth) { return Oracle(params).perft(pos, depth); }

Params params_of(const RuleSet& rules) {
  const ParalysisParameters paralysis = paralysis_parameters(rules);
  const AnnanWalk walk = annan_walk(rules);
  Params p;
  p.paralyses = paralysis.paralyses;
  p.isardam = paralysis.isardam;
  p.ordinary_checks = paralysis.ordinary_checks;
  p.lender_in_front = walk.lender_in_front;
  p.kings_lend = walk.kings_lend;
  p.kings_borrow = walk.kings_borrow;
  return p;
}

}  // namespace feerie::test::combination_reference

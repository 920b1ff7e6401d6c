#include "study/popeye.h"

#include <fmt/format.h>

#include <sstream>

#include "probe/material.h"
#include "rules/conditions/registry.h"
#include "rules/fen.h"
#include "rules/move.h"

namespace feerie {

namespace {

// Popeye's English piece letters (output/plaintext/language_dependant.c, the English
// PieNamString): the knight is S (N is the nightrider), the grasshopper G, the locust L.
char popeye_letter(PieceType pt) {
  switch (pt) {
    case KING:
      return 'K';
    case QUEEN:
      return 'Q';
    case ROOK:
      return 'R';
    case BISHOP:
      return 'B';
    case KNIGHT:
      return 'S';
    case PAWN:
      return 'P';
    case GRASSHOPPER:
      return 'G';
    case LOCUST:
      return 'L';
    default:
      return '?';
  }
}

std::string square_list(std::initializer_list<Square> squares) {
  std::string s;
  for (Square sq : squares) s += square_name(sq);
  return s;
}

// "White Kc2 Qd4 White Magic Rb3 Black Ke6 Rb6": the king first, then the name order of
// material names, each type by square; magic units in a group of their own, since
// Popeye gives a group's attributes to every unit of the group.
std::string pieces_line(const Position& pos) {
  std::string line = "Pieces";
  for (Color c : {WHITE, BLACK}) {
    for (bool magic : {false, true}) {
      std::string group;
      for (PieceType pt : NameOrder)
        for (Bitboard b = pos.pieces(c, pt); b;) {
          Square s = pop_lsb(b);
          if (pos.piece_on(s).magic() == magic) group += std::string(" ") + popeye_letter(pt) + square_name(s);
        }
      if (!group.empty()) line += std::string(c == WHITE ? " White" : " Black") + (magic ? " Magic" : "") + group;
    }
  }
  return line;
}

}  // namespace

PopeyeCondition popeye_condition(const RuleSet& rules) {
  PopeyeCondition c;
  std::stringstream parts(rules.name());
  for (std::string part; std::getline(parts, part, '+');) {
    // Every part of a canonical name is a registered condition (rules/conditions/registry.h).
    const ConditionEntry* e = find_condition(part);
    const std::string remark = e ? std::string(e->popeye_remark) : "";
    if (!e || !e->popeye_knows) {
      c.remarks.push_back("Feerie's condition " + part + (remark.empty() ? "" : " (" + remark + ")") +
                          " has no Popeye keyword: Popeye reads this problem without it");
      continue;
    }
    if (e->popeye.empty()) continue;
    if (!c.keywords.empty()) c.keywords += ' ';
    c.keywords += e->popeye;
  }
  return c;
}

namespace {

// The lines every problem has before its stipulation: `remarks`, the Remark that says
// what Feerie found (`finding`), the condition's remarks and keywords, and the options
// that read the position as Feerie does (castling rights, the en-passant square) with
// `extra_options` after them.
void write_problem_head(std::ostream& out, const Position& pos, const RuleSet& rules, const std::string& finding,
                        const std::vector<std::string>& remarks, const std::string& extra_options) {
  for (const std::string& r : remarks) out << "Remark " << r << "\n";
  out << "Remark " << to_fen(pos) << " (Feerie, " << rules.name() << "): " << finding << "\n";
  PopeyeCondition condition = popeye_condition(rules);
  for (const std::string& r : condition.remarks) out << "Remark " << r << "\n";
  if (pos.magic_pieces())
    out << "Remark Magic: Feerie's magic units are Bedoni's pieces magiciennes (they neither capture nor can be "
           "captured, and mutate the units they newly touch); Popeye's Magic pieces change the colour of the units "
           "they observe, so Popeye does not solve this problem by Feerie's rules\n";
  if (!condition.keywords.empty()) out << "Condition " << condition.keywords << "\n";
  // Castling squares by name: Popeye's NoCastling takes the squares of the units that may
  // no longer castle (input/plaintext/option.c).
  out << "Option NoCastling " << square_list({SQ_A1, SQ_E1, SQ_H1, SQ_A8, SQ_E8, SQ_H8});
  if (pos.ep_square() != SQ_NONE) {
    // The double step just played: departure, the square crossed, arrival.
    const int push = pawn_push(~pos.side_to_move());
    out << " EnPassant "
        << square_list({Square(pos.ep_square() - push), pos.ep_square(), Square(pos.ep_square() + push)});
  }
  out << extra_options << "\n";
}

}  // namespace

Expected<std::string> popeye_problem(const Position& pos, const RuleSet& rules, ValueCode value,
                                     const std::vector<std::string>& remarks) {
  if (!value::is_mate(value) || value::plies(value) == 0)
    return error(ErrorKind::NotSupported,
                 fmt::format("'{}' is {}: a Popeye problem needs a mate to play (stipulation #N)", to_fen(pos),
                             value::is_mate(value) ? "already mated" : "a draw"));
  // A win: the side to move mates in N. A loss in p plies: the other side mates, and the
  // position is the one after its key, so the stipulation counts that key too.
  const bool win = value::is_win(value);
  const int moves = win ? value::moves(value) : value::plies(value) / 2 + 1;
  const Color attacker = win ? pos.side_to_move() : ~pos.side_to_move();
  const char* mover = pos.side_to_move() == WHITE ? "White" : "Black";
  const std::string finding =
      fmt::format("{}{}{}", mover, win ? " mates in " : " to play is mated in ", value::moves(value));
  std::ostringstream out;
  write_problem_head(out, pos, rules, finding, remarks,
                     std::string(win ? "" : " PostKeyPlay") + (attacker == BLACK ? " HalfDuplex" : ""));
  out << "Stipulation #" << moves << "\n";
  out << pieces_line(pos) << "\n";
  return out.str();
}

Expected<std::string> popeye_help_problem(const Position& pos, const RuleSet& rules, StipulationKind kind, Color mated,
                                          const HelpEntry& entry, const std::vector<std::string>& remarks) {
  const bool self = kind == StipulationKind::Selfmate;
  const std::string name = entry.problem_name(kind);
  if (!value::is_mate(entry.plies) || value::plies(entry.plies) == 0 || name.empty())
    return error(ErrorKind::NotSupported,
                 fmt::format("'{}' states no {} problem with {} mated: {}", to_fen(pos), self ? "selfmate" : "helpmate",
                             mated == WHITE ? "white" : "black",
                             !value::is_mate(entry.plies)     ? "no mate"
                             : value::plies(entry.plies) == 0 ? "mated already"
                                                              : "a selfmate starts with the colour mated to move"));
  // Popeye's h# mates Black and s# White: the other colour mated is the position with
  // colours exchanged (the board turned over), which the rules treat alike.
  const Color popeye_mated = self ? WHITE : BLACK;
  const Position stated = mated == popeye_mated ? pos : color_flipped(pos);
  std::vector<std::string> all = remarks;
  if (mated != popeye_mated)
    all.push_back(fmt::format(
        "Feerie's position is {} with {} mated; Popeye's {} mates {}, so the colours are exchanged", to_fen(pos),
        mated == WHITE ? "White" : "Black", self ? "s#" : "h#", popeye_mated == WHITE ? "White" : "Black"));
  const std::string finding =
      self ? fmt::format("{}, forced", name) : fmt::format("{}, {}", name, solutions_text(entry.solutions));
  std::ostringstream out;
  write_problem_head(out, stated, rules, finding, all, "");
  out << "Stipulation " << name << "\n";
  out << pieces_line(stated) << "\n";
  return out.str();
}

void PopeyeWriter::write(const std::string& problem) {
  out_ << (written_++ == 0 ? "BeginProblem\n" : "NextProblem\n") << problem;
}

void PopeyeWriter::finish() {
  if (written_ > 0 && !finished_) out_ << "EndProblem\n";
  finished_ = true;
  out_.flush();
}

}  // namespace feerie

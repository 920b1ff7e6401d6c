#include "rules/move.h"

#include <cctype>

namespace feerie {

std::string square_name(Square s) {
  if (s >= SQUARE_NB) return "-";
  return {char('a' + file_of(s)), char('1' + rank_of(s))};
}

std::string to_uci(Move m) {
  std::string s = square_name(m.from()) + square_name(m.to());
  if (m.promotion() != NO_PIECE_TYPE) s += char(std::tolower(PieceLetters[m.promotion()]));
  return s;
}

}  // namespace feerie

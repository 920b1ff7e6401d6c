#include "rules/fen.h"

#include <cctype>
#include <vector>

#include "rules/text.h"

namespace feerie {

namespace {

// Splits on runs of white space (as a stream's >> would, without building a stream: FENs
// are parsed on every probe by FEN).
std::vector<std::string> split_fields(std::string_view text) {
  std::vector<std::string> fields;
  std::size_t i = 0;
  while (true) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i == text.size()) return fields;
    std::size_t start = i;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    fields.emplace_back(text.substr(start, i - start));
  }
}

Error fen_error(std::string_view fen, const std::string& what) {
  return error(ErrorKind::InvalidArgument, "bad FEN '" + printable_excerpt(fen) + "': " + what);
}

// Fills the board from the first field; returns an error naming the offending character.
Status parse_placement(std::string_view fen, const std::string& field, Position& pos) {
  int rank = 7, file = 0;
  for (std::size_t i = 0; i < field.size(); ++i) {
    char c = field[i];
    // Built only on the error paths: a FEN is parsed on every probe by FEN.
    auto where = [i] { return " at character " + std::to_string(i + 1) + " of the placement"; };
    if (c == '/') {
      if (file != 8) return fen_error(fen, "rank " + std::to_string(rank + 1) + " does not have 8 squares" + where());
      if (--rank < 0) return fen_error(fen, "more than 8 ranks" + where());
      file = 0;
    } else if (c >= '0' && c <= '9') {
      // Standard FEN counts a run of empty squares with one digit from 1 to 8.
      if (c == '0' || c == '9') return fen_error(fen, "a count of empty squares must be 1 to 8" + where());
      if (i > 0 && field[i - 1] >= '1' && field[i - 1] <= '8')
        return fen_error(fen, "two digits in a row (one digit counts the empty squares)" + where());
      file += c - '0';
      if (file > 8) return fen_error(fen, "rank " + std::to_string(rank + 1) + " has more than 8 squares" + where());
    } else {
      PieceType pt = piece_type_from_letter(c);
      if (c == '*') return fen_error(fen, "'*' (magic) must follow a piece letter" + where());
      if (pt == NO_PIECE_TYPE)
        return fen_error(fen, "unknown piece letter '" + printable_character_at(field, i) + "'" + where());
      if (file >= 8) return fen_error(fen, "rank " + std::to_string(rank + 1) + " has more than 8 squares" + where());
      // A magic unit is its letter followed by '*' (SPEC 2).
      bool magic = i + 1 < field.size() && field[i + 1] == '*';
      if (magic && pt == KING) return fen_error(fen, "a king cannot be magic" + where());
      Color color = std::isupper(static_cast<unsigned char>(c)) ? WHITE : BLACK;
      pos.put_piece(Piece(color, pt, magic), make_square(file, rank));
      ++file;
      if (magic) ++i;
    }
  }
  // (A short inner rank is named at its '/' above; here the last rank, or too few ranks.)
  if (rank != 0) return fen_error(fen, "the placement has " + std::to_string(8 - rank) + " ranks, not 8");
  if (file != 8)
    return fen_error(fen, "rank 1 (the last of the placement) has " + std::to_string(file) + " squares, not 8");
  return Ok{};
}

Status check_kings(std::string_view fen, const Position& pos) {
  for (Color c : {WHITE, BLACK}) {
    int kings = popcount(pos.pieces(c, KING));
    std::string side = c == WHITE ? "white" : "black";
    if (kings == 0) return fen_error(fen, "no " + side + " king");
    if (kings > 1) return fen_error(fen, std::to_string(kings) + " " + side + " kings");
  }
  return Ok{};
}

// The en-passant square must be one a double step of the side not to move just crossed.
Status parse_ep(std::string_view fen, const std::string& field, Position& pos) {
  if (field == "-") return Ok{};
  if (field.size() != 2 || field[0] < 'a' || field[0] > 'h' || field[1] < '1' || field[1] > '8')
    return fen_error(fen, "bad en-passant square '" + printable_excerpt(field) + "'");
  Square ep = make_square(field[0] - 'a', field[1] - '1');
  Color mover = ~pos.side_to_move();  // the side that made the double step
  if (relative_rank(mover, ep) != 2)
    return fen_error(
        fen, "en-passant square " + field + " is not on the rank a double step of the side not to move crosses");
  Square pawn = Square(ep + pawn_push(mover)), origin = Square(ep - pawn_push(mover));
  if (pos.piece_on(pawn) != Piece(mover, PAWN))
    return fen_error(fen,
                     "en-passant square " + field + " has no pawn in front of it that could have made a double step");
  if (!pos.empty(ep) || !pos.empty(origin))
    return fen_error(fen, "en-passant square " + field + " or the square behind it is occupied");
  pos.set_ep_square(ep);
  return Ok{};
}

// A move counter: digits, as many as written (they are ignored, so none is too large).
bool is_counter(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

}  // namespace

Expected<Position> parse_fen(std::string_view fen) {
  std::vector<std::string> f = split_fields(fen);
  if (f.size() != 4 && f.size() != 6)
    return fen_error(fen, "expected 6 fields (or 4 without the move counters), found " + std::to_string(f.size()));
  Position pos;
  if (Status s = parse_placement(fen, f[0], pos); !s) return s.error();
  if (Status s = check_kings(fen, pos); !s) return s.error();
  if (f[1] == "w")
    pos.set_side_to_move(WHITE);
  else if (f[1] == "b")
    pos.set_side_to_move(BLACK);
  else
    return fen_error(fen, "side to move must be 'w' or 'b', found '" + printable_excerpt(f[1]) + "'");
  if (f[2] != "-") {
    bool castling_letters = f[2].find_first_not_of("KQkqABCDEFGHabcdefgh") == std::string::npos;
    return fen_error(fen, castling_letters ? "castling rights '" + printable_excerpt(f[2]) +
                                                 "' are not supported (Feerie has no castling; use '-')"
                                           : "bad castling field '" + printable_excerpt(f[2]) +
                                                 "' (Feerie has no castling; use '-')");
  }
  if (Status s = parse_ep(fen, f[3], pos); !s) return s.error();
  if (f.size() == 6 && (!is_counter(f[4]) || !is_counter(f[5])))
    return fen_error(fen, "move counters must be non-negative integers");
  return pos;
}

std::string to_fen(const Position& pos) {
  std::string s;
  for (int rank = 7; rank >= 0; --rank) {
    int gap = 0;
    for (int file = 0; file < 8; ++file) {
      Piece p = pos.piece_on(make_square(file, rank));
      if (p.empty()) {
        ++gap;
        continue;
      }
      if (gap) s += char('0' + gap), gap = 0;
      char letter = PieceLetters[p.type()];
      s += p.color() == WHITE ? letter : char(std::tolower(letter));
      if (p.magic()) s += '*';
    }
    if (gap) s += char('0' + gap);
    if (rank) s += '/';
  }
  s += pos.side_to_move() == WHITE ? " w - " : " b - ";
  s += pos.ep_square() == SQ_NONE ? "-" : square_name(pos.ep_square());
  s += " 0 1";
  return s;
}

}  // namespace feerie

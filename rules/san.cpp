#include "rules/san.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <vector>

#include "rules/movegen.h"
#include "rules/text.h"

namespace feerie {

namespace {

// The letter a unit is named by, with the magic mark: "" for an ordinary pawn.
std::string unit_name(Piece p) {
  std::string s;
  if (p.type() != PAWN || p.magic()) s += PieceLetters[p.type()];
  if (p.magic()) s += '*';
  return s;
}

char file_char(Square s) { return char('a' + file_of(s)); }
char rank_char(Square s) { return char('1' + rank_of(s)); }

// Whether `m` captures: a unit on its square, en passant, a locust's victim.
bool captures(const Position& pos, Move m) {
  return m.kind() == MoveKind::EN_PASSANT || m.kind() == MoveKind::LOCUST_CAPTURE || !pos.empty(m.to());
}

// The square a locust's capture takes on: the one just before its landing square.
Square locust_victim(Move m) {
  const int df = file_of(m.to()) > file_of(m.from()) ? 1 : file_of(m.to()) < file_of(m.from()) ? -1 : 0;
  const int dr = rank_of(m.to()) > rank_of(m.from()) ? 1 : rank_of(m.to()) < rank_of(m.from()) ? -1 : 0;
  return Square(int(m.to()) - df - 8 * dr);
}

// SAN without the check mark, `moves` being every legal move of `pos`.
std::string san_body(const Position& pos, Move m, const MoveList& moves) {
  const Piece unit = pos.piece_on(m.from());
  const bool capture = captures(pos, m);
  std::string s = unit_name(unit);
  // The other legal moves of a unit named alike to the same square (a promotion choice is
  // the same move for this purpose).
  bool ambiguous = false, same_file = false, same_rank = false;
  for (Move o : moves) {
    if (o.from() == m.from() || o.to() != m.to() || pos.piece_on(o.from()) != unit) continue;
    if (captures(pos, o) != capture) continue;
    ambiguous = true;
    same_file |= file_of(o.from()) == file_of(m.from());
    same_rank |= rank_of(o.from()) == rank_of(m.from());
  }
  // PGN: the file if it tells the moves apart, else the rank, else both; a pawn's
  // capture names its file in any case.
  const bool pawn_capture = unit.type() == PAWN && !unit.magic() && capture;
  if (pawn_capture || (ambiguous && (!same_file || same_rank))) s += file_char(m.from());
  if (ambiguous && same_file) s += rank_char(m.from());
  if (capture) s += 'x';
  if (m.kind() == MoveKind::LOCUST_CAPTURE) {
    const Square victim = locust_victim(m);
    s += std::string{file_char(victim), rank_char(victim)} + "-";
  }
  s += std::string{file_char(m.to()), rank_char(m.to())};
  if (m.promotion() != NO_PIECE_TYPE) s += std::string("=") + PieceLetters[m.promotion()];
  return s;
}

// `text` without the marks that may be left out: + # ! ? and, when `loose`, x = -.
std::string stripped(std::string_view text, bool loose) {
  std::string out;
  for (char c : text) {
    if (c == '+' || c == '#' || c == '!' || c == '?') continue;
    if (loose && (c == 'x' || c == '=' || c == '-' || c == ':')) continue;
    out += c;
  }
  return out;
}

// Where the marks that may be left out stand in `text`, when one stands where SAN and long
// algebraic notation never put it (so that "e4x", "xe4", "e2=e4" or "e4+#" are refused
// rather than read as "e4"): an error naming it, else nothing. The check and annotation
// marks end the move (one of + #, then at most two of ! ?); x, : and - stand between
// something and a square; = stands between a promotion rank and the new unit's letter.
std::optional<std::string> misplaced_mark(std::string_view text) {
  std::size_t end = text.size();
  for (int n = 0; n < 2 && end > 0 && (text[end - 1] == '!' || text[end - 1] == '?'); ++n) --end;
  if (end > 0 && (text[end - 1] == '+' || text[end - 1] == '#')) --end;
  const auto is_file = [](char c) { return c >= 'a' && c <= 'h'; };
  const auto is_separator = [](char c) { return c == 'x' || c == ':' || c == '-' || c == '='; };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    // Built on the error paths only. (Piece by piece: GCC 12 warns, wrongly, on a chain of
    // "+" here, -Wrestrict.)
    const auto at = [&] {
      std::string s = "'";
      s += c;
      s += "' at character ";
      s += std::to_string(i + 1);
      return s;
    };
    if ((c == '+' || c == '#' || c == '!' || c == '?') && i < end) return at() + " does not end the move";
    if (c == 'x' || c == ':' || c == '-') {
      if (i == 0 || is_separator(text[i - 1]) || i + 1 >= end || !is_file(text[i + 1]))
        return at() + " does not stand between the unit or its origin and a square";
    }
    if (c == '=') {
      const bool after_rank = i > 0 && (text[i - 1] == '1' || text[i - 1] == '8');
      const bool before_letter = i + 1 < end && std::isalpha(static_cast<unsigned char>(text[i + 1])) &&
                                 (i + 2 == end || (i + 3 == end && text[i + 2] == '*'));
      if (!after_rank || !before_letter) return at() + " does not stand between a promotion square and a unit";
    }
  }
  return std::nullopt;
}

// `text` with a promotion letter typed in lower case ("e8=q", "e8q", and "d8=n*" with the
// magic mark of a magic pawn's new unit) in upper case, as SAN writes it: a letter after
// the target's rank or after '=' can be nothing else.
std::string promotion_in_upper_case(std::string text) {
  const std::size_t n = text.size() - (text.ends_with('*') ? 1 : 0);
  if (n >= 2 && std::islower(static_cast<unsigned char>(text[n - 1])) &&
      (text[n - 2] == '=' || text[n - 2] == '1' || text[n - 2] == '8'))
    text[n - 1] = char(std::toupper(static_cast<unsigned char>(text[n - 1])));
  return text;
}

// The other ways a magic unit's move `san` may be written, read when nothing else
// matches: without the marks ("Rb6" for "R*b6", "d8=N" for "P*d8=N", as x and = may be
// left out), and a magic pawn's promotion with the new unit's mark ("P*d8=N*", "d8=N*":
// a magic pawn promotes to a magic unit). `san` without check marks.
std::vector<std::string> magic_forms(std::string san, Piece unit, Move m) {
  if (!unit.magic()) return {};
  std::string unmarked = san;
  if (unit.type() == PAWN) unmarked.erase(0, 2);  // "P*": an ordinary pawn's move has no letter
  unmarked.erase(std::remove(unmarked.begin(), unmarked.end(), '*'), unmarked.end());
  std::vector<std::string> out{unmarked};
  // (And "d8" without the piece: each promotion a candidate, as for an ordinary pawn.)
  if (m.promotion() != NO_PIECE_TYPE)
    out.insert(out.end(), {san + "*", unmarked + "*", unmarked.substr(0, unmarked.size() - 2)});
  return out;
}

}  // namespace

std::string to_san(const Position& pos, Move m, const RuleSet& rules) {
  MoveList moves;
  generate_legal(pos, rules, moves);
  std::string s = san_body(pos, m, moves);
  Position after = pos;
  UndoRecord undo;
  make_move(after, m, undo, rules);
  if (in_check(after, rules)) {
    MoveList replies;
    generate_legal(after, rules, replies);
    s += replies.empty() ? '#' : '+';
  }
  return s;
}

// `text` with figurines (white or black, U+2654 to U+265F) read as piece letters.
std::string from_figurine(std::string_view text) {
  static const char* const Figurines[] = {"\u2654", "\u2655", "\u2656", "\u2657", "\u2658",
                                          "\u265a", "\u265b", "\u265c", "\u265d", "\u265e"};
  static const char Letters[] = "KQRBNKQRBN";
  std::string out(text);
  for (int i = 0; i < 10; ++i)
    for (std::size_t at; (at = out.find(Figurines[i])) != std::string::npos;) out.replace(at, 3, 1, Letters[i]);
  return out;
}

Expected<Move> parse_san(const Position& pos, std::string_view given, const RuleSet& rules) {
  const std::string ascii = from_figurine(given);
  const std::string_view text = ascii;
  if (const std::optional<std::string> mark = misplaced_mark(text))
    return error(ErrorKind::InvalidArgument,
                 "the move '" + printable_excerpt(given) + "' is not SAN nor long algebraic notation: " + *mark);
  MoveList moves;
  generate_legal(pos, rules, moves);
  const std::string exact = promotion_in_upper_case(stripped(text, false)),
                    loose = promotion_in_upper_case(stripped(text, true));
  std::vector<Move> found, found_loose, found_plain, found_magic;
  // Long algebraic notation writes its squares in lower case; its promotion letter may be
  // typed in either ("E2E4" is refused: "B2C3" could be read as a bishop's move or b2c3).
  std::string uci(text);
  if (uci.size() == 5) uci[4] = char(std::tolower(static_cast<unsigned char>(uci[4])));
  for (Move m : moves) {
    const std::string san = san_body(pos, m, moves);
    // Long algebraic notation, the promotion letter in either case.
    if (to_uci(m) == uci) return m;
    if (san == exact) found.push_back(m);
    // The unit's name with the origin and the target, "Ra1-d1" (read as "Ra1d1"), or with
    // more of the origin than SAN needs, "Rad1" and "R1d1"; or with the target only, "Rd1":
    // a name PGN would have disambiguated, and a promotion without its piece ("e8", "exd8":
    // each promotion is a candidate, and the message lists them). A move is a candidate
    // once however many of the forms it matches ("ed5" matched two, and was ambiguous
    // with itself).
    const std::string square = {file_char(m.to()), rank_char(m.to())};
    const bool promotion = m.promotion() != NO_PIECE_TYPE;
    const std::string target = square + (promotion ? std::string(1, PieceLetters[m.promotion()]) : "");
    const std::string unit = unit_name(pos.piece_on(m.from()));
    const std::vector<std::string> origins = {std::string{file_char(m.from()), rank_char(m.from())},
                                              std::string{file_char(m.from())}, std::string{rank_char(m.from())}};
    // Named by `name` with part of the origin and the whole target ("Rad1").
    // A locust's capture also with its victim between the origin and the target ("Ld4xe5-f6").
    const std::string victim = m.kind() == MoveKind::LOCUST_CAPTURE
                                   ? std::string{file_char(locust_victim(m)), rank_char(locust_victim(m))}
                                   : "";
    const auto with_origin = [&](const std::string& name) {
      return std::any_of(origins.begin(), origins.end(), [&](const std::string& origin) {
        return loose == name + origin + target || (!victim.empty() && loose == name + origin + victim + target);
      });
    };
    // Named by `name` with the target only, or a promotion without its piece.
    const auto plain = [&](const std::string& name) {
      return loose == name + target || (promotion && loose == name + square) ||
             (promotion && std::any_of(origins.begin(), origins.end(),
                                       [&](const std::string& origin) { return loose == name + origin + square; }));
    };
    if (stripped(san, true) == loose || with_origin(unit)) found_loose.push_back(m);
    if (plain(unit)) found_plain.push_back(m);
    // A magic unit named without its mark, in SAN or with its origin ("Rb2b6" for "R*b2b6").
    const Piece mover = pos.piece_on(m.from());
    const std::vector<std::string> forms = magic_forms(san, mover, m);
    const std::string unmarked = mover.type() == PAWN ? "" : std::string(1, PieceLetters[mover.type()]);
    if (std::any_of(forms.begin(), forms.end(), [&](const std::string& f) { return stripped(f, true) == loose; }) ||
        (mover.magic() && (with_origin(unmarked) || plain(unmarked))))
      found_magic.push_back(m);
  }
  if (found.size() == 1) return found.front();
  if (found.empty() && found_loose.size() == 1) return found_loose.front();
  if (found.empty() && found_loose.empty() && found_plain.size() == 1) return found_plain.front();
  const bool none = found.empty() && found_loose.empty() && found_plain.empty();
  if (none && found_magic.size() == 1) return found_magic.front();
  const std::vector<Move>& candidates = !found.empty()         ? found
                                        : !found_loose.empty() ? found_loose
                                        : !found_plain.empty() ? found_plain
                                                               : found_magic;
  if (candidates.empty()) {
    std::string legal;
    for (Move m : moves) {
      if (!legal.empty()) legal += ' ';
      legal += san_body(pos, m, moves);
    }
    return error(ErrorKind::InvalidArgument,
                 "no legal move '" + printable_excerpt(given) + "' (legal: " + (legal.empty() ? "none" : legal) + ")");
  }
  std::string names;  // in SAN, as the move was written
  for (Move m : candidates) {
    if (!names.empty()) names += ", ";
    names += san_body(pos, m, moves);
  }
  return error(ErrorKind::InvalidArgument, "the move '" + printable_excerpt(given) + "' is ambiguous (" + names + ")");
}

std::vector<std::string> san_moves(const Position& pos, const std::vector<Move>& line, const RuleSet& rules) {
  std::vector<std::string> out;
  Position at = pos;
  for (Move m : line) {
    out.push_back(to_san(at, m, rules));
    UndoRecord undo;
    make_move(at, m, undo, rules);
  }
  return out;
}

std::string san_line(const Position& pos, const std::vector<Move>& line, const RuleSet& rules) {
  const std::vector<std::string> names = san_moves(pos, line, rules);
  std::string out;
  Color mover = pos.side_to_move();
  int number = 1;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (mover == WHITE) {
      // Appended piece by piece: GCC 12 warns (-Wrestrict, wrongly) on "const char*" + string.
      if (i) out += ' ';
      out += std::to_string(number);
      out += '.';
      out += names[i];
    } else {
      out += i ? " " + names[i] : std::to_string(number) + "..." + names[i];
      ++number;
    }
    mover = ~mover;
  }
  return out;
}

std::string to_figurine(std::string_view san) {
  std::string out;
  for (char c : san) {
    switch (c) {
      case 'K':
        out += "\u2654";
        break;
      case 'Q':
        out += "\u2655";
        break;
      case 'R':
        out += "\u2656";
        break;
      case 'B':
        out += "\u2657";
        break;
      case 'N':
        out += "\u2658";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace feerie

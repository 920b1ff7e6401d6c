// SVG diagrams (study/diagram.h). All drawing happens in one coordinate system (the
// viewBox): a square is 100 units, the board starts at (BoardX, BoardY), the margins hold
// the coordinates, the side-to-move marker and the caption. Each piece is drawn in the
// 100 x 100 box of its square and moved there with a translate().
#include "study/diagram.h"

#include <fmt/format.h>

#include <string_view>

#include "rules/fen.h"
#include "rules/move.h"

namespace feerie::diagram {

namespace {

constexpr int Unit = 100;   // the side of a square
constexpr int BoardX = 50;  // left margin: rank numbers
constexpr int BoardY = 20;  // top margin
constexpr int BoardSide = 8 * Unit;
constexpr int Width = BoardX + BoardSide + 70;    // right margin: the side-to-move marker
constexpr int Height = BoardY + BoardSide + 100;  // bottom: file letters, then the caption

constexpr const char* LightColor = "#f0d9b5";
constexpr const char* DarkColor = "#b58863";

std::string escape_xml(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// The colours of one unit: its body, and the lines drawn on the body (which must stand
// out against it).
struct Ink {
  const char* body;
  const char* detail;
};

// Outline attributes shared by every shape of a piece.
std::string outline(const Ink& ink) {
  return fmt::format(R"(fill="{}" stroke="#000" stroke-width="3" stroke-linejoin="round")", ink.body);
}
std::string detail(const Ink& ink) {
  return fmt::format(R"(fill="none" stroke="{}" stroke-width="3" stroke-linecap="round")", ink.detail);
}

std::string draw_pawn(const Ink& ink) {
  std::string o = outline(ink);
  return fmt::format(R"(<path d="M40 42 L60 42 Q57 58 66 76 L34 76 Q43 58 40 42 Z" {0}/>)"
                     R"(<circle cx="50" cy="31" r="13" {0}/>)"
                     R"(<rect x="26" y="76" width="48" height="10" rx="3" {0}/>)",
                     o);
}

std::string draw_rook(const Ink& ink) {
  std::string o = outline(ink);
  return fmt::format(
      R"(<path d="M32 76 L35 42 L65 42 L68 76 Z" {0}/>)"
      R"(<path d="M27 42 L27 20 L38 20 L38 29 L45 29 L45 20 L55 20 L55 29 L62 29 L62 20 L73 20 L73 42 Z" {0}/>)"
      R"(<rect x="24" y="76" width="52" height="10" rx="3" {0}/>)"
      R"(<path d="M35 48 L65 48 M33 70 L67 70" {1}/>)",
      o, detail(ink));
}

std::string draw_bishop(const Ink& ink) {
  std::string o = outline(ink);
  return fmt::format(R"(<path d="M50 22 C28 40 30 60 38 71 L62 71 C70 60 72 40 50 22 Z" {0}/>)"
                     R"(<circle cx="50" cy="16" r="6" {0}/>)"
                     R"(<rect x="35" y="70" width="30" height="8" rx="2" {0}/>)"
                     R"(<rect x="27" y="78" width="46" height="9" rx="3" {0}/>)"
                     R"(<path d="M50 36 L50 58 M41 47 L59 47" {1}/>)",
                     o, detail(ink));
}

std::string draw_knight(const Ink& ink) {
  std::string o = outline(ink);
  // A horse's head looking left: mane and neck on the right, ears at the top, the muzzle
  // at the left, the chest curving back down to the base.
  return fmt::format(R"(<path d="M30 86 L74 86 C76 64 72 44 63 31 C58 23 51 19 45 19 L42 10 L36 21 )"
                     R"(C29 27 23 38 19 50 C18 57 25 60 30 56 C35 52 41 51 47 47 C43 60 32 68 30 86 Z" {0}/>)"
                     R"(<circle cx="39" cy="32" r="3" fill="{2}"/>)"
                     R"(<path d="M60 30 C67 42 70 60 69 80" {1}/>)",
                     o, detail(ink), ink.detail);
}

std::string draw_queen(const Ink& ink) {
  std::string o = outline(ink);
  std::string out =
      fmt::format(R"(<path d="M28 78 L17 34 L31 56 L34 25 L43 54 L50 21 L57 54 L66 25 L69 56 L83 34 L72 78 Z" {0}/>)"
                  R"(<rect x="26" y="78" width="48" height="9" rx="3" {0}/>)"
                  R"(<path d="M30 70 L70 70" {1}/>)",
                  o, detail(ink));
  for (auto [x, y] : {std::pair{17, 30}, {34, 21}, {50, 17}, {66, 21}, {83, 30}})
    out += fmt::format(R"(<circle cx="{}" cy="{}" r="5" {}/>)", x, y, o);
  return out;
}

std::string draw_king(const Ink& ink) {
  std::string o = outline(ink);
  return fmt::format(
      R"(<path d="M46 12 L54 12 L54 21 L62 21 L62 29 L54 29 L54 48 L46 48 L46 29 L38 29 L38 21 L46 21 Z" {0}/>)"
      R"(<path d="M30 78 C17 63 17 44 34 42 C42 41 48 47 50 54 C52 47 58 41 66 42 C83 44 83 63 70 78 Z" {0}/>)"
      R"(<rect x="26" y="78" width="48" height="9" rx="3" {0}/>)"
      R"(<path d="M32 70 L68 70" {1}/>)",
      o, detail(ink));
}

// Problemists draw the grasshopper as a queen turned upside down.
std::string draw_grasshopper(const Ink& ink) {
  return fmt::format(R"~(<g transform="rotate(180 50 50)">{}</g>)~", draw_queen(ink));
}

// The locust as an insect: head with antennae at the left, a long body, a strong hind leg.
std::string draw_locust(const Ink& ink) {
  std::string o = outline(ink);
  std::string legs = R"(fill="none" stroke="#000" stroke-width="4" stroke-linecap="round" stroke-linejoin="round")";
  return fmt::format(R"(<path d="M22 42 L12 18 M28 40 L34 16 M40 64 L32 84 M52 68 L50 86 M60 52 L80 28 L88 76" {1}/>)"
                     R"(<ellipse cx="55" cy="58" rx="29" ry="13" {0}/>)"
                     R"(<circle cx="25" cy="51" r="11" {0}/>)"
                     R"(<path d="M42 54 L80 58" {2}/>)"
                     R"(<circle cx="22" cy="48" r="2.5" fill="{3}"/>)",
                     o, legs, detail(ink), ink.detail);
}

std::string draw_piece_shapes(PieceType type, const Ink& ink) {
  switch (type) {
    case PAWN:
      return draw_pawn(ink);
    case KNIGHT:
      return draw_knight(ink);
    case BISHOP:
      return draw_bishop(ink);
    case ROOK:
      return draw_rook(ink);
    case QUEEN:
      return draw_queen(ink);
    case KING:
      return draw_king(ink);
    case GRASSHOPPER:
      return draw_grasshopper(ink);
    case LOCUST:
      return draw_locust(ink);
    default:
      return {};
  }
}

// A five-pointed star in the top right corner of the square: the mark of a magic unit.
std::string magic_mark() {
  return R"(<polygon class="magic-mark" points="83,3 86.5,12.1 96.3,12.7 88.7,18.9 91.2,28.3 83,23 )"
         R"(74.8,28.3 77.3,18.9 69.7,12.7 79.5,12.1" fill="#e0b000" stroke="#000" stroke-width="1.5"/>)";
}

const char* type_name(PieceType type) {
  switch (type) {
    case PAWN:
      return "pawn";
    case KNIGHT:
      return "knight";
    case BISHOP:
      return "bishop";
    case ROOK:
      return "rook";
    case QUEEN:
      return "queen";
    case KING:
      return "king";
    case GRASSHOPPER:
      return "grasshopper";
    case LOCUST:
      return "locust";
    default:
      return "unit";
  }
}

std::string draw_piece(Piece p, Square s) {
  static constexpr Ink White{"#fff", "#000"};
  static constexpr Ink Black{"#000", "#fff"};
  const Ink& ink = p.color() == WHITE ? White : Black;
  std::string name = square_name(s);
  std::string title = fmt::format("{} {}{} on {}", p.color() == WHITE ? "white" : "black", p.magic() ? "magic " : "",
                                  type_name(p.type()), name);
  return fmt::format(
      R"~(<g class="piece" data-piece="{}{}" data-square="{}" data-magic="{}" transform="translate({} {})"><title>{}</title>{}{}</g>)~",
      p.color() == WHITE ? 'w' : 'b', PieceLetters[p.type()], name, p.magic() ? "true" : "false",
      BoardX + file_of(s) * Unit, BoardY + (7 - rank_of(s)) * Unit, title, draw_piece_shapes(p.type(), ink),
      p.magic() ? magic_mark() : "");
}

std::string draw_board() {
  std::string out;
  for (int rank = 7; rank >= 0; --rank)
    for (int file = 0; file < 8; ++file) {
      bool light = (file + rank) % 2 == 1;  // a1 is dark
      out += fmt::format(R"(<rect class="square {}" data-square="{}" x="{}" y="{}" width="{}" height="{}" fill="{}"/>)",
                         light ? "light" : "dark", square_name(make_square(file, rank)), BoardX + file * Unit,
                         BoardY + (7 - rank) * Unit, Unit, Unit, light ? LightColor : DarkColor);
    }
  out += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#000" stroke-width="3"/>)",
                     BoardX, BoardY, BoardSide, BoardSide);
  return out;
}

std::string draw_coordinates() {
  std::string out;
  const char* text = R"(font-family="sans-serif" font-size="34" fill="#000" text-anchor="middle")";
  for (int i = 0; i < 8; ++i) {
    out += fmt::format(R"(<text class="coordinate" x="{}" y="{}" {}>{}</text>)", BoardX + i * Unit + Unit / 2,
                       BoardY + BoardSide + 38, text, char('a' + i));
    out += fmt::format(R"(<text class="coordinate" x="{}" y="{}" {}>{}</text>)", BoardX / 2,
                       BoardY + (7 - i) * Unit + Unit / 2 + 12, text, char('1' + i));
  }
  return out;
}

// A disc of the side to move's colour beside its own first rank, and the caption.
std::string draw_side_to_move(const Position& pos, const DiagramOptions& options) {
  bool white = pos.side_to_move() == WHITE;
  int y = white ? BoardY + BoardSide - Unit / 2 : BoardY + Unit / 2;
  std::string caption = fmt::format("{} to move ({}+{})", white ? "White" : "Black", popcount(pos.pieces(WHITE)),
                                    popcount(pos.pieces(BLACK)));
  if (!options.stipulation.empty()) caption += fmt::format(" \u00b7 {}", options.stipulation);
  if (!options.condition.empty()) caption += fmt::format(" \u00b7 {}", options.condition);
  return fmt::format(
      R"(<circle class="side-to-move" data-side="{}" cx="{}" cy="{}" r="20" fill="{}" stroke="#000" stroke-width="3"/>)"
      R"(<text class="caption" x="{}" y="{}" font-family="sans-serif" font-size="36" fill="#000" text-anchor="middle">{}</text>)",
      white ? "white" : "black", BoardX + BoardSide + 35, y, white ? "#fff" : "#000", BoardX + BoardSide / 2,
      BoardY + BoardSide + 88, escape_xml(caption));
}

}  // namespace

std::string diagram_svg(const Position& pos, const DiagramOptions& options) {
  int width = options.size;
  int height = int(double(options.size) * Height / Width + 0.5);
  std::string out = fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" class="feerie-diagram" width="{}" height="{}" viewBox="0 0 {} {}" )"
      R"(data-fen="{}" role="img">)",
      width, height, Width, Height, escape_xml(to_fen(pos)));
  out += fmt::format("\n<title>{}</title>\n", escape_xml(to_fen(pos)));
  out += fmt::format(R"(<rect x="0" y="0" width="{}" height="{}" fill="#fff"/>)", Width, Height);
  out += fmt::format("\n{}\n{}\n", draw_board(), draw_coordinates());
  for (int s = 0; s < SQUARE_NB; ++s)
    if (!pos.empty(Square(s))) out += draw_piece(pos.piece_on(Square(s)), Square(s)) + "\n";
  out += draw_side_to_move(pos, options) + "\n</svg>\n";
  return out;
}

}  // namespace feerie::diagram

// The small vocabulary of the chess rules: colours, piece types, squares and the helpers
// that combine them. Everything else in Feerie builds on this header.
#pragma once

#include <cstdint>

namespace feerie {

using Bitboard = std::uint64_t;

enum Color : std::uint8_t { WHITE, BLACK, COLOR_NB = 2 };

constexpr Color operator~(Color c) { return Color(c ^ 1); }

// Piece types, orthodox first, then the fairy walks of the seed texts. The order is also
// the value order used by magic mutation (SPEC 3.5: P < N < B < R < Q).
enum PieceType : std::uint8_t {
  NO_PIECE_TYPE,
  PAWN,
  KNIGHT,
  BISHOP,
  ROOK,
  QUEEN,
  KING,
  GRASSHOPPER,
  LOCUST,
  PIECE_TYPE_NB
};

// A unit on the board: its colour, its type and whether it is magic (SPEC 3.5).
// Layout of `code`: bits 0-3 type, bit 4 colour, bit 5 magic. Code 0 is "no piece".
class Piece {
 public:
  constexpr Piece() = default;
  constexpr Piece(Color c, PieceType pt, bool magic = false) : code_(std::uint8_t(pt | (c << 4) | (magic << 5))) {}

  static constexpr Piece from_code(std::uint8_t code) {
    Piece p;
    p.code_ = code;
    return p;
  }

  constexpr PieceType type() const { return PieceType(code_ & 15); }
  constexpr Color color() const { return Color((code_ >> 4) & 1); }
  constexpr bool magic() const { return (code_ >> 5) & 1; }
  constexpr bool empty() const { return code_ == 0; }
  constexpr std::uint8_t code() const { return code_; }
  constexpr bool operator==(const Piece&) const = default;

 private:
  std::uint8_t code_ = 0;
};

constexpr Piece NO_PIECE{};

// Squares a1 = 0, b1 = 1, ..., h8 = 63.
enum Square : std::uint8_t {
  // clang-format off
  SQ_A1, SQ_B1, SQ_C1, SQ_D1, SQ_E1, SQ_F1, SQ_G1, SQ_H1,
  SQ_A2, SQ_B2, SQ_C2, SQ_D2, SQ_E2, SQ_F2, SQ_G2, SQ_H2,
  SQ_A3, SQ_B3, SQ_C3, SQ_D3, SQ_E3, SQ_F3, SQ_G3, SQ_H3,
  SQ_A4, SQ_B4, SQ_C4, SQ_D4, SQ_E4, SQ_F4, SQ_G4, SQ_H4,
  SQ_A5, SQ_B5, SQ_C5, SQ_D5, SQ_E5, SQ_F5, SQ_G5, SQ_H5,
  SQ_A6, SQ_B6, SQ_C6, SQ_D6, SQ_E6, SQ_F6, SQ_G6, SQ_H6,
  SQ_A7, SQ_B7, SQ_C7, SQ_D7, SQ_E7, SQ_F7, SQ_G7, SQ_H7,
  SQ_A8, SQ_B8, SQ_C8, SQ_D8, SQ_E8, SQ_F8, SQ_G8, SQ_H8,
  // clang-format on
  SQUARE_NB = 64,
  SQ_NONE = 64
};

constexpr int file_of(Square s) { return s & 7; }
constexpr int rank_of(Square s) { return s >> 3; }
constexpr Square make_square(int file, int rank) { return Square(rank * 8 + file); }
constexpr bool on_board(int file, int rank) { return file >= 0 && file < 8 && rank >= 0 && rank < 8; }
constexpr Bitboard square_bb(Square s) { return Bitboard(1) << s; }

// Rank as seen by `c`: 0 is its own first rank, 7 its last.
constexpr int relative_rank(Color c, Square s) { return c == WHITE ? rank_of(s) : 7 - rank_of(s); }
// One step forward for a pawn of colour `c`.
constexpr int pawn_push(Color c) { return c == WHITE ? 8 : -8; }

// The a<->h mirror, the vertical flip and the a1-h8 diagonal reflection.
constexpr Square mirror_file(Square s) { return Square(s ^ 7); }
constexpr Square flip_rank(Square s) { return Square(s ^ 56); }
constexpr Square flip_diagonal(Square s) { return Square(((s >> 3) | (s << 3)) & 63); }

// Letters of the piece types in FEN and material names (upper case; index = PieceType).
inline constexpr char PieceLetters[PIECE_TYPE_NB + 1] = " PNBRQKGL";

// The piece type of a letter in either case, or NO_PIECE_TYPE.
constexpr PieceType piece_type_from_letter(char c) {
  char upper = c >= 'a' && c <= 'z' ? char(c - 'a' + 'A') : c;
  for (int pt = PAWN; pt < PIECE_TYPE_NB; ++pt)
    if (PieceLetters[pt] == upper) return PieceType(pt);
  return NO_PIECE_TYPE;
}

}  // namespace feerie

#include "probe/material.h"

#include <cctype>

#include "rules/text.h"

namespace feerie {

namespace {

Error material_error(std::string_view name, const std::string& what) {
  return error(ErrorKind::InvalidArgument, "bad material '" + printable_excerpt(name) + "': " + what);
}

}  // namespace

Expected<Material> Material::parse(std::string_view name) {
  Material m;
  std::size_t v = name.find_first_of("vV");
  if (v == std::string_view::npos || name.find_first_of("vV", v + 1) != std::string_view::npos)
    return material_error(name, "expected one 'v' between the white and the black units, as in KQvKR");
  Color side = WHITE;
  bool magic_next = false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    std::string where = " at character " + std::to_string(i + 1);
    if (i == v) {
      if (magic_next) return material_error(name, "'m' not followed by a piece letter" + where);
      side = BLACK;
      continue;
    }
    if ((c == 'm' || c == 'M') && !magic_next) {  // either case, as the units' letters
      magic_next = true;
      continue;
    }
    PieceType pt = piece_type_from_letter(c);
    if (pt == NO_PIECE_TYPE)
      return material_error(name, "unknown piece letter '" + printable_character_at(name, i) + "'" + where);
    if (magic_next && pt == KING) return material_error(name, "a king cannot be magic" + where);
    if (m.counts_[magic_next][side][pt] >= 8) return material_error(name, "too many units of one kind" + where);
    ++m.counts_[magic_next][side][pt];
    magic_next = false;
  }
  if (magic_next) return material_error(name, "'m' not followed by a piece letter at the end");
  for (Color c : {WHITE, BLACK})
    if (m.count(c, KING) != 1)
      return material_error(name, std::string("each side needs exactly one king, ") + (c == WHITE ? "White" : "Black") +
                                      " has " + std::to_string(m.count(c, KING)));
  if (m.total() > 32) return material_error(name, "more than 32 units");
  return m;
}

Material Material::of(const Position& pos) {
  Material m;
  for (Bitboard b = pos.pieces(); b;) {
    Piece p = pos.piece_on(pop_lsb(b));
    ++m.counts_[p.magic()][p.color()][p.type()];
  }
  return m;
}

std::string Material::name() const {
  std::string s;
  for (Color c : {WHITE, BLACK}) {
    if (c == BLACK) s += 'v';
    for (int magic = 0; magic < 2; ++magic)
      for (PieceType pt : NameOrder)
        for (int i = 0; i < counts_[magic][c][pt]; ++i) {
          if (magic) s += 'm';
          s += PieceLetters[pt];
        }
  }
  return s;
}

int Material::total(Color c) const {
  int n = 0;
  for (int magic = 0; magic < 2; ++magic)
    for (int pt = PAWN; pt < PIECE_TYPE_NB; ++pt) n += counts_[magic][c][pt];
  return n;
}

int Material::total() const { return total(WHITE) + total(BLACK); }

bool Material::has(PieceType pt) const {
  for (int magic = 0; magic < 2; ++magic)
    for (Color c : {WHITE, BLACK})
      if (counts_[magic][c][pt]) return true;
  return false;
}

bool Material::has_magic(Color c) const {
  for (int pt = PAWN; pt < PIECE_TYPE_NB; ++pt)
    if (counts_[1][c][pt]) return true;
  return false;
}

std::string material_names(const std::vector<Material>& materials) {
  std::string s;
  for (const Material& m : materials) {
    if (!s.empty()) s += ", ";
    s += m.name();
  }
  return s;
}

Material Material::colors_swapped() const {
  Material m;
  for (int magic = 0; magic < 2; ++magic) {
    m.counts_[magic][WHITE] = counts_[magic][BLACK];
    m.counts_[magic][BLACK] = counts_[magic][WHITE];
  }
  return m;
}

}  // namespace feerie

namespace feerie {

bool Material::is_canonical_orientation() const {
  auto key = [&](Color c) {
    std::array<int, 1 + 2 * 7> k{};
    int i = 0;
    k[i++] = total(c);
    for (int magic = 0; magic < 2; ++magic)
      for (PieceType pt : NameOrder)
        if (pt != KING) k[i++] = counts_[magic][c][pt];
    return k;
  };
  return key(WHITE) >= key(BLACK);
}

}  // namespace feerie

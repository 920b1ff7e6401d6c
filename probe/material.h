// Material signatures (SPEC 2): which units each side has, named "KQvKR" with White
// first. Within a side the canonical order is K Q R B N G L P, then the magic units,
// each prefixed by `m` (KmRvKN). Parsing accepts any order.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "rules/expected.h"
#include "rules/position.h"

namespace feerie {

class Material {
 public:
  // Accepts "KQvKR", "kqvkr", "KRQvK" (any order within a side), "KmRvKN"; each side
  // needs exactly one king. Errors name the offending character.
  static Expected<Material> parse(std::string_view name);
  static Material of(const Position& pos);

  std::string name() const;
  int count(Color c, PieceType pt, bool magic = false) const { return counts_[magic][c][pt]; }
  void set_count(Color c, PieceType pt, bool magic, int n) { counts_[magic][c][pt] = std::uint8_t(n); }
  int total() const;
  int total(Color c) const;
  bool has(PieceType pt) const;  // either colour, ordinary or magic
  bool has_magic() const { return has_magic(WHITE) || has_magic(BLACK); }
  bool has_magic(Color c) const;
  // The same units with the colours exchanged (KRvKQ for KQvKR).
  Material colors_swapped() const;
  // Tables are stored for one orientation of each material: White's units weigh at least
  // as much as Black's (more units, then more of Q, R, B, N, G, L, P, then magic units).
  // Positions of the other orientation are probed with colours exchanged (KvKQ -> KQvK).
  bool is_canonical_orientation() const;
  Material canonical_orientation() const { return is_canonical_orientation() ? *this : colors_swapped(); }

  bool operator==(const Material&) const = default;
  bool operator<(const Material& o) const { return counts_ < o.counts_; }

 private:
  // counts_[magic][colour][type]
  std::array<std::array<std::array<std::uint8_t, PIECE_TYPE_NB>, COLOR_NB>, 2> counts_{};
};

// "KQvK, KRvK": names joined for messages and progress lines.
std::string material_names(const std::vector<Material>& materials);

// A position as its table stores it: the material in its stored orientation, and the
// position to index (`pos` itself, or its colour-flipped image, kept in `scratch`).
// `flipped` says which: the colours of whatever the position is asked about (a side, a
// colour to be mated) are exchanged with it.
struct StoredOrientation {
  Material material;
  const Position* position;
  bool flipped;
};
inline StoredOrientation stored_orientation(const Position& pos, Position& scratch) {
  const Material material = Material::of(pos);
  if (material.is_canonical_orientation()) return {material, &pos, false};
  scratch = color_flipped(pos);
  return {material.colors_swapped(), &scratch, true};
}

// The canonical order of piece types within a side in names.
inline constexpr PieceType NameOrder[] = {KING, QUEEN, ROOK, BISHOP, KNIGHT, GRASSHOPPER, LOCUST, PAWN};

}  // namespace feerie

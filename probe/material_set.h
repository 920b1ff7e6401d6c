// Sets of materials (`feerie gen --set`, issue 23): every material of a number of men, or
// every material a pattern names, in which `?` stands for any one unit of Q R B N P.
//
//   "5"        every material of 5 men (kings included): KQQQvK ... KPvKPP
//   "3-5"      every material of 3, 4 or 5 men
//   "K?PvK?"   KQPvKQ, KQPvKR, ..., KPPvKP (each `?` one of Q R B N P)
//
// Each material once, in its stored orientation (KRvKQ is KQvKR), sorted by the number of
// men, then by name. Fairy units (G, L) and magic ones are named in a pattern, never
// stood for by `?` or a number.
#pragma once

#include <string_view>
#include <vector>

#include "probe/material.h"
#include "rules/expected.h"

namespace feerie {

enum class PawnFilter {
  Any,
  WithPawns,     // at least one pawn (of either colour)
  WithoutPawns,  // no pawn
};

// The largest number of men a set may name: 8 men are far beyond one machine, and the
// number of materials grows fast.
inline constexpr int MaxSetMen = 7;

// Errors (InvalidArgument): a malformed number or range, a range outside 2..MaxSetMen, a
// pattern that is no material once its `?` are replaced (the error of Material::parse).
Expected<std::vector<Material>> material_set(std::string_view spec, PawnFilter pawns = PawnFilter::Any);

}  // namespace feerie

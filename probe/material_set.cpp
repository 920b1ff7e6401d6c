#include "probe/material_set.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <utility>

namespace feerie {

namespace {

// The units a `?` or a number of men stands for: the orthodox ones.
constexpr PieceType Stand[] = {QUEEN, ROOK, BISHOP, KNIGHT, PAWN};

bool is_number(std::string_view s) {
  return !s.empty() && s.size() <= 2 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// "5" or "3-5" as a range of men; nothing when `spec` is no number or range.
std::optional<std::pair<int, int>> men_range(std::string_view spec) {
  const std::size_t dash = spec.find('-');
  const std::string_view low = spec.substr(0, dash),
                         high = dash == std::string_view::npos ? low : spec.substr(dash + 1);
  if (!is_number(low) || !is_number(high)) return std::nullopt;
  return std::pair{std::stoi(std::string(low)), std::stoi(std::string(high))};
}

// Every multiset of `count` units of Stand, from index `from` on, added to side `c`.
void add_units(Material& m, Color c, int count, int from, const std::function<void(Material&)>& done) {
  if (count == 0) {
    done(m);
    return;
  }
  for (int k = from; k < int(std::size(Stand)); ++k) {
    m.set_count(c, Stand[k], false, m.count(c, Stand[k]) + 1);
    add_units(m, c, count - 1, k, done);
    m.set_count(c, Stand[k], false, m.count(c, Stand[k]) - 1);
  }
}

// Every material of exactly `men` men.
void materials_of(int men, std::set<std::string>& names, std::vector<Material>& out) {
  for (int white = 0; white <= men - 2; ++white) {
    Material m;
    m.set_count(WHITE, KING, false, 1);
    m.set_count(BLACK, KING, false, 1);
    add_units(m, WHITE, white, 0, [&](Material& w) {
      add_units(w, BLACK, men - 2 - white, 0, [&](Material& both) {
        const Material stored = both.canonical_orientation();
        if (names.insert(stored.name()).second) out.push_back(stored);
      });
    });
  }
}

// Every material `pattern` names with its `?` replaced, from position `at` on.
Status expand(std::string& pattern, std::size_t at, std::set<std::string>& names, std::vector<Material>& out) {
  const std::size_t q = pattern.find('?', at);
  if (q == std::string::npos) {
    Expected<Material> m = Material::parse(pattern);
    if (!m) return m.error();
    const Material stored = m->canonical_orientation();
    if (names.insert(stored.name()).second) out.push_back(stored);
    return Ok{};
  }
  for (PieceType pt : Stand) {
    pattern[q] = PieceLetters[pt];
    if (Status s = expand(pattern, q + 1, names, out); !s) return s;
  }
  pattern[q] = '?';
  return Ok{};
}

}  // namespace

Expected<std::vector<Material>> material_set(std::string_view spec, PawnFilter pawns) {
  std::vector<Material> out;
  std::set<std::string> names;
  if (std::optional<std::pair<int, int>> range = men_range(spec)) {
    const auto [low, high] = *range;
    if (low < 2 || high > MaxSetMen || low > high)
      return error(ErrorKind::InvalidArgument, "bad set '" + std::string(spec) +
                                                   "': expected N or M-N men with 2 <= M <= N <= " +
                                                   std::to_string(MaxSetMen) + " (kings included)");
    for (int men = low; men <= high; ++men) materials_of(men, names, out);
  } else {
    if (std::count(spec.begin(), spec.end(), '?') > MaxSetMen)
      return error(ErrorKind::InvalidArgument, "bad set '" + std::string(spec) + "': too many '?'");
    std::string pattern(spec);
    if (Status s = expand(pattern, 0, names, out); !s)
      return with_context("bad set '" + std::string(spec) + "': ", s.error());
  }
  std::erase_if(out, [&](const Material& m) {
    return (pawns == PawnFilter::WithPawns && !m.has(PAWN)) || (pawns == PawnFilter::WithoutPawns && m.has(PAWN));
  });
  std::sort(out.begin(), out.end(), [](const Material& a, const Material& b) {
    return a.total() != b.total() ? a.total() < b.total() : a.name() < b.name();
  });
  return out;
}

}  // namespace feerie

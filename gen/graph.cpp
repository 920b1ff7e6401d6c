#include "gen/graph.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "rules/capture.h"
#include "rules/magic.h"

namespace feerie {

namespace {

// The fairy walk that ends the mutation chain (rules/magic.h), from the units.
PieceType chain_end(const Material& m) {
  return feerie::chain_end(m.count(WHITE, GRASSHOPPER, true) || m.count(BLACK, GRASSHOPPER, true),
                           m.count(WHITE, LOCUST, true) || m.count(BLACK, LOCUST, true));
}

// `m` with one unit of colour c, magic flag `magic`, changed from type `from` to `to`.
Material changed(Material m, Color c, bool magic, PieceType from, PieceType to) {
  m.set_count(c, from, magic, m.count(c, from, magic) - 1);
  m.set_count(c, to, magic, m.count(c, to, magic) + 1);
  return m;
}

// `m` without one ordinary unit of colour c and type t.
Material captured(Material m, Color c, PieceType t) {
  m.set_count(c, t, false, m.count(c, t, false) - 1);
  return m;
}

// Every material reached from `base` when the magic unit that just moved touches some of
// the ordinary units: any number of each group, own units one step up, enemy units one
// step down (at most the 8 squares around it).
void add_touched_variants(const Material& base, Color mover, int group, int touched, std::vector<Material>& out) {
  // Groups in a fixed order: (colour, type) over the ordinary non-king units.
  static constexpr PieceType Types[] = {PAWN, KNIGHT, BISHOP, ROOK, QUEEN, GRASSHOPPER, LOCUST};
  if (group == 2 * 7) {
    out.push_back(base);
    return;
  }
  Color c = Color(group / 7);
  PieceType t = Types[group % 7];
  PieceType to = mutated_type(t, c == mover ? MutationDirection::UP : MutationDirection::DOWN, chain_end(base));
  Material m = base;
  for (int k = 0; k <= base.count(c, t, false) && touched + k <= 8; ++k) {
    add_touched_variants(m, mover, group + 1, touched + k, out);
    if (to == t) break;
    m = changed(m, c, false, t, to);
  }
}

}  // namespace

std::vector<Material> material_successors(const Material& m, const RuleSet&) {
  std::set<Material> out;
  auto add = [&](Material s) {
    // Groups of more than 8 identical units are beyond the indexer (and any real use).
    for (Color c : {WHITE, BLACK})
      for (int magic = 0; magic < 2; ++magic)
        for (int pt = PAWN; pt < PIECE_TYPE_NB; ++pt)
          if (s.count(c, PieceType(pt), magic) > 8) return;
    s = s.canonical_orientation();
    if (!(s == m.canonical_orientation())) out.insert(s);
  };
  const PromotionTypes promotions = promotion_types(m.has(GRASSHOPPER), m.has(LOCUST));
  for (Color mover : {WHITE, BLACK}) {
    // An ordinary unit or a king moves, with or without capturing one ordinary enemy unit
    // (magic units are never captured).
    std::vector<Material> bases{m};
    for (int pt = PAWN; pt < PIECE_TYPE_NB; ++pt)
      if (pt != KING && m.count(~mover, PieceType(pt), false)) bases.push_back(captured(m, ~mover, PieceType(pt)));
    for (const Material& base : bases) {
      add(base);
      for (int pt = PAWN; pt < PIECE_TYPE_NB; ++pt) {
        PieceType t = PieceType(pt);
        if (t == KING || !m.count(mover, t, false)) continue;
        // It may promote, then it may mutate: up when it meets own magic units, down when
        // it meets enemy ones (SPEC 3.5).
        std::vector<PieceType> arrivals{t};
        if (t == PAWN) arrivals.insert(arrivals.end(), promotions.begin(), promotions.end());
        for (PieceType a : arrivals) {
          Material promoted = changed(base, mover, false, t, a);
          add(promoted);
          for (MutationDirection d : {MutationDirection::UP, MutationDirection::DOWN})
            if (m.has_magic(d == MutationDirection::UP ? mover : ~mover))
              add(changed(promoted, mover, false, a, mutated_type(a, d, chain_end(promoted))));
        }
      }
    }
    // A magic unit moves (never capturing), a magic pawn perhaps promoting, and mutates
    // the ordinary units it touches.
    for (int pt = PAWN; pt < PIECE_TYPE_NB; ++pt) {
      PieceType t = PieceType(pt);
      if (!m.count(mover, t, true)) continue;
      std::vector<PieceType> arrivals{t};
      if (t == PAWN) arrivals.insert(arrivals.end(), promotions.begin(), promotions.end());
      for (PieceType a : arrivals) {
        std::vector<Material> touched;
        add_touched_variants(changed(m, mover, true, t, a), mover, 0, 0, touched);
        for (const Material& s : touched) add(s);
      }
    }
  }
  return {out.begin(), out.end()};
}

std::vector<std::vector<Material>> solving_order(const std::vector<Material>& targets, const RuleSet& rules) {
  // Tarjan's algorithm emits components in reverse topological order of the edges
  // M -> successor, which is exactly the solving order (successors first).
  std::map<Material, int> index, low;
  std::set<Material> on_stack;
  std::vector<Material> stack;
  std::vector<std::vector<Material>> components;
  int counter = 0;
  std::function<void(const Material&)> visit = [&](const Material& v) {
    index[v] = low[v] = counter++;
    stack.push_back(v);
    on_stack.insert(v);
    for (const Material& w : material_successors(v, rules)) {
      if (!index.count(w)) {
        visit(w);
        low[v] = std::min(low[v], low[w]);
      } else if (on_stack.count(w)) {
        low[v] = std::min(low[v], index[w]);
      }
    }
    if (low[v] == index[v]) {
      std::vector<Material> component;
      Material w;
      do {
        w = stack.back();
        stack.pop_back();
        on_stack.erase(w);
        component.push_back(w);
      } while (!(w == v));
      components.push_back(component);
    }
  };
  for (const Material& t : targets)
    if (!index.count(t.canonical_orientation())) visit(t.canonical_orientation());
  return components;
}

}  // namespace feerie

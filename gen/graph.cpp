#include "gen/graph.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace feerie {

namespace {

// The non-king units a side may lose to a capture.
std::vector<std::pair<PieceType, bool>> capturable_units(const Material& m, Color c) {
  std::vector<std::pair<PieceType, bool>> out;
  for (int magic = 0; magic < 2; ++magic)
    for (int pt = PAWN; pt < KING; ++pt)
      if (m.count(c, PieceType(pt), magic)) out.push_back({PieceType(pt), magic});
  for (int magic = 0; magic < 2; ++magic)
    for (PieceType pt : {GRASSHOPPER, LOCUST})
      if (m.count(c, pt, magic)) out.push_back({pt, magic});
  return out;
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
  for (Color mover : {WHITE, BLACK}) {
    // Captures of one enemy unit (magic units are never captured).
    std::vector<Material> after_capture{m};
    for (auto [pt, magic] : capturable_units(m, ~mover)) {
      if (magic) continue;
      Material s = m;
      s.set_count(~mover, pt, false, m.count(~mover, pt, false) - 1);
      add(s);
      after_capture.push_back(s);
    }
    // Promotions, with or without a capture: to Q, R, B, N and the fairy types on board.
    for (int magic = 0; magic < 2; ++magic) {
      if (!m.count(mover, PAWN, magic)) continue;
      for (const Material& base : after_capture)
        for (PieceType pt : {QUEEN, ROOK, BISHOP, KNIGHT, GRASSHOPPER, LOCUST}) {
          if ((pt == GRASSHOPPER || pt == LOCUST) && !m.has(pt)) continue;
          Material s = base;
          s.set_count(mover, PAWN, magic, base.count(mover, PAWN, magic) - 1);
          s.set_count(mover, pt, magic, base.count(mover, pt, magic) + 1);
          add(s);
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

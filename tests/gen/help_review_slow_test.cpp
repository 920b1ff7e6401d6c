// Review checks of the helpmate tables (issue 25) beyond tests/gen/help_solver_test.cpp,
// written by an independent reviewer from docs/stipulations.md without reading the solver
// (label `slow`: about 10 minutes on 2 cores; the magic component of KmRvKP takes 36
// minutes and runs only with FEERIE_HELP_REVIEW_KMRVKP=1):
//  - magic components (mutations and promotions into other members, both orientations);
//  - a material with two identical units and a colour-symmetric one (symmetry classes where
//    two moves reach one stored entry);
//  - Madrasi RI KQvKQ (kings and queens paralysing each other).
// Two independent checks per table set:
//  (a) a forward search (sequences of exactly k plies, memoised, knows nothing of indices)
//      on positions sampled per distance, victim, side, orientation, and on positions whose
//      next move changes the material (mutation, promotion, capture);
//  (b) local consistency of EVERY entry of every member (both victims, both sides): 0 for the
//      victim mated, none for other terminal positions, else 1 + the shortest successor and
//      the sum of the counts of the moves reaching it, looked up through HelpTablebase::entry.
//      With (a) for the level-0 entries this implies the whole table is right (induction on
//      the distance).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <climits>
#include <cstdlib>
#include <map>
#include <mutex>
#include <random>
#include <unordered_map>

#include "gen/graph.h"
#include "gen/help_solver.h"
#include "rules/fen.h"
#include "rules/movegen.h"
#include "tests/gen/help_reference.h"

namespace feerie {
namespace {

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v ? std::atoi(v) : fallback;
}

using test::ForwardHelpmates;

std::string text(ValueCode plies, int solutions) {
  if (plies == value::Illegal) return "illegal";
  if (!value::is_mate(plies)) return "none";
  return std::to_string(value::plies(plies)) + " plies/" + std::to_string(solutions);
}

// Whether some legal move of `pos` changes its material (capture, promotion, mutation), and
// whether one mutates a unit (the material changes without capture or promotion, or a
// promoted unit is not what the move promoted to).
struct MoveKinds {
  bool changes_material = false, mutates = false;
};
MoveKinds kinds_of(const Position& pos, const RuleSet& rules) {
  MoveKinds out;
  MoveList moves;
  generate_legal(pos, rules, moves);
  const Material before = Material::of(pos);
  for (Move m : moves) {
    Position after = pos;
    UndoRecord undo;
    make_move(after, m, undo, rules);
    if (Material::of(after) == before) continue;
    out.changes_material = true;
    if (!undo.captured.empty()) continue;
    Piece arrived = after.piece_on(m.to());
    if (m.promotion() == NO_PIECE_TYPE || arrived.type() != m.promotion()) out.mutates = true;
    // A unit other than the mover changed type (a magic mover touched it).
    for (int s = 0; s < 64; ++s)
      if (Square(s) != m.to() && Square(s) != m.from() && after.piece_on(Square(s)) != pos.piece_on(Square(s)))
        out.mutates = true;
  }
  return out;
}

struct Summary {
  int compared = 0, differences = 0;
  std::map<std::string, int> by_kind;
};

// (a): positions of every member in the stored orientation, and their colour-flipped images
// (the other orientation, the other victim) through the reference too.
void forward_samples(const HelpTablebase& tb, const RuleSet& rules, const std::vector<Material>& members, int max_plies,
                     int per_distance, int mutating_quota, std::uint64_t seed, Summary& summary) {
  std::mt19937_64 rng(seed);
  for (Color victim : {WHITE, BLACK}) {
    ForwardHelpmates reference(rules, victim), flipped_reference(rules, ~victim);
    for (const Material& material : members) {
      const HelpTable* table = *tb.load(material);
      const Indexer indexer(material, rules);
      std::map<int, int> taken;
      int mutating = 0, flips = 0;
      for (int tries = 0; tries < 400000; ++tries) {
        const Color side = Color(rng() % 2);
        const std::uint64_t i = rng() % indexer.size();
        const ValueCode v = table->plies[victim][side][i];
        if (v == value::Illegal) continue;
        Position pos;
        if (!indexer.decode(i, side, pos)) continue;
        const int distance = value::is_mate(v) && value::plies(v) <= max_plies ? value::plies(v) : -1;
        bool take = taken[distance] < (distance < 0 ? env_int("PER_NONE", 3) : per_distance);
        MoveKinds kinds;
        if (!take && mutating < mutating_quota && distance >= 1) {
          kinds = kinds_of(pos, rules);
          take = kinds.mutates;
          if (take) ++mutating;
        } else if (take) {
          kinds = kinds_of(pos, rules);
        }
        if (!take) continue;
        ++taken[distance];
        const auto [plies, solutions] = reference.shortest(pos, max_plies);
        const int stored_solutions = table->solutions[victim][side][i];
        const bool differs = distance != plies || (plies >= 0 && stored_solutions != solutions);
        ++summary.compared;
        ++summary.by_kind[std::string(kinds.mutates            ? "next-mutates "
                                      : kinds.changes_material ? "next-changes "
                                                               : "") +
                          "d=" + std::to_string(distance)];
        if (differs) {
          ++summary.differences;
          ADD_FAILURE() << rules.name() << " " << to_fen(pos) << (victim == WHITE ? " white mated" : " black mated")
                        << ": table " << text(v, stored_solutions) << ", forward "
                        << (plies < 0 ? std::string("none<=") + std::to_string(max_plies)
                                      : std::to_string(plies) + " plies/" + std::to_string(solutions));
        }
        // The other orientation: through the prober (flip, other victim), and for some of
        // them through the reference on the flipped position itself.
        const Position flipped = color_flipped(pos);
        Expected<HelpEntry> e = tb.entry(flipped, ~victim);
        if (!e.ok()) {
          ADD_FAILURE() << to_fen(flipped) << ": " << e.error_message();
          continue;
        }
        if (e->plies != v || e->solutions != stored_solutions) {
          ++summary.differences;
          ADD_FAILURE() << "flip lookup " << to_fen(flipped) << ": " << text(e->plies, e->solutions) << " vs "
                        << text(v, stored_solutions);
        }
        if (flips++ % 4 == 0) {
          const auto [fp, fs] = flipped_reference.shortest(flipped, max_plies);
          ++summary.compared;
          if (fp != distance || (fp >= 0 && fs != stored_solutions)) {
            ++summary.differences;
            ADD_FAILURE() << rules.name() << " flipped " << to_fen(flipped)
                          << (victim == WHITE ? " black mated" : " white mated") << ": table "
                          << text(e->plies, e->solutions) << ", forward " << fp << "/" << fs;
          }
        }
      }
      std::string dist;
      for (auto [d, n] : taken) dist += fmt::format(" {}:{}", d, n);
      std::printf("  %s victim %s: mutating-next %d, distances%s\n", material.name().c_str(),
                  victim == WHITE ? "white" : "black", mutating, dist.c_str());
    }
  }
}

// (b): every entry of every member.
std::uint64_t local_consistency(const HelpTablebase& tb, const RuleSet& rules, const std::vector<Material>& members,
                                int stride) {
  std::uint64_t bad = 0, checked = 0;
  std::mutex mutex;
  for (const Material& material : members) {
    const HelpTable* table = *tb.load(material);
    const Indexer indexer(material, rules);
    for (Color victim : {WHITE, BLACK})
      for (Color side : {WHITE, BLACK}) {
        const std::int64_t size = std::int64_t(indexer.size());
#pragma omp parallel for schedule(dynamic, 4096) reduction(+ : checked)
        for (std::int64_t i = 0; i < size; i += stride) {
          const ValueCode stored = table->plies[victim][side][std::size_t(i)];
          const int stored_n = table->solutions[victim][side][std::size_t(i)];
          Position pos;
          const bool legal = indexer.decode(std::uint64_t(i), side, pos) && is_legal_position(pos, rules);
          if (!legal) continue;
          ++checked;
          MoveList moves;
          generate_legal(pos, rules, moves);
          ValueCode want = value::Draw;
          int want_n = 0;
          if (moves.empty()) {
            if (side == victim && in_check(pos, rules)) want = value::mate_in_plies(0), want_n = 1;
          } else {
            int shortest = INT_MAX, n = 0;
            for (Move m : moves) {
              Position after = pos;
              UndoRecord undo;
              make_move(after, m, undo, rules);
              Expected<HelpEntry> e = tb.entry(after, victim);
              if (!e.ok() || e->plies == value::Illegal) {
                std::lock_guard lock(mutex);
                ADD_FAILURE() << to_fen(pos) << " " << to_uci(m) << ": no entry";
                continue;
              }
              if (!value::is_mate(e->plies)) continue;
              const int p = value::plies(e->plies) + 1;
              if (p < shortest) shortest = p, n = 0;
              if (p == shortest) n = std::min(n + e->solutions, HelpSolutionsCap);
            }
            if (shortest != INT_MAX) want = value::mate_in_plies(shortest), want_n = n;
          }
          if (want != stored || want_n != stored_n) {
            std::lock_guard lock(mutex);
            if (++bad <= 20)
              ADD_FAILURE() << "local " << rules.name() << " " << to_fen(pos)
                            << (victim == WHITE ? " white mated" : " black mated") << ": stored "
                            << text(stored, stored_n) << ", from successors " << text(want, want_n);
          }
        }
      }
  }
  std::printf("  local consistency: %llu entries checked, %llu inconsistent\n", (unsigned long long)checked,
              (unsigned long long)bad);
  return bad;
}

void run_case_impl(const char* condition, const char* target, int max_plies, int per_distance, int mutating_quota,
                   int stride) {
  const RuleSet rules = *RuleSet::parse(condition);
  const Material material = *Material::parse(target);
  std::vector<std::vector<Material>> order = solving_order({material}, rules);
  std::printf("%s %s: components", condition, target);
  for (auto& c : order) std::printf(" {%s}", material_names(c).c_str());
  std::printf("\n");
  Expected<HelpTablebase> tb = solve_helpmates({material}, rules, env_int("THREADS", 2));
  ASSERT_TRUE(tb.ok()) << tb.error_message();
  // The last component is the target's.
  const std::vector<Material>& members = order.back();
  Summary summary;
  forward_samples(*tb, rules, members, max_plies, per_distance, mutating_quota, 25, summary);
  std::printf("  forward: %d compared, %d differences;", summary.compared, summary.differences);
  for (auto& [k, n] : summary.by_kind) std::printf(" [%s]=%d", k.c_str(), n);
  std::printf("\n");
  if (env_int("LOCAL", 1)) {
    EXPECT_EQ(local_consistency(*tb, rules, members, stride), 0u);
  }
}

void run_case(const char* condition, const char* target, int max_plies, int per_distance, int mutating_quota,
              int stride) {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  run_case_impl(condition, target, max_plies, per_distance, mutating_quota, stride);
}

TEST(HelpReview, MagicComponentOfKmRvKP) {
  if (!env_int("FEERIE_HELP_REVIEW_KMRVKP", 0)) GTEST_SKIP() << "36 minutes: set FEERIE_HELP_REVIEW_KMRVKP=1";
  run_case("orthodox", "KmRvKP", env_int("MAX_PLIES", 7), env_int("PER", 8), env_int("MUT", 20), env_int("STRIDE", 1));
}
// Own magic unit: promotions upgraded on arrival (=Q and =R both leave a queen next to the
// magic knight: two moves, one position, two solutions).
TEST(HelpReview, MagicKmNPvK) {
  run_case("orthodox", "KmNPvK", env_int("MAX_PLIES", 7), env_int("PER", 8), env_int("MUT", 20), env_int("STRIDE", 1));
}
TEST(HelpReview, MagicKmBvKN) {
  run_case("orthodox", "KmBvKN", env_int("MAX_PLIES", 7), env_int("PER", 8), env_int("MUT", 20), env_int("STRIDE", 1));
}
TEST(HelpReview, OrthodoxKRvKR) {
  run_case("orthodox", "KRvKR", env_int("MAX_PLIES", 7), env_int("PER", 8), 0, env_int("STRIDE", 1));
}
TEST(HelpReview, OrthodoxKNNvK) {
  run_case("orthodox", "KNNvK", env_int("MAX_PLIES", 7), env_int("PER", 8), 0, env_int("STRIDE", 1));
}
TEST(HelpReview, MadrasiRiKQvKQ) {
  run_case("madrasi-ri", "KQvKQ", env_int("MAX_PLIES", 7), env_int("PER", 8), 0, env_int("STRIDE", 1));
}

// Pawns of both colours: the en-passant region of the index, double steps in the solutions.
// The local check on every 7th entry (the whole table took 17 minutes).
TEST(HelpReview, OrthodoxKPvKP) {
  run_case("orthodox", "KPvKP", env_int("MAX_PLIES", 7), env_int("PER", 8), 0, env_int("STRIDE", 7));
}
}  // namespace
}  // namespace feerie

#include "study/help_study.h"

#include <omp.h>

#include "probe/indexer.h"
#include "rules/fen.h"
#include "rules/movegen.h"
#include "study/reservoir.h"

namespace feerie {

namespace {

bool helpmate(const HelpTablebase& tb) { return tb.kind() == StipulationKind::Helpmate; }

// Whether an entry of `plies` plies, with `side` to move and `mated` mated, states a
// problem with a mate to play (docs/stipulations.md): a helpmate of at least one ply; a
// selfmate with the colour mated to move.
bool states_problem(const HelpTablebase& tb, int plies, Color side, Color mated) {
  if (plies == 0) return false;
  return helpmate(tb) || side == mated;
}

}  // namespace

Expected<std::array<HelpSideSurvey, 2>> survey_help_table(const HelpTablebase& tb, const Material& material,
                                                          Color mated, int threads) {
  if (!material.is_canonical_orientation())
    return error(ErrorKind::InvalidArgument, "tables are stored as " + material.colors_swapped().name() +
                                                 "; ask for that material with the other colour mated");
  Expected<const HelpTable*> table = tb.load(material, mated);
  if (!table) return table.error();
  const Indexer indexer(material, tb.rules());
  if (threads <= 0) threads = omp_get_max_threads();
  const bool counts_solutions = helpmate(tb);
  std::array<HelpSideSurvey, 2> out;
  for (Color side : {WHITE, BLACK}) {
    const std::vector<ValueCode>& plies = (*table)->plies[mated][side];
    const std::vector<std::uint8_t>& solutions = (*table)->solutions[mated][side];
    const std::int64_t size = std::int64_t(plies.size());
    HelpSideSurvey& s = out[side];
#pragma omp parallel num_threads(threads)
    {
      HelpSideSurvey mine;
#pragma omp for schedule(dynamic, 4096)
      for (std::int64_t i = 0; i < size; ++i) {
        const ValueCode v = plies[std::size_t(i)];
        if (v == value::Illegal) continue;
        Position pos;
        indexer.decode(std::uint64_t(i), side, pos);
        const std::uint64_t images = std::uint64_t(distinct_images(indexer, pos));
        mine.positions += images;
        if (!value::is_mate(v)) continue;
        const bool unique = counts_solutions && solutions[std::size_t(i)] == 1;
        mine.with_mate += images;
        mine.unique += unique ? images : 0;
        HelpLengthCount& length = mine.by_plies[std::size_t(value::plies(v))];
        length.positions += images;
        length.unique += unique ? images : 0;
      }
#pragma omp critical
      {
        s.positions += mine.positions;
        s.with_mate += mine.with_mate;
        s.unique += mine.unique;
        for (std::size_t p = 0; p < s.by_plies.size(); ++p) {
          s.by_plies[p].positions += mine.by_plies[p].positions;
          s.by_plies[p].unique += mine.by_plies[p].unique;
        }
      }
    }
    for (int p = HelpMaxPlies; p >= 0 && s.longest_plies < 0; --p)
      if (s.by_plies[std::size_t(p)].positions) s.longest_plies = p;
    if (s.longest_plies < 0) continue;
    // The example of lowest index.
    for (std::size_t i = 0; i < plies.size(); ++i) {
      if (!value::is_mate(plies[i]) || value::plies(plies[i]) != s.longest_plies) continue;
      Position pos;
      indexer.decode(i, side, pos);
      s.longest_fen = to_fen(pos);
      s.longest_solutions = solutions[i];
      break;
    }
  }
  return out;
}

Expected<HelpMineReport> mine_help_table(const HelpTablebase& tb, const Material& material, const HelpMineFilter& f,
                                         std::uint64_t limit, std::uint64_t seed,
                                         const std::function<void(const HelpMineMatch&)>& on_match) {
  if (f.unique && !helpmate(tb))
    return error(ErrorKind::InvalidArgument, "a selfmate table holds no solution counts: --unique is for helpmates");
  const Material stored = material.canonical_orientation();
  const bool flipped = !material.is_canonical_orientation();
  const Color stored_mated = flipped ? ~f.mated : f.mated;
  Expected<const HelpTable*> table = tb.load(stored, stored_mated);
  if (!table) return table.error();
  const Indexer indexer(stored, tb.rules());
  const int plies_min = f.half_moves_min, plies_max = f.half_moves_max ? f.half_moves_max : HelpMaxPlies;

  struct Found {
    std::uint64_t index;
    Color side;  // stored
  };
  auto report = [&](const Found& found) {
    HelpMineMatch m;
    indexer.decode(found.index, found.side, m.position);
    if (flipped) m.position = color_flipped(m.position);
    m.entry = HelpEntry{(*table)->plies[stored_mated][found.side][found.index],
                        (*table)->solutions[stored_mated][found.side][found.index]};
    on_match(m);
  };
  HelpMineReport out;
  std::optional<Reservoir<Found>> sample;
  if (limit > 0) sample.emplace(limit, seed);
  for (Color asked : {WHITE, BLACK}) {
    const Color side = flipped ? ~asked : asked;
    const std::vector<ValueCode>& plies = (*table)->plies[stored_mated][side];
    const std::vector<std::uint8_t>& solutions = (*table)->solutions[stored_mated][side];
    out.entries += plies.size();
    if (f.side && *f.side != asked) continue;
    for (std::size_t i = 0; i < plies.size(); ++i) {
      const ValueCode v = plies[i];
      if (!value::is_mate(v)) continue;
      const int p = value::plies(v);
      if (p < plies_min || p > plies_max) continue;
      // In stored colours: the side to move and the colour mated are exchanged together.
      if ((f.half_moves_min || f.half_moves_max || f.problem_only) && !states_problem(tb, p, side, stored_mated))
        continue;
      if (f.unique && solutions[i] != 1) continue;
      if (f.units_min || f.units_max || f.pawns_on_ranks_2_to_7) {
        Position pos;
        indexer.decode(i, side, pos);
        const int units = popcount(pos.pieces());
        if (f.units_min && units < f.units_min) continue;
        if (f.units_max && units > f.units_max) continue;
        if (f.pawns_on_ranks_2_to_7 && (pos.pieces(PAWN) & FirstAndLastRanks)) continue;
      }
      ++out.matches;
      if (sample)
        sample->offer(Found{i, side});
      else
        report(Found{i, side});
    }
  }
  if (sample)
    for (const Found& found : sample->in_scan_order()) report(found);
  return out;
}

namespace {

// Appends to `out` the lines of `p` plies from `pos` (which has a helpmate of `p` plies),
// each after `prefix`, until `out` holds `limit`.
Status collect_solutions(const HelpTablebase& tb, const Position& pos, Color mated, int p, std::vector<Move>& prefix,
                         int limit, std::vector<std::vector<Move>>& out) {
  if (p == 0) {
    out.push_back(prefix);
    return Ok{};
  }
  for (const MoveResult& m : legal_moves_with_results(pos, tb.rules())) {
    if (int(out.size()) >= limit) break;
    Expected<HelpEntry> after = tb.entry(m.after, mated);
    if (!after) return after.error();
    if (after->plies != value::mate_in_plies(p - 1)) continue;
    prefix.push_back(m.move);
    if (Status s = collect_solutions(tb, m.after, mated, p - 1, prefix, limit, out); !s) return s.error();
    prefix.pop_back();
  }
  return Ok{};
}

}  // namespace

Expected<std::vector<std::vector<Move>>> helpmate_solutions(const HelpTablebase& tb, const Position& pos, Color mated,
                                                            int limit) {
  Expected<HelpEntry> e = tb.entry(pos, mated);
  if (!e) return e.error();
  std::vector<std::vector<Move>> out;
  if (!value::is_mate(e->plies) || value::plies(e->plies) == 0 || limit <= 0) return out;
  std::vector<Move> prefix;
  if (Status s = collect_solutions(tb, pos, mated, value::plies(e->plies), prefix, limit, out); !s) return s.error();
  return out;
}

std::string help_line_text(const std::vector<std::string>& san, Color first_mover, Color mated) {
  std::string out;
  int number = 1;
  Color mover = first_mover;
  for (std::size_t i = 0; i < san.size(); ++i, mover = ~mover) {
    if (!out.empty()) out += ' ';
    if (mover == mated) {
      out += std::to_string(number++) + "." + san[i];
    } else {
      if (i == 0) out += std::to_string(number++) + "...";
      out += san[i];
    }
  }
  return out;
}

}  // namespace feerie

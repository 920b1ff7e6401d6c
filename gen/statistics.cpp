#include "gen/statistics.h"

#include <omp.h>

#include "rules/fen.h"

namespace feerie {

namespace {

struct Counts {
  std::uint64_t raw[3] = {};      // loss, draw, win
  std::uint64_t classes[3] = {};  // numerators: divide by the group size at the end
};

int outcome(ValueCode v) { return v == value::Draw ? 1 : value::is_win(v) ? 2 : 0; }

bool pawns_on_usual_ranks(const Position& pos) {
  Bitboard pawns = pos.pieces(PAWN);
  return !(pawns & FirstAndLastRanks);
}

std::uint64_t labelling_factor(const Material& m) {
  std::uint64_t f = 1;
  for (int magic = 0; magic < 2; ++magic)
    for (Color c : {WHITE, BLACK})
      for (int pt = PAWN; pt < PIECE_TYPE_NB; ++pt)
        for (int k = 2; k <= m.count(c, PieceType(pt), magic); ++k) f *= k;
  return f;
}

}  // namespace

std::array<SideStatistics, 2> partial_statistics(const Indexer& indexer, const MemberValues& values, int threads,
                                                 std::uint64_t first) {
  std::array<SideStatistics, 2> stats;
  const std::uint64_t labels = labelling_factor(indexer.material());
  if (threads <= 0) threads = omp_get_max_threads();
  for (int side = 0; side < 2; ++side) {
    const ValueArray& v = values[side];
    const std::int64_t size = std::int64_t(v.size());
    std::uint64_t raw[3] = {}, classes[3] = {};
#pragma omp parallel num_threads(threads) reduction(+ : raw[:3], classes[:3])
    {
      Indexer::Cursor cursor;  // each thread's runs of consecutive entries
#pragma omp for schedule(dynamic, 4096)
      for (std::int64_t i = 0; i < size; ++i) {
        if (v[i] == value::Illegal || v[i] == value::Unknown) continue;
        Position pos;
        indexer.decode(first + std::uint64_t(i), Color(side), pos, cursor);
        int pointwise = 0;
        int images = distinct_images(indexer, pos, &pointwise);
        int o = outcome(v[i]);
        raw[o] += images;
        if (pos.ep_square() == SQ_NONE && pawns_on_usual_ranks(pos))
          classes[o] += std::uint64_t(images) * labels * pointwise;
      }
    }
    SideStatistics& s = stats[side];
    s.loss = raw[0], s.draw = raw[1], s.win = raw[2];
    s.positions = s.loss + s.draw + s.win;
    s.classes_loss = classes[0], s.classes_draw = classes[1], s.classes_win = classes[2];
    for (std::int64_t i = 0; i < size; ++i) {
      if (!value::is_win(v[i]) || value::plies(v[i]) <= s.classes_longest_mate_plies) continue;
      Position pos;
      indexer.decode(first + std::uint64_t(i), Color(side), pos);
      if (value::plies(v[i]) > s.longest_mate_plies) {
        s.longest_mate_plies = value::plies(v[i]);
        s.longest_mate_fen = to_fen(pos);
      }
      if (pos.ep_square() == SQ_NONE && pawns_on_usual_ranks(pos)) {
        s.classes_longest_mate_plies = value::plies(v[i]);
        s.classes_longest_mate_fen = to_fen(pos);
      }
    }
  }
  return stats;
}

std::array<SideStatistics, 2> merge_statistics(const Indexer& indexer,
                                               const std::vector<std::array<SideStatistics, 2>>& parts) {
  std::array<SideStatistics, 2> out;
  for (int side = 0; side < 2; ++side) {
    SideStatistics& s = out[side];
    for (const auto& part : parts) {
      const SideStatistics& p = part[side];
      s.positions += p.positions, s.win += p.win, s.draw += p.draw, s.loss += p.loss;
      s.classes_win += p.classes_win, s.classes_draw += p.classes_draw, s.classes_loss += p.classes_loss;
      // Strictly longer only: on a tie the earlier part, which holds the lower indices, keeps its example.
      if (p.longest_mate_plies > s.longest_mate_plies)
        s.longest_mate_plies = p.longest_mate_plies, s.longest_mate_fen = p.longest_mate_fen;
      if (p.classes_longest_mate_plies > s.classes_longest_mate_plies)
        s.classes_longest_mate_plies = p.classes_longest_mate_plies,
        s.classes_longest_mate_fen = p.classes_longest_mate_fen;
    }
    const std::uint64_t group = std::uint64_t(indexer.symmetry_count());
    s.classes_loss /= group, s.classes_draw /= group, s.classes_win /= group;
  }
  return out;
}

std::array<SideStatistics, 2> compute_statistics(const Indexer& indexer, const MemberValues& values, int threads) {
  return merge_statistics(indexer, {partial_statistics(indexer, values, threads, 0)});
}

}  // namespace feerie

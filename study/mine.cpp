#include "study/mine.h"

#include <omp.h>

#include <algorithm>
#include <string>
#include <unordered_set>
#include <vector>

#include "probe/header_check.h"
#include "probe/indexer.h"
#include "probe/table_file.h"
#include "rules/fen.h"
#include "rules/movegen.h"
#include "study/problem_quality.h"
#include "study/reservoir.h"
#include "study/threat_sound.h"

namespace feerie {

namespace {

// The filters that need nothing but the value code.
bool value_passes(const MineFilter& f, ValueCode v) {
  if (!value::is_mate(v) && v != value::Draw) return false;  // no position (Illegal)
  if (f.result && ProbeResult::of(v).wdl != *f.result) return false;
  if (f.mate_to_play && !(value::is_mate(v) && value::plies(v) > 0)) return false;
  if (f.wants_win()) {
    if (!value::is_win(v)) return false;
    if (f.mate_min > 0 && value::moves(v) < f.mate_min) return false;
    if (f.mate_max > 0 && value::moves(v) > f.mate_max) return false;
  }
  if (f.wants_loss()) {
    if (!value::is_loss(v) || value::plies(v) == 0) return false;
    if (f.mated_min > 0 && value::moves(v) < f.mated_min) return false;
    if (f.mated_max > 0 && value::moves(v) > f.mated_max) return false;
  }
  return true;
}

Status check_filter(const MineFilter& f) {
  if (f.mate_min < 0 || f.mate_max < 0 || (f.mate_max > 0 && f.mate_min > f.mate_max))
    return error(ErrorKind::InvalidArgument, "bad mate range " + std::to_string(f.mate_min) + "-" +
                                                 std::to_string(f.mate_max) + " (expected N or N-M with 1 <= N <= M)");
  if (f.units_min < 0 || f.units_max < 0 || (f.units_max > 0 && f.units_min > f.units_max))
    return error(ErrorKind::InvalidArgument, "bad number of units " + std::to_string(f.units_min) + "-" +
                                                 std::to_string(f.units_max) + " (expected N or N-M with 1 <= N <= M)");
  if (f.checks_min < 0 || (f.checks_max >= 0 && f.checks_min > f.checks_max))
    return error(ErrorKind::InvalidArgument, "bad number of checks " + std::to_string(f.checks_min) + "-" +
                                                 std::to_string(f.checks_max) +
                                                 " (expected N or N-M with 0 <= N <= M)");
  if (f.mated_min < 0 || f.mated_max < 0 || (f.mated_max > 0 && f.mated_min > f.mated_max))
    return error(ErrorKind::InvalidArgument, "bad mated range " + std::to_string(f.mated_min) + "-" +
                                                 std::to_string(f.mated_max) + " (expected N or N-M with 1 <= N <= M)");
  if (f.wants_loss() && (f.wants_win() || (f.result && *f.result != Wdl::Loss)))
    return error(ErrorKind::InvalidArgument,
                 "--mated asks for positions the side to move loses: it contradicts " +
                     (f.wants_win() ? "a win, asked for by " + f.win_filters() : std::string("another result")));
  if (f.legal_there && !f.differs_from)
    return error(ErrorKind::InvalidArgument, "legal there: only with a comparison under another condition");
  if (f.wants_win() && f.result && *f.result != Wdl::Win)
    return error(ErrorKind::InvalidArgument, "a win is asked for (" + f.win_filters() + "): the result filter '" +
                                                 std::string(*f.result == Wdl::Draw ? "draw" : "loss") +
                                                 "' contradicts it");
  if (f.mate_to_play && f.result == Wdl::Draw) return error(ErrorKind::InvalidArgument, "a draw has no mate to play");
  return Ok{};
}

// A key that tells positions apart (units, side to move, en-passant square), for the
// positions already found sound during one check.
std::string position_key(const Position& pos) {
  std::string key(SQUARE_NB + 2, '\0');
  for (int s = 0; s < SQUARE_NB; ++s) key[std::size_t(s)] = char(pos.piece_on(Square(s)).code());
  key[SQUARE_NB] = char(pos.side_to_move());
  key[SQUARE_NB + 1] = char(pos.ep_square());
  return key;
}

// `pos`, won in value `v` for the attacker to move: the unique shortest move, then every
// defence, then the unique shortest continuation, ... down to the mate. `sound` holds the
// positions already found sound during this check (transpositions are checked once).
Expected<bool> sound_from(const Tablebase& tb, const Position& pos, ValueCode v,
                          std::unordered_set<std::string>& sound) {
  std::string key = position_key(pos);
  if (sound.count(key)) return true;
  Expected<std::vector<MoveResult>> keeping = keeping_moves(tb, pos, v, 2);
  if (!keeping) return keeping.error();
  if (keeping->size() != 1) return false;
  const Position& after = keeping->front().after;
  if (value::plies(v) > 1) {
    for (const MoveResult& defence : legal_moves_with_results(after, tb.rules())) {
      const Position& next = defence.after;
      Expected<ValueCode> w = won_after_defence(tb, pos, next, value::plies(v) - 2);
      if (!w) return w.error();
      Expected<bool> below = sound_from(tb, next, *w, sound);
      if (!below || !*below) return below;
    }
  }
  sound.insert(std::move(key));
  return true;
}

// One entry that passed the filters: its index, the symmetry that gives the reported
// image (Indexer::transform) and, under --differs-from, the other value.
struct Candidate {
  std::uint64_t index = 0;
  ValueCode value = value::Draw;
  ValueCode other = value::Unknown;
  std::uint8_t image = 0;
  ValueCode other_side = value::Unknown;  // under --zugzwang
};

// +1 win, 0 draw, -1 loss for the side a value belongs to.
int score(ValueCode v) { return value::is_win(v) ? 1 : value::is_loss(v) ? -1 : 0; }

// Whether a placement whose value is `mover` for the side to move and `waiter` for the
// other side when that side is to move is a reciprocal zugzwang of kind `kind`. The side
// to move does worse with the move than without it when score(mover) < -score(waiter).
bool is_zugzwang(Zugzwang kind, ValueCode mover, ValueCode waiter) {
  const int loss_by_moving = -(score(mover) + score(waiter));  // 0: none, 1: half point, 2: full point
  switch (kind) {
    case Zugzwang::Full:
      return loss_by_moving == 2;
    case Zugzwang::Half:
      return loss_by_moving == 1;
    case Zugzwang::Any:
      return loss_by_moving > 0;
  }
  return false;
}

// What one worker thread reads through: its own Tablebase on the same directories and
// its own handle on the scanned file, so that no lock is shared between threads (the
// reader's locks are uncontended, its block caches private).
struct Worker {
  Tablebase tb;
  std::unique_ptr<TableFile> file;
  std::unique_ptr<TableFile> other_file;  // under --differs-from: the same material there
  NoCaptureMemo no_capture;               // under --no-capture: the solutions read so far
};

// What a scan of one side to move needs, shared by the worker threads (read-only).
struct SideScan {
  const Indexer& indexer;
  const Indexer* other_indexer;  // under --differs-from
  const MineFilter& filter;
  int side;  // the stored table's side to move
};

// Under --differs-from: the images of `pos` that the other condition tells apart, each
// with its value there, appended to `out` when it differs.
Status compare_images(const SideScan& scan, Worker& worker, const Position& pos, std::uint64_t index, ValueCode v,
                      std::vector<Candidate>& out) {
  std::uint64_t seen[8];
  int seen_count = 0;
  for (int t = 0; t < scan.indexer.symmetry_count(); ++t) {
    Position image = Indexer::transform(t, pos);
    // One key per position of the other table; every image of a position with touching
    // kings is missing there alike.
    const bool indexable = scan.other_indexer->can_index(image);
    const std::uint64_t key = indexable ? scan.other_indexer->index(image) : ~std::uint64_t(0);
    if (std::find(seen, seen + seen_count, key) != seen + seen_count) continue;
    seen[seen_count++] = key;
    ValueCode other = value::Illegal;
    if (indexable) {
      Expected<ValueCode> o = worker.other_file->value(scan.side, key);
      if (!o) return o.error();
      other = value::is_mate(*o) || *o == value::Draw ? *o : value::Illegal;
    }
    if (scan.filter.legal_there && other == value::Illegal) continue;
    bool differs = scan.filter.difference == Difference::Value
                       ? other != v
                       : other == value::Illegal || ProbeResult::of(other).wdl != ProbeResult::of(v).wdl;
    if (differs) out.push_back({index, v, other, std::uint8_t(t), value::Unknown});
  }
  return Ok{};
}

// The problem-quality filters of `f` on a won position, cheapest first.
Expected<bool> passes_quality(const MineFilter& f, Worker& worker, const Position& pos, ValueCode v) {
  const Tablebase& tb = worker.tb;
  using Test = Expected<bool> (*)(const Tablebase&, const Position&, ValueCode);
  const std::pair<bool, Test> tests[] = {{f.quiet_key, &has_quiet_key}, {f.every_unit_needed, &every_unit_needed}};
  for (const auto& [wanted, test] : tests) {
    if (!wanted) continue;
    Expected<bool> passes = test(tb, pos, v);
    if (!passes || !*passes) return passes;
  }
  if (f.no_capture) {
    // The solutions of the positions scanned before, which this one's often runs into.
    Expected<bool> passes = solution_has_no_capture(tb, pos, v, &worker.no_capture);
    if (!passes || !*passes) return passes;
  }
  if (f.key_flights) {
    Expected<std::vector<KeyFlights>> flights = key_flights(tb, pos, v);
    if (!flights) return flights.error();
    for (const KeyFlights& k : *flights) {
      const bool passes = *f.key_flights == KeyFlightsWanted::Gives   ? k.given != 0
                          : *f.key_flights == KeyFlightsWanted::Takes ? k.taken != 0
                                                                      : k.taken == 0;
      if (!passes) return false;
    }
  }
  if (f.checks_min > 0 || f.checks_max >= 0) {
    // Counting stops beyond the upper bound: a long solution full of checks is not read whole.
    Expected<int> checks = checks_in_solution(tb, pos, v, f.checks_max >= 0 ? f.checks_max + 1 : f.checks_min);
    if (!checks) return checks.error();
    if (*checks < f.checks_min || (f.checks_max >= 0 && *checks > f.checks_max)) return false;
  }
  return true;
}

// The candidates of entries [begin, end) of one side, in index order.
Status scan_range(const SideScan& scan, Worker& worker, std::uint64_t begin, std::uint64_t end,
                  std::vector<Candidate>& out) {
  const MineFilter& f = scan.filter;
  std::vector<Candidate> images;
  for (std::uint64_t i = begin; i < end; ++i) {
    Expected<ValueCode> v = worker.file->value(scan.side, i);
    if (!v) return v.error();
    if (!value_passes(f, *v)) continue;
    ValueCode other_side = value::Unknown;
    if (f.zugzwang) {
      // The same placement with the other side to move: the same index in the other
      // side's half, outside the en-passant region (whose positions depend on the side).
      if (i >= scan.indexer.base_size()) continue;
      Expected<ValueCode> o = worker.file->value(1 - scan.side, i);
      if (!o) return o.error();
      other_side = *o;
      if (!value::is_mate(other_side) && other_side != value::Draw) continue;  // illegal with the other to move
      if (!is_zugzwang(*f.zugzwang, *v, other_side)) continue;
    }
    Position pos;
    if (!scan.indexer.decode(i, Color(scan.side), pos)) continue;
    if (f.pawns_on_ranks_2_to_7 && (pos.pieces(PAWN) & FirstAndLastRanks)) continue;
    const int units = popcount(pos.pieces());
    if ((f.units_min > 0 && units < f.units_min) || (f.units_max > 0 && units > f.units_max)) continue;
    images.clear();
    if (scan.other_indexer) {
      if (Status s = compare_images(scan, worker, pos, i, *v, images); !s) return s;
      if (images.empty()) continue;
    } else {
      images.push_back({i, *v, value::Unknown, 0, value::Unknown});
    }
    for (Candidate& c : images) c.other_side = other_side;
    if (f.unique_key && !f.sound) {
      Expected<int> keeping = count_keeping_moves(worker.tb, pos, *v, 2);
      if (!keeping) return keeping.error();
      if (*keeping != 1) continue;
    }
    if (f.sound) {
      std::unordered_set<std::string> sound_positions;
      Expected<bool> sound = sound_from(worker.tb, pos, *v, sound_positions);
      if (!sound) return sound.error();
      if (!*sound) continue;
    }
    if (f.sound_threat) {
      Expected<ThreatReading> reading = read_threats(worker.tb, pos);
      if (!reading) return reading.error();
      if (!reading->sound) continue;
    }
    Expected<bool> quality = passes_quality(f, worker, pos, *v);
    if (!quality) return quality.error();
    if (!*quality) continue;
    out.insert(out.end(), images.begin(), images.end());
  }
  return Ok{};
}

// A match the sample keeps: its side to move as scanned, and what the scan found.
struct Sampled {
  int side;
  Candidate candidate;
};

}  // namespace

Expected<std::vector<MoveResult>> keeping_moves(const Tablebase& tb, const Position& pos, ValueCode v, int stop_at) {
  std::vector<MoveResult> out;
  for (MoveResult& m : legal_moves_with_results(pos, tb.rules())) {
    Expected<ValueCode> successor = tb.value_code(m.after);
    if (!successor) return successor.error();
    if (value_through_move(*successor) != v) continue;
    out.push_back(std::move(m));
    if (int(out.size()) >= stop_at) break;
  }
  return out;
}

Expected<ValueCode> won_after_defence(const Tablebase& tb, const Position& from, const Position& after, int max_plies) {
  Expected<ValueCode> w = tb.value_code(after);
  if (!w) return w.error();
  if (!value::is_win(*w) || value::plies(*w) > max_plies)
    return error(ErrorKind::Corruption, "position '" + to_fen(after) + "' in the solution of '" + to_fen(from) +
                                            "' is not won in at most " + std::to_string(max_plies) +
                                            " plies (tables inconsistent)");
  return w;
}

Expected<int> count_keeping_moves(const Tablebase& tb, const Position& pos, ValueCode v, int stop_at, Move* first) {
  Expected<std::vector<MoveResult>> keeping = keeping_moves(tb, pos, v, stop_at);
  if (!keeping) return keeping.error();
  if (first && !keeping->empty()) *first = keeping->front().move;
  return int(keeping->size());
}

Expected<bool> has_unique_key(const Tablebase& tb, const Position& pos) {
  Expected<ValueCode> v = tb.value_code(pos);
  if (!v) return v.error();
  if (!value::is_win(*v)) return false;
  Expected<int> keeping = count_keeping_moves(tb, pos, *v, 2);
  if (!keeping) return keeping.error();
  return *keeping == 1;
}

Expected<bool> is_sound(const Tablebase& tb, const Position& pos) {
  Expected<ValueCode> v = tb.value_code(pos);
  if (!v) return v.error();
  if (!value::is_win(*v)) return false;
  std::unordered_set<std::string> sound;
  return sound_from(tb, pos, *v, sound);
}

namespace {

// One worker per thread, each with its own readers (see Worker).
Expected<std::vector<Worker>> make_workers(const Tablebase& tb, const MineFilter& f, const Material& stored,
                                           int threads) {
  std::vector<Worker> workers;
  for (int t = 0; t < threads; ++t) {
    Worker w{Tablebase::open(tb.directory(), tb.rules()), nullptr, nullptr, {}};
    Expected<std::unique_ptr<TableFile>> file = open_table(tb.table_path(stored), stored, tb.rules());
    if (!file) return file.error();
    w.file = std::move(*file);
    if (f.differs_from) {
      const RuleSet& other = f.differs_from->rules();
      Expected<std::unique_ptr<TableFile>> other_file = open_table(f.differs_from->table_path(stored), stored, other);
      if (!other_file) return with_context("--differs-from " + other.name() + ": ", other_file.error());
      w.other_file = std::move(*other_file);
    }
    workers.push_back(std::move(w));
  }
  return workers;
}

// Scans the `entries` entries of one side in chunks of `chunk` (a block of the file), and
// hands the candidates to `take` in index order. A batch of chunks is scanned in parallel,
// then its candidates are handed over: memory holds one batch's candidates, never the
// whole result. `scanned` is told the entries done after each batch.
Status scan_side(const SideScan& scan, std::vector<Worker>& workers, std::uint64_t entries, std::uint64_t chunk,
                 const std::function<void(const Candidate&)>& take, const std::function<void(std::uint64_t)>& scanned) {
  const int threads = int(workers.size());
  const std::uint64_t chunks = (entries + chunk - 1) / chunk;
  const std::uint64_t batch = std::uint64_t(threads) * 4;
  for (std::uint64_t first = 0; first < chunks; first += batch) {
    const std::uint64_t count = std::min(batch, chunks - first);
    std::vector<std::vector<Candidate>> found(count);
    std::vector<std::optional<Error>> failed(count);
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
    for (std::int64_t k = 0; k < std::int64_t(count); ++k) {
      std::uint64_t begin = (first + std::uint64_t(k)) * chunk;
      Worker& worker = workers[std::size_t(omp_get_thread_num())];
      Status s = scan_range(scan, worker, begin, std::min(entries, begin + chunk), found[std::size_t(k)]);
      if (!s) failed[std::size_t(k)] = s.error();
    }
    for (std::uint64_t k = 0; k < count; ++k) {
      if (failed[k]) return *failed[k];
      for (const Candidate& c : found[k]) take(c);
    }
    scanned(std::min(entries, (first + count) * chunk) - first * chunk);
  }
  return Ok{};
}

}  // namespace

Expected<MineReport> mine(const Tablebase& tb, const Material& material, const MineOptions& options,
                          const std::function<void(const MineMatch&)>& on_match) {
  const MineFilter& f = options.filter;
  if (Status s = check_filter(f); !s) return s.error();
  const Material stored = material.canonical_orientation();
  const bool flipped = !material.is_canonical_orientation();
  Expected<std::vector<Worker>> workers =
      make_workers(tb, f, stored, options.threads > 0 ? options.threads : omp_get_max_threads());
  if (!workers) return workers.error();
  const Indexer indexer(stored, tb.rules());
  std::optional<Indexer> other_indexer;
  if (f.differs_from) other_indexer.emplace(stored, f.differs_from->rules());
  const TableHeader& header = workers->front().file->header();
  const std::uint64_t entries = header.entries;
  const std::uint64_t chunk = std::max<std::uint64_t>(1, header.block_entries);

  // A candidate as the caller sees it: decoded again, its image, the asked orientation.
  auto report_match = [&](int side, const Candidate& c) {
    MineMatch m;
    indexer.decode(c.index, Color(side), m.position);
    m.position = Indexer::transform(c.image, m.position);
    if (flipped) m.position = color_flipped(m.position);
    m.value = c.value;
    m.other_value = c.other;
    m.other_side_value = c.other_side;
    on_match(m);
  };
  MineReport report;
  std::optional<Reservoir<Sampled>> sample;
  if (options.limit > 0) sample.emplace(options.limit, options.seed);
  // The reported side to move is the stored one, exchanged for the other orientation;
  // White to move is scanned first. A zugzwang is one placement: one side is scanned.
  std::optional<Color> only_side = f.side;
  if (f.zugzwang && !only_side) only_side = WHITE;
  for (Color reported : {WHITE, BLACK}) {
    const int side = flipped ? ~reported : reported;
    if (only_side && *only_side != reported) {
      report.entries += entries;
      continue;
    }
    const SideScan scan{indexer, other_indexer ? &*other_indexer : nullptr, f, side};
    Status s = scan_side(
        scan, *workers, entries, chunk,
        [&](const Candidate& c) {
          ++report.matches;
          if (sample)
            sample->offer(Sampled{side, c});
          else
            report_match(side, c);
        },
        [&](std::uint64_t done) {
          report.entries += done;
          if (options.on_progress) options.on_progress(double(report.entries) / double(2 * entries));
        });
    if (!s) return s.error();
  }
  if (sample)
    for (const Sampled& e : sample->in_scan_order()) report_match(e.side, e.candidate);
  return report;
}

}  // namespace feerie

#include "gen/verify.h"

#include <omp.h>

#include <algorithm>
#include <array>
#include <climits>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>

#include "gen/graph.h"
#include "probe/header_check.h"
#include "probe/indexer.h"
#include "probe/tablebase.h"
#include "rules/fen.h"
#include "rules/movegen.h"

namespace feerie {

namespace {

std::string describe(ValueCode v) {
  if (v == value::Illegal) return "illegal";
  if (v == value::Draw) return "draw";
  if (v == value::Unknown) return "unknown";
  return std::string(value::is_win(v) ? "win in " : "loss in ") + std::to_string(value::plies(v)) + " plies";
}

// The tables a verification reads: every material one move leads to, in both orientations,
// through their compressed blocks (KRPvKR: 1.0 GB instead of 1.8 read whole, no slower),
// and the verified table whole in memory, looked up without locks. A process of
// `verify --mpi` holds in memory only the entries it checks, of both sides (with the king
// pair outermost in the index, most of their successors are among them), and reads the rest
// through the file's blocks: P processes divide the verified table's memory.
class SuccessorTables {
 public:
  // `indexer`: the verified material's, in its stored orientation; it outlives the tables.
  static Expected<SuccessorTables> load(const Tablebase& tb, const Indexer& indexer, std::optional<OwnedRange> owned) {
    const Material& material = indexer.material();
    SuccessorTables out;
    out.indexer_ = &indexer;
    // The table asked about first: a damaged or foreign file is what to report, not a
    // sub-table missing beside it.
    if (!owned) {
      Expected<std::shared_ptr<const Tablebase::LookupTable>> t = tb.lookup_table(material, Tablebase::Reading::Whole);
      if (!t) return t.error();
      out.owned_.push_back(*t);
      out.whole_ = t->get();
    } else {
      Expected<std::unique_ptr<TableFile>> file = open_table(tb.table_path(material), material, tb.rules());
      if (!file) return file.error();
      for (int side = 0; side < 2; ++side) {
        Expected<ValueArray> part = (*file)->load_side_values(side, owned->first, owned->end);
        if (!part) return part.error();
        out.in_memory_[side] = std::move(*part);
      }
      out.file_ = std::move(*file);
      out.range_ = *owned;
    }
    for (const Material& m : material_successors(material, tb.rules())) {
      Expected<std::shared_ptr<const Tablebase::LookupTable>> t = tb.lookup_table(m, Tablebase::Reading::ThroughBlocks);
      if (!t) return t.error();
      out.owned_.push_back(*t);
      const Material stored = (*t)->material();
      out.routes_.push_back({stored, t->get(), false});
      if (!(stored.colors_swapped() == stored)) out.routes_.push_back({stored.colors_swapped(), t->get(), true});
    }
    return out;
  }

  // The stored value of a legal position of the verified material; Corruption for a bad
  // block read through the file.
  Expected<ValueCode> verified_value(const Position& pos) const {
    if (whole_) return whole_->value_code(pos, false);
    if (!indexer_->kings_indexable(pos)) return value::Illegal;
    const int side = pos.side_to_move();
    const std::uint64_t i = indexer_->index(pos);
    if (i >= range_.first && i < range_.end) return in_memory_[side][i - range_.first];
    return file_->value(side, i);
  }

  // The stored value of a legal position of one of the materials; Internal for another
  // material (material_successors and the move generator would disagree), Corruption for a
  // bad block of a table read through its blocks.
  Expected<ValueCode> value_code(const Position& pos) const {
    const Material m = Material::of(pos);
    if (m == indexer_->material()) return verified_value(pos);
    if (m == indexer_->material().colors_swapped()) return verified_value(color_flipped(pos));
    for (const Route& r : routes_)
      if (r.material == m) return r.table->value_code(pos, r.flipped);
    return error(ErrorKind::Internal, "no table read for the successor " + to_fen(pos));
  }
  // The same for the position after move `m` (`undo` its record) of the verified material:
  // a move that kept the material stays in it, found without a search.
  Expected<ValueCode> value_after(const Position& after, Move m, const UndoRecord& undo) const {
    if (kept_material(m, undo)) return verified_value(after);
    return value_code(after);
  }

 private:
  struct Route {
    Material material;
    const Tablebase::LookupTable* table = nullptr;
    bool flipped = false;  // positions of this material are looked up with colours exchanged
  };
  const Indexer* indexer_ = nullptr;
  std::vector<std::shared_ptr<const Tablebase::LookupTable>> owned_;
  std::vector<Route> routes_;  // every successor material in both orientations
  // The verified table: whole, or (verify --mpi) entries [range_.first, range_.end) of both
  // sides in memory and the others through the file.
  const Tablebase::LookupTable* whole_ = nullptr;
  std::unique_ptr<TableFile> file_;
  OwnedRange range_{0, 0};
  std::array<ValueArray, 2> in_memory_;
};

// The value of `pos` from its successors' stored values, or an error.
template <class Rules>
Expected<ValueCode> expected_value(const Position& pos, const Rules& rules, const SuccessorTables& tables) {
  MoveList moves;
  generate_legal(pos, rules, moves);
  if (moves.empty()) return king_in_check(pos, pos.side_to_move(), rules) ? value::mate_in_plies(0) : value::Draw;
  int shortest_win = INT_MAX, longest_loss = -1;
  bool draw = false;
  for (Move m : moves) {
    Position after = pos;
    UndoRecord undo;
    make_move(after, m, undo, rules);
    const Expected<ValueCode> s = tables.value_after(after, m, undo);
    if (!s) return s.error();
    ValueCode v = value_through_move(*s);
    if (value::is_win(v))
      shortest_win = std::min(shortest_win, value::plies(v));
    else if (value::is_loss(v))
      longest_loss = std::max(longest_loss, value::plies(v));
    else if (v == value::Draw)
      draw = true;
    else
      return error(ErrorKind::Corruption, "successor " + to_fen(after) + " has no value (" + describe(*s) + ")");
  }
  if (shortest_win != INT_MAX) return value::mate_in_plies(shortest_win);
  if (draw) return value::Draw;
  return value::mate_in_plies(longest_loss);
}

}  // namespace

namespace {

// The report of the whole table from every process's: counts added, examples in rank
// order up to ten, the first failure of the lowest process that had one.
Expected<VerifyReport> combine(Partition& partition, const Material& material, Expected<VerifyReport> mine) {
  nlohmann::json part = mine ? nlohmann::json{{"checked", mine->checked},
                                              {"inconsistent", mine->inconsistent},
                                              {"examples", mine->examples}}
                             : nlohmann::json{{"error", mine.error_message()}, {"kind", int(mine.error_kind())}};
  Expected<std::vector<std::string>> all = partition.all_gather(part.dump());
  if (!all) return with_context("verifying " + material.name() + ": ", all.error());
  VerifyReport report;
  for (const std::string& text : *all) {
    const nlohmann::json j = nlohmann::json::parse(text);
    if (j.contains("error")) return error(ErrorKind(j["kind"].get<int>()), j["error"].get<std::string>());
    report.checked += j["checked"].get<std::uint64_t>();
    report.inconsistent += j["inconsistent"].get<std::uint64_t>();
    for (const auto& e : j["examples"])
      if (report.examples.size() < 10) report.examples.push_back(e.get<std::string>());
  }
  return report;
}

// Entries checked between two progress reports (per side).
constexpr std::uint64_t ProgressSlice = std::uint64_t(1) << 24;

// verify_table() of the entries `range` (none: all of them) of both sides.
Expected<VerifyReport> verify_range(const Material& material, const RuleSet& rules, const std::string& tables_dir,
                                    int threads, std::optional<OwnedRange> part, const VerifyProgress& on_progress) {
  Tablebase tb = Tablebase::open(tables_dir, rules);
  const Indexer indexer(material, rules);
  Expected<SuccessorTables> tables = SuccessorTables::load(tb, indexer, part);
  if (!tables) return tables.error();
  const OwnedRange range = part ? *part : OwnedRange{0, indexer.size()};
  if (threads <= 0) threads = omp_get_max_threads();
  VerifyReport report;
  std::mutex mutex;
  std::optional<Error> failure;  // the first probe that failed
  rules.visit([&](const auto& r) {
    for (int side = 0; side < 2; ++side) {
      for (std::uint64_t slice = range.first; slice < range.end; slice += ProgressSlice) {
        const std::int64_t first = std::int64_t(slice), end = std::int64_t(std::min(range.end, slice + ProgressSlice));
        std::uint64_t bad = 0;
#pragma omp parallel num_threads(threads) reduction(+ : bad)
        {
          Indexer::Cursor cursor;  // each thread's runs of consecutive entries
#pragma omp for schedule(dynamic, 4096)
          for (std::int64_t i = first; i < end; ++i) {
            Position pos;
            bool is_position = indexer.decode(std::uint64_t(i), Color(side), pos, cursor) && is_legal_position(pos, r);
            if (!is_position) continue;  // illegal entries may hold anything (SPEC 6)
            const Expected<ValueCode> stored = tables->verified_value(pos);
            const Expected<ValueCode> want = stored ? expected_value(pos, r, *tables) : stored;
            if (!want) {
              std::lock_guard lock(mutex);
              if (!failure) failure = want.error();
              continue;
            }
            if (*stored == *want) continue;
            ++bad;
            std::lock_guard lock(mutex);
            if (report.examples.size() < 10)
              report.examples.push_back(to_fen(pos) + ": stored " + describe(*stored) + ", expected " +
                                        describe(*want));
          }
        }
        report.inconsistent += bad;
        report.checked += std::uint64_t(end - first);
        if (on_progress) on_progress(report.checked, 2 * range.size());
      }
    }
  });
  if (failure) return with_context("verifying " + material.name() + ": ", *failure);
  return report;
}

}  // namespace

Expected<VerifyReport> verify_table(const Material& asked, const RuleSet& rules, const std::string& tables_dir,
                                    int threads, Partition* partition, const VerifyProgress& on_progress) {
  // One file holds both orientations: its entries are checked as it stores them.
  const Material material = asked.canonical_orientation();
  if (!partition) return verify_range(material, rules, tables_dir, threads, std::nullopt, on_progress);
  // Each process checks the part of the entries it would own in a solve.
  const VerifyPart mine{partition->rank(), partition->ranks()};
  return combine(*partition, material, verify_table_part(material, rules, tables_dir, threads, mine, on_progress));
}

Expected<VerifyReport> verify_table_part(const Material& asked, const RuleSet& rules, const std::string& tables_dir,
                                         int threads, VerifyPart part, const VerifyProgress& on_progress) {
  if (part.parts < 1 || part.index < 0 || part.index >= part.parts)
    return error(ErrorKind::InvalidArgument, "verifying " + asked.name() + ": no part " +
                                                 std::to_string(part.index + 1) + " of " + std::to_string(part.parts));
  const Material material = asked.canonical_orientation();
  const OwnedRange range = owned_range(Indexer(material, rules).size(), part.index, part.parts);
  return verify_range(material, rules, tables_dir, threads, range, on_progress);
}

}  // namespace feerie

#include "probe/tablebase.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <filesystem>
#include <map>
#include <mutex>
#include <shared_mutex>

#include "probe/header_check.h"
#include "probe/indexer.h"
#include "probe/table_file.h"
#include "rules/fen.h"
#include "rules/movegen.h"

namespace feerie {

int ProbeResult::mate_in() const {
  if (wdl == Wdl::Draw) return 0;
  int moves = (dtm_plies + 1) / 2;
  return wdl == Wdl::Win ? moves : -moves;
}

ProbeResult ProbeResult::of(ValueCode v) {
  ProbeResult r;
  if (value::is_mate(v)) {
    r.wdl = value::is_win(v) ? Wdl::Win : Wdl::Loss;
    r.dtm_plies = value::plies(v);
  }
  return r;
}

ValueCode value_through_move(ValueCode successor) {
  if (!value::is_mate(successor)) return successor;
  return value::mate_in_plies(value::plies(successor) + 1);
}

namespace {

struct LoadedTable {
  Indexer indexer;
  std::unique_ptr<TableFile> file;
  std::array<ValueArray, 2> values;  // filled by preload(): a byte per entry when the values fit
  bool loaded = false;
};

}  // namespace

struct Tablebase::Impl {
  Impl(std::string dir, RuleSet r) : directory(std::move(dir)), rules(std::move(r)) {}
  std::string directory;
  RuleSet rules;
  // Tells this tablebase apart in the threads' caches of recent tables (never reused, unlike
  // an address).
  const std::uint64_t id = next_id.fetch_add(1) + 1;
  mutable std::shared_mutex mutex;
  mutable std::map<Material, std::shared_ptr<const LoadedTable>> tables;
  // Tables replaced in `tables` (a second opening of one table by two threads at once, a
  // table read whole replacing its lazily read self, a table whose file was replaced on
  // disk): kept for the life of the tablebase, since a thread's cache of recent tables may
  // still point at them (so a file replaced keeps its disk space until the tablebase closes).
  mutable std::vector<std::shared_ptr<const LoadedTable>> replaced;

  Expected<std::shared_ptr<const LoadedTable>> table(const Material& material, bool load_all) const;
  // table(material, false) through this thread's cache of its recent tables: no lock and
  // no shared pointer copied (both are counters every probing thread would write).
  Expected<const LoadedTable*> recent_table(const Material& material) const;

  static inline std::atomic<std::uint64_t> next_id{0};
};

namespace {

// The tables a thread probed last, in any tablebase: a few, since a probe's moves lead to
// the tables of the captures too.
struct RecentTable {
  std::uint64_t tablebase = 0;  // Impl::id; 0: empty
  Material material;
  const LoadedTable* table = nullptr;
};
thread_local std::array<RecentTable, 4> recent_tables;
thread_local unsigned next_recent = 0;

}  // namespace

Expected<const LoadedTable*> Tablebase::Impl::recent_table(const Material& material) const {
  for (const RecentTable& r : recent_tables)
    if (r.tablebase == id && r.material == material && !r.table->file->replaced_on_disk()) return r.table;
  Expected<std::shared_ptr<const LoadedTable>> t = table(material, false);
  if (!t) return t.error();
  // The table stays alive with this tablebase (in `tables` or `replaced`), which outlives
  // every probe made through it.
  recent_tables[next_recent++ % recent_tables.size()] = {id, material, t->get()};
  return t->get();
}

Tablebase Tablebase::open(const std::string& directory, const RuleSet& rules) {
  return Tablebase(std::make_shared<Impl>(directory, rules));
}

const RuleSet& Tablebase::rules() const { return impl_->rules; }

const std::string& Tablebase::directory() const { return impl_->directory; }

std::string Tablebase::table_path(const Material& material) const {
  return table_file_path(impl_->directory, impl_->rules.name(), material.canonical_orientation().name());
}

Expected<std::vector<Material>> Tablebase::tables_on_disk() const {
  namespace fs = std::filesystem;
  const fs::path dir = condition_directory(impl_->directory, impl_->rules.name());
  std::vector<Material> out;
  std::error_code ec;
  if (Status s = require_condition_directory(dir.string()); !s) return s.error();
  // No directory is no table; one that cannot be looked at (a loop of links, no
  // permission) fails to be listed below, as a probe of it fails (it was taken for no
  // table).
  if (!fs::exists(dir, ec) && !ec) return out;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() != TableExtension) continue;
    // Only the files a probe would open: the material's own name ("kqvk.ftb" is not read
    // for KQvK), a regular file or a link to one (not a directory, not a dangling link).
    const std::string stem = it->path().stem().string();
    Expected<Material> m = Material::parse(stem);
    std::error_code kind;
    if (m && m->is_canonical_orientation() && m->name() == stem && fs::is_regular_file(it->path(), kind))
      out.push_back(*m);
  }
  if (ec) return error(ErrorKind::IOError, "cannot read the tables directory '" + dir.string() + "': " + ec.message());
  std::sort(out.begin(), out.end(), [](const Material& a, const Material& b) { return a.name() < b.name(); });
  return out;
}

Expected<std::shared_ptr<const LoadedTable>> Tablebase::Impl::table(const Material& material, bool load_all) const {
  {
    std::shared_lock lock(mutex);
    auto it = tables.find(material);
    // A table whose file was replaced on disk (regenerated, repaired) is opened again:
    // a long-lived prober (serve, a program's handle) once answered from the old file
    // until it was restarted, its values or its corruption.
    if (it != tables.end() && (!load_all || it->second->loaded) && !it->second->file->replaced_on_disk())
      return it->second;
  }
  std::string path = table_file_path(directory, rules.name(), material.name());
  Expected<std::unique_ptr<TableFile>> file = open_table(path, material, rules);
  if (!file) return file.error();
  auto loaded = std::make_shared<LoadedTable>(LoadedTable{Indexer(material, rules), std::move(*file), {}, false});
  if (load_all) {
    for (int side = 0; side < 2; ++side) {
      Expected<ValueArray> values = loaded->file->load_side_values(side);
      if (!values) return values.error();
      loaded->values[side] = std::move(*values);
    }
    loaded->loaded = true;
  }
  std::unique_lock lock(mutex);
  std::shared_ptr<const LoadedTable>& slot = tables[material];
  if (slot) {
    // A file replaced on disk is not read again: its blocks go (its descriptor stays open
    // for the probes that may still be in it).
    if (slot->file->replaced_on_disk()) slot->file->release_cache();
    replaced.push_back(std::move(slot));
  }
  slot = loaded;
  return std::shared_ptr<const LoadedTable>(loaded);
}

Status Tablebase::preload(const Material& material) const {
  Expected<std::shared_ptr<const LoadedTable>> t = impl_->table(material.canonical_orientation(), true);
  if (!t) return t.error();
  return Ok{};
}

Expected<std::shared_ptr<const Tablebase::LookupTable>> Tablebase::lookup_table(const Material& material,
                                                                                Reading reading) const {
  Expected<std::shared_ptr<const LoadedTable>> t =
      impl_->table(material.canonical_orientation(), reading == Reading::Whole);
  if (!t) return t.error();
  auto view = std::make_shared<LookupTable>();
  view->table_ = *t;
  view->raw_ = t->get();
  // A table another caller read whole is looked up in memory whatever was asked.
  view->reading_ = (*t)->loaded ? Reading::Whole : Reading::ThroughBlocks;
  return std::shared_ptr<const LookupTable>(view);
}

const Material& Tablebase::LookupTable::material() const {
  return static_cast<const LoadedTable*>(raw_)->indexer.material();
}

Expected<ValueCode> Tablebase::LookupTable::value_code(const Position& pos) const {
  const LoadedTable& table = *static_cast<const LoadedTable*>(raw_);
  return value_code(pos, !(Material::of(pos) == table.indexer.material()));
}

Expected<ValueCode> Tablebase::LookupTable::value_code(const Position& pos, bool flipped) const {
  const LoadedTable& table = *static_cast<const LoadedTable*>(raw_);
  if (!table.indexer.kings_indexable(pos)) return value::Illegal;  // never an index out of range
  if (flipped) return value_code(color_flipped(pos), false);
  const int side = pos.side_to_move();
  const std::uint64_t index = table.indexer.index(pos);
  if (reading_ == Reading::Whole) return table.values[side][index];
  return table.file->value(side, index);
}

Expected<ValueCode> Tablebase::value_code(const Position& pos) const {
  Position scratch;
  const StoredOrientation stored = stored_orientation(pos, scratch);
  const Position* probe_pos = stored.position;
  Expected<const LoadedTable*> t = impl_->recent_table(stored.material);
  if (!t) return t.error();
  const LoadedTable& table = **t;
  if (!table.indexer.can_index(*probe_pos)) return value::Illegal;  // kings touching where they may not
  std::uint64_t index = table.indexer.index(*probe_pos);
  int side = probe_pos->side_to_move();
  if (table.loaded) return table.values[side][index];
  return table.file->value(side, index);
}

Expected<ValueCode> Tablebase::decided_value_code(const Position& pos) const {
  Expected<ValueCode> v = value_code(pos);
  if (!v) return v.error();
  if (!value::is_mate(*v) && *v != value::Draw)
    return error(ErrorKind::Corruption, "table " + table_path(Material::of(pos)) + " is corrupt: its entry for '" +
                                            to_fen(pos) + "' is not a value");
  return *v;
}

Expected<ProbeResult> Tablebase::probe(const Position& pos) const {
  if (Status s = check_position_legal(pos, impl_->rules); !s) return s.error();
  Expected<ValueCode> v = decided_value_code(pos);
  if (!v) return v.error();
  return ProbeResult::of(*v);
}

Expected<std::vector<MoveValue>> Tablebase::move_values(const Position& pos) const {
  if (Status s = check_position_legal(pos, impl_->rules); !s) return s.error();
  std::vector<MoveValue> out;
  for (const MoveResult& r : legal_moves_with_results(pos, impl_->rules)) {
    MoveValue mv{r.move, r.after};
    Expected<ValueCode> v = decided_value_code(mv.after);
    if (!v) return v.error();
    mv.value = value_through_move(*v);
    mv.checkmate = *v == value::mate_in_plies(0);
    if (*v == value::Draw) {
      MoveList replies;
      generate_legal(mv.after, impl_->rules, replies);
      mv.stalemate = replies.empty();
    }
    out.push_back(std::move(mv));
  }
  // Best first for the mover: the shortest win, then draws, then the longest loss.
  auto rank = [](ValueCode v) {
    if (value::is_win(v)) return value::plies(v) - value::MaxPlies - 2;
    if (value::is_loss(v)) return value::MaxPlies + 1 - value::plies(v);
    return 0;
  };
  std::sort(out.begin(), out.end(), [&](const MoveValue& a, const MoveValue& b) {
    if (rank(a.value) != rank(b.value)) return rank(a.value) < rank(b.value);
    return to_uci(a.move) < to_uci(b.move);
  });
  return out;
}

Expected<std::vector<Move>> Tablebase::best_moves(const Position& pos) const {
  Expected<std::vector<MoveValue>> all = move_values(pos);  // checks the position's legality first
  if (!all) return all.error();
  Expected<ValueCode> own = decided_value_code(pos);
  if (!own) return own.error();
  std::vector<Move> best;
  for (const MoveValue& mv : *all)
    if (mv.value == *own) best.push_back(mv.move);
  // A position with moves has the value of its best one: none keeping it is a table that
  // contradicts itself (or its sub-tables), not a position without a best move.
  if (best.empty() && !all->empty())
    return error(ErrorKind::Corruption, "no move keeps the value of '" + to_fen(pos) + "' in table " +
                                            table_path(Material::of(pos)) + " (the table or a sub-table is corrupt)");
  return best;  // by name: the moves of one value are sorted so
}

Expected<std::vector<Move>> Tablebase::principal_variation(const Position& start, int max_plies) const {
  std::vector<Move> pv;
  Position pos = start;
  // The positions after its moves are legal, as the moves are.
  if (Status s = check_position_legal(pos, impl_->rules); !s) return s.error();
  for (int ply = 0; ply < max_plies; ++ply) {
    Expected<ValueCode> v = decided_value_code(pos);
    if (!v) return v.error();
    if (!value::is_mate(*v) || value::plies(*v) == 0) break;
    Expected<std::vector<Move>> best = best_moves(pos);
    if (!best) return best.error();
    if (best->empty())  // a win or loss in some plies without a legal move
      return error(ErrorKind::Corruption, "table " + table_path(Material::of(pos)) + " is corrupt: '" + to_fen(pos) +
                                              "' has no legal move, yet its value is a mate to come");
    Move m = best->front();
    pv.push_back(m);
    UndoRecord undo;
    make_move(pos, m, undo, impl_->rules);
  }
  return pv;
}

}  // namespace feerie

#include "probe/help_tablebase.h"

#include "probe/header_check.h"
#include "probe/table_file.h"
#include "rules/fen.h"

namespace feerie {

std::string solution_count_text(int count) {
  return count >= HelpSolutionsCap ? std::to_string(HelpSolutionsCap) + " or more" : std::to_string(count);
}

std::string solutions_text(int count) { return solution_count_text(count) + (count == 1 ? " solution" : " solutions"); }

std::string HelpEntry::problem_name(StipulationKind kind) const {
  if (!value::is_mate(plies)) return "-";
  const int p = value::plies(plies);
  if (kind == StipulationKind::Selfmate) return p % 2 ? "" : "s#" + std::to_string(p / 2);
  return "h#" + std::to_string(p / 2) + (p % 2 ? ".5" : "");
}

HelpTablebase::HelpTablebase(RuleSet rules, std::string directory, StipulationKind kind, HelpReading reading)
    : rules_(std::move(rules)),
      directory_(std::move(directory)),
      kind_(kind),
      reading_(reading),
      mutex_(std::make_unique<std::mutex>()) {}
HelpTablebase::HelpTablebase(HelpTablebase&&) noexcept = default;
HelpTablebase::~HelpTablebase() = default;

void HelpTablebase::add(HelpTable table) {
  const Material material = table.material;
  auto loaded = std::make_unique<Loaded>();
  loaded->indexer = std::make_unique<Indexer>(material, rules_);
  loaded->table = std::move(table);
  loaded->whole = {true, true};
  std::lock_guard lock(*mutex_);
  std::unique_ptr<Loaded>& slot = tables_[material];
  if (slot) replaced_.push_back(std::move(slot));
  slot = std::move(loaded);
}

namespace {

// A file's code as an entry, or Corruption for a code no solver writes.
Expected<HelpEntry> checked_entry(ValueCode code, const TableFile& file) {
  const HelpEntry e = help_entry(code);
  if (e.plies != value::Illegal && e.plies != value::Draw && !value::is_mate(e.plies))
    return error(ErrorKind::Corruption, "table '" + file.path() + "' holds an entry that is not a mate value");
  return e;
}

// The codes of one opened file (one colour mated) into `table`.
Status read_help_file(const TableFile& file, Color mated, HelpTable& table) {
  for (int side = 0; side < 2; ++side) {
    Expected<std::vector<ValueCode>> codes = file.load_side(side);
    if (!codes) return codes.error();
    std::vector<ValueCode>& plies = table.plies[mated][std::size_t(side)];
    std::vector<std::uint8_t>& solutions = table.solutions[mated][std::size_t(side)];
    plies.resize(codes->size());
    solutions.resize(codes->size());
    for (std::size_t i = 0; i < codes->size(); ++i) {
      Expected<HelpEntry> e = checked_entry((*codes)[i], file);
      if (!e) return e.error();
      plies[i] = e->plies;
      solutions[i] = std::uint8_t(e->solutions);
    }
  }
  return Ok{};
}

}  // namespace

Expected<const HelpTable*> HelpTablebase::load(const Material& material) const {
  Expected<const Loaded*> loaded = load_record(material, {true, true}, true);
  if (!loaded) return loaded.error();
  return &(*loaded)->table;
}

Expected<const HelpTable*> HelpTablebase::load(const Material& material, Color mated) const {
  std::array<bool, 2> wanted{};
  wanted[mated] = true;
  Expected<const Loaded*> loaded = load_record(material, wanted, true);
  if (!loaded) return loaded.error();
  return &(*loaded)->table;
}

std::unique_ptr<HelpTablebase::Loaded> HelpTablebase::record_on_disk(const Material& material) const {
  auto record = std::make_unique<Loaded>();
  record->indexer = std::make_unique<Indexer>(material, rules_);
  record->table.material = material;
  return record;
}

Expected<const HelpTablebase::Loaded*> HelpTablebase::load_record(const Material& material, std::array<bool, 2> wanted,
                                                                  bool whole, std::array<bool, 2>* is_whole,
                                                                  std::array<const TableFile*, 2>* files) const {
  whole = whole || reading_ == HelpReading::Whole;
  std::lock_guard lock(*mutex_);
  auto it = tables_.find(material);
  if (it == tables_.end()) {
    if (directory_.empty())
      return error(ErrorKind::NotFound, "no " + Stipulation::of(kind_, BLACK).header_name().substr(0, 2) + " table " +
                                            material.name() + " under " + rules_.name());
    it = tables_.emplace(material, record_on_disk(material)).first;
  }
  // A file of the record replaced on disk (regenerated, repaired, removed): the record is
  // made again from the files there now, values read whole included (they were answered
  // from for ever). The old one stays for the readers that may still be in it.
  if (Loaded& old = *it->second; (old.files[WHITE] && old.files[WHITE]->replaced_on_disk()) ||
                                 (old.files[BLACK] && old.files[BLACK]->replaced_on_disk())) {
    for (const std::unique_ptr<TableFile>& file : old.files)
      if (file) file->release_cache();
    replaced_.push_back(std::move(it->second));
    it->second = record_on_disk(material);
  }
  Loaded& record = *it->second;
  // Only the files asked for: a probe with Black mated needs no file of White mated (it
  // once failed for want of one, or for a damaged one).
  for (Color mated : {WHITE, BLACK}) {
    if (!wanted[mated] || record.whole[mated]) continue;
    if (!record.files[mated]) {
      const Stipulation stipulation = Stipulation::of(kind_, mated);
      const std::string path = table_file_path(directory_, rules_.name(), material.name(), stipulation);
      Expected<std::unique_ptr<TableFile>> file = open_table(path, material, rules_, stipulation);
      if (!file) return file.error();
      record.files[mated] = std::move(*file);
    }
    if (!whole) continue;
    // Read aside and then moved in: a damaged file leaves the record as it was. No one
    // reads this colour's values from `table` before `whole[mated]` says they are there.
    HelpTable read;
    if (Status s = read_help_file(*record.files[mated], mated, read); !s) return s.error();
    record.table.plies[mated] = std::move(read.plies[mated]);
    record.table.solutions[mated] = std::move(read.solutions[mated]);
    record.whole[mated] = true;
  }
  if (is_whole) *is_whole = record.whole;
  if (files)
    for (Color mated : {WHITE, BLACK}) (*files)[mated] = record.files[mated].get();
  return &record;
}

Expected<HelpEntry> HelpTablebase::entry(const Position& pos, Color mated) const {
  Position scratch;
  const StoredOrientation stored = stored_orientation(pos, scratch);
  if (stored.flipped) mated = ~mated;
  std::array<bool, 2> wanted{}, whole{};
  std::array<const TableFile*, 2> files{};
  wanted[mated] = true;
  Expected<const Loaded*> loaded = load_record(stored.material, wanted, false, &whole, &files);
  if (!loaded) return loaded.error();
  const Indexer& indexer = *(*loaded)->indexer;
  if (!indexer.can_index(*stored.position)) return HelpEntry{};
  const std::uint64_t i = indexer.index(*stored.position);
  const int side = stored.position->side_to_move();
  if (whole[mated]) {
    const HelpTable& table = (*loaded)->table;
    return HelpEntry{table.plies[mated][side][i], table.solutions[mated][side][i]};
  }
  const TableFile& file = *files[mated];
  Expected<ValueCode> code = file.value(side, i);
  if (!code) return code.error();
  return checked_entry(*code, file);
}

Status write_help_table(const std::string& directory, const RuleSet& rules, const HelpTable& table,
                        StipulationKind kind) {
  const Indexer indexer(table.material, rules);
  for (Color mated : {WHITE, BLACK}) {
    TableHeader header;
    header.condition = rules.name();
    header.material = table.material.name();
    header.index_layout = indexer.layout();
    header.entries = indexer.size();
    header.generator = GeneratorName;
    header.stipulation = Stipulation::of(kind, mated);
    std::array<std::vector<ValueCode>, 2> codes;
    for (int side = 0; side < 2; ++side) {
      const std::vector<ValueCode>& plies = table.plies[mated][std::size_t(side)];
      SideStatistics& stats = header.stats[std::size_t(side)];
      codes[std::size_t(side)].resize(plies.size());
      for (std::size_t i = 0; i < plies.size(); ++i) {
        const ValueCode v = plies[i];
        if (value::is_mate(v) && value::plies(v) > HelpMaxPlies)
          return error(ErrorKind::NotSupported, "a mate of " + std::to_string(value::plies(v)) + " plies in " +
                                                    table.material.name() + ": table files hold up to " +
                                                    std::to_string(HelpMaxPlies));
        codes[std::size_t(side)][i] = help_code({v, table.solutions[mated][std::size_t(side)][i]});
        if (v == value::Illegal) continue;
        ++stats.positions;
        if (!value::is_mate(v)) {
          ++stats.draw;
        } else {
          ++stats.win;
          if (value::plies(v) > stats.longest_mate_plies) {
            Position pos;
            indexer.decode(i, Color(side), pos);
            stats.longest_mate_plies = value::plies(v);
            stats.longest_mate_fen = to_fen(pos);
          }
        }
      }
    }
    const std::string path = table_file_path(directory, rules.name(), table.material.name(), header.stipulation);
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
    if (ec) return error(ErrorKind::IOError, "cannot create the directory of '" + path + "': " + ec.message());
    if (Status s = write_table(path, header, codes); !s) return s;
  }
  return Ok{};
}

}  // namespace feerie

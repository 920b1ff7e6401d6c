#include "probe/help_tablebase.h"

#include "probe/header_check.h"
#include "probe/table_file.h"
#include "rules/fen.h"

namespace feerie {

std::string HelpEntry::problem_name(StipulationKind kind) const {
  if (!value::is_mate(plies)) return "-";
  const int p = value::plies(plies);
  if (kind == StipulationKind::Selfmate) return p % 2 ? "" : "s#" + std::to_string(p / 2);
  return "h#" + std::to_string(p / 2) + (p % 2 ? ".5" : "");
}

HelpTablebase::HelpTablebase(RuleSet rules, std::string directory, StipulationKind kind)
    : rules_(std::move(rules)), directory_(std::move(directory)), kind_(kind), mutex_(std::make_unique<std::mutex>()) {}
HelpTablebase::HelpTablebase(HelpTablebase&&) noexcept = default;
HelpTablebase::~HelpTablebase() = default;

void HelpTablebase::add(HelpTable table) {
  const Material material = table.material;
  auto loaded = std::make_unique<Loaded>(Loaded{std::make_unique<Indexer>(material, rules_), std::move(table)});
  std::lock_guard lock(*mutex_);
  tables_[material] = std::move(loaded);
}

namespace {

// The codes of one file (one colour mated) into `table`.
Status read_help_file(const std::string& path, const Material& material, const RuleSet& rules,
                      const Stipulation& stipulation, HelpTable& table) {
  const Color mated = stipulation.mated;
  Expected<std::unique_ptr<TableFile>> file = open_table(path, material, rules, stipulation);
  if (!file) return file.error();
  for (int side = 0; side < 2; ++side) {
    Expected<std::vector<ValueCode>> codes = (*file)->load_side(side);
    if (!codes) return codes.error();
    std::vector<ValueCode>& plies = table.plies[mated][std::size_t(side)];
    std::vector<std::uint8_t>& solutions = table.solutions[mated][std::size_t(side)];
    plies.resize(codes->size());
    solutions.resize(codes->size());
    for (std::size_t i = 0; i < codes->size(); ++i) {
      const HelpEntry e = help_entry((*codes)[i]);
      if (e.plies != value::Illegal && e.plies != value::Draw && !value::is_mate(e.plies))
        return error(ErrorKind::Corruption, "table '" + path + "' holds an entry that is not a mate value");
      plies[i] = e.plies;
      solutions[i] = std::uint8_t(e.solutions);
    }
  }
  return Ok{};
}

}  // namespace

Expected<const HelpTable*> HelpTablebase::load(const Material& material) const {
  Expected<const Loaded*> loaded = load_record(material);
  if (!loaded) return loaded.error();
  return &(*loaded)->table;
}

Expected<const HelpTablebase::Loaded*> HelpTablebase::load_record(const Material& material) const {
  std::lock_guard lock(*mutex_);
  if (auto it = tables_.find(material); it != tables_.end()) return it->second.get();
  if (directory_.empty())
    return error(ErrorKind::NotFound, "no " + Stipulation::of(kind_, BLACK).header_name().substr(0, 2) + " table " +
                                          material.name() + " under " + rules_.name());
  auto loaded = std::make_unique<Loaded>();
  loaded->indexer = std::make_unique<Indexer>(material, rules_);
  loaded->table.material = material;
  for (Color mated : {WHITE, BLACK}) {
    const Stipulation stipulation = Stipulation::of(kind_, mated);
    const std::string path = table_file_path(directory_, rules_.name(), material.name(), stipulation);
    if (Status s = read_help_file(path, material, rules_, stipulation, loaded->table); !s) return s.error();
  }
  const Loaded* out = loaded.get();
  tables_[material] = std::move(loaded);
  return out;
}

Expected<HelpEntry> HelpTablebase::entry(const Position& pos, Color mated) const {
  Position scratch;
  const StoredOrientation stored = stored_orientation(pos, scratch);
  if (stored.flipped) mated = ~mated;
  Expected<const Loaded*> loaded = load_record(stored.material);
  if (!loaded) return loaded.error();
  const Indexer& indexer = *(*loaded)->indexer;
  const HelpTable& table = (*loaded)->table;
  if (!indexer.can_index(*stored.position)) return HelpEntry{};
  const std::uint64_t i = indexer.index(*stored.position);
  const int side = stored.position->side_to_move();
  return HelpEntry{table.plies[mated][side][i], table.solutions[mated][side][i]};
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

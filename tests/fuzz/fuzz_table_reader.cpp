// libFuzzer target for the table reader (docs/testing.md, "Fuzzing"). The input is a table file: it is written
// where the KQvK table of orthodox chess would be, and read the way users read tables: open_table() (prefix, header
// checksum, the Boost header, the layout checks), check_blocks(), value() at fixed and input-dependent indices, and
// Tablebase probes and load. Every failure must come back as an error value: a crash, a sanitizer report, a leak or
// an allocation beyond libFuzzer's -malloc_limit_mb is a finding.
#include <unistd.h>
#include <xxhash.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "probe/header_check.h"
#include "probe/tablebase.h"
#include "rules/fen.h"

namespace {

using namespace feerie;
namespace fs = std::filesystem;

// Prefix layout (docs/format.md): magic (8 bytes), version (u32), header length (u32), XXH64 of the header (u64).
constexpr std::size_t PrefixSize = 24;
constexpr std::size_t HeaderLengthAt = 12;
constexpr std::size_t HeaderSumAt = 16;

// One directory per process, so that parallel fuzzing jobs never share a file; removed at exit.
struct Scratch {
  fs::path root;
  fs::path table;  // <root>/orthodox/KQvK.ftb, overwritten by every input

  Scratch() {
    std::string pattern = (fs::temp_directory_path() / "feerie-fuzz-table-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) std::abort();
    root = pattern;
    fs::create_directories(root / "orthodox");
    table = root / "orthodox" / "KQvK.ftb";
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
};

Scratch& scratch() {
  static Scratch s;
  return s;
}

struct Fixed {
  Material kqvk = *Material::parse("KQvK");
  RuleSet rules = RuleSet::orthodox();
  // White to move, Black to move, and KvKQ (probed through KQvK with the colours exchanged).
  std::vector<Position> positions = {*parse_fen("8/8/8/8/8/2k5/8/KQ6 w - - 0 1"),
                                     *parse_fen("8/8/8/8/8/2k5/8/KQ6 b - - 0 1"),
                                     *parse_fen("8/8/8/8/8/2K5/8/kq6 b - - 0 1")};
};

const Fixed& fixed() {
  static const Fixed f;
  return f;
}

void write_file(const fs::path& path, const std::uint8_t* data, std::size_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  if (!out) std::abort();  // the fuzzer's own scratch disk failed: not a finding about the reader
}

std::uint64_t get_le(const std::uint8_t* p, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= std::uint64_t(p[i]) << (8 * i);
  return v;
}

// The reader must turn every one of these into a value or an error. Results are not compared with anything: a bad
// table may hold any codes, and whether it is accepted is the reader's decision.
void read_table(const std::uint8_t* data, std::size_t size) {
  const Fixed& f = fixed();
  const std::string path = scratch().table.string();
  Expected<std::unique_ptr<TableFile>> file = open_table(path, f.kqvk, f.rules);
  if (file) {
    const TableFile& t = **file;
    (void)t.check_blocks();
    const std::uint64_t entries = t.header().entries;
    // The first and the last entry, the two just past the end (which must be refused), and a few that change with
    // every input (the input is the whole file, so no spare bytes can name them); side 2 does not exist.
    std::vector<std::uint64_t> indices = {0, entries - 1, entries, entries + 1};
    for (std::uint64_t seed = 1; seed <= 4; ++seed) indices.push_back(XXH64(data, size, seed) % (entries + 2));
    for (std::uint64_t index : indices)
      for (int side : {0, 1, 2}) (void)t.value(side, index);
  }
  // The prober opens the file itself, so it runs even when open_table() refused the file (and must refuse it too).
  Tablebase tb = Tablebase::open(scratch().root.string(), f.rules);
  for (const Position& pos : f.positions) {
    Expected<ProbeResult> r = tb.probe(pos);
    if (r) (void)r->mate_in();
  }
  // The two ways the generator reads the tables it depends on: through the blocks, and the
  // whole table in memory (TableFile::load_side_values).
  for (Tablebase::Reading reading : {Tablebase::Reading::ThroughBlocks, Tablebase::Reading::Whole}) {
    Expected<std::shared_ptr<const Tablebase::LookupTable>> table = tb.lookup_table(f.kqvk, reading);
    if (table)
      for (const Position& pos : f.positions) (void)(*table)->value_code(pos);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  write_file(scratch().table, data, size);
  read_table(data, size);

  // A header whose checksum does not match is refused before anything parses it, so mutated inputs would only ever
  // reach that one comparison. A crafted file (or a broken writer) carries a matching checksum, though: the same
  // input again with the checksum recomputed lets the header parser and the layout checks see the mutated bytes.
  if (size >= PrefixSize) {
    std::uint64_t header_length = get_le(data + HeaderLengthAt, 4);
    if (header_length <= size - PrefixSize) {
      std::vector<std::uint8_t> repaired(data, data + size);
      std::uint64_t sum = XXH64(data + PrefixSize, header_length, 0);
      for (int i = 0; i < 8; ++i) repaired[HeaderSumAt + i] = std::uint8_t(sum >> (8 * i));
      if (std::memcmp(repaired.data(), data, size) != 0) {
        write_file(scratch().table, repaired.data(), repaired.size());
        read_table(repaired.data(), repaired.size());
      }
    }
  }
  return 0;
}

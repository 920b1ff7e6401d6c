// libFuzzer target for the checkpoint reader (issue 27; docs/testing.md, "Fuzzing"). A checkpoint of the orthodox
// KQvK solve (the real values, at pass 5) is made once; each input becomes a file from it and is read the way a
// resumed `gen` reads one: load_checkpoint() (prefix, header checksum, the JSON header against the solve, every
// chunk's size, checksum and decompression), then, when it loads, resumed_values_disagree() (gen/resume_check.h)
// with the moves of sampled positions. The input's first byte says how the file is made:
//   0  the rest of the input is the whole file;
//   1  the rest is edits (3 bytes of offset, 1 byte xored there) of the checkpoint;
//   2  the same, then the file cut at an offset from the first 4 bytes;
//   3  the checkpoint with next_ply and max_plies from the input (as saved for that state), then edits.
// Each file is read as it is and again with its header and chunk checksums recomputed, as a crafted file would carry
// them, so that the mutated bytes reach the JSON parser, zstd and the value checks. Every failure must come back as
// an error value or a refusal: a crash, a sanitizer report, a leak or an allocation beyond libFuzzer's
// -malloc_limit_mb is a finding.
#include <unistd.h>
#include <xxhash.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gen/checkpoint.h"
#include "gen/generate.h"
#include "gen/resume_check.h"
#include "probe/table_file.h"
#include "probe/tablebase.h"

namespace {

using namespace feerie;
namespace fs = std::filesystem;

// Prefix layout (gen/checkpoint.h): magic (8 bytes), version (u32), header length (u32), XXH64 of the header (u64).
constexpr std::size_t PrefixSize = 24;

struct Fixed {
  fs::path root;
  std::string checkpoint;  // <root>/KQvK.ckpt, overwritten by every input
  RuleSet rules = RuleSet::orthodox();
  Indexer indexer{*Material::parse("KQvK"), RuleSet::orthodox()};
  std::vector<MemberValues> values;  // the solved KQvK
  std::string valid;                 // its checkpoint at pass 5

  Fixed() {
    std::string pattern = (fs::temp_directory_path() / "feerie-fuzz-checkpoint-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) std::abort();
    root = pattern;
    checkpoint = (root / "KQvK.ckpt").string();
    GenerateOptions options;
    options.tables_dir = (root / "tables").string();
    options.threads = 1;
    options.checkpoint_seconds = -1;
    if (!generate({*Material::parse("KQvK")}, rules, options)) std::abort();
    Expected<std::unique_ptr<TableFile>> table = TableFile::open((root / "tables" / "orthodox" / "KQvK.ftb").string());
    if (!table) std::abort();
    values.resize(1);
    for (int side = 0; side < 2; ++side) values[0][side] = ValueArray::of(*(*table)->load_side(side));
    valid = save({5, 19});
  }
  ~Fixed() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }

  std::string save(SolverState state) const {
    if (!save_checkpoint(checkpoint, rules.name(), {&indexer}, state, values, 1)) std::abort();
    std::ifstream in(checkpoint, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
};

const Fixed& fixed() {
  static const Fixed f;
  return f;
}

std::uint64_t get_le(const std::string& s, std::size_t at, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= std::uint64_t(std::uint8_t(s[at + i])) << (8 * i);
  return v;
}
void put_le(std::string& s, std::size_t at, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) s[at + i] = char(v >> (8 * i));
}

// `file` (a sound checkpoint) with another next_ply and max_plies in its header, its length and checksum redone: the
// file save_checkpoint() writes for that state, without writing it (an atomic write per input is slow).
std::string with_state(const std::string& file, int next_ply, int max_plies) {
  const std::uint64_t length = get_le(file, 12, 4);
  nlohmann::json header = nlohmann::json::parse(file.substr(PrefixSize, length));
  header["next_ply"] = next_ply;
  header["max_plies"] = max_plies;
  const std::string text = header.dump();
  std::string out = file.substr(0, PrefixSize) + text + file.substr(PrefixSize + length);
  put_le(out, 12, text.size(), 4);
  put_le(out, 16, XXH64(text.data(), text.size(), 0), 8);
  return out;
}

// The file with its header checksum and every chunk's checksum that can be found recomputed.
std::string repaired(std::string file) {
  if (file.size() < PrefixSize) return file;
  const std::uint64_t header = get_le(file, 12, 4);
  if (header > file.size() - PrefixSize) return file;
  put_le(file, 16, XXH64(file.data() + PrefixSize, header, 0), 8);
  for (std::size_t at = PrefixSize + header; at + 12 <= file.size();) {
    const std::uint64_t size = get_le(file, at, 4);
    if (size > file.size() - at - 12) break;
    put_le(file, at + 4, XXH64(file.data() + at + 12, size, 0), 8);
    at += 12 + size;
  }
  return file;
}

void read(const std::string& file) {
  const Fixed& f = fixed();
  {
    std::ofstream out(f.checkpoint, std::ios::binary | std::ios::trunc);
    out.write(file.data(), std::streamsize(file.size()));
    if (!out) std::abort();  // the fuzzer's own scratch disk failed: not a finding about the reader
  }
  std::vector<MemberValues> values(1);
  for (auto& side : values[0]) side = ValueArray(f.indexer.size());
  Expected<SolverState> state = load_checkpoint(f.checkpoint, f.rules.name(), {&f.indexer}, values);
  if (!state) return;
  // The solver's "lands inside" for a component of one material: the moves that keep it.
  auto inside = [&f](int, const Position& after, Move m, const UndoRecord& undo, std::pair<int, std::uint64_t>& out) {
    if (!kept_material(m, undo)) return false;
    out = {after.side_to_move(), f.indexer.index(after)};
    return true;
  };
  // A few samples: the check's logic, not its reach, is what an input can break.
  (void)resumed_values_disagree(std::vector<const Indexer*>{&f.indexer}, f.rules, *state, values, true, inside, 16);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const Fixed& f = fixed();
  const std::string rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::string file;
  std::size_t edits_from = 0;
  switch (data[0] % 4) {
    case 0:
      file = rest;
      edits_from = rest.size();
      break;
    case 1:
      file = f.valid;
      break;
    case 2:
      file = f.valid;
      edits_from = 4;
      break;
    case 3:
      if (rest.size() < 3) return 0;
      file = with_state(f.valid, int(std::int8_t(rest[0])), int(std::int16_t(get_le(rest, 1, 2))));
      edits_from = 3;
      break;
  }
  for (std::size_t at = edits_from; at + 4 <= rest.size() && !file.empty(); at += 4)
    file[get_le(rest, at, 3) % file.size()] ^= rest[at + 3];
  if (data[0] % 4 == 2 && rest.size() >= 4) file.resize(get_le(rest, 0, 4) % (file.size() + 1));
  read(file);
  const std::string fixed_up = repaired(file);
  if (fixed_up != file) read(fixed_up);
  return 0;
}

#include "gen/checkpoint.h"

#include <xxhash.h>
#include <zstd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>

#include "probe/atomic_file.h"
#include "probe/little_endian.h"
#include "probe/table_file.h"

namespace feerie {

namespace {

// Values are written as the host's u16 codes, which the format fixes as little-endian.
static_assert(std::endian::native == std::endian::little, "checkpoints are written on little-endian hosts");

constexpr char Magic[8] = {'F', 'E', 'E', 'R', 'I', 'E', 'C', 'K'};
constexpr std::uint32_t Version = 1;
constexpr std::size_t PrefixSize = 24;
constexpr std::uint64_t ChunkEntries = std::uint64_t(1) << 20;  // 2 MiB of codes
constexpr std::size_t ChunkPrefixSize = 12;                     // u32 size, u64 checksum
// Fast: a checkpoint is written every few minutes of a long solve and must not slow it.
constexpr int CompressionLevel = 1;

nlohmann::json header_json(const std::string& condition, const std::vector<const Indexer*>& members,
                           const SolverState& state, CheckpointPart part) {
  nlohmann::json members_json = nlohmann::json::array();
  for (const Indexer* m : members)
    members_json.push_back({{"material", m->material().name()}, {"layout", m->layout()}, {"entries", m->size()}});
  nlohmann::json header = {{"condition", condition},        {"generator", GeneratorName},
                           {"next_ply", state.next_ply},    {"max_plies", state.max_plies},
                           {"chunk_entries", ChunkEntries}, {"members", members_json}};
  if (part.ranks > 1) header["rank"] = part.rank, header["ranks"] = part.ranks;
  return header;
}

// Compresses and writes one side's values, a batch of chunks at a time: the batch is
// compressed in parallel, then written in order, so memory stays at a few chunks.
Status write_side(AtomicFile& file, const ValueArray& values, int threads) {
  const std::uint64_t chunks = (values.size() + ChunkEntries - 1) / ChunkEntries;
  const std::uint64_t batch = std::uint64_t(std::max(1, threads)) * 2;
  std::vector<std::string> compressed(batch);
  std::vector<std::size_t> failures(batch);
  for (std::uint64_t first = 0; first < chunks; first += batch) {
    const std::int64_t count = std::int64_t(std::min(batch, chunks - first));
#pragma omp parallel for schedule(dynamic, 1) num_threads(std::max(1, threads))
    for (std::int64_t k = 0; k < count; ++k) {
      const std::uint64_t start = (first + std::uint64_t(k)) * ChunkEntries;
      const std::size_t count = std::min<std::uint64_t>(ChunkEntries, values.size() - start);
      const std::size_t bytes = count * sizeof(ValueCode);
      // Saved as two-byte codes whatever the width in memory.
      std::vector<ValueCode> codes(count);
      values.read(start, codes);
      std::string& out = compressed[std::size_t(k)];
      out.resize(ZSTD_compressBound(bytes));
      std::size_t n = ZSTD_compress(out.data(), out.size(), codes.data(), bytes, CompressionLevel);
      failures[std::size_t(k)] = ZSTD_isError(n) ? n : 0;
      out.resize(ZSTD_isError(n) ? 0 : n);
    }
    for (std::int64_t k = 0; k < count; ++k) {
      if (failures[std::size_t(k)])
        return error(ErrorKind::Internal,
                     "cannot write '" + file.path() + "': zstd: " + ZSTD_getErrorName(failures[std::size_t(k)]));
      const std::string& c = compressed[std::size_t(k)];
      std::string prefix;
      put_le(prefix, c.size(), 4);
      put_le(prefix, XXH64(c.data(), c.size(), 0), 8);
      if (Status s = file.write(prefix.data(), prefix.size()); !s) return s;
      if (Status s = file.write(c.data(), c.size()); !s) return s;
    }
  }
  return Ok{};
}

// A pass counter of a checkpoint's header: an integer within ±2^30, else nothing. Read
// as an integer only when it is one: converting a number like 8e45 to int is undefined
// behaviour (found by fuzz_checkpoint_reader; tests/fuzz/crashes/).
std::optional<int> header_counter(const nlohmann::json& header, const char* key) {
  if (!header.is_object()) return std::nullopt;
  auto it = header.find(key);
  if (it == header.end() || !it->is_number_integer()) return std::nullopt;
  constexpr std::int64_t Bound = std::int64_t(1) << 30;
  if (it->is_number_unsigned()) {
    const std::uint64_t v = it->get<std::uint64_t>();
    return v <= std::uint64_t(Bound) ? std::optional<int>(int(v)) : std::nullopt;
  }
  const std::int64_t v = it->get<std::int64_t>();
  return v >= -Bound && v <= Bound ? std::optional<int>(int(v)) : std::nullopt;
}

Error unusable(const std::string& path, const std::string& why) {
  return error(ErrorKind::Corruption, "checkpoint '" + path + "' " + why);
}

// Reads one side's chunks into `values` (sized by the caller), checking each size against
// what is left of the file before reading it and each checksum before decompressing.
Status read_side(std::ifstream& in, const std::string& path, std::uint64_t& left, ValueArray& values) {
  std::string compressed;
  std::vector<ValueCode> codes;
  for (std::uint64_t start = 0; start < values.size(); start += ChunkEntries) {
    const std::size_t bytes = std::min<std::uint64_t>(ChunkEntries, values.size() - start) * sizeof(ValueCode);
    char prefix[ChunkPrefixSize];
    if (left < ChunkPrefixSize || !in.read(prefix, ChunkPrefixSize)) return unusable(path, "is truncated");
    left -= ChunkPrefixSize;
    const std::uint64_t size = get_le(prefix, 4), checksum = get_le(prefix + 4, 8);
    if (size > left || size > ZSTD_compressBound(bytes)) return unusable(path, "is truncated or corrupt (chunk size)");
    compressed.resize(size);
    if (!in.read(compressed.data(), std::streamsize(size))) return unusable(path, "is truncated");
    left -= size;
    if (XXH64(compressed.data(), size, 0) != checksum) return unusable(path, "is corrupt (checksum mismatch)");
    codes.resize(bytes / sizeof(ValueCode));
    std::size_t n = ZSTD_decompress(codes.data(), bytes, compressed.data(), size);
    if (ZSTD_isError(n) || n != bytes) return unusable(path, "is corrupt (a chunk does not decompress)");
    values.write(start, codes);
  }
  return Ok{};
}

}  // namespace

std::string checkpoint_path(const std::string& table_directory, const std::vector<const Indexer*>& members,
                            CheckpointPart part) {
  const std::string which =
      part.ranks > 1 ? "." + std::to_string(part.rank) + "-of-" + std::to_string(part.ranks) : std::string();
  return (std::filesystem::path(table_directory) / (members.front()->material().name() + which + ".ckpt")).string();
}

std::string pending_checkpoint_path(const std::string& checkpoint) {
  const std::string stem = checkpoint.size() >= 5 ? checkpoint.substr(0, checkpoint.size() - 5) : checkpoint;
  return stem + ".next.ckpt";
}

std::optional<CheckpointName> parse_checkpoint_name(const std::string& filename) {
  const std::size_t dot = filename.find('.');
  if (dot == std::string::npos || dot == 0 || filename.size() < dot + 5 ||
      filename.compare(filename.size() - 5, 5, ".ckpt") != 0)
    return std::nullopt;
  if (filename.size() == dot + 5) return CheckpointName{filename.substr(0, dot), 1, false};
  // "<rank>-of-<ranks>", or "<rank>-of-<ranks>.next" for a pending one.
  std::string middle = filename.substr(dot + 1, filename.size() - dot - 6);
  const bool pending = middle.size() > 5 && middle.compare(middle.size() - 5, 5, ".next") == 0;
  if (pending) middle.resize(middle.size() - 5);
  const std::size_t of = middle.find("-of-");
  const bool digits = of != std::string::npos && of > 0 && of + 4 < middle.size() && of < 10 &&
                      middle.size() - of - 4 < 10 && middle.find_first_not_of("0123456789") == of &&
                      middle.find_first_not_of("0123456789", of + 4) == std::string::npos;
  if (!digits) return std::nullopt;
  return CheckpointName{filename.substr(0, dot), std::stoi(middle.substr(of + 4)), pending};
}

std::vector<std::string> remove_checkpoints(const std::string& table_directory, const std::string& first_member,
                                            int keep_ranks) {
  std::vector<std::string> removed;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(table_directory, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    std::optional<CheckpointName> c = parse_checkpoint_name(name);
    if (!c || c->first_member != first_member || c->ranks == keep_ranks) continue;
    std::error_code removal;
    if (std::filesystem::remove(it->path(), removal)) removed.push_back(name);
  }
  std::sort(removed.begin(), removed.end());
  return removed;
}

std::vector<int> checkpoint_runs(const std::string& table_directory, const std::string& first_member) {
  std::vector<int> runs;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(table_directory, ec), end; !ec && it != end; it.increment(ec))
    if (std::optional<CheckpointName> c = parse_checkpoint_name(it->path().filename().string());
        c && c->first_member == first_member)
      runs.push_back(c->ranks);
  std::sort(runs.begin(), runs.end());
  runs.erase(std::unique(runs.begin(), runs.end()), runs.end());
  return runs;
}

Status save_checkpoint(const std::string& path, const std::string& condition,
                       const std::vector<const Indexer*>& members, const SolverState& state,
                       const std::vector<MemberValues>& values, int threads, CheckpointPart part) {
  Expected<AtomicFile> file = AtomicFile::create(path);
  if (!file) return file.error();
  const std::string header = header_json(condition, members, state, part).dump();
  std::string prefix(Magic, sizeof Magic);
  put_le(prefix, Version, 4);
  put_le(prefix, header.size(), 4);
  put_le(prefix, XXH64(header.data(), header.size(), 0), 8);
  if (Status s = file->write(prefix.data(), prefix.size()); !s) return s;
  if (Status s = file->write(header.data(), header.size()); !s) return s;
  for (const MemberValues& member : values)
    for (const ValueArray& side : member)
      if (Status s = write_side(*file, side, threads); !s) return s;
  return file->commit();
}

namespace {

// Opens the checkpoint at `path` and checks its prefix and header against the solve
// (`condition`, `members`, `part`); leaves `in` at the first value and `left` the bytes
// after the header.
Expected<SolverState> open_checkpoint(const std::string& path, const std::string& condition,
                                      const std::vector<const Indexer*>& members, CheckpointPart part,
                                      std::ifstream& in, std::uint64_t& left) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return error(ErrorKind::NotFound, "no checkpoint '" + path + "'");
  in.open(path, std::ios::binary);
  if (!in) return error(ErrorKind::IOError, "cannot read checkpoint '" + path + "': " + std::strerror(errno));
  const std::uint64_t file_size = std::filesystem::file_size(path, ec);
  if (ec) return error(ErrorKind::IOError, "cannot read checkpoint '" + path + "': " + ec.message());
  char prefix[PrefixSize];
  if (file_size < PrefixSize || !in.read(prefix, PrefixSize)) return unusable(path, "is truncated");
  if (std::memcmp(prefix, Magic, sizeof Magic) != 0) return unusable(path, "is not a Feerie checkpoint");
  if (get_le(prefix + 8, 4) != Version) return unusable(path, "has another format version");
  const std::uint64_t header_size = get_le(prefix + 12, 4);
  if (header_size > file_size - PrefixSize) return unusable(path, "is truncated");
  std::string header_text(header_size, '\0');
  if (!in.read(header_text.data(), std::streamsize(header_size))) return unusable(path, "is truncated");
  if (XXH64(header_text.data(), header_size, 0) != get_le(prefix + 16, 8))
    return unusable(path, "is corrupt (header checksum mismatch)");
  nlohmann::json header = nlohmann::json::parse(header_text, nullptr, false);
  SolverState state;
  // Compare the whole identity at once: the expected header, with the saved progress.
  std::optional<int> next_ply = header_counter(header, "next_ply"), max_plies = header_counter(header, "max_plies");
  if (!next_ply || !max_plies) return unusable(path, "is corrupt (header)");
  state.next_ply = *next_ply;
  state.max_plies = *max_plies;
  nlohmann::json expected = header_json(condition, members, state, part);
  if (header != expected) {
    std::string why = "belongs to another solve";
    if (header.is_object() && header.value("generator", "") != GeneratorName) {
      why += " (written by another program version)";
    } else if (header.is_object()) {
      // The first field that differs, so that a user can tell a checkpoint of another
      // condition from one of another index layout.
      std::string differs;
      for (const nlohmann::json* side : {&expected, &header})
        for (auto it = side->begin(); it != side->end() && differs.empty(); ++it)
          if (!header.contains(it.key()) || !expected.contains(it.key()) || header[it.key()] != expected[it.key()])
            differs = it.key();
      if (differs == "members") differs = "materials, index layouts or entries";
      if (!differs.empty()) why += " (its " + differs + " differ" + (differs.back() == 's' ? "" : "s") + ")";
    }
    return unusable(path, why);
  }
  if (state.next_ply < 0 || state.max_plies < 0 || state.max_plies > value::MaxPlies)
    return unusable(path, "is corrupt (progress out of range)");
  left = file_size - PrefixSize - header_size;
  return state;
}

}  // namespace

Expected<SolverState> read_checkpoint_state(const std::string& path, const std::string& condition,
                                            const std::vector<const Indexer*>& members, CheckpointPart part) {
  std::ifstream in;
  std::uint64_t left = 0;
  return open_checkpoint(path, condition, members, part, in, left);
}

Expected<SolverState> load_checkpoint(const std::string& path, const std::string& condition,
                                      const std::vector<const Indexer*>& members, std::vector<MemberValues>& values,
                                      CheckpointPart part) {
  std::ifstream in;
  std::uint64_t left = 0;
  Expected<SolverState> state = open_checkpoint(path, condition, members, part, in, left);
  if (!state) return state;
  for (MemberValues& member : values)
    for (ValueArray& side : member)
      if (Status s = read_side(in, path, left, side); !s) return s.error();
  if (left != 0) return unusable(path, "has trailing bytes");
  return state;
}

}  // namespace feerie

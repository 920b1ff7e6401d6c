#include "gen/partitioned_table.h"

#include <cstdio>
#include <cstring>

#include <nlohmann/json.hpp>
#include <xxhash.h>

#include "gen/statistics.h"
#include "probe/atomic_file.h"
#include "probe/little_endian.h"

namespace feerie {

namespace {

nlohmann::json to_json(const SideStatistics& s) {
  return {s.positions,          s.win,
          s.draw,               s.loss,
          s.classes_win,        s.classes_draw,
          s.classes_loss,       s.longest_mate_plies,
          s.longest_mate_fen,   s.classes_longest_mate_plies,
          s.classes_longest_mate_fen};
}

SideStatistics from_json(const nlohmann::json& j) {
  SideStatistics s;
  s.positions = j.at(0), s.win = j.at(1), s.draw = j.at(2), s.loss = j.at(3);
  s.classes_win = j.at(4), s.classes_draw = j.at(5), s.classes_loss = j.at(6);
  s.longest_mate_plies = j.at(7), s.longest_mate_fen = j.at(8);
  s.classes_longest_mate_plies = j.at(9), s.classes_longest_mate_fen = j.at(10);
  return s;
}

// A process's blocks of both sides, as the others need them: per side the number of
// blocks, then each block's compressed size (u32) and checksum (u64). The first byte
// says whether the process failed to compress (then nothing follows).
std::string describe_blocks(const std::array<std::vector<BlockRef>, 2>& refs, bool failed) {
  std::string out(1, failed ? '\1' : '\0');
  if (failed) return out;
  for (const auto& side : refs) {
    put_le(out, side.size(), 8);
    for (const BlockRef& b : side) {
      put_le(out, b.size, 4);
      put_le(out, b.checksum, 8);
    }
  }
  return out;
}

}  // namespace

Expected<std::array<SideStatistics, 2>> partitioned_statistics(Partition& partition, const Indexer& indexer,
                                                               const std::array<std::vector<ValueCode>, 2>& values,
                                                               OwnedRange range, int threads) {
  const std::array<SideStatistics, 2> mine = partial_statistics(indexer, values, threads, range.first);
  Expected<std::vector<std::string>> all =
      partition.all_gather(nlohmann::json{to_json(mine[0]), to_json(mine[1])}.dump());
  if (!all) return all.error();
  std::vector<std::array<SideStatistics, 2>> parts;
  for (const std::string& text : *all) {
    const nlohmann::json j = nlohmann::json::parse(text);
    parts.push_back({from_json(j.at(0)), from_json(j.at(1))});
  }
  return merge_statistics(indexer, parts);
}

Status write_partitioned_table(Partition& partition, const std::string& path, TableHeader header,
                               const std::array<std::vector<ValueCode>, 2>& values, OwnedRange range) {
  const std::string context = "cannot write table '" + path + "': ";
  header.block_entries = DefaultBlockEntries;
  // This process's blocks, each in a piece of its own (no second copy laid out in a body).
  std::array<std::vector<std::string>, 2> blocks;
  std::array<std::vector<BlockRef>, 2> refs;
  Status compressed = Ok{};
  for (int s = 0; s < 2 && compressed; ++s) {
    if (values[s].size() != range.size()) {
      compressed = error(ErrorKind::Internal, "side " + std::to_string(s) + " holds " + std::to_string(values[s].size()) +
                                                  " values, the range " + std::to_string(range.size()));
      break;
    }
    compressed = compress_blocks(values[s], header.block_entries, blocks[s]);
    for (const std::string& b : blocks[s])
      refs[s].push_back(BlockRef{0, std::uint32_t(b.size()), XXH64(b.data(), b.size(), 0)});
  }
  Expected<std::vector<std::string>> all = partition.all_gather(describe_blocks(refs, !compressed));
  if (!all) return with_context(context, all.error());
  if (!compressed) return with_context(context, compressed.error());
  // Every process lays out the whole body alike: side 0's blocks by process, then side 1's.
  std::array<std::uint64_t, 2> my_offset{};
  std::uint64_t body = 0;
  for (int s = 0; s < 2; ++s) {
    header.blocks[s].clear();
    for (int r = 0; r < partition.ranks(); ++r) {
      const std::string& d = (*all)[std::size_t(r)];
      if (d.empty() || d[0] != '\0') return error(ErrorKind::Internal, context + "process " + std::to_string(r) + " failed");
      std::size_t at = 1;
      if (s == 1) at += 8 + 12 * get_le(d.data() + 1, 8);  // skip side 0
      const std::uint64_t count = get_le(d.data() + at, 8);
      at += 8;
      if (r == partition.rank()) my_offset[s] = body;
      for (std::uint64_t k = 0; k < count; ++k, at += 12) {
        const BlockRef b{body, std::uint32_t(get_le(d.data() + at, 4)), get_le(d.data() + at + 4, 8)};
        header.blocks[s].push_back(b);
        body += b.size;
      }
    }
  }
  Expected<std::string> start = table_file_start(header);
  if (!start) return with_context(context, start.error());
  // Process 0 names the temporary file (unique by its process id, as AtomicFile's).
  Expected<std::vector<std::string>> names = partition.all_gather(partition.rank() == 0 ? temporary_name(path) : "");
  if (!names) return with_context(context, names.error());
  const std::string temporary = names->front();
  std::vector<std::pair<std::uint64_t, std::string_view>> mine;
  if (partition.rank() == 0) mine.emplace_back(0, *start);
  for (int s = 0; s < 2; ++s) {
    std::uint64_t at = start->size() + my_offset[s];
    for (const std::string& b : blocks[s]) {
      mine.emplace_back(at, b);
      at += b.size();
    }
  }
  Status written = partition.write_pieces(temporary, mine);
  Expected<bool> failed = partition.any(!written);
  if (!failed || *failed) {
    if (partition.rank() == 0) std::remove(temporary.c_str());
    if (!written) return with_context(context, written.error());
    return error(ErrorKind::IOError, context + "another process could not write its part");
  }
  Status renamed = Ok{};
  if (partition.rank() == 0 && std::rename(temporary.c_str(), path.c_str()) != 0) {
    renamed = error(ErrorKind::IOError, context + "cannot rename '" + temporary + "': " + std::strerror(errno));
    std::remove(temporary.c_str());
  }
  // Every process returns only once the table is under its name (or has failed).
  Expected<bool> rename_failed = partition.any(!renamed);
  if (!renamed) return renamed;
  if (!rename_failed) return rename_failed.error();
  if (*rename_failed) return error(ErrorKind::IOError, context + "process 0 could not rename the file");
  return Ok{};
}

}  // namespace feerie

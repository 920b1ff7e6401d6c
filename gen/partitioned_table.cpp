#include "gen/partitioned_table.h"

#include <unistd.h>
#include <xxhash.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "gen/statistics.h"
#include "probe/atomic_file.h"

namespace feerie {

namespace {

// Every process's part of a table (its statistics, or its blocks), each passed as a
// header in the text the table files hold. `mine` null: this process failed (its part is
// an empty text); then, or when another process failed, an error.
Expected<std::vector<TableHeader>> gather_parts(Partition& partition, const TableHeader* mine) {
  std::string text;
  if (mine) {
    Expected<std::string> t = header_text(*mine);
    if (!t) return t.error();
    text = std::move(*t);
  }
  Expected<std::vector<std::string>> all = partition.all_gather(text);
  if (!all) return all.error();
  std::vector<TableHeader> parts;
  for (std::size_t r = 0; r < all->size(); ++r) {
    if ((*all)[r].empty()) return error(ErrorKind::Internal, "process " + std::to_string(r) + " failed");
    Expected<TableHeader> part = parse_header_text((*all)[r]);
    if (!part) return part.error();
    parts.push_back(std::move(*part));
  }
  return parts;
}

}  // namespace

Expected<std::array<SideStatistics, 2>> partitioned_statistics(Partition& partition, const Indexer& indexer,
                                                               const MemberValues& values, OwnedRange range,
                                                               int threads) {
  TableHeader mine;
  mine.stats = partial_statistics(indexer, values, threads, range.first);
  Expected<std::vector<TableHeader>> parts = gather_parts(partition, &mine);
  if (!parts) return parts.error();
  std::vector<std::array<SideStatistics, 2>> stats;
  for (const TableHeader& part : *parts) stats.push_back(part.stats);
  return merge_statistics(indexer, stats);
}

Status write_partitioned_table(Partition& partition, const std::string& path, TableHeader header,
                               const MemberValues& values, OwnedRange range) {
  const std::string context = "cannot write table '" + path + "': ";
  header.block_entries = DefaultBlockEntries;
  // This process's blocks, each in a piece of its own (no second copy laid out in a body),
  // and their sizes and checksums in a header of its own.
  std::array<std::vector<std::string>, 2> blocks;
  TableHeader mine;
  Status compressed = Ok{};
  for (int s = 0; s < 2 && compressed; ++s) {
    if (values[s].size() != range.size()) {
      compressed =
          error(ErrorKind::Internal, "side " + std::to_string(s) + " holds " + std::to_string(values[s].size()) +
                                         " values, the range " + std::to_string(range.size()));
      break;
    }
    compressed = compress_blocks(ValueSource::of(values[s]), header.block_entries, blocks[s]);
    for (const std::string& b : blocks[s])
      mine.blocks[s].push_back(BlockRef{0, std::uint32_t(b.size()), XXH64(b.data(), b.size(), 0)});
  }
  Expected<std::vector<TableHeader>> parts = gather_parts(partition, compressed ? &mine : nullptr);
  if (!compressed) return with_context(context, compressed.error());
  if (!parts) return with_context(context, parts.error());
  // Every process lays out the whole body alike: side 0's blocks by process, then side 1's.
  std::array<std::uint64_t, 2> my_offset{};
  std::uint64_t body = 0;
  for (int s = 0; s < 2; ++s) {
    header.blocks[s].clear();
    for (int r = 0; r < partition.ranks(); ++r) {
      if (r == partition.rank()) my_offset[s] = body;
      for (BlockRef b : (*parts)[std::size_t(r)].blocks[s]) {
        b.offset = body;
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
  std::vector<std::pair<std::uint64_t, std::string_view>> pieces;
  if (partition.rank() == 0) pieces.emplace_back(0, *start);
  for (int s = 0; s < 2; ++s) {
    std::uint64_t at = start->size() + my_offset[s];
    for (const std::string& b : blocks[s]) {
      pieces.emplace_back(at, b);
      at += b.size();
    }
  }
  // Checked at the start of the job too (generate()); a view may change during a long solve.
  if (Status s = every_process_opens(partition, temporary, true); !s) return with_context(context, s.error());
  Status written = partition.write_pieces(temporary, pieces);
  Expected<bool> failed = partition.any(!written);
  if (!failed || *failed) {
    if (partition.rank() == 0) std::remove(temporary.c_str());
    if (!written) return with_context(context, written.error());
    return error(ErrorKind::IOError, context + "another process could not write its part");
  }
  // Process 0 reads the file back before it names it: every block must match its checksum.
  // A write that failed unseen (Open MPI reports success on a full disk, and leaves holes)
  // is found here, not by the first probe of the table.
  Status read_back = Ok{};
  if (partition.rank() == 0) {
    Expected<std::unique_ptr<TableFile>> file = TableFile::open(temporary);
    read_back = file ? (*file)->check_blocks(false) : Status(file.error());
    if (!read_back) {
      std::remove(temporary.c_str());
      read_back =
          error(ErrorKind::IOError,
                context + "the file written does not read back (is the disk full?): " + read_back.error_message());
    }
  }
  Expected<bool> unreadable = partition.any(!read_back);
  if (!read_back) return read_back;
  if (!unreadable) return with_context(context, unreadable.error());
  if (*unreadable) return error(ErrorKind::IOError, context + "process 0 could not read the file written back");
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

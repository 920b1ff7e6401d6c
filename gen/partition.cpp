#include "gen/partition.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>

#include "probe/table_file.h"

namespace feerie {

namespace {

std::uint64_t blocks_of(std::uint64_t entries) { return (entries + DefaultBlockEntries - 1) / DefaultBlockEntries; }

// The first block process `rank` owns (floor(rank B / P), without overflow for any B).
std::uint64_t first_block(std::uint64_t blocks, int rank, int ranks) {
  return blocks / std::uint64_t(ranks) * std::uint64_t(rank) +
         blocks % std::uint64_t(ranks) * std::uint64_t(rank) / std::uint64_t(ranks);
}

}  // namespace

OwnedRange owned_range(std::uint64_t entries, int rank, int ranks) {
  const std::uint64_t blocks = blocks_of(entries);
  return {std::min(entries, first_block(blocks, rank, ranks) * DefaultBlockEntries),
          std::min(entries, first_block(blocks, rank + 1, ranks) * DefaultBlockEntries)};
}

int owner_of(std::uint64_t index, std::uint64_t entries, int ranks) {
  const std::uint64_t block = index / DefaultBlockEntries, blocks = blocks_of(entries);
  if (blocks == 0) return 0;
  // The guess from the proportion is off by at most one either way.
  int r = int(block * std::uint64_t(ranks) / blocks);
  while (r + 1 < ranks && first_block(blocks, r + 1, ranks) <= block) ++r;
  while (r > 0 && first_block(blocks, r, ranks) > block) --r;
  return r;
}

Status every_process_opens(Partition& partition, const std::string& path, bool keep) {
  // The errno of an open, as told to the other processes ("" for none).
  auto try_open = [&](int flags) -> std::string {
    const int fd = ::open(path.c_str(), flags, 0644);
    if (fd < 0) return std::to_string(errno);
    ::close(fd);
    return "";
  };
  const bool creator = partition.rank() == 0;
  Expected<std::vector<std::string>> created =
      partition.all_gather(creator ? try_open(O_WRONLY | O_CREAT | O_TRUNC) : "");
  if (!created) return created.error();
  if (!created->front().empty())
    return error(ErrorKind::IOError, "cannot create '" + path + "': " + std::strerror(std::stoi(created->front())));
  Expected<std::vector<std::string>> opened = partition.all_gather(creator ? "" : try_open(O_WRONLY));
  if (!opened) return opened.error();
  // A process that sees the file but may not write it has a read-only view of the right
  // directory; one that does not see it has another directory under the same name.
  std::string unseen, unwritable;
  for (std::size_t r = 0; r < opened->size(); ++r) {
    if ((*opened)[r].empty()) continue;
    const int err = std::stoi((*opened)[r]);
    std::string& list = err == EROFS || err == EACCES || err == EPERM ? unwritable : unseen;
    list += (list.empty() ? "" : ", ") + ("process " + std::to_string(r) + ": ") + std::strerror(err);
  }
  if (creator && (!keep || !unseen.empty() || !unwritable.empty())) ::unlink(path.c_str());
  if (!unseen.empty())
    return error(ErrorKind::IOError, "the processes do not all see the file process 0 created, '" + path + "' (" +
                                         unseen + (unwritable.empty() ? "" : ", " + unwritable) +
                                         "): every process must see the same tables directory");
  if (!unwritable.empty())
    return error(ErrorKind::IOError, "not every process may write the file process 0 created, '" + path + "' (" +
                                         unwritable + "): every process must be able to write the tables directory");
  return Ok{};
}

Expected<bool> Partition::any(bool mine) {
  std::vector<std::int64_t> flag{mine ? 1 : 0};
  if (Status s = max(flag); !s) return s.error();
  return flag[0] != 0;
}

Status Partition::write_pieces(const std::string& path,
                               const std::vector<std::pair<std::uint64_t, std::string_view>>& pieces) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT, 0644);
  if (fd < 0) return error(ErrorKind::IOError, "cannot write '" + path + "': " + std::strerror(errno));
  for (const auto& [offset, bytes] : pieces)
    for (std::size_t done = 0; done < bytes.size();) {
      const ssize_t n = ::pwrite(fd, bytes.data() + done, bytes.size() - done, off_t(offset + done));
      if (n < 0) {
        const int err = errno;
        ::close(fd);
        return error(ErrorKind::IOError, "cannot write '" + path + "': " + std::strerror(err));
      }
      done += std::size_t(n);
    }
  if (::fsync(fd) != 0 || ::close(fd) != 0)
    return error(ErrorKind::IOError, "cannot write '" + path + "': " + std::strerror(errno));
  return Ok{};
}

std::string failure_text(const Error* failure) {
  if (!failure) return "";
  return nlohmann::json{{"kind", int(failure->kind)}, {"message", failure->message}}.dump();
}

std::optional<Error> job_failure(const std::vector<std::string>& told) {
  std::vector<std::pair<int, Error>> failed;
  for (std::size_t rank = 0; rank < told.size(); ++rank) {
    if (told[rank].empty()) continue;
    nlohmann::json j = nlohmann::json::parse(told[rank], nullptr, false);
    Error e{ErrorKind::Internal, "process " + std::to_string(rank) + " failed in words not understood"};
    if (j.is_object() && j["kind"].is_number_integer() && j["message"].is_string())
      e = Error{ErrorKind(j["kind"].get<int>()), j["message"].get<std::string>()};
    failed.emplace_back(int(rank), e);
  }
  if (failed.empty()) return std::nullopt;
  const bool alike = failed.front().first == 0 && std::all_of(failed.begin(), failed.end(), [&](const auto& f) {
                       return f.second.message == failed.front().second.message;
                     });
  if (alike) return failed.front().second;
  Error job{failed.front().second.kind, ""};
  for (const auto& [rank, e] : failed)
    job.message += (job.message.empty() ? "" : "; ") + ("process " + std::to_string(rank) + ": ") + e.message;
  for (const auto& [rank, e] : failed)
    if (e.kind != ErrorKind::Internal) {
      job.kind = e.kind;
      break;
    }
  return job;
}

}  // namespace feerie

#include "probe/table_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <new>
#include <span>
#include <sstream>
#include <stdexcept>

#include "probe/atomic_file.h"
#include "probe/little_endian.h"
namespace feerie {

std::int64_t TableFile::coarse_now_ns() {
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
  return std::int64_t(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

TableFile::Identity TableFile::identity_of(const struct stat& st) {
  return {std::uint64_t(st.st_dev), std::uint64_t(st.st_ino), std::uint64_t(st.st_size),
          std::int64_t(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec,
          std::int64_t(st.st_ctim.tv_sec) * 1'000'000'000 + st.st_ctim.tv_nsec};
}

namespace {

// How often TableFile::replaced_on_disk() looks at the file under the table's path.
constexpr std::int64_t LookIntervalNs = 1'000'000'000;
constexpr char Magic[8] = {'F', 'E', 'E', 'R', 'I', 'E', 'T', 'B'};
constexpr std::uint64_t PrefixSize = 24;
constexpr int CompressionLevel = 3;           // level 19 compresses a few percent better at ~20x the time
constexpr std::size_t MaxCachedBlocks = 256;  // 16 MB with the default 32768-entry blocks
// The parts of the cache (TableFile::CacheShard): threads probing one table at once wait for
// each other only when their blocks fall to the same part.
constexpr std::size_t CacheShards = 64;

// A multiplicative (Fibonacci) hash: bits of `x` that vary only high up, as the block numbers
// of a king-pair slice apart do, come out spread over the low bits a cache slot is taken from.
constexpr std::uint64_t spread(std::uint64_t x) { return (x * 0x9E3779B97F4A7C15ULL) >> 32; }

std::uint64_t xxh64(const void* data, std::size_t size) { return XXH64(data, size, 0); }

// Without the rounding addition, which wrapped for `entries` near 2^64 and let a crafted
// header with no blocks claim 2^64 - 1 entries. Precondition: block_entries > 0.
std::uint64_t block_count(std::uint64_t entries, std::uint32_t block_entries) {
  return entries / block_entries + (entries % block_entries != 0 ? 1 : 0);
}

// Entries in block b of a side (the last block may be short).
std::size_t entries_in_block(const TableHeader& h, std::size_t b) {
  return static_cast<std::size_t>(
      std::min<std::uint64_t>(h.block_entries, h.entries - std::uint64_t(b) * h.block_entries));
}

Error table_error(const std::string& path, const std::string& what) {
  return error(ErrorKind::Corruption, "table '" + path + "' " + what);
}

Error block_error(const std::string& path, int side, std::size_t b, const std::string& why) {
  return error(ErrorKind::Corruption, "table '" + path + "': block " + std::to_string(b) + " of side " +
                                          std::to_string(side) + " is corrupt (" + why + ")");
}

// Decompresses one block into `out` (`count` codes), checking the stored checksum and size.
Status decode_block(const std::string& path, int side, std::size_t b, const BlockRef& ref,
                    const std::string& compressed, std::size_t count, ValueCode* out) {
  if (xxh64(compressed.data(), compressed.size()) != ref.checksum)
    return block_error(path, side, b, "checksum mismatch");
  std::string raw(count * 2, '\0');
  std::size_t n = ZSTD_decompress(raw.data(), raw.size(), compressed.data(), compressed.size());
  if (ZSTD_isError(n)) return block_error(path, side, b, std::string("zstd: ") + ZSTD_getErrorName(n));
  if (n != raw.size())
    return block_error(path, side, b,
                       std::to_string(n) + " bytes decompressed, expected " + std::to_string(raw.size()));
  for (std::size_t i = 0; i < count; ++i) out[i] = static_cast<ValueCode>(get_le(raw.data() + 2 * i, 2));
  return Ok{};
}

// What the system refused while reading a table: an I/O error, not damage in the file.
Error io_error(const std::string& path, const std::string& what) {
  return error(ErrorKind::IOError, "table '" + path + "' " + what + ": " + std::strerror(errno));
}

// Reads `size` bytes at `offset` of the open file `fd` into `out` with pread (no shared file
// position: threads read one descriptor at once). An I/O error when the system refuses
// the read, Corruption when the file ends early (it was cut after open() checked its size).
Status read_at(int fd, const std::string& path, std::uint64_t offset, std::uint64_t size, std::string& out,
               const std::string& what) {
  out.resize(size);
  std::uint64_t done = 0;
  while (done < size) {
    const ssize_t n = ::pread(fd, out.data() + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return io_error(path, "cannot be read (" + what + ")");
    if (n == 0) return table_error(path, "is truncated (" + what + " ends past the end of the file)");
    done += std::uint64_t(n);
  }
  return Ok{};
}

}  // namespace

ValueSource ValueSource::of(std::span<const ValueCode> codes) {
  return {codes.size(), [codes](std::uint64_t first, std::span<ValueCode> out) {
            std::copy_n(codes.begin() + std::ptrdiff_t(first), out.size(), out.begin());
          }};
}

ValueSource ValueSource::of(const ValueArray& values) {
  return {values.size(), [&values](std::uint64_t first, std::span<ValueCode> out) { values.read(first, out); }};
}

namespace {

// Compresses blocks [first, first + compressed.size()) of `codes`, each into a string of its own.
Status compress_block_range(const ValueSource& codes, std::uint32_t block_entries, std::uint64_t first,
                            std::vector<std::string>& compressed) {
  const std::int64_t blocks = std::int64_t(compressed.size());
  std::vector<std::size_t> failures(static_cast<std::size_t>(blocks), 0);
  bool out_of_memory = false;
#pragma omp parallel
  {
    // Per thread, reused for every block: the codes, their little-endian bytes, the
    // compressed bytes, and one zstd context (ZSTD_compress() would make and free one per
    // block; a reused context gives the same bytes). With the bytes written in place rather
    // than appended to a string code by code: KQRvKR's write 0.91-1.16 s -> 0.64-0.70 s.
    std::vector<ValueCode> block(block_entries);
    std::vector<char> raw(2 * std::size_t(block_entries));
    std::vector<char> scratch(ZSTD_compressBound(raw.size()));
    ZSTD_CCtx* context = ZSTD_createCCtx();
    if (!context) {
#pragma omp atomic write
      out_of_memory = true;
    }
#pragma omp for schedule(dynamic, 4)
    for (std::int64_t b = 0; b < blocks; ++b) {
      if (!context) continue;
      const std::size_t start = std::size_t(first + std::uint64_t(b)) * block_entries;
      const std::size_t count = std::min<std::size_t>(block_entries, codes.size - start);
      codes.fill(start, std::span<ValueCode>(block.data(), count));
      for (std::size_t i = 0; i < count; ++i) write_le(raw.data() + 2 * i, block[i], 2);
      const std::size_t n =
          ZSTD_compressCCtx(context, scratch.data(), scratch.size(), raw.data(), 2 * count, CompressionLevel);
      if (ZSTD_isError(n)) {
        failures[std::size_t(b)] = n;
        continue;
      }
      // Only the bytes used: a block kept at its worst-case size would hold as much memory
      // as the uncompressed table.
      compressed[std::size_t(b)].assign(scratch.data(), n);
    }
    ZSTD_freeCCtx(context);
  }
  if (out_of_memory) return error(ErrorKind::Internal, "zstd: cannot make a compression context (out of memory)");
  for (std::int64_t b = 0; b < blocks; ++b)
    if (failures[std::size_t(b)])
      return error(ErrorKind::Internal, std::string("zstd: ") + ZSTD_getErrorName(failures[std::size_t(b)]));
  return Ok{};
}

}  // namespace

Status compress_blocks(const ValueSource& codes, std::uint32_t block_entries, std::vector<std::string>& compressed) {
  compressed.assign(block_count(codes.size, block_entries), std::string());
  return compress_block_range(codes, block_entries, 0, compressed);
}

Status write_table(const std::string& path, TableHeader header, const std::array<std::vector<ValueCode>, 2>& values) {
  return write_table(path, std::move(header), {ValueSource::of(values[0]), ValueSource::of(values[1])});
}

Status write_table(const std::string& path, TableHeader header, const std::array<ValueSource, 2>& values,
                   std::uint64_t held_bytes) {
  for (int s = 0; s < 2; ++s)
    if (values[s].size != header.entries)
      return error(ErrorKind::Internal, "cannot write table '" + path + "': side " + std::to_string(s) + " has " +
                                            std::to_string(values[s].size) + " values, the header says " +
                                            std::to_string(header.entries));
  if (header.block_entries == 0) header.block_entries = DefaultBlockEntries;
  if (header.block_entries > MaxBlockEntries)
    return error(ErrorKind::InvalidArgument,
                 "cannot write table '" + path + "': blocks of " + std::to_string(header.block_entries) +
                     " entries, more than readers accept (" + std::to_string(MaxBlockEntries) + ")");

  // Every block is compressed first: the header, which precedes the body, holds every
  // block's offset and size. Each block in a string of its own (one growing body string
  // would hold up to twice the compressed table while it grows), held up to `held_bytes`
  // in all; the blocks after those are compressed once for their sizes
  // and checksums and again as they are written.
  std::array<std::vector<std::string>, 2> held;
  std::vector<std::string> batch;
  // The batch of side s's blocks from `first` (WriteBatchBlocks of them, fewer at the end).
  auto compress_batch = [&](int s, std::uint64_t first, std::uint64_t blocks) -> Status {
    batch.assign(std::min(WriteBatchBlocks, blocks - first), std::string());
    if (Status st = compress_block_range(values[s], header.block_entries, first, batch); !st)
      return with_context("cannot write table '" + path + "': ", st.error());
    return Ok{};
  };
  std::uint64_t offset = 0, held_total = 0;
  bool holding = true;
  for (int s = 0; s < 2; ++s) {
    header.blocks[s].clear();
    const std::uint64_t blocks = block_count(values[s].size, header.block_entries);
    for (std::uint64_t first = 0; first < blocks; first += WriteBatchBlocks) {
      if (Status st = compress_batch(s, first, blocks); !st) return st;
      for (std::string& b : batch) {
        header.blocks[s].push_back(BlockRef{offset, static_cast<std::uint32_t>(b.size()), xxh64(b.data(), b.size())});
        offset += b.size();
        holding = holding && held_total + b.size() <= held_bytes;
        if (!holding) continue;
        held_total += b.size();
        held[s].push_back(std::move(b));
      }
    }
  }
  Expected<std::string> file = table_file_start(header);
  if (!file) return with_context("cannot write table '" + path + "': ", file.error());
  Expected<AtomicFile> out = AtomicFile::create(path);
  if (!out) return out.error();
  if (Status s = out->write(file->data(), file->size()); !s) return s;
  for (int s = 0; s < 2; ++s) {
    for (const std::string& b : held[s])
      if (Status st = out->write(b.data(), b.size()); !st) return st;
    const std::uint64_t blocks = header.blocks[s].size();
    for (std::uint64_t first = held[s].size(); first < blocks; first += batch.size()) {
      if (Status st = compress_batch(s, first, blocks); !st) return st;
      for (std::size_t k = 0; k < batch.size(); ++k) {
        const BlockRef& ref = header.blocks[s][first + k];
        // zstd gives the same bytes for the same input and level; the header promised these.
        if (batch[k].size() != ref.size || xxh64(batch[k].data(), batch[k].size()) != ref.checksum)
          return error(ErrorKind::Internal, "cannot write table '" + path + "': block " + std::to_string(first + k) +
                                                " of side " + std::to_string(s) +
                                                " compressed to other bytes the second time");
        if (Status st = out->write(batch[k].data(), batch[k].size()); !st) return st;
      }
    }
  }
  return out->commit();
}

Expected<std::string> table_file_start(const TableHeader& header) {
  Expected<std::string> text = header_text(header);
  if (!text) return text.error();
  const std::string& header_bytes = *text;
  if (header_bytes.size() > UINT32_MAX) return error(ErrorKind::Internal, "header too large");
  std::string file(Magic, sizeof Magic);
  put_le(file, format_version_of(header), 4);
  put_le(file, header_bytes.size(), 4);
  put_le(file, xxh64(header_bytes.data(), header_bytes.size()), 8);
  file += header_bytes;
  return file;
}

Expected<std::unique_ptr<TableFile>> TableFile::open(const std::string& path) {
  std::unique_ptr<TableFile> t(new TableFile);
  t->path_ = path;
  // One descriptor for the life of the table: every block read is a pread on it.
  // O_NONBLOCK so that a FIFO under a table's name is refused below rather than waited on
  // for ever (it changes nothing for the regular files read).
  t->fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (t->fd_ < 0) {
    if (errno == ENOENT) return error(ErrorKind::NotFound, "table '" + path + "' does not exist");
    return io_error(path, "cannot be opened");
  }
  struct stat st;
  if (::fstat(t->fd_, &st) != 0) return io_error(path, "cannot be read (its size is unknown)");
  if (!S_ISREG(st.st_mode)) return table_error(path, "is not a regular file");
  const std::uint64_t file_size = static_cast<std::uint64_t>(st.st_size);
  t->identity_ = identity_of(st);
  t->next_look_ns_ = coarse_now_ns() + LookIntervalNs;

  std::string prefix;
  if (file_size == 0) return table_error(path, "is empty (not a Feerie table)");
  if (file_size < sizeof Magic) return table_error(path, "is not a Feerie table (bad magic)");
  if (Status r = read_at(t->fd_, path, 0, std::min<std::uint64_t>(PrefixSize, file_size), prefix, "its prefix"); !r)
    return r.error();
  if (std::memcmp(prefix.data(), Magic, sizeof Magic) != 0)
    return table_error(path, "is not a Feerie table (bad magic)");
  if (file_size < PrefixSize)
    return table_error(path, "is truncated (expected at least " + std::to_string(PrefixSize) + " bytes, found " +
                                 std::to_string(file_size) + ")");
  std::uint64_t version = get_le(prefix.data() + 8, 4);
  if (version != 2 && version != TableFormatVersion)
    return table_error(path, "has format version " + std::to_string(version) + ", this program reads 2 and " +
                                 std::to_string(TableFormatVersion));
  std::uint64_t header_len = get_le(prefix.data() + 12, 4);
  std::uint64_t header_sum = get_le(prefix.data() + 16, 8);
  // Checked before allocating: a damaged length must not make us allocate gigabytes.
  if (PrefixSize + header_len > file_size)
    return table_error(path, "is truncated (expected at least " + std::to_string(PrefixSize + header_len) +
                                 " bytes, found " + std::to_string(file_size) + ")");
  std::string header_bytes;
  if (Status r = read_at(t->fd_, path, PrefixSize, header_len, header_bytes, "its header"); !r) return r.error();
  if (xxh64(header_bytes.data(), header_bytes.size()) != header_sum)
    return table_error(path, "header is corrupt (checksum mismatch)");

  Expected<TableHeader> header = parse_header_text(header_bytes);
  if (!header) return table_error(path, header.error_message());
  if (format_version_of(*header) != version)
    return table_error(path, "header is corrupt (format version " + std::to_string(version) + " with stipulation " +
                                 header->stipulation.header_name() + ")");
  t->header_ = std::move(*header);

  // The header checksum matched, so these only fail for a file written by a broken
  // writer or crafted; checking them keeps value() free of out-of-range reads and bounds
  // every later allocation before it is made:
  //  - a decompressed block is 2 x block_entries bytes at most (MaxBlockEntries);
  //  - load_side() allocates 2 x entries bytes, and entries <= blocks x block_entries
  //    (block_count() below), where the number of blocks was bounded by the header length
  //    while parsing;
  //  - a block read allocates its compressed size, and the sizes add up to the file size.
  const TableHeader& h = t->header_;
  if (h.block_entries == 0) return table_error(path, "header is corrupt (block_entries is 0)");
  if (h.block_entries > MaxBlockEntries)
    return table_error(path, "header is corrupt (block_entries is " + std::to_string(h.block_entries) +
                                 ", above the maximum " + std::to_string(MaxBlockEntries) + ")");
  std::uint64_t body_size = 0;
  for (int s = 0; s < 2; ++s) {
    if (h.blocks[s].size() != block_count(h.entries, h.block_entries))
      return table_error(path, "header is corrupt (side " + std::to_string(s) + " has " +
                                   std::to_string(h.blocks[s].size()) + " blocks, expected " +
                                   std::to_string(block_count(h.entries, h.block_entries)) + ")");
    for (std::size_t b = 0; b < h.blocks[s].size(); ++b) {
      // Blocks are contiguous in write order; anything else is not a file we wrote.
      if (h.blocks[s][b].offset != body_size)
        return table_error(path, "header is corrupt (block " + std::to_string(b) + " of side " + std::to_string(s) +
                                     " has offset " + std::to_string(h.blocks[s][b].offset) + ", expected " +
                                     std::to_string(body_size) + ")");
      body_size += h.blocks[s][b].size;
    }
  }
  std::uint64_t expected_size = PrefixSize + header_len + body_size;
  std::string sizes = "(expected " + std::to_string(expected_size) + " bytes, found " + std::to_string(file_size) + ")";
  if (file_size < expected_size) return table_error(path, "is truncated " + sizes);
  if (file_size > expected_size) return table_error(path, "has trailing bytes and is corrupt " + sizes);
  t->body_offset_ = PrefixSize + header_len;
  // The cache holds at most MaxCachedBlocks blocks and MaxCachedBytes of codes (one block at
  // least), in up to CacheShards parts of equal size.
  const std::size_t block_bytes = std::size_t(h.block_entries) * sizeof(ValueCode);
  const std::size_t max_blocks =
      std::min(MaxCachedBlocks, std::max<std::size_t>(1, std::size_t(MaxCachedBytes) / block_bytes));
  t->shard_count_ = std::min(CacheShards, max_blocks);
  t->blocks_per_shard_ = max_blocks / t->shard_count_;
  t->shards_ = std::make_unique<CacheShard[]>(t->shard_count_);
  t->thread_cached_ = block_bytes <= ThreadBlockBytes;
  return t;
}

TableFile::~TableFile() {
  if (fd_ >= 0) ::close(fd_);
}

void TableFile::release_cache() const {
  for (std::size_t i = 0; i < shard_count_; ++i) {
    CacheShard& shard = shards_[i];
    std::lock_guard<std::mutex> lock(shard.mutex);
    shard.blocks.clear();
    shard.recent.clear();
  }
}

bool TableFile::look_whether_replaced() const {
  std::int64_t due = next_look_ns_.load(std::memory_order_relaxed);
  const std::int64_t now = coarse_now_ns();
  if (now < due || !next_look_ns_.compare_exchange_strong(due, now + LookIntervalNs)) return replaced_;
  struct stat st;
  // A file that cannot be looked at now (removed, a directory on its way) is not the one
  // opened either: the prober opens the path again and says what it finds.
  if (::stat(path_.c_str(), &st) != 0 || !(identity_of(st) == identity_)) replaced_ = true;
  return replaced_;
}

// "block 3 of side 1", for messages.
static std::string block_name(int side, std::size_t b) {
  return "block " + std::to_string(b) + " of side " + std::to_string(side);
}

Status TableFile::check_blocks(bool decompress) const {
  std::string compressed;
  std::vector<ValueCode> codes;
  for (int side = 0; side < 2; ++side)
    for (std::size_t b = 0; b < header_.blocks[side].size(); ++b) {
      const BlockRef& ref = header_.blocks[side][b];
      if (Status r = read_at(fd_, path_, body_offset_ + ref.offset, ref.size, compressed, block_name(side, b)); !r)
        return r;
      if (xxh64(compressed.data(), compressed.size()) != ref.checksum)
        return block_error(path_, side, b, "checksum mismatch");
      const std::size_t count = entries_in_block(header_, b);
      const unsigned long long declared = ZSTD_getFrameContentSize(compressed.data(), compressed.size());
      if (declared != count * 2)
        return block_error(
            path_, side, b,
            declared == ZSTD_CONTENTSIZE_UNKNOWN || declared == ZSTD_CONTENTSIZE_ERROR
                ? std::string("its frame does not say its size")
                : "its frame holds " + std::to_string(declared) + " bytes, expected " + std::to_string(count * 2));
      if (decompress) {
        codes.resize(count);
        if (Status s = decode_block(path_, side, b, ref, compressed, count, codes.data()); !s) return s;
      }
    }
  return Ok{};
}

Status TableFile::read_block(int side, std::size_t b, std::vector<ValueCode>& out) const {
  const BlockRef& ref = header_.blocks[side][b];
  std::string compressed;
  if (Status r = read_at(fd_, path_, body_offset_ + ref.offset, ref.size, compressed, block_name(side, b)); !r)
    return r;
  out.resize(entries_in_block(header_, b));
  return decode_block(path_, side, b, ref, compressed, out.size(), out.data());
}

namespace {

// A thread's own references to the blocks it read last, of any table file: direct-mapped
// by (file, block), so that a probe of a block the thread read before takes no lock and
// writes nothing another thread reads (issue 22: threads probing one table at once).
// Only blocks of up to ThreadBlockBytes: the references keep their blocks alive, so a
// thread holds ThreadBlockSlots x ThreadBlockBytes (16 MiB) at most.
struct ThreadBlock {
  std::uint64_t file = 0;  // TableFile::id_; 0: empty
  std::uint64_t key = 0;
  std::shared_ptr<const std::vector<ValueCode>> codes;
};
thread_local std::array<ThreadBlock, ThreadBlockSlots> thread_blocks;

// Consecutive keys of one file go to consecutive slots (after an offset drawn from the file's
// id): the blocks of a table of up to ThreadBlockSlots blocks never push each other out, as
// they did when the key was hashed too (KQvKR's 116 blocks fell on about 94 slots, and two
// threads probing it fought over the shared cache's locks for the rest). Each run of
// ThreadBlockSlots keys is shifted by a hash of its number, so that blocks a whole number of
// runs apart (a verifier's look-ups a king-pair slice apart) do not all take one slot.
ThreadBlock& thread_block_slot(std::uint64_t file, std::uint64_t key) {
  return thread_blocks[(spread(file) + spread(key / ThreadBlockSlots) + key) % ThreadBlockSlots];
}

}  // namespace

Expected<ValueCode> TableFile::value(int side, std::uint64_t index) const {
  if (side != 0 && side != 1) return table_error(path_, "has no side " + std::to_string(side));
  if (index >= header_.entries)
    return table_error(
        path_, "has no entry " + std::to_string(index) + " (it has " + std::to_string(header_.entries) + " per side)");
  const std::size_t b = std::size_t(index / header_.block_entries);
  const std::size_t at = std::size_t(index % header_.block_entries);
  const std::uint64_t key = (std::uint64_t(b) << 1) | std::uint64_t(side);
  if (thread_cached_) {
    const ThreadBlock& mine = thread_block_slot(id_, key);
    if (mine.file == id_ && mine.key == key) return (*mine.codes)[at];
  }
  Expected<Block> block = shared_block(side, b, key);
  if (!block) return block.error();
  const ValueCode v = (**block)[at];
  if (thread_cached_) thread_block_slot(id_, key) = {id_, key, std::move(*block)};
  return v;
}

// Keys spread by a multiplicative hash: with `key % shard_count_`, the blocks a verifier
// reads a king-pair slice apart (512 blocks in a 6-man table) all fell to one part of 4
// blocks and were decompressed again on every look-up.
TableFile::CacheShard& TableFile::shard_of(std::uint64_t key) const { return shards_[spread(key) % shard_count_]; }

Expected<TableFile::Block> TableFile::shared_block(int side, std::size_t b, std::uint64_t key) const {
  CacheShard& shard = shard_of(key);
  {
    std::lock_guard<std::mutex> lock(shard.mutex);
    if (auto it = shard.blocks.find(key); it != shard.blocks.end()) {
      shard.recent.splice(shard.recent.begin(), shard.recent, it->second);  // now the most recently used
      return it->second->codes;
    }
  }
  // Read and decompress outside the lock so threads on different blocks do not wait for
  // each other; two threads on the same block just both decode it.
  auto codes = std::make_shared<std::vector<ValueCode>>();
  if (Status st = read_block(side, b, *codes); !st) return st.error();
  blocks_decompressed_.fetch_add(1, std::memory_order_relaxed);
  std::lock_guard<std::mutex> lock(shard.mutex);
  if (auto it = shard.blocks.find(key); it != shard.blocks.end()) return it->second->codes;  // another was faster
  // Least recently used out first: a probing program's working set (the blocks of the
  // positions of one game) stays while the blocks it left behind go.
  while (shard.blocks.size() >= blocks_per_shard_) {
    shard.blocks.erase(shard.recent.back().key);
    shard.recent.pop_back();
  }
  shard.recent.push_front({key, codes});
  shard.blocks.emplace(key, shard.recent.begin());
  return Block(std::move(codes));
}

Status TableFile::for_each_block(int side, const std::function<void(std::uint64_t, std::span<const ValueCode>)>& f,
                                 std::uint64_t first, std::uint64_t end) const {
  if (side != 0 && side != 1) return table_error(path_, "has no side " + std::to_string(side));
  std::vector<ValueCode> codes;  // open() bounded block_entries: a bounded allocation
  const std::uint64_t per_block = header_.block_entries;
  const std::size_t last = std::size_t(std::min<std::uint64_t>(
      header_.blocks[side].size(), end == UINT64_MAX ? UINT64_MAX : (end + per_block - 1) / per_block));
  for (std::size_t b = std::size_t(first / per_block); b < last; ++b) {
    if (Status st = read_block(side, b, codes); !st) return st;
    f(b * std::uint64_t(header_.block_entries), codes);
  }
  return Ok{};
}

namespace {

// A side of `path` that needs more memory than the system gives.
Error side_too_large(const std::string& path, int side, std::uint64_t bytes) {
  return error(ErrorKind::ResourceLimit, "table '" + path + "': side " + std::to_string(side) + " needs " +
                                             std::to_string(bytes) + " bytes, more than can be allocated");
}

}  // namespace

Expected<std::vector<ValueCode>> TableFile::load_side(int side) const {
  // open() bounded entries by blocks x block_entries, so this is what the blocks decompress
  // to; an allocation the system refuses still comes back as an error, not an exception.
  std::vector<ValueCode> codes;
  try {
    codes.resize(header_.entries);
  } catch (const std::bad_alloc&) {
    return side_too_large(path_, side, header_.entries * sizeof(ValueCode));
  }
  Status read = for_each_block(side, [&](std::uint64_t first, std::span<const ValueCode> block) {
    std::copy(block.begin(), block.end(), codes.begin() + std::ptrdiff_t(first));
  });
  if (!read) return read.error();
  return codes;
}

Expected<ValueArray> TableFile::load_side_values(int side) const { return load_side_values(side, 0, header_.entries); }

Expected<ValueArray> TableFile::load_side_values(int side, std::uint64_t first, std::uint64_t end) const {
  if (first > end || end > header_.entries)
    return error(ErrorKind::Internal,
                 "table '" + path_ + "' has no entries [" + std::to_string(first) + ", " + std::to_string(end) + ")");
  ValueArray values;
  try {
    values = ValueArray(end - first);
  } catch (const std::bad_alloc&) {
    return side_too_large(path_, side, end - first);
  }
  try {
    Status read = for_each_block(
        side,
        [&](std::uint64_t block_first, std::span<const ValueCode> block) {
          // The part of the block inside [first, end).
          const std::uint64_t from = std::max(first, block_first);
          const std::uint64_t to = std::min(end, block_first + block.size());
          if (from < to) values.write(from - first, block.subspan(from - block_first, to - from));
        },
        first, end);
    if (!read) return read.error();
  } catch (const std::bad_alloc&) {  // widening (a mate longer than a byte holds) refused
    return side_too_large(path_, side, 2 * (end - first));
  }
  return values;
}

}  // namespace feerie

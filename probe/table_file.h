// Table files on disk (SPEC 6; byte layout in docs/format.md).
//
//   prefix (24 bytes, little-endian): magic "FEERIETB", u32 format version,
//          u32 header length, u64 XXH64 of the header bytes
//   header: TableHeader serialised with a Boost.Serialization text archive (portable)
//   body:   for each side to move (white, then black): the side's value codes (u16
//           little-endian) cut into blocks of `block_entries` entries, each block
//           compressed with zstd on its own; the header holds each block's offset
//           (from the start of the body), compressed size and XXH64 of its bytes.
//
// Files are written to "<path>.tmp.<pid>.<n>" and renamed when complete, so a crash never leaves a
// half table under the real name. Readers check the magic, the version, the header
// checksum, the file size and every block checksum, and report any mismatch as an error
// naming the file; they never crash on a bad file.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "probe/atomic_file.h"  // remove_stale_temporaries(), for the writers of tables
#include "probe/table_header.h"
#include "probe/value.h"
#include "probe/value_array.h"
#include "rules/expected.h"

struct stat;

namespace feerie {

// Where a table lives: <directory>/<condition>/<material>.ftb, the material in its stored
// orientation. The one place that says so.
inline constexpr const char* TableExtension = ".ftb";
inline std::string table_file_name(const std::string& material_name) { return material_name + TableExtension; }
inline std::string condition_directory(const std::string& directory, const std::string& condition) {
  return (std::filesystem::path(directory) / condition).string();
}
inline std::string table_file_path(const std::string& directory, const std::string& condition,
                                   const std::string& material_name,
                                   const Stipulation& stipulation = Stipulation::direct_mate()) {
  return (std::filesystem::path(condition_directory(directory, condition)) /
          table_file_name(material_name + stipulation.file_tag()))
      .string();
}

// The newest format version: 3, a table of another stipulation than direct mate; the
// reader also reads 2, the direct-mate tables (whose bytes did not change).
inline constexpr std::uint32_t TableFormatVersion = 3;
inline constexpr std::uint32_t DefaultBlockEntries = 32768;
// The largest block_entries a reader accepts (docs/format.md, "What the reader checks"): a
// block is decompressed into 2 x block_entries bytes, and the header's value must not decide
// how much a probe allocates. 128 times the default, so 8 MB per block.
inline constexpr std::uint32_t MaxBlockEntries = std::uint32_t(1) << 22;
// The compressed bytes write_table() holds before it writes the file. A table whose
// compressed blocks take more is compressed twice: once for the sizes and checksums of its
// blocks (the header, before the body, holds them), again as the blocks past this bound are
// written, so that the solver's values and the whole compressed table are never held at
// once (orthodox KQRvKQR: 14.4 GiB of values and 4.2 GiB of compressed blocks, peak 20.6
// GiB). Above the compressed size of every 5-man table here, which keep their one
// compression.
inline constexpr std::uint64_t HeldCompressedBytes = std::uint64_t(256) << 20;
// The blocks compressed at once when a table is compressed in batches (128 M entries of the
// default blocks: some tens of MiB compressed).
inline constexpr std::uint64_t WriteBatchBlocks = 4096;

// The block caches of TableFile::value(), which bound what reading a table through its blocks
// holds in memory. The shared cache of one open file holds no more than MaxCachedBytes of
// decompressed codes (one block at least: blocks of up to MaxBlockEntries would make 256 of
// them 2 GB); a thread keeps references to up to ThreadBlockSlots blocks of up to
// ThreadBlockBytes each (of any file), which keep those blocks alive after the shared cache
// let them go.
inline constexpr std::uint64_t MaxCachedBytes = std::uint64_t(16) << 20;
inline constexpr std::size_t ThreadBlockSlots = 256;
inline constexpr std::size_t ThreadBlockBytes = std::size_t(64) << 10;
// The most the shared cache of one file of `entries` per side holds (blocks of the default size).
inline std::uint64_t shared_block_cache_bytes(std::uint64_t entries) {
  return std::min<std::uint64_t>(2 * entries * sizeof(ValueCode), MaxCachedBytes);
}
// Whether a table of `entries` per side that a solver would read through its blocks is
// read whole instead (gen/exit_tables.h): its values, a byte per entry, then take no more
// than its shared block cache may hold, and its look-ups take no lock, copy no block
// reference and decompress nothing (orthodox KRPvKR: its captures lead to 4-man tables of
// 7.4 M entries per side, looked up from most of its positions).
inline bool read_whole_instead_of_blocks(std::uint64_t entries) { return 2 * entries <= MaxCachedBytes; }
// The most one thread's own references hold.
inline constexpr std::uint64_t ThreadBlockCacheBytes = std::uint64_t(ThreadBlockSlots) * ThreadBlockBytes;

// The codes of one side of a table as a writer reads them, block by block, without a copy
// of the whole side in this format: fill(first, out) writes the codes of entries
// [first, first + out.size()). Called from several threads at once, for disjoint ranges.
struct ValueSource {
  std::uint64_t size = 0;
  std::function<void(std::uint64_t first, std::span<ValueCode> out)> fill;
  // The codes of a span or an array (which must outlive the source).
  static ValueSource of(std::span<const ValueCode> codes);
  static ValueSource of(const ValueArray& values);
};

// Writes `values[side]` (each of header.entries codes) to `path` through "<path>.tmp.<pid>.<n>"
// and a rename, holding no more than HeldCompressedBytes of compressed blocks and a batch of
// WriteBatchBlocks. Fills header.blocks and header.block_entries. Errors (disk full, unwritable
// directory) name the path and leave no file under `path`. `held_bytes` other than
// HeldCompressedBytes: for tests (the bytes written do not depend on it).
Status write_table(const std::string& path, TableHeader header, const std::array<ValueSource, 2>& values,
                   std::uint64_t held_bytes = HeldCompressedBytes);
Status write_table(const std::string& path, TableHeader header, const std::array<std::vector<ValueCode>, 2>& values);

// The two parts write_table() makes a file of, for writers that assemble one from pieces
// (a table spread over processes, gen/partitioned_table.h). compress_blocks() compresses
// the blocks of `codes` (whole blocks of `block_entries`, the last one possibly short),
// each into a string of its own. table_file_start() is the prefix and header of a file
// whose header is complete (blocks, block_entries); the blocks follow in order.
Status compress_blocks(const ValueSource& codes, std::uint32_t block_entries, std::vector<std::string>& blocks);
Expected<std::string> table_file_start(const TableHeader& header);

// An open table file: one descriptor for its life, every read a pread on it. Thread-safety:
// value() and load_side() may be called concurrently; decompressed blocks are cached
// (bounded, least recently used out first) in parts, each behind a lock of its own, and
// each thread keeps references to the blocks it read last (at most 256 blocks of up to 64
// KiB, 16 MiB, released as it reads others or when it ends), so that a probe of a block
// the thread read before takes no lock. Errors: NotFound for a file that
// does not exist, IOError for what the system refuses (open, read), Corruption for what the
// bytes say (bad magic, checksums, sizes, a file cut short).
class TableFile {
 public:
  // Opens and checks the prefix, header checksum and file size, and bounds every count and
  // size in the header before allocating for it (docs/format.md). Errors name the path.
  static Expected<std::unique_ptr<TableFile>> open(const std::string& path);
  ~TableFile();
  TableFile(const TableFile&) = delete;
  TableFile& operator=(const TableFile&) = delete;

  const TableHeader& header() const { return header_; }
  const std::string& path() const { return path_; }

  // The value code of one entry; an error if its block is corrupt.
  Expected<ValueCode> value(int side, std::uint64_t index) const;
  // All entries of one side, decompressed (for the generator and the verifier).
  Expected<std::vector<ValueCode>> load_side(int side) const;
  // The same in a ValueArray: one byte per entry when every code fits in one (with a high bit
  // per entry more for mates of 152 to 303 plies), decompressed
  // block by block (never the side at two bytes per entry and at one at once).
  Expected<ValueArray> load_side_values(int side) const;
  // Entries [first, end) of one side in a ValueArray of end - first entries (entry `first`
  // at 0), reading only the blocks they fall in: the part of a table one process of
  // `feerie verify --mpi` holds (gen/verify.h). Precondition: first <= end <= entries.
  Expected<ValueArray> load_side_values(int side, std::uint64_t first, std::uint64_t end) const;
  // Reads every block and compares it with its checksum and the size its compressed frame
  // declares with the block's, without decompressing: the check before a table on disk is
  // trusted again (`feerie gen` reusing it, `feerie check`). `decompress`: decompresses
  // every block too (`feerie check --deep`), which finds a block whose checksum was made
  // to match but whose data does not decompress (issue 27 E).
  Status check_blocks(bool decompress = false) const;

  // Whether the file now under this table's path is no longer the one opened: another
  // table renamed over it (as `feerie gen` writes one), the file rewritten in place (its
  // size or modification time changed) or removed. Looks (a stat) at most once a second,
  // and in between answers what it saw last, so that a prober may ask on every probe; once
  // true it stays true. The open descriptor goes on reading the file opened.
  bool replaced_on_disk() const {
    if (replaced_.load(std::memory_order_relaxed)) return true;
    return coarse_now_ns() >= next_look_ns_.load(std::memory_order_relaxed) && look_whether_replaced();
  }

  // Lets go of the decompressed blocks of the shared cache (a block a reader holds lives
  // until it lets go): for a table replaced on disk, which stays open for the readers that
  // may still be in it but is not read again.
  void release_cache() const;

  // The blocks value() has decompressed since the file was opened (each read of a block
  // that was in neither the thread's nor the shared cache): how well the caches serve a
  // pattern of look-ups.
  std::uint64_t blocks_decompressed() const { return blocks_decompressed_.load(std::memory_order_relaxed); }

 private:
  // A clock of the kernel's tick, read in a few nanoseconds (on every probe).
  static std::int64_t coarse_now_ns();
  // replaced_on_disk() when it is time to look: one thread looks (a stat), the others
  // answer what was seen last.
  bool look_whether_replaced() const;
  TableFile() = default;
  // Reads and decompresses block b of `side` into `out`.
  Status read_block(int side, std::size_t b, std::vector<ValueCode>& out) const;
  // Decompresses the blocks of one side in order: f(first entry, its codes). Only the
  // blocks holding an entry of [first, end) when a range is given.
  Status for_each_block(int side, const std::function<void(std::uint64_t, std::span<const ValueCode>)>& f,
                        std::uint64_t first = 0, std::uint64_t end = UINT64_MAX) const;

  using Block = std::shared_ptr<const std::vector<ValueCode>>;
  struct CachedBlock {
    std::uint64_t key;  // block << 1 | side
    Block codes;
  };
  // One part of the block cache: the blocks whose key falls to it, least recently used out
  // first. The cache is cut into parts, each behind its own lock, so that threads probing
  // one table at once rarely wait for each other (issue 22: one lock made 2 threads slower
  // than 1).
  struct alignas(64) CacheShard {  // a cache line of its own: no false sharing between parts
    std::mutex mutex;
    std::list<CachedBlock> recent;  // most recently used first
    std::unordered_map<std::uint64_t, std::list<CachedBlock>::iterator> blocks;
  };
  CacheShard& shard_of(std::uint64_t key) const;

  // The block of `key` from the shared cache, or read and put there.
  Expected<Block> shared_block(int side, std::size_t b, std::uint64_t key) const;

  // Tells this file apart in the threads' own references to recent blocks (never reused,
  // unlike an address).
  const std::uint64_t id_ = next_id_.fetch_add(1) + 1;
  static inline std::atomic<std::uint64_t> next_id_{0};
  std::string path_;
  int fd_ = -1;
  // The file opened, told apart from one put under its path since (replaced_on_disk()).
  struct Identity {
    std::uint64_t device = 0, inode = 0, size = 0;
    // The change time too: a copy that keeps the size and sets the modification time back
    // (cp -p, rsync -t) changes it.
    std::int64_t modified_ns = 0, changed_ns = 0;
    bool operator==(const Identity&) const = default;
  };
  static Identity identity_of(const struct stat& st);
  Identity identity_;
  mutable std::atomic<std::int64_t> next_look_ns_{0};
  mutable std::atomic<bool> replaced_{false};
  mutable std::atomic<std::uint64_t> blocks_decompressed_{0};
  TableHeader header_;
  std::uint64_t body_offset_ = 0;
  std::size_t shard_count_ = 1;
  std::size_t blocks_per_shard_ = 1;
  bool thread_cached_ = false;  // blocks small enough for the threads' own references
  mutable std::unique_ptr<CacheShard[]> shards_;
};

}  // namespace feerie

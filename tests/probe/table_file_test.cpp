#include "probe/table_file.h"

#include <gtest/gtest.h>
#include <unistd.h>
#include <xxhash.h>
#include <zstd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

namespace feerie {
namespace {

namespace fs = std::filesystem;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Codes with runs (so blocks compress) and every kind of state.
std::vector<ValueCode> random_codes(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<ValueCode> codes(n);
  ValueCode current = value::Draw;
  for (auto& c : codes) {
    if (rng() % 4 == 0) current = static_cast<ValueCode>(rng() % 8 == 0 ? 65535 - rng() % 3 : rng() % 200);
    c = current;
  }
  return codes;
}

TableHeader sample_header(std::uint64_t entries, std::uint32_t block_entries) {
  TableHeader h;
  h.condition = "orthodox";
  h.material = "KQvK";
  h.index_layout = "kk-462 q64 (test layout)";
  h.entries = entries;
  h.block_entries = block_entries;
  h.generator = "feerie 0.1.0 test";
  h.stats[0] = {
      1000, 600, 300, 100, 80, 40, 12, 19, "8/8/8/3k4/8/8/8/KQ6 w - - 0 1", 17, "8/8/8/8/3k4/8/8/KQ6 w - - 0 1"};
  h.stats[1] = {1001, 0, 301, 700, 0, 41, 90, -1, "", -1, ""};
  return h;
}

std::string read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_bytes(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Offset of the body: 24-byte prefix plus the header length stored at bytes 12..15.
std::size_t body_offset(const std::string& file) {
  std::size_t len = 0;
  for (int i = 0; i < 4; ++i) len |= std::size_t(static_cast<unsigned char>(file[12 + i])) << (8 * i);
  return 24 + len;
}

// The header text of a table file: the bytes between the prefix and the body.
std::string header_text(const std::string& file) { return file.substr(24, body_offset(file) - 24); }

// `file` with its header text replaced by `header`, and the prefix's header length (bytes
// 12..15) and header checksum (XXH64 with seed 0, bytes 16..23) recomputed: what someone
// crafting a file does, so that the reader's checks behind the checksum are what refuses it.
std::string with_header(const std::string& file, const std::string& header) {
  std::string out = file.substr(0, 12);
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((header.size() >> (8 * i)) & 0xff));
  std::uint64_t sum = XXH64(header.data(), header.size(), 0);
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((sum >> (8 * i)) & 0xff));
  return out + header + file.substr(body_offset(file));
}

// `file` with the one occurrence of `from` in its header text replaced by `to`, checksum
// recomputed. A `from` that is not there exactly once fails the test (the header text
// changed, and the test would no longer craft what it says).
std::string with_header_edit(const std::string& file, const std::string& from, const std::string& to) {
  std::string header = header_text(file);
  std::size_t at = header.find(from);
  EXPECT_NE(at, std::string::npos) << "'" << from << "' is not in the header: " << header;
  if (at == std::string::npos) return file;
  EXPECT_EQ(header.find(from, at + 1), std::string::npos) << "'" << from << "' is in the header twice: " << header;
  return with_header(file, header.replace(at, from.size(), to));
}

class TableFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // ctest runs each test in its own process, possibly in parallel: the pid and the
    // test name keep the directories apart.
    dir_ = fs::temp_directory_path() / ("feerie_table_file_test_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  // Writes a table of `entries` random codes per side; returns the codes.
  std::array<std::vector<ValueCode>, 2> write(const std::string& path, std::uint64_t entries = 3456,
                                              std::uint32_t block_entries = 100) {
    std::array<std::vector<ValueCode>, 2> values = {random_codes(entries, 1), random_codes(entries, 2)};
    Status st = write_table(path, sample_header(entries, block_entries), values);
    EXPECT_TRUE(st.ok()) << (st.ok() ? "" : st.error_message());
    return values;
  }

  // Whether a temporary file of a write ("<name>.tmp.<pid>.<n>") is left in `dir`.
  static bool has_temporary_file(const fs::path& dir) {
    for (const auto& e : fs::recursive_directory_iterator(dir))
      if (e.path().filename().string().find(".tmp") != std::string::npos) return true;
    return false;
  }

  fs::path dir_;
};

// write_table() holds compressed blocks up to a bound and compresses the rest a second time
// as it writes them: the file's bytes do not depend on the bound. 70,000 entries in blocks
// of 16: 4,375 blocks per side, more than a batch of 4,096, so that both passes cross a
// batch boundary; bounds that hold nothing, part of side 0, part of side 1 and everything.
TEST_F(TableFileTest, TheBytesWrittenDoNotDependOnTheCompressedBytesHeld) {
  const std::uint64_t entries = 70000;
  const std::array<std::vector<ValueCode>, 2> codes = {random_codes(entries, 5), random_codes(entries, 6)};
  const std::array<ValueSource, 2> values = {ValueSource::of(codes[0]), ValueSource::of(codes[1])};
  const std::string whole = (dir_ / "whole.ftb").string();
  ASSERT_TRUE(write_table(whole, sample_header(entries, 16), values).ok());
  const std::string expected = read_bytes(whole);
  const std::uint64_t body = expected.size() - body_offset(expected);
  ASSERT_GT(body, 1000u);
  for (std::uint64_t held : {std::uint64_t(0), body / 4, body / 2 + body / 4, body}) {
    const std::string path = (dir_ / ("held" + std::to_string(held) + ".ftb")).string();
    Status st = write_table(path, sample_header(entries, 16), values, held);
    ASSERT_TRUE(st.ok()) << st.error_message();
    EXPECT_EQ(read_bytes(path), expected) << "held " << held << " of " << body << " bytes";
  }
  Expected<std::unique_ptr<TableFile>> t = TableFile::open((dir_ / "held0.ftb").string());
  ASSERT_TRUE(t.ok()) << t.error_message();
  for (int side = 0; side < 2; ++side) {
    Expected<std::vector<ValueCode>> back = (*t)->load_side(side);
    ASSERT_TRUE(back.ok()) << back.error_message();
    EXPECT_EQ(*back, codes[std::size_t(side)]);
  }
}

TEST_F(TableFileTest, RoundTrip) {
  std::string path = (dir_ / "KQvK.ftb").string();
  auto values = write(path);
  EXPECT_FALSE(has_temporary_file(dir_));

  Expected<std::unique_ptr<TableFile>> t = TableFile::open(path);
  ASSERT_TRUE(t.ok()) << t.error_message();
  const TableHeader& h = (*t)->header();
  TableHeader expected = sample_header(3456, 100);
  EXPECT_EQ(h.condition, expected.condition);
  EXPECT_EQ(h.material, expected.material);
  EXPECT_EQ(h.index_layout, expected.index_layout);
  EXPECT_EQ(h.generator, expected.generator);
  EXPECT_EQ(h.entries, 3456u);
  EXPECT_EQ(h.block_entries, 100u);
  for (int s = 0; s < 2; ++s) {
    EXPECT_EQ(h.blocks[s].size(), 35u);
    const SideStatistics &a = h.stats[s], &b = expected.stats[s];
    EXPECT_EQ(a.positions, b.positions);
    EXPECT_EQ(a.win, b.win);
    EXPECT_EQ(a.draw, b.draw);
    EXPECT_EQ(a.loss, b.loss);
    EXPECT_EQ(a.classes_win, b.classes_win);
    EXPECT_EQ(a.classes_draw, b.classes_draw);
    EXPECT_EQ(a.classes_loss, b.classes_loss);
    EXPECT_EQ(a.longest_mate_plies, b.longest_mate_plies);
    EXPECT_EQ(a.longest_mate_fen, b.longest_mate_fen);
    EXPECT_EQ(a.classes_longest_mate_plies, b.classes_longest_mate_plies);
    EXPECT_EQ(a.classes_longest_mate_fen, b.classes_longest_mate_fen);
  }

  for (int s = 0; s < 2; ++s) {
    Expected<std::vector<ValueCode>> side = (*t)->load_side(s);
    ASSERT_TRUE(side.ok()) << side.error_message();
    EXPECT_EQ(*side, values[s]);
    for (std::uint64_t i = 0; i < h.entries; ++i) {
      Expected<ValueCode> v = (*t)->value(s, i);
      ASSERT_TRUE(v.ok()) << v.error_message();
      ASSERT_EQ(*v, values[s][i]) << "side " << s << " index " << i;
    }
  }
  EXPECT_FALSE((*t)->value(2, 0).ok());
  EXPECT_FALSE((*t)->value(-1, 0).ok());
  EXPECT_FALSE((*t)->value(0, h.entries).ok());
  EXPECT_FALSE((*t)->load_side(2).ok());
}

// The values a solve reads whole (Tablebase::load): a byte per entry when every code
// fits, two when one does not, the same codes either way.
TEST_F(TableFileTest, SideValuesAreNarrowWhenTheyFitExtendedForLongMatesAndWideOtherwise) {
  std::array<std::vector<ValueCode>, 3> values;
  for (int s = 0; s < 3; ++s)
    for (int i = 0; i < 1000; ++i)
      values[s].push_back(i % 7 == 0 ? value::Illegal : i % 5 == 0 ? value::Draw : value::mate_in_plies(i % 140));
  values[1][777] = value::mate_in_plies(narrow::MaxPlies + 40);  // longer than a byte holds: a high bit
  values[2][777] = value::mate_in_plies(narrow::HighOffset + narrow::MaxPlies + 1);  // longer than that
  for (int longer : {1, 2}) {
    std::string path = (dir_ / ("KQvK" + std::to_string(longer) + ".ftb")).string();
    ASSERT_TRUE(write_table(path, sample_header(1000, 64), {values[0], values[std::size_t(longer)]}).ok());
    Expected<std::unique_ptr<TableFile>> t = TableFile::open(path);
    ASSERT_TRUE(t.ok()) << t.error_message();
    for (int s = 0; s < 2; ++s) {
      Expected<ValueArray> side = (*t)->load_side_values(s);
      ASSERT_TRUE(side.ok()) << side.error_message();
      EXPECT_EQ(side->wide(), s == 1 && longer == 2);
      EXPECT_EQ(side->extended(), s == 1 && longer == 1);
      EXPECT_EQ(side->bytes(), s == 0 ? 1000u : longer == 1 ? 1000u + 16 * 8 : 2000u);
      EXPECT_EQ(side->codes(), values[s == 0 ? 0 : std::size_t(longer)]);
    }
  }
  std::string path = (dir_ / "KQvK1.ftb").string();
  Expected<std::unique_ptr<TableFile>> t = TableFile::open(path);
  ASSERT_TRUE(t.ok()) << t.error_message();
  EXPECT_FALSE((*t)->load_side_values(2).ok());
}

// `verify --mpi` (gen/verify.h): a process holds a range of entries of each side, read
// from the blocks that range falls in and no other (a corrupt block elsewhere does not
// stop it).
TEST_F(TableFileTest, RangeOfASideReadsOnlyItsBlocks) {
  std::string path = (dir_ / "KQvK.ftb").string();
  auto values = write(path);  // 3456 entries per side, blocks of 100
  BlockRef ref;
  {
    Expected<std::unique_ptr<TableFile>> t = TableFile::open(path);
    ASSERT_TRUE(t.ok()) << t.error_message();
    ref = (*t)->header().blocks[0][5];  // entries [500, 600) of side 0
  }
  std::string bytes = read_bytes(path);
  bytes[body_offset(bytes) + ref.offset + ref.size / 2] ^= 0x20;
  write_bytes(path, bytes);
  Expected<std::unique_ptr<TableFile>> t = TableFile::open(path);
  ASSERT_TRUE(t.ok()) << t.error_message();
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges = {
      {0, 0}, {0, 500}, {99, 101}, {600, 700}, {601, 3456}, {3455, 3456}, {3456, 3456}, {0, 3456}};
  for (int side = 0; side < 2; ++side) {
    for (auto [first, end] : ranges) {
      Expected<ValueArray> part = (*t)->load_side_values(side, first, end);
      const bool through_corrupt = side == 0 && first < 600 && end > 500;
      ASSERT_EQ(part.ok(), !through_corrupt) << side << " [" << first << ", " << end << ")";
      if (through_corrupt) {
        EXPECT_TRUE(contains(part.error_message(), "block 5 of side 0 is corrupt")) << part.error_message();
        continue;
      }
      ASSERT_EQ(part->size(), end - first);
      EXPECT_EQ(part->codes(), std::vector<ValueCode>(values[std::size_t(side)].begin() + std::ptrdiff_t(first),
                                                      values[std::size_t(side)].begin() + std::ptrdiff_t(end)))
          << side << " [" << first << ", " << end << ")";
    }
  }
  EXPECT_FALSE((*t)->load_side_values(1, 5, 3).ok());
  EXPECT_FALSE((*t)->load_side_values(1, 0, 3457).ok());
  EXPECT_FALSE((*t)->load_side_values(2, 0, 1).ok());
}

TEST_F(TableFileTest, EmptyTableAndDefaultBlockSize) {
  std::string path = (dir_ / "empty.ftb").string();
  ASSERT_TRUE(write_table(path, sample_header(0, 0), std::array<std::vector<ValueCode>, 2>{}).ok());
  Expected<std::unique_ptr<TableFile>> t = TableFile::open(path);
  ASSERT_TRUE(t.ok()) << t.error_message();
  EXPECT_EQ((*t)->header().block_entries, DefaultBlockEntries);
  EXPECT_TRUE((*t)->header().blocks[0].empty());
  ASSERT_TRUE((*t)->load_side(1).ok());
  EXPECT_TRUE((*t)->load_side(1)->empty());
  EXPECT_FALSE((*t)->value(0, 0).ok());
}

TEST_F(TableFileTest, WrongValueCountIsRejected) {
  std::string path = (dir_ / "KQvK.ftb").string();
  Status st = write_table(path, sample_header(10, 4), {std::vector<ValueCode>(10), std::vector<ValueCode>(9)});
  ASSERT_FALSE(st.ok());
  EXPECT_TRUE(contains(st.error_message(), path)) << st.error_message();
  EXPECT_FALSE(fs::exists(path));
}

TEST_F(TableFileTest, TruncatedFile) {
  std::string path = (dir_ / "KQvK.ftb").string();
  write(path);
  fs::resize_file(path, fs::file_size(path) - 10);
  Expected<std::unique_ptr<TableFile>> t = TableFile::open(path);
  ASSERT_FALSE(t.ok());
  EXPECT_TRUE(contains(t.error_message(), "truncated")) << t.error_message();
  EXPECT_TRUE(contains(t.error_message(), path)) << t.error_message();

  fs::resize_file(path, 20);  // inside the prefix
  t = TableFile::open(path);
  ASSERT_FALSE(t.ok());
  EXPECT_TRUE(contains(t.error_message(), "truncated")) << t.error_message();
}

// Issue 22: what the system refuses is an I/O error, what the bytes say is corruption, a
// file that is not there is not found (every failure used to be "corrupt").
TEST_F(TableFileTest, Issue22_ErrorKindsSayWhetherTheSystemOrTheBytesFailed) {
  Expected<std::unique_ptr<TableFile>> missing = TableFile::open((dir_ / "KRvK.ftb").string());
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error_kind(), ErrorKind::NotFound) << missing.error_message();

  const std::string file = (dir_ / "plain").string();
  write_bytes(file, "not a directory");
  Expected<std::unique_ptr<TableFile>> refused = TableFile::open(file + "/KQvK.ftb");  // ENOTDIR
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error_kind(), ErrorKind::IOError) << refused.error_message();
  EXPECT_TRUE(contains(refused.error_message(), "cannot be opened")) << refused.error_message();

  Expected<std::unique_ptr<TableFile>> directory = TableFile::open(dir_.string());
  ASSERT_FALSE(directory.ok());
  EXPECT_EQ(directory.error_kind(), ErrorKind::Corruption) << directory.error_message();
}

// The file is read through the descriptor opened once: cut short after it was opened, a
// block past the new end is a truncated table (Corruption), the blocks before it still
// read; replaced by another file under the same name, the open table reads on unchanged.
TEST_F(TableFileTest, Issue22_OneDescriptorForTheLifeOfTheTable) {
  std::string path = (dir_ / "KQvK.ftb").string();
  auto values = write(path);
  Expected<std::unique_ptr<TableFile>> t = TableFile::open(path);
  ASSERT_TRUE(t.ok()) << t.error_message();
  const std::uint64_t last = (*t)->header().entries - 1;
  fs::rename(path, path + ".old");
  write(path, 1000, 7);  // another table under the name, smaller
  Expected<ValueCode> v = (*t)->value(1, last);
  ASSERT_TRUE(v.ok()) << v.error_message();
  EXPECT_EQ(*v, values[1][last]);
  // Side 1 is the second half of the body: cut off, a block of it not read yet fails.
  fs::resize_file(path + ".old", fs::file_size(path + ".old") / 2);
  Expected<ValueCode> cut = (*t)->value(1, last - 150);
  ASSERT_FALSE(cut.ok());
  EXPECT_EQ(cut.error_kind(), ErrorKind::Corruption) << cut.error_message();
  EXPECT_TRUE(contains(cut.error_message(), "truncated")) << cut.error_message();
  Expected<ValueCode> first = (*t)->value(0, 0);
  ASSERT_TRUE(first.ok()) << first.error_message();
  EXPECT_EQ(*first, values[0][0]);
}

TEST_F(TableFileTest, TrailingBytes) {
  std::string path = (dir_ / "KQvK.ftb").string();
  write(path);
  write_bytes(path, read_bytes(path) + "extra");
  Expected<std::unique_ptr<TableFile>> t = TableFile::open(path);
  ASSERT_FALSE(t.ok());
  EXPECT_TRUE(contains(t.error_message(), "trailing")) << t.error_message();
}

TEST_F(TableFileTest, CorruptBlock) {
  std::string path = (dir_ / "KQvK.ftb").string();
  auto values = write(path);
  BlockRef ref;
  {
    Expected<std::unique_ptr<TableFile>> t = TableFile::open(path);
    ASSERT_TRUE(t.ok()) << t.error_message();
    ref = (*t)->header().blocks[0][5];
  }
  std::string bytes = read_bytes(path);
  bytes[body_offset(bytes) + ref.offset + ref.size / 2] ^= 0x20;
  write_bytes(path, bytes);

  Expected<std::unique_ptr<TableFile>> t = TableFile::open(path);  // the header is intact
  ASSERT_TRUE(t.ok()) << t.error_message();
  Expected<ValueCode> bad = (*t)->value(0, 5 * 100 + 3);
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(contains(bad.error_message(), "block 5 of side 0 is corrupt")) << bad.error_message();
  EXPECT_TRUE(contains(bad.error_message(), path)) << bad.error_message();
  Expected<std::vector<ValueCode>> side0 = (*t)->load_side(0);
  ASSERT_FALSE(side0.ok());
  EXPECT_TRUE(contains(side0.error_message(), "corrupt")) << side0.error_message();

  // Everything outside block 5 of side 0 still reads.
  for (std::uint64_t i : {0, 499, 600, 3455}) {
    Expected<ValueCode> v = (*t)->value(0, i);
    ASSERT_TRUE(v.ok()) << v.error_message();
    EXPECT_EQ(*v, values[0][i]);
  }
  Expected<ValueCode> other_side = (*t)->value(1, 503);
  ASSERT_TRUE(other_side.ok()) << other_side.error_message();
  EXPECT_EQ(*other_side, values[1][503]);
  Expected<std::vector<ValueCode>> side1 = (*t)->load_side(1);
  ASSERT_TRUE(side1.ok()) << side1.error_message();
  EXPECT_EQ(*side1, values[1]);
}

// Issue 27 E: a block whose bytes were changed and its checksum in the header made to
// match. If its frame declares another size, the cheap check (gen's reuse, `check`)
// refuses it; if only its data is damaged, `check --deep` (decompressing) does. Both were
// trusted before, and only a probe called the table corrupt.
TEST_F(TableFileTest, Reliability27E_BlockWithAMatchingChecksumThatDoesNotDecompress) {
  const std::string path = (dir_ / "KQvK.ftb").string();
  write(path);
  BlockRef ref;
  {
    Expected<std::unique_ptr<TableFile>> t = TableFile::open(path);
    ASSERT_TRUE(t.ok()) << t.error_message();
    ref = (*t)->header().blocks[0][5];
    ASSERT_TRUE((*t)->check_blocks(true).ok());
  }
  const std::string original = read_bytes(path);
  // Rewrites block 5 of side 0 in place by `change`, and its checksum in the header.
  auto crafted = [&](auto change) {
    std::string block = original.substr(body_offset(original) + ref.offset, ref.size);
    change(block);
    const std::uint64_t sum = XXH64(block.data(), block.size(), 0);
    std::string file = with_header_edit(original, std::to_string(ref.checksum), std::to_string(sum));
    file.replace(body_offset(file) + ref.offset, ref.size, block);
    write_bytes(path, file);
    Expected<std::unique_ptr<TableFile>> t = TableFile::open(path);
    EXPECT_TRUE(t.ok()) << t.error_message();
    return t.ok() ? std::move(*t) : nullptr;
  };
  // 100 entries: 200 bytes, one byte of frame content size after the magic number and the
  // frame header descriptor of a single-segment frame.
  ASSERT_EQ(ZSTD_getFrameContentSize(original.data() + body_offset(original) + ref.offset, ref.size), 200u);
  std::unique_ptr<TableFile> other_size = crafted([](std::string& block) { block[5] = char(199); });
  ASSERT_TRUE(other_size);
  Status cheap = other_size->check_blocks();
  ASSERT_FALSE(cheap.ok());
  EXPECT_TRUE(contains(cheap.error_message(), "block 5 of side 0 is corrupt (its frame holds 199 bytes, expected 200)"))
      << cheap.error_message();

  std::unique_ptr<TableFile> damaged = crafted([](std::string& block) {
    for (std::size_t i = 6; i < block.size(); ++i) block[i] = char(0xff);  // reserved block type
  });
  ASSERT_TRUE(damaged);
  EXPECT_TRUE(damaged->check_blocks().ok());  // the checksum and the declared size are right
  Status deep = damaged->check_blocks(true);
  ASSERT_FALSE(deep.ok());
  EXPECT_TRUE(contains(deep.error_message(), "block 5 of side 0 is corrupt (zstd")) << deep.error_message();
}

TEST_F(TableFileTest, CorruptHeader) {
  std::string path = (dir_ / "KQvK.ftb").string();
  write(path);
  std::string bytes = read_bytes(path);
  bytes[24 + 40] ^= 0x01;
  write_bytes(path, bytes);
  Expected<std::unique_ptr<TableFile>> t = TableFile::open(path);
  ASSERT_FALSE(t.ok());
  EXPECT_TRUE(contains(t.error_message(), "header is corrupt")) << t.error_message();
  EXPECT_TRUE(contains(t.error_message(), path)) << t.error_message();
}

// Boost's vector loader resized a vector to the count in the header text before reading
// any element: a crafted 18 KB file with a valid checksum and a count of 100,000,000 made
// `feerie stat` allocate 2.3 GB, and larger counts got it killed. Counts that large would
// still throw (or be killed) if anything were allocated for them: refusing them with the
// bound in the message shows the count was compared with the header bytes first.
TEST_F(TableFileTest, CraftedHeaderWithAHugeVectorCountIsRefusedWithoutAllocating) {
  std::string path = (dir_ / "KQvK.ftb").string();
  write(path);  // 3456 entries, 100 per block: 35 blocks per side
  std::string original = read_bytes(path);
  BlockRef first_of_side1;
  {
    Expected<std::unique_ptr<TableFile>> t = TableFile::open(path);
    ASSERT_TRUE(t.ok()) << t.error_message();
    first_of_side1 = (*t)->header().blocks[1][0];
  }
  // blocks[0]: entries, block_entries, the vector's class preamble (0 0), count, item version.
  // blocks[1]: count and item version, then its first element (no class preamble the second time).
  std::string side1_first = std::to_string(first_of_side1.offset) + " " + std::to_string(first_of_side1.size) + " " +
                            std::to_string(first_of_side1.checksum);
  struct Case {
    std::string from, to, count;
  } cases[] = {
      {"(test layout) 3456 100 0 0 35 0 ", "(test layout) 3456 100 0 0 1000000000000 0 ", "1000000000000"},
      {" 35 0 " + side1_first, " 18446744073709551615 0 " + side1_first, "18446744073709551615"},
      // Just above what is left: fails on the count, not later when the text runs out.
      {"(test layout) 3456 100 0 0 35 0 ", "(test layout) 3456 100 0 0 " + std::to_string(original.size()) + " 0 ",
       std::to_string(original.size())},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.to);
    write_bytes(path, with_header_edit(original, c.from, c.to));
    Expected<std::unique_ptr<TableFile>> t = TableFile::open(path);
    ASSERT_FALSE(t.ok());
    EXPECT_EQ(t.error_kind(), ErrorKind::Corruption);
    EXPECT_TRUE(contains(t.error_message(), path)) << t.error_message();
    std::string expected = "header is corrupt (a vector of " + c.count + " elements is beyond what the";
    EXPECT_TRUE(contains(t.error_message(), expected)) << t.error_message();
    EXPECT_TRUE(contains(t.error_message(), "header bytes left can hold")) << t.error_message();
  }
}

// Boost's text archive read a string's length and resized the string to it before reading
// its bytes, so the length of any string in the header decided an allocation.
TEST_F(TableFileTest, CraftedHeaderWithAHugeStringLengthIsRefusedWithoutAllocating) {
  std::string path = (dir_ / "KQvK.ftb").string();
  write(path);
  std::string original = read_bytes(path);
  // The first string, a string inside a class (the statistics), and the last one.
  for (std::string text : {"orthodox", "8/8/8/3k4/8/8/8/KQ6 w - - 0 1", "feerie 0.1.0 test"}) {
    SCOPED_TRACE(text);
    std::string length = std::to_string(text.size()) + " ";
    write_bytes(path, with_header_edit(original, " " + length + text, " 1000000000000 " + text));
    Expected<std::unique_ptr<TableFile>> t = TableFile::open(path);
    ASSERT_FALSE(t.ok());
    EXPECT_EQ(t.error_kind(), ErrorKind::Corruption);
    EXPECT_TRUE(contains(t.error_message(), path)) << t.error_message();
    EXPECT_TRUE(contains(t.error_message(), "header is corrupt (a string of 1000000000000 bytes is beyond what the"))
        << t.error_message();
  }

  // The bound is exact: the generator, last in the header, is followed only by the archive's
  // final newline, so it may take those 18 bytes but not 19.
  write_bytes(path, with_header_edit(original, " 17 feerie 0.1.0 test", " 18 feerie 0.1.0 test"));
  Expected<std::unique_ptr<TableFile>> t = TableFile::open(path);
  ASSERT_TRUE(t.ok()) << t.error_message();
  EXPECT_EQ((*t)->header().generator, "feerie 0.1.0 test\n");
  write_bytes(path, with_header_edit(original, " 17 feerie 0.1.0 test", " 19 feerie 0.1.0 test"));
  t = TableFile::open(path);
  ASSERT_FALSE(t.ok());
  EXPECT_TRUE(contains(t.error_message(), "a string of 19 bytes is beyond what the 18 header bytes left can hold"))
      << t.error_message();
}

// block_entries decides how much each block decompression allocates (2 bytes an entry): a
// consistent crafted file with one block of 4e9 entries per side opened, and the first probe
// allocated 8 GB.
TEST_F(TableFileTest, CraftedHeaderWithHugeBlockEntriesIsRefusedBeforeAnyBlockIsRead) {
  std::string path = (dir_ / "KQvK.ftb").string();
  write(path, 3456, 3456);  // one block per side
  std::string original = read_bytes(path);
  const std::string from = "(test layout) 3456 3456 ";
  for (std::uint64_t n : {std::uint64_t(4000000000u), std::uint64_t(MaxBlockEntries) + 1}) {
    std::string count = std::to_string(n);
    write_bytes(path, with_header_edit(original, from, "(test layout) " + count + " " + count + " "));
    Expected<std::unique_ptr<TableFile>> t = TableFile::open(path);
    ASSERT_FALSE(t.ok());
    EXPECT_EQ(t.error_kind(), ErrorKind::Corruption);
    EXPECT_TRUE(contains(t.error_message(), path)) << t.error_message();
    EXPECT_TRUE(contains(t.error_message(), "header is corrupt (block_entries is " + count + ", above the maximum " +
                                                std::to_string(MaxBlockEntries) + ")"))
        << t.error_message();
  }

  // The maximum itself is accepted; its one block per side then fails to decompress to that
  // many entries, which takes 8 MB.
  std::string max = std::to_string(MaxBlockEntries);
  write_bytes(path, with_header_edit(original, from, "(test layout) " + max + " " + max + " "));
  Expected<std::unique_ptr<TableFile>> t = TableFile::open(path);
  ASSERT_TRUE(t.ok()) << t.error_message();
  Expected<ValueCode> v = (*t)->value(0, 0);
  ASSERT_FALSE(v.ok());
  EXPECT_TRUE(contains(v.error_message(), "block 0 of side 0 is corrupt")) << v.error_message();
}

// The block count was (entries + block_entries - 1) / block_entries, which wrapped: a header
// with 2^64 - 1 entries of 2 per block and no blocks at all opened, and value() indexed past
// the end of the (empty) block list.
TEST_F(TableFileTest, CraftedHeaderWhoseEntriesOverflowTheBlockCountIsRefused) {
  std::string path = (dir_ / "empty.ftb").string();
  ASSERT_TRUE(write_table(path, sample_header(0, 0), std::array<std::vector<ValueCode>, 2>{}).ok());
  write_bytes(path,
              with_header_edit(read_bytes(path), "(test layout) 0 32768 ", "(test layout) 18446744073709551615 2 "));
  Expected<std::unique_ptr<TableFile>> t = TableFile::open(path);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error_kind(), ErrorKind::Corruption);
  EXPECT_TRUE(contains(t.error_message(), "side 0 has 0 blocks, expected 9223372036854775808")) << t.error_message();
}

// A block's compressed size is what reading it allocates; open() requires the sizes to add
// up to the file size, so a crafted size of 4 GB is refused before any block is read.
TEST_F(TableFileTest, CraftedHeaderWithAHugeBlockSizeIsRefused) {
  std::string path = (dir_ / "KQvK.ftb").string();
  write(path);
  BlockRef last;
  {
    Expected<std::unique_ptr<TableFile>> t = TableFile::open(path);
    ASSERT_TRUE(t.ok()) << t.error_message();
    last = (*t)->header().blocks[1].back();
  }
  std::string offset = " " + std::to_string(last.offset) + " ", checksum = " " + std::to_string(last.checksum) + " ";
  write_bytes(path, with_header_edit(read_bytes(path), offset + std::to_string(last.size) + checksum,
                                     offset + "4294967295" + checksum));
  Expected<std::unique_ptr<TableFile>> t = TableFile::open(path);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error_kind(), ErrorKind::Corruption);
  EXPECT_TRUE(contains(t.error_message(), "is truncated (expected")) << t.error_message();
}

TEST_F(TableFileTest, OtherFormatVersion) {
  std::string path = (dir_ / "KQvK.ftb").string();
  write(path);
  std::string bytes = read_bytes(path);
  bytes[8] = char(TableFormatVersion + 1);
  write_bytes(path, bytes);
  Expected<std::unique_ptr<TableFile>> t = TableFile::open(path);
  ASSERT_FALSE(t.ok());
  std::string expected = "format version " + std::to_string(TableFormatVersion + 1) + ", this program reads 2 and " +
                         std::to_string(TableFormatVersion);
  EXPECT_TRUE(contains(t.error_message(), expected)) << t.error_message();
}

// A helpmate table (format version 3) carries its stipulation after the archive; a direct-mate
// header (version 2) has none, so its bytes did not change (issue 25).
TEST_F(TableFileTest, StipulationFollowsTheArchiveInVersionThree) {
  TableHeader header = sample_header(3456, 100);
  const std::string direct = *header_text(header);
  EXPECT_EQ(direct.find("stipulation"), std::string::npos);
  header.stipulation = Stipulation::helpmate(WHITE);
  const std::string help = *header_text(header);
  EXPECT_EQ(help, direct + "stipulation h#:white\n");
  Expected<TableHeader> back = parse_header_text(help);
  ASSERT_TRUE(back.ok()) << back.error_message();
  EXPECT_TRUE(back->stipulation == Stipulation::helpmate(WHITE));
  EXPECT_TRUE(parse_header_text(direct)->stipulation == Stipulation::direct_mate());
  for (const std::string& bad :
       {direct + "stipulation h#:green\n", direct + "stipulation\n", direct + "extra 1\n", help + "more\n"}) {
    Expected<TableHeader> h = parse_header_text(bad);
    ASSERT_FALSE(h.ok()) << bad;
    EXPECT_EQ(h.error_kind(), ErrorKind::Corruption);
  }

  // The version in the prefix and the header must agree: a file whose version byte was
  // changed is refused (its header checksum still matches).
  std::string path = (dir_ / "KQvK.help-white.ftb").string();
  std::array<std::vector<ValueCode>, 2> values = {random_codes(3456, 1), random_codes(3456, 2)};
  ASSERT_TRUE(write_table(path, header, values).ok());
  std::string bytes = read_bytes(path);
  EXPECT_EQ(bytes[8], 3);
  ASSERT_TRUE(TableFile::open(path).ok());
  bytes[8] = 2;
  write_bytes(path, bytes);
  Expected<std::unique_ptr<TableFile>> t = TableFile::open(path);
  ASSERT_FALSE(t.ok());
  EXPECT_TRUE(contains(t.error_message(), "format version 2 with stipulation h#:white")) << t.error_message();
  path = (dir_ / "KQvK.ftb").string();
  write(path);
  bytes = read_bytes(path);
  EXPECT_EQ(bytes[8], 2);
  bytes[8] = 3;
  write_bytes(path, bytes);
  t = TableFile::open(path);
  ASSERT_FALSE(t.ok());
  EXPECT_TRUE(contains(t.error_message(), "format version 3 with stipulation #")) << t.error_message();
}

TEST_F(TableFileTest, ForeignAndMissingFiles) {
  std::string foreign = (dir_ / "notes.txt").string();
  write_bytes(foreign, "These are not the tables you are looking for.\nRandom text, long enough for a prefix.\n");
  Expected<std::unique_ptr<TableFile>> t = TableFile::open(foreign);
  ASSERT_FALSE(t.ok());
  EXPECT_TRUE(contains(t.error_message(), "not a Feerie table")) << t.error_message();
  EXPECT_TRUE(contains(t.error_message(), foreign)) << t.error_message();

  write_bytes(foreign, "FEE");
  t = TableFile::open(foreign);
  ASSERT_FALSE(t.ok());
  EXPECT_TRUE(contains(t.error_message(), "not a Feerie table")) << t.error_message();

  std::string missing = (dir_ / "KRvK.ftb").string();
  t = TableFile::open(missing);
  ASSERT_FALSE(t.ok());
  EXPECT_TRUE(contains(t.error_message(), missing)) << t.error_message();
}

TEST_F(TableFileTest, UnwritableDirectory) {
  std::string path = (dir_ / "no_such_dir" / "KQvK.ftb").string();
  Status st = write_table(path, sample_header(10, 4), {std::vector<ValueCode>(10), std::vector<ValueCode>(10)});
  ASSERT_FALSE(st.ok());
  EXPECT_TRUE(contains(st.error_message(), path)) << st.error_message();
  EXPECT_FALSE(fs::exists(path));
  EXPECT_FALSE(has_temporary_file(dir_));
}

TEST_F(TableFileTest, TemporariesOfOneProcessAndOfDeadOnes) {
  for (const char* name : {"KQvK.ftb.tmp.99999999.0", "KQvK.ftb.tmp.12345.1", "KRvK.ftb"})
    std::ofstream(dir_ / name) << "x";
  std::ofstream(dir_ / ("KRvK.ftb.tmp." + std::to_string(::getpid()) + ".0")) << "x";
  EXPECT_EQ(remove_temporaries_of(dir_.string(), 12345), 1);
  EXPECT_EQ(remove_stale_temporaries(dir_.string()), 1);  // 99999999: no such process
  EXPECT_TRUE(fs::exists(dir_ / "KRvK.ftb"));
  EXPECT_TRUE(fs::exists(dir_ / ("KRvK.ftb.tmp." + std::to_string(::getpid()) + ".0")));
}

// Only Feerie's own temporaries are removed (an exploratory test: a user's
// "notes.txt.tmp.<dead pid>.0" beside the tables was deleted without a word).
TEST_F(TableFileTest, OnlyFeeriesTemporariesAreRemoved) {
  const std::vector<std::string> ours = {"KQvK.ftb.tmp.99999999.0", "KQvK.help-white.ftb.tmp.99999998.3",
                                         "KQvKR.0-of-2.ckpt.tmp.99999997.1", "write-test.tmp.99999996.0"};
  const std::vector<std::string> theirs = {"notes.txt.tmp.99999999.0", "KQvK.ftb.tmp.99999999", "KQvK.ftb.tmp.x.0",
                                           "KQvK.ftb.tmp.99999999.0.bak", "KQvK.ftbx.tmp.99999999.0"};
  for (const std::string& name : ours) std::ofstream(dir_ / name) << "x";
  for (const std::string& name : theirs) std::ofstream(dir_ / name) << "x";
  EXPECT_EQ(remove_stale_temporaries(dir_.string()), int(ours.size()));
  for (const std::string& name : ours) EXPECT_FALSE(fs::exists(dir_ / name)) << name;
  for (const std::string& name : theirs) EXPECT_TRUE(fs::exists(dir_ / name)) << name;
}

// Two writers of one table (two `feerie gen` runs into one directory) used to share the
// temporary name, and one failed with "cannot rename ... No such file or directory".
TEST_F(TableFileTest, TwoWritersOfOneTableBothSucceed) {
  std::string path = (dir_ / "KQvK.ftb").string();
  std::array<std::vector<ValueCode>, 2> values = {random_codes(5000, 1), random_codes(5000, 2)};
  Status results[2] = {Ok{}, Ok{}};
  std::thread a([&] { results[0] = write_table(path, sample_header(5000, 100), values); });
  std::thread b([&] { results[1] = write_table(path, sample_header(5000, 100), values); });
  a.join();
  b.join();
  EXPECT_TRUE(results[0].ok()) << results[0].error_message();
  EXPECT_TRUE(results[1].ok()) << results[1].error_message();
  Expected<std::unique_ptr<TableFile>> t = TableFile::open(path);
  ASSERT_TRUE(t.ok()) << t.error_message();
  EXPECT_TRUE((*t)->check_blocks().ok());
  EXPECT_FALSE(has_temporary_file(dir_));
}

// Look-ups that walk several blocks a fixed stride apart at once, as `feerie verify --part`
// does through the successors a king move leads to (a king-pair slice apart: 512 blocks in
// a 6-man table). Each block is decompressed once: the cache took a block's part from the
// block number alone, so that all eight fell to one part of four blocks and every look-up
// decompressed its block again (KQRvKQR's part 2 of 4 went 40 times slower than part 1).
TEST_F(TableFileTest, BlocksAStrideApartDoNotPushEachOtherOutOfTheCache) {
  constexpr std::uint64_t BlockEntries = 100, Stride = 512, Streams = 8;
  std::string path = (dir_ / "KQvK.ftb").string();
  auto values = write(path, Stride * Streams * BlockEntries, BlockEntries);
  Expected<std::unique_ptr<TableFile>> t = TableFile::open(path);
  ASSERT_TRUE(t.ok()) << t.error_message();
  const TableFile& table = **t;
  int mismatches = 0;
  for (int round = 0; round < 3; ++round)
    for (std::uint64_t at = 0; at < BlockEntries; ++at)
      for (std::uint64_t s = 0; s < Streams; ++s) {
        const std::uint64_t i = s * Stride * BlockEntries + at;
        Expected<ValueCode> v = table.value(1, i);
        if (!v.ok() || *v != values[1][i]) ++mismatches;
      }
  EXPECT_EQ(mismatches, 0);
  EXPECT_EQ(table.blocks_decompressed(), Streams);
}

TEST_F(TableFileTest, ConcurrentProbes) {
  // 400 blocks per side: more than the cache holds, so threads also race on its clearing.
  std::string path = (dir_ / "KQvK.ftb").string();
  auto values = write(path, 20000, 50);
  Expected<std::unique_ptr<TableFile>> t = TableFile::open(path);
  ASSERT_TRUE(t.ok()) << t.error_message();
  const TableFile& table = **t;

  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (unsigned k = 0; k < 4; ++k)
    threads.emplace_back([&, k] {
      std::mt19937 rng(k);
      for (int n = 0; n < 20000; ++n) {
        int side = static_cast<int>(rng() % 2);
        std::uint64_t i = rng() % values[side].size();
        Expected<ValueCode> v = table.value(side, i);
        if (!v.ok() || *v != values[side][i]) ++mismatches;
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(mismatches.load(), 0);
}

}  // namespace
}  // namespace feerie

#include "probe/table_header.h"

#include <boost/archive/text_iarchive.hpp>
#include <boost/archive/text_oarchive.hpp>
#include <boost/serialization/collection_size_type.hpp>
#include <boost/serialization/item_version_type.hpp>
#include <boost/serialization/library_version_type.hpp>
#include <boost/serialization/nvp.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>
#include <exception>
#include <sstream>
#include <stdexcept>

// The definitions of Boost's text input archive templates, which the library only compiles
// for its own text_iarchive: BoundedTextIArchive below instantiates them for itself (Boost's
// documented way of deriving an archive, as its portable_binary_iarchive example does).
#include <boost/archive/impl/basic_text_iarchive.ipp>
#include <boost/archive/impl/text_iarchive_impl.ipp>

namespace feerie {
namespace {

// A count or length in the header that the header bytes left cannot hold. Thrown while the
// header is parsed, before anything is allocated for it, and reported as corruption.
class HeaderBoundError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Boost's text input archive with every length it reads bounded by the header bytes left.
// Boost's own loaders resize a string or a vector to the length written in the text before
// reading a single element, so a crafted header (with a recomputed checksum) saying
// "100000000 elements" in 18 KB made the reader allocate gigabytes. Each char of a string
// and each element of a vector takes at least one byte of text, so a length above the bytes
// left is corrupt whatever follows. Numbers, the signature and the class preambles are parsed
// by Boost exactly as before: only the string load is replaced, and vectors get their own
// load for this archive (in boost::serialization below) that asks check_count() first.
class BoundedTextIArchive : public boost::archive::text_iarchive_impl<BoundedTextIArchive> {
 public:
  // `in` must be a string stream: its buffer knows exactly how many bytes are left.
  explicit BoundedTextIArchive(std::istringstream& in) : text_iarchive_impl(in, 0) {
    init();  // reads Boost's signature and library version, as text_iarchive's constructor does
  }

  // Throws HeaderBoundError if `count` items of at least one byte each cannot fit in the
  // header bytes not yet read. `what` and `unit` name them in the message.
  void check_count(std::uint64_t count, const char* what, const char* unit) {
    std::uint64_t left = bytes_left();
    if (count > left)
      throw HeaderBoundError("a " + std::string(what) + " of " + std::to_string(count) + " " + unit +
                             " is beyond what the " + std::to_string(left) + " header bytes left can hold");
  }

 private:
  friend class boost::archive::detail::interface_iarchive<BoundedTextIArchive>;
  friend class boost::archive::basic_text_iarchive<BoundedTextIArchive>;
  friend class boost::archive::load_access;

  std::uint64_t bytes_left() {
    std::streamsize n = is.rdbuf()->in_avail();  // exact for a std::stringbuf, which holds all of its text
    return n > 0 ? static_cast<std::uint64_t>(n) : 0;
  }

  using text_iarchive_impl::load;
  // Boost's text_iarchive_impl<Archive>::load(std::string&) (boost/archive/impl/
  // text_iarchive_impl.ipp) with the length checked before the resize: length, one
  // separating space, then the bytes.
  void load(std::string& s) {
    std::size_t size;
    *this >> size;
    is.get();
    check_count(size, "string", "bytes");
    s.resize(size);
    if (size > 0) is.read(s.data(), static_cast<std::streamsize>(size));
  }
};

}  // namespace
}  // namespace feerie

// Non-intrusive serialisation: the structs in table_file.h stay plain aggregates without
// Boost in their header. The field order here is the on-disk order (docs/format.md);
// changing it means bumping TableFormatVersion.
namespace boost::serialization {

template <class Archive>
void serialize(Archive& ar, feerie::BlockRef& b, unsigned /*version*/) {
  ar& b.offset& b.size& b.checksum;
}

// Loading a vector (the blocks of each side) with BoundedTextIArchive: more specialised than
// Boost's load of any vector in any archive (boost/serialization/vector.hpp), which
// split_free reaches through argument-dependent lookup, and the same apart from the bound.
// Boost reserves and resizes the vector to the count read from the text before loading an
// element; here the count is checked against the header bytes left first, and the elements
// are appended one by one, so memory only grows with elements actually read. Each element
// goes through Boost's own element load, which reads the class preamble (tracking level and
// version) before the first BlockRef as Boost wrote it. Saving is untouched: Boost's own
// save writes the count, the item version and the items.
template <class T, class Allocator>
void load(feerie::BoundedTextIArchive& ar, std::vector<T, Allocator>& items, const unsigned int /*version*/) {
  const library_version_type library_version(ar.get_library_version());
  item_version_type item_version(0);
  collection_size_type count;
  ar >> BOOST_SERIALIZATION_NVP(count);
  // As in Boost's vector load: archives of library version 4 and later hold an item version.
  if (library_version_type(3) < library_version) ar >> BOOST_SERIALIZATION_NVP(item_version);
  ar.check_count(count, "vector", "elements");
  items.clear();
  for (std::size_t i = 0; i < count; ++i) ar >> boost::serialization::make_nvp("item", items.emplace_back());
}

template <class Archive>
void serialize(Archive& ar, feerie::SideStatistics& s, unsigned /*version*/) {
  ar& s.positions& s.win& s.draw& s.loss;
  ar& s.classes_win& s.classes_draw& s.classes_loss;
  ar& s.longest_mate_plies& s.longest_mate_fen;
  ar& s.classes_longest_mate_plies& s.classes_longest_mate_fen;
}

template <class Archive>
void serialize(Archive& ar, feerie::TableHeader& h, unsigned /*version*/) {
  ar& h.condition& h.material& h.index_layout;
  ar& h.entries& h.block_entries;
  // std::array element by element: independent of how a Boost version encodes std::array.
  for (auto& side_blocks : h.blocks) ar& side_blocks;
  for (auto& side_stats : h.stats) ar& side_stats;
  ar& h.generator;
}

}  // namespace boost::serialization

namespace feerie {

std::uint32_t format_version_of(const TableHeader& header) {
  return header.stipulation == Stipulation::direct_mate() ? 2 : 3;
}

Expected<std::string> header_text(const TableHeader& header) {
  std::ostringstream header_stream;
  try {
    boost::archive::text_oarchive archive(header_stream);
    archive << header;
  } catch (const std::exception& e) {
    return error(ErrorKind::Internal, std::string("header serialisation failed: ") + e.what());
  }
  if (format_version_of(header) > 2) header_stream << "stipulation " << header.stipulation.header_name() << "\n";
  return header_stream.str();
}

Expected<TableHeader> parse_header_text(const std::string& text) {
  TableHeader header;
  try {
    std::istringstream header_stream(text);
    BoundedTextIArchive archive(header_stream);
    archive >> header;
    // What follows the archive: nothing, or the stipulation of a format version 3 header.
    std::string word, name, extra;
    if (header_stream >> word) {
      if (word != "stipulation" || !(header_stream >> name) || (header_stream >> extra))
        return error(ErrorKind::Corruption, "header is corrupt (text after its fields)");
      Expected<Stipulation> stipulation = Stipulation::parse_header_name(name);
      if (!stipulation) return error(ErrorKind::Corruption, "header is corrupt (" + stipulation.error_message() + ")");
      header.stipulation = *stipulation;
    }
  } catch (const HeaderBoundError& e) {
    return error(ErrorKind::Corruption, std::string("header is corrupt (") + e.what() + ")");
  } catch (const std::exception& e) {
    // In a file whose checksum matched: the writer was not this program's version of the
    // format (or of Boost's archive) rather than the disk.
    return error(ErrorKind::Corruption,
                 std::string("header is corrupt or from an incompatible writer (") + e.what() + ")");
  }
  return header;
}

}  // namespace feerie

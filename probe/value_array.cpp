#include "probe/value_array.h"

#include <sys/mman.h>

#include <new>

namespace feerie {

ValueArray::ValueArray(std::uint64_t size) : size_(size) {
  if (size == 0) return;
  void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  data_ = p;
}

ValueArray::~ValueArray() {
  if (high_) ::munmap(high_, high_bytes());
  if (data_) ::munmap(data_, wide_ ? 2 * size_ : size_);
}

void ValueArray::set(std::uint64_t i, ValueCode v) {
  if (!wide_) {
    std::uint8_t b;
    if ((!high_ || !value::is_mate(v) || value::plies(v) < high_offset_) && narrow::encode(v, b)) {
      narrow_data()[i] = b;
      if (high_) high_[i / 64] &= ~(std::uint64_t(1) << (i % 64));
      return;
    }
    if (!high_ && narrow::encode_high(v, narrow::HighOffset, b)) extend();
    if (high_ && narrow::encode_high(v, high_offset_, b)) {
      narrow_data()[i] = b;
      high_[i / 64] |= std::uint64_t(1) << (i % 64);
      return;
    }
    widen();
  }
  words()[i] = v;
}

void ValueArray::read(std::uint64_t first, std::span<ValueCode> out) const {
  if (wide_ || high_) {
    for (std::size_t k = 0; k < out.size(); ++k) out[k] = at(first + k);
  } else {
    const std::uint8_t* bytes = narrow_data() + first;
    for (std::size_t k = 0; k < out.size(); ++k) out[k] = narrow::decode(bytes[k]);
  }
}

void ValueArray::extend(int high_offset) {
  high_offset_ = high_offset;
  if (size_ == 0) return;
  void* p = ::mmap(nullptr, high_words_bytes(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  high_ = static_cast<std::uint64_t*>(p);
}

void ValueArray::widen() {
  if (wide_) return;
  if (size_ == 0) {
    wide_ = true;
    return;
  }
  // The kernel moves the pages if it must, without copying them.
  void* p = ::mremap(data_, size_, 2 * size_, MREMAP_MAYMOVE);
  if (p == MAP_FAILED) throw std::bad_alloc();
  data_ = p;
  // From the end: entry i's two bytes (2i, 2i + 1) lie at or after byte i, so they only
  // overwrite bytes already converted.
  const std::uint8_t* bytes = static_cast<const std::uint8_t*>(p);
  ValueCode* words = static_cast<ValueCode*>(p);
  if (high_) {
    for (std::uint64_t i = size_; i-- > 0;) words[i] = narrow::decode(bytes[i], high_bit(i), high_offset_);
    ::munmap(high_, high_bytes());
    high_ = nullptr;
  } else {
    for (std::uint64_t i = size_; i-- > 0;) words[i] = narrow::decode(bytes[i]);
  }
  wide_ = true;
}

}  // namespace feerie

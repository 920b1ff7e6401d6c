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
  if (data_) ::munmap(data_, bytes());
}

void ValueArray::set(std::uint64_t i, ValueCode v) {
  if (!wide_) {
    std::uint8_t b;
    if (narrow::encode(v, b)) {
      narrow_data()[i] = b;
      return;
    }
    widen();
  }
  words()[i] = v;
}

void ValueArray::read(std::uint64_t first, std::span<ValueCode> out) const {
  if (wide_) {
    for (std::size_t k = 0; k < out.size(); ++k) out[k] = words()[first + k];
  } else {
    const std::uint8_t* bytes = narrow_data() + first;
    for (std::size_t k = 0; k < out.size(); ++k) out[k] = narrow::decode(bytes[k]);
  }
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
  for (std::uint64_t i = size_; i-- > 0;) words[i] = narrow::decode(bytes[i]);
  wide_ = true;
}

}  // namespace feerie

// Fixed-width little-endian fields, byte by byte, for the files Feerie writes (tables,
// checkpoints), so that their layout does not depend on the host's byte order or struct
// padding.
#pragma once

#include <cstdint>
#include <string>

namespace feerie {

// Writes the `bytes` low bytes of v at p, least significant first.
inline void write_le(char* p, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) p[i] = static_cast<char>((v >> (8 * i)) & 0xff);
}

// Appends the `bytes` low bytes of v to `out`, least significant first.
inline void put_le(std::string& out, std::uint64_t v, int bytes) {
  const std::size_t at = out.size();
  out.resize(at + std::size_t(bytes));
  write_le(out.data() + at, v, bytes);
}

// Reads a `bytes`-byte little-endian number at p.
inline std::uint64_t get_le(const char* p, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= std::uint64_t(static_cast<unsigned char>(p[i])) << (8 * i);
  return v;
}

}  // namespace feerie

#include "rules/text.h"

#include <cstdio>

namespace feerie {

std::size_t utf8_sequence_length(std::string_view s, std::size_t i) {
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b = byte(i);
  if (b < 0x80) return 1;
  std::size_t n;
  char32_t code, min;
  if ((b & 0xE0) == 0xC0)
    n = 2, code = b & 0x1F, min = 0x80;
  else if ((b & 0xF0) == 0xE0)
    n = 3, code = b & 0x0F, min = 0x800;
  else if ((b & 0xF8) == 0xF0)
    n = 4, code = b & 0x07, min = 0x10000;
  else
    return 0;
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(i + k) & 0x3F);
  }
  if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
  return n;
}

namespace {

std::string escaped_byte(unsigned char b) {
  char text[5];
  std::snprintf(text, sizeof text, "\\x%02x", b);
  return text;
}

}  // namespace

std::string printable(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char b = static_cast<unsigned char>(s[i]);
    std::size_t n = utf8_sequence_length(s, i);
    if (n == 0 || b < 0x20 || b == 0x7F) {
      out += escaped_byte(b);
      ++i;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

std::string printable_excerpt(std::string_view s, std::size_t limit) {
  if (s.size() <= limit) return printable(s);
  return printable(s.substr(0, limit)) + "... (" + std::to_string(s.size()) + " bytes)";
}

std::string printable_character_at(std::string_view s, std::size_t i) {
  std::size_t n = utf8_sequence_length(s, i);
  return printable(s.substr(i, n ? n : 1));
}

}  // namespace feerie

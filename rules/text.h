// User text quoted in messages (issue 27 B). A FEN, a material or a condition name may
// hold any bytes: invalid UTF-8, Latin-1, control characters. Messages that quote them
// must stay valid UTF-8, so that every caller can pass them on: JSON output, the
// viewer's answers, Python's str, a terminal.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace feerie {

// The length of the valid UTF-8 sequence that starts at `s[i]` (1 to 4), or 0 when the
// byte there does not start one (a stray continuation byte, an overlong form, a
// surrogate, a code point beyond U+10FFFF, a cut sequence).
std::size_t utf8_sequence_length(std::string_view s, std::size_t i);

// `s` with every byte that is not part of a valid UTF-8 sequence, and every control
// character, written as \xNN: printable, and valid UTF-8 whatever the input.
std::string printable(std::string_view s);
// printable() of at most the first `limit` bytes of `s`; a longer `s` is cut there and
// followed by "... (N bytes)", so that a message quoting a huge input stays one line.
std::string printable_excerpt(std::string_view s, std::size_t limit = 160);

// The character of `s` at byte `i` for a message: its whole UTF-8 sequence, or the byte
// as \xNN when none starts there.
std::string printable_character_at(std::string_view s, std::size_t i);

}  // namespace feerie

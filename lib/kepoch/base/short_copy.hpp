#pragma once
// Copying a short text (a field name, a time's text, a YAML key: mostly 4-32 bytes) as two
// overlapping fixed-size copies, no call: a record's dump copies dozens of them, and a call to
// memcpy with a variable size costs more than the copy. The writers of JSON and YAML share it.

#include <cstddef>
#include <cstring>
#include <string_view>

namespace kepoch {

// The n bytes at `from` to `to`: two fixed-size copies for 4 to 32 bytes, memcpy otherwise.
[[gnu::always_inline]] inline void copy_short(char* to, const char* from, std::size_t n) {
  if (n >= 16 && n <= 32) {
    std::memcpy(to, from, 16);
    std::memcpy(to + n - 16, from + n - 16, 16);
  } else if (n >= 8 && n < 16) {
    std::memcpy(to, from, 8);
    std::memcpy(to + n - 8, from + n - 8, 8);
  } else if (n >= 4 && n < 8) {
    std::memcpy(to, from, 4);
    std::memcpy(to + n - 4, from + n - 4, 4);
  } else {
    std::memcpy(to, from, n);
  }
}

// `s` at p; returns the end.
[[gnu::always_inline]] inline char* put_short(char* p, std::string_view s) {
  copy_short(p, s.data(), s.size());
  return p + s.size();
}

}  // namespace kepoch

#include "kepoch/base/text.hpp"

#include <cstdint>
#include <cstring>

#include <fmt/format.h>

namespace kepoch {
namespace {

std::size_t utf8_length(std::string_view s, std::size_t i) {
  char32_t cp;
  return utf8_decode(s, i, cp);
}

bool is_control(std::string_view s, std::size_t i, std::size_t n) {
  const auto b = static_cast<unsigned char>(s[i]);
  if (n == 1) return b < 0x20 || b == 0x7F;
  // C1 controls U+0080..U+009F (CSI is U+009B) are C2 80..C2 9F in UTF-8.
  return n == 2 && b == 0xC2 && static_cast<unsigned char>(s[i + 1]) <= 0x9F;
}

}  // namespace

std::size_t utf8_decode(std::string_view s, std::size_t i, char32_t& cp) {
  const auto b = static_cast<unsigned char>(s[i]);
  cp = b;
  if (b < 0x80) return 1;
  std::size_t n = 0;
  char32_t min = 0;
  if (b >= 0xC2 && b <= 0xDF) {
    n = 2, min = 0x80;
  } else if (b >= 0xE0 && b <= 0xEF) {
    n = 3, min = 0x800;
  } else if (b >= 0xF0 && b <= 0xF4) {
    n = 4, min = 0x10000;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  char32_t c = b & (0x7F >> n);
  for (std::size_t k = 1; k < n; ++k) {
    const auto t = static_cast<unsigned char>(s[i + k]);
    if ((t & 0xC0) != 0x80) return 0;
    c = (c << 6) | (t & 0x3F);
  }
  if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return 0;
  cp = c;
  return n;
}

std::string_view utf8_prefix(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  std::size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
    --cut;
  return text.substr(0, cut);
}

std::string excerpt(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  return fmt::format("{}... ({} bytes)", utf8_prefix(text, max_bytes), text.size());
}

std::string quoted_excerpt(std::string_view text, std::size_t max_bytes) {
  const std::string_view head = utf8_prefix(text, max_bytes);
  for (std::size_t i = 0; i < head.size();) {
    char32_t cp = 0;
    const std::size_t n = utf8_decode(head, i, cp);
    if (n == 0 || cp == 0)
      return fmt::format("{} bytes of binary data (a byte 0x{:02x} at byte {} is not UTF-8 text)",
                         text.size(), static_cast<unsigned char>(head[i]), i);
    i += n;
  }
  return fmt::format("\"{}\"", excerpt(text, max_bytes));
}

bool needs_escape(std::string_view text) {
  // Printable ASCII (0x20..0x7E), most text, needs nothing: passed a byte at a time without
  // decoding; the first other byte goes to the rule below (each ASCII byte is one character,
  // so the rule starting there reads what it would have read from the start).
  // Eight bytes at a time while none is below 0x20 or at or above 0x7F (the exact SWAR tests
  // for "some byte is less than n" and "some byte is more than n"): a table shows a decoded
  // record's texts, each tested here.
  // The last bytes, fewer than eight, likewise: as the eight that end the text (from 8
  // bytes on), or padded with spaces (below 8), where a byte at a time took a branch per byte
  // that a text's length decided.
  constexpr std::uint64_t kOnes = 0x0101010101010101ull, kHigh = 0x8080808080808080ull;
  const auto printable = [](std::uint64_t w) {
    return ((((w - kOnes * 0x20) & ~w) | (w + kOnes) | w) & kHigh) == 0;
  };
  std::size_t i = 0;
  for (std::uint64_t w; i + 8 <= text.size(); i += 8) {
    std::memcpy(&w, text.data() + i, 8);
    if (!printable(w)) break;
  }
  if (i + 8 > text.size()) {  // every word so far printable, fewer than 8 bytes left
    std::uint64_t w = kOnes * 0x20;
    if (text.size() >= 8)
      std::memcpy(&w, text.data() + text.size() - 8, 8);
    else if (!text.empty())
      std::memcpy(&w, text.data(), text.size());
    if (printable(w)) return false;
  }
  while (i < text.size() && static_cast<unsigned char>(text[i]) - 0x20u < 0x5Fu)
    ++i;
  while (i < text.size()) {
    const std::size_t n = utf8_length(text, i);
    if (n == 0 || is_control(text, i, n)) return true;
    i += n;
  }
  return false;
}

std::string escape_control(std::string_view text) {
  if (!needs_escape(text)) return std::string(text);
  std::string out;
  out.reserve(text.size() + 8);
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = utf8_length(text, i);
    const auto b = static_cast<unsigned char>(text[i]);
    if (n == 0 || is_control(text, i, n)) {
      const std::size_t bytes = n == 0 ? 1 : n;
      for (std::size_t k = 0; k < bytes; ++k) {
        const auto c = static_cast<unsigned char>(text[i + k]);
        switch (c) {
          case '\n':
            out += "\\n";
            break;
          case '\r':
            out += "\\r";
            break;
          case '\t':
            out += "\\t";
            break;
          case 0x1B:
            out += "\\e";
            break;
          default:
            out += fmt::format("\\x{:02x}", c);
        }
      }
      i += bytes;
      continue;
    }
    if (b == '\\') {
      out += "\\\\";
    } else {
      out.append(text.substr(i, n));
    }
    i += n;
  }
  return out;
}

std::string shell_word(std::string_view text) {
  if (!text.empty() && text.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                              "0123456789_./:@,=+-") == std::string_view::npos)
    return std::string(text);
  std::string out = "'";
  for (const char c : text)
    out += c == '\'' ? std::string_view("'\\''") : std::string_view(&c, 1);
  return out + "'";
}

}  // namespace kepoch

#include "kepoch/base/java_text.hpp"

#include <limits>

namespace kepoch::java {

std::optional<Line> LineReader::next() {
  if (pos_ >= text_.size()) return std::nullopt;
  const std::size_t end = text_.find_first_of("\r\n", pos_);
  Line line;
  line.number = ++number_;
  line.byte_offset = pos_;
  if (end == std::string_view::npos) {
    line.text = text_.substr(pos_);
    pos_ = text_.size();
    return line;
  }
  line.text = text_.substr(pos_, end - pos_);
  const bool crlf = text_[end] == '\r' && end + 1 < text_.size() && text_[end + 1] == '\n';
  line.terminator = text_.substr(end, crlf ? 2 : 1);
  pos_ = end + line.terminator.size();
  return line;
}

std::vector<Line> read_lines(std::string_view text) {
  std::vector<Line> lines;
  LineReader reader(text);
  while (auto line = reader.next())
    lines.push_back(*line);
  return lines;
}

int line_at(std::string_view text, std::size_t offset) {
  int n = 0;
  LineReader reader(text);
  while (auto line = reader.next()) {
    if (line->byte_offset > offset) break;
    n = line->number;
  }
  return n;
}

std::optional<std::size_t> first_invalid_utf8(std::string_view text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  std::size_t i = 0;
  while (i < n) {
    const unsigned char c = s[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t len = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      if (c == 0xE0) lo = 0xA0;  // overlong
      if (c == 0xED) hi = 0x9F;  // surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      if (c == 0xF0) lo = 0x90;  // overlong
      if (c == 0xF4) hi = 0x8F;  // above U+10FFFF
    } else {
      return i;
    }
    if (i + 1 >= n || s[i + 1] < lo || s[i + 1] > hi) return i;
    for (std::size_t k = 2; k < len; ++k) {
      if (i + k >= n || (s[i + k] & 0xC0) != 0x80) return i;
    }
    i += len;
  }
  return std::nullopt;
}

namespace {

bool is_java_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\x0B' || c == '\f' || c == '\r';
}

template <typename T>
std::optional<T> parse_decimal(std::string_view s) {
  if (s.empty()) return std::nullopt;
  bool negative = false;
  std::size_t i = 0;
  if (s[0] == '+' || s[0] == '-') {
    negative = s[0] == '-';
    i = 1;
    if (s.size() == 1) return std::nullopt;
  }
  // Accumulate negatively, as the JDK does, so that MIN_VALUE parses without overflow.
  const T limit = negative ? std::numeric_limits<T>::min() : -std::numeric_limits<T>::max();
  T result = 0;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return std::nullopt;
    const T digit = static_cast<T>(s[i] - '0');
    if (result < limit / 10) return std::nullopt;
    result = static_cast<T>(result * 10);
    if (result < limit + digit) return std::nullopt;
    result = static_cast<T>(result - digit);
  }
  return negative ? result : static_cast<T>(-result);
}

// Pattern.split(input) with limit 0 for a delimiter that is an optional ':' followed by a
// greedy run of \s (the run is required). Matches are found left to right without overlap.
Fields split_on(std::string_view s, bool colon) {
  Fields fields;
  std::size_t start = 0;
  std::size_t i = 0;
  bool matched = false;
  while (i < s.size()) {
    const std::size_t run_start = colon ? i + 1 : i;
    const bool head = colon ? s[i] == ':' : true;
    if (!head || run_start >= s.size() || !is_java_space(s[run_start])) {
      ++i;
      continue;
    }
    std::size_t end = run_start;
    while (end < s.size() && is_java_space(s[end]))
      ++end;
    fields.push_back(s.substr(start, i - start));
    matched = true;
    start = i = end;
  }
  if (!matched) return Fields{s};
  fields.push_back(s.substr(start));
  while (!fields.empty() && fields.back().empty())
    fields.pop_back();
  return fields;
}

}  // namespace

Fields split_whitespace(std::string_view s) {
  return split_on(s, false);
}
Fields split_colon_whitespace(std::string_view s) {
  return split_on(s, true);
}

std::optional<std::int32_t> parse_int(std::string_view s) {
  return parse_decimal<std::int32_t>(s);
}
std::optional<std::int64_t> parse_long(std::string_view s) {
  return parse_decimal<std::int64_t>(s);
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && static_cast<unsigned char>(s.front()) <= ' ')
    s.remove_prefix(1);
  while (!s.empty() && static_cast<unsigned char>(s.back()) <= ' ')
    s.remove_suffix(1);
  return s;
}

bool parse_boolean(std::string_view s) {
  static constexpr std::string_view kTrue = "true";
  if (s.size() != kTrue.size()) return false;
  for (std::size_t i = 0; i < s.size(); ++i)
    if ((s[i] >= 'A' && s[i] <= 'Z' ? s[i] - 'A' + 'a' : s[i]) != kTrue[i]) return false;
  return true;
}

}  // namespace kepoch::java

#include "kepoch/format/checkpoint_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <climits>

#include "kepoch/base/text.hpp"

namespace kepoch::checkpoint_detail {
namespace {

// Java's StreamDecoder decodes up to 8192 bytes ahead of the line being read, so invalid
// UTF-8 in a small file fails the very first readLine(). For larger files kepoch reports
// it at the line that contains it (approximation documented in the man page).
constexpr std::size_t kJavaDecodeChunk = 8192;

JavaFailure io(std::string message, int line, std::string explanation) {
  return {JavaFailureClass::io_exception, line, "java.io.IOException", std::move(message),
          std::move(explanation)};
}

}  // namespace

JavaFailure malformed_line(std::string_view path, const java::Line& line, std::string explanation) {
  return io(fmt::format("Malformed line in checkpoint file [{}]: {}", path, excerpt(line.text)),
            line.number, std::move(explanation));
}

JavaFailure number_format(const java::Line& line, std::string_view field, std::string explanation) {
  return {JavaFailureClass::unchecked, line.number, "java.lang.NumberFormatException",
          fmt::format("For input string: \"{}\"", excerpt(field)), std::move(explanation)};
}

std::optional<JavaFailure> count_mismatch(std::string_view path, std::int32_t expected,
                                          std::size_t found, int last_line) {
  if (found == static_cast<std::size_t>(expected)) return std::nullopt;
  return io(fmt::format("Expected [{}] entries in checkpoint file [{}], but found only [{}]",
                        expected, path, found),
            last_line,
            fmt::format("line 2 announces {} entries, the file has {}", expected, found));
}

Header read_header(std::string_view text, std::string_view path, std::int32_t expected_version,
                   java::LineReader& reader, std::optional<std::int32_t>& version,
                   std::optional<std::int32_t>& count, std::optional<JavaFailure>& failure) {
  const auto bad_utf8 = java::first_invalid_utf8(text);
  auto utf8_failure = [&] {
    const int line = java::line_at(text, *bad_utf8);
    return io("Input length = 1 (java.nio.charset.MalformedInputException)", line,
              fmt::format("invalid UTF-8 at byte {}", *bad_utf8));
  };
  if (bad_utf8 && *bad_utf8 < kJavaDecodeChunk) {
    failure = utf8_failure();
    return {};
  }
  // Lines whose bytes include the invalid sequence are never returned by readLine.
  Header h;
  h.usable_lines = bad_utf8 ? java::line_at(text, *bad_utf8) - 1 : INT_MAX;
  auto stop_at_bad_utf8 = [&](int number) {
    if (bad_utf8 && number > h.usable_lines) {
      failure = utf8_failure();
      return true;
    }
    return false;
  };

  const auto first = reader.next();
  if (!first) return {};  // 0-byte file: empty checkpoint
  if (stop_at_bad_utf8(1)) return {};
  version = java::parse_int(first->text);
  if (!version) {
    failure = malformed_line(path, *first, "line 1 must be the version number (an int)");
    return {};
  }
  if (*version != expected_version) {
    failure =
        io(fmt::format("Unrecognised version:{}, expected version: {} in checkpoint file at: {}",
                       *version, expected_version, path),
           1, fmt::format("expected version {}, found {}", expected_version, *version));
    return {};
  }
  const auto second = reader.next();
  if (!second) return {};  // only the version line: empty checkpoint
  if (stop_at_bad_utf8(2)) return {};
  count = java::parse_int(second->text);
  if (!count) {
    failure = malformed_line(path, *second, "line 2 must be the entry count (an int)");
    return {};
  }
  if (*count < 0) {
    failure = JavaFailure{JavaFailureClass::unchecked, 2, "java.lang.IllegalArgumentException",
                          fmt::format("Illegal Capacity: {}", *count),
                          fmt::format("entry count {} is negative", *count)};
    return {};
  }
  // Entries are read one by one; a bad UTF-8 failure comes when the reader reaches its line.
  if (bad_utf8) failure = utf8_failure();
  h.read_entries = true;
  h.last_line = 2;
  // At most one entry per remaining line end ("\r\n" is one), and an unterminated last line.
  std::size_t line_ends = 0;
  for (std::size_t i = second->byte_offset; i < text.size(); ++i)
    if (text[i] == '\n' || (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n')))
      ++line_ends;
  h.capacity = std::min<std::size_t>(static_cast<std::size_t>(*count), line_ends + 1);
  return h;
}

}  // namespace kepoch::checkpoint_detail

#include "kepoch/format/checkpoint_file.hpp"

#include <fmt/format.h>

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
                   std::vector<java::Line>& lines, std::optional<std::int32_t>& version,
                   std::optional<std::int32_t>& count, std::optional<JavaFailure>& failure) {
  lines = java::read_lines(text);
  const auto bad_utf8 = java::first_invalid_utf8(text);
  auto utf8_failure = [&](int line) {
    return io("Input length = 1 (java.nio.charset.MalformedInputException)", line,
              fmt::format("invalid UTF-8 at byte {}", *bad_utf8));
  };
  auto line_of = [&](std::size_t offset) {
    int n = 0;
    for (const auto& l : lines)
      if (l.byte_offset <= offset) n = l.number;
    return n;
  };
  if (bad_utf8 && *bad_utf8 < kJavaDecodeChunk) {
    failure = utf8_failure(line_of(*bad_utf8));
    return {};
  }
  // Lines whose bytes include the invalid sequence are never returned by readLine.
  std::size_t usable = lines.size();
  if (bad_utf8) {
    usable = static_cast<std::size_t>(line_of(*bad_utf8)) - 1;
  }
  auto stop_at_bad_utf8 = [&](std::size_t index) {
    if (bad_utf8 && index >= usable) {
      failure = utf8_failure(line_of(*bad_utf8));
      return true;
    }
    return false;
  };

  if (lines.empty()) return {};  // 0-byte file: empty checkpoint
  if (stop_at_bad_utf8(0)) return {};
  version = java::parse_int(lines[0].text);
  if (!version) {
    failure = malformed_line(path, lines[0], "line 1 must be the version number (an int)");
    return {};
  }
  if (*version != expected_version) {
    failure =
        io(fmt::format("Unrecognised version:{}, expected version: {} in checkpoint file at: {}",
                       *version, expected_version, path),
           1, fmt::format("expected version {}, found {}", expected_version, *version));
    return {};
  }
  if (lines.size() < 2) return {};  // only the version line: empty checkpoint
  if (stop_at_bad_utf8(1)) return {};
  count = java::parse_int(lines[1].text);
  if (!count) {
    failure = malformed_line(path, lines[1], "line 2 must be the entry count (an int)");
    return {};
  }
  if (*count < 0) {
    failure = JavaFailure{JavaFailureClass::unchecked, 2, "java.lang.IllegalArgumentException",
                          fmt::format("Illegal Capacity: {}", *count),
                          fmt::format("entry count {} is negative", *count)};
    return {};
  }
  if (bad_utf8) {
    // Entries are read one by one; the failure comes when the reader reaches the bad line.
    lines.resize(usable);
    failure = utf8_failure(line_of(*bad_utf8));
    return {true, 2};
  }
  return {true, 2};
}

}  // namespace kepoch::checkpoint_detail

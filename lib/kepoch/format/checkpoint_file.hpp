#pragma once
// The generic text checkpoint, as read by Kafka's CheckpointFile.CheckpointReadBuffer
// (server-common/.../server/common/CheckpointFile.java):
//
//   line 1   <version>   Integer.parseInt, must equal the expected version (0)
//   line 2   <count>     Integer.parseInt; negative reaches new ArrayList(count) and throws
//   line 3.. <entry>     one per line, parsed by the kind's EntryFormatter, until EOF
//
// Read through a strict UTF-8 BufferedReader; "\n", "\r" and "\r\n" end lines.
// An empty file, or a file with only the version line, is an empty checkpoint. After EOF the
// number of entries must equal count. The first failure, in reading order, is Kafka's.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kepoch/base/java_text.hpp"
#include "kepoch/format/java_failure.hpp"

namespace kepoch {

// What a kind's EntryFormatter.fromString makes of one line.
template <typename T>
struct EntryParse {
  enum class Status { ok, malformed, number_format };
  Status status = Status::ok;
  T entry{};
  std::string detail;  // for malformed/number_format: expected versus found
  std::string field;   // for number_format: the field Java failed to parse
};

template <typename T>
struct CheckpointContent {
  std::optional<std::int32_t> version;
  std::optional<std::int32_t> count;
  std::vector<T> entries;
  std::vector<int> entry_lines;        // line number of each entry
  std::vector<java::Line> lines;       // every line, for lint
  std::optional<JavaFailure> failure;  // set when Kafka would throw
};

namespace checkpoint_detail {
// Checks shared by every kind, before entries: UTF-8, version line, count line.
// Returns false (with content.failure set or an empty checkpoint) when reading stops.
struct Header {
  bool read_entries = false;
  std::size_t first_entry_line = 0;  // index into lines
};
Header read_header(std::string_view text, std::string_view path, std::int32_t expected_version,
                   std::vector<java::Line>& lines, std::optional<std::int32_t>& version,
                   std::optional<std::int32_t>& count, std::optional<JavaFailure>& failure);
JavaFailure malformed_line(std::string_view path, const java::Line& line, std::string explanation);
JavaFailure number_format(const java::Line& line, std::string_view field, std::string explanation);
std::optional<JavaFailure> count_mismatch(std::string_view path, std::int32_t expected,
                                          std::size_t found, int last_line);
}  // namespace checkpoint_detail

// Reads a checkpoint with the kind's entry parser: `parse(line_text) -> EntryParse<T>`.
template <typename T, typename Parse>
CheckpointContent<T> read_checkpoint(std::string_view text, std::string_view path,
                                     std::int32_t expected_version, Parse parse) {
  using namespace checkpoint_detail;
  CheckpointContent<T> c;
  const Header h =
      read_header(text, path, expected_version, c.lines, c.version, c.count, c.failure);
  if (!h.read_entries) return c;
  for (std::size_t i = h.first_entry_line; i < c.lines.size(); ++i) {
    const java::Line& line = c.lines[i];
    EntryParse<T> p = parse(line.text);
    if (p.status == EntryParse<T>::Status::malformed) {
      c.failure = malformed_line(path, line, std::move(p.detail));
      return c;
    }
    if (p.status == EntryParse<T>::Status::number_format) {
      c.failure = number_format(line, p.field, std::move(p.detail));
      return c;
    }
    c.entries.push_back(std::move(p.entry));
    c.entry_lines.push_back(line.number);
  }
  // A late UTF-8 failure (set by read_header) stands unless an entry failed first.
  if (!c.failure) {
    const int last = c.lines.empty() ? 0 : c.lines.back().number;
    c.failure = count_mismatch(path, *c.count, c.entries.size(), last);
  }
  return c;
}

}  // namespace kepoch

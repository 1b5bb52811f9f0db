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
  // Entries are consecutive lines (any other line stops the reading): entry i is on line
  // first_entry_line + i. No per-line vector: a 64 MiB file may hold 16 M lines.
  int first_entry_line = 3;
  std::optional<JavaFailure> failure;  // set when Kafka would throw

  int entry_line(std::size_t i) const { return first_entry_line + static_cast<int>(i); }
};

namespace checkpoint_detail {
// Checks shared by every kind, before entries: UTF-8, version line, count line. `reader`
// is left before the first entry line.
struct Header {
  bool read_entries = false;
  int usable_lines = 0;      // readLine returns lines 1..usable_lines (then bad UTF-8 or EOF)
  int last_line = 0;         // the last line read so far
  std::size_t capacity = 0;  // how many entries there can be: to reserve once
};
Header read_header(std::string_view text, std::string_view path, std::int32_t expected_version,
                   java::LineReader& reader, std::optional<std::int32_t>& version,
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
  java::LineReader reader(text);
  const Header h = read_header(text, path, expected_version, reader, c.version, c.count, c.failure);
  if (!h.read_entries) return c;
  c.entries.reserve(h.capacity);  // exact for an honest count: no doubling of a large vector
  int last = h.last_line;
  while (auto line = reader.next()) {
    if (line->number > h.usable_lines) break;
    last = line->number;
    EntryParse<T> p = parse(line->text);
    if (p.status == EntryParse<T>::Status::malformed) {
      c.failure = malformed_line(path, *line, std::move(p.detail));
      return c;
    }
    if (p.status == EntryParse<T>::Status::number_format) {
      c.failure = number_format(*line, p.field, std::move(p.detail));
      return c;
    }
    c.entries.push_back(std::move(p.entry));
  }
  // A late UTF-8 failure (set by read_header) stands unless an entry failed first.
  if (!c.failure) c.failure = count_mismatch(path, *c.count, c.entries.size(), last);
  return c;
}

}  // namespace kepoch

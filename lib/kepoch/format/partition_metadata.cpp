#include "kepoch/format/partition_metadata.hpp"

#include <fmt/format.h>

#include "kepoch/base/text.hpp"

namespace kepoch {
namespace {

JavaFailure io(std::string message, int line, std::string explanation) {
  return {JavaFailureClass::io_exception, line, "java.io.IOException", std::move(message),
          std::move(explanation)};
}

JavaFailure malformed(std::string_view path, const java::Line& line, std::string explanation) {
  return io(fmt::format("Malformed line in checkpoint file [{}]: {}", path, line.text), line.number,
            std::move(explanation));
}

JavaFailure missing_line(int number) {
  return {JavaFailureClass::unchecked, number, "java.lang.NullPointerException", "",
          fmt::format("line {} is missing", number)};
}

}  // namespace

PartitionMetadata read_partition_metadata(std::string_view text, std::string_view path) {
  PartitionMetadata m;
  // Kafka reads two lines; lint looks at a third. A file of millions is not copied.
  java::LineReader reader(text);
  m.lines.reserve(3);
  for (int i = 0; i < 3; ++i)
    if (auto line = reader.next()) m.lines.push_back(*line);
  if (const auto bad = java::first_invalid_utf8(text); bad && *bad < 8192) {
    m.failure = io("Input length = 1 (java.nio.charset.MalformedInputException)", 0,
                   fmt::format("invalid UTF-8 at byte {}", *bad));
    return m;
  }
  if (m.lines.empty()) {
    m.failure = missing_line(1);
    return m;
  }
  const auto version_parts = java::split_colon_whitespace(m.lines[0].text);
  if (version_parts.size() != 2) {
    m.failure =
        malformed(path, m.lines[0], "expected \"version: <n>\" (a colon, then white space)");
    return m;
  }
  m.version = java::parse_int(version_parts[1]);
  if (!m.version) {
    m.failure = malformed(path, m.lines[0],
                          fmt::format("version \"{}\" is not an int", excerpt(version_parts[1])));
    return m;
  }
  if (*m.version < 0) {
    m.failure = io(
        fmt::format("Unrecognized version of partition metadata file + ({}): {}", path, *m.version),
        1, fmt::format("version must be >= 0, found {}", *m.version));
    return m;
  }
  if (m.lines.size() < 2) {
    m.failure = missing_line(2);
    return m;
  }
  const auto id_parts = java::split_colon_whitespace(m.lines[1].text);
  if (id_parts.size() != 2) {
    m.failure =
        malformed(path, m.lines[1], "expected \"topic_id: <uuid>\" (a colon, then white space)");
    return m;
  }
  const UuidParse id = parse_uuid(id_parts[1]);
  if (!id.ok) {
    m.failure = JavaFailure{
        JavaFailureClass::unchecked, 2, "java.lang.IllegalArgumentException", id.error,
        fmt::format("topic id \"{}\" is not a 22-character base64url uuid", excerpt(id_parts[1]))};
    return m;
  }
  if (id.uuid.is_zero()) {
    m.failure = io(fmt::format("Invalid topic ID in partition metadata file ({})", path), 2,
                   "the topic id is the zero uuid");
    return m;
  }
  m.topic_id = id.uuid;
  return m;
}

}  // namespace kepoch

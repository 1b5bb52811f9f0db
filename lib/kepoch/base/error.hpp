#pragma once
// Errors that stop kepoch from judging an input at all (missing, unreadable, not a
// regular file, too large, of a kind that cannot be told). Findings about the content of
// a file that could be read are not errors: they are Problems in a report.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace kepoch {

// Carries the path and, where known, the line or byte offset, so the one-line message
// reads "path:line: what" or "path: at byte N: what".
class InputError : public std::runtime_error {
 public:
  InputError(std::string path, const std::string& what, int line = 0,
             std::optional<std::uint64_t> byte_offset = std::nullopt);

  const std::string& path() const { return path_; }
  int line() const { return line_; }
  std::optional<std::uint64_t> byte_offset() const { return byte_offset_; }

 private:
  std::string path_;
  int line_;
  std::optional<std::uint64_t> byte_offset_;
};

// Bytes from (or a message value for) a Kafka broker that do not fit the wire protocol:
// a short frame, a lying length, a bad varint, trailing bytes, a field the chosen version
// cannot carry. Names the message ("MetadataResponse v12"), the field path
// ("topics[2].partitions[0].leader_epoch") and, when decoding, the byte offset in the frame.
class ProtocolError : public std::runtime_error {
 public:
  ProtocolError(std::string message, std::string field_path, const std::string& what,
                std::optional<std::uint64_t> byte_offset = std::nullopt);

  const std::string& message() const { return message_; }
  const std::string& field_path() const { return field_path_; }
  std::optional<std::uint64_t> byte_offset() const { return byte_offset_; }

 private:
  std::string message_;
  std::string field_path_;
  std::optional<std::uint64_t> byte_offset_;
};

// Bad use of a command (a flag value that cannot be applied). Exit code 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace kepoch

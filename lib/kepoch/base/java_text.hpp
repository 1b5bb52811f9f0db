#pragma once
// Kafka reads its text checkpoints with java.io.BufferedReader, java.util.regex and
// Integer.parseInt / Long.parseLong. To accept and reject exactly what Kafka does, kepoch
// restates those JDK behaviours here, over bytes already in memory (no I/O).

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <vector>

namespace kepoch::java {

// One line as BufferedReader.readLine() returns it: terminators "\n", "\r" and "\r\n" are
// all line ends and are not part of the text.
struct Line {
  std::string_view text;
  int number = 0;               // 1-based
  std::size_t byte_offset = 0;  // of the first byte of the line in the file
  std::string_view terminator;  // "", "\n", "\r" or "\r\n"
};

// All lines, as successive readLine() calls return them until null. An empty input has no
// lines; a last line without terminator is still a line.
std::vector<Line> read_lines(std::string_view text);

// The same lines one readLine() at a time, for texts of millions of lines (a 64 MiB
// checkpoint): read_lines' vector would hold 48 bytes per line of perhaps four.
class LineReader {
 public:
  explicit LineReader(std::string_view text) : text_(text) {}
  // The next line, or nullopt at the end.
  std::optional<Line> next();

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  int number_ = 0;
};

// The number of the line holding byte `offset` (the last line starting at or before it; 0
// when there is none).
int line_at(std::string_view text, std::size_t offset);

// Byte offset of the first byte that Java's strict UTF-8 decoder rejects (overlong forms,
// surrogates, code points above U+10FFFF, truncated sequences), or nullopt.
std::optional<std::size_t> first_invalid_utf8(std::string_view text);

// The fields of a split: a checkpoint line has two or three, held in place (a vector per line
// was a third of the allocations in a scan of 10,000 partitions); more go to the heap.
class Fields {
 public:
  Fields() = default;
  Fields(std::initializer_list<std::string_view> fields) {
    for (auto f : fields)
      push_back(f);
  }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::string_view operator[](std::size_t i) const {
    return i < kInline ? inline_[i] : more_[i - kInline];
  }
  std::string_view back() const { return (*this)[size_ - 1]; }
  void push_back(std::string_view f) {
    if (size_ < kInline)
      inline_[size_] = f;
    else
      more_.push_back(f);
    ++size_;
  }
  void pop_back() {
    if (size_ > kInline) more_.pop_back();
    --size_;
  }
  friend bool operator==(const Fields& a, const Fields& b) {
    if (a.size_ != b.size_) return false;
    for (std::size_t i = 0; i < a.size_; ++i)
      if (a[i] != b[i]) return false;
    return true;
  }

 private:
  static constexpr std::size_t kInline = 4;
  std::array<std::string_view, kInline> inline_{};
  std::vector<std::string_view> more_;
  std::size_t size_ = 0;
};

// Pattern.compile("\\s+").split(s): a leading empty field is kept when s starts with white
// space, trailing empty fields are dropped, and "" splits to {""}. \s is [ \t\n\x0B\f\r].
Fields split_whitespace(std::string_view s);

// Pattern.compile(":\\s+").split(s), as PartitionMetadataReadBuffer splits "key: value".
Fields split_colon_whitespace(std::string_view s);

// Integer.parseInt / Long.parseLong (radix 10): an optional '+' or '-', then at least one
// digit, nothing else, within range. nullopt where Java throws NumberFormatException.
// Known deviation: Java also accepts non-ASCII Unicode decimal digits; kepoch does not.
std::optional<std::int32_t> parse_int(std::string_view s);
std::optional<std::int64_t> parse_long(std::string_view s);

// String.trim: every leading and trailing char <= ' ' removed.
std::string_view trim(std::string_view s);

// Boolean.parseBoolean: true for "true" in any case, false for anything else (no trimming:
// " true" is false).
bool parse_boolean(std::string_view s);

}  // namespace kepoch::java

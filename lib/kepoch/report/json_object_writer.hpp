#pragma once
// An object as compact JSON text, written member by member (object_writer.hpp): the text
// nlohmann's dump(-1) prints for the same Value (no spaces; strings escaped as nlohmann
// escapes them, invalid UTF-8 replaced), without building it. Used by the JSON and
// JSON-lines streams; not part of the library's interface.

#include <array>
#include <cstring>
#include <deque>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "kepoch/report/object_writer.hpp"

namespace kepoch::report::detail {

// Text appended at memory speed: the writer reserves room once per member and stores through
// a pointer (std::string checks capacity and moves its terminator on every append, and cannot
// be written past its size). The part of std::string's interface the JSON streams use.
class TextBuffer {
 public:
  const char* data() const { return data_.get(); }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  void clear() { size_ = 0; }
  void resize(std::size_t n) {  // only ever to cut the text back
    if (n < size_) size_ = n;
  }
  // At least n writable bytes at the end; advance(k) makes k of them part of the text.
  char* room(std::size_t n) {
    if (capacity_ - size_ < n) grow(n);
    return data_.get() + size_;
  }
  void advance(std::size_t k) { size_ += k; }
  void append(const char* p, std::size_t n) {
    std::memcpy(room(n), p, n);
    size_ += n;
  }
  TextBuffer& operator+=(std::string_view s) {
    append(s.data(), s.size());
    return *this;
  }
  TextBuffer& operator+=(const char* s) { return *this += std::string_view(s); }
  TextBuffer& operator+=(char c) {
    *room(1) = c;
    ++size_;
    return *this;
  }

 private:
  void grow(std::size_t n);
  std::unique_ptr<char[]> data_;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

// Appends `s` as a JSON string.
void append_json_string(std::string& out, std::string_view s);
void append_json_string(TextBuffer& out, std::string_view s);
// Appends `v` as compact JSON.
void append_json(std::string& out, const Value& v);
// The same text, straight into the buffer (no nlohmann tree but for a double).
void append_json(TextBuffer& out, const Value& v);
// An integer's decimal text.
void append_json_integer(TextBuffer& out, std::int64_t v);

class JsonObjectWriter : public ObjectWriter {
 public:
  // Appends to `out`; the object's text is `{`, the members written, `}`.
  explicit JsonObjectWriter(TextBuffer& out) : out_(out) {}
  void begin() {
    out_ += '{';
    first_ = true;
  }
  void end() { out_ += '}'; }
  // From now on, once the text of the element begun last (begin_element) passes `limit`
  // bytes, the end of a nested object hands the whole text to `sink` and clears it: an
  // element of millions of records is not held whole.
  void spill_to(std::ostream& sink, std::size_t limit = std::size_t{1} << 20) {
    sink_ = &sink;
    limit_ = limit;
  }
  // Begins the object of an element whose text starts at out[start] (the text before it is
  // kept for one write of many elements; the limit counts from start).
  void begin_element(std::size_t start) {
    element_start_ = start;
    spilled_ = false;
    begin();
  }
  // Whether the text was handed to the sink since begin_element.
  bool spilled() const { return spilled_; }

  void null(std::string_view key) override;
  void boolean(std::string_view key, bool v) override;
  void integer(std::string_view key, std::int64_t v) override;
  void string(std::string_view key, std::string_view v) override;
  void value(std::string_view key, const Value& v) override;
  void lazy_shown(std::string_view key, const LazyMember& member, LazyTimes times) override;
  void begin_objects(std::string_view key) override;
  void begin_object() override;
  void end_object() override;
  void end_objects() override;
  void integers(const MemberNames& names, std::span<const std::int64_t> values) override;
  void time_text(std::string_view key, std::string_view text) override;
  void scalars(const MemberNames& names, std::span<const Scalar> values) override;
  void integers_object(const MemberNames& names, std::span<const std::int64_t> values) override;
  void scalars_object(const MemberNames& names, std::span<const Scalar> values) override;
  void scalars_object_with(const MemberNames& names, std::span<const Scalar> values, std::size_t at,
                           std::string_view key, const LazyMember& member,
                           LazyTimes times) override;

 private:
  void key(std::string_view k);

  // A run's names rendered once: `,"name":` for each, in fixed-size slots copied whole.
  static constexpr std::size_t kRunSlot = 32;
  struct RenderedRun {
    std::span<const std::string_view> names;
    std::vector<std::array<char, kRunSlot>> keys;
    std::vector<std::uint8_t> sizes;  // of each key's text, its comma included
  };
  const RenderedRun* rendered(const MemberNames& names);
  const RenderedRun* render(const MemberNames& names);

  struct RenderedKey {
    std::string name;
    std::string text;               // "name":
    std::array<char, 32> padded{};  // text, zero-padded, when it fits
  };
  RenderedKey& missed_key(std::size_t slot, std::string_view k);
  static constexpr int kKeySlotBits = 8;
  static constexpr std::size_t kKeySlots = std::size_t{1} << kKeySlotBits;

  TextBuffer& out_;
  std::array<RenderedKey, kKeySlots> keys_;
  std::deque<RenderedRun> runs_;  // a few: one per MemberNames written; never moved
  // The runs found last, by their names' address and size: a record's run comes in parts
  // (split at its time field), each looked up per record.
  static constexpr int kRunSlotBits = 4;
  std::array<const RenderedRun*, std::size_t{1} << kRunSlotBits> found_runs_{};
  // scalars_object_with's member key, its name and its `,"name":` zero-padded.
  std::string with_key_name_;
  std::array<char, kRunSlot> with_key_{};
  std::size_t with_key_size_ = 0;
  std::ostream* sink_ = nullptr;
  std::size_t limit_ = 0;
  std::size_t element_start_ = 0;
  bool spilled_ = false;
  // The text of the last wide integer (past 32 bits: epoch milliseconds) written in a run:
  // a batch's records often share their timestamp.
  char* wide_integer(char* p, std::int64_t v);
  char* run_integer(char* p, std::int64_t v);
  char* run_scalar(char* p, const Scalar& v);
  char* run_scalar_or_null(char* p, const Scalar& v);
  // A run's members: keys from `run`, each value written by write_value(p, value).
  template <typename T, typename WriteValue>
  void write_run(const RenderedRun& run, std::span<const T> values, std::size_t room,
                 WriteValue write_value);
  template <typename T, typename WriteValue>
  bool write_run_object(const RenderedRun& run, std::span<const T> values, std::size_t room,
                        WriteValue write_value);
  template <typename T, typename WriteValue>
  static char* run_members(char* p, const RenderedRun& run, std::span<const T> values, bool first,
                           WriteValue write_value, std::size_t from = 0);
  void after_object();
  std::int64_t last_wide_ = 0;
  std::array<char, 24> last_wide_text_{};
  std::size_t last_wide_size_ = 0;
  bool first_ = true;         // no member yet in the current object
  bool first_object_ = true;  // no object yet in the current list
};

}  // namespace kepoch::report::detail

#pragma once
// An object as compact JSON text, written member by member (object_writer.hpp): the text
// nlohmann's dump(-1) prints for the same Value (no spaces; strings escaped as nlohmann
// escapes them, invalid UTF-8 replaced), without building it. Used by the JSON and
// JSON-lines streams; not part of the library's interface.

#include <array>
#include <ostream>
#include <string>
#include <string_view>

#include "kepoch/report/object_writer.hpp"

namespace kepoch::report::detail {

// Appends `s` as a JSON string.
void append_json_string(std::string& out, std::string_view s);
// Appends `v` as compact JSON.
void append_json(std::string& out, const Value& v);

class JsonObjectWriter : public ObjectWriter {
 public:
  // Appends to `out`; the object's text is `{`, the members written, `}`.
  explicit JsonObjectWriter(std::string& out) : out_(out) {}
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
  void begin_objects(std::string_view key) override;
  void begin_object() override;
  void end_object() override;
  void end_objects() override;

 private:
  void key(std::string_view k);

  struct RenderedKey {
    std::string name;
    std::string text;  // "name":
  };
  static constexpr std::size_t kKeySlots = 64;

  std::string& out_;
  std::array<RenderedKey, kKeySlots> keys_;
  std::ostream* sink_ = nullptr;
  std::size_t limit_ = 0;
  std::size_t element_start_ = 0;
  bool spilled_ = false;
  bool first_ = true;         // no member yet in the current object
  bool first_object_ = true;  // no object yet in the current list
};

}  // namespace kepoch::report::detail

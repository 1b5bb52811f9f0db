#pragma once
// Streaming output for reports too large to hold in memory (a segment's batches): a
// top-level array of items, each with leading fields, one streamed list (or several, with
// fields between them), and trailing fields. Each format writes as it goes, so memory stays bounded
// whatever the log size; the result is the same document the whole-value renderers would print
// (JSON lines: one line per element carrying its item's id, and one line closing each item).

#include <functional>
#include <iosfwd>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kepoch/report/object_writer.hpp"
#include "kepoch/report/render.hpp"
#include "kepoch/report/value.hpp"

namespace kepoch::report {

class ReportStream {
 public:
  virtual ~ReportStream() = default;
  // Starts an item: `fields` is an object of leading members; `list_key` names the list.
  // `table_columns`, if not empty, chooses the list's columns in table form (JSON and YAML
  // always carry every field).
  virtual void begin_item(const Value& fields, std::string_view list_key,
                          std::vector<std::string> table_columns = {}) = 0;
  // A hint for the table form: `column` is at least `width` wide, so rows stay aligned when
  // a later value is longer than the first row's (other formats ignore it).
  virtual void min_column_width(std::string_view column, std::size_t width) {
    (void)column;
    (void)width;
  }
  virtual void element(const Value& element) = 0;
  // The next element, written member by member by `write`: the same output as element()
  // of the Value those calls describe, without building it where the format allows (table,
  // JSON, JSON lines; YAML builds the Value).
  virtual void write_element(const std::function<void(ObjectWriter&)>& write);
  // The next element as a table row, for an element whose members are one run of scalars
  // (`values`, a boolean as its text "true" or "false"): the row write_element would write
  // of w.scalars(names, values), placed without the element being written member by member
  // (segment dump's million batch rows). Returns false, writing nothing, when this stream is
  // not a table: the caller writes the element with write_element.
  virtual bool table_row(const MemberNames& names, std::span<const Scalar> values) {
    (void)names;
    (void)values;
    return false;
  }
  // Ends the current list and starts another in the same item: `fields` are the members
  // between the two lists (a checkpoint's entries, then its loaded_entries).
  virtual void next_list(const Value& fields, std::string_view list_key,
                         std::vector<std::string> table_columns = {}) = 0;
  // Ends the item with trailing members (a "problems" array is diagnostics, as in render).
  virtual void end_item(const Value& trailer) = 0;
  // An item without a streamed list (an object), written whole between streamed ones.
  virtual void item(const Value& whole) = 0;
  // Closes the top-level array.
  virtual void finish() = 0;
};

std::unique_ptr<ReportStream> make_stream(Format format, std::ostream& out, std::ostream& err,
                                          const RenderOptions& options);

}  // namespace kepoch::report

#pragma once
// The rows of a streamed table (stream.hpp), one element at a time, written member by
// member (object_writer.hpp): the columns are the first element's scalar members (those the
// caller wants), their widths fixed by the header, the first row and min_width hints (later
// rows widen a column, never realign); each array of objects adds one "  | key: value ..." line per
// object under the row. The same text the table stream printed from a Value, without
// building one. Not part of the library's interface.

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kepoch/report/object_writer.hpp"

namespace kepoch::report::detail {

class TableRows : private ObjectWriter {
 public:
  // Starts a new list: the next element chooses the columns among `wanted` (all if empty),
  // in the element's order; `wanted`'s own order ranks them, most useful first, for fit().
  void reset(std::vector<std::string> wanted);
  // The width rows fit (0: no limit, `-o wide`): the element that chooses the columns drops
  // the rightmost ones that do not fit and narrows the widest; a later cell wider than its
  // column widens it while the row fits, and is shortened with an ellipsis past that.
  void fit(std::size_t width) { budget_ = width; }
  // The columns the width left out ("" if none), for a note under the list.
  std::string dropped() const;
  // A hint for the list started by reset(): `column` is at least `width` wide.
  void min_width(std::string_view column, std::size_t width);
  // No columns yet (no element, or none with a scalar member).
  bool empty() const { return columns_.empty(); }
  // Whether the last element() wrote to its `spill` (and cleared `out`).
  bool spilled() const { return spilled_; }
  // Appends the element `write` describes: the header line first when the element chooses
  // the columns (`bold` wraps it), then its row and nested lines. With `spill`, once the
  // nested lines pass 1 MiB (a batch of millions of records) the row is written with the
  // cells set so far and the text so far goes to `spill`, so an element is never held whole.
  void element(const std::function<void(ObjectWriter&)>& write,
               const std::function<std::string(const std::string&)>& bold, std::string& out,
               std::ostream* spill = nullptr);
  // The element whose members are the run `values` (a boolean as its text), appended as
  // element() appends what w.scalars(names, values) writes: its row placed from the values
  // without a cell being copied (segment dump's million batch rows); the element that
  // chooses the columns, and one with a string that is not plain ASCII, go through element().
  void flat_element(const MemberNames& names, std::span<const Scalar> values,
                    const std::function<std::string(const std::string&)>& bold, std::string& out);

 private:
  void null(std::string_view key) override;
  void boolean(std::string_view key, bool v) override;
  void integer(std::string_view key, std::int64_t v) override;
  void string(std::string_view key, std::string_view v) override;
  void time_text(std::string_view key, std::string_view text) override;
  void integers(const MemberNames& names, std::span<const std::int64_t> values) override;
  void scalars(const MemberNames& names, std::span<const Scalar> values) override;
  void value(std::string_view key, const Value& v) override;
  void lazy_shown(std::string_view key, const LazyMember& member, LazyTimes times) override;
  void begin_objects(std::string_view key) override;
  void begin_object() override;
  void end_object() override;
  void end_objects() override;

  // A scalar member's cell text (a nested member's text inside an object of a list).
  void scalar(std::string_view key, std::string_view text);
  void nested_member(std::string_view key, std::string_view text);
  void nested_objects(const Value& array);      // the lines of an array member's objects
  std::size_t column_of(std::string_view key);  // kNone when the key is no column
  std::size_t cell_for(std::string_view key);   // the column a top-level member fills
  // The column of each name of a run (kNone: no column), for the columns chosen.
  const std::vector<std::size_t>& run_columns(const MemberNames& names);
  void fill(std::size_t column, std::string_view text);
  void fill(std::size_t column, std::string_view text, std::size_t width);
  void fill_integer(std::size_t column, std::int64_t v);
  void header(const std::function<std::string(const std::string&)>& bold, std::string& out) const;
  void row(std::string& out);
  // The row of the texts and widths in row_texts_ and row_widths_ (one per column), widening
  // or shortening each cell as the row needs, written in one piece.
  void place_row(std::string& out);
  // For a flat element's run: the index of the value each column shows (kNone: none).
  const std::vector<std::size_t>& flat_values(const MemberNames& names);
  void write_row_once();
  void append_lines();
  void fit_columns_to_budget();

  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::vector<std::string> wanted_;
  std::vector<std::string> columns_;
  std::vector<std::size_t> widths_;
  std::vector<std::pair<std::string, std::size_t>> min_widths_;
  std::size_t budget_ = 0;
  std::vector<std::string> dropped_;
  // This element: the cells (set_[i]: column i has one) and their display widths, the
  // nested lines.
  std::vector<std::string> cells_;
  std::vector<std::size_t> cell_widths_;
  std::vector<bool> set_;
  std::string lines_;
  // row()'s cells as written (a shortened cell's text in row_shortened_) and their widths.
  std::vector<std::string_view> row_texts_;
  std::vector<std::size_t> row_widths_;
  std::vector<std::string> row_shortened_;
  bool choosing_ = false;       // this element chooses the columns
  bool row_done_ = false;       // this element's row is written (spilled)
  bool spilled_ = false;        // this element wrote to spill_
  std::string* out_ = nullptr;  // during element(): its output, bold and spill
  const std::function<std::string(const std::string&)>* bold_ = nullptr;
  std::ostream* spill_ = nullptr;
  bool in_object_ = false;  // inside an object of a list: members go to a nested line
  std::string list_key_;    // the list being written
  std::size_t list_objects_ = 0;
  // Member i of the previous element and its column: elements of one list share a shape.
  std::vector<std::pair<std::string, std::size_t>> member_columns_;
  std::size_t member_ = 0;
  // Per run of names (MemberNames: static arrays, known by address), its members' columns,
  // looked up once per choice of columns (`generation_`) instead of by name per element.
  struct RunColumns {
    std::span<const std::string_view> names;
    std::uint64_t generation = 0;
    std::vector<std::size_t> columns;
  };
  static constexpr int kRunSlotBits = 4;
  std::array<RunColumns, std::size_t{1} << kRunSlotBits> runs_{};
  RunColumns flat_;     // flat_element's run: per column, the value it shows
  std::string digits_;  // flat_element's integers' texts, kDigits bytes a column
  static constexpr std::size_t kDigits = 24;
  std::uint64_t generation_ = 1;  // changes whenever the columns do
};

}  // namespace kepoch::report::detail

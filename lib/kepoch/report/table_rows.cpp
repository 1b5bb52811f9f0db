#include "kepoch/report/table_rows.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <iterator>

#include "kepoch/base/display_width.hpp"
#include "kepoch/base/text.hpp"
#include "kepoch/report/fit.hpp"
#include "kepoch/report/render_detail.hpp"
#include "kepoch/report/time_fields.hpp"

namespace kepoch::report::detail {
namespace {

std::string upper(std::string_view key) {
  std::string head(key);
  std::transform(head.begin(), head.end(), head.begin(), ::toupper);
  return head;
}

// `text` (`w` display columns) left-aligned in `width` columns, then the two spaces between
// columns.
void append_padded(std::string& out, std::string_view text, std::size_t w, std::size_t width) {
  out += text;
  out.append(width > w ? width - w + 2 : 2, ' ');
}

}  // namespace

void TableRows::reset(std::vector<std::string> wanted) {
  wanted_ = std::move(wanted);
  columns_.clear();
  widths_.clear();
  min_widths_.clear();
  member_columns_.clear();
  dropped_.clear();
  ++generation_;
}

std::string TableRows::dropped() const {
  std::string out;
  for (const auto& c : dropped_)
    out += (out.empty() ? "" : ", ") + upper(c);
  return out;
}

// The columns that fit the budget: while even their floors do not, the least useful goes
// (the last of `wanted`, whose order ranks them; else the rightmost), then the widest shrink.
void TableRows::fit_columns_to_budget() {
  // A time (time_fields.hpp) is never shortened: its end is the part that differs.
  auto floor_of = [this](const std::string& c) {
    if (is_time_field(c)) {
      const auto it = std::find(columns_.begin(), columns_.end(), c);
      return widths_[static_cast<std::size_t>(it - columns_.begin())];
    }
    return std::max(kMinColumn, std::min<std::size_t>(c.size(), 14));
  };
  auto rank = [this](std::size_t i) {
    const auto it = std::find(wanted_.begin(), wanted_.end(), columns_[i]);
    return it == wanted_.end() ? wanted_.size() + i
                               : static_cast<std::size_t>(it - wanted_.begin());
  };
  const std::size_t available = budget_ > 2 ? budget_ - 2 : 1;
  for (;;) {
    std::size_t need = 0;
    for (std::size_t i = 0; i < columns_.size(); ++i)
      need += std::min(widths_[i], floor_of(columns_[i])) + (i ? 2 : 0);
    if (need <= available || columns_.size() <= 1) break;
    std::size_t worst = 0;
    for (std::size_t i = 1; i < columns_.size(); ++i)
      if (rank(i) > rank(worst)) worst = i;
    dropped_.push_back(columns_[worst]);
    const auto at = static_cast<std::ptrdiff_t>(worst);
    columns_.erase(columns_.begin() + at);
    widths_.erase(widths_.begin() + at);
    cells_.erase(cells_.begin() + at);
    cell_widths_.erase(cell_widths_.begin() + at);
    set_.erase(set_.begin() + at);
  }
  std::vector<std::size_t> floors;
  for (const auto& c : columns_)
    floors.push_back(floor_of(c));
  fit_columns(widths_, floors, available);
}

void TableRows::min_width(std::string_view column, std::size_t width) {
  min_widths_.emplace_back(std::string(column), width);
}

void TableRows::element(const std::function<void(ObjectWriter&)>& write,
                        const std::function<std::string(const std::string&)>& bold,
                        std::string& out, std::ostream* spill) {
  out_ = &out;
  bold_ = &bold;
  spill_ = spill;
  row_done_ = false;
  spilled_ = false;
  choosing_ = columns_.empty();
  if (choosing_) {
    cells_.clear();
    cell_widths_.clear();
    set_.clear();
  } else {
    std::fill(set_.begin(), set_.end(), false);
  }
  lines_.clear();
  member_ = 0;
  in_object_ = false;
  write(*this);
  write_row_once();
  append_lines();
  out_ = nullptr;
  bold_ = nullptr;
  spill_ = nullptr;
}

void TableRows::header(const std::function<std::string(const std::string&)>& bold,
                       std::string& out) const {
  std::string text;
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    const std::string head = budget_ ? shorten(upper(columns_[i]), widths_[i]) : upper(columns_[i]);
    if (i + 1 < columns_.size())
      append_padded(text, head, display_width(head), widths_[i]);
    else
      text += head;
  }
  out += "  ";
  out += bold(text);
  out += '\n';
}

void TableRows::row(std::string& out) {
  // First each cell's text and width (widening or shortening as the row needs), then the
  // row written in one piece: a million rows are a million appends, not sixteen million.
  const std::size_t n = columns_.size();
  row_texts_.resize(n);
  row_widths_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    row_texts_[i] = set_[i] ? std::string_view(cells_[i]) : "-";
    row_widths_[i] = set_[i] ? cell_widths_[i] : 1;
  }
  place_row(out);
}

void TableRows::place_row(std::string& out) {
  const std::size_t n = columns_.size();
  if (row_shortened_.size() < n) row_shortened_.resize(n);
  std::size_t bytes = 3;  // the leading two spaces, the newline
  for (std::size_t i = 0; i < n; ++i) {
    std::string_view cell = row_texts_[i];
    std::size_t w = row_widths_[i];
    if (w > widths_[i]) {
      std::size_t most = w;
      if (budget_) {  // widen while the row still fits, then shorten
        std::size_t others = 2 + 2 * (n - 1);
        for (std::size_t j = 0; j < n; ++j)
          if (j != i) others += widths_[j];
        most = budget_ > others ? std::max(widths_[i], std::min(w, budget_ - others)) : widths_[i];
      }
      widths_[i] = most;
      if (w > most) {
        const bool ascii = is_ascii(cell);
        shorten_into(row_shortened_[i], cell, most);
        cell = row_shortened_[i];
        // An ASCII text shortened is `most` columns: its first most - 1 characters (or its
        // last, a path) and the ellipsis; none when most is 0.
        w = ascii ? std::min(most, cell.size()) : display_width(cell);
      }
    }
    row_texts_[i] = cell;
    row_widths_[i] = w;
    bytes += cell.size();
    if (i + 1 < n) bytes += widths_[i] > w ? widths_[i] - w + 2 : 2;
  }
  // The row's bytes made spaces at once (the leading two, the padding), then the cells.
  const std::size_t at = out.size();
  out.resize(at + bytes, ' ');
  char* p = out.data() + at + 2;
  for (std::size_t i = 0; i < n; ++i) {
    const std::string_view cell = row_texts_[i];
    std::memcpy(p, cell.data(), cell.size());
    p += cell.size();
    if (i + 1 < n) p += widths_[i] > row_widths_[i] ? widths_[i] - row_widths_[i] + 2 : 2;
  }
  *p = '\n';
}

const std::vector<std::size_t>& TableRows::flat_values(const MemberNames& names) {
  if (flat_.generation == generation_ && names.same(flat_.names)) return flat_.columns;
  flat_.names = names.names();
  flat_.generation = generation_;
  flat_.columns.assign(columns_.size(), kNone);
  for (std::size_t k = 0; k < flat_.names.size(); ++k) {
    const auto it = std::find(columns_.begin(), columns_.end(), flat_.names[k]);
    if (it == columns_.end()) continue;
    std::size_t& shown = flat_.columns[static_cast<std::size_t>(it - columns_.begin())];
    if (shown == kNone) shown = k;  // the first member of a name, as element() fills it
  }
  return flat_.columns;
}

void TableRows::flat_element(const MemberNames& names, std::span<const Scalar> values,
                             const std::function<std::string(const std::string&)>& bold,
                             std::string& out) {
  const auto general = [&] {
    element([&](ObjectWriter& w) { w.scalars(names, values); }, bold, out);
  };
  if (columns_.empty()) return general();
  const std::vector<std::size_t>& shown = flat_values(names);
  const std::size_t n = columns_.size();
  row_texts_.resize(n);
  row_widths_.resize(n);
  if (digits_.size() < n * kDigits) digits_.resize(n * kDigits);
  for (std::size_t i = 0; i < n; ++i) {
    std::string_view cell = "-";  // no member, or null
    if (shown[i] != kNone) {
      const Scalar& v = values[shown[i]];
      switch (v.kind) {
        case Scalar::Kind::integer: {
          char* const digits = digits_.data() + i * kDigits;
          const auto end = std::to_chars(digits, digits + kDigits, v.integer).ptr;
          cell = std::string_view(digits, static_cast<std::size_t>(end - digits));
          break;
        }
        case Scalar::Kind::string:
          // Escaped, or measured by its characters: element()'s way (a column a byte here).
          if (!is_ascii(v.text) || needs_escape(v.text)) return general();
          cell = v.text;
          break;
        case Scalar::Kind::time_text:  // ASCII (object_writer.hpp)
          cell = v.text;
          break;
        case Scalar::Kind::null:
          break;
      }
    }
    row_texts_[i] = cell;
    row_widths_[i] = cell.size();  // ASCII: a column a byte
  }
  place_row(out);
}

std::size_t TableRows::column_of(std::string_view key) {
  const std::size_t m = member_;
  if (m < member_columns_.size() && member_columns_[m].first == key)
    return member_columns_[m].second;
  const auto it = std::find(columns_.begin(), columns_.end(), key);
  const std::size_t column =
      it == columns_.end() ? kNone : static_cast<std::size_t>(it - columns_.begin());
  if (m >= member_columns_.size()) member_columns_.resize(m + 1);
  member_columns_[m] = {std::string(key), column};
  return column;
}

// The column a top-level member fills, or kNone (not a column, or filled already: the first
// member of a name wins, as a lookup by name finds it).
std::size_t TableRows::cell_for(std::string_view key) {
  const std::size_t column = choosing_ ? kNone : column_of(key);
  ++member_;
  return column != kNone && !set_[column] ? column : kNone;
}

void TableRows::fill(std::size_t column, std::string_view text) {
  fill(column, text, display_width(text));
}

void TableRows::fill(std::size_t column, std::string_view text, std::size_t width) {
  cells_[column].assign(text);
  cell_widths_[column] = width;
  set_[column] = true;
}

void TableRows::fill_integer(std::size_t column, std::int64_t v) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, v).ptr;
  const auto size = static_cast<std::size_t>(end - digits);
  fill(column, std::string_view(digits, size), size);  // ASCII: a column a character
}

const std::vector<std::size_t>& TableRows::run_columns(const MemberNames& names) {
  RunColumns& run = runs_[names.slot(kRunSlotBits)];
  if (run.generation == generation_ && names.same(run.names)) return run.columns;
  run.names = names.names();
  run.generation = generation_;
  run.columns.clear();
  for (const std::string_view key : run.names) {
    const auto it = std::find(columns_.begin(), columns_.end(), key);
    run.columns.push_back(it == columns_.end() ? kNone
                                               : static_cast<std::size_t>(it - columns_.begin()));
  }
  return run.columns;
}

void TableRows::scalar(std::string_view key, std::string_view text) {
  if (in_object_) return nested_member(key, text);
  if (choosing_) {
    ++member_;
    const bool wanted =
        wanted_.empty() || std::find(wanted_.begin(), wanted_.end(), key) != wanted_.end();
    if (!wanted || std::find(columns_.begin(), columns_.end(), key) != columns_.end()) return;
    columns_.emplace_back(key);
    std::size_t width = std::max(key.size(), text.size());
    for (const auto& [c, w] : min_widths_)
      if (c == key) width = std::max(width, w);
    widths_.push_back(width);
    cells_.emplace_back(text);
    cell_widths_.push_back(display_width(text));
    set_.push_back(true);
    return;
  }
  if (const std::size_t column = cell_for(key); column != kNone) fill(column, text);
}

void TableRows::nested_member(std::string_view key, std::string_view text) {
  lines_ += ' ';
  lines_ += key;
  lines_ += ": ";
  lines_ += text;
}

void TableRows::nested_objects(const Value& array) {
  for (const auto& object : array.as_array()) {
    if (!object.is_object()) continue;
    lines_ += "  |";
    for (const auto& [k, v] : object.as_object())
      nested_member(k, v.is_scalar() ? cell_text(v) : inline_text(v));
    lines_ += '\n';
  }
}

void TableRows::null(std::string_view key) {
  scalar(key, "-");
}

void TableRows::boolean(std::string_view key, bool v) {
  scalar(key, v ? "true" : "false");
}

void TableRows::integer(std::string_view key, std::int64_t v) {
  if (!in_object_ && !choosing_) {
    if (const std::size_t column = cell_for(key); column != kNone) fill_integer(column, v);
    return;
  }
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, v).ptr;
  scalar(key, std::string_view(digits, static_cast<std::size_t>(end - digits)));
}

void TableRows::string(std::string_view key, std::string_view v) {
  if (!in_object_ && !choosing_) {  // escaped only when it fills a cell
    if (const std::size_t column = cell_for(key); column != kNone)
      needs_escape(v) ? fill(column, escape_control(v)) : fill(column, v);
    return;
  }
  if (needs_escape(v)) return scalar(key, escape_control(v));  // as cell_text shows it
  scalar(key, v);
}

// A time's text needs no escape (object_writer.hpp).
void TableRows::time_text(std::string_view key, std::string_view text) {
  if (!in_object_ && !choosing_) {
    if (const std::size_t column = cell_for(key); column != kNone) fill(column, text);
    return;
  }
  scalar(key, text);
}

// A run of integers in a row: each member's column from the run's, no name compared.
void TableRows::integers(const MemberNames& names, std::span<const std::int64_t> values) {
  if (choosing_) return ObjectWriter::integers(names, values);
  if (in_object_) {
    char digits[24];
    for (std::size_t i = 0; i < values.size(); ++i) {
      const auto end = std::to_chars(digits, digits + sizeof digits, values[i]).ptr;
      nested_member(names.names()[i],
                    std::string_view(digits, static_cast<std::size_t>(end - digits)));
    }
    return;
  }
  const std::vector<std::size_t>& columns = run_columns(names);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::size_t column = columns[i];
    if (column != kNone && !set_[column]) fill_integer(column, values[i]);
  }
  member_ += values.size();
}

// A run of scalars in a row, likewise; each member as the call for its kind would show it.
void TableRows::scalars(const MemberNames& names, std::span<const Scalar> values) {
  if (choosing_ || in_object_) return ObjectWriter::scalars(names, values);
  const std::vector<std::size_t>& columns = run_columns(names);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::size_t column = columns[i];
    if (column == kNone || set_[column]) continue;
    const Scalar& v = values[i];
    switch (v.kind) {
      case Scalar::Kind::integer:
        fill_integer(column, v.integer);
        break;
      case Scalar::Kind::time_text:
        fill(column, v.text);
        break;
      case Scalar::Kind::string:
        needs_escape(v.text) ? fill(column, escape_control(v.text)) : fill(column, v.text);
        break;
      case Scalar::Kind::null:
        fill(column, "-", 1);
        break;
    }
  }
  member_ += values.size();
}

void TableRows::value(std::string_view key, const Value& v) {
  if (in_object_) return nested_member(key, v.is_scalar() ? cell_text(v) : inline_text(v));
  if (v.is_scalar()) return scalar(key, cell_text(v));
  if (const std::size_t column = cell_for(key); column != kNone) fill(column, cell_text(v));
  if (v.is_array()) nested_objects(v);
}

// A nested object's member rendered by itself, as value() shows it (inline_text).
void TableRows::lazy_shown(std::string_view key, const LazyMember& member, LazyTimes times) {
  if (!in_object_) return value(key, member.value());
  lines_ += ' ';
  lines_ += key;
  lines_ += ": ";
  member.append_inline(lines_, times);
}

void TableRows::begin_objects(std::string_view key) {
  list_key_ = key;
  list_objects_ = 0;
}

void TableRows::begin_object() {
  in_object_ = true;
  lines_ += "  |";
}

// The header (for the first element) and the element's row, once: a spilled element writes
// them before its nested lines are done.
void TableRows::write_row_once() {
  if (row_done_) return;
  if (choosing_) {
    if (budget_) fit_columns_to_budget();
    header(*bold_, *out_);
  }
  if (choosing_) ++generation_;  // the columns are chosen (and fitted)
  choosing_ = false;
  row(*out_);
  row_done_ = true;
}

// The nested lines gathered so far, each shortened to the budget when there is one.
void TableRows::append_lines() {
  if (!budget_) {
    *out_ += lines_;
  } else {
    for (std::size_t start = 0; start < lines_.size();) {
      std::size_t end = lines_.find('\n', start);
      if (end == std::string::npos) end = lines_.size();
      *out_ += shorten(std::string_view(lines_).substr(start, end - start), budget_);
      *out_ += '\n';
      start = end + 1;
    }
  }
  lines_.clear();
}

void TableRows::end_object() {
  lines_ += '\n';
  in_object_ = false;
  ++list_objects_;
  if (spill_ && lines_.size() >= (std::size_t{1} << 20)) {
    write_row_once();
    append_lines();
    spill_->write(out_->data(), static_cast<std::streamsize>(out_->size()));
    out_->clear();
    spilled_ = true;
  }
}

void TableRows::end_objects() {
  const std::size_t column = cell_for(list_key_);
  if (column == kNone) return;
  std::string text;  // an array's cell: its elements joined, "{...}" for an object
  for (std::size_t i = 0; i < list_objects_; ++i)
    text += i ? ",{...}" : "{...}";
  fill(column, list_objects_ ? text : "(none)");
}

}  // namespace kepoch::report::detail

#include "kepoch/report/table_rows.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <iterator>

#include "kepoch/base/text.hpp"
#include "kepoch/report/render_detail.hpp"

namespace kepoch::report::detail {
namespace {

std::string upper(std::string_view key) {
  std::string head(key);
  std::transform(head.begin(), head.end(), head.begin(), ::toupper);
  return head;
}

bool ascii(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c >= 0 && c < 0x7f; });
}

// `text` left-aligned in `width` columns, then the two spaces between columns.
void append_padded(std::string& out, std::string_view text, std::size_t width) {
  if (!ascii(text)) {  // fmt pads by display width
    fmt::format_to(std::back_inserter(out), "{:<{}}  ", text, width);
    return;
  }
  out += text;
  out.append(width > text.size() ? width - text.size() + 2 : 2, ' ');
}

}  // namespace

void TableRows::reset(std::vector<std::string> wanted) {
  wanted_ = std::move(wanted);
  columns_.clear();
  widths_.clear();
  min_widths_.clear();
  member_columns_.clear();
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
  choosing_ = columns_.empty();
  if (choosing_) {
    cells_.clear();
    set_.clear();
  } else {
    std::fill(set_.begin(), set_.end(), false);
  }
  lines_.clear();
  member_ = 0;
  in_object_ = false;
  write(*this);
  if (!row_done_) {
    if (choosing_) header(bold, out);
    choosing_ = false;
    row(out);
  }
  out += lines_;
  lines_.clear();
  out_ = nullptr;
  bold_ = nullptr;
  spill_ = nullptr;
}

void TableRows::header(const std::function<std::string(const std::string&)>& bold,
                       std::string& out) const {
  std::string text;
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    const std::string head = upper(columns_[i]);
    text += i + 1 < columns_.size() ? fmt::format("{:<{}}  ", head, widths_[i]) : head;
  }
  out += "  ";
  out += bold(text);
  out += '\n';
}

void TableRows::row(std::string& out) {
  out += "  ";
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    const std::string_view cell = set_[i] ? std::string_view(cells_[i]) : "-";
    widths_[i] = std::max(widths_[i], cell.size());
    if (i + 1 < columns_.size())
      append_padded(out, cell, widths_[i]);
    else
      out += cell;
  }
  out += '\n';
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
  cells_[column].assign(text);
  set_[column] = true;
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
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, v).ptr;
  scalar(key, std::string_view(digits, static_cast<std::size_t>(end - digits)));
}

void TableRows::string(std::string_view key, std::string_view v) {
  if (needs_escape(v)) return scalar(key, escape_control(v));  // as cell_text shows it
  scalar(key, v);
}

void TableRows::value(std::string_view key, const Value& v) {
  if (in_object_) return nested_member(key, v.is_scalar() ? cell_text(v) : inline_text(v));
  if (v.is_scalar()) return scalar(key, cell_text(v));
  if (const std::size_t column = cell_for(key); column != kNone) fill(column, cell_text(v));
  if (v.is_array()) nested_objects(v);
}

void TableRows::begin_objects(std::string_view key) {
  list_key_ = key;
  list_objects_ = 0;
}

void TableRows::begin_object() {
  in_object_ = true;
  lines_ += "  |";
}

void TableRows::end_object() {
  lines_ += '\n';
  in_object_ = false;
  ++list_objects_;
  if (spill_ && lines_.size() >= (std::size_t{1} << 20)) {
    if (!row_done_) {
      if (choosing_) header(*bold_, *out_);
      choosing_ = false;
      row(*out_);
      row_done_ = true;
    }
    *out_ += lines_;
    lines_.clear();
    spill_->write(out_->data(), static_cast<std::streamsize>(out_->size()));
    out_->clear();
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

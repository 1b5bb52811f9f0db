#include "kepoch/report/document_stream.hpp"

#include <algorithm>
#include <cctype>
#include <ostream>
#include <sstream>

#include "kepoch/base/text.hpp"
#include "kepoch/report/fit.hpp"
#include "kepoch/report/render_detail.hpp"
#include "kepoch/report/time_fields.hpp"

namespace kepoch::report {
namespace {

using namespace detail;

// render.cpp's TableWriter::is_inline: scalars, and arrays of scalars short enough for one
// line (at most 80 characters joined).
bool is_inline(const Value& v) {
  if (v.is_scalar()) return true;
  if (!v.is_array()) return false;
  std::size_t length = 0;
  for (const auto& e : v.as_array()) {
    if (!e.is_scalar()) return false;
    length += scalar_text(e).size() + 1;
  }
  return length <= 80;
}

std::string upper(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), ::toupper);
  return text;
}

// `text` without its final newline, every later line indented by `indent` spaces.
std::string indented(std::string text, std::size_t indent) {
  if (!text.empty() && text.back() == '\n') text.pop_back();
  std::string nl(1, '\n');
  nl.append(indent, ' ');
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '\n') {
      out += nl;
    } else {
      out += c;
    }
  }
  return out;
}

std::string json_text(const Value& v, std::size_t indent) {
  std::ostringstream s;
  render_json(v, s);
  return indented(s.str(), indent);
}

std::string json_line(const Value& v) {
  std::ostringstream s;
  render_json_line(v, s);
  std::string text = s.str();
  if (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

// ---- JSON (pretty, two spaces) and JSON lines --------------------------------------------

class JsonDocument : public DocumentStream {
 public:
  JsonDocument(std::ostream& out, bool pretty) : out_(out), pretty_(pretty) {}

  void member(std::string_view key, const Value& value) override {
    open_member(key, 1);
    out_ << (pretty_ ? json_text(value, 2) : json_line(value));
  }
  void begin_list(std::string_view key, const TableLayout&) override {
    open_member(key, 1);
    out_ << '[';
    elements_ = 0;
  }
  void element(const Value& e) override {
    const std::size_t depth = in_element_ ? 4 : 2;
    std::size_t& count = in_element_ ? rows_ : elements_;
    out_ << (count++ ? "," : "") << newline(depth)
         << (pretty_ ? json_text(e, depth * 2) : json_line(e));
  }
  void begin_element(const Value& leading, std::string_view list_key, const TableLayout&) override {
    out_ << (elements_++ ? "," : "") << newline(2) << '{';
    bool first = true;
    for (const auto& [k, v] : leading.as_object()) {
      out_ << (first ? "" : ",") << newline(3) << key_text(k)
           << (pretty_ ? json_text(v, 6) : json_line(v));
      first = false;
    }
    out_ << (first ? "" : ",") << newline(3) << key_text(list_key) << '[';
    in_element_ = true;
    rows_ = 0;
  }
  void end_element() override {
    out_ << (rows_ ? newline(3) : "") << ']' << newline(2) << '}';
    in_element_ = false;
  }
  void end_list() override { out_ << (elements_ ? newline(1) : "") << ']'; }
  void finish() override { out_ << (members_ ? newline(0) : "") << "}\n"; }

 private:
  std::string newline(std::size_t depth) const {
    if (!pretty_) return {};
    std::string nl(1, '\n');
    nl.append(depth * 2, ' ');
    return nl;
  }
  std::string key_text(std::string_view key) const {
    return json_line(Value(std::string(key))) + (pretty_ ? ": " : ":");
  }
  void open_member(std::string_view key, std::size_t depth) {
    out_ << (members_++ ? "," : "{") << newline(depth) << key_text(key);
  }

  std::ostream& out_;
  bool pretty_;
  std::size_t members_ = 0;
  std::size_t elements_ = 0;
  std::size_t rows_ = 0;
  bool in_element_ = false;
};

// ---- YAML ----------------------------------------------------------------------------------

class YamlDocument : public DocumentStream {
 public:
  explicit YamlDocument(std::ostream& out) : out_(out) {}

  void member(std::string_view key, const Value& value) override {
    any_ = true;
    std::ostringstream s;
    render_yaml(Value::object().set(std::string(key), value), s);
    out_ << s.str();
  }
  void begin_list(std::string_view key, const TableLayout&) override {
    any_ = true;
    list_key_ = std::string(key);
    elements_ = 0;
  }
  void element(const Value& e) override {
    if (in_element_) {
      place(e, "      - ", 8);
    } else {
      open_list();
      place(e, "  - ", 4);
    }
  }
  void begin_element(const Value& leading, std::string_view list_key, const TableLayout&) override {
    open_list();
    if (leading.as_object().empty()) {
      out_ << "  - " << list_key << ":\n";
    } else {
      place(leading, "  - ", 4);
      out_ << "    " << list_key << ":\n";
    }
    in_element_ = true;
  }
  void end_element() override { in_element_ = false; }
  void end_list() override {
    if (elements_ == 0) {
      std::ostringstream s;
      render_yaml(Value::object().set(list_key_, Value::array()), s);
      out_ << s.str();
    }
  }
  void finish() override {
    if (!any_) out_ << "{}\n";
  }

 private:
  void open_list() {
    if (elements_++ == 0) out_ << list_key_ << ":\n";
  }
  // The YAML of `v` alone, its first line after `first`, the others indented.
  void place(const Value& v, std::string_view first, std::size_t indent) {
    std::ostringstream s;
    render_yaml(v, s);
    const std::string text = s.str();
    std::string placed(first);
    placed += indented(text, indent);
    placed += '\n';
    out_ << placed;
  }

  std::ostream& out_;
  std::string list_key_;
  std::size_t elements_ = 0;
  bool in_element_ = false;
  bool any_ = false;
};

// ---- table ---------------------------------------------------------------------------------

// render.cpp's TableWriter, its record() and table() taken apart: the document's members
// at indent 0, a streamed list's elements as blocks ("  -" and the element's record at 4)
// or as table rows at 2, an element's nested list at 6 (rows) or 8 (blocks).
class TableDocument : public DocumentStream {
 public:
  TableDocument(std::ostream& out, std::ostream& err, const RenderOptions& options,
                const Value& outline)
      : out_(out), err_(err), options_(options) {
    if (const Value* f = outline.find("file")) file_ = scalar_text(*f);
    for (const auto& [k, v] : outline.as_object()) {
      if (is_sentence(k, v)) continue;
      if (is_inline(v) || k == "problems") width_ = std::max(width_, k.size());
      if (v.is_array() && v.as_array().empty()) empty_.push_back(k);
    }
  }

  void member(std::string_view key, const Value& v) override {
    const std::string k(key);
    if (is_sentence(k, v)) {
      // The verdict opens the document as text and a blank line, as render_table writes it.
      for (const auto& line : wrap(cell_text(v), room(0)))
        out_ << line << '\n';
      out_ << '\n';
    } else if (k == "problems" && v.is_array()) {
      problems(v);
    } else if (is_inline(v)) {
      text_lines(bold(escape_control(k)) + std::string(width_ - k.size() + 2, ' '),
                 std::string(width_ + 2, ' '), cell_text(v));
    } else {
      // Not inline: the member's lines do not depend on the document's other members.
      std::ostringstream s;
      render_table(Value::object().set(k, v), s, err_, options_);
      out_ << s.str();
    }
  }

  void begin_list(std::string_view key, const TableLayout& rows) override {
    const std::string k(key);
    if (std::find(empty_.begin(), empty_.end(), k) != empty_.end()) {
      member(key, Value::array());
      list_ = {};
      return;
    }
    out_ << bold(k) << ":\n";
    list_ = start_table(rows, 2);
  }

  void element(const Value& e) override {
    Table& t = in_element_ ? nested_ : list_;
    if (t.layout.table) {
      row(t, e);
    } else {
      block(e, in_element_ ? 2 : 1);
    }
  }

  void begin_element(const Value& leading, std::string_view list_key,
                     const TableLayout& rows) override {
    out_ << "  -\n";
    std::size_t width = 0;
    for (const auto& [k, v] : leading.as_object())
      if (is_inline(v) || k == "problems") width = std::max(width, k.size());
    const std::string pad(4, ' ');
    for (const auto& [k, v] : leading.as_object())
      text_lines(pad + bold(escape_control(k)) + std::string(width - k.size() + 2, ' '),
                 std::string(pad.size() + width + 2, ' '), cell_text(v));
    out_ << pad << bold(std::string(list_key)) << ":\n";
    nested_ = start_table(rows, 6);
    in_element_ = true;
  }

  void end_element() override {
    end_table(nested_);
    in_element_ = false;
  }
  void end_list() override { end_table(list_); }
  void finish() override { out_.flush(); }

 private:
  struct Table {
    TableLayout layout;
    std::size_t indent = 0;
    std::size_t shown = 0;
    std::vector<std::string> heads;
  };

  std::string bold(const std::string& s) const {
    if (!options_.color_out) return s;
    std::string shown = "\x1b[1m";
    shown += s;
    shown += "\x1b[0m";
    return shown;
  }
  std::size_t table_width() const { return detail::table_width(options_); }
  std::size_t room(std::size_t used) const { return room_from(used, table_width()); }
  static bool is_sentence(const std::string& key, const Value& v) {
    return key == "summary" && std::holds_alternative<std::string>(v.data());
  }
  void text_lines(const std::string& first, const std::string& more, const std::string& text) {
    write_wrapped(out_, table_width(), first, more, text);
  }
  static void append_cell(std::string& line, const std::string& text, std::size_t width,
                          bool last) {
    const std::string shown = shorten(text, width);
    line += shown;
    if (!last) line.append(width - display_width(shown) + 2, ' ');
  }

  Table start_table(const TableLayout& layout, std::size_t indent) {
    Table t;
    t.layout = layout;
    t.indent = indent;
    if (!layout.table) return t;
    std::vector<std::size_t> floors;
    for (std::size_t i = 0; i < layout.columns.size(); ++i) {
      t.heads.push_back(upper(layout.columns[i]));
      // A time (time_fields.hpp) is never shortened, as render() keeps it.
      floors.push_back(
          is_time_field(layout.columns[i])
              ? layout.widths[i]
              : std::max(kMinColumn, std::min<std::size_t>(t.heads.back().size(), 14)));
    }
    t.shown = t.layout.columns.size();
    if (!options_.wide) t.shown = fit_columns(t.layout.widths, floors, room(indent));
    std::string header;
    for (std::size_t i = 0; i < t.shown; ++i)
      append_cell(header, t.heads[i], t.layout.widths[i], i + 1 == t.shown);
    out_ << std::string(indent, ' ') << bold(header) << '\n';
    return t;
  }

  void row(const Table& t, const Value& e) {
    std::string text(t.indent, ' ');
    for (std::size_t i = 0; i < t.shown; ++i) {
      const Value* v = e.find(t.layout.columns[i]);
      append_cell(text, v ? cell_text(*v) : "-", t.layout.widths[i], i + 1 == t.shown);
    }
    text += '\n';
    out_ << text;
  }

  void end_table(const Table& t) {
    if (!t.layout.table || t.shown >= t.layout.columns.size()) return;
    std::string left;
    for (std::size_t i = t.shown; i < t.heads.size(); ++i)
      left += (left.empty() ? "" : ", ") + t.heads[i];
    const std::string pad(t.indent, ' ');
    text_lines(pad + "(", pad + " ", "not shown: " + left + "; use -o wide)");
  }

  // One element as a block ("-" and its record), at `depth` 1 (a list of the document) or
  // 2 (an element's nested list): render_table of the element alone, nested as deep, in a
  // list that is no table (a scalar beside it), without the wrapper's lines.
  void block(const Value& e, int depth) {
    Value wrapped = Value::object().set("l", Value::array().push(e).push(0));
    if (depth == 2)
      wrapped = Value::object().set("l", Value::array().push(std::move(wrapped)).push(0));
    std::ostringstream s;
    render_table(wrapped, s, err_, options_);
    std::string text = s.str();
    for (int i = 0; i < (depth == 2 ? 3 : 1); ++i)
      text.erase(0, text.find('\n') + 1);
    for (int i = 0; i < depth; ++i)
      text.erase(text.rfind('\n', text.size() - 2) + 1);
    out_ << text;
  }

  void problems(const Value& list) {
    int errors = 0, warnings = 0, notes = 0;
    for (const auto& p : list.as_array()) {
      const Value* sev = p.find("severity");
      const std::string severity = sev ? scalar_text(*sev) : "error";
      (severity == "warning" ? warnings : severity == "info" ? notes : errors)++;
      err_ << problem_text(p, file_, options_.color_err) << '\n';
    }
    out_ << bold("problems") << std::string(width_ > 8 ? width_ - 8 + 2 : 2, ' ')
         << problem_summary(errors, warnings, notes) << '\n';
  }

  std::ostream& out_;
  std::ostream& err_;
  RenderOptions options_;
  std::string file_ = "kepoch";
  std::size_t width_ = 0;
  std::vector<std::string> empty_;
  Table list_;
  Table nested_;
  bool in_element_ = false;
};

}  // namespace

void TableLayoutBuilder::add(const Value& row) {
  any_ = true;
  if (!row.is_object()) {
    all_inline_ = false;
    layout_.table = false;
    return;
  }
  for (const auto& [k, v] : row.as_object()) {
    if (!is_inline(v)) {
      all_inline_ = false;
      continue;
    }
    if (std::find(layout_.columns.begin(), layout_.columns.end(), k) == layout_.columns.end()) {
      layout_.columns.push_back(k);
      layout_.widths.push_back(display_width(upper(k)));
    }
  }
  for (std::size_t i = 0; i < layout_.columns.size(); ++i) {
    const Value* v = row.find(layout_.columns[i]);
    layout_.widths[i] = std::max(layout_.widths[i], display_width(v ? cell_text(*v) : "-"));
  }
  layout_.table = any_ && all_inline_;
}

std::unique_ptr<DocumentStream> make_document_stream(Format format, std::ostream& out,
                                                     std::ostream& err,
                                                     const RenderOptions& options,
                                                     const Value& outline) {
  switch (format) {
    case Format::json:
      return std::make_unique<JsonDocument>(out, true);
    case Format::jsonl:
      return std::make_unique<JsonDocument>(out, false);
    case Format::yaml:
      return std::make_unique<YamlDocument>(out);
    case Format::table:
      return std::make_unique<TableDocument>(out, err, options, outline);
  }
  return nullptr;
}

}  // namespace kepoch::report

#include "kepoch/report/stream.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>
#include <sstream>

#include "kepoch/report/fit.hpp"
#include "kepoch/report/json_object_writer.hpp"
#include "kepoch/report/render_detail.hpp"
#include "kepoch/report/table_rows.hpp"
#include "kepoch/report/time_fields.hpp"
#include "kepoch/report/yaml_emitter.hpp"
#include "kepoch/report/yaml_object_writer.hpp"

namespace kepoch::report {

void ReportStream::write_element(const std::function<void(ObjectWriter&)>& write) {
  ValueBuilder builder;
  write(builder);
  element(builder.take());
}

namespace {

using namespace detail;

// Elements are gathered into one string and handed to the ostream in pieces of about this
// size: one write per element (a batch of one small record) cost more than the writing.
constexpr std::size_t kFlushAt = 64 * 1024;

// Runs `write` on an element begun at text[mark]; if it throws, the element's text is dropped
// (what was spilled of it stays written), so the output is what it was when each element was
// written out on its own.
void write_or_drop(JsonObjectWriter& writer, TextBuffer& text, std::size_t mark,
                   const std::function<void(ObjectWriter&)>& write) {
  try {
    write(writer);
  } catch (...) {
    if (writer.spilled())
      text.clear();
    else
      text.resize(mark);
    throw;
  }
}

// JSON: the array and each item are written by hand, every member through nlohmann, one
// element per line (json_object_writer.hpp: nlohmann's text without its tree).
class JsonStream : public ReportStream {
 public:
  explicit JsonStream(std::ostream& out) : out_(out), writer_(text_) { writer_.spill_to(out_); }
  ~JsonStream() override { flush(); }  // elements written before an error that ends the run
  void begin_item(const Value& fields, std::string_view list_key,
                  std::vector<std::string>) override {
    flush();
    out_ << (items_++ ? ",\n" : "[\n") << '{';
    members(fields);
    out_ << (fields.as_object().empty() ? "" : ",")
         << nlohmann::json(std::string(list_key))
                .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
         << ":[";
    elements_ = 0;
  }
  void element(const Value& e) override {
    write_element([&e](ObjectWriter& w) { w.members(e); });
  }
  void write_element(const std::function<void(ObjectWriter&)>& write) override {
    const std::size_t mark = text_.size();
    text_ += elements_++ ? ",\n" : "\n";
    writer_.begin_element(mark);
    write_or_drop(writer_, text_, mark, write);
    writer_.end();
    if (text_.size() >= kFlushAt) flush();
  }
  void next_list(const Value& fields, std::string_view list_key,
                 std::vector<std::string>) override {
    flush();
    out_ << (elements_ ? "\n]" : "]");
    if (!fields.as_object().empty()) out_ << ',';
    members(fields);
    out_ << ','
         << nlohmann::json(std::string(list_key))
                .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
         << ":[";
    elements_ = 0;
  }
  void end_item(const Value& trailer) override {
    flush();
    out_ << (elements_ ? "\n]" : "]");
    if (!trailer.as_object().empty()) out_ << ',';
    members(trailer);
    out_ << '}';
  }
  void item(const Value& whole) override {
    flush();
    out_ << (items_++ ? ",\n" : "[\n") << '{';
    members(whole);
    out_ << '}';
  }
  void finish() override {
    flush();
    out_ << (items_ ? "\n]\n" : "[]\n");
  }

 private:
  void members(const Value& obj) {
    bool first = true;
    for (const auto& [k, v] : obj.as_object()) {
      out_ << (first ? "" : ",")
           << nlohmann::json(k).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
           << ':' << to_json(v).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      first = false;
    }
  }
  void flush() {
    out_.write(text_.data(), static_cast<std::streamsize>(text_.size()));
    text_.clear();
  }
  std::ostream& out_;
  int items_ = 0;
  std::size_t elements_ = 0;
  TextBuffer text_;  // elements written, not yet handed to out_ (up to kFlushAt bytes)
  JsonObjectWriter writer_;
};

// JSON lines: one object per element, {"<id>": id, "<element>": element}, where <id> is the
// item's first leading member after its "summary" ("file" for a segment, "dir" for a log dir) and
// <element> the list's name in the singular ("batches" -> "batch", "entries" -> "entry"); then one
// line closing the item: its leading members and its trailer, without the list. Every line stands
// alone, so a reader can stop anywhere.
class JsonLinesStream : public ReportStream {
 public:
  explicit JsonLinesStream(std::ostream& out) : out_(out), writer_(text_) {
    writer_.spill_to(out_);
  }
  ~JsonLinesStream() override { flush(); }
  void begin_item(const Value& fields, std::string_view list_key,
                  std::vector<std::string>) override {
    fields_ = fields;
    start_lines(list_key);
  }
  void next_list(const Value& fields, std::string_view list_key,
                 std::vector<std::string>) override {
    for (const auto& [k, v] : fields.as_object())
      fields_.set(k, v);
    start_lines(list_key);
  }
  void item(const Value& whole) override {
    flush();
    out_ << to_json(whole).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  }
  void element(const Value& e) override {
    write_element([&e](ObjectWriter& w) { w.members(e); });
  }
  void write_element(const std::function<void(ObjectWriter&)>& write) override {
    const std::size_t mark = text_.size();
    text_ += line_start_;
    writer_.begin_element(mark);
    write_or_drop(writer_, text_, mark, write);
    writer_.end();
    text_ += "}\n";
    if (text_.size() >= kFlushAt) flush();
  }
  void end_item(const Value& trailer) override {
    flush();
    Value line = fields_;
    for (const auto& [k, v] : trailer.as_object())
      line.set(k, v);
    out_ << to_json(line).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  }
  void finish() override {
    flush();
    out_.flush();
  }

 private:
  void flush() {
    out_.write(text_.data(), static_cast<std::streamsize>(text_.size()));
    text_.clear();
  }
  // Each element's line up to the element: {"<id>":id,"<element>":
  void start_lines(std::string_view list_key) {
    line_start_.assign(1, '{');
    // The id: the first leading member that is not the item's verdict sentence.
    for (const auto& [k, v] : fields_.as_object()) {
      if (k == "summary" && std::holds_alternative<std::string>(v.data())) continue;
      append_json_string(line_start_, k);
      line_start_ += ':';
      append_json(line_start_, v);
      line_start_ += ',';
      break;
    }
    append_json_string(line_start_, singular(list_key));
    line_start_ += ':';
  }
  static std::string singular(std::string_view plural) {
    std::string s(plural);
    if (s.ends_with("ies")) return s.substr(0, s.size() - 3) + "y";
    if (s.ends_with("ches") || s.ends_with("shes") || s.ends_with("xes"))
      return s.substr(0, s.size() - 2);
    if (s.ends_with("s")) return s.substr(0, s.size() - 1);
    return s + "_element";
  }
  std::ostream& out_;
  Value fields_;
  std::string line_start_;
  TextBuffer text_;  // lines written, not yet handed to out_ (up to kFlushAt bytes)
  JsonObjectWriter writer_;
};

// YAML: each piece is emitted straight into place (yaml_emitter.hpp, yaml-cpp's text), its
// lines after the first indented by the emitter; elements written member by member go
// straight to YAML text.
class YamlStream : public ReportStream {
 public:
  explicit YamlStream(std::ostream& out) : out_(out), element_writer_(text_, kElementIndent) {}
  ~YamlStream() override { flush(); }  // what was written before an error that ends the run
  void begin_item(const Value& fields, std::string_view list_key,
                  std::vector<std::string>) override {
    any_ = true;
    first_line_ = true;
    if (!fields.as_object().empty()) write(fields, 2, true);
    line(fmt::format("{}:", list_key), 2, first_line_);
    elements_ = 0;
  }
  void element(const Value& e) override {
    ++elements_;
    write(e, kElementIndent, false, "    - ");
  }
  // An element that throws leaves no text.
  void write_element(const std::function<void(ObjectWriter&)>& write) override {
    ++elements_;
    const std::size_t mark = text_.size();
    text_ += "    - ";
    element_writer_.begin();
    try {
      write(element_writer_);
    } catch (...) {
      text_.resize(mark);
      throw;
    }
    element_writer_.end();
    end_piece();
  }
  void next_list(const Value& fields, std::string_view list_key,
                 std::vector<std::string>) override {
    if (elements_ == 0) text_ += "    []\n";
    if (!fields.as_object().empty()) write(fields, 2, false);
    line(fmt::format("{}:", list_key), 2, false);
    elements_ = 0;
  }
  void end_item(const Value& trailer) override {
    if (elements_ == 0) text_ += "    []\n";
    if (!trailer.as_object().empty()) write(trailer, 2, false);
  }
  void item(const Value& whole) override {
    any_ = true;
    first_line_ = true;
    write(whole, 2, true);
  }
  void finish() override {
    if (!any_) text_ += "[]\n";
    flush();
  }

 private:
  static constexpr std::size_t kElementIndent = 6;  // "    - "

  void line(const std::string& text, int indent, bool first) {
    if (first)
      text_ += "- ";
    else
      text_.append(static_cast<std::size_t>(indent), ' ');
    text_ += text;
    text_ += '\n';
    first_line_ = false;
  }
  // Writes a YAML rendering of v: its first line after `first_prefix` (or "- " for the item's
  // first line), the rest indented by `indent`.
  void write(const Value& v, std::size_t indent, bool item_start,
             std::string_view first_prefix = "") {
    if (!first_prefix.empty()) {
      text_ += first_prefix;
    } else if (item_start && first_line_) {
      text_ += "- ";
      first_line_ = false;
    } else {
      text_.append(indent, ' ');
    }
    YamlEmitter e(text_, indent);
    emit_yaml(e, v);
    end_piece();
  }
  void end_piece() {
    text_ += '\n';
    if (text_.size() >= kFlushAt) flush();
  }
  void flush() {
    out_.write(text_.data(), static_cast<std::streamsize>(text_.size()));
    text_.clear();
  }
  std::ostream& out_;
  bool any_ = false;
  bool first_line_ = true;
  std::size_t elements_ = 0;
  std::string text_;                 // lines placed, not yet handed to out_ (up to kFlushAt bytes)
  YamlObjectWriter element_writer_;  // writes into text_
};

// Table: leading fields as "key  value" lines, the list as rows whose column widths are
// fixed by the header, the first row and min_column_width hints (later rows widen a
// column, never realign), and nested lists of an element as "| key: value ..." lines under
// its row (table_rows.hpp).
class TableStream : public ReportStream {
 public:
  TableStream(std::ostream& out, std::ostream& err, const RenderOptions& options)
      : out_(out), err_(err), options_(options) {}
  ~TableStream() override { flush(); }  // rows written before an error that ends the run

  void begin_item(const Value& fields, std::string_view list_key,
                  std::vector<std::string> table_columns) override {
    flush();
    if (items_++) out_ << '\n';
    file_ = "kepoch";
    if (const Value* f = fields.find("file")) file_ = scalar_text(*f);
    width_ = 0;
    for (const auto& [k, v] : fields.as_object())
      if (!is_sentence(k, v)) width_ = std::max(width_, k.size());
    width_ = std::max<std::size_t>(width_, 14);  // room for the trailer's keys
    for (const auto& [k, v] : fields.as_object())
      is_sentence(k, v) ? sentence(v) : field(k, cell_text(v));
    out_ << bold(std::string(list_key)) << ":\n";
    rows_.reset(std::move(table_columns));
    rows_.fit(options_.wide ? 0 : table_width(options_));
  }

  void min_column_width(std::string_view column, std::size_t width) override {
    rows_.min_width(column, width);
  }

  void element(const Value& e) override {
    write_element([&e](ObjectWriter& w) { w.members(e); });
  }

  void write_element(const std::function<void(ObjectWriter&)>& write) override {
    if (options_.limit && shown_ >= options_.limit) {
      // Past the limit: counted, and still written (to nothing), so whatever the writer
      // finds on its way (a corrupt record) is found as with every row shown.
      ++hidden_;
      ValueBuilder ignored;
      write(ignored);
      return;
    }
    ++shown_;
    // Rows are gathered into text_ and handed to out_ in pieces of about kFlushAt bytes;
    // an element that throws half written is dropped (what it spilled stays written), as
    // when each row was written on its own.
    const std::size_t mark = text_.size();
    try {
      rows_.element(write, bold_text_, text_, &out_);
    } catch (...) {
      if (rows_.spilled())
        text_.clear();
      else
        text_.resize(mark);
      throw;
    }
    if (text_.size() >= kFlushAt) flush();
  }

  // A flat element's row placed as write_element places it (TableRows::flat_element); past
  // the limit it is only counted (a run of scalars holds nothing to find).
  bool table_row(const MemberNames& names, std::span<const Scalar> values) override {
    if (options_.limit && shown_ >= options_.limit) {
      ++hidden_;
      return true;
    }
    ++shown_;
    const std::size_t mark = text_.size();
    try {
      rows_.flat_element(names, values, bold_text_, text_);
    } catch (...) {
      text_.resize(mark);
      throw;
    }
    if (text_.size() >= kFlushAt) flush();
    return true;
  }

  void next_list(const Value& fields, std::string_view list_key,
                 std::vector<std::string> table_columns) override {
    flush();
    if (rows_.empty()) out_ << "  (none)\n";
    more_rows();
    if (const std::string left = rows_.dropped(); !left.empty())
      out_ << shorten("  (not shown: " + left + "; use -o wide)", table_width(options_)) << '\n';
    for (const auto& [k, v] : fields.as_object())
      field(k, cell_text(v));
    out_ << bold(std::string(list_key)) << ":\n";
    rows_.reset(std::move(table_columns));
  }

  void end_item(const Value& trailer) override {
    flush();
    if (rows_.empty()) out_ << "  (none)\n";
    more_rows();
    if (const std::string left = rows_.dropped(); !left.empty())
      out_ << shorten("  (not shown: " + left + "; use -o wide)", table_width(options_)) << '\n';
    fields(trailer);
  }

  // The whole-value table of one object, in this stream's layout.
  void item(const Value& whole) override {
    flush();
    if (items_++) out_ << '\n';
    file_ = "kepoch";
    if (const Value* f = whole.find("file")) file_ = scalar_text(*f);
    width_ = 0;
    for (const auto& [k, v] : whole.as_object())
      if (!is_sentence(k, v)) width_ = std::max(width_, k.size());
    width_ = std::max<std::size_t>(width_, 14);
    fields(whole);
  }

  void finish() override {
    flush();
    out_.flush();
  }

 private:
  void flush() {
    out_.write(text_.data(), static_cast<std::streamsize>(text_.size()));
    text_.clear();
  }

  // The verdict sentence (summary.hpp) is the item's opening text, not one of its fields;
  // so is the closing sentence of what was found after it (segment dump's records_summary).
  static bool is_sentence(const std::string& key, const Value& v) {
    return (key == "summary" || key == "records_summary") &&
           std::holds_alternative<std::string>(v.data());
  }

  // The verdict opens the item as text and a blank line, as render_table writes it.
  void sentence(const Value& v) {
    write_wrapped(out_, table_width(options_), "", "", cell_text(v));
    out_ << '\n';
  }

  // The rows past the limit, as one line; a new list starts counting again.
  void more_rows() {
    if (hidden_) out_ << "  " << more_rows_text(hidden_) << '\n';
    shown_ = hidden_ = 0;
  }

  // Members as "key  value" lines; a "problems" array goes to the error stream.
  void fields(const Value& object) {
    for (const auto& [k, v] : object.as_object()) {
      if (is_sentence(k, v)) {
        sentence(v);
      } else if (k == "problems" && v.is_array()) {
        int errors = 0, warnings = 0, notes = 0;
        for (const auto& p : v.as_array()) {
          const Value* sev = p.find("severity");
          const std::string severity = sev ? scalar_text(*sev) : "error";
          (severity == "warning" ? warnings : severity == "info" ? notes : errors)++;
          err_ << problem_text(p, file_, options_.color_err) << '\n';
        }
        field(k, problem_summary(errors, warnings, notes));
      } else {
        field(k, cell_text(v));
      }
    }
  }

  std::string bold(const std::string& s) const {
    return options_.color_out ? "\x1b[1m" + s + "\x1b[0m" : s;
  }
  void field(const std::string& k, const std::string& v) {
    const std::size_t column = std::max(width_, k.size()) + 2;
    out_ << bold(k) << std::string(column - k.size(), ' ')
         << (options_.wide ? v : shorten(v, room_from(column, table_width(options_)))) << '\n';
  }
  std::ostream& out_;
  std::ostream& err_;
  RenderOptions options_;  // by value: the stream outlives the caller's options
  int items_ = 0;
  std::string file_;
  std::size_t width_ = 0;
  TableRows rows_;
  const std::function<std::string(const std::string&)> bold_text_ = [this](const std::string& s) {
    return bold(s);
  };
  std::string text_;  // rows written, not yet handed to out_ (up to kFlushAt bytes)
  std::size_t shown_ = 0, hidden_ = 0;  // rows of the current list
};

}  // namespace

std::unique_ptr<ReportStream> make_stream(Format format, std::ostream& out, std::ostream& err,
                                          const RenderOptions& options) {
  if (options.iso_times) {
    RenderOptions plain = options;
    plain.iso_times = false;
    return with_iso_times(make_stream(format, out, err, plain), format, options.local_time);
  }
  switch (format) {
    case Format::json:
      return std::make_unique<JsonStream>(out);
    case Format::yaml:
      return std::make_unique<YamlStream>(out);
    case Format::jsonl:
      return std::make_unique<JsonLinesStream>(out);
    case Format::table:
      return std::make_unique<TableStream>(out, err, options);
  }
  return nullptr;
}

}  // namespace kepoch::report

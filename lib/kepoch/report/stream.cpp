#include "kepoch/report/stream.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <ostream>
#include <sstream>

#include "kepoch/report/render_detail.hpp"

namespace kepoch::report {
namespace {

using namespace detail;

// JSON: the array and each item are written by hand; every member and element through
// nlohmann, one element per line.
class JsonStream : public ReportStream {
 public:
  explicit JsonStream(std::ostream& out) : out_(out) {}
  void begin_item(const Value& fields, std::string_view list_key,
                  std::vector<std::string>) override {
    out_ << (items_++ ? ",\n" : "[\n") << '{';
    members(fields);
    out_ << (fields.as_object().empty() ? "" : ",")
         << nlohmann::json(std::string(list_key))
                .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
         << ":[";
    elements_ = 0;
  }
  void element(const Value& e) override {
    out_ << (elements_++ ? ",\n" : "\n")
         << to_json(e).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  void end_item(const Value& trailer) override {
    out_ << (elements_ ? "\n]" : "]");
    if (!trailer.as_object().empty()) out_ << ',';
    members(trailer);
    out_ << '}';
  }
  void finish() override { out_ << (items_ ? "\n]\n" : "[]\n"); }

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
  std::ostream& out_;
  int items_ = 0;
  std::size_t elements_ = 0;
};

// JSON lines: one object per element, {"<id>": id, "<element>": element}, where <id> is the
// item's first leading member ("file" for a segment, "dir" for a log dir) and <element> the
// list's name in the singular ("batches" -> "batch", "entries" -> "entry"); then one line
// closing the item: its leading members and its trailer, without the list. Every line
// stands alone, so a reader can stop anywhere.
class JsonLinesStream : public ReportStream {
 public:
  explicit JsonLinesStream(std::ostream& out) : out_(out) {}
  void begin_item(const Value& fields, std::string_view list_key,
                  std::vector<std::string>) override {
    fields_ = fields;
    element_key_ = singular(list_key);
    const auto& members = fields.as_object();
    id_ = members.empty() ? Value::object()
                          : Value::object().set(members[0].first, members[0].second);
  }
  void element(const Value& e) override {
    Value line = id_;
    line.set(element_key_, e);
    out_ << to_json(line).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  }
  void end_item(const Value& trailer) override {
    Value line = fields_;
    for (const auto& [k, v] : trailer.as_object())
      line.set(k, v);
    out_ << to_json(line).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  }
  void finish() override { out_.flush(); }

 private:
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
  Value id_;
  std::string element_key_;
};

// YAML: each piece is emitted by yaml-cpp on its own, then indented into place.
class YamlStream : public ReportStream {
 public:
  explicit YamlStream(std::ostream& out) : out_(out) {}
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
    write(e, 6, false, "    - ");
  }
  void end_item(const Value& trailer) override {
    if (elements_ == 0)
      out_ << "  "
           << "  []\n";
    if (!trailer.as_object().empty()) write(trailer, 2, false);
  }
  void finish() override {
    if (!any_) out_ << "[]\n";
  }

 private:
  void line(const std::string& text, int indent, bool first) {
    out_ << (first ? "- " : std::string(indent, ' ')) << text << '\n';
    first_line_ = false;
  }
  // Writes a YAML rendering of v: its first line after `first_prefix` (or "- " for the item's
  // first line), the rest indented by `indent`.
  void write(const Value& v, int indent, bool item_start, const std::string& first_prefix = "") {
    YAML::Emitter e;
    emit_yaml(e, v);
    std::istringstream lines(e.c_str());
    std::string text;
    bool first = true;
    while (std::getline(lines, text)) {
      if (first && !first_prefix.empty()) {
        out_ << first_prefix << text << '\n';
      } else if (first && item_start && first_line_) {
        out_ << "- " << text << '\n';
        first_line_ = false;
      } else {
        out_ << std::string(indent, ' ') << text << '\n';
      }
      first = false;
    }
  }
  std::ostream& out_;
  bool any_ = false;
  bool first_line_ = true;
  std::size_t elements_ = 0;
};

// Table: leading fields as "key  value" lines, the list as rows whose column widths are
// fixed by the header, the first row and min_column_width hints (later rows widen a
// column, never realign), and
// nested lists of an element as "| key: value ..." lines under its row.
class TableStream : public ReportStream {
 public:
  TableStream(std::ostream& out, std::ostream& err, const RenderOptions& options)
      : out_(out), err_(err), options_(options) {}

  void begin_item(const Value& fields, std::string_view list_key,
                  std::vector<std::string> table_columns) override {
    if (items_++) out_ << '\n';
    wanted_ = std::move(table_columns);
    file_ = "kepoch";
    if (const Value* f = fields.find("file")) file_ = scalar_text(*f);
    width_ = 0;
    for (const auto& [k, v] : fields.as_object())
      width_ = std::max(width_, k.size());
    width_ = std::max<std::size_t>(width_, 14);  // room for the trailer's keys
    for (const auto& [k, v] : fields.as_object())
      field(k, cell_text(v));
    out_ << bold(std::string(list_key)) << ":\n";
    columns_.clear();
    widths_.clear();
    min_widths_.clear();
  }

  void min_column_width(std::string_view column, std::size_t width) override {
    min_widths_.emplace_back(std::string(column), width);
  }

  void element(const Value& e) override {
    if (columns_.empty()) start_columns(e);
    std::string row;
    for (std::size_t i = 0; i < columns_.size(); ++i) {
      const Value* v = e.find(columns_[i]);
      const std::string c = v ? cell_text(*v) : "-";
      widths_[i] = std::max(widths_[i], c.size());
      row += i + 1 < columns_.size() ? fmt::format("{:<{}}  ", c, widths_[i]) : c;
    }
    out_ << "  " << row << '\n';
    for (const auto& [k, v] : e.as_object()) {
      if (!v.is_array()) continue;
      for (const auto& nested : v.as_array()) {
        if (!nested.is_object()) continue;
        std::string text;
        for (const auto& [nk, nv] : nested.as_object())
          text += fmt::format(" {}: {}", nk, nv.is_scalar() ? cell_text(nv) : inline_text(nv));
        out_ << "  |" << text << '\n';
      }
    }
  }

  void end_item(const Value& trailer) override {
    if (columns_.empty()) out_ << "  (none)\n";
    for (const auto& [k, v] : trailer.as_object()) {
      if (k == "problems" && v.is_array()) {
        int errors = 0, warnings = 0;
        for (const auto& p : v.as_array()) {
          const Value* sev = p.find("severity");
          (sev && scalar_text(*sev) == "warning" ? warnings : errors)++;
          err_ << problem_text(p, file_, options_.color_err) << '\n';
        }
        field(k, problem_summary(errors, warnings));
      } else {
        field(k, cell_text(v));
      }
    }
  }

  void finish() override { out_.flush(); }

 private:
  std::string bold(const std::string& s) const {
    return options_.color_out ? "\x1b[1m" + s + "\x1b[0m" : s;
  }
  void field(const std::string& k, const std::string& v) {
    out_ << bold(k) << std::string(width_ > k.size() ? width_ - k.size() + 2 : 2, ' ') << v << '\n';
  }
  void start_columns(const Value& e) {
    std::string header;
    for (const auto& [k, v] : e.as_object()) {
      if (v.is_array() || v.is_object()) continue;
      if (!wanted_.empty() && std::find(wanted_.begin(), wanted_.end(), k) == wanted_.end())
        continue;
      std::string head = k;
      std::transform(head.begin(), head.end(), head.begin(), ::toupper);
      columns_.push_back(k);
      std::size_t width = std::max(head.size(), cell_text(v).size());
      for (const auto& [c, w] : min_widths_)
        if (c == k) width = std::max(width, w);
      widths_.push_back(width);
    }
    for (std::size_t i = 0; i < columns_.size(); ++i) {
      std::string head = columns_[i];
      std::transform(head.begin(), head.end(), head.begin(), ::toupper);
      header += i + 1 < columns_.size() ? fmt::format("{:<{}}  ", head, widths_[i]) : head;
    }
    out_ << "  " << bold(header) << '\n';
  }

  std::ostream& out_;
  std::ostream& err_;
  RenderOptions options_;  // by value: the stream outlives the caller's options
  int items_ = 0;
  std::string file_;
  std::size_t width_ = 0;
  std::vector<std::string> wanted_;
  std::vector<std::string> columns_;
  std::vector<std::size_t> widths_;
  std::vector<std::pair<std::string, std::size_t>> min_widths_;
};

}  // namespace

std::unique_ptr<ReportStream> make_stream(Format format, std::ostream& out, std::ostream& err,
                                          const RenderOptions& options) {
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

#include "kepoch/report/render.hpp"

#include "kepoch/report/render_detail.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <ostream>

#include "kepoch/base/text.hpp"
#include "kepoch/report/fit.hpp"
#include "kepoch/report/summary.hpp"
#include "kepoch/report/time_fields.hpp"
#include "kepoch/report/timeline.hpp"
#include "kepoch/report/yaml_emitter.hpp"

namespace kepoch::report {
namespace detail {

// ---- JSON ---------------------------------------------------------------------------------

nlohmann::ordered_json to_json(const Value& v) {
  struct Visitor {
    nlohmann::ordered_json operator()(std::monostate) const { return nullptr; }
    nlohmann::ordered_json operator()(bool b) const { return b; }
    nlohmann::ordered_json operator()(std::int64_t i) const { return i; }
    nlohmann::ordered_json operator()(double d) const { return d; }
    nlohmann::ordered_json operator()(const std::string& s) const { return s; }
    nlohmann::ordered_json operator()(const Value::Array& a) const {
      auto j = nlohmann::ordered_json::array();
      for (const auto& e : a)
        j.push_back(to_json(e));
      return j;
    }
    nlohmann::ordered_json operator()(const Value::Object& o) const {
      auto j = nlohmann::ordered_json::object();
      for (const auto& [k, e] : o)
        j[k] = to_json(e);
      return j;
    }
  };
  return std::visit(Visitor{}, v.data());
}

// ---- table --------------------------------------------------------------------------------

// Every text a table shows passes here or through problem_text: control characters in a
// name (a partition dir called "\e[2J" or "a\nb") are escaped, as ls and git show them.
std::string cell_text(const Value& v) {
  if (v.is_null()) return "-";
  if (const auto* s = std::get_if<std::string>(&v.data())) return escape_control(*s);
  if (v.is_array()) {
    std::string joined;
    for (const auto& e : v.as_array()) {
      if (!joined.empty()) joined += ",";
      joined += e.is_scalar() ? cell_text(e) : "{...}";
    }
    return joined.empty() ? "(none)" : joined;
  }
  return v.is_object() ? "{...}" : escape_control(scalar_text(v));
}

std::string inline_text(const Value& v) {
  if (v.is_array()) {
    std::string out;
    for (const auto& e : v.as_array())
      out += (out.empty() ? "" : ", ") + inline_text(e);
    return "[" + out + "]";
  }
  if (v.is_object()) {
    std::string out;
    for (const auto& [k, e] : v.as_object())
      out += (out.empty() ? "" : ", ") + escape_control(k) + ": " + inline_text(e);
    return "{" + out + "}";
  }
  return cell_text(v);
}

std::string problem_text(const Value& p, const std::string& file, bool color) {
  const Value* sev = p.find("severity");
  const std::string severity = sev ? scalar_text(*sev) : "error";
  const Value* own_file = p.find("file");  // a problem about another file than the record's
  std::string where = own_file ? scalar_text(*own_file) : file;
  if (const Value* line = p.find("line"); line && scalar_text(*line) != "0") {
    where += ':';
    where += scalar_text(*line);
  } else if (const Value* pos = p.find("position"); pos && !pos->is_null()) {
    where += ": at byte ";
    where += scalar_text(*pos);
  }
  std::string shown = severity;
  if (color && severity != "info")
    shown = (severity == "error" ? "\x1b[31m" : "\x1b[33m") + shown + "\x1b[0m";
  const Value* message = p.find("message");
  std::string text = fmt::format("{}: {}: {}", escape_control(where), shown,
                                 message ? escape_control(scalar_text(*message)) : "");
  const Value* exc = p.find("kafka_exception");
  const Value* kmsg = p.find("kafka_message");
  if (exc && !scalar_text(*exc).empty()) {
    std::string simple = scalar_text(*exc);
    simple = simple.substr(simple.rfind('.') + 1);
    text += fmt::format(" (Kafka: {}{}{})", escape_control(simple),
                        kmsg && !scalar_text(*kmsg).empty() ? ": " : "",
                        kmsg ? escape_control(scalar_text(*kmsg)) : "");
  }
  return text;
}

std::string more_rows_text(std::size_t hidden) {
  return fmt::format("{} more (use -o json or --limit)", hidden);
}

std::string problem_summary(int errors, int warnings, int notes) {
  if (errors + warnings + notes == 0) return "none";
  return fmt::format("{} error{}, {} warning{}{} (on stderr)", errors, errors == 1 ? "" : "s",
                     warnings, warnings == 1 ? "" : "s",
                     notes == 0 ? "" : fmt::format(", {} note{}", notes, notes == 1 ? "" : "s"));
}

}  // namespace detail

namespace {
using namespace detail;

class TableWriter {
 public:
  TableWriter(std::ostream& out, std::ostream& err, const RenderOptions& options)
      : out_(out), err_(err), options_(options) {}

  void top(const Value& v) {
    if (v.is_array()) {
      bool first = true;
      for (const auto& e : v.as_array()) {
        if (!first && e.is_object()) out_ << '\n';
        first = false;
        element(e, 0, "kepoch");
      }
    } else {
      element(v, 0, "kepoch");
    }
  }

 private:
  std::string bold(const std::string& s) const {
    return options_.color_out ? "\x1b[1m" + s + "\x1b[0m" : s;
  }

  static std::string cell(const Value& v) { return cell_text(v); }

  // The columns left for text that starts at column `used` (at least a few, however deep).
  std::size_t table_width() const { return detail::table_width(options_); }
  std::size_t room(std::size_t used) const { return room_from(used, table_width()); }

  // Lines of `text` starting at `pad`, wrapped to the width (continuations under `more`).
  void text_lines(const std::string& first, const std::string& more, const std::string& text) {
    write_wrapped(out_, table_width(), first, more, text);
  }

  // An array of flat objects: one row each.
  static bool is_table(const Value& v) {
    return v.is_array() && !v.as_array().empty() &&
           std::all_of(v.as_array().begin(), v.as_array().end(), [](const Value& e) {
             return e.is_object() &&
                    std::all_of(e.as_object().begin(), e.as_object().end(),
                                [](const Value::Member& m) { return is_inline(m.second); });
           });
  }

  // Scalars, and short arrays of scalars (shown comma-joined on one line).
  static bool is_inline(const Value& v) {
    if (v.is_scalar()) return true;
    if (!v.is_array()) return false;
    std::size_t length = 0;
    for (const auto& e : v.as_array()) {
      if (!e.is_scalar()) return false;
      length += scalar_text(e).size() + 1;
    }
    return length <= 80;
  }

  // The verdict sentence (summary.hpp) is the record's opening text, not one of its fields.
  static bool is_sentence(const std::string& key, const Value& v) {
    return key == "summary" && std::holds_alternative<std::string>(v.data());
  }

  void element(const Value& v, int indent, const std::string& file) {
    if (v.is_object()) {
      record(v, indent, file);
    } else {
      text_lines(std::string(indent, ' '), std::string(indent + 2, ' '), cell(v));
    }
  }

  void record(const Value& obj, int indent, std::string file) {
    if (const Value* f = obj.find("file")) file = scalar_text(*f);
    std::size_t width = 0;
    for (const auto& [k, v] : obj.as_object())
      if ((is_inline(v) && !is_sentence(k, v)) || k == "problems")
        width = std::max(width, k.size());
    const std::string pad(indent, ' ');
    if (const Value* sentence = summary_text(obj)) {
      for (const auto& line : wrap(cell(*sentence), room(pad.size())))
        out_ << pad << line << '\n';
      if (indent == 0) out_ << '\n';
    }
    for (const auto& [k, v] : obj.as_object()) {
      if (is_sentence(k, v)) continue;
      if (k == "problems" && v.is_array()) {
        problems(v, file, pad, width);
      } else if (is_inline(v)) {
        text_lines(pad + bold(escape_control(k)) + std::string(width - k.size() + 2, ' '),
                   std::string(pad.size() + width + 2, ' '), cell(v));
      } else if (is_table(v)) {
        out_ << pad << bold(k) << ":\n";
        table(v.as_array(), indent + 2);
      } else if (is_timeline(v)) {
        // A picture, not a record (timeline.hpp): lines as drawn, never wrapped.
        out_ << pad << bold(k) << ":\n";
        for (const auto& line : timeline_drawing(v, room(pad.size() + 2)))
          text_lines(pad + "  ", pad + "    ", line);
      } else if (v.is_object()) {
        out_ << pad << bold(k) << ":\n";
        if (k == "summary" && summary_text(obj) == v.find("text")) {
          Value rest = Value::object();  // the counts; their sentence opened the report
          for (const auto& [ck, cv] : v.as_object())
            if (ck != "text") rest.set(ck, cv);
          record(rest, indent + 2, file);
        } else {
          record(v, indent + 2, file);
        }
      } else {
        // Objects with nested lists, or long lists: one block per element.
        out_ << pad << bold(k) << ":\n";
        for (const auto& e : v.as_array()) {
          if (e.is_object()) {
            out_ << pad << "  -\n";
            record(e, indent + 4, file);
          } else {
            text_lines(pad + "  - ", pad + "    ", cell(e));
          }
        }
      }
    }
  }

  // `text` in `width` columns: shortened to it, then padded unless it is the last column.
  static void append_cell(std::string& line, const std::string& text, std::size_t width,
                          bool last) {
    const std::string shown = shorten(text, width);
    line += shown;
    if (!last) line.append(width - display_width(shown) + 2, ' ');
  }

  void table(const Value::Array& rows, int indent) {
    std::vector<std::string> columns;
    for (const auto& row : rows)
      for (const auto& [k, v] : row.as_object())
        if (is_inline(v) && std::find(columns.begin(), columns.end(), k) == columns.end())
          columns.push_back(k);
    std::vector<std::string> heads;
    std::vector<std::vector<std::string>> cells;
    std::vector<std::size_t> widths;
    std::vector<std::size_t> floors;
    for (const auto& c : columns) {
      std::string head = c;
      std::transform(head.begin(), head.end(), head.begin(), ::toupper);
      widths.push_back(display_width(head));
      floors.push_back(std::max(kMinColumn, std::min<std::size_t>(head.size(), 14)));
      heads.push_back(std::move(head));
    }
    // Past options_.limit rows, the rest are counted, not shown.
    const std::size_t limit =
        options_.limit && rows.size() > options_.limit ? options_.limit : rows.size();
    for (std::size_t r = 0; r < limit; ++r) {
      const Value& row = rows[r];
      std::vector<std::string> line;
      for (std::size_t i = 0; i < columns.size(); ++i) {
        const Value* v = row.find(columns[i]);
        line.push_back(v ? cell(*v) : "-");
        widths[i] = std::max(widths[i], display_width(line.back()));
      }
      cells.push_back(std::move(line));
    }
    // A time (time_fields.hpp) is never shortened: its end is the part that differs.
    for (std::size_t i = 0; i < columns.size(); ++i)
      if (is_time_field(columns[i])) floors[i] = widths[i];
    // The default table fits the width: the widest columns shrink (their cells end in an
    // ellipsis), and the rightmost go when even that does not fit; -o wide shows all.
    std::size_t shown = columns.size();
    if (!options_.wide) shown = fit_columns(widths, floors, room(static_cast<std::size_t>(indent)));
    const std::string pad(indent, ' ');
    std::string header;
    for (std::size_t i = 0; i < shown; ++i)
      append_cell(header, heads[i], widths[i], i + 1 == shown);
    out_ << pad << bold(header) << '\n';
    for (const auto& line : cells) {
      std::string text;
      for (std::size_t i = 0; i < shown; ++i)
        append_cell(text, line[i], widths[i], i + 1 == shown);
      out_ << pad << text << '\n';
    }
    if (limit < rows.size()) out_ << pad << more_rows_text(rows.size() - limit) << '\n';
    if (shown < columns.size()) {
      std::string left;
      for (std::size_t i = shown; i < columns.size(); ++i)
        left += (left.empty() ? "" : ", ") + heads[i];
      text_lines(pad + "(", pad + " ", "not shown: " + left + "; use -o wide)");
    }
  }

  // Diagnostics go to the error stream, one line each; stdout keeps a count.
  void problems(const Value& list, const std::string& file, const std::string& pad,
                std::size_t width) {
    int errors = 0, warnings = 0, notes = 0;
    for (const auto& p : list.as_array()) {
      const Value* sev = p.find("severity");
      const std::string severity = sev ? scalar_text(*sev) : "error";
      (severity == "warning" ? warnings : severity == "info" ? notes : errors)++;
      err_ << problem_text(p, file, options_.color_err) << '\n';
    }
    out_ << pad << bold("problems") << std::string(width > 8 ? width - 8 + 2 : 2, ' ')
         << problem_summary(errors, warnings, notes) << '\n';
  }

  std::ostream& out_;
  std::ostream& err_;
  const RenderOptions& options_;
};

}  // namespace

std::optional<Format> format_from_name(std::string_view name) {
  if (name == "table") return Format::table;
  if (name == "json") return Format::json;
  if (name == "yaml") return Format::yaml;
  if (name == "jsonl") return Format::jsonl;
  if (name == "wide") return Format::table;  // with RenderOptions::wide
  return std::nullopt;
}

namespace {

// render_json's bytes, written as the Value is walked: nlohmann's dump(2) of to_json(value)
// (serializer::dump's pretty layout: "{\n", each member on a line indented by its depth,
// "key": value, ",\n" between, "\n" and the closing bracket at the parent's indent; "{}" and
// "[]" when empty), but with no copy of the tree as nlohmann::ordered_json and no string of
// the whole document (a large report, `plan` over a big cluster, held both beside its Value).
// Null, booleans, integers and strings of printable ASCII without '"' or '\\' (nearly every
// key and value) are written directly, as nlohmann writes them; doubles and other strings
// (escapes, UTF-8, invalid bytes replaced) go through nlohmann's own serializer.
// With a null stream the text stays in the buffer (append_json).
class JsonWriter {
 public:
  explicit JsonWriter(std::ostream* out, std::string& buffer) : out_(out), buffer_(buffer) {}
  ~JsonWriter() { flush(); }
  JsonWriter(const JsonWriter&) = delete;
  JsonWriter& operator=(const JsonWriter&) = delete;

  void write(const Value& v, std::size_t indent) {
    const auto& data = v.data();
    if (const auto* a = std::get_if<Value::Array>(&data)) {
      if (a->empty()) return text("[]");
      text("[\n");
      for (std::size_t i = 0; i < a->size(); ++i) {
        pad(indent + 2);
        write((*a)[i], indent + 2);
        text(i + 1 < a->size() ? ",\n" : "\n");
      }
      pad(indent);
      return text("]");
    }
    if (const auto* o = std::get_if<Value::Object>(&data)) {
      // A key set twice: ordered_json keeps its first place and last value; to_json says it.
      if (has_duplicate_key(*o)) return dumped(to_json(v), indent);
      if (o->empty()) return text("{}");
      text("{\n");
      for (std::size_t i = 0; i < o->size(); ++i) {
        pad(indent + 2);
        string((*o)[i].first);
        text(": ");
        write((*o)[i].second, indent + 2);
        text(i + 1 < o->size() ? ",\n" : "\n");
      }
      pad(indent);
      return text("}");
    }
    if (const auto* s = std::get_if<std::string>(&data)) return string(*s);
    if (const auto* i = std::get_if<std::int64_t>(&data)) {
      char digits[24];
      const auto end = fmt::format_to(digits, "{}", *i);
      return text(std::string_view(digits, static_cast<std::size_t>(end - digits)));
    }
    if (const auto* b = std::get_if<bool>(&data)) return text(*b ? "true" : "false");
    if (std::holds_alternative<std::monostate>(data)) return text("null");
    dumped(to_json(v), indent);
  }

  void text(std::string_view t) {
    buffer_.append(t);
    if (out_ && buffer_.size() >= kFlushAt) flush();
  }

 private:
  static constexpr std::size_t kFlushAt = 1 << 16;

  // A string as nlohmann writes it (ensure_ascii off): printable ASCII other than '"' and
  // '\\' as it is, in quotes; anything else through nlohmann.
  void string(const std::string& s) {
    for (const char c : s) {
      const auto u = static_cast<unsigned char>(c);
      if (u < 0x20 || u > 0x7e || c == '"' || c == '\\')
        return dumped(nlohmann::ordered_json(s), 0);
    }
    buffer_ += '"';
    buffer_ += s;
    buffer_ += '"';
    if (out_ && buffer_.size() >= kFlushAt) flush();
  }

  static bool has_duplicate_key(const Value::Object& o) {
    if (o.size() < 2) return false;
    if (o.size() <= 16) {  // the common case: a record's few members, compared pairwise
      for (std::size_t i = 1; i < o.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
          if (o[i].first == o[j].first) return true;
      return false;
    }
    std::vector<std::string_view> keys;
    keys.reserve(o.size());
    for (const auto& [k, e] : o)
      keys.emplace_back(k);
    std::sort(keys.begin(), keys.end());
    return std::adjacent_find(keys.begin(), keys.end()) != keys.end();
  }
  // A piece nlohmann dumps, its lines after the first indented by `indent` (a string's
  // newlines are escaped: every newline in the text is the layout's).
  void dumped(const nlohmann::ordered_json& j, std::size_t indent) {
    const std::string t = j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    std::size_t from = 0;
    for (std::size_t nl = t.find('\n'); nl != std::string::npos; nl = t.find('\n', from)) {
      text(std::string_view(t).substr(from, nl + 1 - from));
      pad(indent);
      from = nl + 1;
    }
    text(std::string_view(t).substr(from));
  }
  void pad(std::size_t n) { buffer_.append(n, ' '); }
  void flush() {
    if (!out_) return;
    out_->write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    buffer_.clear();
  }

  std::ostream* out_;
  std::string& buffer_;
};

}  // namespace

void render_json(const Value& value, std::ostream& out) {
  std::string buffer;
  JsonWriter w(&out, buffer);
  w.write(value, 0);
  w.text("\n");
}

void append_json(const Value& value, std::size_t indent, std::string& out) {
  JsonWriter w(nullptr, out);
  w.write(value, indent);
}

void render_json_line(const Value& value, std::ostream& out) {
  out << to_json(value).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

void render_yaml(const Value& value, std::ostream& out) {
  std::string text;
  YamlEmitter e(text);
  emit_yaml(e, value);
  text += '\n';
  out << text;
}

void render_table(const Value& value, std::ostream& out, std::ostream& err,
                  const RenderOptions& options) {
  TableWriter(out, err, options).top(value);
}

void render(const Value& value, Format format, std::ostream& out, std::ostream& err,
            const RenderOptions& options) {
  if (options.iso_times && has_time_fields(value)) {
    RenderOptions plain = options;
    plain.iso_times = false;
    return render(with_iso_times(value, format, options.local_time), format, out, err, plain);
  }
  switch (format) {
    case Format::table:
      render_table(value, out, err, options);
      break;
    case Format::json:
      render_json(value, out);
      break;
    case Format::yaml:
      render_yaml(value, out);
      break;
    case Format::jsonl:
      render_json_line(value, out);
      break;
  }
}

}  // namespace kepoch::report

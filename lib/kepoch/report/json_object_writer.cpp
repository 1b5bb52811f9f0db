#include "kepoch/report/json_object_writer.hpp"

#include <charconv>

#include "kepoch/report/render_detail.hpp"

namespace kepoch::report::detail {
namespace {

// Printable ASCII other than '"' and '\': what nlohmann copies unchanged.
bool plain(std::string_view s) {
  for (const char c : s)
    if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') return false;
  return true;
}

std::string nlohmann_dump(const nlohmann::ordered_json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

void append_json_string(std::string& out, std::string_view s) {
  if (!plain(s)) {
    out += nlohmann_dump(nlohmann::ordered_json(std::string(s)));
    return;
  }
  out += '"';
  out += s;
  out += '"';
}

void append_json(std::string& out, const Value& v) {
  out += nlohmann_dump(to_json(v));
}

void JsonObjectWriter::key(std::string_view k) {
  if (!first_) out_ += ',';
  first_ = false;
  append_json_string(out_, k);
  out_ += ':';
}

void JsonObjectWriter::null(std::string_view k) {
  key(k);
  out_ += "null";
}

void JsonObjectWriter::boolean(std::string_view k, bool v) {
  key(k);
  out_ += v ? "true" : "false";
}

void JsonObjectWriter::integer(std::string_view k, std::int64_t v) {
  key(k);
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, v).ptr;
  out_.append(digits, end);
}

void JsonObjectWriter::string(std::string_view k, std::string_view v) {
  key(k);
  append_json_string(out_, v);
}

void JsonObjectWriter::value(std::string_view k, const Value& v) {
  key(k);
  append_json(out_, v);
}

void JsonObjectWriter::begin_objects(std::string_view k) {
  key(k);
  out_ += '[';
  first_object_ = true;
}

void JsonObjectWriter::begin_object() {
  if (!first_object_) out_ += ',';
  first_object_ = false;
  begin();
}

void JsonObjectWriter::end_object() {
  end();
  first_ = false;  // back in the outer object, after its list's key
  if (sink_ && out_.size() >= limit_) {
    sink_->write(out_.data(), static_cast<std::streamsize>(out_.size()));
    out_.clear();
  }
}

void JsonObjectWriter::end_objects() {
  out_ += ']';
}

}  // namespace kepoch::report::detail

#include "kepoch/report/value.hpp"

#include <fmt/format.h>

namespace kepoch::report {

Value& Value::set(std::string key, Value v) {
  std::get<Object>(data_).emplace_back(std::move(key), std::move(v));
  return *this;
}

Value& Value::push(Value v) {
  std::get<Array>(data_).push_back(std::move(v));
  return *this;
}

const Value* Value::find(std::string_view key) const {
  if (!is_object()) return nullptr;
  for (const auto& [k, v] : as_object())
    if (k == key) return &v;
  return nullptr;
}

std::string scalar_text(const Value& v) {
  struct Visitor {
    std::string operator()(std::monostate) const { return ""; }
    std::string operator()(bool b) const { return b ? "true" : "false"; }
    std::string operator()(std::int64_t i) const { return std::to_string(i); }
    std::string operator()(double d) const { return fmt::format("{}", d); }
    std::string operator()(const std::string& s) const { return s; }
    std::string operator()(const Value::Array&) const { return "[...]"; }
    std::string operator()(const Value::Object&) const { return "{...}"; }
  };
  return std::visit(Visitor{}, v.data());
}

}  // namespace kepoch::report

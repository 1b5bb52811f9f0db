#pragma once
// The one report model every command produces: a tree of null, bool, integer, double,
// string, array and object (members keep their insertion order). Renderers turn it into
// a table, JSON or YAML; commands never format output themselves.
//
// Field names are snake_case and stable: scripts depend on them.

#include <concepts>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace kepoch::report {

class Value {
 public:
  using Array = std::vector<Value>;
  using Member = std::pair<std::string, Value>;
  using Object = std::vector<Member>;

  Value() = default;
  // Copies through emplace: libstdc++ 12's variant copy constructor, when a member's copy
  // throws (bad_alloc under ulimit -v), destroys a variant of index npos that it assumes
  // cannot be valueless and jumps through a garbage visitor (SIGSEGV). emplace builds the
  // copy aside first, so a throw leaves this Value null. Moves are said noexcept outright:
  // Value is incomplete inside its own vectors, so a growing vector would copy otherwise.
  Value(const Value& other) {
    std::visit([this](const auto& x) { data_.emplace<std::decay_t<decltype(x)>>(x); }, other.data_);
  }
  Value(Value&&) noexcept = default;
  Value& operator=(const Value& other) {
    if (this != &other) *this = Value(other);
    return *this;
  }
  Value& operator=(Value&&) noexcept = default;
  ~Value() = default;
  Value(bool b) : data_(b) {}
  template <std::integral T>
  requires(!std::same_as<T, bool>) Value(T i) : data_(static_cast<std::int64_t>(i)) {}
  Value(double d) : data_(d) {}
  Value(std::string s) : data_(std::move(s)) {}
  Value(std::string_view s) : data_(std::string(s)) {}
  Value(const char* s) : data_(std::string(s)) {}
  Value(Array a) : data_(std::move(a)) {}
  Value(Object o) : data_(std::move(o)) {}

  static Value object() { return Value(Object{}); }
  static Value array() { return Value(Array{}); }

  // Appends a member to an object (which it must be). Returns *this for chaining.
  Value& set(std::string key, Value v);
  // Appends an element to an array (which it must be).
  Value& push(Value v);

  bool is_null() const { return std::holds_alternative<std::monostate>(data_); }
  bool is_array() const { return std::holds_alternative<Array>(data_); }
  bool is_object() const { return std::holds_alternative<Object>(data_); }
  bool is_scalar() const { return !is_array() && !is_object(); }

  const Array& as_array() const { return std::get<Array>(data_); }
  const Object& as_object() const { return std::get<Object>(data_); }
  // The member named key, or nullptr.
  const Value* find(std::string_view key) const;

  const auto& data() const { return data_; }

 private:
  std::variant<std::monostate, bool, std::int64_t, double, std::string, Array, Object> data_;
};

// A scalar as text: "true", "42", the string itself, "" for null.
std::string scalar_text(const Value& v);

}  // namespace kepoch::report

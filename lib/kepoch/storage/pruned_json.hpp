#pragma once
// A JSON text parsed into only what a reader reads (nlohmann's SAX interface): nlohmann holds
// a value in tens of bytes (an empty object in ~80), so a line of `{},{},...` under a member
// no reader knows cost ~27 bytes of memory per byte of text, and nlohmann's destructor, which
// allocates, then ended the run in std::terminate. A JsonShape names the members and element
// kinds a reader reads; parse_pruned_json builds the same tree json::parse would, except:
//   - a member the shape does not name is parsed, never built;
//   - a container where the shape has a scalar, or the other kind of container (which the
//     reader refuses, quoting 60 bytes of it, 4 levels deep), is kept only as far as a quote
//     shows it: its first values, up to kQuoteBudget values in all per text, then empty;
//   - an array keeps at most kMaxWrongElements elements of a shape the reader refuses (a
//     value of the wrong kind, a tuple of another length, an object missing a member, or
//     holding any of these), and a tuple (`arity`) at most kMaxWrongElements elements in
//     all: the reader's first error among them is the same, and so is its quote.
// What stays unbounded is what a reader reads anyway: the values of the shape's kinds.
// Syntax errors are those of json::parse (the same exception text).

#include <cstddef>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kepoch {

struct JsonShape {
  enum class Kind { scalar, object, array };
  Kind kind = Kind::scalar;
  // object: its members' shapes (owned by the caller, which keeps them alive)
  std::vector<std::pair<std::string_view, const JsonShape*>> members;
  const JsonShape* element = nullptr;  // array: its elements' shape
  std::size_t arity = 0;               // array: a tuple of this many elements (0: any number)
  bool capped = false;  // array: at most kMaxWrongElements elements kept in all (arity > 0 too)

  static JsonShape scalar() { return {}; }
  static JsonShape object(std::vector<std::pair<std::string_view, const JsonShape*>> m) {
    return {Kind::object, std::move(m), nullptr, 0};
  }
  static JsonShape array(const JsonShape* e, std::size_t arity = 0) {
    return {Kind::array, {}, e, arity, arity > 0};
  }
};

inline constexpr std::size_t kMaxWrongElements = 64;
inline constexpr std::size_t kQuoteBudget = 256;

// Throws nlohmann::json::exception (parse_error, out_of_range) as json::parse does.
nlohmann::json parse_pruned_json(std::string_view text, const JsonShape& shape);

// Empties `v` without allocating: nlohmann's destructor (noexcept) reserves a stack as long
// as a container's size, so a value of millions of elements destroyed when memory ran out
// (std::bad_alloc unwinding) ended the run in std::terminate, not "out of memory reading".
// Recursive: for trees of a shape's bounded depth (parse_pruned_json's).
void drain_json(nlohmann::json& v) noexcept;

// A parsed line that is drained, not destroyed, when it goes.
struct DrainedJson {
  nlohmann::json value;
  explicit DrainedJson(nlohmann::json v) : value(std::move(v)) {}
  DrainedJson(DrainedJson&& other) noexcept : value(std::move(other.value)) {}
  DrainedJson(const DrainedJson&) = delete;
  DrainedJson& operator=(const DrainedJson&) = delete;
  ~DrainedJson() { drain_json(value); }
};

}  // namespace kepoch

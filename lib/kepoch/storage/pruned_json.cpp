#include "kepoch/storage/pruned_json.hpp"

#include <algorithm>

namespace kepoch {
namespace {

using nlohmann::json;

class PrunedBuilder {
 public:
  explicit PrunedBuilder(const JsonShape& shape) : shape_(shape) {}
  ~PrunedBuilder() { drain_json(root_); }  // a text half parsed when memory ran out
  PrunedBuilder(const PrunedBuilder&) = delete;
  PrunedBuilder& operator=(const PrunedBuilder&) = delete;

  json& result() { return root_; }

  bool null() { return scalar(json(nullptr)); }
  bool boolean(bool v) { return scalar(json(v)); }
  bool number_integer(json::number_integer_t v) { return scalar(json(v)); }
  bool number_unsigned(json::number_unsigned_t v) { return scalar(json(v)); }
  bool number_float(json::number_float_t v, const json::string_t&) { return scalar(json(v)); }
  bool string(json::string_t& v) { return scalar(json(std::move(v))); }
  bool binary(json::binary_t& v) { return scalar(json(json::binary_t(std::move(v)))); }

  bool start_object(std::size_t) { return open(JsonShape::Kind::object); }
  bool start_array(std::size_t) { return open(JsonShape::Kind::array); }
  bool key(json::string_t& k) {
    Frame& f = stack_.back();
    f.member = nullptr;
    if (!f.value) return true;
    if (f.quoted >= 0) {
      f.key = std::move(k);
      return true;
    }
    for (const auto& [name, shape] : f.shape->members) {
      if (name == k) {
        f.member = shape;
        f.key = std::move(k);
        break;
      }
    }
    return true;
  }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  template <class Exception>
  bool parse_error(std::size_t, const std::string&, const Exception& ex) {
    throw ex;  // as json::parse: the same exception, the same text
  }

 private:
  struct Frame {
    json* value = nullptr;  // nullptr: parsed, not built
    const JsonShape* shape = nullptr;
    const JsonShape* member = nullptr;  // an object's current member's shape (nullptr: unknown)
    std::string key;
    std::size_t wrong = 0;  // an array's elements of a shape the reader refuses, kept
    bool tainted = false;   // holds something of a shape the reader refuses
    int quoted = -1;        // >= 0: a container kept only to be quoted, at this depth in it
  };

  Frame frame(json* value, const JsonShape* shape, int quoted = -1) {
    Frame f;
    f.value = value;
    f.shape = shape;
    f.quoted = quoted;
    return f;
  }

  // Where the next value goes and its shape; {nullptr, nullptr}: not built.
  std::pair<json*, const JsonShape*> slot(json&& v, bool container) {
    if (stack_.empty()) {
      root_ = std::move(v);
      return {&root_, &shape_};
    }
    Frame& f = stack_.back();
    if (!f.value) return {nullptr, nullptr};
    if (f.quoted >= 0) {
      // Kept for the reader's quote (60 bytes, 4 levels): the first values, and at the 4th
      // level one value, enough to show "...".
      if (quote_budget_ == 0 || (f.quoted >= 4 && !f.value->empty())) return {nullptr, nullptr};
      --quote_budget_;
      if (f.value->is_array()) {
        f.value->push_back(std::move(v));
        return {&f.value->back(), nullptr};
      }
      json& at = (*f.value)[f.key];
      at = std::move(v);
      return {&at, nullptr};
    }
    if (f.shape->kind == JsonShape::Kind::object) {
      if (!f.member) return {nullptr, nullptr};
      json& at = (*f.value)[f.key];
      at = std::move(v);
      return {&at, f.member};
    }
    if (f.shape->capped && f.value->size() >= kMaxWrongElements) return {nullptr, nullptr};
    const JsonShape* e = f.shape->element;
    if (container ? !matches(v, *e) : e->kind != JsonShape::Kind::scalar) {
      if (f.wrong >= kMaxWrongElements) return {nullptr, nullptr};
      ++f.wrong;
      f.tainted = true;
    }
    f.value->push_back(std::move(v));
    return {&f.value->back(), e};
  }

  static bool matches(const json& v, const JsonShape& s) {
    return (s.kind == JsonShape::Kind::object && v.is_object()) ||
           (s.kind == JsonShape::Kind::array && v.is_array());
  }

  bool scalar(json&& v) {
    slot(std::move(v), false);
    return true;
  }

  bool open(JsonShape::Kind kind) {
    const int quoted = stack_.empty() ? -1 : stack_.back().quoted;
    json v = kind == JsonShape::Kind::object ? json::object() : json::array();
    auto [at, shape] = slot(std::move(v), true);
    if (at && quoted >= 0) {  // inside a quoted container
      stack_.push_back(frame(quoted + 1 <= 4 ? at : nullptr, nullptr, quoted + 1));
      return true;
    }
    if (at && shape && matches(*at, *shape)) {
      stack_.push_back(frame(at, shape));
      return true;
    }
    // A container where the shape has a scalar or the other kind: refused by the reader,
    // which quotes it; kept as far as the quote goes while the line's budget lasts, then
    // empty.
    if (at && !stack_.empty()) stack_.back().tainted = true;
    stack_.push_back(frame(at && quote_budget_ > 0 ? at : nullptr, nullptr, 0));
    return true;
  }

  bool close() {
    const Frame done = std::move(stack_.back());
    stack_.pop_back();
    if (!done.value || stack_.empty() || done.quoted >= 0) return true;
    Frame& parent = stack_.back();
    if (!parent.value) return true;
    // An element of the right kind but a shape the reader refuses: a tuple of another length,
    // an object missing a member, or one holding something refused.
    const JsonShape& s = *done.shape;
    const bool wrong =
        done.tainted ||
        (s.kind == JsonShape::Kind::array && s.arity > 0 && done.value->size() != s.arity) ||
        (s.kind == JsonShape::Kind::object && done.value->size() < s.members.size());
    if (!wrong) return true;
    parent.tainted = true;
    if (parent.shape->kind != JsonShape::Kind::array) return true;
    if (parent.wrong >= kMaxWrongElements) {
      parent.value->erase(parent.value->end() - 1);
    } else {
      ++parent.wrong;
    }
    return true;
  }

  const JsonShape& shape_;
  json root_;
  std::vector<Frame> stack_;
  std::size_t quote_budget_ = kQuoteBudget;  // values kept in quoted containers, per text
};

}  // namespace

void drain_json(json& v) noexcept {
  if (v.is_array()) {
    while (!v.empty()) {
      drain_json(v.back());
      v.erase(v.end() - 1);  // an empty or scalar value: destroyed without allocating
    }
  } else if (v.is_object()) {
    while (!v.empty()) {
      drain_json(v.begin().value());
      v.erase(v.begin());
    }
  }
}

json parse_pruned_json(std::string_view text, const JsonShape& shape) {
  PrunedBuilder b(shape);
  json::sax_parse(text, &b);
  return std::move(b.result());
}

}  // namespace kepoch

#pragma once
// An object written member by member instead of built as a Value: the elements of a
// streamed list (stream.hpp) when there are millions of them (segment dump's batches and
// records). A report shape is written once, as a function of an ObjectWriter; ValueBuilder
// turns the same calls into a Value, and the table, JSON and JSON-lines streams format them
// as they come, so no tree is built per element.
//
// The calls write one object: its members in order, each once (member names are unique, as
// everywhere in a report). A member that is an array of objects can be written object by
// object (begin_objects ... end_objects); inside those objects every non-scalar member is a
// Value.
//
// integers() writes a run of integer members at once (a record's offset, timestamp, sizes):
// per record, a call per member cost more than the JSON and YAML it wrote, so those writers
// render the run's names once and write the values in one pass. scalars() does the same for
// a run that also holds times' texts (a record's timestamp shown as ISO 8601 beside or
// instead of its milliseconds, time_fields.hpp).

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "kepoch/report/value.hpp"

namespace kepoch::report {

namespace detail {
class TextBuffer;
class YamlEmitter;
}  // namespace detail

// How a lazy member shows its times (time_fields.hpp): as written, or each integer member
// named "timestamp" or "*_timestamp" shown as ISO 8601 (beside it in JSON, instead of it in a
// table, "none" there for NO_TIMESTAMP, and in YAML, null there), in the local zone when
// `local`.
struct LazyTimes {
  bool shown = false;
  bool local = false;
};

// A member's value that a writer may render without building it as a Value (a decoded
// record per record of a dump: building, converting and freeing the tree cost many times
// the decoding). Each rendering must be exactly the text its writer makes of value() (with
// its times shown as `times` says, where value() shows them already: TimeWriter wraps it):
//   append_json    the compact JSON text JsonObjectWriter::value writes;
//   append_inline  a table's nested member, inline_text (render_detail.hpp);
//   emit_yaml      emit_yaml's events (yaml_emitter.hpp), not flushed.
// Every other writer takes value().
class LazyMember {
 public:
  virtual ~LazyMember() = default;
  virtual Value value() const = 0;
  virtual void append_json(detail::TextBuffer& out, LazyTimes times) const = 0;
  virtual void append_inline(std::string& out, LazyTimes times) const = 0;
  virtual void emit_yaml(detail::YamlEmitter& e, LazyTimes times) const = 0;
};

// The names of a run of integer members, in order. Made only from an array with static
// storage (consteval), or a part of one: writers key what they render of the names by its
// address and size.
class MemberNames {
 public:
  template <std::size_t N>
  consteval MemberNames(const std::string_view (&names)[N]) : names_(names, N) {}  // NOLINT
  std::span<const std::string_view> names() const { return names_; }
  std::size_t size() const { return names_.size(); }
  // The names from `from`, `count` of them.
  MemberNames part(std::size_t from, std::size_t count) const {
    return MemberNames(names_.subspan(from, count));
  }
  // Names in storage that the caller keeps unchanged for as long as any writer it gives them
  // to lives (a run derived from a static one, built once).
  static MemberNames kept(std::span<const std::string_view> names) { return MemberNames(names); }
  // A slot of 2^bits for the run (by its address and size, Fibonacci hashing: the arrays of
  // names sit a few bytes apart), for writers that keep something per run.
  std::size_t slot(int bits) const {
    const auto address = reinterpret_cast<std::uintptr_t>(names_.data());
    return static_cast<std::size_t>(((address + names_.size()) * 0x9E3779B97F4A7C15ull) >>
                                    (64 - bits));
  }
  // Whether this is the same run (same array, same part).
  bool same(std::span<const std::string_view> run) const {
    return run.data() == names_.data() && run.size() == names_.size();
  }

 private:
  explicit MemberNames(std::span<const std::string_view> names) : names_(names) {}
  std::span<const std::string_view> names_;
};

// One member's value in a run of scalar members (ObjectWriter::scalars).
struct Scalar {
  enum class Kind : std::uint8_t { integer, string, time_text, null };
  static Scalar of(std::int64_t v) { return {Kind::integer, v, {}}; }
  Kind kind = Kind::null;
  std::int64_t integer = 0;
  std::string_view text;  // string and time_text (ObjectWriter::time_text)
};

class ObjectWriter {
 public:
  virtual ~ObjectWriter() = default;
  virtual void null(std::string_view key) = 0;
  virtual void boolean(std::string_view key, bool value) = 0;
  virtual void integer(std::string_view key, std::int64_t value) = 0;
  virtual void string(std::string_view key, std::string_view value) = 0;
  // Any member: an object, an array, a double, ...
  virtual void value(std::string_view key, const Value& value) = 0;
  // value(key, member.value()), or the member's own rendering (LazyMember).
  void lazy(std::string_view key, const LazyMember& member) { lazy_shown(key, member, {}); }
  // The same, the member's times shown as `times` says (a writer that renders the member
  // itself; value() shows them already).
  virtual void lazy_shown(std::string_view key, const LazyMember& member, LazyTimes) {
    value(key, member.value());
  }
  // A member that is an array of objects: begin_objects(key), then for each object
  // begin_object(), its members, end_object(); then end_objects().
  virtual void begin_objects(std::string_view key) = 0;
  virtual void begin_object() = 0;
  virtual void end_object() = 0;
  virtual void end_objects() = 0;
  // integer(names[i], values[i]) for each name, in order.
  virtual void integers(const MemberNames& names, std::span<const std::int64_t> values);
  // string(key, text) for a time's ISO 8601 text (base/time_text.hpp: ASCII digits and
  // "-+:.TZ" only, nothing a JSON string escapes): a writer may copy it as it is. There is one
  // per record of a dump; the default is string().
  virtual void time_text(std::string_view key, std::string_view text) { string(key, text); }
  // Each member as the call for its kind, in order; the integers between the others as
  // integers() runs.
  virtual void scalars(const MemberNames& names, std::span<const Scalar> values);
  // begin_object(), integers(names, values), end_object(): an object of a list that is one
  // run of integers (a record of a dump), in one call, so a writer can write it whole.
  virtual void integers_object(const MemberNames& names, std::span<const std::int64_t> values) {
    begin_object();
    integers(names, values);
    end_object();
  }
  // begin_object(), scalars(names, values), end_object(), likewise.
  virtual void scalars_object(const MemberNames& names, std::span<const Scalar> values) {
    begin_object();
    scalars(names, values);
    end_object();
  }
  // begin_object(), integer(names[i], values[i]) for i < at, lazy(key, member), integers() of
  // the rest, end_object(): a decoded record of a dump (its offset, its decode, its other
  // integers) in one call, so a writer can write its own members at once.
  virtual void integers_object_with(const MemberNames& names, std::span<const std::int64_t> values,
                                    std::size_t at, std::string_view key, const LazyMember& member);
  // begin_object(), scalars() of names before `at`, lazy_shown(key, member, times), scalars() of
  // the rest, end_object(), likewise (integers_object_with with its times shown).
  virtual void scalars_object_with(const MemberNames& names, std::span<const Scalar> values,
                                   std::size_t at, std::string_view key, const LazyMember& member,
                                   LazyTimes times);

  // The members of `object` (an object Value), each as the call for its kind.
  void members(const Value& object);
};

// Builds the Value the calls describe.
class ValueBuilder : public ObjectWriter {
 public:
  void null(std::string_view key) override { current().set(std::string(key), Value()); }
  void boolean(std::string_view key, bool v) override { current().set(std::string(key), v); }
  void integer(std::string_view key, std::int64_t v) override {
    current().set(std::string(key), v);
  }
  void string(std::string_view key, std::string_view v) override {
    current().set(std::string(key), v);
  }
  void value(std::string_view key, const Value& v) override { current().set(std::string(key), v); }
  void begin_objects(std::string_view key) override;
  void begin_object() override;
  void end_object() override;
  void end_objects() override;

  // The object written so far.
  Value take() { return std::move(root_); }

 private:
  Value& current() { return in_object_ ? object_ : root_; }

  Value root_ = Value::object();
  std::string list_key_;
  Value list_ = Value::array();
  Value object_ = Value::object();
  bool in_object_ = false;
};

}  // namespace kepoch::report

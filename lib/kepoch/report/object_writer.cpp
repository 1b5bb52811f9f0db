#include "kepoch/report/object_writer.hpp"

namespace kepoch::report {

void ObjectWriter::members(const Value& object) {
  for (const auto& [k, v] : object.as_object()) {
    const auto& data = v.data();
    if (v.is_null())
      null(k);
    else if (const bool* b = std::get_if<bool>(&data))
      boolean(k, *b);
    else if (const std::int64_t* i = std::get_if<std::int64_t>(&data))
      integer(k, *i);
    else if (const std::string* s = std::get_if<std::string>(&data))
      string(k, *s);
    else
      value(k, v);  // a double, an array, an object
  }
}

void ObjectWriter::integers(const MemberNames& names, std::span<const std::int64_t> values) {
  assert(names.size() == values.size());
  for (std::size_t i = 0; i < values.size(); ++i)
    integer(names.names()[i], values[i]);
}

void ObjectWriter::scalars(const MemberNames& names, std::span<const Scalar> values) {
  assert(names.size() == values.size());
  constexpr std::size_t kChunk = 16;
  std::int64_t run[kChunk];
  std::size_t from = 0, n = 0;  // run holds the values of names[from, from + n)
  const auto flush = [&] {
    if (n > 0) integers(names.part(from, n), {run, n});
    n = 0;
  };
  for (std::size_t i = 0; i < values.size(); ++i) {
    const Scalar& v = values[i];
    const std::string_view key = names.names()[i];
    if (v.kind == Scalar::Kind::integer) {
      if (n == kChunk) flush();
      if (n == 0) from = i;
      run[n++] = v.integer;
      continue;
    }
    flush();
    if (v.kind == Scalar::Kind::string)
      string(key, v.text);
    else if (v.kind == Scalar::Kind::time_text)
      time_text(key, v.text);
    else
      null(key);
  }
  flush();
}

void ObjectWriter::integers_object_with(const MemberNames& names,
                                        std::span<const std::int64_t> values, std::size_t at,
                                        std::string_view key, const LazyMember& member) {
  assert(names.size() == values.size() && at <= values.size());
  begin_object();
  for (std::size_t i = 0; i < at; ++i)
    integer(names.names()[i], values[i]);
  lazy(key, member);
  integers(names.part(at, values.size() - at), values.subspan(at));
  end_object();
}

void ObjectWriter::scalars_object_with(const MemberNames& names, std::span<const Scalar> values,
                                       std::size_t at, std::string_view key,
                                       const LazyMember& member, LazyTimes times) {
  assert(names.size() == values.size() && at <= values.size());
  begin_object();
  scalars(names.part(0, at), values.first(at));
  lazy_shown(key, member, times);
  scalars(names.part(at, values.size() - at), values.subspan(at));
  end_object();
}

void ValueBuilder::begin_objects(std::string_view key) {
  list_key_ = key;
  list_ = Value::array();
}

void ValueBuilder::begin_object() {
  object_ = Value::object();
  in_object_ = true;
}

void ValueBuilder::end_object() {
  list_.push(std::move(object_));
  in_object_ = false;
}

void ValueBuilder::end_objects() {
  root_.set(std::move(list_key_), std::move(list_));
}

}  // namespace kepoch::report

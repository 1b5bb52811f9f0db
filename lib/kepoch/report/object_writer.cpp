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

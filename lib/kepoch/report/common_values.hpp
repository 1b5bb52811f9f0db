#pragma once
// Report pieces that several report shapes share, so each field has one spelling.

#include <optional>
#include <string>
#include <vector>

#include "kepoch/epoch/epoch_entry.hpp"
#include "kepoch/report/value.hpp"

namespace kepoch::report {

// [{"epoch", "start_offset"}, ...]
inline Value epochs_value(const std::vector<EpochEntry>& entries) {
  Value list = Value::array();
  for (const auto& e : entries)
    list.push(Value::object().set("epoch", e.epoch).set("start_offset", e.start_offset));
  return list;
}

// ["...", ...]
inline Value strings_value(const std::vector<std::string>& list) {
  Value v = Value::array();
  for (const auto& s : list)
    v.push(s);
  return v;
}

// The value, or null.
template <typename T>
Value optional_value(const std::optional<T>& v) {
  return v ? Value(*v) : Value();
}

}  // namespace kepoch::report

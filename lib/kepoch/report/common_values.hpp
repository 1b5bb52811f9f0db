#pragma once
// Report pieces that several report shapes share, so each field has one spelling.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
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

// Messages of one severity in the shared diagnostics list (an array named "problems"):
// [{"severity", "message"}, ...].
inline Value problems_value(std::string_view severity, const std::vector<std::string>& messages) {
  Value list = Value::array();
  for (const auto& m : messages)
    list.push(Value::object().set("severity", severity).set("message", m));
  return list;
}

// Broker ids (replicas, ISR, ELR, ...): [1, 2, 3].
inline Value ids_value(const std::vector<std::int32_t>& ids) {
  Value list = Value::array();
  for (auto id : ids)
    list.push(id);
  return list;
}

// The ids, or null (an ELR the source does not report).
inline Value optional_ids_value(const std::optional<std::vector<std::int32_t>>& ids) {
  return ids ? ids_value(*ids) : Value();
}

// The value, or null.
template <typename T>
Value optional_value(const std::optional<T>& v) {
  return v ? Value(*v) : Value();
}

}  // namespace kepoch::report

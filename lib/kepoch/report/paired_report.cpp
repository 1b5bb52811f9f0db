#include "kepoch/report/paired_report.hpp"

#include "kepoch/report/common_values.hpp"

namespace kepoch::report {

Value paired_value(std::vector<Value> sections, const std::vector<std::string>& notes) {
  Value list = Value::array();
  for (auto& s : sections)
    list.push(std::move(s));
  return Value::object().set("partitions", std::move(list)).set("notes", strings_value(notes));
}

}  // namespace kepoch::report

#pragma once
// The report shape of `diff` and `predict` over whole log dirs or snapshots, whose replicas
// pair up by partition:
//   {"partitions": [<one diff or predict report per partition, by topic then partition>],
//    "notes": ["<partition>: only in <argument>, ...", ...]}

#include <string>
#include <vector>

#include "kepoch/report/value.hpp"

namespace kepoch::report {

Value paired_value(std::vector<Value> sections, const std::vector<std::string>& notes);

}  // namespace kepoch::report

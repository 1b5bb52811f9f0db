#pragma once
// `kepoch salvage`'s report: what the archive holds per partition and replica, and the
// verdict, decided from the typed counts (forecast/salvage) that also decide the exit code.

#include <string>
#include <string_view>

#include "kepoch/forecast/salvage.hpp"
#include "kepoch/report/value.hpp"

namespace kepoch::report {

Value salvage_value(const forecast::SalvageResult& result, std::string_view archive);

// The verdict: nothing removed; removed, but all on the new leader or not data a consumer
// reads; or records to replay (exit 1), naming the archive and the replay command.
std::string salvage_summary(const forecast::SalvageResult& result, std::string_view archive);

// Whether records a consumer reads would be lost without a replay (or it cannot be ruled
// out): the exit code's predicate.
bool salvage_needs_replay(const forecast::SalvageResult& result);

}  // namespace kepoch::report

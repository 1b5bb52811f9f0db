#pragma once
// The topics an authorizer withholds from this principal (live/hidden_topics.hpp), added to
// a live report whose rows Metadata's topics make (cluster describe, audit, what-if):
//   "hidden_topics": [{"topic", "reason"}]  the withheld topics matching --topic, by name
//   "hidden_topics_ruled_out": bool         false: others may be withheld (warnings say why)
// placed before "problems" (or, in a report without one, "warnings": strings), where a
// warning each is added (their `what` is not known).

#include <optional>
#include <regex>
#include <string>

#include "kepoch/live/hidden_topics.hpp"
#include "kepoch/report/value.hpp"

namespace kepoch::report {

// The withheld topics matching `topic`, [{"topic", "reason"}].
Value hidden_topics_value(const live::HiddenTopics& hidden, const std::optional<std::regex>& topic);

// `report` (an object) with the two fields and the warnings; a "problems" array is made when
// the report has neither list.
Value with_hidden_topics(const Value& report, const live::HiddenTopics& hidden,
                         const std::optional<std::regex>& topic, const std::string& what);

// One sentence for a summary line ("" when nothing matching `topic` may be withheld).
std::string hidden_topics_sentence(const live::HiddenTopics& hidden,
                                   const std::optional<std::regex>& topic, const std::string& what);

}  // namespace kepoch::report

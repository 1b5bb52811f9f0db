// The diff timeline's structured form (report/timeline.hpp) built by hand: the input of the
// tests of its drawings, as text (report/fit) and as SVG (report/html_page).
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "kepoch/report/value.hpp"

namespace test {

// One epoch's offsets [start, end) on a replica's bar; a null epoch is unknown.
inline kepoch::report::Value span(kepoch::report::Value epoch, std::int64_t start,
                                  std::int64_t end) {
  return kepoch::report::Value::object()
      .set("epoch", std::move(epoch))
      .set("start", start)
      .set("end", end);
}

// One replica's row: its spans, log end offset, high watermark and truncation point.
inline kepoch::report::Value replica(std::string dir, kepoch::report::Value spans, std::int64_t leo,
                                     kepoch::report::Value hw, kepoch::report::Value truncate_to,
                                     std::string relation = "diverged") {
  return kepoch::report::Value::object()
      .set("dir", std::move(dir))
      .set("relation", std::move(relation))
      .set("log_start_offset", 0)
      .set("log_end_offset", leo)
      .set("hw", std::move(hw))
      .set("recovery_point", kepoch::report::Value())
      .set("truncate_to", std::move(truncate_to))
      .set("spans", std::move(spans));
}

}  // namespace test

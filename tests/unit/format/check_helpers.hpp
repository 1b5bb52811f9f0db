#pragma once
#include <catch2/catch.hpp>

#include "kepoch/format/checkpoint_check.hpp"

namespace test {

inline kepoch::CheckpointReport validate(std::string_view text, kepoch::CheckpointType type,
                                         kepoch::CheckpointContext context = {}) {
  return kepoch::check_checkpoint(text, "/data/t-0/file", type, context,
                                  kepoch::CheckDepth::validate);
}

inline const kepoch::CheckpointType kEpochs{kepoch::CheckpointKind::leader_epoch};

inline std::string first_error(const kepoch::CheckpointReport& r) {
  for (const auto& p : r.problems)
    if (p.severity == kepoch::Severity::error) return p.message + " | " + p.kafka_message;
  return "";
}

inline int error_line(const kepoch::CheckpointReport& r) {
  for (const auto& p : r.problems)
    if (p.severity == kepoch::Severity::error) return p.line;
  return -1;
}

inline std::vector<std::string> warnings(const kepoch::CheckpointReport& r) {
  std::vector<std::string> out;
  for (const auto& p : r.problems)
    if (p.severity == kepoch::Severity::warning) out.push_back(p.message);
  return out;
}

inline bool has_warning(const kepoch::CheckpointReport& r, std::string_view needle) {
  for (const auto& w : warnings(r))
    if (w.find(needle) != std::string::npos) return true;
  return false;
}

}  // namespace test

#include "kepoch/report/verify_report.hpp"

#include <algorithm>

#include "kepoch/report/common_values.hpp"
#include "kepoch/report/partition_report.hpp"

namespace kepoch::report {
namespace {

Value truncation_value(const std::optional<RecoveryTruncation>& t) {
  if (!t) return Value();
  return Value::object()
      .set("truncate_to_offset", t->truncate_to_offset)
      .set("truncated_segment", t->truncated_segment)
      .set("valid_bytes", t->valid_bytes)
      .set("truncated_bytes", t->truncated_bytes)
      .set("stop_reason", recovery_stop_name(t->stop_reason))
      .set("position", t->position)
      .set("message", t->message)
      .set("deleted_segments", strings_value(t->deleted_segments))
      .set("deleted_bytes", t->deleted_bytes);
}

Value failure_value(const std::optional<LoadFailure>& f) {
  if (!f) return Value();
  return Value::object()
      .set("segment", f->segment)
      .set("position", f->position)
      .set("exception", f->exception)
      .set("message", f->message);
}

}  // namespace

Value verify_value(const PartitionVerification& v) {
  Value out = partition_value(v.replica);
  Value findings = Value::array();
  std::size_t errors = 0;
  std::size_t warnings = 0;
  for (const auto& f : v.findings) {
    errors += f.severity == VerifyFinding::Severity::error;
    warnings += f.severity == VerifyFinding::Severity::warning;
    findings.push(Value::object()
                      .set("severity", severity_name(f.severity))
                      .set("file", f.file)
                      .set("position", optional_value(f.position))
                      .set("offset", optional_value(f.offset))
                      .set("message", f.message));
  }
  out.set("findings", std::move(findings))
      .set("error_count", errors)
      .set("warning_count", warnings)
      .set("recovery_next_start", truncation_value(v.recovery_next_start))
      .set("recovery_full", truncation_value(v.recovery_full))
      .set("next_start_failure", failure_value(v.next_start_failure));
  return out;
}

}  // namespace kepoch::report

#include "kepoch/report/live_hanging_report.hpp"

#include <fmt/format.h>

namespace kepoch::report {
namespace {

std::string sentence(const forecast::LiveHangingSearch& s) {
  const auto hanging = s.hanging();
  const auto unknown = s.unknown();
  const auto plural = [](std::size_t n, std::string_view what) {
    return fmt::format("{} {}{}", n, what, n == 1 ? "" : "s");
  };
  std::string first;
  for (const auto& o : s.open)
    if (o.hanging == true) {
      first = fmt::format("{}-{} at offset {}", o.topic, o.partition, o.start_offset);
      break;
    }
  if (hanging > 0)
    return fmt::format(
        "{} hang{} (first: {}): read_committed consumers stop there until {} aborted with "
        "the abort_command given.{}",
        plural(hanging, "transaction"), hanging == 1 ? "s" : "", first,
        hanging == 1 ? "it is" : "they are",
        unknown ? fmt::format(" {} more could not be judged.", unknown) : std::string());
  if (unknown > 0)
    return fmt::format(
        "A hanging transaction cannot be ruled out: {} could not be judged (see "
        "unanswered_partitions and the reasons).",
        plural(unknown, "partition or transaction"));
  return fmt::format(
      "No transaction hangs: {} searched, none with a transaction open for more than {} "
      "that its coordinator no longer tracks.",
      plural(s.partitions_searched, "partition"),
      plural(static_cast<std::size_t>(s.max_transaction_timeout_ms / 60000), "minute"));
}

}  // namespace

Value live_hanging_value(const forecast::LiveHangingSearch& s) {
  Value rows = Value::array();
  Value aborts = Value::array();
  for (const auto& o : s.open) {
    if (o.hanging == true) aborts.push(o.abort_command);
    // hanging right after the partition: a narrow table keeps its leftmost columns.
    rows.push(
        Value::object()
            .set("topic", o.topic)
            .set("partition", o.partition)
            .set("hanging", o.hanging ? Value(*o.hanging) : Value())
            .set("start_offset", o.start_offset)
            .set("producer_id", o.producer_id)
            .set("producer_epoch", o.producer_epoch)
            .set("coordinator_epoch", o.coordinator_epoch)
            .set("last_timestamp", o.last_timestamp)
            .set("duration_minutes", o.duration_minutes)
            .set("transactional_id", o.transactional_id ? Value(*o.transactional_id) : Value())
            .set("coordinator_state", o.coordinator_state ? Value(*o.coordinator_state) : Value())
            .set("reason", o.reason)
            .set("abort_command", o.abort_command));
  }
  Value unanswered = Value::array();
  for (const auto& u : s.unanswered)
    unanswered.push(Value::object()
                        .set("topic", u.topic)
                        .set("partition", u.partition)
                        .set("reason", u.reason));
  Value warnings = Value::array();
  for (const auto& w : s.warnings)
    warnings.push(w);
  return Value::object()
      .set("summary", sentence(s))
      .set("max_transaction_timeout_minutes", s.max_transaction_timeout_ms / 60000)
      .set("partitions_searched", static_cast<std::int64_t>(s.partitions_searched))
      .set("hanging_transactions", static_cast<std::int64_t>(s.hanging()))
      .set("unknown", static_cast<std::int64_t>(s.unknown()))
      .set("abort_commands", std::move(aborts))
      .set("transactions", std::move(rows))
      .set("unanswered_partitions", std::move(unanswered))
      .set("warnings", std::move(warnings));
}

}  // namespace kepoch::report

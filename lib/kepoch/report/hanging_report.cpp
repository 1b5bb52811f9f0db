#include "kepoch/report/hanging_report.hpp"

#include <fmt/format.h>

namespace kepoch::report {
namespace {

std::string_view tracking_name(forecast::Tracking t) {
  switch (t) {
    case forecast::Tracking::tracked:
      return "tracked";
    case forecast::Tracking::not_tracked:
      return "not_tracked";
    case forecast::Tracking::unknown:
      return "unknown";
  }
  return "unknown";
}

template <typename T>
Value optional_value(const std::optional<T>& v) {
  return v ? Value(*v) : Value();
}

}  // namespace

Value transactions_value(const forecast::PartitionTransactions& t) {
  Value open = Value::array();
  for (const auto& f : t.open)
    open.push(Value::object()
                  .set("producer_id", f.transaction.producer_id)
                  .set("producer_epoch", f.transaction.producer_epoch)
                  .set("start_offset", f.transaction.first_offset)
                  .set("last_timestamp", f.transaction.last_timestamp)
                  .set("marker_lost", f.marker_lost)
                  .set("lost_marker_offset", optional_value(f.lost_marker_offset))
                  .set("coordinator", tracking_name(f.coordinator))
                  .set("transactional_id", optional_value(f.transactional_id))
                  .set("coordinator_state", optional_value(f.coordinator_state))
                  .set("hanging", optional_value(f.hanging))
                  .set("reason", f.reason)
                  .set("abort_command", f.abort_command));
  return Value::object()
      .set("known", t.known)
      .set("source", t.source)
      .set("last_stable_offset", optional_value(t.last_stable_offset))
      .set("hanging_transactions", t.known ? Value(t.hanging) : Value())
      .set("hanging_unknown", t.known ? Value(t.unknown) : Value())
      .set("lost_markers", t.lost_markers)
      .set("open_transactions", std::move(open));
}

std::string hanging_sentence(const std::vector<forecast::PartitionTransactions>& partitions) {
  std::size_t hanging = 0, maybe = 0, blind = 0;
  std::string first;
  for (const auto& p : partitions) {
    if (!p.known && p.lost_markers > 0) {
      blind += p.lost_markers;
      if (first.empty()) first = fmt::format("{}-{}", p.topic, p.partition);
    }
    for (const auto& f : p.open) {
      if (f.hanging == true) {
        ++hanging;
      } else if (!f.hanging && f.marker_lost) {
        ++maybe;
      } else {
        continue;
      }
      if (first.empty())
        first = fmt::format("{}-{} at offset {}", p.topic, p.partition, f.transaction.first_offset);
    }
  }
  if (hanging + maybe == 0 && blind == 0) return {};
  if (hanging + maybe == 0)
    return fmt::format(
        "The truncation removes {} transaction marker{} (first: {}) and the leader's open "
        "transactions are not known: a transaction may hang there.",
        blind, blind == 1 ? "" : "s", first);
  const auto n = [](std::size_t k) {
    return fmt::format("{} transaction{}", k, k == 1 ? "" : "s");
  };
  if (maybe == 0)
    return fmt::format(
        "{} will hang (first: {}): read_committed consumers stop there until it is aborted "
        "with the abort_command given.",
        n(hanging), first);
  const std::string may = fmt::format(
      "{} lose{} {} marker and may hang (whether the coordinator still tracks {} is unknown: "
      "give its __transaction_state)",
      n(maybe), maybe == 1 ? "s" : "", maybe == 1 ? "its" : "their", maybe == 1 ? "it" : "them");
  return fmt::format(
      "{}{} (first: {}): read_committed consumers stop there until it ends or is aborted.",
      hanging ? n(hanging) + " will hang and " : std::string(), may, first);
}

}  // namespace kepoch::report

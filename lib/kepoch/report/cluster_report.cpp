#include "kepoch/report/cluster_report.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>

#include "kepoch/live/controller_mode.hpp"
#include "kepoch/report/common_values.hpp"

namespace kepoch::report {
namespace {

using live::PartitionHealth;
using live::PartitionView;

Value flags(const PartitionHealth& h) {
  Value out = Value::array();
  if (h.under_replicated) out.push("under_replicated");
  if (h.under_min_isr) out.push("under_min_isr");
  if (h.at_min_isr) out.push("at_min_isr");
  if (h.unavailable) out.push("unavailable");
  if (h.leader_not_preferred) out.push("leader_not_preferred");
  return out;
}

void add_replica_logs(const PartitionView& p, Value& out) {
  for (const auto& r : p.replica_logs)
    out.push(Value::object()
                 .set("topic", p.topic)
                 .set("partition", p.partition)
                 .set("broker", r.broker)
                 .set("log_dir", r.log_dir)
                 .set("size_bytes", r.size_bytes)
                 .set("offset_lag", r.offset_lag)
                 .set("log_end_offset", optional_value(r.log_end_offset)));
}

Value partition_value(const PartitionView& p, const PartitionHealth& h) {
  return Value::object()
      .set("topic", p.topic)
      .set("partition", p.partition)
      .set("leader", p.has_leader() ? Value(p.leader) : Value())
      .set("leader_epoch", p.leader_epoch)
      .set("replicas", ids_value(p.replicas))
      .set("isr", ids_value(p.isr))
      .set("elr", optional_ids_value(p.elr))
      .set("last_known_elr", optional_ids_value(p.last_known_elr))
      .set("offline_replicas", ids_value(p.offline_replicas))
      .set("log_start_offset", optional_value(p.log_start_offset))
      .set("high_watermark", optional_value(p.high_watermark))
      .set("flags", flags(h));
}

bool selected(const PartitionHealth& h, const PartitionSelection& s) {
  return !s.any() || (s.under_replicated && h.under_replicated) ||
         (s.under_min_isr && h.under_min_isr) || (s.at_min_isr && h.at_min_isr) ||
         (s.unavailable && h.unavailable) || (s.leader_not_preferred && h.leader_not_preferred);
}

Value brokers(const live::ClusterView& view) {
  Value out = Value::array();
  for (const auto& b : view.brokers)
    out.push(Value::object()
                 .set("id", b.id)
                 .set("host", b.host)
                 .set("port", b.port)
                 .set("rack", optional_value(b.rack)));
  return out;
}

struct Counts {
  int topics = 0, partitions = 0, under_replicated = 0, under_min_isr = 0, at_min_isr = 0,
      unavailable = 0, leader_not_preferred = 0;
  void add(const PartitionHealth& h) {
    ++partitions;
    under_replicated += h.under_replicated;
    under_min_isr += h.under_min_isr;
    at_min_isr += h.at_min_isr;
    unavailable += h.unavailable;
    leader_not_preferred += h.leader_not_preferred;
  }
};

std::string plural(std::size_t n, const char* one, const char* many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

// What the report flags given select, as the sentence names it: "under min ISR or unavailable".
std::string selection_words(const PartitionSelection& s) {
  std::vector<std::string> words;
  if (s.under_replicated) words.emplace_back("under-replicated");
  if (s.under_min_isr) words.emplace_back("under min ISR");
  if (s.at_min_isr) words.emplace_back("at min ISR");
  if (s.unavailable) words.emplace_back("unavailable");
  if (s.leader_not_preferred) words.emplace_back("led by a replica other than the preferred");
  return fmt::format("{}", fmt::join(words, " or "));
}

// The describe's opening sentence. With a report flag it is the verdict the exit status gives
// ("2 of 12 partitions of 3 topics are under min ISR (first: orders-3)." / "No partition is
// under min ISR (12 partitions of 3 topics)."); without one, the health of what was described.
std::string describe_sentence(const live::ClusterView& view, const Counts& c,
                              const PartitionSelection& s, const Value& listed) {
  const std::string scope = fmt::format(
      "{} of {}", plural(static_cast<std::size_t>(c.partitions), "partition", "partitions"),
      plural(static_cast<std::size_t>(c.topics), "topic", "topics"));
  if (s.any()) {
    const auto& rows = listed.as_array();
    if (rows.empty()) return fmt::format("No partition is {} ({}).", selection_words(s), scope);
    return fmt::format("{} of {} {} {} (first: {}-{}).", rows.size(), scope,
                       rows.size() == 1 ? "is" : "are", selection_words(s),
                       scalar_text(*rows.front().find("topic")),
                       scalar_text(*rows.front().find("partition")));
  }
  std::vector<std::string> issues;
  if (c.unavailable) issues.push_back(fmt::format("{} unavailable", c.unavailable));
  if (c.under_min_isr) issues.push_back(fmt::format("{} under min ISR", c.under_min_isr));
  if (c.under_replicated) issues.push_back(fmt::format("{} under-replicated", c.under_replicated));
  if (c.at_min_isr) issues.push_back(fmt::format("{} at min ISR", c.at_min_isr));
  if (c.leader_not_preferred)
    issues.push_back(fmt::format("{} not led by the preferred replica", c.leader_not_preferred));
  const std::string head =
      fmt::format("{} on {}", scope, plural(view.brokers.size(), "broker", "brokers"));
  if (issues.empty())
    return head + ": every replica in sync, every partition led by its preferred replica.";
  return fmt::format("{}: {}.", head, fmt::join(issues, ", "));
}

}  // namespace

Value cluster_describe_value(const live::ClusterView& view, const PartitionSelection& selection) {
  const auto live_ids = view.live_broker_ids();
  Value partitions = Value::array();
  Value replica_logs = Value::array();
  Counts counts;
  for (const auto& t : view.topics) {
    ++counts.topics;
    for (const auto& p : t.partitions) {
      const PartitionHealth h = live::assess_partition(p, t.min_insync_replicas(), live_ids);
      counts.add(h);
      if (selected(h, selection)) {
        partitions.push(partition_value(p, h));
        add_replica_logs(p, replica_logs);
      }
    }
  }
  // The summary counts every partition of the selected topics, not only the listed ones,
  // so a filtered run still says how much is healthy.
  Value summary = Value::object()
                      .set("text", describe_sentence(view, counts, selection, partitions))
                      .set("topics", counts.topics)
                      .set("partitions", counts.partitions)
                      .set("under_replicated", counts.under_replicated)
                      .set("under_min_isr", counts.under_min_isr)
                      .set("at_min_isr", counts.at_min_isr)
                      .set("unavailable", counts.unavailable)
                      .set("leader_not_preferred", counts.leader_not_preferred);
  const live::ControllerMode mode = live::controller_mode(view);
  return Value::object()
      .set("cluster_id", view.cluster_id)
      .set("metadata_from", view.metadata_from)
      .set("mode", live::controller_mode_text(mode))
      .set("controller_id", mode.controller_id < 0 ? Value() : Value(mode.controller_id))
      .set("brokers", brokers(view))
      .set("partitions", std::move(partitions))
      .set("replica_logs", std::move(replica_logs))
      .set("summary", std::move(summary))
      .set("problems", problems_value("warning", view.warnings));
}

std::string iso_time(std::int64_t time_ms) {
  const std::chrono::sys_time<std::chrono::milliseconds> t{std::chrono::milliseconds(time_ms)};
  const auto seconds = std::chrono::floor<std::chrono::seconds>(t);
  return fmt::format("{:%Y-%m-%dT%H:%M:%S}.{:03}Z", seconds, (time_ms % 1000 + 1000) % 1000);
}

namespace {

std::string unclean_text(const live::ClusterEvent& e) {
  if (!e.unclean_election) return "";
  return fmt::format(
      " (unclean election: broker {} was not in the last ISR [{}]; records acknowledged by it "
      "may be lost)",
      e.new_leader, fmt::join(e.last_isr, ","));
}

}  // namespace

std::string event_description(const live::ClusterEvent& e) {
  using live::EventKind;
  const std::string tp = fmt::format("{}-{}", e.topic, e.partition);
  auto list = [](const std::vector<std::int32_t>& ids) {
    return fmt::format("[{}]", fmt::join(ids, ","));
  };
  switch (e.kind) {
    case EventKind::broker_gone:
      return fmt::format("broker {} is gone (unregistered or fenced)", e.broker);
    case EventKind::broker_back:
      return fmt::format("broker {} is back", e.broker);
    case EventKind::topic_created:
      return fmt::format("topic {} created", e.topic);
    case EventKind::topic_deleted:
      return fmt::format("topic {} deleted", e.topic);
    case EventKind::partition_offline:
      return fmt::format("{} has no leader (was {}), epoch {} -> {}", tp, e.old_leader, e.old_epoch,
                         e.new_epoch);
    case EventKind::partition_online:
      return fmt::format("{} has a leader again: {}, epoch {} -> {}{}", tp, e.new_leader,
                         e.old_epoch, e.new_epoch, unclean_text(e));
    case EventKind::leader_change:
      return fmt::format("{} leader {} -> {}, epoch {} -> {}{}", tp, e.old_leader, e.new_leader,
                         e.old_epoch, e.new_epoch, unclean_text(e));
    case EventKind::leader_epoch_change:
      return fmt::format("{} leader {} stays, epoch {} -> {}", tp, e.new_leader, e.old_epoch,
                         e.new_epoch);
    case EventKind::isr_shrink:
      return fmt::format("{} ISR shrank by {}: {} -> {}", tp, list(e.changed), list(e.before),
                         list(e.after));
    case EventKind::isr_expand:
      return fmt::format("{} ISR grew by {}: {} -> {}", tp, list(e.changed), list(e.before),
                         list(e.after));
    case EventKind::elr_change:
      return fmt::format("{} ELR {} -> {}", tp, list(e.before), list(e.after));
    case EventKind::replicas_change:
      break;
  }
  return fmt::format("{} replicas {} -> {}", tp, list(e.before), list(e.after));
}

Value cluster_event_value(const live::ClusterEvent& e, std::int64_t time_ms) {
  using live::EventKind;
  Value out = Value::object()
                  .set("time", iso_time(time_ms))
                  .set("event", event_kind_name(e.kind))
                  .set("description", event_description(e));
  if (e.kind == EventKind::broker_gone || e.kind == EventKind::broker_back)
    return out.set("broker", e.broker);
  out.set("topic", e.topic);
  if (e.kind == EventKind::topic_created || e.kind == EventKind::topic_deleted) return out;
  auto leader = [](std::int32_t id) { return id == live::kNoLeader ? Value() : Value(id); };
  out.set("partition", e.partition)
      .set("old_leader", leader(e.old_leader))
      .set("new_leader", leader(e.new_leader))
      .set("old_epoch", e.old_epoch)
      .set("new_epoch", e.new_epoch);
  if (e.kind == EventKind::partition_online || e.kind == EventKind::leader_change)
    out.set("unclean_election", e.unclean_election);
  const bool set_event = e.kind == EventKind::isr_shrink || e.kind == EventKind::isr_expand ||
                         e.kind == EventKind::elr_change || e.kind == EventKind::replicas_change;
  if (set_event) {
    out.set("before", ids_value(e.before)).set("after", ids_value(e.after));
    if (e.kind == EventKind::isr_shrink || e.kind == EventKind::isr_expand)
      out.set("changed", ids_value(e.changed));
  }
  return out;
}

namespace {

// The audit's verdict: "2 durability risks in 12 partitions of 3 topics (first: min_isr_one,
// orders)." or "No durability risk in 12 partitions of 3 topics; 1 warning."
std::string audit_sentence(const live::ClusterView& view,
                           const std::vector<live::AuditFinding>& findings) {
  std::size_t partitions = 0;
  for (const auto& t : view.topics)
    partitions += t.partitions.size();
  const std::string scope =
      fmt::format("in {} of {}", plural(partitions, "partition", "partitions"),
                  plural(view.topics.size(), "topic", "topics"));
  std::size_t risks = 0, warnings = 0;
  const live::AuditFinding* first = nullptr;
  for (const auto& f : findings) {
    if (f.severity != live::Severity::risk) {
      ++warnings;
      continue;
    }
    if (!first) first = &f;
    ++risks;
  }
  if (first)
    return fmt::format("{} {} (first: {}, {}{}).",
                       plural(risks, "durability risk", "durability risks"), scope, first->risk,
                       first->topic,
                       first->partition ? fmt::format("-{}", *first->partition) : std::string());
  return fmt::format("No durability risk {}{}.", scope,
                     warnings ? "; " + plural(warnings, "warning", "warnings") : std::string());
}

}  // namespace

Value cluster_audit_value(const live::ClusterView& view,
                          const std::vector<live::AuditFinding>& findings) {
  Value list = Value::array();
  int risks = 0, warnings = 0;
  for (const auto& f : findings) {
    (f.severity == live::Severity::risk ? risks : warnings)++;
    list.push(Value::object()
                  .set("topic", f.topic)
                  .set("partition", optional_value(f.partition))
                  .set("risk", f.risk)
                  .set("severity", severity_name(f.severity))
                  .set("reason", f.reason));
  }
  int partitions = 0;
  for (const auto& t : view.topics)
    partitions += static_cast<int>(t.partitions.size());
  return Value::object()
      .set("findings", std::move(list))
      .set("summary", Value::object()
                          .set("text", audit_sentence(view, findings))
                          .set("topics", static_cast<int>(view.topics.size()))
                          .set("partitions", partitions)
                          .set("risks", risks)
                          .set("warnings", warnings))
      .set("problems", problems_value("warning", view.warnings));
}

}  // namespace kepoch::report

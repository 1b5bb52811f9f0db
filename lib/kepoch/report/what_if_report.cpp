#include "kepoch/report/what_if_report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kepoch/report/common_values.hpp"

namespace kepoch::report {
namespace {

using live::PartitionForecast;
using live::ShutdownKind;
using live::StopForecast;

Value leader_value(std::int32_t leader) {
  return leader == live::kNoLeader ? Value() : Value(leader);
}

Value epoch_value(std::int32_t epoch) {
  return epoch < 0 ? Value() : Value(epoch);
}

// elr_seen: the ELR as the cluster reported it (null: not reported).
Value partition_value(const PartitionForecast& p, Value elr_seen, bool elr) {
  const auto elr_after = [&](const std::vector<std::int32_t>& ids) {
    return elr ? ids_value(ids) : Value();
  };
  return Value::object()
      .set("topic", p.topic)
      .set("partition", p.partition)
      .set("replicas", ids_value(p.before.replicas))
      .set("leader_before", leader_value(p.before.leader))
      .set("leader_after", leader_value(p.after.leader))
      .set("leader_changed", p.leader_changes > 0)
      .set("leader_epoch_before", epoch_value(p.before.leader_epoch))
      .set("leader_epoch_after", epoch_value(p.after.leader_epoch))
      .set("isr_before", ids_value(p.before.isr))
      .set("isr_after", ids_value(p.after.isr))
      .set("elr_before", std::move(elr_seen))
      .set("elr_after", elr_after(p.after.elr))
      .set("last_known_elr_after", elr_after(p.after.last_known_elr))
      .set("effective_min_isr", p.effective_min_isr)
      .set("under_min_isr", p.under_min_isr_unknown ? Value() : Value(p.under_min_isr))
      .set("unavailable", p.unavailable)
      .set("unclean_election", p.unclean_election)
      .set("needs_unclean_election", p.needs_unclean_election)
      .set("leaves_elr_on_return", ids_value(p.leaves_elr_on_return))
      .set("outcome", stop_outcome(p));
}

Value topic_value(const live::TopicSettings& t) {
  return Value::object()
      .set("topic", t.topic)
      .set("replication_factor", t.replication_factor)
      .set("min_insync_replicas", optional_value(t.min_insync_replicas))
      .set("effective_min_isr", t.effective_min_isr)
      .set("unclean_leader_election_enable", optional_value(t.unclean_leader_election));
}

std::string controller_text(const StopForecast& f) {
  const ShutdownKind kind = f.kind;
  if (f.controller.kind == live::ControllerKind::zookeeper) {
    std::string text =
        kind == ShutdownKind::controlled
            ? "the ZooKeeper-mode controller, per broker in order: "
              "KafkaController.doControlledShutdown, then onBrokerFailure once its ZooKeeper "
              "session ends"
            : "the ZooKeeper-mode controller, per broker in order: KafkaController."
              "onBrokerFailure once its ZooKeeper session expires (zookeeper.session.timeout.ms)";
    if (f.controller_stopped)
      text += fmt::format("; for the controller broker {}: onControllerFailover by the next one",
                          f.controller.controller_id);
    return text + " (every write of a partition's state bumps its leader epoch)";
  }
  if (kind == ShutdownKind::controlled)
    return "per broker in order: handleBrokerInControlledShutdown, then handleBrokerFenced "
           "(ReplicationControlManager.processBrokerHeartbeat)";
  return "per broker in order: handleBrokerFenced once broker.session.timeout.ms passes "
         "without a heartbeat (ReplicationControlManager.maybeFenceOneStaleBroker)";
}

Value notes(const StopForecast& f) {
  Value out = Value::array();
  for (const auto& t : f.topics) {
    if (!t.min_insync_replicas)
      out.push(fmt::format(
          "{}: min.insync.replicas not read: a partition whose ISR after is below its replicas "
          "may be under it (under_min_isr null); 1 assumed for the ELR",
          t.topic));
    if (!t.unclean_leader_election)
      out.push(fmt::format("{}: unclean.leader.election.enable not read, false assumed", t.topic));
  }
  const bool zookeeper = f.controller.kind == live::ControllerKind::zookeeper;
  if (f.controller.kind == live::ControllerKind::unknown)
    out.push("the controller's kind could not be read: the KRaft controller's rules applied");
  if (zookeeper && f.controller.controller_id < 0)
    out.push(
        "no controller was elected when kepoch looked: every stop is forecast as a "
        "broker other than the controller");
  if (f.controller_stopped && f.stopped.back() != f.controller.controller_id)
    out.push(
        fmt::format("broker {} is the controller: the brokers stopped after it are assumed "
                    "not to be the next controller (ZooKeeper elects it)",
                    f.controller.controller_id));
  if (zookeeper && f.kind == ShutdownKind::kill) {
    out.push(
        "a killed broker is noticed only when its ZooKeeper session expires "
        "(zookeeper.session.timeout.ms, 18 s by default): until then the partitions it leads "
        "keep a leader that does not answer");
  } else if (f.kind == ShutdownKind::kill) {
    out.push(
        "a killed broker is fenced only after broker.session.timeout.ms (9 s by default): "
        "until then the partitions it leads keep a leader that does not answer");
    if (f.elr.enabled)
      out.push(
          "a killed broker registers again without a clean shutdown and leaves every ELR "
          "(handleBrokerShutdown): see leaves_elr_on_return");
  }
  return out;
}

Value assumed(const StopForecast& f) {
  return Value::object()
      .set("alive_brokers", ids_value(f.alive_before))
      .set("alive_after", ids_value(f.alive_after))
      .set("eligible_leader_replicas", f.elr.enabled)
      .set("eligible_leader_replicas_basis", f.elr.basis)
      .set("reassignment_in_progress", false)
      .set("log_dirs_online", true)
      .set("controller_mode", live::controller_mode_text(f.controller))
      .set("controller_mode_basis", f.controller.basis)
      .set("controller", controller_text(f))
      .set("notes", notes(f));
}

}  // namespace

std::string_view stop_outcome(const PartitionForecast& p) {
  if (p.unavailable) return p.needs_unclean_election ? "offline_unless_unclean" : "offline";
  if (p.unclean_election) return "unclean_election";
  if (p.under_min_isr) return "under_min_isr";
  if (p.under_min_isr_unknown) return "maybe_under_min_isr";
  if (p.leader_changes > 0) return "leader_moves";
  if (p.after.isr != p.before.isr) return "isr_shrinks";
  return "unchanged";
}

Value what_if_value(const live::ClusterView& view, const StopForecast& forecast) {
  const auto seen = live::partitions_by_key(view);
  Value partitions = Value::array();
  for (const auto& p : forecast.partitions) {
    const auto it = seen.find({p.topic, p.partition});
    Value elr_seen = it == seen.end() ? Value() : optional_ids_value(it->second->elr);
    partitions.push(partition_value(p, std::move(elr_seen), forecast.elr.enabled));
  }
  Value topics = Value::array();
  for (const auto& t : forecast.topics)
    topics.push(topic_value(t));
  const live::StopCounts c = live::count_outcomes(forecast);
  return Value::object()
      .set("stop", ids_value(forecast.stopped))
      .set("shutdown", live::shutdown_kind_name(forecast.kind))
      .set("assumed", assumed(forecast))
      .set("topics", std::move(topics))
      .set("partitions", std::move(partitions))
      .set("summary", Value::object()
                          .set("topics", c.topics)
                          .set("partitions", c.partitions)
                          .set("leaders_moved", c.leaders_moved)
                          .set("isr_changes", c.isr_changes)
                          .set("under_min_isr", c.under_min_isr)
                          .set("under_min_isr_unknown", c.under_min_isr_unknown)
                          .set("unavailable", c.unavailable)
                          .set("unclean_election", c.unclean_election)
                          .set("needs_unclean_election", c.needs_unclean_election))
      .set("problems", problems_value("warning", view.warnings));
}

}  // namespace kepoch::report

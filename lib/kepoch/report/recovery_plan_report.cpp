#include "kepoch/report/recovery_plan_report.hpp"

#include "kepoch/report/common_values.hpp"
#include "kepoch/report/predict_report.hpp"
#include "kepoch/report/timeline.hpp"
#include "kepoch/storage/replica_diff.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <cctype>
#include <set>

namespace kepoch::report {
namespace {

using forecast::CandidateOutcome;
using forecast::PartitionPlan;
using forecast::RecommendationKind;
using forecast::RecoveryPlan;
using forecast::StartPhase;

Value ids(const std::vector<std::int32_t>& list) {
  Value a = Value::array();
  for (const auto id : list)
    a.push(id);
  return a;
}

std::string records(std::uint64_t n) {
  return fmt::format("{} record{}", n, n == 1 ? "" : "s");
}

// "loses 5 records, 3 of them committed" (or why a count is a lower bound). Lost records
// were acknowledged to their producers: with acks=1 when above the high watermark, with
// acks=all (committed) below it; "nothing" only when every count it rests on is known.
std::string loss_text(const CandidateOutcome& c, const PartitionPlan& p) {
  std::string s;
  if (c.loss_known && c.lost_records == 0)
    s = "loses nothing";
  else if (c.lost_records == 0)
    s = "loses no record the given states show";
  else
    s = fmt::format("loses {}{}, {} of them committed", c.loss_known ? "" : "at least ",
                    records(c.lost_records), c.committed_lost_records);
  if (!c.loss_known)
    s += p.unknown_replicas.empty()
             ? "; more may be lost (a snapshot did not keep the batches to tell)"
             : "; more may be lost (what the brokers whose state is not given hold is not "
               "counted)";
  if (c.committed_loss_possible && c.committed_lost_records == 0)
    s += "; a committed loss cannot be ruled out";
  return s;
}

// Whose state is unknown, as a clause.
std::string unknown_text(const PartitionPlan& p) {
  if (p.unknown_replicas.empty()) return "";
  std::string list;
  for (const auto id : p.unknown_replicas)
    list += (list.empty() ? "" : ", ") + std::to_string(id);
  return fmt::format("; the state of broker(s) {} is not given: what they hold is not counted",
                     list);
}

std::string id_list(const std::vector<std::int32_t>& ids) {
  std::string list;
  for (const auto id : ids)
    list += (list.empty() ? "" : ", ") + std::to_string(id);
  return list;
}

// Replicas of an older topic of the same name, as a sentence (empty when none).
std::string other_topic_text(const PartitionPlan& p) {
  std::string s;
  for (const auto& o : p.other_topic_replicas)
    s += fmt::format(
        "{}broker {}'s replica of {}-{} has topic id {}, the metadata's is {} (the topic was "
        "deleted and created again): not a candidate, its records are not counted (Kafka "
        "deletes it as stray)",
        s.empty() ? "" : "; ", o.broker, p.topic, p.partition, o.topic_id.to_string(),
        p.topic_id ? p.topic_id->to_string() : "?");
  return s;
}

Value optional_text(const std::string& s) {
  return s.empty() ? Value() : Value(s);
}

Value optional_count(const CandidateOutcome* c, std::uint64_t CandidateOutcome::*field) {
  if (!c) return Value();
  return Value(c->*field);
}

// Each follower's forecast under a candidate, one flat row each (a table of its own beside the
// candidates'): the numbers `predict --elect` gives for it.
Value follower_row(const PartitionPlan& p, const CandidateOutcome& c,
                   const forecast::FollowerOutcome& f) {
  const ReplicaForecast& r = f.forecast;
  Value row =
      Value::object()
          .set("topic", p.topic)
          .set("partition", p.partition)
          .set("candidate", c.broker)
          .set("follower", f.broker)
          .set("truncate_to",
               r.prediction.unanswered_epoch ? Value() : Value(r.prediction.truncate_to))
          .set("lost_records", r.lost_counted ? Value(r.lost_records) : Value())
          .set("committed_lost_records", r.lost_counted ? Value(r.committed_lost_records) : Value())
          .set("committed_loss", r.committed_loss()         ? Value(true)
                                 : r.committed_loss_unknown ? Value()
                                                            : Value(false));
  // A follower that takes the candidate's remote tier (TierStateMachine), only then: where it
  // fetches from, how it got there, and what the remote segments hold of what it removes.
  if (const auto& t = r.prediction.tier) {
    row.set("remote_tier", std::string(tier_outcome_name(t->outcome)))
        .set("fetch_from", r.prediction.fetch_from)
        .set("remote_held_records", r.lost_counted ? Value(r.remote_held_records) : Value());
  }
  // A tiered follower truncating below its local log start: its lineage's records that only
  // remote segments hold, forked off (null where the metadata does not describe them all).
  if (r.remote_removed_range)
    row.set("remote_lost_records",
            r.remote_undescribed.empty() ? Value(r.remote_lost_records) : Value());
  return row;
}

}  // namespace

std::string partition_reason(const PartitionPlan& p) {
  const std::string other = other_topic_text(p);
  const std::string reason = recommendation_reason(p);
  return other.empty() ? reason : reason + "; " + other;
}

std::string recommendation_reason(const PartitionPlan& p) {
  const CandidateOutcome* chosen = p.chosen_candidate();
  const CandidateOutcome* kafka = p.kafka_candidate();
  const std::string unknown = unknown_text(p);
  switch (p.kind) {
    case RecommendationKind::healthy:
      return p.condition == forecast::PartitionCondition::under_min_isr
                 ? fmt::format(
                       "led by broker {}; its ISR is below min.insync.replicas ({}): "
                       "acks=all producers are refused until a replica catches up",
                       p.state.leader, p.min_isr)
                 : fmt::format("led by broker {}", p.state.leader);
    case RecommendationKind::kafka_default_best:
      if (p.kafka_choice_clean)
        return fmt::format("Kafka elects broker {} from the ISR: no committed record lost",
                           *p.chosen);
      return fmt::format(
          "Kafka's default choice (broker {}, the first live replica in assignment order) is "
          "already the best: it {}{}",
          *p.chosen, chosen ? loss_text(*chosen, p) : "loses an unknown number", unknown);
    case RecommendationKind::wait_for_broker: {
      if (!chosen)  // an ISR member whose state is not given
        return fmt::format(
                   "wait for broker {}: the metadata has it in the ISR, so Kafka elects it "
                   "cleanly once it is back and it keeps every committed record; its state is "
                   "not given, so what it holds (how far the committed records reach) and what "
                   "its return costs the others are not counted, and electing any other replica "
                   "may lose committed records",
                   *p.chosen) +
               (kafka && kafka->broker != *p.chosen
                    ? fmt::format("; Kafka's default (broker {}) {}", kafka->broker,
                                  loss_text(*kafka, p))
                    : "") +
               unknown;
      std::string s = fmt::format("wait for broker {}", *p.chosen);
      if (chosen && chosen->loss_known && chosen->committed_lost_records == 0 &&
          !chosen->committed_loss_possible)
        s += " (it holds every committed record)";
      if (chosen) s += ": it " + loss_text(*chosen, p);
      // With unclean.leader.election.enable on, Kafka's controller elects its choice itself
      // (QuorumController's maybeElectUncleanLeaders, and on each broker's unfencing).
      if (chosen && !chosen->clean)
        s += p.unclean_allowed && chosen->kafka_choice
                 ? "; once it is back, Kafka elects it uncleanly on its own "
                   "(unclean.leader.election.enable)"
                 : "; once it is back, elect it uncleanly";
      if (kafka && kafka->broker != *p.chosen)
        s += fmt::format("; Kafka's default (broker {}) {}", kafka->broker, loss_text(*kafka, p));
      return s + unknown;
    }
    case RecommendationKind::elect_unclean: {
      std::string s = fmt::format("elect the replica on broker {} uncleanly: it {}", *p.chosen,
                                  chosen ? loss_text(*chosen, p) : "loses an unknown number");
      if (kafka)
        s += fmt::format("; Kafka's default (broker {}) {}", kafka->broker, loss_text(*kafka, p));
      else if (!p.kafka_choice)
        s += "; Kafka elects no one (no replica's broker is live)";
      return s + unknown;
    }
    case RecommendationKind::unknown:
      if (!p.candidates.empty() && !p.unknown_holders.empty())
        return fmt::format(
            "unknown: broker(s) {} may hold committed records no given state holds ({}) and "
            "may come back: give their state (a log dir or a `kepoch logdir snapshot` file), or "
            "name them in --gone if their disks are lost{}",
            id_list(p.unknown_holders),
            p.state_current ? "in the ISR" : "the metadata is older than the disks", unknown);
      return fmt::format("no replica's state is known{}", unknown);
  }
  return "";
}

namespace {

// "loses 3 records (1 committed)", or with `would` "would lose ...": the short form of
// loss_text for the decision that opens the verdict.
std::string loss_phrase(const CandidateOutcome& c, bool would) {
  const std::string verb = would ? "would lose" : "loses";
  if (c.lost_records == 0)
    return verb + (c.loss_known ? " nothing" : " no record the given states show");
  std::string s = fmt::format("{} {}{}", verb, c.loss_known ? "" : "at least ",
                              would ? std::to_string(c.lost_records) : records(c.lost_records));
  if (c.committed_lost_records > 0) s += fmt::format(" ({} committed)", c.committed_lost_records);
  return s;
}

// The decision first, for the person on call: per partition without a live leader (at most
// three named) what to do and what it costs against Kafka's default, then which stopped
// brokers start before and after the elections (start_order).
std::string plan_decision(const RecoveryPlan& plan, std::uint64_t unheld) {
  constexpr std::size_t kNamed = forecast::kNamedDecisions;
  std::vector<std::string> acts;
  std::uint64_t more = unheld;
  for (const auto& p : plan.partitions) {
    if (p.kind == RecommendationKind::healthy) continue;
    if (acts.size() == kNamed) {
      ++more;
      continue;
    }
    const std::string name = fmt::format("{}-{}", p.topic, p.partition);
    const CandidateOutcome* chosen = p.chosen_candidate();
    const CandidateOutcome* kafka = p.kafka_candidate();
    std::string a;
    switch (p.kind) {
      case RecommendationKind::elect_unclean:
        a = fmt::format("elect broker {} for {} now", *p.chosen, name);
        break;
      case RecommendationKind::wait_for_broker:
        a = fmt::format("wait for broker {} to lead {}", *p.chosen, name);
        break;
      case RecommendationKind::kafka_default_best:
        a = fmt::format("let Kafka elect broker {} for {}", *p.chosen, name);
        break;
      default:
        a = fmt::format("no recommendation for {} until the missing states are given", name);
        break;
    }
    if (chosen) {
      a += ": it " + loss_phrase(*chosen, false);
      if (kafka && kafka->broker != chosen->broker)
        a += ", Kafka's default (broker " + std::to_string(kafka->broker) + ") " +
             loss_phrase(*kafka, true);
    }
    acts.push_back(std::move(a));
  }
  if (acts.empty()) return "";
  std::string s;
  for (std::size_t i = 0; i < acts.size(); ++i)
    s += (i == 0 ? "" : "; ") + acts[i];
  s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
  if (more) s += fmt::format("; and {} more partition(s) (see partitions)", more);
  std::vector<std::string> first, after;
  for (const auto& step : plan.start_order) {
    if (step.phase == StartPhase::first) first.push_back(std::to_string(step.broker));
    if (step.phase == StartPhase::after_elections) after.push_back(std::to_string(step.broker));
  }
  const auto brokers = [](const std::vector<std::string>& ids) {
    std::string list;
    for (std::size_t i = 0; i < ids.size(); ++i)
      list += (i == 0 ? "" : i + 1 == ids.size() ? " and " : ", ") + ids[i];
    return (ids.size() == 1 ? "broker " : "brokers ") + list;
  };
  if (!first.empty()) s += "; start " + brokers(first) + " first";
  if (!after.empty()) s += "; start " + brokers(after) + " after";
  return s + ". ";
}

}  // namespace

std::string plan_verdict(const RecoveryPlan& plan, std::uint64_t unheld_decisions) {
  const auto& t = plan.totals;
  // A stale metadata (a stopped broker's own copy of the log) can call a dead broker live:
  // nothing the plan says stands on it.
  const std::string stale =
      t.stale_partitions == 0
          ? ""
          : fmt::format(
                "The metadata is older than the brokers' disks on {} partition(s) (epochs it "
                "never issued, or a leader it calls live that has shut down; see problems): "
                "the plan below rests on it and cannot be trusted; give the active "
                "controller's metadata log, or -b. ",
                t.stale_partitions);
  if (t.affected == 0)
    return stale + fmt::format("All {} partition(s) have a live leader{}", t.partitions,
                               stale.empty() ? ": nothing to decide." : " in that metadata.");
  std::string s = stale + plan_decision(plan, unheld_decisions);
  s += fmt::format("{} of {} partition(s) have no live leader or too small an ISR", t.affected,
                   t.partitions);
  // "0 committed" only when a committed loss is ruled out.
  const auto committed = [](std::uint64_t n, bool unknown) {
    return fmt::format("{} committed{}", n, unknown ? ", a committed loss not ruled out" : "");
  };
  s += fmt::format(
      ": the plan loses {}{} ({}), Kafka's default {} ({})", t.complete ? "" : "at least ",
      records(t.plan_lost_records),
      committed(t.plan_committed_lost_records, t.plan_committed_unknown),
      records(t.kafka_default_lost_records),
      committed(t.kafka_default_committed_lost_records, t.kafka_default_committed_unknown));
  std::vector<std::string> actions;
  if (t.wait > 0) actions.push_back(fmt::format("wait for a stopped broker on {}", t.wait));
  if (t.elect_unclean > 0)
    actions.push_back(fmt::format("elect another replica uncleanly on {}", t.elect_unclean));
  if (t.unknown > 0)
    actions.push_back(
        fmt::format("no recommendation before a missing state is given on {}", t.unknown));
  if (t.under_min_isr > 0)
    actions.push_back(fmt::format(
        "acks=all writes are refused on {} (a live leader, its ISR below min.insync.replicas)",
        t.under_min_isr));
  for (std::size_t i = 0; i < actions.size(); ++i)
    s += (i == 0 ? "; " : ", ") + actions[i];
  if (!t.complete) s += "; some counts are lower bounds (states not given or not kept)";
  if (t.plan_committed_loss_partitions > 0)
    s += fmt::format("; committed records are lost, or may be, on {} partition(s)",
                     t.plan_committed_loss_partitions);
  return s + ".";
}

Value recovery_plan_value(const RecoveryPlan& plan, const PlanContext& context) {
  const auto& t = plan.totals;
  Value out = Value::object();
  out.set("summary", plan_verdict(plan, context.unheld_decisions));
  out.set("metadata", context.metadata);
  out.set("cluster_id", context.cluster_id ? Value(*context.cluster_id) : Value());
  out.set("totals",
          Value::object()
              .set("partitions", t.partitions)
              .set("affected", t.affected)
              .set("leaderless", t.leaderless)
              .set("under_min_isr", t.under_min_isr)
              .set("wait", t.wait)
              .set("elect_unclean", t.elect_unclean)
              .set("unknown", t.unknown)
              .set("kafka_default_lost_records", t.kafka_default_lost_records)
              .set("kafka_default_committed_lost_records", t.kafka_default_committed_lost_records)
              .set("plan_lost_records", t.plan_lost_records)
              .set("plan_committed_lost_records", t.plan_committed_lost_records)
              .set("plan_committed_loss_partitions", t.plan_committed_loss_partitions)
              .set("complete", t.complete)
              .set("stale_partitions", t.stale_partitions));
  Value brokers = Value::array();
  for (const auto& b : context.brokers) {
    brokers.push(Value::object()
                     .set("broker", b.broker)
                     .set("live", b.live)
                     .set("gone", b.gone)
                     .set("state", b.source.empty() ? "missing" : "given")
                     .set("source", b.source.empty() ? Value() : Value(b.source)));
  }
  out.set("brokers", std::move(brokers));
  Value partitions = Value::array();
  Value candidates = Value::array();
  Value followers = Value::array();
  for (const auto& p : plan.partitions) {
    if (p.condition == forecast::PartitionCondition::healthy && !context.all) continue;
    const CandidateOutcome* chosen = p.chosen_candidate();
    const CandidateOutcome* kafka = p.kafka_candidate();
    partitions.push(
        Value::object()
            .set("topic", p.topic)
            .set("partition", p.partition)
            .set("condition", forecast::condition_name(p.condition))
            .set("leader", p.state.leader == kNoLeader ? Value() : Value(p.state.leader))
            .set("isr", ids(p.state.isr))
            .set("replicas", ids(p.state.replicas))
            .set("recommendation", forecast::recommendation_name(p.kind))
            .set("chosen", p.chosen ? Value(*p.chosen) : Value())
            .set("lost_records", optional_count(chosen, &CandidateOutcome::lost_records))
            .set("committed_lost_records",
                 optional_count(chosen, &CandidateOutcome::committed_lost_records))
            .set("kafka_choice", p.kafka_choice ? Value(*p.kafka_choice) : Value())
            .set("kafka_lost_records", optional_count(kafka, &CandidateOutcome::lost_records))
            .set("kafka_committed_lost_records",
                 optional_count(kafka, &CandidateOutcome::committed_lost_records))
            .set("reason", partition_reason(p))
            .set("min_insync_replicas", p.min_isr)
            .set("min_insync_replicas_source",
                 optional_text(std::string(forecast::config_source_name(p.min_isr_source))))
            .set("unclean_leader_election", p.unclean_allowed)
            .set("unclean_leader_election_source",
                 optional_text(std::string(forecast::config_source_name(p.unclean_source)))));
    for (const auto& c : p.candidates) {
      std::string truncations;
      for (const auto& f : c.followers) {
        truncations += truncations.empty() ? "" : " ";
        truncations += f.forecast.prediction.unanswered_epoch
                           ? fmt::format("{}@?", f.broker)
                           : fmt::format("{}@{}", f.broker, f.forecast.prediction.truncate_to);
      }
      candidates.push(Value::object()
                          .set("topic", p.topic)
                          .set("partition", p.partition)
                          .set("rank", c.rank)
                          .set("broker", c.broker)
                          .set("live", c.live)
                          .set("clean", c.clean)
                          .set("kafka_choice", c.kafka_choice)
                          .set("last_epoch", c.last_epoch)
                          .set("log_end_offset", c.log_end_offset)
                          .set("leader_epoch", c.leader_epoch)
                          .set("removed_records", c.removed_records)
                          .set("lost_records", c.lost_records)
                          .set("committed_lost_records", c.committed_lost_records)
                          .set("loss_known", c.loss_known)
                          .set("committed_loss_possible", c.committed_loss_possible)
                          .set("truncations", truncations));
      for (const auto& f : c.followers)
        followers.push(follower_row(p, c, f));
    }
  }
  out.set("partitions", std::move(partitions));
  out.set("candidates", std::move(candidates));
  out.set("followers", std::move(followers));
  // The runs, and their commands apart: a table shows a list of texts whole (wrapped), where
  // a column as long as a command would be cut to the terminal's width.
  Value salvage = Value::array();
  Value commands = Value::array();
  for (const auto& s : context.salvages) {
    salvage.push(Value::object()
                     .set("topic", s.topic)
                     .set("partition", s.partition)
                     .set("follower", s.follower)
                     .set("follower_live", s.follower_live)
                     .set("leader", s.leader)
                     .set("lost_records", s.lost_records)
                     .set("lost_unknown_records", s.lost_unknown_records));
    commands.push(s.command);
  }
  out.set("salvage", std::move(salvage));
  out.set("salvage_commands", std::move(commands));
  Value start = Value::array();
  for (const auto& s : plan.start_order) {
    start.push(Value::object()
                   .set("broker", s.broker)
                   .set("phase", forecast::start_phase_name(s.phase))
                   .set("partitions", strings_value(s.partitions)));
  }
  out.set("start_order", std::move(start));
  out.set("notes", strings_value(context.notes));
  Value problems = Value::array();
  for (const auto& p : plan.partitions)
    for (const auto& f : p.metadata_findings)
      problems.push(Value::object()
                        .set("severity", "error")
                        .set("message", fmt::format("{}-{}: {}: the metadata is older than the "
                                                    "disks (a stopped broker's own copy of the "
                                                    "metadata log?)",
                                                    p.topic, p.partition, f)));
  for (const auto& p : plan.partitions)
    if (!p.other_topic_replicas.empty())
      problems.push(Value::object().set("severity", "warning").set("message", other_topic_text(p)));
  out.set("problems", std::move(problems));
  return out;
}

std::vector<CommandFile> recovery_command_files(
    const RecoveryPlan& plan, const std::vector<forecast::PlanSalvage>& salvages) {
  using json = nlohmann::ordered_json;
  // Which partitions need what: a replica order with the chosen replica first (so Kafka's
  // unclean rule, the first live replica in assignment order, picks it), and an unclean
  // election, now (the chosen broker is live) or after the waited-for brokers are back.
  json reorder = json::array();
  json elect_now = json::array();
  json elect_later = json::array();
  for (const auto& p : plan.partitions) {
    if (!p.chosen) continue;
    const bool unclean_needed =
        (p.kind == RecommendationKind::elect_unclean) ||
        (p.kind == RecommendationKind::kafka_default_best && !p.kafka_choice_clean) ||
        (p.kind == RecommendationKind::wait_for_broker && p.chosen_candidate() &&
         !p.chosen_candidate()->clean);
    if (!unclean_needed) continue;
    const json tp = {{"topic", p.topic}, {"partition", p.partition}};
    if (p.kind == RecommendationKind::wait_for_broker)
      elect_later.push_back(tp);
    else
      elect_now.push_back(tp);
    if (!p.state.replicas.empty() && p.state.replicas.front() != *p.chosen) {
      json replicas = json::array({*p.chosen});
      for (const auto id : p.state.replicas)
        if (id != *p.chosen) replicas.push_back(id);
      reorder.push_back({{"topic", p.topic}, {"partition", p.partition}, {"replicas", replicas}});
    }
  }
  std::vector<CommandFile> files;
  files.push_back(
      {"reassignment.json", json{{"version", 1}, {"partitions", reorder}}.dump(2) + "\n"});
  files.push_back({"elect-now.json", json{{"partitions", elect_now}}.dump(2) + "\n"});
  files.push_back({"elect-after-start.json", json{{"partitions", elect_later}}.dump(2) + "\n"});

  // The reorder through the Admin API (alterPartitionReassignments): kafka-reassign-partitions
  // --execute refuses a replica list naming a broker that is down ("Unknown broker id"), the
  // Admin call accepts it and completes at once when the replica set is unchanged.
  std::string jsh =
      "// kepoch plan: put each chosen replica first in its partition's replica list.\n"
      "// Run: BOOTSTRAP=host:port jshell --class-path \"$(printf '%s:' "
      "\"$KAFKA_HOME\"/libs/*.jar)\" "
      "reorder.jsh\n"
      "// (COMMAND_CONFIG=client.properties for a secured cluster.)\n"
      "import org.apache.kafka.clients.admin.*;\n"
      "import org.apache.kafka.common.TopicPartition;\n"
      "import java.util.*;\n"
      "var props = new Properties();\n"
      "if (System.getenv(\"COMMAND_CONFIG\") != null) props.load(new "
      "java.io.FileInputStream(System.getenv(\"COMMAND_CONFIG\")));\n"
      "props.put(\"bootstrap.servers\", System.getenv(\"BOOTSTRAP\"));\n"
      "var moves = new HashMap<TopicPartition, Optional<NewPartitionReassignment>>();\n";
  for (const auto& r : reorder) {
    std::string list;
    for (const auto& id : r["replicas"])
      list += (list.empty() ? "" : ", ") + std::to_string(id.get<std::int32_t>());
    jsh += fmt::format(
        "moves.put(new TopicPartition({}, {}), Optional.of(new NewPartitionReassignment(List.of("
        "{}))));\n",
        json(r["topic"]).dump(), r["partition"].get<std::int32_t>(), list);
  }
  // jshell goes on after a failed snippet: the status is carried to /exit.
  jsh +=
      "int rc = 0;\n"
      "try (var admin = Admin.create(props)) { admin.alterPartitionReassignments(moves).all()."
      "get(); System.out.println(\"reordered \" + moves.size() + \" partition(s)\"); } catch "
      "(Exception e) { System.err.println(\"reorder failed: \" + e); rc = 1; }\n"
      "/exit rc\n";
  files.push_back({"reorder.jsh", jsh});

  // The order: each command has what it needs. An Admin call (the reorder, an election)
  // needs a live broker at BOOTSTRAP, and an election needs the replica it elects live (at a
  // total outage that is the waited-for broker started first); the brokers that must not be
  // Kafka's unclean choice start last. Each step checks its precondition and says what is
  // missing (kafka-broker-api-versions lists the brokers the controller has unfenced).
  std::string steps =
      "#!/bin/sh\n"
      "# kepoch plan: the steps to carry the plan out with Kafka's own tools. kepoch changed\n"
      "# nothing; read each step, then run this script or the commands one by one.\n"
      "# Needs KAFKA_HOME (a Kafka install), BOOTSTRAP (host:port of brokers: at a total outage,\n"
      "# those of the brokers started first below), jshell (a JDK) for a reorder; optional:\n"
      "# COMMAND_CONFIG (client properties of a secured cluster), WAIT_SECONDS (how long a step\n"
      "# waits for a broker to be live, default 120).\n"
      "set -eu\n"
      ": \"${KAFKA_HOME:?set KAFKA_HOME}\" \"${BOOTSTRAP:?set BOOTSTRAP}\"\n"
      "cd \"$(dirname \"$0\")\"\n"
      "\n"
      "# live ID...: each broker is up and unfenced (the cluster's metadata lists it).\n"
      "live() {\n"
      "  brokers=$(\"$KAFKA_HOME/bin/kafka-broker-api-versions.sh\" --bootstrap-server "
      "\"$BOOTSTRAP\" \\\n"
      "    ${COMMAND_CONFIG:+--command-config \"$COMMAND_CONFIG\"} 2>/dev/null | grep '(id: ' "
      "| grep -v 'isFenced: true') || return 1\n"
      "  for id in \"$@\"; do\n"
      "    echo \"$brokers\" | grep -q \"(id: $id rack\" || return 1\n"
      "  done\n"
      "}\n"
      "# need_live STEP ID...: wait for the brokers, else say what is missing and stop.\n"
      "need_live() {\n"
      "  step=$1\n"
      "  shift\n"
      "  waited=0\n"
      "  until live \"$@\"; do\n"
      "    if [ \"$waited\" -ge \"${WAIT_SECONDS:-120}\" ]; then\n"
      "      echo \"step $step: broker(s) $* not live at $BOOTSTRAP after ${waited}s: start \"\\\n"
      "\"them (and make BOOTSTRAP name one of them), then run the steps from $step on\" >&2\n"
      "      exit 1\n"
      "    fi\n"
      "    sleep 5\n"
      "    waited=$((waited + 5))\n"
      "  done\n"
      "}\n";
  if (!reorder.empty())
    steps +=
        "command -v jshell >/dev/null || { echo \"jshell not found: the reorder (reorder.jsh) "
        "needs a JDK on PATH\" >&2; exit 1; }\n";
  // The brokers each election needs live: for elect-now, the chosen (live) replicas.
  std::set<std::int32_t> elect_now_brokers;
  for (const auto& p : plan.partitions)
    if (p.chosen && (p.kind == RecommendationKind::elect_unclean ||
                     (p.kind == RecommendationKind::kafka_default_best && !p.kafka_choice_clean)))
      elect_now_brokers.insert(*p.chosen);
  const auto list_of = [](const auto& ids) {
    std::string list;
    for (const auto id : ids)
      list += (list.empty() ? "" : " ") + std::to_string(id);
    return list;
  };
  std::vector<std::int32_t> first_ids, later_ids;
  for (const auto& s : plan.start_order)
    (s.phase == StartPhase::first ? first_ids : later_ids).push_back(s.broker);
  const std::string first = list_of(first_ids), later = list_of(later_ids);
  const std::string reorder_command =
      "BOOTSTRAP=\"$BOOTSTRAP\" jshell --class-path \"$(printf '%s:' "
      "\"$KAFKA_HOME\"/libs/*.jar)\" reorder.jsh\n";
  const std::string reorder_comment = fmt::format(
      "# Put the chosen replica first in {} partition(s) (reassignment.json; through the Admin "
      "API,\n#    since kafka-reassign-partitions refuses brokers that are down).\n",
      reorder.size());
  int n = 0;
  bool reordered = false;
  if (!salvages.empty()) {
    // Run on the followers' hosts, not here: named before the steps that truncate them.
    steps += fmt::format(
        "\n# 0. First keep the records the plan's truncations remove ({} replica(s)): on each\n"
        "#    follower's host, before its broker starts (a live one: before the election below),\n"
        "#    with the leader's state there, run the command; `kepoch replay ARCHIVE` produces\n"
        "#    the records back once the plan is carried out.\n",
        salvages.size());
    for (const auto& s : salvages)
      steps += fmt::format("#    broker {} ({}-{}, {} record(s) lost{}):\n#      {}\n", s.follower,
                           s.topic, s.partition, s.lost_records + s.lost_unknown_records,
                           s.lost_unknown_records ? ", some possibly" : "", s.command);
    steps += "echo 'before these steps: run the kepoch salvage commands at the top of steps.sh'\n";
  }
  if (!elect_now.empty()) {
    ++n;
    steps += fmt::format(
        "\n# {}. Unclean election of the chosen live replica in {} partition(s); it needs "
        "broker(s) {} live.\n",
        n, elect_now.size(), list_of(elect_now_brokers));
    steps += fmt::format("need_live {} {}\n", n, list_of(elect_now_brokers));
    if (!reorder.empty()) {
      steps += reorder_comment + reorder_command;
      reordered = true;
    }
    steps +=
        "\"$KAFKA_HOME/bin/kafka-leader-election.sh\" --bootstrap-server \"$BOOTSTRAP\" "
        "${COMMAND_CONFIG:+--admin.config \"$COMMAND_CONFIG\"} \\\n  --election-type UNCLEAN "
        "--path-to-json-file elect-now.json\n";
  }
  if (!first.empty()) {
    ++n;
    steps += fmt::format(
        "\n# {}. Start broker(s) {} (partitions wait for them), and no other stopped broker yet.\n"
        "echo 'step {}: start broker(s) {} now; press Enter when they are up'\nread _\n"
        "need_live {} {}\n",
        n, first, n, first, n, first);
  }
  if (!reorder.empty() && !reordered) {
    ++n;
    steps += fmt::format("\n# {}. ", n) + reorder_comment.substr(2);
    steps += fmt::format("need_live {} {}\n", n, first) + reorder_command;
  }
  if (!elect_later.empty()) {
    ++n;
    steps += fmt::format(
        "\n# {}. Unclean election of the waited-for replicas not in the ISR ({} partition(s)).\n"
        "need_live {} {}\n"
        "\"$KAFKA_HOME/bin/kafka-leader-election.sh\" --bootstrap-server \"$BOOTSTRAP\" "
        "${{COMMAND_CONFIG:+--admin.config \"$COMMAND_CONFIG\"}} \\\n  --election-type UNCLEAN "
        "--path-to-json-file elect-after-start.json\n",
        n, elect_later.size(), n, first);
  }
  if (!later.empty()) {
    ++n;
    steps += fmt::format(
        "\n# {}. Start the other stopped broker(s): {}.\necho 'step {}: start broker(s) {} now'\n",
        n, later, n, later);
  }
  if (n == 0) steps += "\n# Nothing to do: no partition needs a decision.\n";
  files.push_back({"steps.sh", steps});
  return files;
}

Value plan_timelines_value(const forecast::RecoveryPlan& plan, const forecast::PlanInput& input) {
  Value out = Value::array();
  for (std::size_t i = 0; i < plan.partitions.size() && i < input.partitions.size(); ++i) {
    const forecast::PartitionPlan& p = plan.partitions[i];
    const forecast::PlanPartitionInput& in = input.partitions[i];
    const forecast::CandidateOutcome* leader = p.chosen_candidate();
    if (!leader && !p.candidates.empty()) leader = &p.candidates.front();
    if (!leader || in.replicas.empty()) continue;
    // The known replicas, the leader's first, as diff and predict put them on one axis.
    std::vector<const PartitionReplica*> replicas;
    std::vector<std::optional<std::int64_t>> truncate_to;
    std::vector<Value> removed;  // what each follower's truncation removes
    if (const auto it = in.replicas.find(leader->broker); it != in.replicas.end()) {
      replicas.push_back(it->second);
      truncate_to.emplace_back();
      removed.emplace_back();
    } else {
      continue;
    }
    auto other_topic = [&p](std::int32_t broker) {  // never drawn: its data is not this topic's
      for (const auto& o : p.other_topic_replicas)
        if (o.broker == broker) return true;
      return false;
    };
    for (const auto& [broker, r] : in.replicas) {
      if (broker == leader->broker || other_topic(broker)) continue;
      replicas.push_back(r);
      std::optional<std::int64_t> cut;
      Value gone;
      for (const auto& f : leader->followers)
        if (f.broker == broker) {
          cut = f.forecast.prediction.truncate_to;
          gone = removed_span_value(f.forecast, r->log_end_offset);
        }
      truncate_to.push_back(cut);
      removed.push_back(std::move(gone));
    }
    std::vector<ReplicaComparison> comparisons;
    for (std::size_t r = 1; r < replicas.size(); ++r)
      comparisons.push_back(compare_replicas(replicas, r, 0));
    out.push(
        Value::object()
            .set("topic", p.topic)
            .set("partition", p.partition)
            .set("leader", leader->broker)
            .set("timeline", timeline_value(replicas, 0, comparisons, &truncate_to, &removed)));
  }
  return out;
}

}  // namespace kepoch::report

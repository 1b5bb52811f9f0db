#include "kepoch/forecast/restart_forecast.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <thread>

#include "kepoch/base/error.hpp"
#include "kepoch/cluster/cluster_client.hpp"
#include "kepoch/cluster/cluster_error.hpp"
#include "kepoch/cluster/protocol/error_codes.hpp"
#include "kepoch/forecast/live_remote_log_metadata.hpp"
#include "kepoch/live/stop_forecast.hpp"
#include "kepoch/live/zk_controller.hpp"
#include "kepoch/storage/broker_identity.hpp"
#include "kepoch/storage/replica_sources.hpp"
#include "kepoch/storage/tiered_view.hpp"

namespace kepoch::forecast {
namespace {

// A follower asks at most one question per epoch of its cache, plus the leader's current
// epoch; this only bounds a leader that keeps answering something new.
constexpr int kMaxRounds = 10000;
// Views read at most when leaders answer that leadership moved, and the pause before each
// new one (times the views read so far).
constexpr int kMaxViews = 4;
constexpr std::chrono::milliseconds kMovedBackoff{100};

std::string ids_text(const std::vector<std::int32_t>& ids) {
  return ids.empty() ? "none" : fmt::format("{}", fmt::join(ids, ","));
}

bool contains(const std::vector<std::int32_t>& ids, std::int32_t id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

// handleBrokerUncleanShutdown (a log dir without the clean-shutdown marker, ELR on), then
// handleBrokerUnfenced: the controller's moves when the broker registers again.
void elect_on_return(PartitionRestart& r, const RestartContext& c, const live::TopicView& topic) {
  const live::PartitionView& p = *r.live;
  const live::TopicSettings settings = live::topic_settings(topic);
  const bool unclean = settings.unclean_leader_election.value_or(false);
  // ReplicationControlManager runs handleBrokerUncleanShutdown and keeps ELR only with
  // eligible.leader.replicas.version >= 1 (judged as `cluster what-if` judges it).
  const bool elr = live::elr_setting(*c.view).enabled;
  const int min_isr = settings.effective_min_isr;
  PartitionState state = live::partition_state(p);
  if (live::controller_mode(*c.view).kind == live::ControllerKind::zookeeper) {
    // ZooKeeper mode: KafkaController.onBrokerStartup -> triggerOnlinePartitionStateChange
    // elects the offline partition with the returning broker live (Election.leaderForOffline).
    std::set<std::int32_t> with_it = c.alive;
    with_it.insert(c.broker);
    const live::zk::ZkChange z = live::zk::elect_offline_partition(state, with_it, unclean);
    PartitionChange change;
    change.after = z.after;
    change.leader_changed = z.leader_changed;
    change.election.node = z.leader_changed ? z.after.leader : kNoLeader;
    change.election.unclean = z.unclean;
    change.election.branch = !z.leader_changed ? "none"
                             : z.unclean       ? "zk_offline_partition_unclean_first_live_replica"
                                               : "zk_offline_partition_first_live_isr_replica";
    r.election = change;
  } else {
    if (elr && !r.replica.clean_shutdown)
      state = unclean_shutdown_broker(state, c.broker, c.alive, unclean, elr, min_isr).after;
    r.election = unfence_broker(state, c.broker, c.alive, unclean, elr, min_isr);
  }
  const std::string judged_by = fmt::format(
      "ISR {}, ELR {}, min.insync.replicas {}, unclean.leader.election.enable {}, "
      "eligible leader replicas {}",
      ids_text(p.isr), p.elr ? ids_text(*p.elr) : "not reported", min_isr, unclean,
      elr ? "on" : "off");
  const std::int32_t leader = r.election->election.node;
  if (leader == c.broker) {
    r.outcome = RestartOutcome::leads;
    r.reason = fmt::format(
        "no live leader; the controller elects broker {} when it returns ({}{}; {}): it keeps "
        "its log as loaded",
        c.broker, r.election->election.branch, r.election->election.unclean ? ", unclean" : "",
        judged_by);
    // The other replicas follow it and truncate to its log (their records past its end are
    // lost). From outside the ISR and ELR nothing says its log holds what was acknowledged;
    // after a crash its log may have lost writes it had not flushed (recovery cuts what did
    // not reach the disk) that other replicas hold: with ELR off nothing keeps such a broker
    // from leading (KIP-966's handleBrokerUncleanShutdown does, with ELR on).
    if (r.election->election.unclean)
      r.lead_risk =
          "an unclean election: the other replicas truncate to this log, and records acknowledged "
          "to producers that only they hold are lost";
    else if (!r.replica.clean_shutdown && p.replicas.size() > 1)
      r.lead_risk = fmt::format(
          "broker {} did not shut down cleanly (no .kafka_cleanshutdown): writes it had not "
          "flushed may be gone from its log while other replicas hold them, and they truncate "
          "to this log",
          c.broker);
  } else if (leader != kNoLeader) {
    // Another broker could lead only now (the return changed the ISR or ELR): it is not
    // leading yet, so there is no leader to ask.
    r.outcome = RestartOutcome::unanswered;
    r.reason = fmt::format(
        "no live leader; when broker {} returns the controller elects broker {} ({}), which "
        "this replica then follows: not predicted, that broker is not leading yet",
        c.broker, leader, judged_by);
  } else {
    r.outcome = RestartOutcome::leaderless;
    r.reason = fmt::format(
        "no live leader, and broker {}'s return does not give one ({}): it stays offline", c.broker,
        judged_by);
  }
}

}  // namespace

std::string_view outcome_name(RestartOutcome outcome) {
  switch (outcome) {
    case RestartOutcome::stray:
      return "stray";
    case RestartOutcome::follows:
      return "follows";
    case RestartOutcome::leads:
      return "leads";
    case RestartOutcome::leaderless:
      return "leaderless";
    case RestartOutcome::unanswered:
      return "unanswered";
  }
  return "unanswered";
}

PartitionRestart classify(PartitionReplica replica, const RestartContext& c) {
  PartitionRestart r;
  r.replica = std::move(replica);
  const PartitionReplica& rep = r.replica;
  const live::TopicView* topic = c.view->find_topic(rep.topic);
  const live::PartitionView* p = c.view->find_partition(rep.topic, rep.partition);
  if (p) r.live = *p;
  // findStrayReplicas looks the replica up by topic id: a topic deleted, or deleted and
  // created again under the same name, leaves this replica behind.
  const std::string id = rep.topic_id ? rep.topic_id->to_string() : "";
  if (!topic) {
    const auto asked = c.missing_topic_errors.find(rep.topic);
    const std::int16_t error = asked == c.missing_topic_errors.end() ? 0 : asked->second;
    if (error == cluster::protocol::errors::kTopicAuthorizationFailed) {
      r.outcome = RestartOutcome::unanswered;
      r.leader_error = error;
      r.reason = fmt::format(
          "topic {} is not described to this principal (TOPIC_AUTHORIZATION_FAILED: no "
          "Describe on it): whether the cluster still has {}-{}, its leader and this replica's "
          "fate are unknown",
          rep.topic, rep.topic, rep.partition);
      return r;
    }
    if (error != 0 && error != cluster::protocol::errors::kUnknownTopicOrPartition) {
      r.outcome = RestartOutcome::unanswered;
      r.leader_error = error;
      r.reason = fmt::format(
          "the cluster's metadata leaves out topic {}, and asked for it by name it answered {}: "
          "whether Kafka deletes this replica as stray is unknown",
          rep.topic,
          error < 0 ? std::string("nothing")
                    : std::string(cluster::protocol::error_code_name(error)));
      return r;
    }
  }
  if (!topic || !p) {
    r.outcome = RestartOutcome::stray;
    r.reason =
        fmt::format("the cluster has no partition {}-{}: Kafka deletes this replica as stray",
                    rep.topic, rep.partition);
    return r;
  }
  if (!id.empty() && !topic->topic_id.empty() && id != topic->topic_id) {
    r.outcome = RestartOutcome::stray;
    r.reason = fmt::format(
        "topic id {} in partition.metadata, the cluster's {} is {} (deleted and created "
        "again): Kafka deletes this replica as stray",
        id, rep.topic, topic->topic_id);
    return r;
  }
  if (!contains(p->replicas, c.broker)) {
    r.outcome = RestartOutcome::stray;
    r.reason = fmt::format(
        "broker {} is no longer a replica (replicas {}): Kafka deletes this replica as stray",
        c.broker, ids_text(p->replicas));
    return r;
  }
  if (p->leader == c.broker) {
    r.outcome = RestartOutcome::unanswered;
    r.reason = fmt::format(
        "the cluster still names broker {} the leader (epoch {}): the controller has not "
        "fenced it yet",
        c.broker, p->leader_epoch);
    return r;
  }
  if (!p->has_leader() || !c.alive.count(p->leader)) {
    elect_on_return(r, c, *topic);
    return r;
  }
  r.outcome = RestartOutcome::follows;
  r.reason = fmt::format("follows leader broker {} at epoch {}", p->leader, p->leader_epoch);
  if (p->log_start_offset) r.answers.log_start_offset = *p->log_start_offset;
  return r;
}

std::optional<std::int32_t> next_question(const PartitionRestart& r) {
  if (r.outcome != RestartOutcome::follows) return std::nullopt;
  if (!r.answers.end_offsets.count(r.live->leader_epoch)) return r.live->leader_epoch;
  return predict_truncation(r.answers, r.replica.loaded, TruncationMode::fetch).unanswered_epoch;
}

bool leadership_moved(const PartitionRestart& r) {
  namespace errors = cluster::protocol::errors;
  return r.outcome == RestartOutcome::unanswered &&
         (r.leader_error == errors::kFencedLeaderEpoch ||
          r.leader_error == errors::kUnknownLeaderEpoch ||
          r.leader_error == errors::kNotLeaderOrFollower);
}

void record_answer(PartitionRestart& r, std::int32_t epoch, std::int16_t error_code,
                   std::int32_t answer_epoch, std::int64_t end_offset) {
  if (error_code != 0) {
    r.outcome = RestartOutcome::unanswered;
    r.leader_error = error_code;
    r.reason =
        fmt::format("leader broker {} answered {} for epoch {} (leadership moved? run again)",
                    r.live->leader, cluster::protocol::error_code_name(error_code), epoch);
    return;
  }
  r.answers.end_offsets[epoch] = EpochEntry{answer_epoch, end_offset};
  // endOffsetFor(the latest epoch) is the log end offset.
  if (epoch == r.live->leader_epoch) r.answers.log_end_offset = end_offset;
}

namespace {

using NextQuestion = std::optional<std::int32_t> (*)(const PartitionRestart&);

// One round: every replica still asking (`next`: the epoch it asks next, if any) puts its
// question to its leader. Returns whether any was asked.
bool ask_round(std::vector<PartitionRestart>& restarts, cluster::ClusterClient& client,
               std::vector<std::string>& warnings, NextQuestion next = next_question) {
  std::map<std::int32_t, std::vector<std::pair<PartitionRestart*, std::int32_t>>> by_leader;
  for (auto& r : restarts)
    if (const auto epoch = next(r)) by_leader[r.live->leader].push_back({&r, *epoch});
  for (auto& [leader, asked] : by_leader) {
    std::vector<cluster::protocol::EpochQuery> queries;
    for (const auto& [r, epoch] : asked)
      queries.push_back({r->replica.topic, r->replica.partition, epoch, r->live->leader_epoch});
    try {
      const auto answers = client.end_offsets_for(leader, queries);
      std::map<std::pair<std::string, std::int32_t>, const cluster::protocol::EpochEndOffset*> got;
      for (const auto& a : answers)
        got[{a.topic, a.partition}] = &a;
      for (const auto& [r, epoch] : asked) {
        const auto it = got.find({r->replica.topic, r->replica.partition});
        if (it == got.end()) {
          r->outcome = RestartOutcome::unanswered;
          r->reason = fmt::format("leader broker {} did not answer for this partition", leader);
          continue;
        }
        record_answer(*r, epoch, it->second->error_code, it->second->leader_epoch,
                      it->second->end_offset);
      }
    } catch (const cluster::ClusterError& e) {
      warnings.push_back(fmt::format("leader broker {}: {}", leader, e.what()));
      for (const auto& [r, epoch] : asked) {
        r->outcome = RestartOutcome::unanswered;
        r->reason = fmt::format("leader broker {} could not be asked: {}", leader, e.what());
      }
    }
  }
  return !by_leader.empty();
}

// The leader's batches over [from, until) as BatchRange lists them; incomplete (with a
// warning) when the Fetch stops short or fails.
BatchRange fetch_leader_batches(cluster::ClusterClient& client, const live::PartitionView& p,
                                const std::string& topic_id, std::int64_t from, std::int64_t until,
                                std::vector<std::string>& warnings) {
  BatchRange out;
  try {
    const cluster::LeaderBatches got = client.leader_batches(
        p.leader, p.topic, topic_id, p.partition, p.leader_epoch, from, until);
    for (const auto& b : got.batches)
      out.batches.push_back({b.base_offset, b.last_offset, b.records, b.crc});
    out.batches_complete = got.complete;
    out.complete_until = got.read_until;
    for (const auto& n : got.notes)
      warnings.push_back(fmt::format("{}-{}: {}", p.topic, p.partition, n));
  } catch (const cluster::ClusterError& e) {
    out.batches_complete = false;
    out.complete_until = from;
    warnings.push_back(
        fmt::format("{}-{}: the leader's batches: {}", p.topic, p.partition, e.what()));
  }
  return out;
}

// Reads the cluster, and keeps in `out` what the forecast assumed of it (the newest view).
live::ClusterView read_view(cluster::ClusterClient& client, const cluster::ViewRequest& request,
                            RestartForecast& out) {
  live::ClusterView view = client.read_view(request);
  ++out.views;
  out.alive = view.live_broker_ids();
  out.elr = live::elr_setting(view);
  out.controller = live::controller_mode(view);
  for (const auto& w : view.warnings)
    if (std::find(out.warnings.begin(), out.warnings.end(), w) == out.warnings.end())
      out.warnings.push_back(w);
  return view;
}

// The topics of `replicas` that the view's all-topics Metadata answer left out, asked for by
// name: a topic this principal may not describe is left out without a word, and only the
// answer by name tells it from a deleted one. When that cannot be asked, each is -1.
std::map<std::string, std::int16_t> missing_topic_errors(
    cluster::ClusterClient& client, const std::vector<const PartitionReplica*>& replicas,
    const live::ClusterView& view, std::vector<std::string>& warnings) {
  std::set<std::string> missing;
  for (const PartitionReplica* r : replicas)
    if (!view.find_topic(r->topic)) missing.insert(r->topic);
  if (missing.empty()) return {};
  const std::vector<std::string> names(missing.begin(), missing.end());
  try {
    auto errors = client.topic_errors(names);
    for (const auto& name : names)
      errors.try_emplace(name, std::int16_t{0});
    return errors;
  } catch (const cluster::ClusterError& e) {
    warnings.push_back(fmt::format("Metadata for the topics the cluster's answer left out ({}): {}",
                                   fmt::join(names, ", "), e.what()));
    std::map<std::string, std::int16_t> unknown;
    for (const auto& name : names)
      unknown[name] = -1;
    return unknown;
  }
}

// Drops the replicas outside `scope`. Internal is the cluster's word (a replica whose
// topic the cluster no longer has is kept: it is stray whatever its name).
void keep_in_scope(std::vector<PartitionReplica>& replicas, const RestartScope& scope,
                   const live::ClusterView& view, std::vector<std::string>& notes) {
  const auto outside = [&](const PartitionReplica& r) {
    if (scope.topic && !std::regex_match(r.topic, *scope.topic)) return true;
    const live::TopicView* topic = view.find_topic(r.topic);
    return scope.exclude_internal && topic && topic->internal;
  };
  const auto first_out = std::stable_partition(
      replicas.begin(), replicas.end(), [&](const PartitionReplica& r) { return !outside(r); });
  const auto left_out = std::distance(first_out, replicas.end());
  if (left_out > 0)
    notes.push_back(fmt::format("{} replica(s) of topics not selected left out", left_out));
  replicas.erase(first_out, replicas.end());
}

// The tier of each `follows` partition, as a follower's fetcher meets it (TierStateMachine):
// the leader's ListOffsets -4/-5 answers, its epochs up to its local log start's epoch (asked
// as the rounds ask: one OffsetForLeaderEpoch request per leader per round), and the live
// __remote_log_metadata for the partitions whose leader or own files show a remote tier.
void add_tiers(RestartForecast& out, cluster::ClusterClient& client) {
  std::map<std::int32_t, std::vector<PartitionRestart*>> by_leader;
  for (auto& r : out.partitions)
    if (r.outcome == RestartOutcome::follows) by_leader[r.live->leader].push_back(&r);
  bool need_metadata = false;
  for (auto& [leader, restarts] : by_leader) {
    std::vector<cluster::protocol::OffsetQuery> queries;
    for (const PartitionRestart* r : restarts)
      queries.push_back({r->replica.topic, r->replica.partition, 0, r->live->leader_epoch});
    std::map<std::pair<std::string, std::int32_t>, cluster::TierBoundary> got;
    std::string failed;
    try {
      got = client.tier_boundaries(leader, queries);
    } catch (const cluster::ClusterError& e) {
      failed = fmt::format("leader broker {} could not be asked ListOffsets -4/-5: {}", leader,
                           e.what());
      out.warnings.push_back(failed);
    }
    for (PartitionRestart* r : restarts) {
      PartitionRestart::LiveTier t;
      const auto it = got.find({r->replica.topic, r->replica.partition});
      if (it == got.end()) {
        t.unknown.push_back(failed.empty() ? "the leader did not answer ListOffsets -4" : failed);
      } else {
        const cluster::TierBoundary& b = it->second;
        if (b.earliest_local) {
          t.local_log_start_offset = b.earliest_local->offset;
          t.local_log_start_epoch = b.earliest_local->leader_epoch;
        }
        if (b.latest_tiered) t.latest_tiered_offset = b.latest_tiered->offset;
        // A broker without -4 predates Kafka 3.4, and tiered storage came with 3.6: no tier.
        for (const auto& w : b.why)
          if (!b.predates_tiered_storage || b.earliest_local) t.unknown.push_back(w);
        if (b.predates_tiered_storage && !b.earliest_local) t.unknown.clear();
      }
      t.tiered = t.local_log_start_offset && r->live->log_start_offset &&
                 *t.local_log_start_offset > *r->live->log_start_offset;
      need_metadata = need_metadata || t.tiered || shows_remote_tier(r->replica);
      r->tier = std::move(t);
    }
  }
  if (!need_metadata) return;

  const LiveRemoteLogMetadata meta = read_live_remote_log_metadata(client, /*keep_records=*/false);
  out.remote_metadata =
      meta.complete ? fmt::format("__remote_log_metadata read live: {} partition(s), {} record(s)",
                                  meta.partitions_read.size(), meta.record_count)
                    : "__remote_log_metadata could not be read whole: " + meta.unknown_reason;
  for (const auto& p : meta.indexes.problems)
    out.warnings.push_back(fmt::format("{}: {}", p.file, p.message));
  for (auto& r : out.partitions) {
    if (!r.tier) continue;
    const bool sign = shows_remote_tier(r.replica);
    if (!r.tier->tiered && !sign) continue;
    std::shared_ptr<const RemoteLogIndex> index;
    if (meta.complete) {
      const auto it = meta.indexes.partitions.find({r.replica.topic, r.replica.partition});
      // Read whole and naming no segment of it: the partition has none in remote storage.
      index = it != meta.indexes.partitions.end() ? it->second
                                                  : std::make_shared<const RemoteLogIndex>();
      r.tier->metadata = "__remote_log_metadata (live)";
    } else {
      r.tier->metadata = "__remote_log_metadata not read: " + meta.unknown_reason;
    }
    // The follower's own remote part (count_remote_removed) and, were it the leader's, the
    // same partition's segments: one topic describes both.
    r.replica.remote_tier = PartitionReplica::RemoteTier{index, r.tier->metadata};
    if (!r.tier->tiered) continue;
    TierAnswers t;
    t.local_log_start_offset = *r.tier->local_log_start_offset;
    if (*r.tier->local_log_start_epoch >= 0) t.local_start_epoch = *r.tier->local_log_start_epoch;
    t.remote = index;
    r.answers.tier = std::move(t);
  }

  // The leader's epochs 0..E (E: its local log start's): E-1's end for the target epoch
  // (TierStateMachine.buildRemoteLogAuxState's fetchEarlierEpochEndOffset), and the cache the
  // rebuild assigns below the segment's end (kepoch's derivation, as offline: the leader's
  // entries below it).
  const auto next_tier_question = [](const PartitionRestart& r) -> std::optional<std::int32_t> {
    if (r.outcome != RestartOutcome::follows || !r.answers.tier ||
        !r.answers.tier->local_start_epoch)
      return std::nullopt;
    for (std::int32_t e = 0; e <= *r.answers.tier->local_start_epoch; ++e)
      if (!r.answers.end_offsets.count(e)) return e;
    return std::nullopt;
  };
  for (int round = 0; round < kMaxRounds; ++round) {
    if (!ask_round(out.partitions, client, out.warnings, next_tier_question)) break;
    ++out.rounds;
  }
  for (auto& r : out.partitions) {
    if (r.outcome != RestartOutcome::follows || !r.answers.tier) continue;
    TierAnswers& t = *r.answers.tier;
    if (!t.local_start_epoch) continue;
    if (*t.local_start_epoch != 0)
      t.earlier_epoch_end = r.answers.end_offsets[*t.local_start_epoch - 1];
    if (auto entries = leader_entries_from_answers(r.answers.end_offsets, *t.local_start_epoch,
                                                   r.answers.log_start_offset))
      t.leader_entries = std::move(*entries);
  }
}

}  // namespace

RestartForecast forecast_restart(const std::filesystem::path& log_dir,
                                 std::optional<std::int32_t> broker, cluster::ClusterClient& client,
                                 const RestartScope& scope) {
  RestartForecast out;
  out.log_dir = log_dir;
  ReplicaSource source = load_replica_source(log_dir.string());
  if (!broker) broker = broker_id_of_replica_dir(log_dir);
  if (!broker)
    throw UsageError(fmt::format(
        "{}: no broker id (the log dir has no meta.properties with node.id); give it with "
        "--broker",
        log_dir.string()));
  out.broker = *broker;
  out.notes = source.notes;

  const cluster::ViewRequest request{scope.topic, /*exclude_internal=*/false, /*configs=*/true,
                                     /*offsets=*/true, /*log_dirs=*/false};
  live::ClusterView view = read_view(client, request, out);
  // A log dir of another cluster (MetaPropertiesEnsemble.verify: a broker does not start on
  // it) is no stopped broker of this one: refused, as diff and predict refuse two clusters.
  if (source.cluster_id && !view.cluster_id.empty() && *source.cluster_id != view.cluster_id)
    throw UsageError(fmt::format(
        "{} records cluster id {} but the live cluster's id is {} (Metadata): this log dir is "
        "not a broker of that cluster",
        source.identity_file, *source.cluster_id, view.cluster_id));
  keep_in_scope(source.replicas, scope, view, out.notes);
  std::vector<const PartitionReplica*> all;
  for (const auto& replica : source.replicas)
    all.push_back(&replica);
  RestartContext context{out.broker, out.alive, &view,
                         missing_topic_errors(client, all, view, out.warnings)};
  for (auto& replica : source.replicas) {
    out.clean_shutdown = out.clean_shutdown || replica.clean_shutdown;
    out.partitions.push_back(classify(std::move(replica), context));
  }
  std::sort(out.partitions.begin(), out.partitions.end(), [](const auto& a, const auto& b) {
    return std::tie(a.replica.topic, a.replica.partition) <
           std::tie(b.replica.topic, b.replica.partition);
  });

  while (true) {
    while (out.rounds < kMaxRounds && ask_round(out.partitions, client, out.warnings))
      ++out.rounds;
    std::vector<PartitionRestart*> moved;
    for (auto& r : out.partitions)
      if (leadership_moved(r)) moved.push_back(&r);
    if (moved.empty() || out.views >= kMaxViews) break;
    // As a follower does after such an error: wait for newer metadata, then start over
    // with the leader it names (a leader behind the view needs a moment to catch up).
    std::this_thread::sleep_for(kMovedBackoff * out.views);
    view = read_view(client, request, out);
    std::vector<const PartitionReplica*> asked_again;
    for (const PartitionRestart* r : moved)
      asked_again.push_back(&r->replica);
    context = RestartContext{out.broker, out.alive, &view,
                             missing_topic_errors(client, asked_again, view, out.warnings)};
    out.notes.push_back(
        fmt::format("leadership of {} partition(s) moved while kepoch asked; asked again with the "
                    "cluster as it was then (view {})",
                    moved.size(), out.views));
    for (PartitionRestart* r : moved)
      *r = classify(std::move(r->replica), context);
  }

  add_tiers(out, client);
  for (auto& r : out.partitions) {
    if (r.outcome != RestartOutcome::follows) continue;
    if (!r.live->log_start_offset)
      out.warnings.push_back(fmt::format(
          "{}-{}: the leader's log start offset is unknown (ListOffsets failed); taken as 0",
          r.replica.topic, r.replica.partition));
    const live::PartitionView& partition = *r.live;
    const live::TopicView* topic = view.find_topic(partition.topic);
    const std::string topic_id = topic ? topic->topic_id : "";
    const LeaderBatchLookup batches = [&](std::int64_t from, std::int64_t until) {
      return fetch_leader_batches(client, partition, topic_id, from, until, out.warnings);
    };
    // Committed below the high watermark this broker recorded; after a crash that is a lower
    // bound (high_watermark_doubts: the checkpoint is written every 5 s and at a clean
    // shutdown), as offline predict says. The live leader's high watermark and log end speak
    // of its own log: records it does not hold were committed or not by an election the view
    // does not show (Kafka guarantees them only to a leader elected from the ISR or ELR), so
    // they rule nothing out here.
    r.forecast = forecast_replica(
        r.answers, batches,
        fmt::format("a consumer Fetch from leader broker {} (it reads below the high "
                    "watermark) did not return",
                    partition.leader),
        r.replica, TruncationMode::fetch, std::nullopt,
        high_watermark_doubts(r.replica, /*leader=*/nullptr, /*leader_clean=*/false));
    // The leader's tier could not be asked: a fetch it refuses with
    // OFFSET_MOVED_TO_TIERED_STORAGE, and the remote part, cannot be ruled out.
    if (r.tier && !r.tier->unknown.empty() && !r.tier->local_log_start_offset) {
      r.forecast->lost_known = false;
      r.forecast->committed_loss_unknown = true;
      for (const auto& u : r.tier->unknown)
        r.forecast->unanswered.push_back("the leader's local log start (ListOffsets -4): " + u);
    }
  }
  return out;
}

}  // namespace kepoch::forecast

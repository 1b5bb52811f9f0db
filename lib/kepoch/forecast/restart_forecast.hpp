#pragma once
// What a stopped broker's replicas meet when it starts again: its log dir read from disk as
// Kafka loads it (storage/partition_replica), the partitions' state in the live cluster
// (live::ClusterView), and for each replica that will follow a live leader, the truncation
// the follower's first fetches perform, run by the same engine as offline `predict`
// (storage/replica_forecast) on the answers of that leader (OffsetForLeaderEpoch, the
// lookup a Fetch's divergence check runs).
//
// Per replica, what happens on restart (the broker's first metadata image decides):
//   stray       the cluster has no partition with this replica's topic id and index, or
//               the broker is not in its replicas: Kafka's LogManager.findStrayReplicas
//               marks the log stray and deletes it (a topic the Metadata answer leaves out
//               is stray only when, asked by name, Kafka says it does not exist; one this
//               principal may not describe is unanswered)
//   follows     a live leader other than this broker: the replica truncates, then fetches
//   leads       no live leader, and the controller elects this broker when it returns
//               (epoch/election: handleBrokerUncleanShutdown when its log dir has no
//               clean-shutdown marker, then handleBrokerUnfenced): it keeps its log
//   leaderless  no live leader, and this broker's return does not give one
//   unanswered  the leader could not be asked, or answered with an error; `reason` says which
//
// The exchange mirrors the follower's: each partition asks its leader for its latest epoch,
// then for each epoch the engine needs next, in rounds (one OffsetForLeaderEpoch request
// per leader per round), every question fenced with the leader epoch seen in the view. A
// leader that answers that leadership moved (leadership_moved) sends kepoch back to the
// cluster for a newer view, and that partition starts over, as the follower's fetcher does.

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "kepoch/epoch/election.hpp"
#include "kepoch/epoch/truncation.hpp"
#include "kepoch/live/cluster_view.hpp"
#include "kepoch/live/controller_mode.hpp"
#include "kepoch/live/stop_forecast.hpp"
#include "kepoch/storage/partition_replica.hpp"
#include "kepoch/storage/replica_forecast.hpp"

namespace kepoch::cluster {
class ClusterClient;
}

namespace kepoch::forecast {

enum class RestartOutcome { stray, follows, leads, leaderless, unanswered };
std::string_view outcome_name(RestartOutcome outcome);

struct PartitionRestart {
  PartitionReplica replica;
  RestartOutcome outcome = RestartOutcome::unanswered;
  std::string reason;  // one sentence
  // unanswered: the error code the leader answered (0: none, or not asked).
  std::int16_t leader_error = 0;
  // The live partition (nullopt: not in the cluster's metadata).
  std::optional<live::PartitionView> live;
  // follows: what the leader answered, and the forecast made from it.
  LeaderAnswers answers;
  std::optional<ReplicaForecast> forecast;
  // leads / leaderless: the controller's election when this broker returns.
  std::optional<PartitionChange> election;
  // leads: why acknowledged records may be lost all the same (the other replicas truncate to
  // this log): an unclean election, or a broker that did not shut down cleanly leading again
  // where other replicas may hold writes it had not flushed; empty when neither applies.
  std::string lead_risk;
  // follows: the leader's tier as it answered ListOffsets -4/-5, and where the partition's
  // remote segments were read (live __remote_log_metadata); nullopt when not asked.
  struct LiveTier {
    std::optional<std::int64_t> local_log_start_offset;  // -4 (EARLIEST_LOCAL)
    std::optional<std::int32_t> local_log_start_epoch;   // its epoch (-1: none)
    std::optional<std::int64_t> latest_tiered_offset;    // -5 (LATEST_TIERED)
    bool tiered = false;               // the leader's local log starts above its log start
    std::string metadata;              // the remote metadata's source, or why it is unknown
    std::vector<std::string> unknown;  // what could not be asked, in sentences
  };
  std::optional<LiveTier> tier;
};

// What classify() needs of the cluster for one replica.
struct RestartContext {
  std::int32_t broker = -1;                 // the stopped broker's id
  std::set<std::int32_t> alive;             // brokers the cluster lists as alive
  const live::ClusterView* view = nullptr;  // with topic ids, configs and offsets
  // The topics of replicas that the view's (all-topics) Metadata answer left out, asked for
  // by name: each one's error code (ClusterClient::topic_errors; -1: could not be asked).
  // Only UNKNOWN_TOPIC_OR_PARTITION, or no entry at all, makes such a replica stray:
  // TOPIC_AUTHORIZATION_FAILED is a topic this principal may not describe, whose replica's
  // fate is unknown (unanswered), never "deleted".
  std::map<std::string, std::int16_t> missing_topic_errors = {};
};

// The outcome before any leader is asked: stray, leads, leaderless or follows (pure).
PartitionRestart classify(PartitionReplica replica, const RestartContext& context);

// The questions a `follows` replica still has for its leader: the epoch the engine stopped
// at, or, first of all, the leader's own current epoch (whose end offset is the leader's log
// end offset). nullopt when the answers are complete.
std::optional<std::int32_t> next_question(const PartitionRestart& restart);

// Whether the leader's error says the view kepoch asked with is out of date, so that asking
// again with a new one can be answered: FENCED_LEADER_EPOCH (leadership moved on),
// UNKNOWN_LEADER_EPOCH (the leader has not caught up with it yet), NOT_LEADER_OR_FOLLOWER.
// A follower's fetcher retries on these the same way, after a new metadata image.
bool leadership_moved(const PartitionRestart& restart);

// Records the leader's answer to `epoch`; an error code makes the replica unanswered.
void record_answer(PartitionRestart& restart, std::int32_t epoch, std::int16_t error_code,
                   std::int32_t answer_epoch, std::int64_t end_offset);

struct RestartForecast {
  std::int32_t broker = -1;
  std::filesystem::path log_dir;
  bool clean_shutdown = false;
  std::set<std::int32_t> alive;
  live::ElrSetting elr;                      // ELR on or off, and why
  live::ControllerMode controller;           // KRaft or ZooKeeper mode, and why
  std::vector<PartitionRestart> partitions;  // by topic, then partition
  std::vector<std::string> notes;            // replica dirs left out, and why
  std::vector<std::string> warnings;         // what could not be read or asked
  int rounds = 0;                            // OffsetForLeaderEpoch rounds
  // Tiered partitions (KIP-405): __remote_log_metadata consumed live, when a follows
  // replica's leader or its own files show a remote tier; `remote_metadata` says how it went
  // (empty: not read).
  std::string remote_metadata;
  int views = 0;  // cluster views read (more when leadership moved)
};

// Which of the log dir's replicas to forecast (the others are left out with a note).
struct RestartScope {
  std::optional<std::regex> topic;  // whole-name match; nullopt: every topic
  bool exclude_internal = false;    // leave out topics the cluster marks internal
};

// Reads the log dir (InputError when it cannot), the cluster (ClusterError), asks the
// leaders, and forecasts every replica in `scope`. A tiered partition is taken as a follower
// meets it (the engine's LeaderAnswers::tier, epoch/tiered_fetch): the leader's local/remote
// boundary from ListOffsets -4 (EARLIEST_LOCAL, with its epoch) and -5, its epoch cache up to
// that epoch from OffsetsForLeaderEpoch answers (leader_entries_from_answers), and the remote
// segments from __remote_log_metadata consumed live (forecast/live_remote_log_metadata), which
// also give the follower's own remote part (ReplicaForecast::remote_removed_range); metadata
// that cannot be read is unknown, as offline without --remote-log-metadata. `broker` overrides
// meta.properties' node.id. For a replica that would lose batches, the leader's batches over that
// range, below the leader's log end offset (its answer for its own epoch; past it every removed
// batch is lost), are read with a consumer Fetch (ClusterClient::leader_batches) to tell the
// batches fetched again (same offsets and CRC) from those lost; what the Fetch cannot reach (past
// the high watermark) is unknown.
RestartForecast forecast_restart(const std::filesystem::path& log_dir,
                                 std::optional<std::int32_t> broker, cluster::ClusterClient& client,
                                 const RestartScope& scope = {});

}  // namespace kepoch::forecast

#pragma once
// The live cluster as kepoch reads it for describe, watch, audit and what-if: one Metadata
// request (leaders, leader epochs, replicas, ISR, offline replicas of every topic, with the
// finalized feature levels of the answering broker's ApiVersions), then, as asked,
// DescribeTopicPartitions (ELR and last known ELR, where the brokers have it),
// DescribeConfigs (the topic settings the audit judges), ListOffsets on each leader
// (earliest = log start, latest = high watermark) and DescribeLogDirs on each broker
// (replica sizes and lag).
//
// The channel that answers Metadata is kept between calls (watch polls on it); Metadata is
// asked of it, and, raced with it after ClusterConnector::attempt_delay each, of the brokers
// known from the last Metadata answer and the bootstrap list, all within the settings'
// timeout: a hung broker costs one delay. Only when none answers does read_view throw
// ClusterError; the view names the broker that answered (metadata_from) and, as warnings,
// the ones passed over. A broker that fails the per-broker requests (offsets, log dirs)
// leaves its fields empty and a warning in the view, not an error: the rest is still worth
// seeing; it is not asked again in the same read_view, so a hung broker costs one timeout.

#include <cstdint>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "kepoch/cluster/cluster_connector.hpp"
#include "kepoch/cluster/protocol/groups.hpp"
#include "kepoch/cluster/protocol/list_offsets.hpp"
#include "kepoch/cluster/protocol/offset_for_leader_epoch.hpp"
#include "kepoch/cluster/protocol/transactions.hpp"
#include "kepoch/live/cluster_view.hpp"

namespace kepoch::cluster {

struct ViewRequest {
  std::optional<std::regex> topic;  // whole-name match; nullopt: every topic
  bool exclude_internal = false;
  bool configs = true;   // DescribeConfigs of each topic
  bool offsets = true;   // ListOffsets on each leader
  bool log_dirs = true;  // DescribeLogDirs and the replicas' log end offsets, on each broker
};

// A record batch as a partition leader holds it, from its header (format/record_batch.hpp).
struct LeaderBatch {
  std::int64_t base_offset;
  std::int64_t last_offset;
  std::int32_t records;
  std::uint32_t crc;
  std::int32_t partition_leader_epoch;
};

// The leader's batches over an offset range, as a consumer's Fetch returns them.
struct LeaderBatches {
  std::vector<LeaderBatch> batches;
  bool complete;  // false: the batches stop short of the range's end (notes say why)
  // Every batch of the leader's that ends below this offset (from the batch holding `from`
  // on) is in `batches`: where the read stopped, `from` when nothing was read.
  std::int64_t read_until;
  std::int64_t high_watermark;
  std::int64_t log_start_offset;
  std::vector<std::string> notes;
  // With keep_entries: each batch's whole entry as the leader sent it (the log's bytes), in
  // the order of `batches`, for a caller that reads the records.
  std::vector<std::vector<std::uint8_t>> entries;
};

// A tiered partition's local/remote boundary as its leader answers ListOffsets with the
// special timestamps (`kafka-get-offsets --time -4/-5`): EARLIEST_LOCAL (-4, v8+) is the
// leader's local log start and its epoch (UnifiedLog.fetchOffsetByTimestamp:
// localLogStartOffset with LeaderEpochFileCache.epochForOffset), LATEST_TIERED (-5, v9+) the
// highest offset remote storage holds of the leader's lineage (-1 when none). nullopt: not
// asked, the broker does not speak that version (`why` says so), or it answered an error.
struct TierBoundary {
  std::optional<protocol::ListedOffset> earliest_local;
  std::optional<protocol::ListedOffset> latest_tiered;
  std::vector<std::string> why;  // what is missing, in sentences
  // The broker speaks no ListOffsets version carrying -4: it is older than Kafka 3.4, and
  // tiered storage (KIP-405) came with 3.6, so it has no remote tier.
  bool predates_tiered_storage = false;
};

class ClusterClient {
 public:
  explicit ClusterClient(ConnectionSettings settings);

  live::ClusterView read_view(const ViewRequest& request);

  // OffsetForLeaderEpoch on broker `leader` (as a consumer): for each query, the end offset
  // of that epoch on the broker's log, by UnifiedLog.endOffsetForEpoch, the lookup a
  // follower's fetch runs. One request; a partition must appear once. Per-partition errors
  // come back in error_code (FENCED_LEADER_EPOCH when current_leader_epoch is stale); a
  // broker that cannot be reached throws ClusterError.
  std::vector<protocol::EpochEndOffset> end_offsets_for(
      std::int32_t leader, const std::vector<protocol::EpochQuery>& queries);

  // The headers of the batches broker `leader` holds of a partition from offset `from` on
  // (the batch holding `from` first) up to `until` (exclusive), read with consumer Fetch
  // requests (1 MiB each, 1000 at most): what a restarting follower fetches again after
  // truncating to `from`. A consumer reads only below the high watermark, so a range past it
  // is incomplete, with a note; so is one that meets a legacy v0/v1 message set or a corrupt
  // batch. Kafka gives no client the batches in [high watermark, log end): FetchIsolation.of
  // reads to LOG_END only for a replica id that is not a consumer's (a broker id, or the
  // broker-internal FUTURE_LOCAL_REPLICA_ID -3); the ordinary (-1) and debugging (-2)
  // consumer ids read to HIGH_WATERMARK whatever the isolation level. A Fetch with a broker's
  // id is that follower's own fetch (the leader moves its log end and ISR state:
  // Partition.updateFollowerFetchState), which kepoch never sends. `topic_id` (Kafka's base64) is
  // needed by Fetch v13+; without it v12 is used. `leader_epoch` fences a stale leader (-1: not
  // checked). ClusterError for an unreachable broker or a partition error (NOT_LEADER_OR_FOLLOWER,
  // FENCED_LEADER_EPOCH, OFFSET_OUT_OF_RANGE, ...), naming the error.
  LeaderBatches leader_batches(std::int32_t leader, const std::string& topic,
                               const std::string& topic_id, std::int32_t partition,
                               std::int32_t leader_epoch, std::int64_t from, std::int64_t until,
                               bool keep_entries = false);

  // ListOffsets -4 and -5 on broker `leader` for each query's partition (its timestamp is
  // ignored; current_leader_epoch fences a stale leader), each at the lowest version that
  // carries it or higher (protocol::list_offsets_min_version). ClusterError when the broker
  // cannot be reached.
  std::map<std::pair<std::string, std::int32_t>, TierBoundary> tier_boundaries(
      std::int32_t leader, const std::vector<protocol::OffsetQuery>& partitions);

  // The transaction APIs `kafka-transactions.sh find-hanging` uses (KIP-664), after a
  // read_view (the brokers and leaders are that view's).
  //
  // DescribeProducers on `broker` (each partition's leader when nullopt), in requests of at
  // most 500 partitions (FindHangingTransactionsCommand.MAX_BATCH_SIZE). A partition whose
  // broker cannot be asked comes back with error_code -1 and the reason in error_message.
  std::vector<protocol::PartitionProducers> describe_producers(
      const std::vector<protocol::PartitionQuery>& partitions, std::optional<std::int32_t> broker,
      const live::ClusterView& view);

  // ListTransactions on every broker (each lists the transactions of the
  // __transaction_state partitions it leads), filtered by producer id. `complete` is false
  // when a broker could not be asked or answered an error: a producer id missing from the
  // answer may then be tracked by that broker.
  struct TransactionListings {
    std::vector<protocol::TransactionListing> transactions;
    bool complete = true;
    std::vector<std::string> warnings;
  };
  TransactionListings list_transactions(const std::vector<std::int64_t>& producer_ids);

  // DescribeTransactions at each transactional id's coordinator (FindCoordinator, key type
  // transaction, on the metadata channel). An id whose coordinator cannot be found or asked
  // comes back with error_code -1 (the reason in `warnings`).
  std::vector<protocol::TransactionDescription> describe_transactions(
      const std::vector<std::string>& transactional_ids, std::vector<std::string>& warnings);

  // The consumer groups, as kafka-consumer-groups.sh reads them, after a read_view:
  // ListGroups on every broker (`complete` false when one failed), then each group's
  // committed offsets with their leader epochs (OffsetFetch at its coordinator, every topic,
  // many groups per request from v8). A group whose coordinator cannot be found or asked
  // comes back with error_code -1 (the reason in `warnings`).
  struct GroupListings {
    std::vector<protocol::ListedGroup> groups;
    bool complete = true;
    std::vector<std::string> warnings;
  };
  // Metadata for these topics, asked by name (after a read_view, on its channel): each
  // name's error code, 0 when the broker described it. An all-topics Metadata answer leaves
  // out, without a word, the topics this principal may not Describe; asked by name, Kafka
  // answers TOPIC_AUTHORIZATION_FAILED for them (whether or not they exist), and
  // UNKNOWN_TOPIC_OR_PARTITION for a topic it may describe that does not exist.
  std::map<std::string, std::int16_t> topic_errors(const std::vector<std::string>& names);

  // The operations on the cluster resource this principal may perform (DescribeCluster with
  // include_cluster_authorized_operations; AclOperation codes as a bit field, see
  // protocol::kAllClusterOperations), after a read_view. nullopt: the broker does not serve
  // DescribeCluster, refused it, or could not be asked.
  std::optional<std::int32_t> cluster_authorized_operations();

  // Whether the answering broker has no authorizer, after a read_view: DescribeAcls answered
  // SECURITY_DISABLED (true). False when it answered otherwise (an authorizer: a principal
  // allowed every cluster operation may still be refused topics), nullopt when it was not
  // served or could not be asked.
  std::optional<bool> authorizer_disabled();

  // The topics the brokers of the last read_view hold logs of: DescribeLogDirs of every topic
  // on each. Kafka answers it to a principal that may Describe the cluster with every log
  // the broker has, not filtered by topic ACLs (KafkaApis.handleDescribeLogDirsRequest:
  // logManager.allLogs), so a topic Metadata withholds shows here by name. `unread` names,
  // one sentence each, a broker that refused (CLUSTER_AUTHORIZATION_FAILED, or no log dir
  // in its answer), could not be asked, or a log dir it could not read: topics there are not
  // known.
  struct LogDirTopics {
    std::set<std::string> topics;
    std::vector<std::string> unread;
    bool cluster_describe_refused = false;  // a broker answered CLUSTER_AUTHORIZATION_FAILED
  };
  LogDirTopics log_dir_topics();

  // Every topic name of the last read_view's Metadata answer (all topics, before its topic
  // selection): the topics this principal may Describe.
  const std::set<std::string>& described_topics() const { return described_topics_; }

  GroupListings list_groups();
  std::vector<protocol::GroupOffsets> committed_offsets(const std::vector<std::string>& groups,
                                                        std::vector<std::string>& warnings);

 private:
  // Each key's coordinator (FindCoordinator on the metadata channel, batched from v4): the
  // node id, or nullopt with the reason added to `warnings`.
  std::map<std::string, std::optional<std::int32_t>> find_coordinators(
      std::int8_t key_type, const std::vector<std::string>& keys, std::string_view what,
      std::vector<std::string>& warnings);
  protocol::Struct send_metadata_request();
  BrokerChannel& broker(std::int32_t id);
  void add_elr(live::ClusterView& view);
  void add_configs(live::ClusterView& view);
  void add_offsets(live::ClusterView& view);
  void add_log_dirs(live::ClusterView& view);
  // Each replica_logs entry of `broker_id`: its log end offset, asked of that broker.
  void add_replica_log_ends(std::int32_t broker_id, live::ClusterView& view);
  // A broker that failed a request of this read_view: its channel closed, not asked again.
  void forget(std::int32_t id);

  ClusterConnector connector_;
  std::optional<BrokerChannel> main_;
  std::map<std::int32_t, BrokerAddress> addresses_;  // from the last Metadata answer
  std::map<std::int32_t, BrokerChannel> brokers_;
  std::set<std::int32_t> failed_;           // in the current read_view
  std::string metadata_from_;               // host:port of the last Metadata answer
  std::set<std::string> described_topics_;  // topic names of the last read_view's answer
  std::vector<std::string> passed_over_;
};

}  // namespace kepoch::cluster

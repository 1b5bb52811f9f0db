#include "kepoch/cluster/cluster_client.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <set>
#include <utility>

#include "kepoch/cluster/cluster_error.hpp"
#include "kepoch/cluster/deadline.hpp"
#include "kepoch/cluster/fetched_batches.hpp"
#include "kepoch/cluster/protocol/describe_acls.hpp"
#include "kepoch/cluster/protocol/describe_cluster.hpp"
#include "kepoch/cluster/protocol/describe_configs.hpp"
#include "kepoch/cluster/protocol/describe_log_dirs.hpp"
#include "kepoch/cluster/protocol/describe_topic_partitions.hpp"
#include "kepoch/cluster/protocol/error_codes.hpp"
#include "kepoch/cluster/protocol/fetch.hpp"
#include "kepoch/cluster/protocol/list_offsets.hpp"
#include "kepoch/cluster/protocol/metadata.hpp"

namespace kepoch::cluster {
namespace {

using protocol::ApiKey;

// The topic settings the audit and the min-ISR flags judge by.
const std::vector<std::string> kTopicConfigKeys = {"min.insync.replicas",
                                                   "unclean.leader.election.enable"};

std::vector<std::string> topic_names(const live::ClusterView& view) {
  std::vector<std::string> names;
  for (const auto& t : view.topics)
    names.push_back(t.name);
  return names;
}

live::PartitionView partition_from(const std::string& topic, const protocol::MetadataPartition& p) {
  live::PartitionView out;
  out.topic = topic;
  out.partition = p.partition_index;
  out.error_code = p.error_code;
  out.leader = p.leader_id;
  out.leader_epoch = p.leader_epoch;
  out.replicas = p.replica_nodes;
  out.isr = p.isr_nodes;
  out.offline_replicas = p.offline_replicas;
  return out;
}

live::ClusterView view_from(const protocol::MetadataResponse& m) {
  live::ClusterView view;
  view.cluster_id = m.cluster_id.value_or("");
  view.controller_id = m.controller_id;
  for (const auto& b : m.brokers)
    view.brokers.push_back({b.node_id, b.host, b.port, b.rack});
  std::sort(view.brokers.begin(), view.brokers.end(),
            [](const auto& a, const auto& b) { return a.id < b.id; });
  for (const auto& t : m.topics) {
    if (!t.name) continue;
    live::TopicView topic;
    topic.name = *t.name;
    topic.topic_id = t.topic_id.is_zero() ? "" : t.topic_id.to_string();
    topic.internal = t.is_internal;
    for (const auto& p : t.partitions)
      topic.partitions.push_back(partition_from(topic.name, p));
    std::sort(topic.partitions.begin(), topic.partitions.end(),
              [](const auto& a, const auto& b) { return a.partition < b.partition; });
    view.topics.push_back(std::move(topic));
  }
  std::sort(view.topics.begin(), view.topics.end(),
            [](const auto& a, const auto& b) { return a.name < b.name; });
  return view;
}

std::string warning(std::string_view what, const std::exception& e) {
  return fmt::format("{}: {}", what, e.what());
}

}  // namespace

ClusterClient::ClusterClient(ConnectionSettings settings) : connector_(std::move(settings)) {}

// Metadata from the kept channel, each broker the last answer listed and the bootstrap
// list, raced (ClusterConnector::race) within one timeout: a broker that hangs, the kept
// one included, costs one attempt delay before the next is asked.
protocol::Struct ClusterClient::send_metadata_request() {
  // Every topic: a request by name would make an unknown name an error per topic, and the
  // regular expression needs the full list anyway.
  const auto body = [](const BrokerChannel& channel) {
    return protocol::make_metadata_request(channel.version_for(ApiKey::kMetadata), std::nullopt);
  };
  std::vector<BrokerAttempt> attempts;
  std::set<std::string> listed;
  const bool bootstrap_only = !main_ && addresses_.empty();
  if (main_) {
    auto channel = std::make_shared<BrokerChannel>(std::move(*main_));
    main_.reset();
    listed.insert(channel->peer());
    attempts.push_back({channel->peer(), channel->cancel_signal(), [channel, body](Deadline d) {
                          auto answer = channel->send(ApiKey::kMetadata, body(*channel), d);
                          return ReadyBroker{std::move(*channel), std::move(answer)};
                        }});
  }
  const auto add = [&](const BrokerAddress& address) {
    if (!listed.insert(address.to_string()).second) return;
    auto open = connector_.attempt_open(address);
    attempts.push_back({open.peer, open.cancel, [run = open.run, body](Deadline d) {
                          auto ready = run(d);
                          ready.answer =
                              ready.channel.send(ApiKey::kMetadata, body(ready.channel), d);
                          return ready;
                        }});
  };
  for (const auto& [id, address] : addresses_)
    add(address);
  for (const auto& address : connector_.settings().bootstrap)
    add(address);
  auto outcome = connector_.race(std::move(attempts), deadline_after(connector_.settings().timeout),
                                 bootstrap_only ? "bootstrap brokers" : "brokers");
  main_.emplace(std::move(outcome.ready.channel));
  metadata_from_ = outcome.peer;
  passed_over_ = std::move(outcome.passed_over);
  return std::move(*outcome.ready.answer);
}

live::ClusterView ClusterClient::read_view(const ViewRequest& request) {
  const auto response = protocol::MetadataResponse::from(send_metadata_request());
  described_topics_.clear();
  for (const auto& t : response.topics)
    if (t.name && t.error_code == 0) described_topics_.insert(*t.name);
  // Topics are selected before the per-topic requests, so those ask only for what is shown.
  live::ClusterView view =
      live::select_topics(view_from(response), request.topic, request.exclude_internal);
  view.metadata_from = metadata_from_;
  for (const auto& p : passed_over_)
    view.warnings.push_back(fmt::format("Metadata from {}, passing over {}", metadata_from_, p));
  failed_.clear();
  // From the same broker as the Metadata answer (main_ is the channel that gave it).
  if (main_) {
    view.finalized_features = main_->finalized_features();
    for (const auto& [key, versions] : main_->broker_versions())
      view.api_keys.insert(key);
  }
  addresses_.clear();
  for (const auto& b : view.brokers)
    addresses_[b.id] = BrokerAddress{b.host, static_cast<std::uint16_t>(b.port)};
  // Channels to brokers no longer listed are closed.
  std::erase_if(brokers_, [&](const auto& entry) { return !addresses_.contains(entry.first); });
  add_elr(view);
  if (request.configs) add_configs(view);
  if (request.offsets) add_offsets(view);
  if (request.log_dirs) add_log_dirs(view);
  failed_.clear();
  return view;
}

std::map<std::string, std::int16_t> ClusterClient::topic_errors(
    const std::vector<std::string>& names) {
  std::map<std::string, std::int16_t> out;
  if (names.empty()) return out;
  if (!main_) send_metadata_request();  // an earlier request broke the channel: a new one
  try {
    const auto response = protocol::MetadataResponse::from(
        main_->send(ApiKey::kMetadata,
                    protocol::make_metadata_request(main_->version_for(ApiKey::kMetadata), names)));
    for (const auto& t : response.topics)
      if (t.name) out[*t.name] = t.error_code;
  } catch (const ClusterError&) {
    main_.reset();
    throw;
  }
  return out;
}

ClusterClient::LogDirTopics ClusterClient::log_dir_topics() {
  LogDirTopics out;
  std::vector<std::int32_t> ids;
  for (const auto& [id, address] : addresses_)
    ids.push_back(id);
  for (auto id : ids) {
    try {
      const auto response = protocol::DescribeLogDirsResponse::from(broker(id).send(
          ApiKey::kDescribeLogDirs, protocol::make_describe_log_dirs_request(std::nullopt)));
      if (response.error_code != 0) {
        if (response.error_code == protocol::errors::kClusterAuthorizationFailed)
          out.cluster_describe_refused = true;
        out.unread.push_back(fmt::format("DescribeLogDirs on broker {}: {}", id,
                                         protocol::error_code_name(response.error_code)));
        continue;
      }
      // Below v3 a refusal is an answer without log dirs (no error field); a broker always
      // has one.
      if (response.dirs.empty()) {
        out.unread.push_back(
            fmt::format("DescribeLogDirs on broker {}: no log dir in its answer (refused?)", id));
        continue;
      }
      for (const auto& dir : response.dirs) {
        if (dir.error_code != 0) {
          out.unread.push_back(fmt::format("log dir {} of broker {}: {}", dir.path, id,
                                           protocol::error_code_name(dir.error_code)));
          continue;
        }
        for (const auto& r : dir.replicas)
          out.topics.insert(r.topic);
      }
    } catch (const ClusterError& e) {
      brokers_.erase(id);
      out.unread.push_back(warning(fmt::format("DescribeLogDirs on broker {}", id), e));
    }
  }
  if (ids.empty()) out.unread.push_back("no broker to ask DescribeLogDirs (no read_view)");
  return out;
}

std::optional<std::int32_t> ClusterClient::cluster_authorized_operations() {
  try {
    if (!main_) send_metadata_request();
    if (!main_->usable_version(ApiKey::kDescribeCluster)) return std::nullopt;
    const auto response = protocol::DescribeClusterResponse::from(main_->send(
        ApiKey::kDescribeCluster,
        protocol::make_describe_cluster_request(false, protocol::kBrokerEndpoints,
                                                /*include_cluster_authorized_operations=*/true)));
    if (response.error_code != 0 ||
        response.cluster_authorized_operations == std::numeric_limits<std::int32_t>::min())
      return std::nullopt;
    return response.cluster_authorized_operations;
  } catch (const ClusterError&) {
    main_.reset();
    return std::nullopt;
  }
}

std::optional<bool> ClusterClient::authorizer_disabled() {
  try {
    if (!main_) send_metadata_request();
    if (!main_->usable_version(ApiKey::kDescribeAcls)) return std::nullopt;
    const auto response = protocol::DescribeAclsResponse::from(
        main_->send(ApiKey::kDescribeAcls, protocol::make_cluster_acls_request()));
    return response.error_code == protocol::errors::kSecurityDisabled;
  } catch (const ClusterError&) {
    main_.reset();
    return std::nullopt;
  }
}

std::vector<protocol::EpochEndOffset> ClusterClient::end_offsets_for(
    std::int32_t leader, const std::vector<protocol::EpochQuery>& queries) {
  if (queries.empty()) return {};
  try {
    return protocol::OffsetForLeaderEpochResponse::from(
               broker(leader).send(ApiKey::kOffsetForLeaderEpoch,
                                   protocol::make_offset_for_leader_epoch_request(queries)))
        .partitions;
  } catch (const ClusterError&) {
    brokers_.erase(leader);  // the next call opens a fresh channel
    throw;
  }
}

BrokerChannel& ClusterClient::broker(std::int32_t id) {
  auto it = brokers_.find(id);
  if (it != brokers_.end()) return it->second;
  auto address = addresses_.find(id);
  if (address == addresses_.end())
    throw ClusterError("", fmt::format("broker {} is not in the cluster's metadata", id));
  if (failed_.contains(id)) {
    const auto peer = address->second.to_string();
    throw ClusterError(peer,
                       fmt::format("not asked: {} failed an earlier request of this read", peer));
  }
  return brokers_.emplace(id, connector_.open(address->second)).first->second;
}

void ClusterClient::forget(std::int32_t id) {
  brokers_.erase(id);
  failed_.insert(id);
}

void ClusterClient::add_elr(live::ClusterView& view) {
  if (!main_ || !main_->usable_version(ApiKey::kDescribeTopicPartitions) || view.topics.empty())
    return;
  auto index = live::partitions_by_key(view);
  std::optional<protocol::TopicPartitionCursor> cursor;
  try {
    do {
      const auto response = protocol::DescribeTopicPartitionsResponse::from(main_->send(
          ApiKey::kDescribeTopicPartitions,
          protocol::make_describe_topic_partitions_request(topic_names(view), 2000, cursor)));
      for (const auto& t : response.topics) {
        if (!t.name || t.error_code != 0) continue;
        for (const auto& p : t.partitions) {
          auto it = index.find({*t.name, p.partition_index});
          if (it == index.end()) continue;
          it->second->elr = p.eligible_leader_replicas.value_or(std::vector<std::int32_t>{});
          it->second->last_known_elr = p.last_known_elr.value_or(std::vector<std::int32_t>{});
        }
      }
      cursor = response.next_cursor;
    } while (cursor);
  } catch (const ClusterError& e) {
    main_.reset();
    view.warnings.push_back(warning("eligible leader replicas (DescribeTopicPartitions)", e));
  }
}

void ClusterClient::add_configs(live::ClusterView& view) {
  if (view.topics.empty()) return;
  if (!main_) {  // an earlier request broke the channel: say so, the audit depends on these
    view.warnings.push_back("topic configs (DescribeConfigs): not read, the broker channel failed");
    return;
  }
  std::vector<protocol::ConfigResourceQuery> queries;
  for (const auto& t : view.topics)
    queries.push_back({protocol::kTopicResource, t.name, kTopicConfigKeys});
  try {
    const auto response = protocol::DescribeConfigsResponse::from(
        main_->send(ApiKey::kDescribeConfigs, protocol::make_describe_configs_request(queries)));
    std::map<std::string, live::TopicView*> by_name;
    for (auto& t : view.topics)
      by_name[t.name] = &t;
    for (const auto& r : response.resources) {
      auto topic = by_name.find(r.resource_name);
      if (topic == by_name.end()) continue;
      if (r.error_code != 0) {
        view.warnings.push_back(fmt::format("configs of topic {}: {}", r.resource_name,
                                            protocol::error_code_name(r.error_code)));
        continue;
      }
      for (const auto& c : r.configs) {
        if (!c.value) continue;
        topic->second->configs[c.name] = *c.value;
        topic->second->config_sources[c.name] =
            std::string(protocol::config_source_name(c.config_source));
      }
    }
  } catch (const ClusterError& e) {
    main_.reset();
    view.warnings.push_back(warning("topic configs (DescribeConfigs)", e));
  }
}

// Earliest and latest offsets from each partition's leader: the log start offset and the
// high watermark (ListOffsets at read_uncommitted answers the high watermark for latest).
void ClusterClient::add_offsets(live::ClusterView& view) {
  std::map<std::int32_t, std::vector<live::PartitionView*>> by_leader;
  for (auto& t : view.topics)
    for (auto& p : t.partitions)
      if (p.has_leader()) by_leader[p.leader].push_back(&p);
  for (auto& [leader, partitions] : by_leader) {
    try {
      for (std::int64_t timestamp : {protocol::kEarliestTimestamp, protocol::kLatestTimestamp}) {
        std::vector<protocol::OffsetQuery> queries;
        for (const auto* p : partitions)
          queries.push_back({p->topic, p->partition, timestamp, -1});
        const auto response = protocol::ListOffsetsResponse::from(broker(leader).send(
            ApiKey::kListOffsets, protocol::make_list_offsets_request(queries)));
        std::map<std::pair<std::string, std::int32_t>, const protocol::ListedOffset*> answers;
        for (const auto& o : response.partitions)
          answers[{o.topic, o.partition}] = &o;
        for (auto* p : partitions) {
          auto it = answers.find({p->topic, p->partition});
          if (it == answers.end() || it->second->error_code != 0) continue;
          (timestamp == protocol::kEarliestTimestamp ? p->log_start_offset : p->high_watermark) =
              it->second->offset;
        }
      }
    } catch (const ClusterError& e) {
      forget(leader);
      view.warnings.push_back(warning(fmt::format("offsets from broker {}", leader), e));
    }
  }
}

void ClusterClient::add_replica_log_ends(std::int32_t broker_id, live::ClusterView& view) {
  std::vector<protocol::OffsetQuery> queries;
  std::map<std::pair<std::string, std::int32_t>, live::ReplicaLog*> logs;
  for (auto& t : view.topics)
    for (auto& p : t.partitions)
      for (auto& r : p.replica_logs)
        if (r.broker == broker_id) {
          queries.push_back({p.topic, p.partition, protocol::kLatestTimestamp, -1});
          logs[{p.topic, p.partition}] = &r;
        }
  if (queries.empty()) return;
  try {
    // The debugging replica id: a follower answers too, with its own log end offset
    // (ReplicaManager.fetchOffset: no isolation level, not only from the leader).
    const auto response = protocol::ListOffsetsResponse::from(broker(broker_id).send(
        ApiKey::kListOffsets,
        protocol::make_list_offsets_request(queries, 0, protocol::kDebuggingReplicaId)));
    for (const auto& o : response.partitions) {
      auto it = logs.find({o.topic, o.partition});
      if (it != logs.end() && o.error_code == 0) it->second->log_end_offset = o.offset;
    }
  } catch (const ClusterError& e) {
    forget(broker_id);
    view.warnings.push_back(warning(fmt::format("log end offsets from broker {}", broker_id), e));
  }
}

void ClusterClient::add_log_dirs(live::ClusterView& view) {
  if (view.topics.empty()) return;
  std::vector<protocol::LogDirQuery> queries;
  for (const auto& t : view.topics) {
    protocol::LogDirQuery q{t.name, {}};
    for (const auto& p : t.partitions)
      q.partitions.push_back(p.partition);
    queries.push_back(std::move(q));
  }
  auto index = live::partitions_by_key(view);
  for (const auto& b : view.brokers) {
    try {
      const auto response = protocol::DescribeLogDirsResponse::from(broker(b.id).send(
          ApiKey::kDescribeLogDirs, protocol::make_describe_log_dirs_request(queries)));
      for (const auto& dir : response.dirs) {
        if (dir.error_code != 0) {
          view.warnings.push_back(fmt::format("log dir {} of broker {}: {}", dir.path, b.id,
                                              protocol::error_code_name(dir.error_code)));
          continue;
        }
        for (const auto& r : dir.replicas) {
          auto it = index.find({r.topic, r.partition});
          if (it == index.end() || r.is_future_key) continue;
          it->second->replica_logs.push_back({b.id, dir.path, r.size, r.offset_lag, {}});
        }
      }
    } catch (const ClusterError& e) {
      forget(b.id);
      view.warnings.push_back(warning(fmt::format("log dirs of broker {}", b.id), e));
      continue;
    }
    add_replica_log_ends(b.id, view);
  }
  for (auto& [key, p] : index)
    std::sort(p->replica_logs.begin(), p->replica_logs.end(),
              [](const auto& a, const auto& b) { return a.broker < b.broker; });
}

namespace {

// Bounds of leader_batches: a consumer's fetch.max.bytes-sized answer per round
// (Kafka's default partition limit is 1 MiB), and no more than ~1 GiB in all.
constexpr std::int32_t kLeaderFetchBytes = 1 << 20;
constexpr int kLeaderFetchRounds = 1000;

// The first Fetch version that names topics by id (KIP-516).
constexpr std::int16_t kFetchTopicIdVersion = 13;

const protocol::FetchedPartition* find_fetched(const protocol::FetchResponse& response,
                                               const std::string& topic, const Uuid& topic_id,
                                               std::int32_t partition) {
  for (const auto& p : response.partitions) {
    if (p.partition != partition) continue;
    if (p.topic == topic || (!topic_id.is_zero() && p.topic_id == topic_id)) return &p;
  }
  return nullptr;
}

}  // namespace

LeaderBatches ClusterClient::leader_batches(std::int32_t leader, const std::string& topic,
                                            const std::string& topic_id, std::int32_t partition,
                                            std::int32_t leader_epoch, std::int64_t from,
                                            std::int64_t until, bool keep_entries) {
  LeaderBatches out{{}, false, from, -1, -1, {}, {}};
  // A client that has not read a view yet learns the brokers' addresses from Metadata.
  if (!addresses_.contains(leader)) {
    for (const auto& b : protocol::MetadataResponse::from(send_metadata_request()).brokers)
      addresses_[b.node_id] = BrokerAddress{b.host, static_cast<std::uint16_t>(b.port)};
  }
  Uuid id;
  if (!topic_id.empty()) {
    const auto parsed = parse_uuid(topic_id);
    if (!parsed.ok)
      throw ClusterError("",
                         fmt::format("topic id \"{}\" of {}: {}", topic_id, topic, parsed.error));
    id = parsed.uuid;
  }
  BrokerChannel& channel = broker(leader);
  std::int16_t version = channel.version_for(ApiKey::kFetch);
  if (version >= kFetchTopicIdVersion && id.is_zero()) {
    // Without the topic's id only a version that still names topics can ask for it.
    const auto range = channel.broker_versions().find(static_cast<std::int16_t>(ApiKey::kFetch));
    if (range == channel.broker_versions().end() ||
        !range->second.contains(kFetchTopicIdVersion - 1)) {
      throw ClusterError(channel.peer(),
                         fmt::format("{} speaks Fetch only by topic id, and no id was given for {}",
                                     channel.peer(), topic));
    }
    version = kFetchTopicIdVersion - 1;
  }
  const std::string where = fmt::format("{}-{}", topic, partition);
  std::int64_t offset = from;
  for (int round = 0; round < kLeaderFetchRounds; ++round) {
    const protocol::FetchQuery query{topic, id, partition, offset, kLeaderFetchBytes, leader_epoch};
    protocol::FetchOptions options;
    options.max_bytes = kLeaderFetchBytes;
    protocol::FetchResponse response;
    try {
      response = protocol::FetchResponse::from(channel.send(
          ApiKey::kFetch, version, protocol::make_fetch_request({&query, 1}, options)));
    } catch (const ClusterError&) {
      brokers_.erase(leader);  // the channel is out of step: the next call opens a new one
      throw;
    }
    if (response.error_code != 0) {
      throw ClusterError(channel.peer(),
                         fmt::format("{} answered Fetch of {} with {}", channel.peer(), where,
                                     protocol::error_code_name(response.error_code)));
    }
    const auto* p = find_fetched(response, topic, id, partition);
    if (!p) {
      throw ClusterError(channel.peer(), fmt::format("{} answered Fetch without partition {}",
                                                     channel.peer(), where));
    }
    if (p->error_code != 0) {
      std::string leader_hint;
      if (p->current_leader_id >= 0)
        leader_hint = fmt::format(" (it names broker {} leader, epoch {})", p->current_leader_id,
                                  p->current_leader_epoch);
      throw ClusterError(channel.peer(),
                         fmt::format("{} (broker {}) answered Fetch of {} at offset {} with {}{}",
                                     channel.peer(), leader, where, offset,
                                     protocol::error_code_name(p->error_code), leader_hint));
    }
    out.high_watermark = p->high_watermark;
    out.log_start_offset = p->log_start_offset;

    const FetchedBatches fetched = read_fetched_batches(p->records);
    for (const auto& h : fetched.batches) {
      if (from >= until || h.base_offset >= until) break;
      out.batches.push_back(
          {h.base_offset, h.last_offset(), h.records_count, h.crc, h.partition_leader_epoch});
      if (keep_entries) {
        const auto begin = p->records.begin() + static_cast<std::ptrdiff_t>(h.position);
        out.entries.emplace_back(begin, begin + static_cast<std::ptrdiff_t>(h.size_in_bytes()));
      }
    }
    std::int64_t next = fetched.batches.empty() ? offset : fetched.batches.back().next_offset();
    if (!fetched.batches.empty()) out.read_until = next;
    switch (fetched.stop) {
      case FetchedBatches::Stop::kEnd:
        break;
      case FetchedBatches::Stop::kPartial:
        // The answer's size limit cut the last batch: the next round starts with it.
        if (fetched.stop_offset > next) next = fetched.stop_offset;
        break;
      case FetchedBatches::Stop::kLegacy:
        out.notes.push_back(fmt::format(
            "{} at offset {}: a legacy message set (magic {}) follows, whose entries are not "
            "record batches; read stopped there",
            where, fetched.stop_offset, fetched.stop_magic));
        return out;
      case FetchedBatches::Stop::kCorrupt:
        out.notes.push_back(
            fmt::format("{} at offset {}: the leader's batch is corrupt ({}); read "
                        "stopped there",
                        where, fetched.stop_offset, fetched.damage));
        return out;
    }
    if (next >= until) {
      out.complete = true;
      return out;
    }
    if (next >= out.high_watermark) {
      const std::string rest = until == std::numeric_limits<std::int64_t>::max()
                                   ? fmt::format("offsets from {} on", next)
                                   : fmt::format("offsets {} to {}", next, until - 1);
      out.notes.push_back(
          fmt::format("{}: a consumer reads only below the high watermark {}, so {} were not read",
                      where, out.high_watermark, rest));
      return out;
    }
    if (next <= offset) {
      out.notes.push_back(fmt::format(
          "{}: the leader returned no whole batch at offset {} (high watermark {}); read stopped",
          where, offset, out.high_watermark));
      return out;
    }
    offset = next;
  }
  out.notes.push_back(fmt::format("{}: read stopped after {} Fetch rounds of {} bytes at offset {}",
                                  where, kLeaderFetchRounds, kLeaderFetchBytes, offset));
  return out;
}

std::map<std::pair<std::string, std::int32_t>, TierBoundary> ClusterClient::tier_boundaries(
    std::int32_t leader, const std::vector<protocol::OffsetQuery>& partitions) {
  std::map<std::pair<std::string, std::int32_t>, TierBoundary> out;
  for (const auto& q : partitions)
    out[{q.topic, q.partition}];
  if (partitions.empty()) return out;
  if (!addresses_.contains(leader)) {
    for (const auto& b : protocol::MetadataResponse::from(send_metadata_request()).brokers)
      addresses_[b.node_id] = BrokerAddress{b.host, static_cast<std::uint16_t>(b.port)};
  }
  try {
    BrokerChannel& channel = broker(leader);
    const std::int16_t speaks = channel.version_for(ApiKey::kListOffsets);
    for (const std::int64_t timestamp :
         {protocol::kEarliestLocalTimestamp, protocol::kLatestTieredTimestamp}) {
      const std::int16_t needs = protocol::list_offsets_min_version(timestamp);
      if (speaks < needs) {
        for (auto& [key, b] : out) {
          b.why.push_back(fmt::format(
              "broker {} speaks ListOffsets up to v{}; timestamp {} needs v{} ({})", leader, speaks,
              timestamp, needs, needs == 9 ? "KIP-1005, Kafka 3.9" : "KIP-405, Kafka 3.4"));
          if (timestamp == protocol::kEarliestLocalTimestamp) b.predates_tiered_storage = true;
        }
        continue;
      }
      std::vector<protocol::OffsetQuery> queries = partitions;
      for (auto& q : queries)
        q.timestamp = timestamp;
      const auto response = protocol::ListOffsetsResponse::from(
          channel.send(ApiKey::kListOffsets, speaks, protocol::make_list_offsets_request(queries)));
      for (const auto& o : response.partitions) {
        auto it = out.find({o.topic, o.partition});
        if (it == out.end()) continue;
        if (o.error_code != 0) {
          it->second.why.push_back(fmt::format("broker {} answered ListOffsets {} with {}", leader,
                                               timestamp, protocol::error_code_name(o.error_code)));
          continue;
        }
        (timestamp == protocol::kEarliestLocalTimestamp ? it->second.earliest_local
                                                        : it->second.latest_tiered) = o;
      }
    }
  } catch (const ClusterError&) {
    brokers_.erase(leader);
    throw;
  }
  for (auto& [key, b] : out)
    if (!b.predates_tiered_storage && !b.earliest_local && b.why.empty())
      b.why.push_back(fmt::format("broker {} did not answer ListOffsets -4 for {}-{}", leader,
                                  key.first, key.second));
  return out;
}

namespace {
// FindHangingTransactionsCommand.MAX_BATCH_SIZE: partitions per DescribeProducers request.
constexpr std::size_t kDescribeProducersBatch = 500;
}  // namespace

std::vector<protocol::PartitionProducers> ClusterClient::describe_producers(
    const std::vector<protocol::PartitionQuery>& partitions, std::optional<std::int32_t> broker_id,
    const live::ClusterView& view) {
  std::vector<protocol::PartitionProducers> out;
  const auto unanswered = [&](const protocol::PartitionQuery& q, std::string why) {
    out.push_back({q.topic, q.partition, -1, std::move(why), {}});
  };
  // Admin.describeProducers sends to the leader unless a broker is named
  // (DescribeProducersHandler: PartitionLeaderStrategy or StaticBrokerStrategy).
  std::map<std::int32_t, std::vector<protocol::PartitionQuery>> by_broker;
  const auto index = live::partitions_by_key(view);
  for (const auto& q : partitions) {
    if (broker_id) {
      by_broker[*broker_id].push_back(q);
      continue;
    }
    const auto it = index.find({q.topic, q.partition});
    if (it == index.end()) {
      unanswered(q, "not in the cluster's metadata");
    } else if (!it->second->has_leader()) {
      unanswered(q, "no leader");
    } else {
      by_broker[it->second->leader].push_back(q);
    }
  }
  for (const auto& [id, queries] : by_broker) {
    for (std::size_t at = 0; at < queries.size(); at += kDescribeProducersBatch) {
      const std::vector<protocol::PartitionQuery> batch(
          queries.begin() + static_cast<std::ptrdiff_t>(at),
          queries.begin() +
              static_cast<std::ptrdiff_t>(std::min(queries.size(), at + kDescribeProducersBatch)));
      try {
        auto answer = protocol::describe_producers_from(broker(id).send(
            ApiKey::kDescribeProducers, protocol::make_describe_producers_request(batch)));
        std::set<std::pair<std::string, std::int32_t>> answered;
        for (auto& p : answer) {
          answered.insert({p.topic, p.partition});
          out.push_back(std::move(p));
        }
        for (const auto& q : batch)
          if (!answered.contains({q.topic, q.partition}))
            unanswered(q, fmt::format("broker {} did not answer for it", id));
      } catch (const ClusterError& e) {
        brokers_.erase(id);
        for (const auto& q : batch)
          unanswered(q, fmt::format("broker {}: {}", id, e.what()));
      }
    }
  }
  return out;
}

ClusterClient::TransactionListings ClusterClient::list_transactions(
    const std::vector<std::int64_t>& producer_ids) {
  TransactionListings out;
  // Admin.listTransactions asks every broker of the metadata (ListTransactionsHandler with
  // AllBrokersStrategy): each answers for the coordinator partitions it leads.
  std::vector<std::int32_t> ids;
  for (const auto& [id, address] : addresses_)
    ids.push_back(id);
  for (auto id : ids) {
    try {
      const auto answer = protocol::list_transactions_from(broker(id).send(
          ApiKey::kListTransactions, protocol::make_list_transactions_request(producer_ids)));
      if (answer.error_code != 0) {
        out.complete = false;
        out.warnings.push_back(fmt::format("ListTransactions on broker {}: {}", id,
                                           protocol::error_code_name(answer.error_code)));
        continue;
      }
      out.transactions.insert(out.transactions.end(), answer.transactions.begin(),
                              answer.transactions.end());
    } catch (const ClusterError& e) {
      brokers_.erase(id);
      out.complete = false;
      out.warnings.push_back(warning(fmt::format("ListTransactions on broker {}", id), e));
    }
  }
  return out;
}

std::vector<protocol::TransactionDescription> ClusterClient::describe_transactions(
    const std::vector<std::string>& transactional_ids, std::vector<std::string>& warnings) {
  std::vector<protocol::TransactionDescription> out;
  const auto unanswered = [&](const std::string& id, const std::string& why) {
    protocol::TransactionDescription d;
    d.error_code = -1;
    d.transactional_id = id;
    out.push_back(std::move(d));
    warnings.push_back(fmt::format("DescribeTransactions of {}: {}", id, why));
  };
  if (transactional_ids.empty()) return out;
  std::map<std::int32_t, std::vector<std::string>> by_coordinator;
  for (const auto& [id, node] :
       find_coordinators(protocol::kTransactionCoordinator, transactional_ids,
                         "DescribeTransactions", warnings)) {
    if (node) {
      by_coordinator[*node].push_back(id);
    } else {
      protocol::TransactionDescription d;
      d.error_code = -1;
      d.transactional_id = id;
      out.push_back(std::move(d));
    }
  }
  for (const auto& [node, ids] : by_coordinator) {
    try {
      auto answer = protocol::describe_transactions_from(broker(node).send(
          ApiKey::kDescribeTransactions, protocol::make_describe_transactions_request(ids)));
      std::set<std::string> answered;
      for (auto& d : answer) {
        answered.insert(d.transactional_id);
        out.push_back(std::move(d));
      }
      for (const auto& id : ids)
        if (!answered.contains(id)) unanswered(id, fmt::format("broker {} did not answer", node));
    } catch (const ClusterError& e) {
      brokers_.erase(node);
      for (const auto& id : ids)
        unanswered(id, fmt::format("broker {}: {}", node, e.what()));
    }
  }
  return out;
}

std::map<std::string, std::optional<std::int32_t>> ClusterClient::find_coordinators(
    std::int8_t key_type, const std::vector<std::string>& keys, std::string_view what,
    std::vector<std::string>& warnings) {
  std::map<std::string, std::optional<std::int32_t>> out;
  const auto unanswered = [&](const std::string& key, const std::string& why) {
    out[key] = std::nullopt;
    warnings.push_back(fmt::format("{} of {}: {}", what, key, why));
  };
  if (keys.empty()) return out;
  if (!main_) {
    for (const auto& key : keys)
      unanswered(key, "the metadata channel failed");
    return out;
  }
  const auto version = main_->usable_version(ApiKey::kFindCoordinator);
  std::vector<protocol::Coordinator> found;
  try {
    if (!version) throw ClusterError(main_->peer(), "the broker does not speak FindCoordinator");
    if (*version >= 4) {
      found = protocol::coordinators_from(
          main_->send(ApiKey::kFindCoordinator,
                      protocol::make_find_coordinator_request(*version, key_type, keys)),
          "");
    } else {
      for (const auto& key : keys) {
        auto one = protocol::coordinators_from(
            main_->send(ApiKey::kFindCoordinator,
                        protocol::make_find_coordinator_request(*version, key_type, {key})),
            key);
        found.insert(found.end(), one.begin(), one.end());
      }
    }
  } catch (const ClusterError& e) {
    main_.reset();
    for (const auto& key : keys)
      unanswered(key, fmt::format("FindCoordinator: {}", e.what()));
    return out;
  }
  for (const auto& c : found) {
    if (c.error_code != 0) {
      unanswered(c.key,
                 fmt::format("FindCoordinator: {}", protocol::error_code_name(c.error_code)));
      continue;
    }
    // A coordinator not in our metadata (it joined since) is still reachable.
    if (!addresses_.contains(c.node_id))
      addresses_[c.node_id] = BrokerAddress{c.host, static_cast<std::uint16_t>(c.port)};
    out[c.key] = c.node_id;
  }
  for (const auto& key : keys)
    if (!out.contains(key)) unanswered(key, "FindCoordinator did not answer for it");
  return out;
}

ClusterClient::GroupListings ClusterClient::list_groups() {
  GroupListings out;
  // Admin.listGroups asks every broker (ListGroupsHandler over AllBrokersStrategy): each
  // lists the groups of the __consumer_offsets partitions it leads.
  std::vector<std::int32_t> ids;
  for (const auto& [id, address] : addresses_)
    ids.push_back(id);
  std::set<std::string> seen;
  for (auto id : ids) {
    try {
      const auto answer = protocol::list_groups_from(
          broker(id).send(ApiKey::kListGroups, protocol::make_list_groups_request()));
      if (answer.error_code != 0) {
        out.complete = false;
        out.warnings.push_back(fmt::format("ListGroups on broker {}: {}", id,
                                           protocol::error_code_name(answer.error_code)));
        continue;
      }
      for (const auto& g : answer.groups)
        if (seen.insert(g.group_id).second) out.groups.push_back(g);
    } catch (const ClusterError& e) {
      brokers_.erase(id);
      out.complete = false;
      out.warnings.push_back(warning(fmt::format("ListGroups on broker {}", id), e));
    }
  }
  std::sort(out.groups.begin(), out.groups.end(),
            [](const auto& a, const auto& b) { return a.group_id < b.group_id; });
  return out;
}

std::vector<protocol::GroupOffsets> ClusterClient::committed_offsets(
    const std::vector<std::string>& groups, std::vector<std::string>& warnings) {
  std::vector<protocol::GroupOffsets> out;
  std::map<std::int32_t, std::vector<std::string>> by_coordinator;
  for (const auto& [group, node] :
       find_coordinators(protocol::kGroupCoordinator, groups, "OffsetFetch", warnings)) {
    if (node) {
      by_coordinator[*node].push_back(group);
    } else {
      out.push_back({group, -1, {}});
    }
  }
  for (const auto& [node, ids] : by_coordinator) {
    try {
      BrokerChannel& channel = broker(node);
      // v10 names topics by id only; v9 keeps the names (and the v8+ batch).
      const std::int16_t version =
          std::min<std::int16_t>(channel.version_for(ApiKey::kOffsetFetch), 9);
      std::vector<std::vector<std::string>> requests;
      if (version >= 8) {
        requests.push_back(ids);
      } else {
        for (const auto& g : ids)
          requests.push_back({g});
      }
      for (const auto& r : requests) {
        auto answer = protocol::offset_fetch_from(
            channel.send(ApiKey::kOffsetFetch, version,
                         protocol::make_offset_fetch_request(version, r)),
            r.front());
        std::set<std::string> answered;
        for (auto& g : answer) {
          answered.insert(g.group_id);
          out.push_back(std::move(g));
        }
        for (const auto& g : r)
          if (!answered.contains(g)) {
            out.push_back({g, -1, {}});
            warnings.push_back(
                fmt::format("OffsetFetch of {}: broker {} did not answer for it", g, node));
          }
      }
    } catch (const ClusterError& e) {
      brokers_.erase(node);
      for (const auto& g : ids) {
        out.push_back({g, -1, {}});
        warnings.push_back(fmt::format("OffsetFetch of {}: broker {}: {}", g, node, e.what()));
      }
    }
  }
  std::sort(out.begin(), out.end(),
            [](const auto& a, const auto& b) { return a.group_id < b.group_id; });
  return out;
}

}  // namespace kepoch::cluster

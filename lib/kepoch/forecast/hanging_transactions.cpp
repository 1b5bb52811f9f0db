#include "kepoch/forecast/hanging_transactions.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "kepoch/base/error.hpp"
#include "kepoch/storage/consumer_view.hpp"
#include "kepoch/storage/log_dir.hpp"
#include "kepoch/storage/partition_replica.hpp"

namespace kepoch::forecast {
namespace {

// A word as a POSIX shell reads it back.
std::string shell_word(std::string_view s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                        "0123456789_./:@,=+-") == std::string_view::npos)
    return std::string(s);
  std::string out = "'";
  for (char c : s)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

bool lists_partition(const TransactionalIdState& s, const std::string& topic,
                     std::int32_t partition) {
  return std::find(s.partitions.begin(), s.partitions.end(), std::pair{topic, partition}) !=
         s.partitions.end();
}

}  // namespace

bool CoordinatorKnowledge::complete() const {
  if (!partition_count) return false;
  for (std::int32_t p = 0; p < *partition_count; ++p)
    if (!state.partitions_read().count(p)) return false;
  return true;
}

bool PartitionTransactions::danger() const {
  if (!known) return lost_markers > 0;
  for (const auto& t : open)
    if (t.hanging.value_or(t.marker_lost)) return true;
  return false;
}

std::string abort_command(std::string_view bootstrap, const std::string& topic,
                          std::int32_t partition, std::int64_t start_offset) {
  return fmt::format(
      "kafka-transactions.sh --bootstrap-server {} abort --topic {} --partition {} "
      "--start-offset {}",
      shell_word(bootstrap), shell_word(topic), partition, start_offset);
}

PartitionTransactions judge_transactions(
    const std::string& topic, std::int32_t partition,
    const std::optional<std::vector<OpenTransaction>>& open, const std::string& source,
    const std::vector<std::pair<std::int64_t, std::int64_t>>& lost_markers,
    const CoordinatorKnowledge* coordinator, std::string_view bootstrap) {
  PartitionTransactions out;
  out.topic = topic;
  out.partition = partition;
  out.source = source;
  out.known = open.has_value();
  out.lost_markers = lost_markers.size();
  if (!open) return out;
  for (const auto& txn : *open) {
    TransactionForecast f;
    f.transaction = txn;
    for (const auto& [pid, at] : lost_markers)
      if (pid == txn.producer_id && at >= txn.first_offset &&
          (!f.lost_marker_offset || at < *f.lost_marker_offset))
        f.lost_marker_offset = at;
    f.marker_lost = f.lost_marker_offset.has_value();
    f.abort_command = abort_command(bootstrap, topic, partition, txn.first_offset);
    if (!coordinator) {
      f.coordinator = Tracking::unknown;
      f.reason =
          "no __transaction_state was given: whether the coordinator still tracks this "
          "transaction is not known";
    } else if (const TransactionalIdState* s = coordinator->state.by_producer(txn.producer_id)) {
      f.transactional_id = s->transactional_id;
      f.coordinator_state = s->state;
      if (lists_partition(*s, topic, partition)) {
        f.coordinator = Tracking::tracked;
        f.hanging = false;
        f.reason = fmt::format(
            "transactional id {} is {} with this partition: the coordinator will write its "
            "marker (or abort it at its timeout)",
            s->transactional_id, s->state);
      } else {
        f.coordinator = Tracking::not_tracked;
        f.hanging = true;
        f.reason = fmt::format(
            "transactional id {} is {} and does not list this partition: no marker will come",
            s->transactional_id, s->state);
      }
    } else if (coordinator->complete()) {
      f.coordinator = Tracking::not_tracked;
      f.hanging = true;
      f.reason = fmt::format(
          "no transactional id has producer id {} in any of the {} partitions of "
          "__transaction_state: no coordinator will end it",
          txn.producer_id, *coordinator->partition_count);
    } else {
      f.coordinator = Tracking::unknown;
      f.reason = fmt::format(
          "producer id {} is not the current producer of any transactional id in the "
          "__transaction_state partitions read ({} of {}): its coordinator may be in another",
          txn.producer_id, coordinator->state.partitions_read().size(),
          coordinator->partition_count ? std::to_string(*coordinator->partition_count)
                                       : std::string("an unknown number"));
    }
    if (f.hanging == true)
      ++out.hanging;
    else if (!f.hanging)
      ++out.unknown;
    if (!out.last_stable_offset || txn.first_offset < *out.last_stable_offset)
      out.last_stable_offset = txn.first_offset;
    out.open.push_back(std::move(f));
  }
  return out;
}

CoordinatorKnowledge read_coordinator(const std::vector<const PartitionReplica*>& leaders,
                                      const std::vector<std::filesystem::path>& paths,
                                      std::optional<std::int32_t> partition_count) {
  constexpr std::string_view kTopic = "__transaction_state";
  std::map<std::int32_t, const PartitionReplica*> chosen;
  // A leader read from a log dir snapshot has no records to read: that partition stays unread
  // (the coordinator's state incomplete, so unknown), not the forecast failed.
  for (const PartitionReplica* r : leaders)
    if (r->topic == kTopic && !r->stored) chosen[r->partition] = r;
  std::map<std::int32_t, PartitionReplica> found;
  auto consider = [&](const std::filesystem::path& dir, std::int32_t partition) {
    if (chosen.count(partition)) return;
    PartitionReplica r = load_partition_replica(dir, {}, LoadDepth::tail);
    auto it = found.find(partition);
    if (it == found.end() || r.log_end_offset > it->second.log_end_offset)
      found.insert_or_assign(partition, std::move(r));
  };
  for (const auto& path : paths) {
    const PartitionDirParse name = parse_partition_dir_name(path.filename().string());
    if (name.name && name.name->topic == kTopic && name.name->state == PartitionDirState::normal) {
      consider(path, name.name->partition);
      continue;
    }
    if (!holds_log_dir_files(path))
      throw InputError(path.string(),
                       "not a log dir (no checkpoint files) nor a __transaction_state-N replica "
                       "dir");
    const LogDirListing listing = list_log_dir(path);  // of_kind points into it
    for (const LogDirEntry* e : listing.of_kind(LogDirEntryKind::replica))
      if (e->partition && e->partition->topic == kTopic &&
          e->partition->state == PartitionDirState::normal)
        consider(e->path, e->partition->partition);
  }
  CoordinatorKnowledge k;
  k.partition_count = partition_count;
  for (const auto& [partition, r] : found)
    chosen[partition] = &r;
  for (const auto& [partition, r] : chosen)
    k.state.read_replica(*r);
  return k;
}

PartitionTransactions forecast_transactions(const PartitionPrediction& p,
                                            const CoordinatorKnowledge* coordinator,
                                            std::string_view bootstrap) {
  const PartitionReplica& leader = p.replicas.front();
  ReplicaOpenTransactions read;
  try {
    read = replica_open_transactions(leader);
  } catch (const InputError& e) {
    read.open.reset();
    read.why = fmt::format("the leader's producer state could not be rebuilt: {}", e.what());
  }
  std::vector<std::pair<std::int64_t, std::int64_t>> lost;
  std::string source = read.open ? read.source : read.why;
  for (const auto& f : p.followers) {
    if (f.forecasts.empty()) continue;
    const ReplicaForecast& main = f.forecasts.front();
    if (!main.removed_range) continue;
    const PartitionReplica& follower = p.replicas[f.replica];
    std::optional<std::vector<TransactionBatch>> batches;
    try {
      batches = transaction_batches_from(follower, main.removed_range->first);
    } catch (const InputError&) {
      batches.reset();
    }
    if (!batches) {
      source += fmt::format(
          "; {}: the markers its truncation removes are not known (its "
          "removed batches could not be read)",
          follower.dir.string());
      continue;
    }
    for (const auto& b : *batches)
      if (b.control && b.base_offset >= main.removed_range->first)
        lost.emplace_back(b.producer_id, b.base_offset);
  }
  return judge_transactions(leader.topic, leader.partition, read.open, source, lost, coordinator,
                            bootstrap);
}

}  // namespace kepoch::forecast

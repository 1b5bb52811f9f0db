#include "kepoch/forecast/live_remote_log_metadata.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <regex>

#include "kepoch/base/error.hpp"
#include "kepoch/cluster/cluster_client.hpp"
#include "kepoch/cluster/cluster_error.hpp"
#include "kepoch/format/record_batch.hpp"
#include "kepoch/storage/segment_dump.hpp"

namespace kepoch::forecast {
namespace {

constexpr std::string_view kRemoteLogMetadataTopic = "__remote_log_metadata";

void unknown(LiveRemoteLogMetadata& out, std::string why) {
  if (out.complete) out.unknown_reason = std::move(why);
  out.complete = false;
}

}  // namespace

// Each record of one fetched batch entry (control batches hold none of the topic's records).
void add_fetched_entry(LiveRemoteLogMetadata& out, std::int32_t partition,
                       std::span<const std::uint8_t> entry, bool keep_records) {
  DumpedBatch batch;
  batch.header = read_batch_header(entry, 0);
  if (batch.header.is_control()) return;
  batch.unwalked = entry;
  walk_records(batch, [&](const Record& r, const DumpedControl*, const DumpedCoordinator*) {
    ++out.record_count;
    LiveRemoteLogMetadataRecord got{partition, r.offset, std::nullopt, {}};
    if (!r.value) {
      got.error = "the value is null (RemoteLogMetadataSerde reads a value)";
    } else {
      try {
        got.record = decode_remote_log_metadata_record(*r.value, 0);
        if (got.record->metadata) add_remote_log_metadata(out.indexes, *got.record->metadata);
      } catch (const FormatError& e) {
        got.error = fmt::format("at byte {} of the value: {}", e.position(), e.what());
      }
    }
    if (!got.error.empty()) {
      ++out.errors;
      out.indexes.problems.push_back(
          {fmt::format("{}-{} (live)", kRemoteLogMetadataTopic, partition), "error",
           fmt::format("record at offset {}: {} (Kafka's RemoteLogMetadataSerde refuses it)",
                       r.offset, got.error),
           "remote-log-metadata-unreadable"});
    }
    if (keep_records) out.records.push_back(std::move(got));
  });
  if (batch.records_error)
    unknown(out,
            fmt::format("{}-{}: a batch at offset {} does not read: {}", kRemoteLogMetadataTopic,
                        partition, batch.header.base_offset, *batch.records_error));
}

LiveRemoteLogMetadata read_live_remote_log_metadata(cluster::ClusterClient& client,
                                                    bool keep_records,
                                                    const std::vector<std::int32_t>& partitions) {
  LiveRemoteLogMetadata out;
  const std::string topic_name(kRemoteLogMetadataTopic);
  live::ClusterView view;
  try {
    view =
        client.read_view(cluster::ViewRequest{std::regex(topic_name), false, false, true, false});
  } catch (const cluster::ClusterError& e) {
    unknown(out, fmt::format("{}: {}", topic_name, e.what()));
    return out;
  }
  out.warnings = view.warnings;
  const live::TopicView* topic = view.find_topic(topic_name);
  if (!topic) {
    unknown(out, fmt::format("the cluster's metadata shows no topic {} (tiered storage off, or "
                             "not described to this principal)",
                             topic_name));
    return out;
  }
  for (const auto& p : topic->partitions) {
    if (!partitions.empty() &&
        std::find(partitions.begin(), partitions.end(), p.partition) == partitions.end())
      continue;
    const std::string where = fmt::format("{}-{}", topic_name, p.partition);
    if (!p.has_leader()) {
      unknown(out, where + " has no leader");
      continue;
    }
    if (!p.log_start_offset || !p.high_watermark) {
      unknown(out, where + ": its log start or high watermark could not be read (ListOffsets)");
      continue;
    }
    try {
      const cluster::LeaderBatches got = client.leader_batches(
          p.leader, topic_name, topic->topic_id, p.partition, p.leader_epoch, *p.log_start_offset,
          std::numeric_limits<std::int64_t>::max(), /*keep_entries=*/true);
      for (const auto& entry : got.entries)
        add_fetched_entry(out, p.partition, entry, keep_records);
      // Read up to the high watermark the Fetch answered: every record a consumer reads.
      if (got.read_until<got.high_watermark&& * p.high_watermark> * p.log_start_offset)
        unknown(out, fmt::format("{}: read stopped at offset {} below the high watermark {}{}",
                                 where, got.read_until, got.high_watermark,
                                 got.notes.empty() ? "" : ": " + got.notes.back()));
      out.partitions_read.push_back(p.partition);
      out.indexes.metadata_partitions.push_back(where + " (live)");
    } catch (const cluster::ClusterError& e) {
      unknown(out, fmt::format("{}: {}", where, e.what()));
    }
  }
  std::stable_sort(out.records.begin(), out.records.end(), [](const auto& a, const auto& b) {
    return std::tie(a.partition, a.offset) < std::tie(b.partition, b.offset);
  });
  return out;
}

}  // namespace kepoch::forecast

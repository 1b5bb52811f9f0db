#include "kepoch/report/salvage_report.hpp"

#include <fmt/format.h>

#include "kepoch/forecast/salvage_archive.hpp"
#include "kepoch/report/summary.hpp"

namespace kepoch::report {
namespace {

Value counts_value(const forecast::SalvageCounts& c) {
  return Value::object()
      .set("records", c.records)
      .set("data", c.data)
      .set("committed_transaction", c.committed_transaction)
      .set("aborted", c.aborted)
      .set("open", c.open)
      .set("control", c.control)
      .set("committed", c.committed)
      .set("committed_unknown", c.committed_unknown)
      .set("on_new_leader", c.present)
      .set("on_new_leader_unknown", c.present_unknown)
      .set("to_replay", c.to_replay);
}

Value range_value(const std::optional<std::pair<std::int64_t, std::int64_t>>& r) {
  if (!r) return Value();
  return Value::object().set("first", r->first).set("last", r->second);
}

std::string records(std::uint64_t n) {
  return fmt::format("{} record{}", n, n == 1 ? "" : "s");
}

}  // namespace

bool salvage_needs_replay(const forecast::SalvageResult& result) {
  return result.totals.to_replay > 0;
}

Value salvage_value(const forecast::SalvageResult& result, std::string_view archive) {
  Value partitions = Value::array();
  for (const auto& p : result.partitions) {
    Value replicas = Value::array();
    for (const auto& r : p.replicas)
      replicas.push(Value::object()
                        .set("dir", r.replica->dir.string())
                        .set("truncate_to", r.truncate_to)
                        .set("removed_range", range_value(r.removed_range))
                        .set("removed_records", r.removed_records)
                        .set("archived", counts_value(r.counts))
                        .set("archived_from_an_earlier_replica", r.archived_before));
    partitions.push(Value::object()
                        .set("topic", p.topic)
                        .set("partition", p.partition)
                        .set("leader", p.leader)
                        .set("leader_read", p.leader_read)
                        .set("replicas", std::move(replicas)));
  }
  return Value::object()
      .set("archive", std::string(archive))
      .set("format", std::string(forecast::kSalvageFormat))
      .set("version", forecast::kSalvageVersion)
      .set("totals", counts_value(result.totals))
      .set("partitions", std::move(partitions))
      .set("replay_changes",
           "replayed records are new records: they get new offsets after every record written "
           "since, new producer ids and sequences, and the header kepoch.salvaged.from "
           "names where they were; consumers past the cut read them as new data, in their "
           "original order, and a consumer that had read them before the truncation reads "
           "them again");
}

std::string salvage_summary(const forecast::SalvageResult& result, std::string_view archive) {
  const auto& t = result.totals;
  if (t.records == 0)
    return "No record is removed: the forecast truncation removes nothing, so the archive holds "
           "none.";
  const std::uint64_t not_data = t.aborted + t.control + t.open;
  std::string kinds;
  if (not_data > 0)
    kinds = fmt::format(" ({} aborted, {} open, {} control)", t.aborted, t.open, t.control);
  if (!salvage_needs_replay(result))
    return fmt::format(
        "No data is lost: the {} removed{} are on the new leader already or not data a "
        "consumer reads; kept in {} all the same.",
        records(t.records), kinds, archive);
  const std::string which =
      t.to_replay == t.records
          ? fmt::format("All {} removed{}", records(t.records), kinds)
          : fmt::format("{} of the {} removed{}", t.to_replay, records(t.records), kinds);
  return fmt::format(
      "{} would be lost and {} not on the new leader: kept in {}; after the restart, `kepoch "
      "replay {}` produces them back{}.",
      which, t.to_replay == 1 ? "is" : "are", archive, archive,
      t.committed > 0 ? fmt::format(" ({} committed)", t.committed) : std::string());
}

}  // namespace kepoch::report

#include "kepoch/report/diff_report.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "kepoch/report/common_values.hpp"

namespace kepoch::report {
namespace {

constexpr std::int64_t kTimelineWidth = 60;

char epoch_char(std::int32_t epoch) {
  constexpr std::string_view kDigits = "0123456789abcdefghijklmnopqrstuvwxyz";
  return epoch >= 0 && epoch < 36 ? kDigits[static_cast<std::size_t>(epoch)] : '#';
}

Value range_value(const std::optional<OffsetRange>& r) {
  return r ? Value::object().set("first", r->first).set("last", r->last) : Value();
}

Value timeline(const std::vector<PartitionReplica>& replicas,
               const std::vector<ReplicaComparison>& comparisons) {
  std::int64_t lo = replicas.front().loaded.log_start_offset, hi = 0;
  std::size_t name_width = 0;
  for (const auto& r : replicas) {
    lo = std::min(lo, r.loaded.log_start_offset);
    hi = std::max(hi, r.log_end_offset);
    name_width = std::max(name_width, r.dir.string().size());
  }
  const std::int64_t span = std::max<std::int64_t>(hi - lo, 1);
  const std::int64_t width = std::min(span, kTimelineWidth);
  auto column_start = [&](std::int64_t c) { return lo + c * span / width; };
  Value lines = Value::array();
  for (const auto& r : replicas) {
    std::string bar;
    for (std::int64_t c = 0; c < width; ++c) {
      const std::int64_t o = column_start(c);
      const auto epoch = r.loaded.cache.epoch_for_offset(o);
      const bool held = o >= r.loaded.log_start_offset && o < r.log_end_offset;
      bar += !held ? ' ' : epoch ? epoch_char(*epoch) : '?';
    }
    lines.push(fmt::format("{:<{}}  |{}|  offsets {}..{}", r.dir.string(), name_width, bar,
                           r.loaded.log_start_offset, r.log_end_offset));
  }
  std::optional<std::int64_t> fork;
  for (const auto& c : comparisons) {
    for (auto f : {c.fork_by_batches, c.fork_by_epochs})
      if (f && (!fork || *f < *fork)) fork = f;
  }
  if (fork) {
    std::int64_t col = 0;
    while (col + 1 < width && column_start(col + 1) <= *fork)
      ++col;
    lines.push(fmt::format("{:<{}}   {}^ fork at offset {}", "", name_width,
                           std::string(static_cast<std::size_t>(col), ' '), *fork));
  }
  return lines;
}

}  // namespace

Value diff_value(const std::vector<PartitionReplica>& replicas, std::size_t reference,
                 const std::vector<ReplicaComparison>& comparisons) {
  Value list = Value::array();
  for (const auto& r : replicas) {
    list.push(Value::object()
                  .set("dir", r.dir.string())
                  .set("log_start_offset", r.loaded.log_start_offset)
                  .set("log_end_offset", r.log_end_offset)
                  .set("high_watermark", optional_value(r.high_watermark))
                  .set("epochs", epochs_value(r.loaded.cache.entries())));
  }
  Value comps = Value::array();
  for (const auto& c : comparisons) {
    Value batches = Value::array();
    for (const auto& b : c.differing_batches) {
      batches.push(Value::object()
                       .set("base_offset", b.base_offset)
                       .set("last_offset", b.last_offset)
                       .set("crc", b.crc)
                       .set("other_crc", optional_value(b.other_crc)));
    }
    Value comp = Value::object()
                     .set("dir", replicas[c.replica].dir.string())
                     .set("against", replicas[c.reference].dir.string())
                     .set("identical", c.identical())
                     .set("fork_offset_by_epochs", optional_value(c.fork_by_epochs))
                     .set("fork_offset_by_batches", optional_value(c.fork_by_batches))
                     .set("differing_batches", std::move(batches))
                     .set("only_here", range_value(c.only_here))
                     .set("only_there", range_value(c.only_there))
                     .set("unanswered", strings_value(c.unanswered))
                     .set("batches_compared_from", c.batches_compared_from)
                     .set("notes", strings_value(c.notes));
    // Only when more than the divergent tail was read (or --full asked for it), so the
    // report of the usual case is unchanged.
    if (c.read_whole) comp.set("read_whole", *c.read_whole);
    comps.push(std::move(comp));
  }
  const auto& ref = replicas[reference];
  return Value::object()
      .set("topic", ref.topic)
      .set("partition", ref.partition)
      .set("reference", ref.dir.string())
      .set("replicas", std::move(list))
      .set("comparisons", std::move(comps))
      .set("timeline", timeline(replicas, comparisons));
}

}  // namespace kepoch::report

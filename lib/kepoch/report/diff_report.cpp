#include "kepoch/report/diff_report.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "kepoch/report/common_values.hpp"
#include "kepoch/report/timeline.hpp"

namespace kepoch::report {
namespace {

Value range_value(const std::optional<OffsetRange>& r) {
  return r ? Value::object().set("first", r->first).set("last", r->last) : Value();
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
      .set("timeline", timeline_value(replicas, reference, comparisons));
}

}  // namespace kepoch::report

#include "kepoch/storage/transaction_log_state.hpp"

#include <fmt/format.h>

#include "kepoch/base/error.hpp"
#include "kepoch/storage/segment_dump.hpp"

namespace kepoch {
namespace {

const SchemaValue* member(const SchemaValue& v, std::string_view name) {
  for (const auto& m : v.members)
    if (m.name == name) return &m.value;
  return nullptr;
}

std::int64_t integer_of(const SchemaValue& v, std::string_view name, std::int64_t otherwise) {
  const SchemaValue* m = member(v, name);
  return m && m->kind == SchemaValue::Kind::integer ? m->integer : otherwise;
}

}  // namespace

void TransactionLogState::apply(const CoordinatorRecord& r, std::int64_t offset,
                                const std::string& source) {
  if (!r.type || r.type->name != "TransactionLog") return;
  const SchemaValue* id = member(r.key, "transactional_id");
  if (!id || id->kind != SchemaValue::Kind::text) return;
  if (!r.value_version) {  // a tombstone: the transactional id expired
    ids_.erase(id->text);
    return;
  }
  TransactionalIdState s;
  s.transactional_id = id->text;
  s.producer_id = integer_of(r.value, "producer_id", -1);
  s.producer_epoch = static_cast<std::int16_t>(integer_of(r.value, "producer_epoch", -1));
  s.state = transaction_state_name(integer_of(r.value, "transaction_status", -1));
  if (const SchemaValue* parts = member(r.value, "transaction_partitions"))
    for (const auto& tp : parts->items) {
      const SchemaValue* topic = member(tp, "topic");
      const SchemaValue* ids = member(tp, "partition_ids");
      if (!topic || !ids) continue;
      for (const auto& p : ids->items)
        s.partitions.emplace_back(topic->text, static_cast<std::int32_t>(p.integer));
    }
  s.offset = offset;
  s.source = source;
  ids_[s.transactional_id] = std::move(s);
}

void TransactionLogState::read_replica(const PartitionReplica& replica) {
  if (replica.stored)
    throw InputError(replica.dir.string(),
                     "a log dir snapshot keeps no records of __transaction_state: give the "
                     "log dir itself");
  const std::string source = replica.dir.string();
  read_[replica.partition] = source;
  SegmentDumpOptions options;
  options.records = true;
  options.walk_records = true;
  options.coordinator = CoordinatorLog::transactions;
  options.from_offset = replica.loaded.log_start_offset;
  for (const auto& segment : replica.segments) {
    bool past_end = false;
    dump_segment(segment.file, options, [&](DumpedBatch& b) {
      if (past_end || b.header.next_offset() > replica.log_end_offset) {
        past_end = true;  // cut by recovery: Kafka loads no further
        return;
      }
      if (b.header.is_control()) return;
      walk_records(b, [&](const Record& rec, const DumpedControl*, const DumpedCoordinator* c) {
        if (!c) return;
        if (c->error) throw InputError(segment.file.string(), *c->error);
        if (c->record) apply(*c->record, rec.offset, source);
      });
      if (b.records_error)
        throw InputError(segment.file.string(),
                         fmt::format("batch at byte {}: {}", b.header.position, *b.records_error));
    });
    if (past_end) break;
  }
}

const TransactionalIdState* TransactionLogState::by_producer(std::int64_t producer_id) const {
  for (const auto& [id, s] : ids_)
    if (s.producer_id == producer_id) return &s;
  return nullptr;
}

}  // namespace kepoch

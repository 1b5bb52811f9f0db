#include "kepoch/report/index_report.hpp"

#include <fmt/format.h>

namespace kepoch::report {
namespace {

std::string_view severity_name(IndexFinding::Severity s) {
  // The shared diagnostics list knows errors and warnings; kepoch's notes (an untrimmed,
  // zero-padded index) are warnings there.
  return s == IndexFinding::Severity::error ? "error" : "warning";
}

Value finding_value(const IndexFinding& f) {
  return Value::object()
      .set("severity", severity_name(f.severity))
      .set("position", f.position)
      .set("message", f.message);
}

Value failure_value(const IndexCheckFailure& f, std::string_view severity,
                    const std::string& message) {
  return Value::object()
      .set("severity", severity)
      .set("position", f.position)
      .set("message", message)
      .set("kafka_exception", f.exception)
      .set("kafka_message", f.kafka_message);
}

// Entries Kafka counts but kepoch does not list: the zero padding of an untrimmed index.
template <typename Index>
std::size_t listed_entries(const Index& idx) {
  return idx.entries.size() - idx.zero_padding_entries;
}

// An index sanity check that fails only because of zero padding (a time index of an active
// or crashed segment) is a note on an untrimmed file; any other failure is damage.
template <typename Index>
std::string_view index_check_severity(const Index& idx, const IndexCheckFailure& f) {
  const std::uint64_t padding_start = listed_entries(idx) * Index::kEntrySize;
  return idx.zero_padding_entries > 0 && f.position >= padding_start &&
                 f.position < idx.entries.size() * Index::kEntrySize
             ? "warning"
             : "error";
}

struct Trailer {
  Value entry_count;
  Value valid_entries;
  Value zero_padding_entries;
  std::uint64_t trailing_bytes = 0;
  std::optional<IndexCheckFailure> failure;
  Value problems = Value::array();
};

template <typename Index>
Trailer index_trailer_of(const Index& idx, const std::string& file, std::string_view check_name) {
  Trailer t;
  t.entry_count = idx.entries.size();
  t.valid_entries = idx.valid_entries;
  t.zero_padding_entries = idx.zero_padding_entries;
  t.trailing_bytes = idx.trailing_bytes;
  for (const auto& f : idx.findings)
    t.problems.push(finding_value(f));
  t.failure = idx.sanity_check(file);
  if (t.failure) {
    t.problems.push(failure_value(
        *t.failure, index_check_severity(idx, *t.failure),
        fmt::format("Kafka's {} fails (DumpLogSegments --index-sanity-check and the remote "
                    "index cache run it; LogLoader does not)",
                    check_name)));
  }
  return t;
}

Trailer txn_trailer_of(const TransactionIndex& idx, const std::string& file) {
  Trailer t;
  t.entry_count = idx.entries.size();
  t.trailing_bytes = idx.trailing_bytes;
  for (const auto& f : idx.findings)
    t.problems.push(finding_value(f));
  t.failure = idx.sanity_check(file);
  if (t.failure) {
    const bool corrupt = t.failure->exception == kCorruptIndexException;
    t.problems.push(failure_value(
        *t.failure, "error",
        corrupt ? "Kafka's TransactionIndex.sanityCheck fails: LogLoader recovers the segment "
                  "and rebuilds its indexes"
                : "reading the index throws in Kafka: LogManager fails and the broker does not "
                  "start"));
  }
  return t;
}

Trailer snapshot_trailer_of(const ProducerSnapshot& s) {
  Trailer t;
  t.entry_count = s.entry_count ? Value(*s.entry_count) : Value();
  t.trailing_bytes = s.trailing_bytes;
  for (const auto& f : s.findings)
    t.problems.push(finding_value(f));
  t.failure = s.failure;
  if (t.failure) {
    t.problems.push(failure_value(*t.failure, "error",
                                  "Kafka's ProducerStateManager.readSnapshot fails: the broker "
                                  "deletes this snapshot and loads an older one"));
  }
  return t;
}

}  // namespace

Value index_fields(const std::string& file, const IndexFileDump& dump) {
  const auto& base = dump.target.base_offset;
  Value v = Value::object()
                .set("file", file)
                .set("kind", to_string(dump.target.kind))
                .set("base_offset", base ? Value(*base) : Value());
  if (const auto* s = std::get_if<ProducerSnapshot>(&dump.content)) {
    v.set("size", s->length)
        .set("version", s->version ? Value(*s->version) : Value())
        .set("crc", s->stored_crc ? Value(*s->stored_crc) : Value())
        .set("crc_valid", s->stored_crc && s->computed_crc
                              ? Value(*s->stored_crc == *s->computed_crc)
                              : Value());
  } else {
    std::visit([&](const auto& idx) { v.set("size", idx.length); }, dump.content);
  }
  return v;
}

void for_each_index_entry(const IndexFileDump& dump, const std::function<void(Value)>& emit) {
  if (const auto* idx = std::get_if<OffsetIndex>(&dump.content)) {
    for (std::size_t i = 0; i < listed_entries(*idx); ++i) {
      const auto& e = idx->entries[i];
      emit(Value::object().set("offset", e.offset).set("position", e.position));
    }
  } else if (const auto* tidx = std::get_if<TimeIndex>(&dump.content)) {
    for (std::size_t i = 0; i < listed_entries(*tidx); ++i) {
      const auto& e = tidx->entries[i];
      emit(Value::object().set("timestamp", e.timestamp).set("offset", e.offset));
    }
  } else if (const auto* xidx = std::get_if<TransactionIndex>(&dump.content)) {
    for (const auto& e : xidx->entries) {
      emit(Value::object()
               .set("version", e.version)
               .set("producer_id", e.producer_id)
               .set("first_offset", e.first_offset)
               .set("last_offset", e.last_offset)
               .set("last_stable_offset", e.last_stable_offset));
    }
  } else if (const auto* s = std::get_if<ProducerSnapshot>(&dump.content)) {
    for (const auto& e : s->entries) {
      emit(Value::object()
               .set("producer_id", e.producer_id)
               .set("producer_epoch", e.epoch)
               .set("last_sequence", e.last_sequence)
               .set("last_offset", e.last_offset)
               .set("offset_delta", e.offset_delta)
               .set("timestamp", e.timestamp)
               .set("coordinator_epoch", e.coordinator_epoch)
               .set("current_txn_first_offset", e.current_txn_first_offset));
    }
  }
}

Value index_trailer(const std::string& file, const IndexFileDump& dump) {
  Trailer t;
  if (const auto* idx = std::get_if<OffsetIndex>(&dump.content))
    t = index_trailer_of(*idx, file, "OffsetIndex.sanityCheck");
  else if (const auto* tidx = std::get_if<TimeIndex>(&dump.content))
    t = index_trailer_of(*tidx, file, "TimeIndex.sanityCheck");
  else if (const auto* xidx = std::get_if<TransactionIndex>(&dump.content))
    t = txn_trailer_of(*xidx, file);
  else if (const auto* s = std::get_if<ProducerSnapshot>(&dump.content))
    t = snapshot_trailer_of(*s);
  return Value::object()
      .set("entry_count", std::move(t.entry_count))
      .set("valid_entries", std::move(t.valid_entries))
      .set("zero_padding", std::move(t.zero_padding_entries))
      .set("trailing_bytes", t.trailing_bytes)
      .set("sanity_check", t.failure ? Value(t.failure->kafka_message) : Value())
      .set("problems", std::move(t.problems));
}

std::vector<std::string> index_table_columns(SegmentFileKind kind) {
  switch (kind) {
    case SegmentFileKind::index:
      return {"offset", "position"};
    case SegmentFileKind::timeindex:
      return {"timestamp", "offset"};
    case SegmentFileKind::txnindex:
      return {"version", "producer_id", "first_offset", "last_offset", "last_stable_offset"};
    case SegmentFileKind::snapshot:
      return {"producer_id",  "producer_epoch", "last_sequence",     "last_offset",
              "offset_delta", "timestamp",      "coordinator_epoch", "current_txn_first_offset"};
    default:
      return {};
  }
}

bool has_error_problem(const Value& trailer) {
  const Value* problems = trailer.find("problems");
  if (!problems || !problems->is_array()) return false;
  for (const auto& p : problems->as_array()) {
    const Value* sev = p.find("severity");
    if (sev && scalar_text(*sev) == "error") return true;
  }
  return false;
}

}  // namespace kepoch::report

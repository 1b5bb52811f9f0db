#include "kepoch/report/index_report.hpp"

#include <fmt/format.h>

#include "kepoch/base/time_text.hpp"

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

std::string plural(std::uint64_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

// The untrimmed tail of an index: what it is, in the words an operator knows.
std::string padding_phrase(std::size_t padding) {
  return fmt::format(
      "{} zero entr{} of preallocated space (untrimmed: the active segment, or a broker that "
      "did not shut down cleanly)",
      padding, padding == 1 ? "y" : "ies");
}

std::string time_text(std::int64_t t) {
  return iso_time_text(t).value_or(std::to_string(t));
}

// A producer snapshot: its producers, the open transactions among them (the earliest
// named) and the offset its state is as of (the file name's: state before that offset).
std::string snapshot_held(const ProducerSnapshot& s, const std::optional<std::int64_t>& offset) {
  std::string held = plural(s.entries.size(), "producer", "producers");
  if (offset) held += fmt::format(" as of offset {}", *offset);
  std::size_t open = 0;
  const ProducerSnapshotEntry* first = nullptr;
  for (const auto& e : s.entries) {
    if (!e.has_ongoing_txn()) continue;
    ++open;
    if (!first || e.current_txn_first_offset < first->current_txn_first_offset) first = &e;
  }
  if (open == 0) return held + ", none in an open transaction";
  return held + fmt::format(", {} in an open transaction (producer {} from offset {}{})", open,
                            first->producer_id, first->current_txn_first_offset,
                            open > 1 ? ", the earliest" : "");
}

// What an index holds, in a sentence's words: its entries (the valid prefix's offsets, and
// times), then its zero padding. `sound`: every entry keeps Kafka's append rules.
template <typename Index>
std::string index_held(const Index& idx, bool with_time) {
  const std::size_t n = listed_entries(idx);
  const std::size_t v = std::min(idx.valid_entries, n);
  std::string held = n == 0 ? std::string("no entry") : plural(n, "entry", "entries");
  if (v > 0) {
    const auto& a = idx.entries[0];
    const auto& b = idx.entries[v - 1];
    std::string span = v == 1 ? fmt::format("offset {}", a.offset)
                              : fmt::format("offsets {}..{}", a.offset, b.offset);
    if (with_time) {
      if constexpr (std::is_same_v<Index, TimeIndex>)
        span += v == 1 ? fmt::format(" at {}", time_text(a.timestamp))
                       : fmt::format(", {} to {}", time_text(a.timestamp), time_text(b.timestamp));
    }
    held += v == n ? fmt::format(" ({})", span)
                   : fmt::format(", the first {} in append order ({})", v, span);
  }
  if (idx.zero_padding_entries)
    held += (n == 0 ? ", only " : " and ") + padding_phrase(idx.zero_padding_entries);
  return held;
}

// " (and N more errors)" after the first of `errors`.
std::string more_errors(std::size_t errors) {
  if (errors <= 1) return "";
  return fmt::format(" (and {} more error{})", errors - 1, errors == 2 ? "" : "s");
}

// What Kafka does with a damaged offset or time index: LogSegment.sanityCheck skips both (the
// segments past the recovery point are recovered anyway), so the broker uses it as it is.
std::string unchecked_at_load(std::string_view index, bool check_fails) {
  return fmt::format(
      "{}Kafka's loader does not check it: only recovering the segment rebuilds "
      "the index.",
      check_fails ? fmt::format("{}.sanityCheck fails, but ", index) : "");
}

// The append order of a sound index's entries, said when there are two to order.
std::string in_order(std::size_t entries, std::string_view what) {
  return entries >= 2 ? fmt::format("{} increase within the segment and ", what) : "";
}

// The errors kepoch found in the file's entries (the findings), the first one's words.
std::pair<std::string, std::size_t> first_error(const std::vector<IndexFinding>& findings) {
  std::string first;
  std::size_t count = 0;
  for (const auto& f : findings)
    if (f.severity == IndexFinding::Severity::error && count++ == 0) first = f.message;
  return {first, count};
}

// How many warnings the trailer lists.
std::size_t warning_count(const Value& trailer) {
  std::size_t n = 0;
  const Value* problems = trailer.find("problems");
  if (!problems || !problems->is_array()) return 0;
  for (const auto& p : problems->as_array()) {
    const Value* sev = p.find("severity");
    if (sev && scalar_text(*sev) == "warning") ++n;
  }
  return n;
}

std::string first_warning(const Value& trailer) {
  const Value* problems = trailer.find("problems");
  if (!problems || !problems->is_array()) return "";
  for (const auto& p : problems->as_array()) {
    const Value* sev = p.find("severity");
    if (sev && scalar_text(*sev) == "warning") {
      const Value* m = p.find("message");
      return m ? scalar_text(*m) : std::string();
    }
  }
  return "";
}

}  // namespace

Value index_fields(const std::string& file, const IndexFileDump& dump) {
  const auto& base = dump.target.base_offset;
  Value v = Value::object()
                .set("summary", index_summary(file, dump))
                .set("file", file)
                .set("kind", to_string(dump.target.kind))
                .set("base_offset", base ? Value(*base) : Value());
  // A remote index cache file (<offset>_<segment id>.index, ...): which remote segment.
  if (dump.target.remote_segment_id)
    v.set("remote_segment_id", dump.target.remote_segment_id->to_string());
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

namespace kepoch::report {

std::string index_summary(const std::string& file, const IndexFileDump& dump) {
  // The verdict is the exit code's own predicate (an error among the problems of the trailer
  // the dump ends with); the words come from the parsed entries and Kafka's checks.
  const Value trailer = index_trailer(file, dump);
  const bool damaged = has_error_problem(trailer);
  std::string out;
  std::size_t explained_warnings = 0;  // the padding's, said in the sentence itself
  if (const auto* idx = std::get_if<OffsetIndex>(&dump.content)) {
    const auto failure = idx->sanity_check(file);
    explained_warnings = idx->zero_padding_entries ? 1 : 0;
    if (damaged) {
      const auto [first, errors] = first_error(idx->findings);
      out = fmt::format("{} is damaged: {}{}. It holds {}. {}", file,
                        first.empty() && failure ? failure->kafka_message : first,
                        more_errors(errors), index_held(*idx, false),
                        unchecked_at_load("OffsetIndex", failure.has_value()));
    } else {
      out = fmt::format("{} is sound: {}; {}OffsetIndex.sanityCheck passes.", file,
                        index_held(*idx, false), in_order(listed_entries(*idx), "offsets"));
    }
  } else if (const auto* tidx = std::get_if<TimeIndex>(&dump.content)) {
    const auto failure = tidx->sanity_check(file);
    explained_warnings = (tidx->zero_padding_entries ? 1 : 0) + (failure ? 1 : 0);
    if (damaged) {
      const auto [first, errors] = first_error(tidx->findings);
      out = fmt::format("{} is damaged: {}{}. It holds {}. {}", file,
                        first.empty() && failure ? failure->kafka_message : first,
                        more_errors(errors), index_held(*tidx, true),
                        unchecked_at_load("TimeIndex", failure.has_value()));
    } else if (failure) {
      // Not damage: the check fails only on the zero padding (index_check_severity).
      out = fmt::format(
          "{} is sound: {}; only that padding fails TimeIndex.sanityCheck, which "
          "Kafka's loader does not run.",
          file, index_held(*tidx, true));
    } else {
      out = fmt::format("{} is sound: {}; {}TimeIndex.sanityCheck passes.", file,
                        index_held(*tidx, true),
                        in_order(listed_entries(*tidx), "timestamps and offsets"));
    }
  } else if (const auto* xidx = std::get_if<TransactionIndex>(&dump.content)) {
    const auto failure = xidx->sanity_check(file);
    const std::size_t n = xidx->entries.size();
    if (damaged) {
      const auto [first, errors] = first_error(xidx->findings);
      // What Kafka's load does (txn_trailer_of): CorruptIndexException recovers the segment;
      // the version KafkaException escapes LogLoader and stops the broker.
      const std::string kafka =
          !failure ? "Kafka's loader reads it as it is"
          : failure->exception == kCorruptIndexException
              ? "TransactionIndex.sanityCheck fails: Kafka's loader recovers the segment and "
                "rebuilds its indexes"
              : "reading it throws in Kafka: LogManager fails and the broker does not start";
      // With Kafka's check failing, its failure leads (the findings repeat it in kepoch's
      // words); else kepoch's first error.
      out = failure ? fmt::format("{} is damaged at byte {}: {}. It lists {}; {} in all.", file,
                                  failure->position, kafka,
                                  plural(n, "aborted transaction", "aborted transactions"),
                                  plural(std::max<std::size_t>(errors, 1), "error", "errors"))
                    : fmt::format("{} is damaged: {}{}. It lists {}. {}.", file, first,
                                  more_errors(errors),
                                  plural(n, "aborted transaction", "aborted transactions"), kafka);
    } else {
      std::string held = plural(n, "aborted transaction", "aborted transactions");
      if (n == 1)
        held += fmt::format(" (producer {}, offsets {}..{})", xidx->entries[0].producer_id,
                            xidx->entries[0].first_offset, xidx->entries[0].last_offset);
      else if (n > 1)
        held += fmt::format(" (abort markers at offsets {}..{})", xidx->entries.front().last_offset,
                            xidx->entries.back().last_offset);
      out = fmt::format(
          "{} is sound: {}; every abort marker lies within the segment, TransactionIndex."
          "sanityCheck passes.",
          file, held);
    }
  } else if (const auto* snap = std::get_if<ProducerSnapshot>(&dump.content)) {
    const std::string as_of =
        dump.target.base_offset ? fmt::format(" of offset {}", *dump.target.base_offset) : "";
    if (damaged) {
      const auto [first, errors] = first_error(snap->findings);
      // readSnapshot's CorruptSnapshotException: loadFromSnapshot deletes the file and tries
      // the next older one (snapshot_trailer_of).
      out = fmt::format("{} is damaged: {}{}. {}.", file,
                        first.empty() && snap->failure ? snap->failure->kafka_message : first,
                        more_errors(errors),
                        snap->failure ? fmt::format("Kafka cannot read this snapshot{}: the broker "
                                                    "deletes it and loads an older one",
                                                    as_of)
                                      : "Kafka reads it as it is");
    } else {
      out = fmt::format("{} is intact (its CRC matches): {}; Kafka loads it.", file,
                        snapshot_held(*snap, dump.target.base_offset));
    }
  }
  const std::size_t warnings = warning_count(trailer);
  if (warnings > explained_warnings)
    out += fmt::format(" {}, the first: {}.",
                       plural(warnings - explained_warnings, "warning", "warnings"),
                       first_warning(trailer));
  return out;
}

}  // namespace kepoch::report

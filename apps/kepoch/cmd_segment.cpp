// kepoch segment dump FILE...
// Kafka's log segments batch by batch: headers by default, records with --records, keys
// and values with --data. Streams its output, so any segment size fits in bounded memory.
// The other files of a segment (.index, .timeindex, .txnindex, .snapshot, and leftovers of
// any of them) list their entries, with Kafka's sanity check; the name tells the kind.

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <iostream>
#include <limits>

#include "exit_codes.hpp"
#include "globals.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/base/read_only_file.hpp"
#include "kepoch/format/coordinator_record.hpp"
#include "kepoch/format/segment_file_name.hpp"
#include "kepoch/report/index_report.hpp"
#include "kepoch/report/segment_report.hpp"
#include "kepoch/report/stream.hpp"
#include "kepoch/report/summary.hpp"
#include "kepoch/storage/index_files.hpp"

namespace kepoch::cli {
namespace {

constexpr std::size_t kMaxReportedBadBatches = 100;

struct SegmentOptions {
  std::vector<std::string> files;
  bool records = false;
  bool data = false;
  std::string data_format = "text";
  std::optional<std::uint64_t> max_batches;
  std::optional<std::int64_t> from_offset;
  bool remote_log_metadata = false;  // --remote-log-metadata-decoder
  std::string kind;                  // empty: from the file name
  std::optional<std::int64_t> base_offset;
  std::string decode = "auto";
  TimeRangeOptions time;
};

std::optional<SegmentFileKind> forced_kind(const SegmentOptions& o) {
  for (auto k : {SegmentFileKind::log, SegmentFileKind::index, SegmentFileKind::timeindex,
                 SegmentFileKind::txnindex, SegmentFileKind::snapshot}) {
    if (o.kind == to_string(k)) return k;
  }
  return std::nullopt;
}

report::DataFormat data_format(const SegmentOptions& o) {
  if (!o.data) return report::DataFormat::none;
  if (o.data_format == "hex") return report::DataFormat::hex;
  if (o.data_format == "base64") return report::DataFormat::base64;
  return report::DataFormat::text;
}

// A segment of __remote_log_metadata, by its partition dir's name (Kafka's
// TopicBasedRemoteLogMetadataManagerConfig.REMOTE_LOG_METADATA_TOPIC_NAME): its records are
// decoded as kafka-dump-log --remote-log-metadata-decoder decodes them.
bool in_remote_log_metadata_dir(const std::string& file) {
  if (file == "-") return false;
  const std::string dir = std::filesystem::path(file).parent_path().filename().string();
  constexpr std::string_view kPrefix = "__remote_log_metadata-";
  if (!dir.starts_with(kPrefix) || dir.size() == kPrefix.size()) return false;
  return std::all_of(dir.begin() + kPrefix.size(), dir.end(),
                     [](char c) { return c >= '0' && c <= '9'; });
}

// Which coordinator log the records of `file` are (--decode, or with auto the partition dir
// the file is in: __consumer_offsets-N, __transaction_state-N, __share_group_state-N).
std::optional<CoordinatorLog> coordinator_of(const std::string& file, const SegmentOptions& o) {
  if (o.decode == "offsets") return CoordinatorLog::offsets;
  if (o.decode == "transactions") return CoordinatorLog::transactions;
  if (o.decode == "share-state") return CoordinatorLog::share_state;
  if (o.decode != "auto" || file == "-") return std::nullopt;
  const auto dir = std::filesystem::path(file).parent_path().filename().string();
  const PartitionDirParse parsed = parse_partition_dir_name(dir);
  if (!parsed.name) return std::nullopt;
  return coordinator_log_of_topic(parsed.name->topic);
}

// The facts a .log's table and JSON open with, gathered before any output: its batches'
// headers, checksums (Kafka's ensureValid) and end, from a walk that decodes no record (so a
// --records dump decompresses and decodes each batch once, while printing it).
struct LogWalk {
  SegmentDumpOptions options;
  report::RecordDecoding decoding;
};

LogWalk log_walk(const std::string& file, const SegmentOptions& o, const TimeRange& time) {
  LogWalk walk;
  walk.decoding.remote_log_metadata = o.remote_log_metadata || in_remote_log_metadata_dir(file);
  SegmentDumpOptions& options = walk.options;
  options.records = o.records || o.data || walk.decoding.remote_log_metadata;
  options.walk_records = true;  // written as walked: no batch's records held at once
  options.read_ahead = true;    // one file at a time: reading overlaps printing
  options.max_batches = o.max_batches;
  options.from_offset = o.from_offset;
  options.time = time;
  if (options.records) options.coordinator = coordinator_of(file, o);
  options.coordinator_checked = true;  // written from their bytes (segment_report)
  // ... each read once, checked as it is written (segment_report's CoordinatorMember).
  options.coordinator_deferred = true;
  return walk;
}

// What the walk's summary and the file's name add to its facts, with the problem each adds
// to the report: never a silent exit 0 on a dump that means nothing: a name Kafka cannot
// load (LogFileUtils.offsetFromFileName throws), or filters that select no batch of a file
// that holds some.
void end_facts(const std::string& file, const SegmentOptions& o, const TimeRange& time,
               const SegmentDumpSummary& summary, report::SegmentFacts& facts,
               report::Value* problems) {
  facts.end = summary.end;
  facts.stopped_early = summary.stopped_early;
  facts.filtered = o.from_offset || time.any();
  const auto name = parse_segment_file_name(std::filesystem::path(file).filename().string());
  if (file != "-" && !o.base_offset && name.kafka_failure) {
    if (problems)
      problems->push(report::Value::object()
                         .set("severity", "error")
                         .set("position", 0)
                         .set("message", fmt::format("Kafka cannot load a segment of this name: "
                                                     "LogFileUtils.offsetFromFileName throws {} "
                                                     "(the log dir fails to load)",
                                                     *name.kafka_failure)));
    facts.unloadable_name = *name.kafka_failure;
  }
  std::error_code ec;
  if ((o.from_offset || time.any()) && summary.batches == 0 && file != "-" &&
      summary.end.reason == LogEndReason::end_of_file && std::filesystem::file_size(file, ec) > 0 &&
      !ec) {
    if (problems)
      problems->push(report::Value::object()
                         .set("severity", "warning")
                         .set("position", 0)
                         .set("message",
                              "nothing selected: no batch of the file is at or after "
                              "--from-offset or in the --from-time/--until range"));
    facts.nothing_selected = true;
  }
}

// At most this many batches' CRCs are kept from the header walk for the printing walk
// (4 bytes each, 16 MiB: a GiB of 256-byte batches); the rest are computed again.
constexpr std::size_t kMaxKnownCrcs = 4u << 20;

// What the header walk hands the printing walk: its facts (the opening verdict), each
// batch's CRC (up to kMaxKnownCrcs) so that the printing walk need not compute it again,
// and, for a headers-only dump, the batches themselves (KeptBatches, bounded) so that it
// need not read the file again either.
struct HeaderWalk {
  report::SegmentFacts facts;
  std::vector<std::uint32_t> crcs;
  std::optional<KeptBatches> kept;  // a headers-only dump
  SegmentDumpSummary summary;
};

// The header walk: each batch's header checked and its CRC computed, no record read.
void header_walk(const std::string& file, const SegmentOptions& o, const TimeRange& time,
                 HeaderWalk& out) {
  LogWalk walk = log_walk(file, o, time);
  report::SegmentFacts& facts = out.facts;
  facts.records_later = walk.options.records;
  if (!walk.options.records) out.kept.emplace();
  walk.options.records = false;
  walk.options.coordinator.reset();
  out.summary = dump_segment(file, walk.options, [&](DumpedBatch& b) {
    facts.add(b);
    if (out.kept && out.kept->keep(b)) return;  // its CRC is kept with it
    if (out.crcs.size() < kMaxKnownCrcs) out.crcs.push_back(b.computed_crc);
  });
  end_facts(file, o, time, out.summary, facts, nullptr);
}

// One .log: its batches streamed, with `opening` (the header walk's facts, whose verdict
// opens the item) when given; else the verdict closes the item (standard input, read once).
// With an opening whose records are decoded here (records_later), a closing sentence says
// whether every record decoded. Returns the file's exit code: the opening's findings, or
// the records this walk found undecodable.
int dump_log(const std::string& file, const SegmentFileTarget& target, const SegmentOptions& o,
             const TimeRange& time, report::ReportStream& stream,
             const HeaderWalk* header = nullptr) {
  LogWalk walk = log_walk(file, o, time);
  const report::SegmentFacts* opening = header ? &header->facts : nullptr;
  if (header) walk.options.known_crcs = header->crcs;
  const SegmentDumpOptions& options = walk.options;
  report::RecordDecoding& decoding = walk.decoding;
  report::SegmentFacts facts;
  const report::DataFormat data = data_format(o);
  std::vector<DumpedBatch> bad;
  std::size_t more_bad = 0;
  bool started = false;
  const auto begin = [&] {
    report::Value fields = report::Value::object();
    if (opening) fields.set("summary", report::segment_summary(input_name(file), *opening));
    const report::Value leading = report::segment_fields(input_name(file), target.base_offset);
    for (const auto& [k, v] : leading.as_object())
      fields.set(k, v);
    stream.begin_item(fields, "batches", report::batch_table_columns());
  };
  const auto print = [&](DumpedBatch& b) {
    if (!started) {
      begin();
      started = true;
    }
    report::stream_batch(stream, b, options.records, data, &decoding);
    const bool bad_control =
        std::any_of(b.controls.begin(), b.controls.end(),
                    [](const DumpedControl& c) { return c.error.has_value(); });
    facts.add(b);
    if (b.invalid || b.records_error || bad_control || b.coordinator_error_count) {
      if (bad.size() < kMaxReportedBadBatches) {
        // Kept without its decompressed bytes (up to 256 MiB), never copied.
        auto decompressed = std::move(b.decompressed);
        DumpedBatch kept = b;
        b.decompressed = std::move(decompressed);
        kept.records.clear();  // their spans die with the visit
        kept.unwalked.reset();
        bad.push_back(std::move(kept));
      } else {
        ++more_bad;
      }
    }
  };
  // A headers-only dump prints the batches the header walk kept, without reading them again.
  const auto summary = header && header->kept
                           ? replay_segment(file, options, *header->kept, header->summary, print)
                           : dump_segment(file, options, print);
  if (!started) begin();
  report::Value trailer = report::segment_trailer(summary, bad);
  if (more_bad) trailer.set("unreported_bad_batches", more_bad);
  report::Value problems = *trailer.find("problems");
  for (auto& p : decoding.problems)
    problems.push(std::move(p));
  if (decoding.errors > decoding.problems.size())
    trailer.set("unreported_bad_records", decoding.errors - decoding.problems.size());
  facts.record_errors += decoding.errors;
  if (decoding.errors && !facts.first_record_error_offset)
    facts.first_record_error_offset = facts.first_offset;
  end_facts(file, o, time, summary, facts, &problems);
  report::Value with_problems = report::Value::object();
  for (const auto& [key, value] : trailer.as_object())
    with_problems.set(key, key == "problems" ? problems : value);
  if (!opening) {
    // Read once (standard input): the verdict can only close the item.
    with_problems.set("summary", report::segment_summary(input_name(file), facts));
    stream.end_item(with_problems);
    return facts.findings() ? kFindings : kOk;
  }
  // The opening's exit code, the one its sentence states (a file a broker appends to
  // meanwhile may list more), and the records decoded here, which the closing sentence
  // states.
  if (opening->records_later)
    with_problems.set("records_summary", report::segment_records_summary(facts));
  stream.end_item(with_problems);
  return opening->findings() || (opening->records_later && facts.record_errors) ? kFindings : kOk;
}

// One index or snapshot file: its entries streamed. Returns the file's exit code.
int dump_index(const std::string& file, const SegmentFileTarget& target,
               report::ReportStream& stream) {
  const IndexFileDump dump = read_index_file(file, target);  // throws before any output
  const std::string name = input_name(file);
  stream.begin_item(report::index_fields(name, dump), "entries",
                    report::index_table_columns(target.kind));
  report::for_each_index_entry(dump, [&](const report::Value& v) { stream.element(v); });
  const report::Value trailer = report::index_trailer(name, dump);
  stream.end_item(trailer);
  return report::has_error_problem(trailer) ? kFindings : kOk;
}

int run(const SegmentOptions& o, const Globals& globals) {
  const TimeRange time = time_range(o.time, globals);  // a usage error before any output
  auto stream = make_output_stream(globals);
  int code = kOk;
  for (const auto& file : o.files) {
    try {
      // What the path is comes first: a missing path or a directory is not a question of
      // its name (classify_segment_file judges names only).
      // "-" is standard input: a .log unless --kind says otherwise (it has no name to tell).
      const bool stdin_file = file == "-";
      std::error_code ec;
      const auto type = std::filesystem::status(file, ec).type();
      if (!stdin_file && type == std::filesystem::file_type::not_found)
        throw InputError(file, not_file_or_dir_text(file));
      if (!stdin_file && type == std::filesystem::file_type::directory)
        throw InputError(file,
                         "is a directory, expected a file (a partition dir is read by `kepoch "
                         "partition inspect`, a log dir by `kepoch logdir scan`)");
      std::optional<SegmentFileKind> kind = forced_kind(o);
      if (stdin_file && !kind) kind = SegmentFileKind::log;
      const SegmentFileTarget target = classify_segment_file(file, kind, o.base_offset);
      int file_code = kOk;
      if (target.kind != SegmentFileKind::log) {
        file_code = dump_index(file, target, *stream);
      } else if (stdin_file) {
        file_code = dump_log(file, target, o, time, *stream, nullptr);
      } else {
        // The verdict opens the report, so the file is walked twice: first its headers and
        // checksums for the facts (no record decoded), then printed (a headers-only dump
        // from what the first walk kept, up to KeptBatches' budget).
        HeaderWalk header;
        header_walk(file, o, time, header);
        file_code = dump_log(file, target, o, time, *stream, &header);
      }
      code = std::max(code, file_code);
    } catch (const InputError& e) {
      print_error(e.what(), globals);
      code = kInput;
    }
  }
  stream->finish();
  return code;
}

}  // namespace

void register_segment(CLI::App& app, Globals& globals) {
  CLI::App* group = app.add_subcommand(
      "segment", "Read Kafka log segments (.log, .index, .timeindex, .txnindex, .snapshot)");
  group->require_subcommand(1);
  static SegmentOptions o;
  CLI::App* dump = group->add_subcommand(
      "dump", "Print the batches of log segments and the entries of their index files");
  dump->add_option("files", o.files,
                   "Segment files: .log, .index, .timeindex, .txnindex, .snapshot (and their "
                   ".deleted/.cleaned/.swap leftovers); - is standard input (a .log unless "
                   "--kind)")
      ->required()
      ->type_name("FILE");
  dump->add_flag("--records", o.records, "Also iterate the records of each batch");
  dump->add_flag("--data", o.data, "Also print record keys and values (implies --records)");
  dump->add_option("--data-format", o.data_format,
                   "How --data shows bytes: text (printable as is, others \\xNN), hex, base64")
      ->check(CLI::IsMember({"text", "hex", "base64"}))
      ->default_str("text");
  // Range checks: an unsigned option takes "-1" as 2^64-1 unless told otherwise.
  dump->add_option("--max-batches", o.max_batches, "Stop after N batches per file")
      ->type_name("N")
      ->check(
          CLI::Range(std::uint64_t{0}, std::uint64_t{std::numeric_limits<std::int64_t>::max()}));
  // A number past int64 would be read as the largest offset and select nothing, silently.
  const CLI::Validator int64_text(
      [](std::string& text) {
        std::int64_t v = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        return ec == std::errc{} && end == text.data() + text.size()
                   ? std::string()
                   : fmt::format("{} is not an offset (a whole number up to {})", text,
                                 std::numeric_limits<std::int64_t>::max());
      },
      "OFFSET");
  dump->add_option("--from-offset", o.from_offset, "Skip batches that end before OFFSET")
      ->type_name("OFFSET")
      ->check(int64_text)
      ->check(CLI::Range(std::int64_t{0}, std::numeric_limits<std::int64_t>::max()));
  add_time_range_options(dump, o.time, "batches (of a .log) whose max_timestamp is",
                         "A batch without a timestamp is left out by either flag; a shown batch "
                         "lists all its records.");
  dump->add_flag("--remote-log-metadata-decoder", o.remote_log_metadata,
                 "Decode each record as a __remote_log_metadata record (tiered storage; "
                 "implies --records; on by itself for a file in a __remote_log_metadata-N "
                 "dir)");
  dump->add_option("--decode", o.decode,
                   "Decode the records as a coordinator's log (with --records): auto (by the "
                   "partition dir: __consumer_offsets-N, __transaction_state-N, "
                   "__share_group_state-N), offsets, transactions, share-state, none")
      ->check(CLI::IsMember({"auto", "offsets", "transactions", "share-state", "none"}))
      ->default_str("auto")
      ->type_name("LOG");
  dump->add_option("--kind", o.kind, "Read every FILE as this kind, whatever its name")
      ->check(CLI::IsMember({"log", "index", "timeindex", "txnindex", "snapshot"}))
      ->type_name("KIND");
  dump->add_option("--base-offset", o.base_offset,
                   "Segment base offset, instead of the number the file name starts with")
      ->type_name("OFFSET")
      ->check(int64_text);
  dump->footer(
      "Examples:\n"
      "  kepoch segment dump /var/lib/kafka/data/orders-0/00000000000000000000.log\n"
      "  kepoch segment dump -o json --records --max-batches 10 "
      "/data/orders-0/00000000000000000000.log\n"
      "  kepoch segment dump /data/orders-0/00000000000000000000.index /data/orders-0/*.timeindex\n"
      "  kepoch segment dump -o json /data/orders-0/00000000000000000000.{log,index,timeindex}\n"
      "  ssh b1 cat /data/orders-0/00000000000000000000.log | kepoch segment dump -\n"
      "  kepoch segment dump --from-time 2026-11-29T08:29Z --until 2026-11-29T08:30Z "
      "/data/orders-0/*.log\n"
      "  kepoch segment dump -o json /data/__remote_log_metadata-7/00000000000000000000.log\n"
      "  kepoch segment dump -o json --records "
      "/data/__consumer_offsets-7/00000000000000000000.log\n"
      "  kepoch segment dump --records /data/__transaction_state-0/*.log\n"
      "\nEach batch: position, size, offsets, count, partition leader epoch, magic, CRC and\n"
      "whether it is valid (Kafka's ensureValid), compression, control/transactional flags,\n"
      "producer id/epoch/sequence, timestamps (ISO 8601 in table and YAML; JSON: epoch ms\n"
      "and <name>_iso). --from-time/--until keep the batches whose max_timestamp (the\n"
      "time Kafka's time index keeps) is in [FROM, UNTIL). --records: each record; those of "
      "control\n"
      "batches with a `control` object of their type (commit/abort, leader_change,\n"
      "snapshot_header/footer, kraft_version, kraft_voters); legacy v0/v1 messages and the\n"
      "inner messages of their compressed wrappers (absolute offsets, own CRC-32 check).\n"
      "A segment of __remote_log_metadata (tiered storage) has each record decoded\n"
      "(`remote_log_metadata`: segment copies, their state updates, partition deletes, as\n"
      "Kafka's RemoteLogMetadataSerde reads them); a record that does not decode is an\n"
      "error with its byte offset (exit 1).\n"
      "Records of the coordinators' logs (__consumer_offsets, __transaction_state,\n"
      "__share_group_state; --decode names one for other paths or standard input) carry a\n"
      "`coordinator` object as kafka-dump-log --offsets-decoder / --transaction-log-decoder\n"
      "decode them: type (offset_commit, group_metadata, consumer_group_member_metadata,\n"
      "transaction_log, ...), type_id, key, value_version and value (both null: a tombstone);\n"
      "offset commits with their leader_epoch and metadata, transactions with producer id and\n"
      "epoch, transaction_state, partitions and timestamps. A record that does not decode is an\n"
      "error naming its offset and byte (exit 1).\n"
      "The walk stops where Kafka's would: at the end,\n"
      "at a torn tail (partial header or batch), or at a size below 14 bytes (corrupt).\n"
      "\nThe kind of each FILE comes from its name (--kind forces one); KRaft snapshots\n"
      "(*.checkpoint) are record batches, dumped as a log. Index entries:\n"
      ".index offset (absolute) and .log position; .timeindex timestamp and offset;\n"
      ".txnindex aborted transactions; .snapshot producer states (with the file's CRC).\n"
      "Zero padding of an untrimmed index is counted, not listed. sanity_check is what\n"
      "Kafka's own check throws (OffsetIndex/TimeIndex/TransactionIndex.sanityCheck,\n"
      "ProducerStateManager.readSnapshot), or null.\n"
      "Exit status: 0 clean, 1 a corrupt batch or size, a record of a coordinator log that does\n"
      "not decode, an error in an index or snapshot, a\n"
      ".log name Kafka cannot load (no offset), or filters that select no batch, 3\n"
      "unreadable file or a name of no segment kind.");
  dump->callback([&globals] { globals.exit_code = run(o, globals); });
}

}  // namespace kepoch::cli

// kepoch segment dump FILE...
// Kafka's log segments batch by batch: headers by default, records with --records, keys
// and values with --data. Streams its output, so any segment size fits in bounded memory.

#include <iostream>

#include "exit_codes.hpp"
#include "globals.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/base/java_text.hpp"
#include "kepoch/report/segment_report.hpp"
#include "kepoch/report/stream.hpp"

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
};

// "00000000000000368769.log" -> 368769 (LogFileUtils.offsetFromFileName: digits before the
// first '.').
std::optional<std::int64_t> base_offset_from_name(const std::filesystem::path& path) {
  const std::string name = path.filename().string();
  const std::string digits = name.substr(0, name.find('.'));
  if (digits.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  return java::parse_long(digits);
}

report::DataFormat data_format(const SegmentOptions& o) {
  if (!o.data) return report::DataFormat::none;
  if (o.data_format == "hex") return report::DataFormat::hex;
  if (o.data_format == "base64") return report::DataFormat::base64;
  return report::DataFormat::text;
}

int run(const SegmentOptions& o, const Globals& globals) {
  auto stream = make_output_stream(globals);
  int code = kOk;
  SegmentDumpOptions options;
  options.records = o.records || o.data;
  options.max_batches = o.max_batches;
  options.from_offset = o.from_offset;
  for (const auto& file : o.files) {
    std::vector<DumpedBatch> bad;
    std::size_t more_bad = 0;
    bool started = false;
    try {
      const auto summary = dump_segment(file, options, [&](const DumpedBatch& b) {
        if (!started) {
          stream->begin_item(report::segment_fields(file, base_offset_from_name(file)), "batches",
                             report::batch_table_columns());
          started = true;
        }
        stream->element(report::batch_value(b, options.records, data_format(o)));
        if (b.invalid || b.records_error) {
          if (bad.size() < kMaxReportedBadBatches) {
            DumpedBatch kept = b;
            kept.records.clear();  // their spans die with the visit
            kept.decompressed.clear();
            bad.push_back(std::move(kept));
          } else {
            ++more_bad;
          }
        }
      });
      if (!started) {
        stream->begin_item(report::segment_fields(file, base_offset_from_name(file)), "batches",
                           report::batch_table_columns());
      }
      report::Value trailer = report::segment_trailer(summary, bad);
      if (more_bad) trailer.set("unreported_bad_batches", more_bad);
      stream->end_item(trailer);
      if (!bad.empty() || summary.end.reason == LogEndReason::corrupt_size)
        code = std::max(code, int{kFindings});
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
  CLI::App* group = app.add_subcommand("segment", "Read Kafka log segments (.log files)");
  group->require_subcommand(1);
  static SegmentOptions o;
  CLI::App* dump = group->add_subcommand("dump", "Print the batches of log segments");
  dump->add_option("files", o.files, "Segment files (.log)")->required()->type_name("FILE");
  dump->add_flag("--records", o.records, "Also iterate the records of each batch");
  dump->add_flag("--data", o.data, "Also print record keys and values (implies --records)");
  dump->add_option("--data-format", o.data_format,
                   "How --data shows bytes: text (printable as is, others \\xNN), hex, base64")
      ->check(CLI::IsMember({"text", "hex", "base64"}))
      ->default_str("text");
  dump->add_option("--max-batches", o.max_batches, "Stop after N batches per file")->type_name("N");
  dump->add_option("--from-offset", o.from_offset, "Skip batches that end before OFFSET")
      ->type_name("OFFSET");
  dump->footer(
      "Examples:\n"
      "  kepoch segment dump /var/lib/kafka/data/orders-0/00000000000000000000.log\n"
      "  kepoch segment dump -o json --records --max-batches 10 00000000000000368769.log\n"
      "\nEach batch: position, size, offsets, count, partition leader epoch, magic, CRC and\n"
      "whether it is valid (Kafka's ensureValid), compression, control/transactional flags,\n"
      "producer id/epoch/sequence, timestamps. The walk stops where Kafka's would: at the end,\n"
      "at a torn tail (partial header or batch), or at a size below 14 bytes (corrupt).\n"
      "Exit status: 0 clean, 1 a corrupt batch or size, 3 unreadable file.");
  dump->callback([&globals] { globals.exit_code = run(o, globals); });
}

}  // namespace kepoch::cli

#include "kepoch/forecast/replay.hpp"

#include <algorithm>
#include <chrono>
#include <deque>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "kepoch/base/error.hpp"
#include "kepoch/base/text.hpp"
#include "kepoch/cluster/record_producer.hpp"

namespace kepoch::forecast {
namespace {

using Clock = std::chrono::steady_clock;

// The archive records after the done prefix, in order: produced ones wait for their report.
struct Window {
  std::uint64_t first = 0;  // index of entries.front()
  std::deque<int> entries;  // 0 waiting, 1 done, -1 failed
  std::uint64_t done_prefix() const {
    std::uint64_t n = first;
    for (int e : entries) {
      if (e != 1) break;
      ++n;
    }
    return n;
  }
  void trim() {
    while (!entries.empty() && entries.front() == 1) {
      entries.pop_front();
      ++first;
    }
  }
};

}  // namespace

ReplaySkip replay_skip(const ArchivedRecord& r, const ReplaySelection& s) {
  switch (r.kind) {
    case SalvageClass::control:
      return ReplaySkip::control;
    case SalvageClass::aborted:
      if (!s.include_aborted) return ReplaySkip::aborted;
      break;
    case SalvageClass::open:
      if (!s.include_open) return ReplaySkip::open;
      break;
    case SalvageClass::data:
    case SalvageClass::committed_transaction:
      break;
  }
  if (r.present == true && !s.include_present) return ReplaySkip::present;
  return ReplaySkip::none;
}

std::string salvaged_from(const ArchivedRecord& r) {
  return fmt::format("{}-{}@{}:{}", r.topic, r.partition, r.offset, r.leader_epoch);
}

void write_replay_progress(std::ostream& out, const ArchiveReplayProgress& p) {
  nlohmann::ordered_json j;
  j["format"] = kReplayProgressFormat;
  j["version"] = 1;
  j["archive"] = p.archive;
  j["archive_bytes"] = p.archive_bytes;
  j["target"] = p.target;
  j["done"] = p.done;
  j["complete"] = p.complete;
  out << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

ArchiveReplayProgress read_replay_progress(std::istream& in, const std::string& path) {
  // One line, as write_replay_progress writes it: read up to a bound (a path is at most a few
  // KiB), never a whole file of junk.
  constexpr std::size_t kMaxProgressBytes = 1u << 20;
  std::string text(kMaxProgressBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  const auto bad = [&](const std::string& what) -> ArchiveReplayProgress {
    throw InputError(path, "not a replay progress file: " + what, 1);
  };
  const std::size_t nl = text.find('\n');
  if (nl == std::string::npos && text.size() > kMaxProgressBytes)
    return bad(fmt::format("expected one line of at most {} bytes, found more", kMaxProgressBytes));
  const std::string_view line = std::string_view(text).substr(0, nl);
  const auto j = nlohmann::json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return bad(fmt::format("expected a JSON object on line 1, found {}",
                           line.empty() ? std::string("an empty line") : quoted_excerpt(line)));
  const auto member = [&](const char* name) -> const nlohmann::json& {
    const auto it = j.find(name);
    if (it == j.end()) bad(fmt::format("expected a \"{}\" member, found none", name));
    return *it;
  };
  const auto& format = member("format");
  if (!format.is_string() || format.get_ref<const std::string&>() != kReplayProgressFormat)
    return bad(fmt::format("expected \"format\":\"{}\"", kReplayProgressFormat));
  const auto& version = member("version");
  if (!version.is_number_integer() || version.get<std::int64_t>() != 1)
    return bad(fmt::format("expected version 1, found {}", excerpt(version.dump(), 60)));
  // Counts are unsigned: a negative one is refused, never read as 2^64 - 1 (a "done" that
  // large would skip every record of the archive).
  const auto count = [&](const char* name) {
    const auto& v = member(name);
    if (!v.is_number_unsigned())
      bad(fmt::format("\"{}\": expected a whole number, found {}", name, excerpt(v.dump(), 60)));
    return v.get<std::uint64_t>();
  };
  const auto text_of = [&](const char* name) {
    const auto& v = member(name);
    if (!v.is_string()) bad(fmt::format("\"{}\": expected a string", name));
    return v.get<std::string>();
  };
  ArchiveReplayProgress p;
  p.archive = text_of("archive");
  p.archive_bytes = count("archive_bytes");
  p.target = text_of("target");
  p.done = count("done");
  const auto& complete = member("complete");
  if (!complete.is_boolean()) return bad("\"complete\": expected true or false");
  p.complete = complete.get<bool>();
  return p;
}

std::uint64_t replayed_record_bytes(const ArchivedRecord& r) {
  std::uint64_t n = (r.key ? r.key->size() : 0) + (r.value ? r.value->size() : 0);
  for (const auto& h : r.headers)
    n += h.key.size() + (h.value ? h.value->size() : 0);
  return n + kSalvagedFromHeader.size() + salvaged_from(r).size();
}

ArchiveCheck check_archive(std::istream& archive, const std::string& path) {
  ArchiveReader reader(archive, path);
  ArchiveCheck c;
  while (const auto record = reader.next())
    c.largest_record_bytes = std::max(c.largest_record_bytes, replayed_record_bytes(*record));
  c.records = reader.records();
  return c;
}

ReplayCounts replay_archive(std::istream& archive, const std::string& path,
                            const ReplaySelection& selection, std::uint64_t resume_from,
                            const cluster::ConnectionSettings* settings,
                            std::uint64_t largest_record_bytes,
                            const std::function<void(std::uint64_t)>& on_progress,
                            const std::function<void(std::uint64_t)>& on_count,
                            const std::atomic<bool>& stop) {
  ReplayCounts c;
  c.dry_run = settings == nullptr;
  ArchiveReader reader(archive, path);
  Window window;
  window.first = resume_from;
  std::uint64_t reported = resume_from;
  Clock::time_point last_report = Clock::now();
  bool failed = false;
  std::optional<cluster::RecordProducer> producer;
  const auto report = [&](bool force) {
    window.trim();
    const std::uint64_t done = window.done_prefix();
    if (done == reported) return;
    if (!force && Clock::now() - last_report < std::chrono::milliseconds(500)) return;
    reported = done;
    last_report = Clock::now();
    on_progress(done);
  };
  if (settings)
    producer.emplace(*settings, largest_record_bytes, [&](const cluster::Delivery& d) {
      const std::uint64_t at = d.tag - window.first;
      if (d.tag < window.first || at >= window.entries.size()) return;
      if (d.delivered) {
        window.entries[at] = 1;
        ++c.delivered;
      } else {
        window.entries[at] = -1;
        ++c.failed;
        failed = true;
        if (c.errors.size() < 5)
          c.errors.push_back(fmt::format("record {} of the archive: {}", d.tag + 1, d.error));
      }
    });
  std::uint64_t index = 0;
  std::uint64_t produced = 0;
  const Clock::time_point started = Clock::now();
  // The archive's records in order: produced, skipped or (resumed, stopped) counted.
  const auto produce_all = [&] {
    for (;;) {
      auto record = reader.next();
      if (!record) break;
      const std::uint64_t i = index++;
      ++c.records;
      if (i < resume_from) {
        ++c.resumed_past;
        continue;
      }
      if (stop.load() || failed) {
        c.interrupted = c.interrupted || stop.load();
        continue;  // read on: the archive is checked whole, nothing more is produced
      }
      const ReplaySkip skip = replay_skip(*record, selection);
      switch (skip) {
        case ReplaySkip::control:
          ++c.skipped_control;
          break;
        case ReplaySkip::aborted:
          ++c.skipped_aborted;
          break;
        case ReplaySkip::open:
          ++c.skipped_open;
          break;
        case ReplaySkip::present:
          ++c.skipped_present;
          break;
        case ReplaySkip::none:
          break;
      }
      if (skip != ReplaySkip::none || !producer) {
        if (skip == ReplaySkip::none) ++c.selected;
        window.entries.push_back(1);
        window.trim();  // a dry run holds no entry per record (none waits ahead of it)
        continue;
      }
      ++c.selected;
      cluster::ProducedRecord out;
      out.topic = selection.to_topic ? *selection.to_topic : record->topic;
      out.partition = record->partition;
      if (record->key) out.key = std::span<const std::uint8_t>(*record->key);
      if (record->value) out.value = std::span<const std::uint8_t>(*record->value);
      for (const auto& h : record->headers)
        out.headers.emplace_back(
            std::string(h.key.begin(), h.key.end()),
            h.value ? std::optional<std::span<const std::uint8_t>>(*h.value) : std::nullopt);
      const std::string from = salvaged_from(*record);
      out.headers.emplace_back(
          std::string(kSalvagedFromHeader),
          std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(from.data()),
                                        from.size()));
      out.timestamp = record->timestamp;
      if (selection.max_rate > 0) {  // pace: the k-th record of this run not before k / rate s
        const auto due =
            started + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(
                          static_cast<double>(produced) / selection.max_rate));
        while (Clock::now() < due && !stop.load())
          producer->poll(static_cast<int>(std::max<std::int64_t>(
              1,
              std::chrono::duration_cast<std::chrono::milliseconds>(due - Clock::now()).count())));
        if (stop.load()) {
          c.interrupted = true;
          --c.selected;
          continue;
        }
      }
      ++produced;
      window.entries.push_back(0);
      producer->produce(out, i);  // copies the bytes
      producer->poll(0);
      if (on_count) on_count(c.delivered);
      report(false);
    }
  };
  // Wait for every record in flight: its report decides what the progress file says.
  const auto drain = [&] {
    while (producer->outstanding() > 0) {
      producer->flush(500);
      if (on_count) on_count(c.delivered);
      report(false);
    }
  };
  try {
    produce_all();
  } catch (...) {
    if (producer) {
      drain();
      report(true);
    }
    throw;
  }
  if (producer) drain();
  report(true);
  c.done = window.done_prefix();
  if (stop.load()) c.interrupted = c.done < c.records;
  return c;
}

}  // namespace kepoch::forecast

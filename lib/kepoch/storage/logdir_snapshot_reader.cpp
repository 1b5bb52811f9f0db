// Reads a log dir snapshot, version 1; the layout is at the top of
// logdir_snapshot_writer.cpp. A parser: the file is bounded (kMaxSnapshotBytes, lines
// kMaxSnapshotLineBytes), every line must be one JSON object of the kind expected there, and
// every field is checked for its type and range. Errors name the file, the line and what was
// expected ("snap.jsonl:7: replica.loaded.log_end_offset: expected an integer in [...],
// found \"x\"").

#include <fmt/format.h>

#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <span>
#include <tuple>
#include <utility>

#include "kepoch/base/error.hpp"
#include "kepoch/base/read_only_file.hpp"
#include "kepoch/base/text.hpp"
#include "kepoch/storage/logdir_snapshot.hpp"
#include "kepoch/storage/pruned_json.hpp"

namespace kepoch {
namespace fs = std::filesystem;
using nlohmann::json;
namespace {

constexpr std::size_t kQuoted = 60;  // how much of a bad value an error quotes

// Appends a value's JSON text to out until out holds more than kQuoted bytes; nesting below
// a few levels is shown as "...", so a line of 64 MB of brackets is neither copied nor
// walked deeper than that (nlohmann's dump() would recurse once per level).
void quote(const json& v, std::string& out, int depth) {
  if (out.size() > kQuoted) return;
  if (v.is_string()) {
    out += json(excerpt(v.get_ref<const std::string&>(), kQuoted))
               .dump(-1, ' ', false, json::error_handler_t::replace);
  } else if (v.is_object() || v.is_array()) {
    const bool object = v.is_object();
    out += object ? '{' : '[';
    if (depth >= 4 && !v.empty()) {
      out += "...";
    } else {
      bool first = true;
      for (auto it = v.begin(); it != v.end() && out.size() <= kQuoted; ++it) {
        if (!first) out += ',';
        first = false;
        if (object) {
          out +=
              json(excerpt(it.key(), kQuoted)).dump(-1, ' ', false, json::error_handler_t::replace);
          out += ':';
        }
        quote(*it, out, depth + 1);
      }
    }
    out += object ? '}' : ']';
  } else {
    out += v.dump();
  }
}

// What the general path reads of a line (any kind: header, replica, batch, skipped, end),
// and only that is built (pruned_json.hpp): a line within kMaxSnapshotLineBytes of millions
// of `{}` under a member no reader knows cost ~27 bytes of memory per byte and ended
// diff/predict/plan in std::terminate under `ulimit -v`.
const JsonShape& line_shape() {
  using S = JsonShape;
  static const S scalar = S::scalar();
  static const S scalars = S::array(&scalar);
  static const S pair = S::array(&scalar, 2);
  static const S pairs = S::array(&pair);
  static const S batch_fields = S::array(&scalar, 10);
  static const S log = S::object({{"epochs", &pairs},
                                  {"log_start_offset", &scalar},
                                  {"log_end_offset", &scalar},
                                  {"high_watermark", &scalar}});
  static const S stop = S::object({{"reason", &scalar},
                                   {"position", &scalar},
                                   {"trailing_bytes", &scalar},
                                   {"message", &scalar}});
  static const S segment = S::object({{"file", &scalar},
                                      {"base_offset", &scalar},
                                      {"size_bytes", &scalar},
                                      {"batches", &scalar},
                                      {"next_offset", &scalar}});
  static const S segments = S::array(&segment);
  static const S transaction = S::array(&scalar, 5);
  static const S transaction_list = S::array(&transaction);
  static const S transactions = S::object({{"from", &scalar}, {"batches", &transaction_list}});
  static const S replica = S::object({{"log_dir", &scalar},
                                      {"name", &scalar},
                                      {"topic", &scalar},
                                      {"partition", &scalar},
                                      {"topic_id", &scalar},
                                      {"clean_shutdown", &scalar},
                                      {"high_watermark", &scalar},
                                      {"recovery_point", &scalar},
                                      {"log_start_checkpoint", &scalar},
                                      {"checkpoint_entries", &pairs},
                                      {"rebuilt_entries", &pairs},
                                      {"log_end_offset", &scalar},
                                      {"recovery_stop", &stop},
                                      {"recovery_truncated_bytes", &scalar},
                                      {"loaded", &log},
                                      {"as_leader", &log},
                                      {"segments", &segments},
                                      {"notes", &scalars},
                                      {"transactions", &transactions},
                                      {"batch_count", &scalar},
                                      {"records", &scalar},
                                      {"bytes", &scalar},
                                      {"kept_batches", &scalar}});
  static const S skipped = S::object({{"dir", &scalar}, {"reason", &scalar}});
  static const S end = S::object({{"replicas", &scalar}, {"batches", &scalar}});
  static const S line = S::object({{"format", &scalar},
                                   {"version", &scalar},
                                   {"window", &scalar},
                                   {"log_dirs", &scalars},
                                   {"node_id", &scalar},
                                   {"cluster_id", &scalar},
                                   {"batch_fields", &batch_fields},
                                   {"replica", &replica},
                                   {"batch", &batch_fields},
                                   {"skipped", &skipped},
                                   {"end", &end}});
  return line;
}

// The fast path: the two line kinds that make up nearly all of a snapshot (a replica and its
// batches), read directly in exactly the shape write_logdir_snapshot writes them (keys in its
// order, no spaces, strings of printable ASCII without escapes, integers without fraction or
// exponent). It never reports an error: on anything else, or on any value the general path
// would refuse, it gives up and the line is read again by the general path (nlohmann-json
// above), which accepts every spelling of the same JSON and names what is wrong. So both
// paths give the same replicas and the same errors; the fast one allocates no JSON tree.
class FastLine {
 public:
  explicit FastLine(std::string_view line) : p_(line.data()), e_(line.data() + line.size()) {}

  bool at_end() const { return p_ == e_; }
  // A literal's length known where it is compared: the compiler compares it inline.
  template <std::size_t N>
  bool lit(const char (&s)[N]) {
    constexpr std::size_t n = N - 1;
    if (static_cast<std::size_t>(e_ - p_) < n || std::memcmp(p_, s, n) != 0) return false;
    p_ += n;
    return true;
  }
  bool peek(char c) const { return p_ < e_ && *p_ == c; }

  // -?(0|[1-9][0-9]*) within T's range, not followed by a fraction, exponent or digit.
  template <typename T>
  bool integer(T& out) {
    const bool negative = p_ < e_ && *p_ == '-';
    if (negative) ++p_;
    if (p_ >= e_ || *p_ < '0' || *p_ > '9') return false;
    std::uint64_t m = 0;
    if (*p_ == '0') {
      ++p_;
    } else {
      while (p_ < e_ && *p_ >= '0' && *p_ <= '9') {
        const auto d = static_cast<std::uint64_t>(*p_ - '0');
        if (m > (std::numeric_limits<std::uint64_t>::max() - d) / 10) return false;
        m = m * 10 + d;
        ++p_;
      }
    }
    if (p_ < e_ && (*p_ == '.' || *p_ == 'e' || *p_ == 'E' || (*p_ >= '0' && *p_ <= '9')))
      return false;
    if (negative) {
      // -0 and values below int64's range are left to the general path.
      if (m == 0 || m > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) + 1)
        return false;
      const std::int64_t v =
          m == static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) + 1
              ? std::numeric_limits<std::int64_t>::min()
              : -static_cast<std::int64_t>(m);
      if (!std::in_range<T>(v)) return false;
      out = static_cast<T>(v);
      return true;
    }
    if (!std::in_range<T>(m)) return false;
    out = static_cast<T>(m);
    return true;
  }
  template <std::size_t N, typename T>
  bool field(const char (&key_colon)[N], T& out) {
    return lit(key_colon) && integer(out);
  }
  template <typename T>
  bool optional_integer(std::optional<T>& out) {
    if (lit("null")) {
      out.reset();
      return true;
    }
    T v{};
    if (!integer(v)) return false;
    out = v;
    return true;
  }
  bool boolean(bool& out) {
    if (lit("true")) return out = true, true;
    if (lit("false")) return out = false, true;
    return false;
  }
  bool string(std::string_view& out) {
    if (!lit("\"")) return false;
    const char* start = p_;
    while (p_ < e_ && *p_ != '"') {
      const auto c = static_cast<unsigned char>(*p_);
      if (c < 0x20 || c > 0x7e || c == '\\') return false;
      ++p_;
    }
    if (p_ >= e_) return false;
    out = std::string_view(start, static_cast<std::size_t>(p_ - start));
    ++p_;
    return true;
  }
  // [[epoch, start_offset], ...]
  bool entries(std::vector<EpochEntry>& out) {
    if (!lit("[")) return false;
    if (lit("]")) return true;
    do {
      EpochEntry x;
      if (!lit("[") || !integer(x.epoch) || !lit(",") || !integer(x.start_offset) || !lit("]"))
        return false;
      out.push_back(x);
    } while (lit(","));
    return lit("]");
  }
  bool log(ReplicaLog& r) {
    return lit("{\"epochs\":") && cache(r.cache) &&
           field(",\"log_start_offset\":", r.log_start_offset) &&
           field(",\"log_end_offset\":", r.log_end_offset) &&
           field(",\"high_watermark\":", r.high_watermark) && lit("}");
  }

  // [[epoch, start_offset], ...] into an empty cache, with the general path's rule (cache():
  // assigned in order, unchanged): a list assign() leaves as it is is one of entries >= 0
  // strictly increasing in epoch and in start offset (the cache's invariant), and assigning
  // such a list in order appends each entry; anything else is left to the general path.
  bool cache(LeaderEpochCache& c) {
    if (!lit("[")) return false;
    if (lit("]")) return true;
    std::optional<EpochEntry> previous;
    do {
      EpochEntry x;
      if (!lit("[") || !integer(x.epoch) || !lit(",") || !integer(x.start_offset) || !lit("]"))
        return false;
      if (x.epoch < 0 || x.start_offset < 0) return false;
      if (previous && (x.epoch <= previous->epoch || x.start_offset <= previous->start_offset))
        return false;
      c.assign(x);
      previous = x;
    } while (lit(","));
    return lit("]");
  }

 private:
  const char* p_;
  const char* e_;
};

// The start of a replica line in the writer's shape, up to its topic id: its log dir, name,
// topic and partition (the name must be <topic>-<partition>); false: read it the general way.
bool fast_replica_key(FastLine& in, std::string_view& dir, std::string_view& name,
                      std::string_view& topic, std::int32_t& partition) {
  if (!in.lit("{\"replica\":{\"log_dir\":") || !in.string(dir) || !in.lit(",\"name\":") ||
      !in.string(name) || !in.lit(",\"topic\":") || !in.string(topic) ||
      !in.field(",\"partition\":", partition) || !in.lit(",\"topic_id\":"))
    return false;
  return name.size() > topic.size() && name.substr(0, topic.size()) == topic &&
         name[topic.size()] == '-' && name.substr(topic.size() + 1) == fmt::format("{}", partition);
}

// A replica line ({"replica": {...}}) in the writer's shape; false: read it the general way.
// `r` is a default replica (recycle_replica), `batches` the storage for its kept batches and
// `dir_prefix` "<file>:".
bool fast_replica(std::string_view line, std::string_view dir_prefix, PartitionReplica& r,
                  std::string& log_dir, std::uint64_t& kept, std::vector<BatchSummary>& batches) {
  FastLine in(line);
  std::string_view dir, name, topic;
  if (!fast_replica_key(in, dir, name, topic, r.partition)) return false;
  r.topic = topic;
  if (!in.lit("null")) {
    std::string_view id;
    if (!in.string(id)) return false;
    const UuidParse u = parse_uuid(id);
    if (!u.ok) return false;
    r.topic_id = u.uuid;
  }
  if (!in.lit(",\"clean_shutdown\":") || !in.boolean(r.clean_shutdown) ||
      !in.lit(",\"high_watermark\":") || !in.optional_integer(r.high_watermark) ||
      !in.lit(",\"recovery_point\":") || !in.optional_integer(r.recovery_point) ||
      !in.lit(",\"log_start_checkpoint\":") || !in.optional_integer(r.log_start_checkpoint) ||
      !in.lit(",\"checkpoint_entries\":") || !in.entries(r.checkpoint_entries) ||
      !in.lit(",\"rebuilt_entries\":") || !in.entries(r.rebuilt_entries) ||
      !in.field(",\"log_end_offset\":", r.log_end_offset) || !in.lit(",\"recovery_stop\":"))
    return false;
  if (!in.lit("null")) {
    LogEnd stop;
    std::string_view reason, message;
    if (!in.lit("{\"reason\":") || !in.string(reason) ||
        !in.field(",\"position\":", stop.position) ||
        !in.field(",\"trailing_bytes\":", stop.trailing_bytes) || !in.lit(",\"message\":") ||
        !in.string(message) || !in.lit("}"))
      return false;
    bool known = false;
    for (auto x : {LogEndReason::end_of_file, LogEndReason::partial_header,
                   LogEndReason::partial_batch, LogEndReason::corrupt_size}) {
      if (reason == log_end_reason_name(x)) {
        stop.reason = x;
        known = true;
      }
    }
    if (!known) return false;
    stop.message = message;
    r.recovery_stop = std::move(stop);
  }
  if (!in.field(",\"recovery_truncated_bytes\":", r.recovery_truncated_bytes) ||
      !in.lit(",\"loaded\":") || !in.log(r.loaded) || !in.lit(",\"as_leader\":") ||
      !in.log(r.as_leader) || !in.lit(",\"segments\":["))
    return false;
  if (!in.lit("]")) {
    do {
      SegmentSummary x;
      std::string_view f;
      if (!in.lit("{\"file\":") || !in.string(f) || !in.field(",\"base_offset\":", x.base_offset) ||
          !in.field(",\"size_bytes\":", x.size_bytes) || !in.field(",\"batches\":", x.batches) ||
          !in.lit(",\"next_offset\":") || !in.optional_integer(x.next_offset) || !in.lit("}"))
        return false;
      x.file = f;
      r.segments.push_back(std::move(x));
    } while (in.lit(","));
    if (!in.lit("]")) return false;
  }
  if (!in.lit(",\"notes\":[")) return false;
  if (!in.lit("]")) {
    do {
      std::string_view n;
      if (!in.string(n)) return false;
      r.notes.emplace_back(n);
    } while (in.lit(","));
    if (!in.lit("]")) return false;
  }
  StoredBatches stored;
  stored.batches = std::move(batches);
  if (!in.field(",\"batch_count\":", stored.batch_count) ||
      !in.field(",\"records\":", stored.records) || !in.field(",\"bytes\":", stored.bytes) ||
      !in.field(",\"kept_batches\":", kept))
    return false;
  // Optional (absent from older kepochs' snapshots): the tail's transactional and control
  // batches, with the general path's checks.
  if (in.lit(",\"transactions\":") && !in.lit("null")) {
    StoredTransactions t;
    if (!in.lit("{\"from\":") || !in.integer(t.from) || !in.lit(",\"batches\":[")) return false;
    if (!in.lit("]")) {
      do {
        TransactionBatch b;
        std::string_view kind;
        if (!in.lit("[") || !in.integer(b.base_offset) || !in.lit(",") ||
            !in.integer(b.last_offset) || !in.lit(",") || !in.integer(b.records) || !in.lit(",") ||
            !in.integer(b.producer_id) || !in.lit(",") || !in.string(kind) || !in.lit("]"))
          return false;
        b.transactional = true;
        if (kind == "commit" || kind == "abort" || kind == "control") {
          b.control = true;
          if (kind != "control")
            b.marker = kind == "commit" ? ControlRecordType::commit : ControlRecordType::abort;
        } else if (kind != "transactional") {
          return false;
        }
        if (b.last_offset < b.base_offset || b.last_offset < t.from) return false;
        if (!t.batches.empty() && b.base_offset <= t.batches.back().last_offset) return false;
        t.batches.push_back(b);
      } while (in.lit(","));
      if (!in.lit("]")) return false;
    }
    if (!in.lit("}")) return false;
    stored.transactions = std::move(t);
  }
  if (!in.lit("}}") || !in.at_end() || kept > stored.batch_count) {
    batches = std::move(stored.batches);  // for the general path's replica
    return false;
  }
  r.stored = std::move(stored);
  std::string text;
  text.reserve(dir_prefix.size() + name.size());
  text.append(dir_prefix).append(name);
  r.dir = std::move(text);
  log_dir = dir;
  return true;
}

// The checks the general path's batch() makes, as a yes or no.
bool batch_fits(const BatchSummary& b, const StoredBatches& stored) {
  return b.ordinal < stored.batch_count &&
         (stored.batches.empty() || b.ordinal > stored.batches.back().ordinal) &&
         b.last_offset >= b.base_offset &&
         (stored.batches.empty() || b.base_offset > stored.batches.back().last_offset) &&
         b.records_before <= stored.records && b.bytes_before <= stored.bytes;
}

// A batch line ({"batch": [10 integers]}) in the writer's shape; false: the general way.
bool fast_batch(std::string_view line, const StoredBatches& stored, BatchSummary& b) {
  FastLine in(line);
  return in.lit("{\"batch\":[") && in.integer(b.ordinal) && in.lit(",") &&
         in.integer(b.base_offset) && in.lit(",") && in.integer(b.last_offset) && in.lit(",") &&
         in.integer(b.records) && in.lit(",") && in.integer(b.size) && in.lit(",") &&
         in.integer(b.crc) && in.lit(",") && in.integer(b.epoch) && in.lit(",") &&
         in.integer(b.records_before) && in.lit(",") && in.integer(b.bytes_before) && in.lit(",") &&
         in.integer(b.digest_before) && in.lit("]}") && in.at_end() && batch_fits(b, stored);
}

class SnapshotParser {
 public:
  SnapshotParser(std::string_view text, const fs::path& name)
      : text_(text), name_(name), dir_prefix_(name.string() + ":") {}
  // Streamed: the file is read a window at a time (a line at most kMaxSnapshotLineBytes),
  // and replicas must come in partition order (next()).
  SnapshotParser(const ReadOnlyFile* file, const fs::path& name, bool ordered = true)
      : name_(name), dir_prefix_(name.string() + ":"), file_(file), ordered_(ordered) {}

  LogDirSnapshot parse() {
    LogDirSnapshot s;
    start(s);
    for (;;) {
      PartitionReplica r;
      std::string log_dir;
      if (!next(s, r, log_dir)) break;
      s.replicas.push_back(std::move(r));
      s.log_dir_of.push_back(std::move(log_dir));
    }
    return s;
  }

  // The header line, into s.
  void start(LogDirSnapshot& s) {
    s.file = name_;
    header(next_line("the header line").value, s);
  }

  // The next replica with its batches (skipped lines on the way go to s.skipped); false after
  // the end line, which is checked, as is that nothing follows it. `r` is overwritten whole;
  // its lists' storage is reused (recycle_replica).
  bool next(LogDirSnapshot& s, PartitionReplica& r, std::string& log_dir) {
    std::vector<BatchSummary> batches = recycle_replica(r);
    for (;;) {
      if (const auto raw = peek_line()) {
        std::uint64_t kept = 0;
        if (fast_replica(*raw, dir_prefix_, r, log_dir, kept, batches)) {
          skip_line(*raw);
          in_order(r.topic, r.partition, log_dir);
          read_batches(kept, r.topic, r.partition, *r.stored, batch_lines_);
          ++replicas_;
          return true;
        }
        r = PartitionReplica();
      }
      const DrainedJson held = next_line("a replica, skipped or end line");
      const json& line = held.value;
      if (line.contains("end")) {
        end(line, batch_lines_);
        fill();
        if (pos_ < text_.size()) {
          ++line_no_;
          fail_text("", "nothing after the end line", "more text");
        }
        return false;
      }
      if (line.contains("skipped")) {
        const json& k = object(line, "skipped", "skipped");
        s.skipped.push_back(
            {string(k, "dir", "skipped.dir"), string(k, "reason", "skipped.reason")});
        continue;
      }
      if (!line.contains("replica")) fail("", "a replica, skipped or end line", line);
      replica(line, r, log_dir, batch_lines_);
      ++replicas_;
      return true;
    }
  }

  // Streamed: the topic and partition of the next line when it is a replica line whose start
  // is in the fast form, read without taking the line (next() reads it); false otherwise
  // (another line, or one only the general path reads: next() says which). `topic` points
  // into the window: valid until the next call.
  bool peek_partition(std::string_view& topic, std::int32_t& partition) {
    const auto raw = peek_line();
    if (!raw) return false;
    FastLine in(*raw);
    std::string_view dir, name;
    return fast_replica_key(in, dir, name, topic, partition);
  }

  // Streamed: lets the window go (the unread text is read again from the file by the next
  // fill), so a stream waiting for its turn holds no window; also at the end of the file
  // (each of many streams ends there, its last window held until the end otherwise). Kept
  // when the file was found shorter than at open (its text cannot be read again).
  void release_window() {
    if (!file_ || shrunk_) return;
    read_at_ -= text_.size() - std::min(pos_, text_.size());
    std::string().swap(buffer_);
    text_ = {};
    pos_ = 0;
  }

 private:
  [[noreturn]] void fail_text(std::string_view field, std::string_view expected,
                              const std::string& found) {
    throw InputError(name_.string(),
                     fmt::format("{}{}expected {}, found {}", field, field.empty() ? "" : ": ",
                                 excerpt(expected, 200), excerpt(found, 200)),
                     line_no_);
  }
  [[noreturn]] void fail(std::string_view field, std::string_view expected, const json& found) {
    std::string text;
    quote(found, text, 0);
    if (text.size() > kQuoted) text = std::string(utf8_prefix(text, kQuoted - 3)) + "...";
    fail_text(field, expected, text);
  }

  // Streamed reads need replicas in partition order (topic, then partition number), as
  // write_logdir_snapshot writes them: a plan merges the brokers' snapshots as sorted streams.
  // And every read: each replica once. A broker holds one dir of a partition per log dir
  // (LogManager keeps one log per topic partition; a move between log dirs' -future dir is a
  // skipped line, never a replica line); a replica line (and its batch lines) repeated would
  // count its partition twice.
  void in_order(const std::string& topic, std::int32_t partition, const std::string& log_dir) {
    if (!ordered_) {
      const auto [it, inserted] =
          seen_.try_emplace(std::tuple(topic, partition, log_dir), line_no_);
      if (!inserted) repeated(topic, partition, log_dir, it->second);
      return;
    }
    if (last_ && partition_before(topic, partition, last_->first, last_->second))
      fail_text("replica",
                fmt::format("{}-{} or a later partition (partition order: topic, then partition "
                            "number, as `kepoch logdir snapshot` writes them; take the "
                            "snapshot again with this kepoch)",
                            last_->first, last_->second),
                fmt::format("{}-{}", topic, partition));
    if (last_ && last_->first == topic && last_->second == partition) {
      // The same partition in another log dir (replicas of a partition come together).
      for (std::size_t i = 0; i < partition_dir_count_; ++i)
        if (partition_dirs_[i].first == log_dir)
          repeated(topic, partition, log_dir, partition_dirs_[i].second);
    } else {
      partition_dir_count_ = 0;
    }
    if (partition_dir_count_ == partition_dirs_.size()) partition_dirs_.emplace_back();
    partition_dirs_[partition_dir_count_].first = log_dir;  // its storage kept
    partition_dirs_[partition_dir_count_++].second = line_no_;
    if (last_) {
      last_->first = topic;  // its storage kept
      last_->second = partition;
    } else {
      last_.emplace(topic, partition);
    }
  }
  [[noreturn]] void repeated(const std::string& topic, std::int32_t partition,
                             const std::string& log_dir, int first_line) {
    fail_text("replica", "each replica once (a broker holds one dir of a partition per log dir)",
              fmt::format("{}-{} of log dir {} again (first on line {})", topic, partition,
                          json(log_dir).dump(-1, ' ', false, json::error_handler_t::replace),
                          first_line));
  }

  // Streamed: moves the unread text to the front of the window and reads on until it holds a
  // whole line (or kMaxSnapshotLineBytes + 1 bytes of one, or the end of the file).
  void fill() {
    if (!file_) return;
    for (;;) {
      if (text_.find('\n', pos_) != std::string_view::npos) return;
      if (text_.size() - pos_ > kMaxSnapshotLineBytes || read_at_ >= file_->size()) return;
      buffer_.erase(0, pos_);
      pos_ = 0;
      const std::size_t have = buffer_.size();
      const std::size_t want = std::max<std::size_t>(have * 2, 4u << 10);
      buffer_.resize(want);
      const std::size_t got = file_->read_at(
          read_at_, std::span<std::uint8_t>(reinterpret_cast<std::uint8_t*>(buffer_.data()) + have,
                                            want - have));
      buffer_.resize(have + got);
      read_at_ += got;
      text_ = buffer_;
      if (got == 0) {
        read_at_ = file_->size();  // shorter than at open: the text ends here
        shrunk_ = true;
        return;
      }
    }
  }

  // The next line, not consumed, when it is whole and within bounds (otherwise next_line
  // reads it and says what is wrong).
  std::optional<std::string_view> peek_line() {
    fill();
    if (pos_ >= text_.size()) return std::nullopt;
    const std::size_t nl = text_.find('\n', pos_);
    if (nl == std::string_view::npos || nl - pos_ > kMaxSnapshotLineBytes) return std::nullopt;
    return text_.substr(pos_, nl - pos_);
  }
  void skip_line(std::string_view line) {
    ++line_no_;
    pos_ += line.size() + 1;
  }

  DrainedJson next_line(std::string_view expected) {
    ++line_no_;
    fill();
    if (pos_ >= text_.size()) fail_text("", expected, "the end of the file (truncated snapshot?)");
    const std::size_t nl = text_.find('\n', pos_);
    if (nl == std::string_view::npos && text_.size() - pos_ > kMaxSnapshotLineBytes)
      fail_text("", fmt::format("a line of at most {} bytes", kMaxSnapshotLineBytes),
                fmt::format("more than {} bytes without a newline", kMaxSnapshotLineBytes));
    if (nl == std::string_view::npos)
      fail_text("", fmt::format("{} ending with a newline", expected), "a line cut short");
    const std::string_view line = text_.substr(pos_, nl - pos_);
    pos_ = nl + 1;
    if (line.size() > kMaxSnapshotLineBytes)
      fail_text("", fmt::format("a line of at most {} bytes", kMaxSnapshotLineBytes),
                fmt::format("{} bytes", line.size()));
    DrainedJson j{json()};  // drained when it goes, also when memory ran out
    try {
      j.value = parse_pruned_json(line, line_shape());
    } catch (const json::exception& e) {  // parse_error, out_of_range (1e400)
      fail_text("", fmt::format("{} (one JSON object)", expected),
                fmt::format("bad JSON: {}", e.what()));
    }
    if (!j.value.is_object()) fail("", fmt::format("{} (one JSON object)", expected), j.value);
    return j;
  }

  const json& field(const json& o, std::string_view key, std::string_view path) {
    const auto it = o.find(key);
    if (it == o.end()) fail_text(path, "a field", "none");
    return *it;
  }
  const json& object(const json& o, std::string_view key, std::string_view path) {
    const json& v = field(o, key, path);
    if (!v.is_object()) fail(path, "an object", v);
    return v;
  }
  const json& array(const json& o, std::string_view key, std::string_view path) {
    const json& v = field(o, key, path);
    if (!v.is_array()) fail(path, "an array", v);
    return v;
  }
  std::string string(const json& o, std::string_view key, std::string_view path) {
    const json& v = field(o, key, path);
    if (!v.is_string()) fail(path, "a string", v);
    return v.get<std::string>();
  }
  bool boolean(const json& o, std::string_view key, std::string_view path) {
    const json& v = field(o, key, path);
    if (!v.is_boolean()) fail(path, "true or false", v);
    return v.get<bool>();
  }
  template <typename T>
  T integer(const json& v, std::string_view path) {
    constexpr auto lo = std::numeric_limits<T>::min();
    constexpr auto hi = std::numeric_limits<T>::max();
    bool fits = false;
    if (v.is_number_unsigned()) {
      fits = std::cmp_less_equal(v.get<std::uint64_t>(), hi);
    } else if (v.is_number_integer()) {
      const auto x = v.get<std::int64_t>();
      fits = std::cmp_greater_equal(x, lo) && std::cmp_less_equal(x, hi);
    }
    if (!fits) fail(path, fmt::format("an integer in [{}, {}]", lo, hi), v);
    return v.is_number_unsigned() ? static_cast<T>(v.get<std::uint64_t>())
                                  : static_cast<T>(v.get<std::int64_t>());
  }
  template <typename T>
  T integer(const json& o, std::string_view key, std::string_view path) {
    return integer<T>(field(o, key, path), path);
  }
  template <typename T>
  std::optional<T> optional_integer(const json& o, std::string_view key, std::string_view path) {
    const json& v = field(o, key, path);
    if (v.is_null()) return std::nullopt;
    return integer<T>(v, path);
  }

  std::vector<EpochEntry> entries(const json& o, std::string_view key, const std::string& path) {
    std::vector<EpochEntry> out;
    for (const json& e : array(o, key, path)) {
      if (!e.is_array() || e.size() != 2) fail(path, "[epoch, start_offset] pairs", e);
      out.push_back({integer<std::int32_t>(e[0], path + "[].epoch"),
                     integer<std::int64_t>(e[1], path + "[].start_offset")});
    }
    return out;
  }

  // A loaded cache is monotonic; assigning its entries in order rebuilds it exactly.
  LeaderEpochCache cache(const json& o, std::string_view key, const std::string& path) {
    const std::vector<EpochEntry> list = entries(o, key, path);
    LeaderEpochCache c;
    try {
      for (const auto& e : list)
        c.assign(e);
    } catch (const InvalidEpochEntry&) {
      fail(path, "entries with epoch >= 0 and start offset >= 0", o.at(std::string(key)));
    }
    if (c.entries() != list)
      fail(path, "entries increasing in epoch and in start offset", o.at(std::string(key)));
    return c;
  }

  ReplicaLog log(const json& o, std::string_view key) {
    const std::string p(key);
    const json& l = object(o, key, p);
    ReplicaLog r;
    r.cache = cache(l, "epochs", p + ".epochs");
    r.log_start_offset = integer<std::int64_t>(l, "log_start_offset", p + ".log_start_offset");
    r.log_end_offset = integer<std::int64_t>(l, "log_end_offset", p + ".log_end_offset");
    r.high_watermark = integer<std::int64_t>(l, "high_watermark", p + ".high_watermark");
    return r;
  }

  StoredTransactions transactions(const json& t) {
    if (!t.is_object()) fail("replica.transactions", "an object or null", t);
    StoredTransactions out;
    out.from = integer<std::int64_t>(t, "from", "replica.transactions.from");
    const std::string path = "replica.transactions.batches[]";
    for (const json& e : array(t, "batches", "replica.transactions.batches")) {
      if (!e.is_array() || e.size() != 5)
        fail(path, "[base_offset, last_offset, records, producer_id, kind]", e);
      TransactionBatch b;
      b.base_offset = integer<std::int64_t>(e[0], path + ".base_offset");
      b.last_offset = integer<std::int64_t>(e[1], path + ".last_offset");
      b.records = integer<std::int32_t>(e[2], path + ".records");
      b.producer_id = integer<std::int64_t>(e[3], path + ".producer_id");
      const std::string kind = e[4].is_string() ? e[4].get<std::string>() : "";
      // Kafka writes markers as transactional control batches (EndTransactionMarker).
      b.transactional = true;
      if (kind == "commit") {
        b.control = true;
        b.marker = ControlRecordType::commit;
      } else if (kind == "abort") {
        b.control = true;
        b.marker = ControlRecordType::abort;
      } else if (kind == "control") {
        b.control = true;
      } else if (kind != "transactional") {
        fail(path + ".kind", "\"transactional\", \"commit\", \"abort\" or \"control\"", e[4]);
      }
      if (b.last_offset < b.base_offset || b.last_offset < out.from)
        fail(path + ".last_offset",
             fmt::format("at least base_offset ({}) and from ({})", b.base_offset, out.from),
             json(b.last_offset));
      if (!out.batches.empty() && b.base_offset <= out.batches.back().last_offset)
        fail(path + ".base_offset",
             fmt::format("above the previous batch's last offset ({})",
                         out.batches.back().last_offset),
             json(b.base_offset));
      out.batches.push_back(b);
    }
    return out;
  }

  void header(const json& h, LogDirSnapshot& s) {
    const json& format = field(h, "format", "format");
    if (!format.is_string() || format.get<std::string>() != kSnapshotFormat)
      fail("format", fmt::format("\"{}\"", kSnapshotFormat), format);
    const json& version = field(h, "version", "version");
    if (!version.is_number_integer() || version.get<std::int64_t>() != kSnapshotVersion)
      fail("version",
           fmt::format("{} (this kepoch reads version {})", kSnapshotVersion, kSnapshotVersion),
           version);
    s.window = integer<std::uint32_t>(h, "window", "window");
    for (const json& d : array(h, "log_dirs", "log_dirs")) {
      if (!d.is_string()) fail("log_dirs[]", "a string", d);
      s.log_dirs.push_back(d.get<std::string>());
    }
    // Optional: snapshots of older kepochs do not say.
    if (const auto it = h.find("node_id"); it != h.end() && !it->is_null())
      s.node_id = integer<std::int32_t>(*it, "node_id");
    if (const auto it = h.find("cluster_id"); it != h.end() && !it->is_null()) {
      if (!it->is_string()) fail("cluster_id", "a string or null", *it);
      s.cluster_id = it->get<std::string>();
    }
    const json expected_fields = {"ordinal",      "base_offset",  "last_offset", "records",
                                  "size",         "crc",          "epoch",       "records_before",
                                  "bytes_before", "digest_before"};
    const json& fields = field(h, "batch_fields", "batch_fields");
    if (fields != expected_fields) fail("batch_fields", expected_fields.dump(), fields);
  }

  void replica(const json& line, PartitionReplica& r, std::string& log_dir,
               std::uint64_t& batch_lines) {
    const json& o = object(line, "replica", "replica");
    r = PartitionReplica();
    log_dir = string(o, "log_dir", "replica.log_dir");
    const std::string name = string(o, "name", "replica.name");
    r.dir = name_.string() + ":" + name;
    r.topic = string(o, "topic", "replica.topic");
    r.partition = integer<std::int32_t>(o, "partition", "replica.partition");
    if (name != fmt::format("{}-{}", r.topic, r.partition))
      fail("replica.name", fmt::format("\"{}-{}\" (topic-partition)", r.topic, r.partition),
           json(name));
    in_order(r.topic, r.partition, log_dir);
    const json& id = field(o, "topic_id", "replica.topic_id");
    if (!id.is_null()) {
      if (!id.is_string()) fail("replica.topic_id", "a topic id string or null", id);
      const UuidParse u = parse_uuid(id.get<std::string>());
      if (!u.ok) fail("replica.topic_id", "a Kafka Uuid (22 base64 characters)", id);
      r.topic_id = u.uuid;
    }
    r.clean_shutdown = boolean(o, "clean_shutdown", "replica.clean_shutdown");
    r.high_watermark =
        optional_integer<std::int64_t>(o, "high_watermark", "replica.high_watermark");
    r.recovery_point =
        optional_integer<std::int64_t>(o, "recovery_point", "replica.recovery_point");
    r.log_start_checkpoint =
        optional_integer<std::int64_t>(o, "log_start_checkpoint", "replica.log_start_checkpoint");
    r.checkpoint_entries = entries(o, "checkpoint_entries", "replica.checkpoint_entries");
    r.rebuilt_entries = entries(o, "rebuilt_entries", "replica.rebuilt_entries");
    r.log_end_offset = integer<std::int64_t>(o, "log_end_offset", "replica.log_end_offset");
    const json& stop = field(o, "recovery_stop", "replica.recovery_stop");
    if (!stop.is_null()) r.recovery_stop = recovery_stop(stop);
    r.recovery_truncated_bytes =
        integer<std::uint64_t>(o, "recovery_truncated_bytes", "replica.recovery_truncated_bytes");
    r.loaded = log(o, "loaded");
    r.as_leader = log(o, "as_leader");
    for (const json& seg : array(o, "segments", "replica.segments")) {
      if (!seg.is_object()) fail("replica.segments[]", "an object", seg);
      SegmentSummary x;
      x.file = string(seg, "file", "replica.segments[].file");
      x.base_offset = integer<std::int64_t>(seg, "base_offset", "replica.segments[].base_offset");
      x.size_bytes = integer<std::uint64_t>(seg, "size_bytes", "replica.segments[].size_bytes");
      x.batches = integer<std::uint64_t>(seg, "batches", "replica.segments[].batches");
      x.next_offset =
          optional_integer<std::int64_t>(seg, "next_offset", "replica.segments[].next_offset");
      r.segments.push_back(x);
    }
    for (const json& n : array(o, "notes", "replica.notes")) {
      if (!n.is_string()) fail("replica.notes[]", "a string", n);
      r.notes.push_back(n.get<std::string>());
    }
    // Optional: absent in snapshots of older kepochs (their transaction counts stay unknown).
    std::optional<StoredTransactions> tail_transactions;
    if (const auto it = o.find("transactions"); it != o.end() && !it->is_null())
      tail_transactions = transactions(*it);
    StoredBatches stored;
    stored.transactions = std::move(tail_transactions);
    stored.batch_count = integer<std::uint64_t>(o, "batch_count", "replica.batch_count");
    stored.records = integer<std::uint64_t>(o, "records", "replica.records");
    stored.bytes = integer<std::uint64_t>(o, "bytes", "replica.bytes");
    const auto kept = integer<std::uint64_t>(o, "kept_batches", "replica.kept_batches");
    if (kept > stored.batch_count)
      fail("replica.kept_batches", fmt::format("at most batch_count ({})", stored.batch_count),
           json(kept));
    read_batches(kept, r.topic, r.partition, stored, batch_lines);
    r.stored = std::move(stored);
  }

  // A replica's `kept` batch lines.
  void read_batches(std::uint64_t kept, const std::string& topic, std::int32_t partition,
                    StoredBatches& stored, std::uint64_t& batch_lines) {
    // A batch line takes at least 32 bytes: no more can follow than the text holds.
    stored.batches.reserve(
        static_cast<std::size_t>(std::min<std::uint64_t>(kept, remaining_bytes() / 32)));
    for (std::uint64_t i = 0; i < kept; ++i) {
      BatchSummary b;
      const auto raw = peek_line();
      if (raw && fast_batch(*raw, stored, b)) {
        skip_line(*raw);
      } else {
        const std::string expected =
            fmt::format("batch line {} of {} of {}-{}", i + 1, kept, topic, partition);
        b = batch(next_line(expected).value, expected, stored);
      }
      stored.batches.push_back(b);
      ++batch_lines;
    }
  }

  LogEnd recovery_stop(const json& stop) {
    if (!stop.is_object()) fail("replica.recovery_stop", "an object or null", stop);
    LogEnd e;
    const std::string reason = string(stop, "reason", "replica.recovery_stop.reason");
    bool known = false;
    for (auto r : {LogEndReason::end_of_file, LogEndReason::partial_header,
                   LogEndReason::partial_batch, LogEndReason::corrupt_size}) {
      if (reason == log_end_reason_name(r)) {
        e.reason = r;
        known = true;
      }
    }
    if (!known)
      fail("replica.recovery_stop.reason",
           "end-of-file, partial-header, partial-batch or corrupt-size", json(reason));
    e.position = integer<std::uint64_t>(stop, "position", "replica.recovery_stop.position");
    e.trailing_bytes =
        integer<std::uint64_t>(stop, "trailing_bytes", "replica.recovery_stop.trailing_bytes");
    e.message = string(stop, "message", "replica.recovery_stop.message");
    return e;
  }

  BatchSummary batch(const json& line, const std::string& expected, const StoredBatches& stored) {
    if (!line.contains("batch")) fail("", expected, line);
    const json& a = array(line, "batch", "batch");
    if (a.size() != 10) fail("batch", "an array of the 10 batch_fields", a);
    BatchSummary b;
    b.ordinal = integer<std::uint64_t>(a[0], "batch.ordinal");
    b.base_offset = integer<std::int64_t>(a[1], "batch.base_offset");
    b.last_offset = integer<std::int64_t>(a[2], "batch.last_offset");
    b.records = integer<std::int32_t>(a[3], "batch.records");
    b.size = integer<std::uint32_t>(a[4], "batch.size");
    b.crc = integer<std::uint32_t>(a[5], "batch.crc");
    b.epoch = integer<std::int32_t>(a[6], "batch.epoch");
    b.records_before = integer<std::uint64_t>(a[7], "batch.records_before");
    b.bytes_before = integer<std::uint64_t>(a[8], "batch.bytes_before");
    b.digest_before = integer<std::uint64_t>(a[9], "batch.digest_before");
    if (b.ordinal >= stored.batch_count)
      fail("batch.ordinal", fmt::format("below batch_count ({})", stored.batch_count),
           json(b.ordinal));
    if (!stored.batches.empty() && b.ordinal <= stored.batches.back().ordinal)
      fail("batch.ordinal",
           fmt::format("above the previous batch's ({})", stored.batches.back().ordinal),
           json(b.ordinal));
    if (b.last_offset < b.base_offset)
      fail("batch.last_offset", fmt::format("at least base_offset ({})", b.base_offset),
           json(b.last_offset));
    if (!stored.batches.empty() && b.base_offset <= stored.batches.back().last_offset)
      fail("batch.base_offset",
           fmt::format("above the previous batch's last offset ({})",
                       stored.batches.back().last_offset),
           json(b.base_offset));
    if (b.records_before > stored.records || b.bytes_before > stored.bytes)
      fail("batch.records_before", "counts within the replica's records and bytes",
           json::array({b.records_before, b.bytes_before}));
    return b;
  }

  std::uint64_t remaining_bytes() const {
    const std::uint64_t in_window = text_.size() - std::min(pos_, text_.size());
    return file_ ? in_window + (file_->size() - std::min(read_at_, file_->size())) : in_window;
  }

  void end(const json& line, std::uint64_t batch_lines) {
    const json& e = object(line, "end", "end");
    const auto replicas = integer<std::uint64_t>(e, "replicas", "end.replicas");
    const auto batches = integer<std::uint64_t>(e, "batches", "end.batches");
    if (replicas != replicas_)
      fail("end.replicas", fmt::format("{} (the replica lines read)", replicas_), json(replicas));
    if (batches != batch_lines)
      fail("end.batches", fmt::format("{} (the batch lines read)", batch_lines), json(batches));
  }

  std::string_view text_;
  fs::path name_;
  std::string dir_prefix_;  // "<name>:", each replica's dir before its topic-partition
  std::size_t pos_ = 0;
  int line_no_ = 0;
  std::uint64_t replicas_ = 0;
  std::uint64_t batch_lines_ = 0;
  // Streamed: the file, how far it is read, the window of it held.
  const ReadOnlyFile* file_ = nullptr;
  std::uint64_t read_at_ = 0;
  bool shrunk_ = false;  // a read found the file shorter than at open
  std::string buffer_;
  bool ordered_ = false;
  std::optional<std::pair<std::string, std::int32_t>> last_;
  // last_'s log dirs and their lines: the first partition_dir_count_ (storage kept).
  std::vector<std::pair<std::string, int>> partition_dirs_;
  std::size_t partition_dir_count_ = 0;
  std::map<std::tuple<std::string, std::int32_t, std::string>, int> seen_;  // not ordered_
};

}  // namespace

LogDirSnapshot parse_logdir_snapshot(std::string_view text, const fs::path& name) {
  return SnapshotParser(text, name).parse();
}

LogDirSnapshot read_logdir_snapshot(const fs::path& file) {
  // A regular file is read a window at a time, as a stream reads it (in any partition order):
  // a damaged line (a file of zeros without a newline) is refused after kMaxSnapshotLineBytes,
  // not after the whole file (up to kMaxSnapshotBytes) was read into memory.
  std::error_code ec;
  if (file != "-" && fs::is_regular_file(file, ec)) {
    const ReadOnlyFile f(file);
    if (f.size() > kMaxSnapshotBytes)
      throw InputError(f.path(), fmt::format("file is {} bytes, larger than the {} bytes kepoch "
                                             "reads for this kind of file",
                                             f.size(), kMaxSnapshotBytes));
    return SnapshotParser(&f, input_name(file), false).parse();
  }
  return parse_logdir_snapshot(read_input_file(file, kMaxSnapshotBytes), input_name(file));
}

bool partition_before(std::string_view topic_a, std::int32_t partition_a, std::string_view topic_b,
                      std::int32_t partition_b) {
  if (topic_a != topic_b) return topic_a < topic_b;
  return partition_a < partition_b;
}

struct LogDirSnapshotStream::Impl {
  Impl(const fs::path& path) : file(path), parser(&file, input_name(path)) {}
  ReadOnlyFile file;
  SnapshotParser parser;
  LogDirSnapshot header;
  std::string log_dir;  // next()'s when the caller does not take it
  bool done = false;
};

LogDirSnapshotStream::LogDirSnapshotStream(const fs::path& file)
    : impl_(std::make_unique<Impl>(file)) {
  impl_->parser.start(impl_->header);
}
LogDirSnapshotStream::~LogDirSnapshotStream() = default;
LogDirSnapshotStream::LogDirSnapshotStream(LogDirSnapshotStream&&) noexcept = default;

const LogDirSnapshot& LogDirSnapshotStream::header() const {
  return impl_->header;
}

void LogDirSnapshotStream::pause() {
  impl_->parser.release_window();
}

bool LogDirSnapshotStream::peek(std::string_view& topic, std::int32_t& partition) {
  return !impl_->done && impl_->parser.peek_partition(topic, partition);
}

bool LogDirSnapshotStream::next(PartitionReplica& replica, std::string* log_dir) {
  if (impl_->done) return false;
  std::string& dir = log_dir ? *log_dir : impl_->log_dir;
  if (!impl_->parser.next(impl_->header, replica, dir)) {
    impl_->done = true;
    return false;
  }
  return true;
}

}  // namespace kepoch

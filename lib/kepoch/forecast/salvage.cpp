#include "kepoch/forecast/salvage.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>
#include <set>
#include <string_view>
#include <system_error>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "kepoch/base/error.hpp"
#include "kepoch/storage/consumer_view.hpp"
#include "kepoch/storage/segment_dump.hpp"
#include "kepoch/storage/segment_seek.hpp"

namespace kepoch::forecast {

// What the new leader holds (named, not in the anonymous namespace: LeaderTails::Read,
// declared in the header, keeps one).
struct ProducerSequence {
  std::int64_t producer_id;
  std::int16_t epoch;
  std::int32_t sequence;
  auto operator<=>(const ProducerSequence&) const = default;
};

// What the new leader holds from an offset on. Sorted lists, built once the leader's tail is
// read, not a hash node per record: every record of that tail is listed.
struct LeaderIndex {
  bool read = false;
  std::vector<std::tuple<std::int64_t, std::int64_t, std::uint32_t>> batches;  // base, last, crc
  std::vector<ProducerSequence> sequences;                                     // sorted
  std::vector<std::pair<std::uint64_t, std::uint32_t>> contents;  // hash -> records left to match

  bool same_batch(const BatchHeader& h) const {
    const auto at =
        std::lower_bound(batches.begin(), batches.end(), h.base_offset,
                         [](const auto& b, std::int64_t base) { return std::get<0>(b) < base; });
    return at != batches.end() && std::get<0>(*at) == h.base_offset &&
           std::get<1>(*at) == h.last_offset() && std::get<2>(*at) == h.crc;
  }
  bool holds_sequence(const ProducerSequence& p) const {
    return std::binary_search(sequences.begin(), sequences.end(), p);
  }
  // A leader record with this content not matched yet: matched now (each matches one).
  bool take_content(std::uint64_t hash) {
    const auto at = std::lower_bound(contents.begin(), contents.end(), hash,
                                     [](const auto& c, std::uint64_t h) { return c.first < h; });
    if (at == contents.end() || at->first != hash || at->second == 0) return false;
    --at->second;
    return true;
  }
};

namespace {

// The segments of `replica` to read for offsets from `from` on: from the last one starting
// at or below it (as batches_from walks them).
std::vector<const SegmentSummary*> segments_from(const PartitionReplica& replica,
                                                 std::int64_t from) {
  std::vector<const SegmentSummary*> out;
  for (std::size_t i = 0; i < replica.segments.size(); ++i) {
    if (i + 1 < replica.segments.size() && replica.segments[i + 1].base_offset <= from) continue;
    out.push_back(&replica.segments[i]);
  }
  return out;
}

// A part of a tail's walk: segments_from's segments `first` to `last`, the first entered at
// `start` (tail_start_position's answer when not given), the last walked up to the entry
// starting at `end` (0: to its end).
struct TailPart {
  std::size_t first = 0;
  std::size_t last = 0;
  std::optional<std::uint64_t> start;
  std::uint64_t end = 0;
};

// The batches of `part` of the loaded log's tail from `from`, records walked, in order: one
// streamed pass, the next window read while this one is walked (read_ahead). A batch past
// the log end (cut by recovery) is not the log's. `count` (when given) sees every batch of
// the walk from `from` on, as the forecast's counted walk of a removed tail does
// (RemovedTailCount). Returns whether the walk reached the entry at `end` (always, without
// one): false when segment `last` ended before it or an entry stretches over it.
bool walk_part(const PartitionReplica& replica, std::int64_t from,
               const std::vector<const SegmentSummary*>& segments, const TailPart& part,
               const std::function<void(DumpedBatch&, const SegmentSummary&)>& visit,
               RemovedTailCount* count = nullptr) {
  SegmentDumpOptions options;
  options.records = true;
  options.walk_records = true;
  options.from_offset = from;
  options.read_ahead = true;
  bool reached = true;
  for (std::size_t i = part.first; i <= part.last; ++i) {
    const SegmentSummary* s = segments[i];
    options.start_position =
        i == part.first && part.start ? *part.start : tail_start_position(replica, *s, from);
    options.end_position.reset();
    if (i == part.last && part.end > 0) options.end_position = part.end;
    const auto segment = static_cast<std::size_t>(s - replica.segments.data());
    const auto summary = dump_segment(s->file, options, [&](DumpedBatch& b) {
      if (count) count->see(b.header, segment, replica.log_end_offset);
      if (b.header.last_offset() < from || b.header.next_offset() > replica.log_end_offset) return;
      if (b.invalid)
        throw InputError(s->file.string(),
                         fmt::format("the batch at offset {} cannot be read: {}",
                                     b.header.base_offset, *b.invalid),
                         0, b.header.position);
      visit(b, *s);
    });
    if (options.end_position) reached = summary.stopped_at == part.end;
  }
  return reached;
}

// Every batch of the loaded log from `from` to the log end, records walked, in order,
// entered at the offset index's entry for `from` (tail_start_position).
void walk_tail(const PartitionReplica& replica, std::int64_t from,
               const std::function<void(DumpedBatch&, const SegmentSummary&)>& visit,
               RemovedTailCount* count = nullptr) {
  const auto segments = segments_from(replica, from);
  if (segments.empty()) return;
  walk_part(replica, from, segments, {0, segments.size() - 1, std::nullopt, 0}, visit, count);
}

void throw_records_error(const DumpedBatch& b, const SegmentSummary& s) {
  if (b.records_error)
    throw InputError(s.file.string(),
                     fmt::format("the records of the batch at offset {} cannot be read: {}",
                                 b.header.base_offset, *b.records_error),
                     0, b.header.position);
}

constexpr std::size_t kMaxRangeBatches = 1u << 20;  // batches_from's default

// What a part of the leader's tail lists for the index, the batches in walk order, the
// sequences and content hashes sorted; and, when asked, its BatchRange (batches_from's
// answer below `until`, at most kMaxRangeBatches batches).
struct LeaderPart {
  std::vector<std::tuple<std::int64_t, std::int64_t, std::uint32_t>> batches;
  std::vector<ProducerSequence> sequences;
  std::vector<std::uint64_t> hashes;
  BatchRange range;
};

struct Cancelled {};  // a part's walk stopped: the other part's failed

// `more` counted after `into`, as one walk counts both: the counts summed, the batches the
// first kMaxRangeBatches.
void add_range(BatchRange& into, const BatchRange& more) {
  into.records += more.records;
  into.bytes += more.bytes;
  for (const auto& b : more.batches) {
    if (into.batches.size() >= kMaxRangeBatches) break;
    into.batches.push_back(b);
  }
}

// Reads `part` of the leader's tail from `from` into `out`; returns walk_part's answer.
// `cancel`: checked at each batch (the walk stops by throwing Cancelled).
bool read_leader_part(const PartitionReplica& leader, std::int64_t from,
                      const std::vector<const SegmentSummary*>& segments, const TailPart& part,
                      bool ranged, std::int64_t until, LeaderPart& out,
                      const std::atomic<bool>* cancel = nullptr) {
  const bool reached =
      walk_part(leader, from, segments, part, [&](DumpedBatch& b, const SegmentSummary& s) {
        if (cancel && cancel->load(std::memory_order_relaxed)) throw Cancelled{};
        const BatchHeader& h = b.header;
        if (ranged && h.base_offset < until) {
          const std::int32_t records = h.is_v2() ? h.records_count : 1;
          out.range.records += static_cast<std::uint64_t>(records);
          out.range.bytes += h.size_in_bytes();
          if (out.range.batches.size() < kMaxRangeBatches)
            out.range.batches.push_back({h.base_offset, h.last_offset(), records, h.crc});
        }
        out.batches.emplace_back(h.base_offset, h.last_offset(), h.crc);
        if (h.is_control()) return;
        walk_records(b, [&](const Record& r, const DumpedControl*, const DumpedCoordinator*) {
          if (h.producer_id >= 0)
            out.sequences.push_back({h.producer_id, h.producer_epoch, r.sequence});
          out.hashes.push_back(content_hash(r));
        });
        throw_records_error(b, s);
      });
  std::sort(out.sequences.begin(), out.sequences.end());
  std::sort(out.hashes.begin(), out.hashes.end());
  return reached;
}

// Below this many bytes of tail (estimated from the offset index), the leader is read on one
// thread: a second one would cost more than it saves.
constexpr std::uint64_t kSplitMinBytes = 4u << 20;

// The leader's tail read by two threads, each over one half (split at the offset index's
// entry nearest below the middle offset), into `out` as one walk would list it. False when
// it is not split (a small tail, no index entry to split at, no thread) or when the first
// half's walk did not stop exactly at the second's start (a damaged segment or index): the
// caller then reads the tail on one thread, as the first half's failure would have it.
// The first error in log order is the one thrown: the first half's, else the second's (the
// first half having reached the second's start, one walk would have met it there).
// Memory: while they are merged, the second half's lists are held twice (its own, copied into
// the first's) and inplace_merge takes a buffer as large as the shorter half: for a moment,
// about twice the second half's lists more than one walk holds.
bool read_leader_in_halves(const PartitionReplica& leader, std::int64_t from,
                           const std::vector<const SegmentSummary*>& segments, bool ranged,
                           std::int64_t until, LeaderPart& out) {
  if (segments.empty() || leader.log_end_offset <= from) return false;
  const std::int64_t middle = from + (leader.log_end_offset - from) / 2;
  std::size_t k = 0;
  while (k + 1 < segments.size() && segments[k + 1]->base_offset <= middle)
    ++k;
  const std::uint64_t start = tail_start_position(leader, *segments[0], from);
  const std::uint64_t at = seek_position(segments[k]->file, segments[k]->base_offset, middle);
  if (k == 0 && at <= start) return false;
  if (at > segments[k]->size_bytes) return false;
  std::uint64_t first_bytes = 0, second_bytes = 0;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const std::uint64_t size = segments[i]->size_bytes, skip = i == 0 ? std::min(start, size) : 0;
    if (i < k) first_bytes += size - skip;
    if (i > k) second_bytes += size;
    if (i == k) {
      first_bytes += at - skip;
      second_bytes += size - at;
    }
  }
  if (first_bytes < kSplitMinBytes || second_bytes < kSplitMinBytes) return false;
  // The first half: to the entry at `at` (or, at a segment's start, the segments before it).
  TailPart first{0, k, start, at};
  if (at == 0) first = {0, k - 1, start, 0};
  TailPart second{k, segments.size() - 1, at, 0};
  LeaderPart later;
  std::atomic<bool> cancel{false};
  std::exception_ptr later_error;
  std::thread thread;
  try {
    thread = std::thread([&] {
      try {
        read_leader_part(leader, from, segments, second, ranged, until, later, &cancel);
      } catch (...) {
        later_error = std::current_exception();
      }
    });
  } catch (const std::system_error&) {
    return false;  // no thread: one walk
  }
  bool reached = false;
  try {
    reached = read_leader_part(leader, from, segments, first, ranged, until, out);
  } catch (...) {
    cancel = true;
    thread.join();
    throw;
  }
  if (!reached) cancel = true;
  thread.join();
  if (!reached) return false;
  if (later_error) std::rethrow_exception(later_error);
  // Joined as one walk would have listed them: the batches in walk order, the sorted lists
  // merged, the range's counts summed and its batches the first kMaxRangeBatches.
  out.batches.insert(out.batches.end(), later.batches.begin(), later.batches.end());
  const auto merge = [](auto& into, const auto& more) {
    const auto joint = static_cast<std::ptrdiff_t>(into.size());
    into.insert(into.end(), more.begin(), more.end());
    std::inplace_merge(into.begin(), into.begin() + joint, into.end());
  };
  merge(out.sequences, later.sequences);
  merge(out.hashes, later.hashes);
  add_range(out.range, later.range);
  return true;
}

// Reads the leader's tail from `from` to its log end (in two halves on two threads where it
// is large: read_leader_in_halves); `range` (when given) is told each batch as
// batches_from's walk (BatchCursor) would count it below `until`.
LeaderIndex read_leader(const PartitionReplica& leader, std::int64_t from,
                        BatchRange* range = nullptr, std::int64_t until = INT64_MAX) {
  LeaderIndex index;
  if (leader.stored) return index;  // a snapshot keeps no record bytes
  index.read = true;
  const auto segments = segments_from(leader, from);
  LeaderPart whole;
  if (!segments.empty() &&
      !read_leader_in_halves(leader, from, segments, range != nullptr, until, whole)) {
    whole = LeaderPart{};
    read_leader_part(leader, from, segments, {0, segments.size() - 1, std::nullopt, 0},
                     range != nullptr, until, whole);
  }
  if (range) add_range(*range, whole.range);
  // Sorted: same_batch looks the batches up by base offset (the first of equal ones, as
  // the walk listed them); sequences and contents by value (sorted by the parts' reads),
  // contents counted.
  index.batches = std::move(whole.batches);
  const auto by_base = [](const auto& a, const auto& b) { return std::get<0>(a) < std::get<0>(b); };
  if (!std::is_sorted(index.batches.begin(), index.batches.end(), by_base))
    std::stable_sort(index.batches.begin(), index.batches.end(), by_base);
  index.sequences = std::move(whole.sequences);
  for (const auto hash : whole.hashes) {
    if (!index.contents.empty() && index.contents.back().first == hash)
      ++index.contents.back().second;
    else
      index.contents.emplace_back(hash, 1);
  }
  return index;
}

std::optional<bool> committed_at(const CommittedBound& bound, std::int64_t offset) {
  if (offset < bound.below) return true;
  for (const auto& d : bound.doubts)
    if (offset >= d.from && offset < d.below) return std::nullopt;
  return false;
}

// The content hash: each byte string through bytes_hash, its length and presence mixed in so
// that null, empty and moved bytes differ. Every record of the new leader's tail is hashed
// (std::hash, 8 bytes a step, was a twelfth of salvage's CPU; a byte-wise FNV before it a
// seventh).
void mix(std::uint64_t& h, std::uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
}

// The 64x64 -> 128-bit product folded to 64 bits (wyhash's mum): a strong mixer that costs
// one multiplication.
std::uint64_t fold(std::uint64_t a, std::uint64_t b) {
  const unsigned __int128 r = static_cast<unsigned __int128>(a) * b;
  return static_cast<std::uint64_t>(r) ^ static_cast<std::uint64_t>(r >> 64);
}

std::uint64_t load64(const std::uint8_t* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

// A 64-bit hash of `n` bytes, 32 bytes a step in two independent lanes (wyhash's
// construction: each 16 bytes xor-ed with constants and folded). Not a format: nothing
// stores it, both tails are hashed by the same function in one run (bytes_hash).
std::uint64_t bytes_hash_portable(const std::uint8_t* p, std::size_t n) {
  constexpr std::uint64_t k0 = 0xa0761d6478bd642full, k1 = 0xe7037ed1a0b428dbull,
                          k2 = 0x8ebc6af09c88c6e3ull, k3 = 0x589965cc75374cc3ull;
  std::uint64_t a = k0 ^ n, b = k3 ^ (n << 1);
  for (; n >= 32; p += 32, n -= 32) {
    a = fold(load64(p) ^ k1 ^ a, load64(p + 8) ^ k2);
    b = fold(load64(p + 16) ^ k3 ^ b, load64(p + 24) ^ k1);
  }
  for (; n >= 8; p += 8, n -= 8)
    a = fold(load64(p) ^ k2 ^ a, k1 ^ b);
  std::uint64_t last = 0;
  for (std::size_t i = 0; i < n; ++i)
    last |= static_cast<std::uint64_t>(p[i]) << (8 * i);
  return fold(fold(a ^ last ^ k0, b ^ k2), n ^ k3);
}

#if defined(__x86_64__)
// The same with the AES instructions: 64 bytes a step in four independent 128-bit lanes,
// each 16 bytes xor-ed into its lane and put through one AES round (a permutation of the
// lane: a changed byte changes the lane), the lanes and the length mixed by more rounds at the
// end (ahash's and gxhash's construction). About five times the speed of the multiplications
// on the hot bytes of a record (its batch was just read and its CRC checked): the hash was a
// tenth of salvage's CPU, over every record of both tails.
__attribute__((target("aes,sse4.1"))) std::uint64_t bytes_hash_aes(const std::uint8_t* p,
                                                                   std::size_t n) {
  const auto load = [](const std::uint8_t* at) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
  };
  const __m128i key =
      _mm_set_epi64x(0x589965cc75374cc3ll, static_cast<long long>(0xe7037ed1a0b428dbull));
  const __m128i seed =
      _mm_set_epi64x(static_cast<long long>(n), static_cast<long long>(0xa0761d6478bd642full));
  __m128i s0 = _mm_xor_si128(seed, _mm_set1_epi64x(1)),
          s1 = _mm_xor_si128(seed, _mm_set1_epi64x(2)),
          s2 = _mm_xor_si128(seed, _mm_set1_epi64x(3)),
          s3 = _mm_xor_si128(seed, _mm_set1_epi64x(4));
  for (; n >= 64; p += 64, n -= 64) {
    s0 = _mm_aesenc_si128(_mm_xor_si128(s0, load(p)), key);
    s1 = _mm_aesenc_si128(_mm_xor_si128(s1, load(p + 16)), key);
    s2 = _mm_aesenc_si128(_mm_xor_si128(s2, load(p + 32)), key);
    s3 = _mm_aesenc_si128(_mm_xor_si128(s3, load(p + 48)), key);
  }
  for (; n >= 16; p += 16, n -= 16)
    s0 = _mm_aesenc_si128(_mm_xor_si128(s0, load(p)), key);
  std::uint8_t last[16] = {};      // the last bytes, zero-padded (the length is in the seed)
  if (n) std::memcpy(last, p, n);  // an empty value's span may have no data pointer
  s1 = _mm_aesenc_si128(_mm_xor_si128(s1, load(last)), key);
  __m128i h = _mm_aesenc_si128(_mm_aesenc_si128(s0, s1), key);
  h = _mm_aesenc_si128(_mm_aesenc_si128(h, s2), key);
  h = _mm_aesenc_si128(_mm_aesenc_si128(h, s3), key);
  h = _mm_aesenc_si128(h, key);
  return static_cast<std::uint64_t>(_mm_cvtsi128_si64(h)) ^
         static_cast<std::uint64_t>(_mm_extract_epi64(h, 1));
}

const bool kAesHash = __builtin_cpu_supports("aes") && __builtin_cpu_supports("sse4.1");
#endif

std::uint64_t bytes_hash(const std::uint8_t* p, std::size_t n) {
#if defined(__x86_64__)
  if (kAesHash) return bytes_hash_aes(p, n);
#endif
  return bytes_hash_portable(p, n);
}

void hash_bytes(std::uint64_t& h, const std::optional<std::span<const std::uint8_t>>& bytes) {
  if (!bytes) {
    mix(h, ~0ull);
    return;
  }
  mix(h, bytes->size());
  mix(h, bytes_hash(bytes->data(), bytes->size()));
}

}  // namespace

std::unordered_map<std::int64_t, SalvageClass> transaction_classes(
    const std::vector<TransactionBatch>& batches) {
  std::unordered_map<std::int64_t, SalvageClass> out;
  std::unordered_map<std::int64_t, std::vector<std::int64_t>> pending;  // producer -> bases
  for (const auto& b : batches) {
    if (b.control) {
      auto it = pending.find(b.producer_id);
      if (it == pending.end()) continue;
      const bool commit = b.marker == ControlRecordType::commit;
      const bool abort = b.marker == ControlRecordType::abort;
      if (!commit && !abort) continue;  // not a transaction marker
      for (const auto base : it->second)
        out[base] = commit ? SalvageClass::committed_transaction : SalvageClass::aborted;
      pending.erase(it);
    } else if (b.transactional) {
      pending[b.producer_id].push_back(b.base_offset);
      out[b.base_offset] = SalvageClass::open;
    }
  }
  return out;
}

std::string_view salvage_class_name(SalvageClass c) {
  switch (c) {
    case SalvageClass::data:
      return "data";
    case SalvageClass::committed_transaction:
      return "committed_transaction";
    case SalvageClass::aborted:
      return "aborted";
    case SalvageClass::open:
      return "open";
    case SalvageClass::control:
      return "control";
  }
  return "data";
}

bool replayed_by_default(SalvageClass c) {
  return c == SalvageClass::data || c == SalvageClass::committed_transaction;
}

std::string_view presence_by_name(PresenceBy by) {
  switch (by) {
    case PresenceBy::none:
      return "none";
    case PresenceBy::same_batch:
      return "same_batch";
    case PresenceBy::producer_sequence:
      return "producer_sequence";
    case PresenceBy::content:
      return "content";
  }
  return "none";
}

std::string_view certainty_name(Certainty c) {
  switch (c) {
    case Certainty::certain:
      return "certain";
    case Certainty::likely:
      return "likely";
    case Certainty::unknown:
      return "unknown";
  }
  return "unknown";
}

std::uint64_t content_hash(const Record& r) {
  std::uint64_t h = 14695981039346656037ull;
  hash_bytes(h, r.key);
  hash_bytes(h, r.value);
  mix(h, r.headers.size());
  for (const auto& header : r.headers) {
    hash_bytes(h, std::span<const std::uint8_t>(
                      reinterpret_cast<const std::uint8_t*>(header.key.data()), header.key.size()));
    hash_bytes(h, header.value);
  }
  return h;
}

void SalvageCounts::add(const SalvagedRecord& r) {
  ++records;
  switch (r.kind) {
    case SalvageClass::data:
      ++data;
      break;
    case SalvageClass::committed_transaction:
      ++committed_transaction;
      break;
    case SalvageClass::aborted:
      ++aborted;
      break;
    case SalvageClass::open:
      ++open;
      break;
    case SalvageClass::control:
      ++control;
      break;
  }
  if (!r.committed)
    ++committed_unknown;
  else if (*r.committed)
    ++committed;
  if (!r.presence.present)
    ++present_unknown;
  else if (*r.presence.present)
    ++present;
  if (replayed_by_default(r.kind) && r.presence.present != true) ++to_replay;
}

namespace {

// One follower's removed records to `visit`; `archived` (when given) holds the (epoch,
// offset) of records already archived from another follower of the partition.
ReplicaSalvage salvage_follower(const std::string& topic, std::int32_t partition,
                                const PartitionReplica& follower, const ReplicaForecast& forecast,
                                const CommittedBound& bound, LeaderIndex& index,
                                ArchivedRecords* archived, SalvageCounts& totals,
                                const std::function<void(const SalvagedRecord&)>& visit) {
  ReplicaSalvage rs;
  rs.replica = &follower;
  rs.truncate_to = forecast.prediction.truncate_to;
  rs.removed_range = forecast.removed_range;
  rs.removed_records = forecast.removed_records;
  if (!rs.removed_range) return rs;
  // A deferred forecast (RemovedTailRead::deferred) left the removed records to this walk,
  // which starts where its counted walk would (removed_range's first is the truncation
  // offset): counted as it goes, reported once the walk is done.
  std::optional<RemovedTailCount> count;
  if (forecast.removed_deferred) count.emplace();
  if (follower.stored)
    throw InputError(follower.dir.string(),
                     fmt::format("a snapshot keeps no record bytes: salvage reads the "
                                 "records {} to {} from the replica dir itself",
                                 rs.removed_range->first, rs.removed_range->second));
  const std::int64_t first = rs.removed_range->first;
  // A transactional batch's class is known only from a marker later in the log: the
  // transaction batches (headers and markers) are read once, from the first transactional
  // batch of the tail on, when the walk meets it. A tail without one (most) is read once.
  // Pairing from there pairs as from `first`: the batches before it are plain data, and a
  // marker with no transactional batch before it closes nothing (transaction_classes).
  std::optional<std::unordered_map<std::int64_t, SalvageClass>> classes;
  const auto on_batch = [&](DumpedBatch& b, const SegmentSummary& s) {
    const BatchHeader& h = b.header;
    SalvagedRecord out;
    out.topic = topic;
    out.partition = partition;
    out.replica = &follower;
    out.leader_epoch = h.partition_leader_epoch;
    out.log_append_time = h.log_append_time();
    out.producer_id = h.producer_id;
    out.producer_epoch = h.producer_epoch;
    out.transactional = h.is_transactional();
    SalvageClass kind = SalvageClass::data;
    if (h.is_control()) {
      kind = SalvageClass::control;
    } else if (h.is_transactional()) {
      if (!classes) {
        const auto batches = transaction_batches_from(follower, std::max(first, h.base_offset));
        classes = transaction_classes(batches ? *batches : std::vector<TransactionBatch>{});
      }
      const auto it = classes->find(h.base_offset);
      kind = it == classes->end() ? SalvageClass::open : it->second;
    }
    const bool same_batch = index.read && index.same_batch(h);
    walk_records(b, [&](const Record& r, const DumpedControl* control, const DumpedCoordinator*) {
      if (r.offset < first) return;
      if (archived && !archived->insert(h.partition_leader_epoch, r.offset)) {
        ++rs.archived_before;
        return;
      }
      out.offset = r.offset;
      out.timestamp = r.timestamp;
      out.record = &r;
      out.sequence = r.sequence;
      out.kind = kind;
      out.control.reset();
      if (control && control->control) out.control = control->control->type;
      out.committed = committed_at(bound, r.offset);
      Presence presence;
      if (!index.read) {
        presence = {std::nullopt, PresenceBy::none, Certainty::unknown};
      } else if (same_batch) {
        presence = {true, PresenceBy::same_batch, Certainty::certain};
      } else if (kind == SalvageClass::control) {
        presence = {false, PresenceBy::none, Certainty::certain};
      } else if (h.producer_id >= 0 &&
                 index.holds_sequence({h.producer_id, h.producer_epoch, r.sequence})) {
        presence = {true, PresenceBy::producer_sequence, Certainty::certain};
      } else {
        if (index.take_content(content_hash(r))) {
          presence = {true, PresenceBy::content, Certainty::likely};
        } else {
          presence = {false, PresenceBy::none, Certainty::certain};
        }
      }
      out.presence = presence;
      rs.counts.add(out);
      totals.add(out);
      visit(out);
    });
    throw_records_error(b, s);
  };
  walk_tail(follower, first, on_batch, count ? &*count : nullptr);
  if (count) rs.removed_records = count->records;
  return rs;
}

}  // namespace

struct LeaderTails::Read {
  std::string leader;  // its dir
  std::int64_t from = 0;
  LeaderIndex index;
};

LeaderTails::LeaderTails() = default;
LeaderTails::~LeaderTails() = default;

BatchRange LeaderTails::batches(const PartitionReplica& leader, std::int64_t from,
                                std::int64_t until) {
  // A snapshot (no record bytes to keep), or a second ask for the same leader (another
  // follower's truncation offset): the headers alone, as without LeaderTails.
  const bool read_before = std::any_of(reads_.begin(), reads_.end(), [&](const auto& r) {
    return r && r->leader == leader.dir.native();
  });
  if (leader.stored || read_before) return batches_from(leader, from, until);
  BatchRange range;
  auto read = std::make_unique<Read>();
  read->leader = leader.dir.native();
  read->from = from;
  read->index = read_leader(leader, from, &range, until);
  reads_.push_back(std::move(read));
  return range;
}

std::unique_ptr<LeaderTails::Read> LeaderTails::take(const PartitionReplica& leader,
                                                     std::int64_t from) {
  for (auto& r : reads_)
    if (r && r->leader == leader.dir.native() && r->from == from) return std::move(r);
  return nullptr;
}

bool LeaderTails::holds(const PartitionReplica& leader, std::int64_t from) const {
  return std::any_of(reads_.begin(), reads_.end(), [&](const auto& r) {
    return r && r->leader == leader.dir.native() && r->from == from;
  });
}

SalvageResult salvage_removed(const TruncationPredictions& predictions, bool leader_clean,
                              const std::function<void(const SalvagedRecord&)>& visit,
                              LeaderTails* tails) {
  SalvageResult result;
  for (const PartitionPrediction& p : predictions.partitions) {
    const PartitionReplica& leader = p.replicas.front();
    PartitionSalvage ps;
    ps.topic = leader.topic;
    ps.partition = leader.partition;
    ps.leader = leader.dir.string();
    std::vector<const PartitionReplica*> known;
    for (const auto& r : p.replicas)
      known.push_back(&r);
    // The lowest offset any follower loses from: the leader is read from there.
    std::optional<std::int64_t> lowest;
    std::size_t removing = 0;
    for (const auto& f : p.followers) {
      const auto& range = f.forecasts.front().removed_range;
      if (!range) continue;
      ++removing;
      lowest = lowest ? std::min(*lowest, range->first) : range->first;
    }
    LeaderIndex index;
    if (lowest) {
      auto read = tails ? tails->take(leader, *lowest) : nullptr;
      index = read ? std::move(read->index) : read_leader(leader, *lowest);
    }
    ps.leader_read = index.read;
    ArchivedRecords archived;  // (epoch, offset), 2+ followers
    for (const auto& f : p.followers) {
      const PartitionReplica& follower = p.replicas[f.replica];
      ps.replicas.push_back(salvage_follower(
          ps.topic, ps.partition, follower, f.forecasts.front(),
          committed_bound(follower, known, leader_holds_committed(leader, leader_clean)), index,
          removing > 1 ? &archived : nullptr, result.totals, visit));
      archived.next_follower();
    }
    result.partitions.push_back(std::move(ps));
  }
  return result;
}

bool restart_loses_records(const RestartForecast& restart) {
  for (const PartitionRestart& p : restart.partitions) {
    if (p.outcome != RestartOutcome::follows || !p.forecast) continue;
    const ReplicaForecast& f = *p.forecast;
    if (f.lost_records > 0 || f.lost_unknown_records > 0 ||
        (!f.lost_counted && f.removed_records > 0))
      return true;
  }
  return false;
}

SalvageResult salvage_restart(const RestartForecast& restart,
                              const std::function<void(const SalvagedRecord&)>& visit) {
  SalvageResult result;
  for (const PartitionRestart& p : restart.partitions) {
    if (p.outcome != RestartOutcome::follows || !p.forecast || !p.forecast->removed_range) continue;
    PartitionSalvage ps;
    ps.topic = p.replica.topic;
    ps.partition = p.replica.partition;
    ps.leader = p.live && p.live->leader >= 0 ? fmt::format("broker {} (live)", p.live->leader)
                                              : std::string("the live leader");
    ps.leader_read = false;  // its records are not read: whether it holds them is unknown
    // The live forecast counts committed below the replica's own high watermark, with its
    // doubts (forecast_replica's default): the same bound here.
    CommittedBound bound;
    bound.below = p.replica.loaded.high_watermark;
    bound.doubts = high_watermark_doubts(p.replica, nullptr, false);
    LeaderIndex none;
    ps.replicas.push_back(salvage_follower(ps.topic, ps.partition, p.replica, *p.forecast, bound,
                                           none, nullptr, result.totals, visit));
    result.partitions.push_back(std::move(ps));
  }
  return result;
}

}  // namespace kepoch::forecast

// Pins salvage (forecast/salvage): a removed record's class as Kafka's transactions decide
// it (a producer's transactional batches are closed by its next control batch: COMMIT
// commits them, ABORT aborts them, as the read_committed consumer and the .txnindex read
// them; none yet: open), whether the new leader holds it, and the archive's round trip.
// On the transactions fixture (tests/data/transactions/tx-0, Kafka 4.1.1): commit-0..2 +
// COMMIT (offsets 0-3), abort-0..1 + ABORT (4-6), plain idempotent plain-0..1 (7-8).
#include <catch2/catch.hpp>

#include <map>
#include <sstream>
#include <string>

#include <fmt/format.h>

#include "kepoch/base/crc32c.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/forecast/replay.hpp"
#include "kepoch/forecast/salvage.hpp"
#include "kepoch/forecast/salvage_archive.hpp"
#include "kepoch/storage/consumer_view.hpp"
#include "kepoch/storage/partition_replica.hpp"
#include "support/forecast_fixtures.hpp"
#include "support/scratch_files.hpp"
#include "support/source_dir.hpp"

using namespace kepoch;
using namespace kepoch::forecast;

namespace {

TransactionBatch txn(std::int64_t base, std::int64_t last, std::int64_t producer) {
  TransactionBatch b;
  b.base_offset = base;
  b.last_offset = last;
  b.records = static_cast<std::int32_t>(last - base + 1);
  b.transactional = true;
  b.producer_id = producer;
  return b;
}

TransactionBatch marker(std::int64_t offset, std::int64_t producer, ControlRecordType type) {
  TransactionBatch b = txn(offset, offset, producer);
  b.control = true;
  b.marker = type;
  return b;
}

PartitionReplica tx_replica() {
  return load_partition_replica(std::string(KEPOCH_SOURCE_DIR) + "/tests/data/transactions/tx-0",
                                {}, LoadDepth::tail);
}

// A prediction in which `follower` loses [from, its log end) to `leader`.
TruncationPredictions losing(PartitionReplica leader, PartitionReplica follower,
                             std::int64_t from) {
  PartitionPrediction p;
  p.replicas.push_back(std::move(leader));
  p.replicas.push_back(std::move(follower));
  FollowerPrediction f;
  f.replica = 1;
  ReplicaForecast forecast;
  forecast.prediction.truncate_to = from;
  forecast.removed_range = std::make_pair(from, p.replicas[1].log_end_offset - 1);
  forecast.removed_records = static_cast<std::uint64_t>(p.replicas[1].log_end_offset - from);
  f.forecasts.push_back(forecast);
  p.followers.push_back(f);
  TruncationPredictions out;
  out.partitions.push_back(std::move(p));
  return out;
}

struct Seen {
  SalvageClass kind;
  std::optional<ControlRecordType> control;
  Presence presence;
  std::string key;
  std::int64_t producer_id;
};

std::map<std::int64_t, Seen> salvage_all(const TruncationPredictions& p, std::string* archive) {
  std::map<std::int64_t, Seen> seen;
  std::ostringstream out;
  write_archive_header(out, "kepoch test");
  const SalvageResult result = salvage_removed(p, false, [&](const SalvagedRecord& r) {
    std::string key;
    if (r.record->key) key.assign(r.record->key->begin(), r.record->key->end());
    seen[r.offset] = {r.kind, r.control, r.presence, key, r.producer_id};
    write_archive_record(out, r);
  });
  write_archive_end(out, result.totals.records);
  if (archive) *archive = out.str();
  return seen;
}

// The transactions fixture as a new leader holding its batches again at offsets 100 on: a
// producer's retry after an election (the same batch, producer id, epoch and sequences, at
// other offsets: a v2 batch's CRC does not cover its base offset). With `epoch_bump`, each
// batch's producer epoch is one higher (the CRC, which covers it, recomputed): a producer
// that bumped its epoch and re-sent.
struct RetriedLeader {
  test::ScratchReplica scratch{std::string(KEPOCH_SOURCE_DIR) + "/tests/data/transactions/tx-0"};
  explicit RetriedLeader(bool epoch_bump) {
    namespace fs = std::filesystem;
    auto log = test::slurp(scratch.file("00000000000000000000.log"));
    for (std::size_t at = 0; at + 61 <= log.size();) {
      const auto be = [&](std::size_t from, int n) {
        std::uint64_t v = 0;
        for (int i = 0; i < n; ++i)
          v = v << 8 | log[from + static_cast<std::size_t>(i)];
        return v;
      };
      const auto put = [&](std::size_t from, int n, std::uint64_t v) {
        for (int i = n - 1; i >= 0; --i, v >>= 8)
          log[from + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(v);
      };
      const std::size_t size = 12 + be(at + 8, 4);
      put(at, 8, be(at, 8) + 100);
      if (epoch_bump) {
        put(at + 51, 2, be(at + 51, 2) + 1);
        put(at + 17, 4, kepoch::crc32c(std::span(log).subspan(at + 21, size - 21)));
      }
      at += size;
    }
    for (const auto& f : fs::directory_iterator(scratch.dir))
      if (f.path().filename() != "partition.metadata") fs::remove(f.path());
    test::spit(scratch.file("00000000000000000100.log"), log);
  }
  PartitionReplica replica() const {
    return load_partition_replica(scratch.dir, {}, LoadDepth::tail);
  }
};

// The transactions fixture's batches (Kafka 4.1.1's bytes, unchanged) split into several
// segments, as a log rolled between them: segment 0 holds [0-2] and the COMMIT marker 3,
// segment 4 holds [4-5] and the ABORT marker 6, segment 7 holds [7-8]. Each segment has an
// offset index with an entry per batch (last offset -> position, as LogSegment.append
// writes them), so a walk from an offset inside a segment enters it at that batch
// (segment_seek), not at the segment's start.
struct SplitReplica {
  test::ScratchReplica scratch{std::string(KEPOCH_SOURCE_DIR) + "/tests/data/transactions/tx-0"};
  SplitReplica() {
    namespace fs = std::filesystem;
    const auto log = test::slurp(scratch.file("00000000000000000000.log"));
    for (const auto& f : fs::directory_iterator(scratch.dir))
      if (f.path().extension() != ".metadata" && f.path().filename() != "leader-epoch-checkpoint")
        fs::remove(f.path());
    const auto be = [&](std::size_t from, int n) {
      std::uint64_t v = 0;
      for (int i = 0; i < n; ++i)
        v = v << 8 | log[from + static_cast<std::size_t>(i)];
      return v;
    };
    const auto put32 = [](std::vector<std::uint8_t>& out, std::uint32_t v) {
      for (int shift = 24; shift >= 0; shift -= 8)
        out.push_back(static_cast<std::uint8_t>(v >> shift));
    };
    std::vector<std::uint8_t> segment, index;
    std::int64_t base = 0;
    const auto flush = [&] {
      if (segment.empty()) return;
      const std::string name = fmt::format("{:020}", base);
      test::spit(scratch.file(name + ".log"), segment);
      test::spit(scratch.file(name + ".index"), index);
      segment.clear();
      index.clear();
    };
    for (std::size_t at = 0; at + 61 <= log.size();) {
      const std::size_t size = 12 + be(at + 8, 4);
      const auto first = static_cast<std::int64_t>(be(at, 8));
      const std::int64_t last = first + static_cast<std::int64_t>(be(at + 23, 4));
      if (first == 4 || first == 7) {  // a new segment starts at this batch
        flush();
        base = first;
      }
      put32(index, static_cast<std::uint32_t>(last - base));
      put32(index, static_cast<std::uint32_t>(segment.size()));
      segment.insert(segment.end(), log.begin() + static_cast<std::ptrdiff_t>(at),
                     log.begin() + static_cast<std::ptrdiff_t>(at + size));
      at += size;
    }
    flush();
    scratch.clean_shutdown();
    scratch.recovery_point("tx", 9);
  }
  PartitionReplica replica() const {
    return load_partition_replica(scratch.dir, {}, LoadDepth::tail);
  }
};

// The archive's lines with the replica dir `dir` written as "R" (the same records read from
// two copies of a replica are the same lines but for it).
std::string without_dir(std::string archive, const std::string& dir) {
  const std::string quoted = "\"" + dir + "\"";
  for (auto at = archive.find(quoted); at != std::string::npos; at = archive.find(quoted))
    archive.replace(at, quoted.size(), "\"R\"");
  return archive;
}

}  // namespace

TEST_CASE(
    "A removed tail that starts inside a segment and spans several is salvaged as from one "
    "segment: the same archive, line for line, entering each segment at its index entry",
    "[forecast][salvage]") {
  const SplitReplica split;
  const PartitionReplica whole = tx_replica();
  REQUIRE(split.replica().segments.size() == 3);
  // From 3 (the COMMIT marker, in segment 0 after [0-2]), 5 (inside the batch [4-5]) and 8
  // (inside the last batch), against a leader holding the same batches, one holding them
  // again at other offsets (producer sequences), and one read from a snapshot.
  for (const std::int64_t from : {0, 3, 5, 8}) {
    for (int leader_kind = 0; leader_kind < 3; ++leader_kind) {
      INFO("from " << from << ", leader " << leader_kind);
      const RetriedLeader retried(false);
      const auto leader = [&] {
        if (leader_kind == 1) return retried.replica();
        PartitionReplica l = tx_replica();
        if (leader_kind == 2) l.stored = StoredBatches{};
        return l;
      };
      std::string a, b;
      const auto seen_whole = salvage_all(losing(leader(), tx_replica(), from), &a);
      const auto seen_split = salvage_all(losing(leader(), split.replica(), from), &b);
      CHECK(static_cast<std::int64_t>(seen_split.size()) == 9 - from);
      CHECK(seen_split.begin()->first == from);
      CHECK(without_dir(b, split.scratch.dir.string()) == without_dir(a, whole.dir.string()));
    }
  }
  // The classes of the split copy's records are the fixture's: the markers that close the
  // transactions lie in other segments than some of their batches.
  const auto seen = salvage_all(losing(tx_replica(), split.replica(), 0), nullptr);
  REQUIRE(seen.size() == 9);
  CHECK(seen.at(2).kind == SalvageClass::committed_transaction);
  CHECK(seen.at(3).control == ControlRecordType::commit);
  CHECK(seen.at(5).kind == SalvageClass::aborted);
  CHECK(seen.at(6).control == ControlRecordType::abort);
  CHECK(seen.at(8).kind == SalvageClass::data);
}

TEST_CASE(
    "The forecast salvage starts from counts the removed records and their kinds in one walk "
    "of the follower's tail: the same as its batches (batches_from) and its transaction "
    "batches (transaction_batches_from, consumer_kinds), also across segments",
    "[forecast][salvage][replica_forecast]") {
  const SplitReplica split;
  // The leader holds nothing from the cut on: every removed batch is lost, by its kind.
  for (const std::int64_t cut : {0, 3, 5, 7, 8}) {
    for (const bool split_copy : {false, true}) {
      INFO("cut " << cut << (split_copy ? ", split" : ", one segment"));
      const PartitionReplica follower = split_copy ? split.replica() : tx_replica();
      const ReplicaForecast f = test::forecast_from(follower, cut);
      // The oracle: the two walks the forecast made before, each on its own.
      const BatchRange removed = batches_from(follower, cut);
      const auto batches = transaction_batches_from(follower, cut);
      REQUIRE(batches);
      const std::vector<RecordKind> kinds = consumer_kinds(*batches);
      std::uint64_t data = 0, aborted = 0, control = 0;
      for (std::size_t i = 0; i < batches->size(); ++i) {
        const auto n = static_cast<std::uint64_t>((*batches)[i].records);
        (kinds[i] == RecordKind::aborted   ? aborted
         : kinds[i] == RecordKind::control ? control
                                           : data) += n;
      }
      CHECK(f.removed_records == removed.records);
      CHECK(f.removed_bytes == removed.bytes);
      CHECK(f.lost_records == data);
      CHECK(f.lost_aborted_records == aborted);
      CHECK(f.lost_control_records == control);
      CHECK(f.transactions_known);
    }
  }
  // The fixture's numbers, from 3: the COMMIT marker, [4-5] aborted, the ABORT marker, [7-8].
  const ReplicaForecast f = test::forecast_from(split.replica(), 3);
  CHECK(f.removed_records == 6);
  CHECK(f.lost_records == 2);
  CHECK(f.lost_aborted_records == 2);
  CHECK(f.lost_control_records == 2);
}

TEST_CASE(
    "The leader's tail read once for the forecast and for what it holds (LeaderTails) gives "
    "the forecast and the archive that two reads give",
    "[forecast][salvage]") {
  const std::string divergence = std::string(KEPOCH_SOURCE_DIR) + "/tests/data/divergence/before/";
  const auto load = [](const std::string& dir) {
    return load_partition_replica(dir, {}, LoadDepth::tail);
  };
  const SplitReplica split;
  // Kafka's own divergence (broker 2 or 3 leads, broker 1 loses 5..7: the forecast asks the
  // leader's batches there), and the split transactions copy against a leader holding the
  // same batches again at 100 on (the follower truncates fully below the leader's log
  // start: the forecast asks nothing, salvage reads the leader itself).
  const RetriedLeader retried(false);
  struct Case {
    PartitionReplica leader;
    PartitionReplica follower;
    bool forecast_reads_leader;
  };
  std::vector<Case> cases;
  cases.push_back({load(divergence + "broker-2/d-0"), load(divergence + "broker-1/d-0"), true});
  cases.push_back({load(divergence + "broker-3/d-0"), load(divergence + "broker-1/d-0"), true});
  cases.push_back({retried.replica(), split.replica(), false});
  for (auto& c : cases) {
    INFO(c.leader.dir.string() << " leads " << c.follower.dir.string());
    const auto predict = [&](LeaderTails* tails) {
      std::vector<std::vector<PartitionReplica>> groups{{c.leader, c.follower}};
      LeaderBatchReader reader;
      if (tails)
        reader = [tails](const PartitionReplica& l, std::int64_t from, std::int64_t until) {
          return tails->batches(l, from, until);
        };
      return predict_truncations(std::move(groups), {TruncationMode::fetch}, nullptr, reader);
    };
    const TruncationPredictions plain = predict(nullptr);
    LeaderTails tails;
    const TruncationPredictions shared = predict(&tails);
    REQUIRE(shared.partitions[0].followers[0].forecasts[0].removed_range);
    // The forecast read the leader's tail from where the follower's removed records start.
    CHECK(tails.holds(shared.partitions[0].replicas[0],
                      shared.partitions[0].followers[0].forecasts[0].removed_range->first) ==
          c.forecast_reads_leader);
    const ReplicaForecast& a = plain.partitions[0].followers[0].forecasts[0];
    const ReplicaForecast& b = shared.partitions[0].followers[0].forecasts[0];
    CHECK(a.prediction.truncate_to == b.prediction.truncate_to);
    CHECK(a.removed_records == b.removed_records);
    CHECK(a.removed_bytes == b.removed_bytes);
    CHECK(a.removed_range == b.removed_range);
    CHECK(a.lost_records == b.lost_records);
    CHECK(a.committed_lost_records == b.committed_lost_records);
    CHECK(a.lost_unknown_records == b.lost_unknown_records);
    REQUIRE(a.removed_range);
    CHECK(a.removed_records > 0);
    std::string without, with;
    const auto archive = [](const TruncationPredictions& p, LeaderTails* t, std::string& out) {
      std::ostringstream o;
      const SalvageResult r = salvage_removed(
          p, false, [&](const SalvagedRecord& rec) { write_archive_record(o, rec); }, t);
      out = o.str();
      return r.totals;
    };
    const SalvageCounts x = archive(plain, nullptr, without);
    const SalvageCounts y = archive(shared, &tails, with);
    CHECK(with == without);
    CHECK(x.records == y.records);
    CHECK(x.present == y.present);
    CHECK(x.to_replay == y.to_replay);
    // The read was taken: a second salvage reads the leader itself, the same again.
    CHECK_FALSE(tails.holds(shared.partitions[0].replicas[0], a.removed_range->first));
  }
}

TEST_CASE(
    "A deferred forecast (the archive's walk counts the removed tail) gives the report and the "
    "archive of a counted one",
    "[forecast][salvage]") {
  const std::string divergence = std::string(KEPOCH_SOURCE_DIR) + "/tests/data/divergence/before/";
  const auto load = [](const std::string& dir) {
    return load_partition_replica(dir, {}, LoadDepth::tail);
  };
  const SplitReplica split;
  const RetriedLeader retried(false);
  struct Case {
    std::vector<PartitionReplica> replicas;
    bool deferred;  // known to begin at the truncation offset: left to the walk
  };
  std::vector<Case> cases;
  cases.push_back({{load(divergence + "broker-2/d-0"), load(divergence + "broker-1/d-0")}, true});
  cases.push_back({{load(divergence + "broker-3/d-0"), load(divergence + "broker-1/d-0"),
                    load(divergence + "broker-2/d-0")},
                   true});
  // (truncates fully below the leader's log start: deferred or counted, the same answers)
  cases.push_back({{retried.replica(), split.replica()}, false});
  for (auto& c : cases) {
    INFO(c.replicas[0].dir.string() << " leads");
    const auto predict = [&](RemovedTailRead read, LeaderTails& tails) {
      std::vector<std::vector<PartitionReplica>> groups{c.replicas};
      return predict_truncations(
          std::move(groups), {TruncationMode::fetch}, nullptr,
          [&tails](const PartitionReplica& l, std::int64_t from, std::int64_t until) {
            return tails.batches(l, from, until);
          },
          read);
    };
    LeaderTails counted_tails, deferred_tails;
    const TruncationPredictions counted = predict(RemovedTailRead::counted, counted_tails);
    const TruncationPredictions deferred = predict(RemovedTailRead::deferred, deferred_tails);
    const ReplicaForecast& a = counted.partitions[0].followers[0].forecasts[0];
    const ReplicaForecast& b = deferred.partitions[0].followers[0].forecasts[0];
    CHECK_FALSE(a.removed_deferred);
    if (c.deferred) CHECK(b.removed_deferred);
    CHECK(a.prediction.truncate_to == b.prediction.truncate_to);
    CHECK(a.removed_range == b.removed_range);
    if (c.deferred) CHECK(b.removed_records == 0);  // left to the walk
    const auto archive = [](const TruncationPredictions& p, LeaderTails& t, std::string& out) {
      std::ostringstream o;
      SalvageResult r = salvage_removed(
          p, false, [&](const SalvagedRecord& rec) { write_archive_record(o, rec); }, &t);
      out = o.str();
      return r;
    };
    std::string x_archive, y_archive;
    const SalvageResult x = archive(counted, counted_tails, x_archive);
    const SalvageResult y = archive(deferred, deferred_tails, y_archive);
    CHECK(x_archive == y_archive);
    CHECK(x.totals.records == y.totals.records);
    CHECK(x.totals.present == y.totals.present);
    CHECK(x.totals.to_replay == y.totals.to_replay);
    REQUIRE(x.partitions.size() == y.partitions.size());
    REQUIRE(x.partitions[0].replicas.size() == y.partitions[0].replicas.size());
    for (std::size_t i = 0; i < x.partitions[0].replicas.size(); ++i) {
      const ReplicaSalvage& r = x.partitions[0].replicas[i];
      const ReplicaSalvage& q = y.partitions[0].replicas[i];
      CHECK(r.truncate_to == q.truncate_to);
      CHECK(r.removed_range == q.removed_range);
      CHECK(r.removed_records == q.removed_records);
      CHECK(r.counts.records == q.counts.records);
      CHECK(r.archived_before == q.archived_before);
    }
    CHECK(x.partitions[0].replicas[0].removed_records > 0);
  }
}

TEST_CASE(
    "A deferred tail's removed records count as the counted forecast's walk counts them: a "
    "batch past the log end ends its segment",
    "[forecast][salvage]") {
  const auto batch = [](std::int64_t base, std::int32_t records, std::int8_t magic = 2) {
    BatchHeader h;
    h.magic = magic;
    h.base_offset = base;
    h.last_offset_delta = records - 1;
    h.records_count = records;
    h.size_field = 100;
    return h;
  };
  RemovedTailCount count;
  count.see(batch(10, 3), 0, 20);     // 10-12
  count.see(batch(13, 2, 1), 0, 20);  // a legacy entry: 1
  count.see(batch(14, 10), 0, 20);    // 14-23: past the log end, cut by recovery
  count.see(batch(16, 2), 0, 20);     // the rest of that segment is not the log's
  count.see(batch(18, 2), 1, 20);     // the next segment's: counted
  CHECK(count.records == 6);
  CHECK(count.bytes == 3 * (100 + kLogOverhead));
}

TEST_CASE(
    "A record removed from two followers is archived once (the second counts it archived "
    "before), whichever order their offsets come in",
    "[forecast][salvage]") {
  const SplitReplica split;
  PartitionPrediction p;
  p.replicas.push_back(tx_replica());     // the leader
  p.replicas.push_back(tx_replica());     // loses 5..8
  p.replicas.push_back(split.replica());  // loses 2..8: 5..8 are the first follower's already
  for (const auto& [replica, from] :
       {std::pair{1u, std::int64_t{5}}, std::pair{2u, std::int64_t{2}}}) {
    FollowerPrediction f;
    f.replica = replica;
    ReplicaForecast forecast;
    forecast.prediction.truncate_to = from;
    forecast.removed_range = std::make_pair(from, std::int64_t{8});
    forecast.removed_records = static_cast<std::uint64_t>(9 - from);
    f.forecasts.push_back(forecast);
    p.followers.push_back(f);
  }
  TruncationPredictions predictions;
  predictions.partitions.push_back(std::move(p));
  std::vector<std::int64_t> offsets;
  const SalvageResult result = salvage_removed(
      predictions, false, [&](const SalvagedRecord& r) { offsets.push_back(r.offset); });
  CHECK(offsets == std::vector<std::int64_t>{5, 6, 7, 8, 2, 3, 4});
  REQUIRE(result.partitions.size() == 1);
  CHECK(result.partitions[0].replicas[0].archived_before == 0);
  CHECK(result.partitions[0].replicas[1].archived_before == 4);
  CHECK(result.totals.records == 7);
}

TEST_CASE(
    "Records whose leader epochs fall as their offsets rise (a damaged log) are archived once "
    "each, and a second such follower's are all archived before",
    "[forecast][salvage]") {
  // The split copy with each batch's partition leader epoch (bytes 12-15, outside the CRC)
  // set to 9, 8, 7, 6, 5 in offset order.
  const SplitReplica split;
  for (const auto& f : std::filesystem::directory_iterator(split.scratch.dir)) {
    if (f.path().extension() != ".log") continue;
    auto log = test::slurp(f.path());
    for (std::size_t at = 0; at + 61 <= log.size();) {
      std::uint64_t base = 0;
      for (int i = 0; i < 8; ++i)
        base = base << 8 | log[at + static_cast<std::size_t>(i)];
      const std::size_t size =
          12 + (std::size_t{log[at + 8]} << 24 | std::size_t{log[at + 9]} << 16 |
                std::size_t{log[at + 10]} << 8 | log[at + 11]);
      // Batch bases 0, 3, 4, 6, 7: epochs 9, 8, 7, 6, 5.
      const std::uint8_t epoch = base == 0 ? 9 : base == 3 ? 8 : base == 4 ? 7 : base == 6 ? 6 : 5;
      log[at + 12] = log[at + 13] = log[at + 14] = 0;
      log[at + 15] = epoch;
      at += size;
    }
    test::spit(f.path(), log);
  }
  PartitionPrediction p;
  p.replicas.push_back(tx_replica());     // the leader
  p.replicas.push_back(split.replica());  // loses 0..8
  p.replicas.push_back(split.replica());  // the same records again
  for (const unsigned replica : {1u, 2u}) {
    FollowerPrediction f;
    f.replica = replica;
    ReplicaForecast forecast;
    forecast.removed_range = std::make_pair(std::int64_t{0}, std::int64_t{8});
    forecast.removed_records = 9;
    f.forecasts.push_back(forecast);
    p.followers.push_back(f);
  }
  TruncationPredictions predictions;
  predictions.partitions.push_back(std::move(p));
  std::vector<std::pair<std::int32_t, std::int64_t>> seen;
  const SalvageResult result = salvage_removed(predictions, false, [&](const SalvagedRecord& r) {
    seen.emplace_back(r.leader_epoch, r.offset);
  });
  REQUIRE(seen.size() == 9);
  CHECK(seen.front() == std::pair<std::int32_t, std::int64_t>{9, 0});
  CHECK(seen.back() == std::pair<std::int32_t, std::int64_t>{5, 8});
  CHECK(result.partitions[0].replicas[0].archived_before == 0);
  CHECK(result.partitions[0].replicas[1].archived_before == 9);
}

TEST_CASE(
    "A record the new leader holds with its producer id and epoch and sequence at other "
    "offsets (an idempotent producer's retry) is present by producer_sequence and certain: "
    "with another producer epoch only by content (ProducerStateEntry.findDuplicateBatch)",
    "[forecast][salvage]") {
  {
    const RetriedLeader leader(false);
    const auto seen = salvage_all(losing(leader.replica(), tx_replica(), 7), nullptr);
    REQUIRE(seen.size() == 2);  // plain-0, plain-1: idempotent, not transactional
    for (const auto& [offset, s] : seen) {
      CHECK(s.producer_id >= 0);
      CHECK(s.presence.present == true);
      CHECK(s.presence.by == PresenceBy::producer_sequence);
      CHECK(s.presence.certainty == Certainty::certain);
    }
  }
  {
    // Kafka's duplicate check compares the producer epoch first: a batch of another epoch is
    // never the same batch, whatever its sequences. The same key, value and headers remain.
    const RetriedLeader leader(true);
    const auto seen = salvage_all(losing(leader.replica(), tx_replica(), 7), nullptr);
    REQUIRE(seen.size() == 2);
    for (const auto& [offset, s] : seen) {
      CHECK(s.presence.present == true);
      CHECK(s.presence.by == PresenceBy::content);
      CHECK(s.presence.certainty == Certainty::likely);
    }
  }
}

TEST_CASE("A transactional batch's class is its producer's next marker (COMMIT, ABORT), or open",
          "[forecast][salvage]") {
  const auto classes = transaction_classes({
      txn(0, 1, 7), txn(2, 2, 8),
      marker(3, 9, ControlRecordType::leader_change),  // not a transaction marker
      marker(4, 7, ControlRecordType::commit), marker(5, 8, ControlRecordType::abort),
      txn(6, 7, 7),  // a new transaction of producer 7: no marker follows
  });
  CHECK(classes.at(0) == SalvageClass::committed_transaction);
  CHECK(classes.at(2) == SalvageClass::aborted);
  CHECK(classes.at(6) == SalvageClass::open);
  CHECK_FALSE(classes.contains(4));  // markers are control records, not listed
}

TEST_CASE(
    "Salvaging the transactions fixture whole: each record's class from the markers in "
    "the tail, and a leader holding the same batches holds every record (same_batch)",
    "[forecast][salvage]") {
  std::string archive;
  const auto seen = salvage_all(losing(tx_replica(), tx_replica(), 0), &archive);
  REQUIRE(seen.size() == 9);
  for (std::int64_t o : {0, 1, 2})
    CHECK(seen.at(o).kind == SalvageClass::committed_transaction);
  CHECK(seen.at(0).key == "commit-0");
  CHECK(seen.at(3).kind == SalvageClass::control);
  CHECK(seen.at(3).control == ControlRecordType::commit);
  for (std::int64_t o : {4, 5})
    CHECK(seen.at(o).kind == SalvageClass::aborted);
  CHECK(seen.at(6).control == ControlRecordType::abort);
  for (std::int64_t o : {7, 8}) {
    CHECK(seen.at(o).kind == SalvageClass::data);
    CHECK(seen.at(o).producer_id >= 0);  // idempotent
  }
  for (const auto& [offset, s] : seen) {
    CHECK(s.presence.present == true);
    CHECK(s.presence.by == PresenceBy::same_batch);
    CHECK(s.presence.certainty == Certainty::certain);
  }

  // The archive reads back byte for byte.
  std::istringstream in(archive);
  ArchiveReader reader(in, "a.jsonl");
  CHECK(reader.version() == 1);
  std::vector<ArchivedRecord> back;
  while (auto r = reader.next())
    back.push_back(*r);
  REQUIRE(back.size() == 9);
  CHECK(back[0].topic == "tx");
  CHECK(std::string(back[0].key->begin(), back[0].key->end()) == "commit-0");
  CHECK(back[4].kind == SalvageClass::aborted);
  CHECK(back[7].kind == SalvageClass::data);
  CHECK(back[7].present == true);
}

TEST_CASE(
    "From the offset of the aborted transaction on, and a leader read from a snapshot cannot "
    "say what it holds",
    "[forecast][salvage]") {
  PartitionReplica leader = tx_replica();
  leader.stored = StoredBatches{};  // a snapshot keeps no record bytes
  const auto seen = salvage_all(losing(std::move(leader), tx_replica(), 4), nullptr);
  REQUIRE(seen.size() == 5);
  CHECK(seen.begin()->first == 4);
  CHECK(seen.at(4).kind == SalvageClass::aborted);
  for (const auto& [offset, s] : seen) {
    CHECK_FALSE(s.presence.present.has_value());
    CHECK(s.presence.certainty == Certainty::unknown);
  }
}

TEST_CASE("Content hash: null differs from empty and headers count", "[forecast][salvage]") {
  {
    // Equal bytes hash equal at every length (the 32-byte steps, the 8-byte steps and the
    // last bytes), and one changed byte anywhere changes the hash.
    std::vector<std::uint8_t> bytes(100);
    for (std::size_t i = 0; i < bytes.size(); ++i)
      bytes[i] = static_cast<std::uint8_t>(i * 37 + 11);
    for (std::size_t n = 0; n <= bytes.size(); ++n) {
      std::vector<std::uint8_t> copy(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
      Record x, y;
      x.value = std::span<const std::uint8_t>(bytes.data(), n);
      y.value = std::span<const std::uint8_t>(copy);
      CHECK(content_hash(x) == content_hash(y));
      for (std::size_t at = 0; at < n; ++at) {
        copy[at] ^= 0x40;
        CHECK(content_hash(x) != content_hash(y));
        copy[at] ^= 0x40;
      }
      // The same bytes split otherwise between key and value differ.
      if (n > 0) {
        Record z;
        z.key = std::span<const std::uint8_t>(bytes.data(), 1);
        z.value = std::span<const std::uint8_t>(bytes.data() + 1, n - 1);
        CHECK(content_hash(x) != content_hash(z));
      }
    }
  }
  const std::uint8_t a[] = {'a'};
  Record x, y;
  x.value = std::span<const std::uint8_t>(a, 1);
  y.value = std::span<const std::uint8_t>(a, 1);
  CHECK(content_hash(x) == content_hash(y));
  y.key = std::span<const std::uint8_t>();
  CHECK(content_hash(x) != content_hash(y));
  y.key.reset();
  y.headers.push_back({"h", std::nullopt});
  CHECK(content_hash(x) != content_hash(y));
}

TEST_CASE(
    "An archive that is cut short or of another version or with bad base64 is refused with "
    "its line",
    "[forecast][salvage]") {
  const std::string head = R"({"format":"kepoch-salvage-archive","version":1,"written_by":"t"})";
  const std::string rec =
      R"({"topic":"t","partition":0,"offset":5,"leader_epoch":1,"timestamp":1,)"
      R"("timestamp_type":"create_time","key":null,"value":"YQ==","headers":[],)"
      R"("producer_id":-1,"producer_epoch":-1,"sequence":-1,"transactional":false,)"
      R"("class":"data","control_type":null,"committed":true,)"
      R"("on_new_leader":{"present":false,"by":null,"certainty":"certain"},"replica":"r"})";
  const auto read_all = [](const std::string& text) {
    std::istringstream in(text);
    ArchiveReader reader(in, "a.jsonl");
    while (reader.next()) {
    }
  };
  CHECK_NOTHROW(read_all(head + "\n" + rec + "\n{\"end\":{\"records\":1}}\n"));
  try {
    read_all(head + "\n" + rec + "\n");
    FAIL("a cut archive was read");
  } catch (const InputError& e) {
    CHECK(e.line() == 3);
    CHECK(std::string(e.what()).find("without its end line") != std::string::npos);
  }
  // What a live replay reads before producing anything: the count, or the same refusal.
  std::istringstream whole(head + "\n" + rec + "\n{\"end\":{\"records\":1}}\n");
  const ArchiveCheck checked = check_archive(whole, "a.jsonl");
  CHECK(checked.records == 1);
  // Its one record as replay produces it: the value "a", and kepoch.salvaged.from = "t-0@5:1".
  CHECK(checked.largest_record_bytes == 1 + 20 + 7);
  std::istringstream cut(head + "\n" + rec + "\n");
  CHECK_THROWS_AS(check_archive(cut, "a.jsonl"), InputError);
  CHECK_THROWS_AS(read_all(R"({"format":"kepoch-salvage-archive","version":2})"
                           "\n"),
                  InputError);
  CHECK_THROWS_AS(read_all(head + "\n{\"end\":{\"records\":2}}\n"), InputError);
  std::string bad = rec;
  bad.replace(bad.find("YQ=="), 4, "Y!==");
  try {
    read_all(head + "\n" + bad + "\n{\"end\":{\"records\":1}}\n");
    FAIL("bad base64 was read");
  } catch (const InputError& e) {
    CHECK(e.line() == 2);
  }
}

TEST_CASE(
    "An archive holds a record once: a duplicated line, or a partition's records split by "
    "another's, is refused with its line (the same offset in another leader epoch is another "
    "record)",
    "[forecast][salvage]") {
  const std::string head = R"({"format":"kepoch-salvage-archive","version":1,"written_by":"t"})";
  const auto rec = [](std::string_view topic, int offset, int epoch, std::string_view replica) {
    return fmt::format(
        R"({{"topic":"{}","partition":0,"offset":{},"leader_epoch":{},"timestamp":1,)"
        R"("timestamp_type":"create_time","key":null,"value":"YQ==","headers":[],)"
        R"("producer_id":-1,"producer_epoch":-1,"sequence":-1,"transactional":false,)"
        R"("class":"data","control_type":null,"committed":true,)"
        R"("on_new_leader":{{"present":false,"by":null,"certainty":"certain"}},"replica":"{}"}})",
        topic, offset, epoch, replica);
  };
  const auto archive = [&](const std::vector<std::string>& records) {
    std::string text = head + "\n";
    for (const auto& r : records)
      text += r + "\n";
    return text + fmt::format(R"({{"end":{{"records":{}}}}})", records.size()) + "\n";
  };
  // The line of the refusal, or 0 when the archive reads.
  const auto refused_at = [](const std::string& text) {
    std::istringstream in(text);
    ArchiveReader reader(in, "a.jsonl");
    try {
      while (reader.next()) {
      }
    } catch (const InputError& e) {
      return e.line();
    }
    return 0;
  };
  // Two followers' records of one partition, none twice; then another partition.
  CHECK(refused_at(archive({rec("t", 5, 1, "b1"), rec("t", 6, 1, "b1"), rec("t", 5, 2, "b3"),
                            rec("u", 5, 1, "b1")})) == 0);
  CHECK(refused_at(archive({rec("t", 5, 1, "b1"), rec("t", 5, 1, "b1")})) == 3);
  // The second follower's copy of a record the first one's line archived already.
  CHECK(refused_at(archive({rec("t", 5, 1, "b1"), rec("t", 6, 1, "b1"), rec("t", 6, 1, "b3")})) ==
        4);
  // t's records again after u's.
  CHECK(refused_at(archive({rec("t", 5, 1, "b1"), rec("u", 5, 1, "b1"), rec("t", 6, 1, "b1")})) ==
        4);
  // After the end line: nothing, not even an empty line.
  CHECK(refused_at(archive({rec("t", 5, 1, "b1")}) + "\n") == 4);
  // A last line without its newline is read.
  std::string no_newline = archive({rec("t", 5, 1, "b1")});
  no_newline.pop_back();
  CHECK(refused_at(no_newline) == 0);
  // A number past int64's range is refused, never wrapped to a negative one.
  std::string huge = rec("t", 5, 1, "b1");
  huge.replace(huge.find(R"("offset":5)"), 10, R"("offset":18446744073709551615)");
  CHECK(refused_at(archive({huge})) == 2);
}

TEST_CASE(
    "salvage refuses a record whose archive line would be longer than a reader takes, naming "
    "the replica and the offset",
    "[forecast][salvage]") {
  PartitionReplica replica;
  replica.dir = "/data/s-0";
  const auto line_of = [&](std::size_t value_bytes) {
    static std::vector<std::uint8_t> bytes;
    bytes.assign(value_bytes, 'v');
    Record record;
    record.value = std::span<const std::uint8_t>(bytes);
    SalvagedRecord r;
    r.topic = "s";
    r.replica = &replica;
    r.offset = 42;
    r.record = &record;
    std::string line;
    append_archive_record(line, r);
    return line;
  };
  // Base64 is 4/3 of the bytes: 48 MiB of value is a line just over 64 MiB; 47 MiB fits, and
  // the reader takes it back.
  const std::string fits = line_of(47u << 20);
  CHECK(fits.size() <= kMaxArchiveLineBytes + 1);
  std::istringstream in(archive_header_line("t") + fits + archive_end_line(1));
  CHECK(check_archive(in, "a.jsonl").records == 1);
  try {
    line_of(48u << 20);
    FAIL("a line over the bound was written");
  } catch (const InputError& e) {
    CHECK(e.path() == "/data/s-0");
    CHECK_THAT(e.what(), Catch::Matchers::Contains("s-0 offset 42") &&
                             Catch::Matchers::Contains("cannot be salvaged"));
  }
}

TEST_CASE(
    "An archive line is read into what a reader reads: headers decoded in order, unknown "
    "members skipped at every level, a container where a scalar belongs refused by its type",
    "[forecast][salvage]") {
  const std::string head = R"({"format":"kepoch-salvage-archive","version":1,"written_by":"t"})";
  // `headers` and `extra` (members after "replica") spliced into a record line.
  const auto line = [](std::string_view headers, std::string_view extra) {
    return fmt::format(
        R"({{"topic":"t","partition":0,"offset":5,"leader_epoch":1,"timestamp":1,)"
        R"("timestamp_type":"create_time","key":null,"value":"YQ==","headers":{},)"
        R"("producer_id":-1,"producer_epoch":-1,"sequence":-1,"transactional":false,)"
        R"("class":"data","control_type":null,"committed":true,)"
        R"("on_new_leader":{{"present":false,"by":null,"certainty":"certain","x":[[{{}}]]}},)"
        R"("replica":"r"{}}})",
        headers, extra);
  };
  const auto read_one = [&](const std::string& record) {
    std::istringstream in(head + "\n" + record + "\n{\"end\":{\"records\":1,\"x\":{}}}\n");
    ArchiveReader reader(in, "a.jsonl");
    auto r = reader.next();
    REQUIRE(r);
    CHECK_FALSE(reader.next());
    return *r;
  };
  const auto refusal = [&](const std::string& record) {
    std::istringstream in(head + "\n" + record + "\n{\"end\":{\"records\":1}}\n");
    ArchiveReader reader(in, "a.jsonl");
    try {
      reader.next();
    } catch (const InputError& e) {
      CHECK(e.line() == 2);
      return std::string(e.what());
    }
    return std::string("read");
  };
  using Bytes = std::vector<std::uint8_t>;
  using Catch::Matchers::Contains;
  const auto r = read_one(
      line(R"([{"key":"aA==","value":"dg==","x":[{},{}]},{"key":"","value":null},{"value":"",)"
           R"("key":"Yg=="}])",
           R"(,"unknown":[{},[],{"a":[1,2,{"b":null}]}],"x":[1])"));
  REQUIRE(r.headers.size() == 3);
  CHECK(r.headers[0].key == Bytes{'h'});
  CHECK(r.headers[0].value == Bytes{'v'});
  CHECK(r.headers[1].key.empty());
  CHECK_FALSE(r.headers[1].value);
  CHECK(r.headers[2].key == Bytes{'b'});
  CHECK(r.headers[2].value == Bytes{});
  CHECK(r.present == false);
  // A member given twice: the last counts, as a JSON object's member.
  const auto twice = read_one(line(R"([{"key":"aA==","value":null}],"headers":[])", ""));
  CHECK(twice.headers.empty());
  CHECK_THAT(refusal(line("[[{}]]", "")),
             Contains(R"("headers": expected {"key":...,"value":...} objects, found an array)"));
  CHECK_THAT(refusal(line("[1]", "")),
             Contains(R"("headers": expected {"key":...,"value":...} objects, found 1)"));
  CHECK_THAT(refusal(line(R"([{"value":null}])", "")),
             Contains(R"(expected a "key" member, found none)"));
  CHECK_THAT(refusal(line(R"({"key":"aA=="})", "")),
             Contains(R"("headers": expected an array, found an object)"));
  CHECK_THAT(
      refusal(line("[]", R"(,"partition":[{},{},[[]]])")),
      Contains(R"("partition": expected an integer in [-2147483648, 2147483647], found an array)"));
  CHECK_THAT(refusal(line(R"([{"key":["aA=="],"value":null}])", "")),
             Contains(R"("headers[].key": expected base64 or null, found an array)"));
}

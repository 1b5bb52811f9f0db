#pragma once
// Salvage: every record a forecast truncation removes from a follower replica, read from
// that replica's segments before its broker restarts, each with what it is and whether the
// new leader already holds it. Built on offline predict's forecast (election_forecast): the
// removed range is the forecast's own (ReplicaForecast::removed_range, from the truncation
// offset to the log end, or the whole log when the follower truncates fully), and what is
// committed is the forecast's committed_bound over the same replicas.
//
// What a removed record is (its class), decided from the removed tail as Kafka's consumers
// decide it (storage/consumer_view): the tail runs to the log end, so every transaction
// marker that closes a removed transactional batch is in it (a marker follows its data):
//   data                   a non-transactional record
//   committed_transaction  transactional, and its producer's next control batch in the log
//                          is a COMMIT marker
//   aborted                its producer's next control batch is an ABORT marker (the
//                          transaction index, .txnindex, lists exactly these ranges)
//   open                   transactional, and no marker of its producer follows in the log:
//                          the transaction's outcome is not on this replica
//   control                a control record (COMMIT/ABORT marker, or another control type)
//
// Whether the new leader holds it already (the leader's log read from the truncation offset
// to its log end; clients retry to the new leader after an election):
//   same_batch          the leader holds the very same batch (offsets and CRC): certain
//   producer_sequence   an idempotent or transactional record (producer id >= 0): a record
//                       with its producer id, epoch and sequence (a retried batch keeps
//                       them; the leader's ProducerStateManager refuses a second copy): certain
//   content             otherwise: a record with the same key, value and headers (a 64-bit
//                       hash; each leader record matches one removed record): likely
//   not found           certain for a leader read from its segments; unknown when the leader
//                       is a snapshot (it keeps no record bytes)
//
// Memory: the follower's tail is streamed record by record to the visitor; held are the
// tail's transactional and control batch headers, the leader's batch list and one hash per
// leader record from the truncation offset on, and one (epoch, offset) per archived record
// of a partition salvaged from two followers (so a record is archived once).

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "kepoch/forecast/election_forecast.hpp"
#include "kepoch/forecast/restart_forecast.hpp"
#include "kepoch/format/control_record.hpp"
#include "kepoch/format/record.hpp"
#include "kepoch/storage/transaction_batch.hpp"

namespace kepoch::forecast {

enum class SalvageClass { data, committed_transaction, aborted, open, control };
std::string_view salvage_class_name(SalvageClass c);
// Replay by default: data and committed transactions (open ones when asked).
bool replayed_by_default(SalvageClass c);

enum class PresenceBy { none, same_batch, producer_sequence, content };
enum class Certainty { certain, likely, unknown };
std::string_view presence_by_name(PresenceBy by);
std::string_view certainty_name(Certainty c);

struct Presence {
  std::optional<bool> present;  // nullopt: cannot be told
  PresenceBy by = PresenceBy::none;
  Certainty certainty = Certainty::unknown;
};

// The class of each transactional batch of a log's tail (stretching to its log end), by
// base offset: committed_transaction or aborted by its producer's next COMMIT or ABORT
// marker, open when none follows. Non-transactional batches are not listed (data).
std::unordered_map<std::int64_t, SalvageClass> transaction_classes(
    const std::vector<TransactionBatch>& batches);

struct SalvagedRecord {
  std::string_view topic;
  std::int32_t partition = 0;
  const PartitionReplica* replica = nullptr;  // the follower it is removed from
  std::int64_t offset = 0;
  std::int32_t leader_epoch = -1;
  std::int64_t timestamp = -1;
  bool log_append_time = false;
  const Record* record = nullptr;  // key, value, headers (spans valid during the visit)
  std::int64_t producer_id = -1;
  std::int16_t producer_epoch = -1;
  std::int32_t sequence = -1;
  bool transactional = false;
  SalvageClass kind = SalvageClass::data;
  std::optional<ControlRecordType> control;  // control records: the type, when readable
  std::optional<bool> committed;             // by the forecast; nullopt: cannot be ruled out
  Presence presence;
};

struct SalvageCounts {
  std::uint64_t records = 0;
  std::uint64_t data = 0;
  std::uint64_t committed_transaction = 0;
  std::uint64_t aborted = 0;
  std::uint64_t open = 0;
  std::uint64_t control = 0;
  std::uint64_t committed = 0;          // committed: true
  std::uint64_t committed_unknown = 0;  // committed: null
  std::uint64_t present = 0;            // on the new leader already
  std::uint64_t present_unknown = 0;
  std::uint64_t to_replay = 0;  // replayed by default, and not on the new leader
  void add(const SalvagedRecord& r);
};

struct ReplicaSalvage {
  const PartitionReplica* replica = nullptr;
  std::int64_t truncate_to = 0;
  std::optional<std::pair<std::int64_t, std::int64_t>> removed_range;  // [first, last]
  std::uint64_t removed_records = 0;                                   // the forecast's count
  SalvageCounts counts;
  std::uint64_t archived_before = 0;  // removed records already archived from an earlier follower
};

struct PartitionSalvage {
  std::string topic;
  std::int32_t partition = 0;
  std::string leader;        // its replica dir, or "broker N (live)"
  bool leader_read = false;  // the leader's records were read (not a snapshot, not live)
  std::vector<ReplicaSalvage> replicas;
};

struct SalvageResult {
  std::vector<PartitionSalvage> partitions;
  SalvageCounts totals;
};

// The new leaders' tails, each read once for both the forecast and salvage: the forecast
// asks a leader's batches from the truncation offset on (which removed batches it holds,
// predict_truncations' LeaderBatchReader), and salvage reads the same tail's records for
// what the leader holds already. `batches` reads the leader's whole tail from `from` (its
// records too) and keeps what salvage needs; salvage_removed takes it when it reads that
// leader from the same offset, and reads the leader itself otherwise. Holds, until then,
// what salvage_removed would hold for each leader (its batch list and one hash per record).
class LeaderTails {
 public:
  LeaderTails();
  ~LeaderTails();
  LeaderTails(const LeaderTails&) = delete;
  LeaderTails& operator=(const LeaderTails&) = delete;
  // batches_from(leader, from, until)'s answer.
  BatchRange batches(const PartitionReplica& leader, std::int64_t from, std::int64_t until);
  struct Read;  // one leader's tail (salvage.cpp)
  // The tail of `leader` read from `from`, if it was (taken: a second call answers null).
  std::unique_ptr<Read> take(const PartitionReplica& leader, std::int64_t from);
  // Whether it is held (read, not taken yet).
  bool holds(const PartitionReplica& leader, std::int64_t from) const;

 private:
  std::vector<std::unique_ptr<Read>> reads_;
};

// Streams every removed record of every follower of `predictions` (the main mode's
// forecast) to `visit`, in partition, then follower, then offset order. `leader_clean`: the
// leader was elected cleanly (the forecast's committed bound takes it). Throws InputError
// naming the segment and byte offset where a removed batch cannot be read, and for a
// follower read from a snapshot (it keeps no record bytes) that loses records.
// `tails`: the leaders' tails the forecast read (LeaderTails), taken where they serve.
SalvageResult salvage_removed(const TruncationPredictions& predictions, bool leader_clean,
                              const std::function<void(const SalvagedRecord&)>& visit,
                              LeaderTails* tails = nullptr);

// The same for a stopped broker's restart against the live cluster (restart_forecast): each
// replica that follows a live leader and loses records. The leader's records are not read
// (a consumer Fetch reads only below its high watermark), so whether it holds them is unknown.
SalvageResult salvage_restart(const RestartForecast& restart,
                              const std::function<void(const SalvagedRecord&)>& visit);

// Whether a restart removes records the live leader does not hold (or may not): what
// salvage_restart would keep.
bool restart_loses_records(const RestartForecast& restart);

// The 64-bit content hash `content` presence compares: key, value and headers, each with
// its presence (null differs from empty): each byte string's length and a 64-bit hash of it
// (AES rounds where the CPU has them, else wyhash's construction), mixed. Not cryptographic:
// records built to collide can pass.
std::uint64_t content_hash(const Record& record);

// The (leader epoch, offset) of the records archived from a partition's earlier followers
// (a record removed from two followers is archived once; the archive's reader holds it to
// that), without a tree node per record:
// the earlier followers' sorted, and the current follower's in walk order, which in a
// well-formed log ascends (epochs never fall as offsets rise). A record out of that order (a
// hostile or damaged log) goes to a set of its own, so no input makes a lookup linear.
class ArchivedRecords {
 public:
  using Key = std::pair<std::int32_t, std::int64_t>;
  // Whether (epoch, offset) was archived already; if not, it is now.
  bool insert(std::int32_t epoch, std::int64_t offset) {
    const Key key{epoch, offset};
    if (std::binary_search(earlier_.begin(), earlier_.end(), key)) return false;
    if (current_.empty() || current_.back() < key) {
      if (out_of_order_.contains(key)) return false;
      current_.push_back(key);
      return true;
    }
    if (std::binary_search(current_.begin(), current_.end(), key)) return false;
    return out_of_order_.insert(key).second;
  }
  // The current follower's records join the earlier ones'.
  void next_follower() {
    current_.insert(current_.end(), out_of_order_.begin(), out_of_order_.end());
    out_of_order_.clear();
    std::sort(current_.begin(), current_.end());
    const auto middle = static_cast<std::ptrdiff_t>(earlier_.size());
    earlier_.insert(earlier_.end(), current_.begin(), current_.end());
    std::inplace_merge(earlier_.begin(), earlier_.begin() + middle, earlier_.end());
    current_.clear();
  }

 private:
  std::vector<Key> earlier_;
  std::vector<Key> current_;  // ascending
  std::set<Key> out_of_order_;
};

}  // namespace kepoch::forecast

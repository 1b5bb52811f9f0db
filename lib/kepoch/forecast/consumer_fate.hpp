#pragma once
// What a consumer group does on its next fetch after a partition's log was truncated or
// replaced (an election, a restart), restated from the clients' code:
//
//   Java consumer (KafkaConsumer, 2.3 and later against brokers 2.3+: OffsetsForLeaderEpoch v3)
//     1. the committed offset becomes the position with its leader epoch
//        (ConsumerCoordinator.refreshCommittedOffsets -> SubscriptionState.seekUnvalidated);
//     2. a position with an epoch is validated against the new leader
//        (SubscriptionState.TopicPartitionState.validatePosition: AWAIT_VALIDATION only when
//        the position has an offsetEpoch), by OffsetsForLeaderEpoch, which the leader answers
//        with UnifiedLog.endOffsetForEpoch (LeaderEpochFileCache.endOffsetFor);
//        SubscriptionState.maybeCompleteValidation then: an undefined answer resets by the
//        policy (none: LogTruncationException without a divergent offset); an end offset below
//        the position seeks back to it, "the first offset known to diverge" (none:
//        LogTruncationException with that offset); otherwise the position stands;
//     3. the fetch: an offset below the log start or past the log end is OFFSET_OUT_OF_RANGE
//        (LocalLog.read), which resets by the policy (FetchCollector.handleInitializeErrors ->
//        SubscriptionState.requestOffsetReset), or, with none, OffsetOutOfRangeException.
//        earliest resets to the log start, latest to the high watermark (ListOffsets
//        EARLIEST/LATEST, read_uncommitted), by_duration (4.0+, KIP-1106) to the first offset
//        at or after now minus the duration (not forecast offline: it depends on the time).
//   librdkafka before 2.1.0 (Debian 12's 2.0.2): no KIP-320 (rdkafka.h has no leader epoch
//   API, and its commits carry none), so no validation: step 3 alone
//   (rd_kafka_offset_reset; auto.offset.reset=error raises RD_KAFKA_RESP_ERR__AUTO_OFFSET_RESET).
//   Every client's commit without an epoch (-1) takes that path too: a position at or below the
//   new log end is fetched as it is, silently skipping the new leader's records below it.
//
// Offsets, not records, are counted: a range [from, to) counts to - from offsets (transaction
// markers and compacted gaps included).

#include <cstdint>
#include <optional>
#include <string_view>

#include "kepoch/epoch/leader_epoch_cache.hpp"

namespace kepoch::forecast {

// Which client's rules: the Java consumer (2.3+; librdkafka 2.1+ validates alike, KIP-320), or
// librdkafka before 2.1 (Debian 12's 2.0.2), which never validates a position.
enum class ConsumerClient { java, librdkafka_2_0 };
std::string_view consumer_client_name(ConsumerClient client);

// auto.offset.reset (Kafka does not store it: the forecast is made for each).
enum class OffsetResetPolicy { earliest, latest, none, by_duration };
std::string_view reset_policy_name(OffsetResetPolicy policy);

// The new leader's log as a consumer meets it once the election (or restart) is done.
struct ConsumerLeaderView {
  LeaderEpochCache cache;  // with the leader's own epoch at its log end (Partition.makeLeader)
  std::int64_t log_start_offset = 0;
  std::int64_t log_end_offset = 0;
  // What ListOffsets LATEST answers (read_uncommitted): the high watermark, the log end once
  // the followers caught up (at once after an unclean election: the leader alone in the ISR).
  std::int64_t latest_offset = 0;
};

// The log the group consumed from (the previous leader's) and where the new leader's log
// departs from it: offsets from `divergence_offset` on hold other records now (or none).
struct ConsumedLog {
  std::int64_t divergence_offset = 0;
  std::int64_t log_end_offset = 0;
};

struct CommittedPosition {
  std::int64_t offset = 0;
  std::optional<std::int32_t> leader_epoch;  // nullopt: committed without one (-1)
};

enum class FateAction {
  no_change,                 // validated (or not validated) and in range: fetched as it is
  truncation_seek,           // validation found the log diverged: seek back to its end offset
  validation_reset,          // validation got an undefined answer: reset by the policy
  out_of_range_reset,        // OFFSET_OUT_OF_RANGE: reset by the policy
  log_truncation_exception,  // none: LogTruncationException
  out_of_range_exception,    // none: OffsetOutOfRangeException
  silent_skip,               // no epoch to validate; fetched at the old offset past new records
};
std::string_view fate_action_name(FateAction action);

// An offset range [from, to); empty when to <= from.
struct OffsetSpan {
  std::int64_t from = 0;
  std::int64_t to = 0;
  std::int64_t count() const { return to > from ? to - from : 0; }
};

struct ConsumerFate {
  FateAction action = FateAction::no_change;
  bool validated = false;  // an OffsetsForLeaderEpoch validation ran
  // The validation's answer (UnifiedLog.endOffsetForEpoch), when it ran.
  std::optional<EpochEntry> epoch_end_offset;
  // Where the consumer fetches next; nullopt after an exception, or a by_duration reset.
  std::optional<std::int64_t> next_position;
  std::optional<std::int64_t> divergent_offset;  // in a LogTruncationException, if any
  OffsetSpan reread;                             // consumed before, read again
  OffsetSpan skipped_unseen;                     // moved past without ever reading them
  OffsetSpan consumed_lost;                      // consumed, and gone from the log for good
  // Whether reread/skipped_unseen are known (not after an exception or by_duration, nor when
  // the log consumed before is not known and the committed epoch does not place it).
  bool counts_known = true;
  // Whether consumed_lost is known (false only when the log consumed before is not known and
  // the committed epoch does not place the divergence).
  bool lost_known = true;
  std::string_view rule;  // the Kafka class and method that decided
};

// The consumer's next fetch after the change, from its committed position.
ConsumerFate consumer_fate(const ConsumerLeaderView& leader, const ConsumedLog& consumed,
                           const CommittedPosition& committed, OffsetResetPolicy policy,
                           ConsumerClient client = ConsumerClient::java);

// The same when the log consumed before is not known (the old leader's log is not at hand,
// as `cluster predict` meets an unclean election): the next fetch is decided by the new
// leader alone; what was consumed and lost, re-read or skipped is known only where the
// committed leader epoch places the divergence in the new leader's epoch history (KIP-320's
// lookup). Otherwise lost_known and counts_known are false; a fetch at the old offset is then
// no_change or silent_skip, which the log consumed before would tell: the rule says so.
ConsumerFate consumer_fate(const ConsumerLeaderView& leader,
                           const std::optional<ConsumedLog>& consumed,
                           const CommittedPosition& committed, OffsetResetPolicy policy,
                           ConsumerClient client = ConsumerClient::java);

}  // namespace kepoch::forecast

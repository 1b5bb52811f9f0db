#include "kepoch/forecast/consumer_fate.hpp"

#include <algorithm>

#include "kepoch/epoch/epoch_entry.hpp"

namespace kepoch::forecast {
namespace {

// The reset SubscriptionState.requestOffsetReset asks for, answered by ListOffsets: EARLIEST
// is the log start, LATEST the high watermark (read_uncommitted); by_duration's answer depends
// on the records' timestamps and the time of the reset, so it is left unknown.
std::optional<std::int64_t> reset_position(const ConsumerLeaderView& leader,
                                           OffsetResetPolicy policy) {
  switch (policy) {
    case OffsetResetPolicy::earliest:
      return leader.log_start_offset;
    case OffsetResetPolicy::latest:
      return leader.latest_offset;
    case OffsetResetPolicy::by_duration:
    case OffsetResetPolicy::none:
      break;
  }
  return std::nullopt;
}

}  // namespace

std::string_view consumer_client_name(ConsumerClient client) {
  return client == ConsumerClient::java ? "java" : "librdkafka-2.0";
}

std::string_view reset_policy_name(OffsetResetPolicy policy) {
  switch (policy) {
    case OffsetResetPolicy::earliest:
      return "earliest";
    case OffsetResetPolicy::latest:
      return "latest";
    case OffsetResetPolicy::none:
      return "none";
    case OffsetResetPolicy::by_duration:
      return "by_duration";
  }
  return "?";
}

std::string_view fate_action_name(FateAction action) {
  switch (action) {
    case FateAction::no_change:
      return "no_change";
    case FateAction::truncation_seek:
      return "truncation_detected";
    case FateAction::validation_reset:
      return "validation_reset";
    case FateAction::out_of_range_reset:
      return "out_of_range_reset";
    case FateAction::log_truncation_exception:
      return "log_truncation_exception";
    case FateAction::out_of_range_exception:
      return "out_of_range_exception";
    case FateAction::silent_skip:
      return "silent_skip";
  }
  return "?";
}

ConsumerFate consumer_fate(const ConsumerLeaderView& leader, const ConsumedLog& consumed,
                           const CommittedPosition& committed, OffsetResetPolicy policy,
                           ConsumerClient client) {
  return consumer_fate(leader, std::optional<ConsumedLog>(consumed), committed, policy, client);
}

ConsumerFate consumer_fate(const ConsumerLeaderView& leader,
                           const std::optional<ConsumedLog>& consumed,
                           const CommittedPosition& committed, OffsetResetPolicy policy,
                           ConsumerClient client) {
  ConsumerFate f;
  const bool resets = policy != OffsetResetPolicy::none;  // hasDefaultOffsetResetPolicy
  // What the consumer read, below its committed offset: with a committed epoch, records of
  // that epoch's lineage, which the new leader's log keeps up to its end offset for the epoch
  // (the very lookup KIP-320's validation makes, whether or not the client makes it);
  // without one, the previous leader's log, which the new leader's keeps up to the
  // divergence. What it read below that point is still in the log, the rest is gone.
  // Not knowing the log consumed before, and no committed epoch to place the divergence: the
  // next fetch is still the new leader's to decide, what was read is not known.
  std::optional<std::int64_t> divergence;
  std::int64_t read_end = committed.offset;
  if (consumed) {
    divergence = consumed->divergence_offset;
    read_end = std::min(committed.offset, consumed->log_end_offset);
  }
  if (committed.leader_epoch && *committed.leader_epoch >= 0) {
    const EpochEntry lineage =
        leader.cache.end_offset_for(*committed.leader_epoch, leader.log_end_offset);
    if (lineage.epoch != kUndefinedEpoch && lineage.start_offset != kUndefinedEpochOffset) {
      divergence = lineage.start_offset;
      read_end = committed.offset;
    }
  }
  const bool read_known = divergence.has_value();
  const std::int64_t seen_end = read_known ? std::min(committed.offset, *divergence) : 0;
  if (read_known)
    f.consumed_lost = {*divergence, read_end};
  else
    f.lost_known = false;
  std::optional<std::int64_t> position = committed.offset;
  f.rule = "Fetcher: the committed position fetched as it is";

  // Validation (KIP-320): only a position with an epoch awaits it
  // (SubscriptionState.TopicPartitionState.validatePosition); librdkafka before 2.1 has none.
  if (client == ConsumerClient::java && committed.leader_epoch && *committed.leader_epoch >= 0) {
    f.validated = true;
    // Partition.lastOffsetForLeaderEpoch -> UnifiedLog.endOffsetForEpoch: an undefined end
    // offset from LeaderEpochFileCache.endOffsetFor is no answer, sent as UNDEFINED epoch and
    // offset.
    EpochEntry e = leader.cache.end_offset_for(*committed.leader_epoch, leader.log_end_offset);
    if (e.start_offset == kUndefinedEpochOffset) e = {kUndefinedEpoch, kUndefinedEpochOffset};
    f.epoch_end_offset = e;
    if (e.epoch == kUndefinedEpoch || e.start_offset == kUndefinedEpochOffset) {
      // maybeCompleteValidation, epochEndOffset.hasUndefinedEpochOrOffset()
      if (!resets) {
        f.action = FateAction::log_truncation_exception;
        f.rule =
            "SubscriptionState.maybeCompleteValidation: undefined end offset, no reset policy: "
            "LogTruncationException";
        f.counts_known = false;
        return f;
      }
      f.action = FateAction::validation_reset;
      f.rule =
          "SubscriptionState.maybeCompleteValidation: undefined end offset, requestOffsetReset";
      position = reset_position(leader, policy);
    } else if (e.start_offset < committed.offset) {
      // maybeCompleteValidation, epochEndOffset.endOffset() < currentPosition.offset
      if (!resets) {
        f.action = FateAction::log_truncation_exception;
        f.divergent_offset = e.start_offset;
        f.rule =
            "SubscriptionState.maybeCompleteValidation: end offset below the position, no "
            "reset policy: LogTruncationException with the divergent offset";
        f.counts_known = false;
        return f;
      }
      f.action = FateAction::truncation_seek;
      f.rule =
          "SubscriptionState.maybeCompleteValidation: end offset below the position, "
          "seekValidated to the first offset known to diverge";
      position = e.start_offset;
    } else {
      // maybeCompleteValidation: completeValidation, the position stands.
      f.rule = "SubscriptionState.maybeCompleteValidation: completeValidation";
    }
  }

  // The fetch (LocalLog.read): outside [log start, log end] is OFFSET_OUT_OF_RANGE, handled
  // by FetchCollector.handleInitializeErrors (librdkafka: rd_kafka_offset_reset). A position a
  // reset just set comes from ListOffsets and is in range.
  if (position && f.action != FateAction::validation_reset &&
      (*position < leader.log_start_offset || *position > leader.log_end_offset)) {
    if (!resets) {
      f.action = FateAction::out_of_range_exception;
      f.rule =
          "FetchCollector.handleInitializeErrors: OFFSET_OUT_OF_RANGE, no reset policy: "
          "OffsetOutOfRangeException";
      f.next_position.reset();
      f.counts_known = false;
      return f;
    }
    f.action = FateAction::out_of_range_reset;
    f.rule = "FetchCollector.handleInitializeErrors: OFFSET_OUT_OF_RANGE, requestOffsetReset";
    position = reset_position(leader, policy);
  }

  f.next_position = position;
  if (!position) {  // by_duration: the offset depends on the time of the reset
    f.counts_known = false;
    return f;
  }
  if (!read_known) {
    f.counts_known = false;
    if (f.action == FateAction::no_change && !f.validated)
      f.rule =
          "no epoch to validate: fetched at the committed offset; whether the new leader's "
          "records below it are skipped unseen (silent_skip) depends on the log consumed "
          "before, which is not given";
    return f;
  }
  if (*position < seen_end) f.reread = {*position, seen_end};
  if (*position > seen_end) f.skipped_unseen = {seen_end, *position};
  // Fetched as it was, past offsets it never read: the new leader's records there (a commit
  // without an epoch, or an epoch whose end offset does not show the divergence).
  if (f.action == FateAction::no_change && f.skipped_unseen.count() > 0) {
    f.action = FateAction::silent_skip;
    f.rule = client == ConsumerClient::java
                 ? "no epoch to validate (SubscriptionState.validatePosition): the fetch "
                   "passes over the new leader's records below the position"
                 : "librdkafka before 2.1 validates no position: the fetch passes over the "
                   "new leader's records below the position";
  }
  return f;
}

}  // namespace kepoch::forecast

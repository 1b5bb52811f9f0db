// Pins forecast/consumer_fate: a consumer group's next fetch after an unclean election, as the
// Java consumer decides it (SubscriptionState.maybeCompleteValidation,
// FetchCollector.handleInitializeErrors) and as librdkafka 2.0.2 does without KIP-320.
//
// The scene of most cases: the previous leader wrote offsets 0-99 in epoch 0; the new leader
// held 0-49 of them, was elected at epoch 1 (its cache {0:0, 1:50}) and wrote nothing since:
// offsets 50-99 are gone. Log start 0, log end 50.
#include <catch2/catch.hpp>

#include "kepoch/forecast/consumer_fate.hpp"

using namespace kepoch;
using namespace kepoch::forecast;

namespace {

ConsumerLeaderView scene_leader(std::int64_t log_end = 50, std::int64_t log_start = 0) {
  ConsumerLeaderView l;
  l.cache = LeaderEpochCache::load({{0, 0}, {1, log_end}});
  l.log_start_offset = log_start;
  l.log_end_offset = log_end;
  l.latest_offset = log_end;
  return l;
}

const ConsumedLog kScene{50, 100};

}  // namespace

TEST_CASE("committed below the divergence with its epoch: validation completes, no change",
          "[consumer_fate]") {
  for (auto policy :
       {OffsetResetPolicy::earliest, OffsetResetPolicy::latest, OffsetResetPolicy::none}) {
    const auto f = consumer_fate(scene_leader(), kScene, {30, 0}, policy);
    CHECK(f.action == FateAction::no_change);
    CHECK(f.validated);
    REQUIRE(f.epoch_end_offset);
    CHECK(*f.epoch_end_offset == EpochEntry{0, 50});  // endOffsetFor(0): epoch 1's start
    CHECK(f.next_position == 30);
    CHECK(f.reread.count() == 0);
    CHECK(f.skipped_unseen.count() == 0);
    CHECK(f.consumed_lost.count() == 0);
  }
}

TEST_CASE(
    "committed inside the removed range with its epoch: truncation detected, seek back "
    "to the divergence (maybeCompleteValidation endOffset < position)",
    "[consumer_fate]") {
  for (auto policy :
       {OffsetResetPolicy::earliest, OffsetResetPolicy::latest, OffsetResetPolicy::by_duration}) {
    const auto f = consumer_fate(scene_leader(), kScene, {80, 0}, policy);
    CHECK(f.action == FateAction::truncation_seek);
    CHECK(f.next_position == 50);
    CHECK(f.reread.count() == 0);
    CHECK(f.skipped_unseen.count() == 0);
    CHECK(f.consumed_lost.from == 50);
    CHECK(f.consumed_lost.to == 80);
  }
}

TEST_CASE(
    "truncation detected with auto.offset.reset=none: LogTruncationException with the "
    "divergent offset",
    "[consumer_fate]") {
  const auto f = consumer_fate(scene_leader(), kScene, {80, 0}, OffsetResetPolicy::none);
  CHECK(f.action == FateAction::log_truncation_exception);
  CHECK(f.divergent_offset == 50);
  CHECK_FALSE(f.next_position);
  CHECK_FALSE(f.counts_known);
  CHECK(f.consumed_lost.count() == 30);
}

TEST_CASE(
    "committed without an epoch inside the new log: fetched as it is, the new leader's "
    "records below it skipped unseen",
    "[consumer_fate]") {
  // The new leader wrote 40 records at epoch 1: its log now ends at 90.
  ConsumerLeaderView l = scene_leader();
  l.log_end_offset = l.latest_offset = 90;
  for (auto policy :
       {OffsetResetPolicy::earliest, OffsetResetPolicy::latest, OffsetResetPolicy::none}) {
    const auto f = consumer_fate(l, kScene, {80, std::nullopt}, policy);
    CHECK(f.action == FateAction::silent_skip);
    CHECK_FALSE(f.validated);
    CHECK(f.next_position == 80);
    CHECK(f.skipped_unseen.from == 50);
    CHECK(f.skipped_unseen.to == 80);
    CHECK(f.consumed_lost.count() == 30);
  }
}

TEST_CASE(
    "committed without an epoch past the new log end: OFFSET_OUT_OF_RANGE, reset by "
    "auto.offset.reset (FetchCollector.handleInitializeErrors)",
    "[consumer_fate]") {
  const auto earliest =
      consumer_fate(scene_leader(), kScene, {80, std::nullopt}, OffsetResetPolicy::earliest);
  CHECK(earliest.action == FateAction::out_of_range_reset);
  CHECK(earliest.next_position == 0);
  CHECK(earliest.reread.from == 0);
  CHECK(earliest.reread.to == 50);
  CHECK(earliest.consumed_lost.count() == 30);

  const auto latest =
      consumer_fate(scene_leader(), kScene, {80, std::nullopt}, OffsetResetPolicy::latest);
  CHECK(latest.action == FateAction::out_of_range_reset);
  CHECK(latest.next_position == 50);
  CHECK(latest.reread.count() == 0);
  CHECK(latest.skipped_unseen.count() == 0);

  const auto none =
      consumer_fate(scene_leader(), kScene, {80, std::nullopt}, OffsetResetPolicy::none);
  CHECK(none.action == FateAction::out_of_range_exception);
  CHECK_FALSE(none.next_position);

  const auto duration =
      consumer_fate(scene_leader(), kScene, {80, std::nullopt}, OffsetResetPolicy::by_duration);
  CHECK(duration.action == FateAction::out_of_range_reset);
  CHECK_FALSE(duration.next_position);
  CHECK_FALSE(duration.counts_known);
}

TEST_CASE(
    "latest reset past new records: the new leader's records below the high watermark "
    "are skipped unseen",
    "[consumer_fate]") {
  // The group had consumed to 40 of the old log (no epoch), which the new leader also holds;
  // its log start moved to 45 (DeleteRecords): out of range below the log start.
  ConsumerLeaderView l = scene_leader(70, 45);
  const auto f = consumer_fate(l, kScene, {40, std::nullopt}, OffsetResetPolicy::latest);
  CHECK(f.action == FateAction::out_of_range_reset);
  CHECK(f.next_position == 70);
  CHECK(f.skipped_unseen.from == 40);
  CHECK(f.skipped_unseen.to == 70);
  CHECK(f.consumed_lost.count() == 0);
  const auto e = consumer_fate(l, kScene, {40, std::nullopt}, OffsetResetPolicy::earliest);
  CHECK(e.next_position == 45);
  CHECK(e.skipped_unseen.count() == 5);  // deleted before the consumer read them
}

TEST_CASE(
    "a validated position below the log start: validation completes, then the fetch is "
    "out of range",
    "[consumer_fate]") {
  ConsumerLeaderView l = scene_leader(50, 20);
  const auto f = consumer_fate(l, kScene, {10, 0}, OffsetResetPolicy::earliest);
  CHECK(f.validated);
  CHECK(f.action == FateAction::out_of_range_reset);
  CHECK(f.next_position == 20);
  const auto n = consumer_fate(l, kScene, {10, 0}, OffsetResetPolicy::none);
  CHECK(n.action == FateAction::out_of_range_exception);
}

TEST_CASE(
    "an undefined OffsetsForLeaderEpoch answer (epoch above the leader's latest, or an "
    "empty cache): reset by the policy, or LogTruncationException without an offset",
    "[consumer_fate]") {
  ConsumerLeaderView l = scene_leader();
  l.cache = LeaderEpochCache{};  // message format before v2: no epochs
  const auto e = consumer_fate(l, kScene, {30, 0}, OffsetResetPolicy::earliest);
  CHECK(e.action == FateAction::validation_reset);
  REQUIRE(e.epoch_end_offset);
  CHECK(e.epoch_end_offset->epoch == kUndefinedEpoch);
  CHECK(e.next_position == 0);
  CHECK(e.reread.count() == 30);
  const auto lt = consumer_fate(l, kScene, {30, 0}, OffsetResetPolicy::latest);
  CHECK(lt.next_position == 50);
  CHECK(lt.skipped_unseen.count() == 20);
  const auto n = consumer_fate(l, kScene, {30, 0}, OffsetResetPolicy::none);
  CHECK(n.action == FateAction::log_truncation_exception);
  CHECK_FALSE(n.divergent_offset);

  // An epoch above every epoch the leader has: endOffsetFor answers undefined too.
  const auto high = consumer_fate(scene_leader(), kScene, {30, 7}, OffsetResetPolicy::latest);
  CHECK(high.action == FateAction::validation_reset);
}

TEST_CASE(
    "an epoch below the leader's first: endOffsetFor echoes it with the first start, "
    "the divergence Kafka sees",
    "[consumer_fate]") {
  ConsumerLeaderView l = scene_leader();
  l.cache = LeaderEpochCache::load({{3, 20}, {4, 50}});
  const auto f = consumer_fate(l, kScene, {30, 1}, OffsetResetPolicy::earliest);
  CHECK(f.action == FateAction::truncation_seek);
  CHECK(*f.epoch_end_offset == EpochEntry{1, 20});
  CHECK(f.next_position == 20);
  // What it read at 20-29 was epoch 1's, which the leader no longer holds there.
  CHECK(f.reread.count() == 0);
  CHECK(f.consumed_lost.from == 20);
  CHECK(f.consumed_lost.to == 30);
}

TEST_CASE(
    "a commit at the new leader's own epoch: it read the new leader's records, nothing "
    "changes (the lineage of the committed epoch, not the previous leader's log)",
    "[consumer_fate]") {
  // The consumer committed 80 at epoch 1, the new leader's latest: its end is the log end, 90.
  ConsumerLeaderView l = scene_leader();
  l.log_end_offset = l.latest_offset = 90;
  const auto f = consumer_fate(l, kScene, {80, 1}, OffsetResetPolicy::earliest);
  CHECK(f.validated);
  CHECK(f.action == FateAction::no_change);
  CHECK(f.skipped_unseen.count() == 0);
  CHECK(f.consumed_lost.count() == 0);
}

TEST_CASE("committed exactly at the new log end: in range, nothing to skip", "[consumer_fate]") {
  const auto f = consumer_fate(scene_leader(), kScene, {50, std::nullopt}, OffsetResetPolicy::none);
  CHECK(f.action == FateAction::no_change);
  CHECK(f.next_position == 50);
  CHECK(f.consumed_lost.count() == 0);
}

TEST_CASE("librdkafka 2.0.2 (no KIP-320) ignores a committed epoch: the fetch decides alone",
          "[consumer_fate]") {
  ConsumerLeaderView l = scene_leader();
  l.log_end_offset = l.latest_offset = 90;
  const auto skip = consumer_fate(l, kScene, {80, 0}, OffsetResetPolicy::earliest,
                                  ConsumerClient::librdkafka_2_0);
  CHECK_FALSE(skip.validated);
  CHECK(skip.action == FateAction::silent_skip);
  CHECK(skip.next_position == 80);
  const auto past = consumer_fate(scene_leader(), kScene, {80, 0}, OffsetResetPolicy::none,
                                  ConsumerClient::librdkafka_2_0);
  CHECK(past.action == FateAction::out_of_range_exception);
  // The Java consumer on the same commit detects the truncation.
  CHECK(consumer_fate(l, kScene, {80, 0}, OffsetResetPolicy::earliest).action ==
        FateAction::truncation_seek);
}

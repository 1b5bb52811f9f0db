// Pins a follower's path through a tiered leader's remote tier (KIP-405): Kafka's
// TierStateMachine.start / buildRemoteLogAuxState (core/.../server/TierStateMachine.java),
// RemoteLogMetadataCache.remoteLogSegmentMetadata and RemoteLogLeaderEpochState's copy-finished
// rule (their tests' vectors), and ReplicaManager.handleOffsetOutOfRangeError's range, as
// predict_truncation runs them in fetch mode.
#include <catch2/catch.hpp>

#include "kepoch/epoch/tiered_fetch.hpp"
#include "kepoch/epoch/truncation.hpp"

using namespace kepoch;
using Entries = std::vector<EpochEntry>;

namespace {

RemoteSegment segment(const std::string& id, std::int64_t start, std::int64_t end, Entries epochs) {
  RemoteSegment s;
  s.segment_id = id;
  s.start_offset = start;
  s.end_offset = end;
  s.leader_epochs = std::move(epochs);
  return s;
}

// Copy started and finished, in that order.
void copied(RemoteLogIndex& index, RemoteSegment s) {
  const std::string id = s.segment_id;
  index.add_copy_started(std::move(s));
  index.update(id, RemoteSegmentState::copy_segment_finished);
}

std::string id_for(const RemoteLogIndex& index, std::int32_t epoch, std::int64_t offset) {
  const RemoteSegment* s = index.segment_for(epoch, offset);
  return s ? s->segment_id : "none";
}

ReplicaLog cache_log(const Entries& entries, std::int64_t leo, std::int64_t hw = 0,
                     std::int64_t start = 0) {
  ReplicaLog log;
  for (const auto& e : entries)
    log.cache.assign(e);
  log.log_end_offset = leo;
  log.high_watermark = hw;
  log.log_start_offset = start;
  return log;
}

std::string branches(const TruncationPrediction& p) {
  std::string s;
  for (const auto& r : p.rounds)
    s += branch_letter(r.branch);
  return s;
}

// A tiered leader: epochs 0@0, 1@300, 2@600; log start 0, local log start 700, log end 900;
// remote segments 0-299 (epoch 0), 300-599 (epoch 1), 600-699 (epoch 2).
struct TieredLeader {
  ReplicaLog log = cache_log({{0, 0}, {1, 300}, {2, 600}}, 900, 900);
  std::shared_ptr<RemoteLogIndex> index = std::make_shared<RemoteLogIndex>();
  TieredLeader() {
    copied(*index, segment("s0", 0, 299, {{0, 0}}));
    copied(*index, segment("s1", 300, 599, {{1, 300}}));
    copied(*index, segment("s2", 600, 699, {{2, 600}}));
  }
  LeaderAnswers answers(const ReplicaLog& follower, bool metadata = true,
                        std::int64_t log_start = 0) const {
    LeaderAnswers a = answers_of(log, follower.cache);
    a.log_start_offset = log_start;
    a.tier = tier_answers_of(log.cache, log.log_end_offset, 700,
                             metadata ? index : std::shared_ptr<RemoteLogIndex>());
    return a;
  }
};

}  // namespace

TEST_CASE("RemoteLogMetadataCache.remoteLogSegmentMetadata: the floor segment of the epoch",
          "[tiered]") {
  RemoteLogIndex index;
  copied(index, segment("a", 0, 99, {{0, 0}}));
  copied(index, segment("b", 100, 199, {{0, 100}, {1, 150}}));
  CHECK(id_for(index, 0, 0) == "a");
  CHECK(id_for(index, 0, 99) == "a");
  CHECK(id_for(index, 0, 149) == "b");
  // Past the epoch's end in the segment (epoch 1 starts at 150): empty.
  CHECK(id_for(index, 0, 150) == "none");
  CHECK(id_for(index, 1, 199) == "b");
  CHECK(id_for(index, 1, 200) == "none");  // past the segment's end
  CHECK(id_for(index, 1, 149) == "none");  // below epoch 1's first offset
  CHECK(id_for(index, 2, 150) == "none");  // no segment of the epoch
}

TEST_CASE(
    "RemoteLogMetadataCache: only finished copies are found and a delete started removes them",
    "[tiered]") {
  RemoteLogIndex index;
  index.add_copy_started(segment("a", 0, 99, {{0, 0}}));
  CHECK(id_for(index, 0, 50) == "none");  // COPY_SEGMENT_STARTED: unreferenced
  index.update("a", RemoteSegmentState::copy_segment_finished);
  CHECK(id_for(index, 0, 50) == "a");
  index.update("a", RemoteSegmentState::delete_segment_started);
  CHECK(id_for(index, 0, 50) == "none");
  index.update("a", RemoteSegmentState::delete_segment_finished);
  CHECK(index.segment_count() == 0);
  index.update("unknown", RemoteSegmentState::copy_segment_finished);  // ignored
  CHECK(index.segment_count() == 0);
}

TEST_CASE("RemoteLogLeaderEpochState: a later copy of the epoch replaces duplicates and overlaps",
          "[tiered]") {
  // The rule's own cases: S0 0-100 then S1 0-200 (duplicate); S0 10-90 then S1 5-100
  // (overlap): offset 95, and 50, come from S1.
  RemoteLogIndex dup;
  copied(dup, segment("s0", 0, 100, {{0, 0}}));
  copied(dup, segment("s1", 0, 200, {{0, 0}}));
  CHECK(id_for(dup, 0, 50) == "s1");
  RemoteLogIndex overlap;
  copied(overlap, segment("s0", 10, 90, {{0, 10}}));
  copied(overlap, segment("s1", 5, 100, {{0, 5}}));
  CHECK(id_for(overlap, 0, 95) == "s1");
  CHECK(id_for(overlap, 0, 50) == "s1");
  // A later copy that does not reach the epoch's highest offset so far removes nothing, but
  // its put at the same start offset replaces the entry: offset 80 is then found in no
  // segment (s1's epoch ends at 50), as Kafka's map does.
  RemoteLogIndex shorter;
  copied(shorter, segment("s0", 0, 100, {{0, 0}}));
  copied(shorter, segment("s1", 0, 50, {{0, 0}}));
  CHECK(id_for(shorter, 0, 80) == "none");
  CHECK(id_for(shorter, 0, 40) == "s1");
}

TEST_CASE("TierStateMachine.buildRemoteLogAuxState: the target epoch", "[tiered]") {
  // The method's own example: epochs 0@20, 1@85, (2 without records), 3@90, 4@98.
  LeaderEpochCache cache;
  for (const EpochEntry& e : Entries{{0, 20}, {1, 85}, {3, 90}, {4, 98}})
    cache.assign(e);
  auto index = std::make_shared<RemoteLogIndex>();
  copied(*index, segment("s", 20, 89, {{0, 20}, {1, 85}}));
  copied(*index, segment("t", 90, 96, {{3, 90}}));

  SECTION("local start 90 (epoch 3): OffsetsForLeaderEpoch(2) answers (1, 90) > 89: epoch 1") {
    const TierRebuild r =
        build_remote_log_aux_state(tier_answers_of(cache, 120, 90, index), 20, 50);
    CHECK(r.local_start_epoch == 3);
    CHECK(r.target_epoch == 1);
    CHECK(r.earlier_epoch_used);
    REQUIRE(r.outcome == TierOutcome::rebuilt);
    CHECK(r.segment->segment_id == "s");
    CHECK(r.next_offset == 90);
    CHECK(r.rebuilt_cache == Entries{{0, 20}, {1, 85}});
  }
  SECTION("local start 97 (epoch 3): epoch 2's answer ends at 90, not past 96: epoch 3") {
    const TierRebuild r =
        build_remote_log_aux_state(tier_answers_of(cache, 120, 97, index), 20, 50);
    CHECK(r.target_epoch == 3);
    CHECK_FALSE(r.earlier_epoch_used);
    REQUIRE(r.outcome == TierOutcome::rebuilt);
    CHECK(r.segment->segment_id == "t");
    CHECK(r.next_offset == 97);
    CHECK(r.rebuilt_cache == Entries{{0, 20}, {1, 85}, {3, 90}});
  }
  SECTION("epoch 0 at the local start: no OffsetsForLeaderEpoch, target 0") {
    LeaderEpochCache zero;
    zero.assign({0, 0});
    auto one = std::make_shared<RemoteLogIndex>();
    copied(*one, segment("z", 0, 49, {{0, 0}}));
    const TierRebuild r = build_remote_log_aux_state(tier_answers_of(zero, 80, 50, one), 0, 10);
    CHECK(r.target_epoch == 0);
    CHECK(r.next_offset == 50);
  }
  SECTION("no finished segment holds (target epoch, L-1): RemoteStorageException, retried") {
    const TierRebuild r = build_remote_log_aux_state(
        tier_answers_of(cache, 120, 98, std::make_shared<RemoteLogIndex>()), 20, 50);
    CHECK(r.outcome == TierOutcome::no_remote_segment);
    CHECK_FALSE(r.next_offset);
  }
  SECTION("no __remote_log_metadata given: the segment is unknown") {
    const TierRebuild r =
        build_remote_log_aux_state(tier_answers_of(cache, 120, 98, nullptr), 20, 50);
    CHECK(r.outcome == TierOutcome::remote_unknown);
    CHECK(r.target_epoch == 3);
  }
  SECTION("no epoch at the leader's local start (ListOffsets answers -1)") {
    LeaderEpochCache late;
    late.assign({5, 200});
    const TierRebuild r = build_remote_log_aux_state(tier_answers_of(late, 300, 100, index), 0, 50);
    CHECK(r.outcome == TierOutcome::no_epoch);
  }
}

TEST_CASE("Fetch mode: a far-behind follower of a tiered leader rebuilds from the remote tier",
          "[tiered]") {
  const TieredLeader leader;
  SECTION(
      "the fetch at its log end (same lineage) is refused: truncate fully, fetch from the "
      "segment's end + 1 (ReplicaManager.handleOffsetOutOfRangeError, TierStateMachine)") {
    const ReplicaLog follower = cache_log({{0, 0}, {1, 300}}, 450, 440);
    const auto p = predict_truncation(leader.answers(follower), follower, TruncationMode::fetch);
    CHECK(branches(p) == "NT");
    CHECK(p.truncated_fully);
    CHECK(p.fetch_from == 700);
    CHECK(p.truncate_to == 700);
    REQUIRE(p.tier);
    CHECK(p.tier->refused_offset == 450);
    CHECK(p.tier->target_epoch == 2);
    CHECK(p.tier->segment->segment_id == "s2");
    CHECK(p.after.cache.entries() == Entries{{0, 0}, {1, 300}, {2, 600}});
    CHECK(p.after.log_start_offset == 0);
    CHECK(p.after.log_end_offset == 700);
  }
  SECTION("below the leader's log start: out of range, reset fully to it, then the tier") {
    const ReplicaLog follower = cache_log({{0, 0}}, 100, 100);
    const auto p =
        predict_truncation(leader.answers(follower, true, 200), follower, TruncationMode::fetch);
    CHECK(branches(p) == "OT");
    CHECK(p.tier->refused_offset == 200);
    CHECK(p.fetch_from == 700);
    CHECK(p.after.log_start_offset == 200);
  }
  SECTION("a diverged follower truncates by the epochs first, then takes the tier") {
    // The follower's epoch 1 runs to 649; the leader's ends at 600 (its epoch 2 from there).
    const ReplicaLog follower = cache_log({{0, 0}, {1, 300}}, 650, 350);
    const auto p = predict_truncation(leader.answers(follower), follower, TruncationMode::fetch);
    CHECK(branches(p) == "ENT");
    REQUIRE(p.tier);
    CHECK(p.tier->refused_offset == 600);
    CHECK(p.fetch_from == 700);
  }
  SECTION("at or past the leader's local start: no tier step") {
    const ReplicaLog follower = cache_log({{0, 0}, {1, 300}, {2, 600}}, 750, 700);
    const auto p = predict_truncation(leader.answers(follower), follower, TruncationMode::fetch);
    CHECK(branches(p) == "N");
    CHECK_FALSE(p.tier);
    CHECK(p.fetch_from == 750);
  }
  SECTION("without the metadata: the follower truncates fully, where it starts is unknown") {
    const ReplicaLog follower = cache_log({{0, 0}, {1, 300}}, 450, 440);
    const auto p =
        predict_truncation(leader.answers(follower, false), follower, TruncationMode::fetch);
    REQUIRE(p.tier);
    CHECK(p.tier->outcome == TierOutcome::remote_unknown);
    CHECK(p.truncated_fully);
    CHECK_FALSE(p.rounds.back().completed);
    CHECK(p.fetch_from == 700);
  }
  SECTION("no segment for the leader's local start: the follower keeps its log, retrying") {
    const ReplicaLog follower = cache_log({{0, 0}, {1, 300}}, 450, 440);
    LeaderAnswers a = leader.answers(follower);
    a.tier->remote = std::make_shared<RemoteLogIndex>();
    const auto p = predict_truncation(a, follower, TruncationMode::fetch);
    CHECK(p.tier->outcome == TierOutcome::no_remote_segment);
    CHECK_FALSE(p.truncated_fully);
    CHECK(p.truncate_to == 450);
    CHECK_FALSE(p.rounds.back().completed);
  }
  SECTION("a leader without tier answers is the non-tiered rule") {
    const ReplicaLog follower = cache_log({{0, 0}, {1, 300}}, 450, 440);
    const auto p =
        predict_truncation(answers_of(leader.log, follower.cache), follower, TruncationMode::fetch);
    CHECK(branches(p) == "N");
    CHECK_FALSE(p.tier);
    CHECK(p.fetch_from == 450);
  }
}

TEST_CASE("RemoteLogManager.read: which offsets of the leader's lineage remote storage holds",
          "[tiered]") {
  const TieredLeader leader;
  const TierAnswers t = leader.answers(cache_log({}, 0)).tier.value();
  CHECK(remote_holds(t, 0) == true);
  CHECK(remote_holds(t, 650) == true);
  CHECK(remote_holds(t, 700) == false);  // epoch 2 ends at 699 in s2
  TierAnswers none = t;
  none.remote = nullptr;
  CHECK_FALSE(remote_holds(none, 0).has_value());
}

// A live leader's cache up to the epoch of its local log start, from OffsetsForLeaderEpoch
// answers (LeaderEpochFileCache.endOffsetFor, as the leader computes them here by
// LeaderEpochCache::end_offset_for): the entries below equal the cache's own, whether epoch 0
// is an entry or lies below the first one, with gaps between epochs and a first entry moved
// to the log start by truncateFromStart.
TEST_CASE("leader_entries_from_answers rebuilds the leader's cache from its answers",
          "[epoch][tiered]") {
  const auto check = [](Entries entries, std::int64_t log_start, std::int64_t log_end,
                        std::int32_t upto) {
    LeaderEpochCache cache;
    for (const auto& e : entries)
      cache.assign(e);
    std::map<std::int32_t, EpochEntry> answers;
    for (std::int32_t e = 0; e <= upto; ++e)
      answers[e] = cache.end_offset_for(e, log_end);
    Entries want;
    for (const auto& e : cache.entries())
      if (e.epoch <= upto) want.push_back(e);
    const auto got = leader_entries_from_answers(answers, upto, log_start);
    REQUIRE(got);
    CHECK(*got == want);
  };
  check({{0, 0}, {1, 100}, {4, 250}, {5, 900}}, 0, 1000, 4);
  check({{0, 0}, {1, 100}, {4, 250}, {5, 900}}, 0, 1000, 5);  // the latest epoch: the log end
  check({{2, 1200}, {3, 1500}, {7, 2000}}, 1200, 2500, 7);    // epochs 0, 1 below the first
  check({{1, 0}, {2, 10}}, 0, 50, 2);                         // epoch 0 never led
  check({{0, 0}}, 0, 50, 0);
  // A question not answered: nothing is made up.
  std::map<std::int32_t, EpochEntry> partial{{0, {0, 100}}, {2, {2, 300}}};
  CHECK_FALSE(leader_entries_from_answers(partial, 2, 0));
}

#include "kepoch/forecast/outage_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string_view>
#include <utility>

#include "kepoch/base/error.hpp"
#include "kepoch/base/text.hpp"
#include "kepoch/forecast/one_cluster.hpp"
#include "kepoch/storage/logdir_scan.hpp"
#include "kepoch/storage/logdir_snapshot.hpp"

namespace kepoch::forecast {

std::vector<PlanSalvage> plan_salvages(const RecoveryPlan& plan, const PlanInput& input,
                                       const std::set<std::int32_t>& live_brokers) {
  std::vector<PlanSalvage> out;
  for (std::size_t i = 0; i < plan.partitions.size() && i < input.partitions.size(); ++i) {
    const PartitionPlan& p = plan.partitions[i];
    const PlanPartitionInput& in = input.partitions[i];
    const CandidateOutcome* chosen = p.chosen_candidate();
    if (!chosen) continue;
    const auto leader = in.replicas.find(chosen->broker);
    if (leader == in.replicas.end() || !leader->second) continue;
    for (const FollowerOutcome& f : chosen->followers) {
      const ReplicaForecast& rf = f.forecast;
      if (rf.lost_records == 0 && rf.lost_unknown_records == 0) continue;
      if (input.gone_brokers.count(f.broker)) continue;  // its disk is lost: nothing to read
      const auto follower = in.replicas.find(f.broker);
      if (follower == in.replicas.end() || !follower->second) continue;
      const PartitionReplica& r = *follower->second;
      PlanSalvage s;
      s.topic = p.topic;
      s.partition = p.partition;
      s.leader = chosen->broker;
      s.follower = f.broker;
      s.follower_live = live_brokers.count(f.broker) > 0;
      s.lost_records = rf.lost_records;
      s.lost_unknown_records = rf.lost_unknown_records;
      std::string dir = r.dir.string();
      if (r.stored) {
        s.follower_dir_known = !r.recorded_dir.empty();
        dir = s.follower_dir_known
                  ? r.recorded_dir
                  : fmt::format("BROKER-{}-LOG-DIR/{}-{}", f.broker, p.topic, p.partition);
      }
      s.command = fmt::format(
          "kepoch salvage --archive {} --leader {} {}",
          shell_word(fmt::format("{}-{}.broker-{}.salvage.jsonl", p.topic, p.partition, f.broker)),
          shell_word(leader->second->dir.string()), shell_word(dir));
      out.push_back(std::move(s));
    }
  }
  return out;
}

namespace {

// What the report says beside the plan: the metadata's source, each broker, the notes.
// Per broker whose state is missing, the partitions needing a decision it is a replica of.
using MissingCounts = std::map<std::int32_t, std::uint64_t>;
void count_missing(const PartitionPlan& p, MissingCounts& missing) {
  if (p.kind != RecommendationKind::healthy)
    for (const auto id : p.unknown_replicas)
      ++missing[id];
}

void finish_outage_plan(OutagePlan& out, PlanMetadata& metadata,
                        const std::map<std::int32_t, std::string>& source_of,
                        const std::set<std::int32_t>& assigned, std::uint64_t not_in_metadata,
                        const MissingCounts* counted = nullptr) {
  metadata.finish_notes();
  const PlanInput& input = out.input;
  out.salvages = plan_salvages(out.plan, input, input.live_brokers);
  out.metadata = std::move(metadata.description);
  out.cluster_id = std::move(metadata.cluster_id);
  for (const auto& s : out.states)
    if (s.cluster_id && !out.cluster_id) out.cluster_id = s.cluster_id;
  std::set<std::int32_t> brokers = assigned;
  for (const auto& [id, src] : source_of)
    brokers.insert(id);
  for (const auto id : brokers) {
    const auto src = source_of.find(id);
    out.brokers.push_back({id, input.live_brokers.count(id) > 0 && !input.gone_brokers.count(id),
                           input.gone_brokers.count(id) > 0,
                           src == source_of.end() ? std::string() : src->second});
  }
  // What a missing broker leaves unknown.
  MissingCounts missing;
  if (counted)
    missing = *counted;
  else
    for (const auto& p : out.plan.partitions)
      count_missing(p, missing);
  for (const auto& [id, count] : missing)
    out.notes.push_back(
        source_of.count(id)
            ? fmt::format("broker {}: its state holds no usable replica of {} partition(s) "
                          "without a live leader (none there, or one of another topic id): "
                          "what it holds of them is not counted",
                          id, count)
            : fmt::format("broker {}: no state given; what its replicas of {} partition(s) "
                          "without a live leader hold is not counted",
                          id, count));
  if (not_in_metadata > 0)
    out.notes.push_back(fmt::format(
        "{} partition(s) in the states are not in the metadata (deleted topics, or not selected)",
        not_in_metadata));
  for (const auto& s : out.states)
    out.notes.insert(out.notes.end(), s.notes.begin(), s.notes.end());
  out.notes.insert(out.notes.end(), metadata.notes.begin(), metadata.notes.end());
}

}  // namespace

OutagePlan plan_outage(std::vector<BrokerState> states, PlanMetadata metadata,
                       const std::vector<std::int32_t>& gone, unsigned jobs,
                       const ReplicaPrepare& prepare) {
  check_one_cluster(states, {});  // every broker known (a caller's check_one_cluster set them)
  check_metadata_cluster(states, metadata.cluster_id);
  metadata.materialize();
  OutagePlan out;
  out.states = std::move(states);
  // Each partition's replicas with known state, by broker.
  std::map<std::pair<std::string, std::int32_t>, std::map<std::int32_t, const PartitionReplica*>>
      known;
  std::map<std::int32_t, std::string> source_of;
  for (auto& s : out.states) {
    source_of[*s.broker] = s.argument;
    for (auto& r : s.replicas) {
      if (prepare) prepare(r);
      known[{r.topic, r.partition}][*s.broker] = &r;
    }
  }
  PlanInput& input = out.input;
  input.live_brokers = metadata.live;
  input.gone_brokers = {gone.begin(), gone.end()};
  input.jobs = jobs;
  std::set<std::int32_t> assigned;
  std::uint64_t not_in_metadata = known.size();
  for (auto& p : metadata.partitions) {
    const auto it = known.find({p.topic, p.partition});
    if (it != known.end()) {
      --not_in_metadata;
      for (const auto& [broker, r] : it->second)
        if (std::find(p.state.replicas.begin(), p.state.replicas.end(), broker) !=
            p.state.replicas.end())
          p.replicas[broker] = r;
    }
    assigned.insert(p.state.replicas.begin(), p.state.replicas.end());
    input.partitions.push_back(std::move(p));
  }
  out.plan = plan_recovery(input);

  finish_outage_plan(out, metadata, source_of, assigned, not_in_metadata);
  return out;
}

OutagePlan plan_outage_streamed(std::vector<StreamedBrokerState> states, PlanMetadata metadata,
                                const std::vector<std::int32_t>& gone, bool all, unsigned jobs,
                                const ReplicaPrepare& prepare, const ListedSink& sink,
                                std::shared_ptr<SpilledLists> start_names, std::size_t block_size) {
  OutagePlan out;
  std::vector<std::unique_ptr<ReplicaStream>> streams;
  for (auto& s : states) {
    out.states.push_back(std::move(s.state));
    streams.push_back(std::move(s.replicas));
    streams.back()->pause();  // the window its header was read in: each reads in its turn
  }
  check_one_cluster(out.states, {});  // every broker known (a caller's check_one_cluster set them)
  check_metadata_cluster(out.states, metadata.cluster_id);
  if (jobs == 0) jobs = default_jobs();
  std::map<std::int32_t, std::string> source_of;
  for (const auto& s : out.states)
    source_of[*s.broker] = s.argument;
  PlanInput& input = out.input;
  input.live_brokers = metadata.live;
  input.gone_brokers = {gone.begin(), gone.end()};
  input.jobs = jobs;

  // The metadata's partitions in partition order, the order of the streams (the metadata
  // log's already is; a live cluster's answer need not be). Each is taken (made, from the
  // log's compact partitions) when its block is planned.
  // Ranged (the log read again for each range of its order): taken in order, as they come.
  if (metadata.logged.ranged() && !metadata.partitions.empty()) metadata.materialize();
  const bool ranged = metadata.logged.ranged();
  const std::size_t count = ranged ? 0 : metadata.size();
  const auto before = [&](std::size_t a, std::size_t b) {
    return partition_before(metadata.topic(a), metadata.partition(a), metadata.topic(b),
                            metadata.partition(b));
  };
  bool in_order = true;
  for (std::size_t i = 1; i < count && in_order; ++i)
    in_order = !before(i, i - 1);
  std::vector<std::size_t> order;  // empty when in order: position i is partition i
  if (!in_order) {
    order.resize(count);
    for (std::size_t i = 0; i < count; ++i)
      order[i] = i;
    std::stable_sort(order.begin(), order.end(), before);
  }
  const auto index_at = [&](std::size_t pos) { return in_order ? pos : order[pos]; };
  // Handed to the sink block by block: the blocks are in the metadata's order.
  const bool stream_listed = sink && in_order;
  MissingCounts missing;
  std::size_t named = 0;  // partitions needing a decision held for the verdict

  // The streams are read in chunks of consecutive streams (a few per thread: threads take
  // them in turn), each chunk into its own pool of replica objects kept from block to block
  // (their storage reused: nothing allocated per replica once warm; a deque: one allocation per
  // object, none moved or left unused as a vector's spare capacity would be). Stream i's replicas
  // of the block are its chunk's pool[first[i], first[i] + used[i]). A stream reads nothing ahead:
  // it peeks at its next replica's partition and stops before a later block's, so between blocks it
  // holds no replica, and the pools hold about a block's replicas however many streams there are. A
  // stream that cannot peek (a line only the general parser reads) keeps the replica it read for a
  // later block in held[i].
  std::vector<char> ended(streams.size(), 0);
  const std::size_t chunk_count = std::min<std::size_t>(streams.size(), std::size_t{4} * jobs);
  // Chunk c: streams [ceil(c n / C), ceil((c + 1) n / C)), so stream i is in chunk i C / n.
  const auto chunk_begin = [&](std::size_t c) {
    return (c * streams.size() + chunk_count - 1) / chunk_count;
  };
  std::vector<std::deque<PartitionReplica>> pools(chunk_count);
  std::vector<std::size_t> first(streams.size(), 0);
  std::vector<std::size_t> used(streams.size(), 0);
  std::vector<std::unique_ptr<PartitionReplica>> held(streams.size());
  // The last partition of the block read before (a stream's replicas now come after it).
  std::optional<std::pair<std::string, std::int32_t>> after;
  std::vector<std::vector<std::pair<std::string, std::int32_t>>> unlisted(streams.size());
  std::vector<std::exception_ptr> errors(streams.size());
  std::uint64_t not_in_metadata = 0;
  std::set<std::int32_t> assigned;
  RecoveryPlanBuilder builder(input.gone_brokers);
  if (start_names) builder.spill_partitions(std::move(start_names));
  // The listed partitions (RecoveryPlanBuilder::listed, every one with --all): their plan,
  // their input, by metadata index, gathered in the metadata's order at the end.
  struct Kept {
    std::size_t index;
    PartitionPlan plan;
    PlanPartitionInput input;
  };
  std::vector<Kept> kept;

  // Per stream: where each of its replicas of the block is in the block (its first partition there
  // of that name).
  std::vector<std::vector<std::size_t>> where(streams.size());

  // Reads every stream up to the block's last partition (all of it when `to_end`): the
  // replicas of the block's partitions (`block`, in partition order) to the pools, with their
  // place in `where`, the others' names to `unlisted`. A stream comes in partition order, so
  // its place in the block only moves forward.
  const auto read_block = [&](const std::vector<PlanPartitionInput>& block, bool to_end) {
    const PlanPartitionInput* last = to_end ? nullptr : &block.back();
    const auto read_stream = [&](std::size_t i, std::deque<PartitionReplica>& pool,
                                 std::size_t& filled) {
      first[i] = filled;
      used[i] = 0;
      where[i].clear();
      unlisted[i].clear();
      std::size_t at = 0;  // the block's first partition not before the stream's replica
      const auto in_block = [&](const PartitionReplica& r) {
        at = static_cast<std::size_t>(
            std::lower_bound(block.begin() + static_cast<std::ptrdiff_t>(at), block.end(), r,
                             [](const PlanPartitionInput& p, const PartitionReplica& x) {
                               return partition_before(p.topic, p.partition, x.topic, x.partition);
                             }) -
            block.begin());
        return at < block.size() && block[at].partition == r.partition &&
               block[at].topic == r.topic;
      };
      bool first_read = true;
      while (!ended[i]) {
        if (pool.size() == filled) pool.emplace_back();
        PartitionReplica& r = pool[filled];
        if (held[i]) {
          r = std::move(*held[i]);
          held[i].reset();
        } else {
          std::string_view topic;
          std::int32_t partition = 0;
          if (last && streams[i]->peek(topic, partition) &&
              partition_before(last->topic, last->partition, topic, partition))
            break;  // a later block's: left unread
          if (!streams[i]->next(r)) {
            ended[i] = 1;
            break;
          }
          // What the peek said the last turn, the read must say too (a line read one way by
          // the peek, another by the parser, would lose its replica).
          if (first_read && after &&
              !partition_before(after->first, after->second, r.topic, r.partition))
            throw InputError(out.states[i].argument,
                             fmt::format("replica {}-{}: expected a partition after {}-{} (its "
                                         "line's start says so), found it before",
                                         r.topic, r.partition, after->first, after->second));
          first_read = false;
        }
        if (last && partition_before(last->topic, last->partition, r.topic, r.partition)) {
          held[i] = std::make_unique<PartitionReplica>(std::move(r));
          break;
        }
        if (!to_end && in_block(r)) {
          where[i].push_back(at);
          ++used[i];
          ++filled;
        } else {
          unlisted[i].emplace_back(r.topic, r.partition);
        }
      }
      // Its turn is over until the next block (or for good): its window goes (one per thread
      // at a time, not one per stream).
      streams[i]->pause();
    };
    parallel_for(chunk_count, jobs, [&](std::size_t c) {
      std::size_t filled = 0;
      for (std::size_t i = chunk_begin(c); i < chunk_begin(c + 1); ++i) {
        try {
          read_stream(i, pools[c], filled);
        } catch (...) {
          errors[i] = std::current_exception();
        }
      }
    });
    for (const auto& e : errors)  // the first argument's error, whichever thread met it first
      if (e) std::rethrow_exception(e);
    std::set<std::pair<std::string, std::int32_t>> names;
    for (auto& list : unlisted)
      names.insert(std::make_move_iterator(list.begin()), std::make_move_iterator(list.end()));
    not_in_metadata += names.size();
  };

  const std::size_t per_block = std::max<std::size_t>(block_size, 1);
  for (std::size_t from = 0; metadata.has(from); from += per_block) {
    std::vector<std::size_t> block;  // the metadata's indexes
    std::vector<PlanPartitionInput> inputs;
    for (std::size_t pos = from; pos < from + per_block && metadata.has(pos); ++pos) {
      block.push_back(index_at(pos));
      inputs.push_back(metadata.take(block.back()));
    }
    read_block(inputs, false);
    after.emplace(inputs.back().topic, inputs.back().partition);
    // Each replica to its partition(s), as plan_outage joins them.
    for (std::size_t i = 0; i < streams.size(); ++i) {
      const std::int32_t broker = *out.states[i].broker;
      std::deque<PartitionReplica>& pool = pools[i * chunk_count / streams.size()];
      for (std::size_t k = 0; k < used[i]; ++k) {
        PartitionReplica& r = pool[first[i] + k];
        if (prepare) prepare(r);
        for (std::size_t at = where[i][k];
             at < inputs.size() && inputs[at].partition == r.partition &&
             inputs[at].topic == r.topic;
             ++at) {
          PlanPartitionInput& p = inputs[at];
          if (std::find(p.state.replicas.begin(), p.state.replicas.end(), broker) !=
              p.state.replicas.end())
            p.replicas[broker] = &r;
        }
      }
    }
    for (const auto& in : inputs)
      assigned.insert(in.state.replicas.begin(), in.state.replicas.end());
    std::vector<PartitionPlan> plans =
        plan_partitions(inputs, input.live_brokers, input.gone_brokers, jobs);
    if (stream_listed) {
      RecoveryPlan listed;
      PlanInput listed_input;
      listed_input.live_brokers = input.live_brokers;
      listed_input.gone_brokers = input.gone_brokers;
      listed_input.jobs = jobs;
      for (std::size_t j = 0; j < block.size(); ++j) {
        count_missing(plans[j], missing);
        const bool is_listed = all || RecoveryPlanBuilder::listed(plans[j]);
        const bool decision = plans[j].kind != RecommendationKind::healthy;
        if (decision && named == kNamedDecisions) ++out.unheld_decisions;
        const bool hold = decision && named < kNamedDecisions;
        if (hold) ++named;
        if (hold)
          builder.add(plans[j], true);
        else
          builder.count(plans[j]);
        if (is_listed) {
          listed.partitions.push_back(std::move(plans[j]));
          listed_input.partitions.push_back(std::move(inputs[j]));
        }
      }
      if (!listed.partitions.empty()) sink(listed, listed_input);
      continue;
    }
    for (std::size_t j = 0; j < block.size(); ++j) {
      if (!all && !RecoveryPlanBuilder::listed(plans[j])) {
        builder.count(plans[j]);
        continue;
      }
      // Its replicas outlive the block: the report's timelines draw them (those with
      // candidates only).
      PlanPartitionInput& in = inputs[j];
      if (plans[j].candidates.empty()) {
        in.replicas.clear();
      } else {
        for (auto& [broker, r] : in.replicas) {
          out.kept_replicas.push_back(*r);
          r = &out.kept_replicas.back();
        }
      }
      kept.push_back({block[j], std::move(plans[j]), std::move(in)});
    }
  }
  read_block({}, true);  // the partitions after the metadata's last
  for (std::size_t i = 0; i < streams.size(); ++i)
    out.states[i].notes = streams[i]->notes();

  std::sort(kept.begin(), kept.end(),
            [](const Kept& a, const Kept& b) { return a.index < b.index; });
  for (auto& k : kept) {
    builder.add(std::move(k.plan), true);
    input.partitions.push_back(std::move(k.input));
  }
  out.plan = builder.finish();
  if (stream_listed) {
    finish_outage_plan(out, metadata, source_of, assigned, not_in_metadata, &missing);
    return out;
  }
  finish_outage_plan(out, metadata, source_of, assigned, not_in_metadata);
  if (sink) {  // not in partition order: everything listed, at once, in the metadata's order
    RecoveryPlan listed;
    listed.partitions = std::move(out.plan.partitions);
    out.plan.partitions.clear();
    for (auto& p : listed.partitions) {
      if (p.kind == RecommendationKind::healthy) continue;
      if (named < kNamedDecisions) {
        out.plan.partitions.push_back(p);
        ++named;
      } else {
        ++out.unheld_decisions;
      }
    }
    out.salvages.clear();
    sink(listed, input);
    input.partitions.clear();
    out.kept_replicas.clear();
  }
  return out;
}

}  // namespace kepoch::forecast

#include "kepoch/sim/engine.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kepoch/sim/verdict.hpp"

namespace kepoch::sim {
namespace {

class Engine {
 public:
  Engine(const Scenario& s, Rule rule) : s_(s), rule_(rule) {
    for (std::size_t i = 0; i < s.replicas.size(); ++i)
      replicas_.push_back(initial(s.replicas[i], i));
    partition_.replicas.clear();
    for (const auto& r : replicas_) {
      partition_.replicas.push_back(r.broker);
      if (r.alive) active_.insert(r.broker);
    }
    for (const auto& n : s.isr)
      partition_.isr.push_back(by_name(n).broker);
    partition_.leader = by_name(s.leader).broker;
    partition_.leader_epoch = s.leader_epoch;
    SimReplica& leader = by_name(s.leader);
    become_leader(leader.log, s.leader_epoch);
    leader.follows_epoch = s.leader_epoch;
  }

  SimulationRun run() {
    SimulationRun out;
    out.rule = rule_;
    snapshot(out, 0, "initial state", 0);
    for (std::size_t i = 0; i < s_.steps.size(); ++i) {
      step_ = i + 1;
      apply(s_.steps[i]);
      settle_acknowledgements();
      snapshot(out, step_, describe(s_.steps[i]), s_.steps[i].line);
    }
    out.produced = produced_;
    out.verdict = judge(replicas_, partition_, produced_, truncations_, s_.unclean_leader_election);
    return out;
  }

 private:
  static SimReplica initial(const ReplicaSpec& spec, std::size_t index) {
    SimReplica r;
    r.name = spec.name;
    r.broker = static_cast<std::int32_t>(index) + 1;
    r.alive = spec.alive;
    if (!spec.epochs.empty()) {
      r.log.cache = LeaderEpochCache::load(spec.epochs);
      r.records = records_of_epochs(r.log.cache, spec.log_end_offset);
    } else {
      for (const auto& rec : spec.log) {
        r.log.cache.assign({rec.epoch, static_cast<std::int64_t>(r.records.size())});
        r.records.push_back({rec.epoch, rec.value, true});
      }
    }
    r.log.log_end_offset = static_cast<std::int64_t>(r.records.size());
    r.log.high_watermark = spec.high_watermark;
    return r;
  }

  SimReplica& by_name(const std::string& name) {
    for (auto& r : replicas_)
      if (r.name == name) return r;
    throw std::invalid_argument("unknown replica " + name);
  }
  SimReplica* by_broker(std::int32_t broker) {
    for (auto& r : replicas_)
      if (r.broker == broker) return &r;
    return nullptr;
  }
  SimReplica* leader() { return by_broker(partition_.leader); }
  std::string name_of(std::int32_t broker) {
    const SimReplica* r = by_broker(broker);
    return r ? r->name : "none";
  }
  std::string names(const std::vector<std::int32_t>& brokers) {
    std::vector<std::string> out;
    for (auto b : brokers)
      out.push_back(name_of(b));
    return fmt::format("[{}]", fmt::join(out, ","));
  }
  void note(std::string text) { notes_.push_back(std::move(text)); }

  void snapshot(SimulationRun& out, std::size_t index, std::string action, int line) {
    out.steps.push_back({index, std::move(action), line, std::move(notes_), partition_, replicas_});
    notes_.clear();
  }

  void apply(const Step& st) {
    switch (st.kind) {
      case StepKind::produce:
        return produce(st);
      case StepKind::fetch:
        return fetch(by_name(st.replica));
      case StepKind::crash:
        return crash(by_name(st.replica), st.fence);
      case StepKind::restart:
        return restart(by_name(st.replica));
      case StepKind::shrink_isr:
        return shrink_isr(by_name(st.replica));
      case StepKind::elect:
        return elect(st.election);
    }
  }

  // ---- the data path ----------------------------------------------------------------------

  void produce(const Step& st) {
    SimReplica* l = leader();
    if (!l || !l->alive) {
      note("no leader alive: the produce fails (NOT_LEADER_OR_FOLLOWER), nothing is written");
      return;
    }
    if (st.acks == Acks::all &&
        static_cast<std::int32_t>(partition_.isr.size()) < s_.min_insync_replicas) {
      note(
          fmt::format("the ISR {} is smaller than min.insync.replicas {}: NOT_ENOUGH_REPLICAS, "
                      "nothing is written",
                      names(partition_.isr), s_.min_insync_replicas));
      return;
    }
    for (const auto& v : st.values) {
      const std::int64_t offset = l->log.log_end_offset;
      append(*l, {partition_.leader_epoch, v, true});
      Produced p{v, offset, partition_.leader_epoch, st.acks, AckState::pending, step_};
      if (st.acks == Acks::leader) p.state = AckState::acknowledged;
      if (st.acks == Acks::none) p.state = AckState::not_requested;
      produced_.push_back(p);
    }
    note(fmt::format("{} appends {} at offset {}-{} in epoch {}", l->name,
                     fmt::join(st.values, ","),
                     l->log.log_end_offset - static_cast<std::int64_t>(st.values.size()),
                     l->log.log_end_offset - 1, partition_.leader_epoch));
    advance_high_watermark();
  }

  // UnifiedLog.append: each batch of a v2 log assigns its epoch at its base offset.
  static void append(SimReplica& r, const SimRecord& rec) {
    r.log.cache.assign({rec.epoch, r.log.log_end_offset});
    r.records.push_back(rec);
    r.log.log_end_offset = static_cast<std::int64_t>(r.records.size());
  }

  void fetch(SimReplica& f) {
    SimReplica* l = leader();
    if (!f.alive) return note(f.name + " is down: no fetch");
    if (!l || !l->alive) return note("no leader alive: " + f.name + " has nothing to fetch from");
    if (l == &f) return note(f.name + " is the leader: it does not fetch");
    if (f.follows_epoch != partition_.leader_epoch) reconcile(f);
    // Offset out of range (AbstractFetcherThread.fetchOffsetAndTruncate): the leader's log
    // ends below the fetch offset, so the follower truncates to the leader's log end.
    if (f.log.log_end_offset > l->log.log_end_offset) {
      record_truncation(f, l->log.log_end_offset,
                        "out of range: the leader's log ends below the fetch offset");
      truncate_to(f.log, l->log.log_end_offset);
      f.records.resize(static_cast<std::size_t>(f.log.log_end_offset));
    }
    const std::int64_t fetch_offset = f.log.log_end_offset;
    const std::int64_t leader_hw = l->log.high_watermark;  // what this response carries
    for (std::int64_t o = fetch_offset; o < l->log.log_end_offset; ++o)
      append(f, l->records[static_cast<std::size_t>(o)]);
    f.log.high_watermark = std::min(leader_hw, f.log.log_end_offset);
    note(
        fmt::format("{} fetches from {}: {} record(s), log end {}, high watermark {} (the "
                    "leader's before this fetch)",
                    f.name, fetch_offset, f.log.log_end_offset - fetch_offset, f.log.log_end_offset,
                    f.log.high_watermark));
    follower_offsets_[f.broker] = fetch_offset;
    maybe_expand_isr(f, fetch_offset);
    advance_high_watermark();
  }

  // Partition.isFollowerInSync: caught up to the high watermark and to the start of the
  // leader's current epoch; the leader then asks the controller to add it (AlterPartition).
  void maybe_expand_isr(const SimReplica& f, std::int64_t fetch_offset) {
    if (std::count(partition_.isr.begin(), partition_.isr.end(), f.broker) > 0) return;
    SimReplica& l = *leader();
    const auto epoch_start = l.log.cache.entry_for(partition_.leader_epoch);
    if (fetch_offset < l.log.high_watermark ||
        (epoch_start && fetch_offset < epoch_start->start_offset))
      return;
    partition_.isr.push_back(f.broker);
    note(fmt::format("{} caught up: the ISR expands to {}", f.name, names(partition_.isr)));
  }

  // Partition.maybeIncrementHighWatermark: the smallest log end offset in the ISR, as the
  // leader knows it; never lowered.
  void advance_high_watermark() {
    SimReplica* l = leader();
    if (!l || !l->alive) return;
    std::int64_t hw = l->log.log_end_offset;
    for (auto b : partition_.isr) {
      if (b == l->broker) continue;
      const auto known = follower_offsets_.find(b);
      hw = std::min(hw, known == follower_offsets_.end() ? std::int64_t{-1} : known->second);
    }
    if (hw > l->log.high_watermark) {
      note(
          fmt::format("{}'s high watermark advances {} -> {}", l->name, l->log.high_watermark, hw));
      l->log.high_watermark = hw;
    }
  }

  void settle_acknowledgements() {
    SimReplica* l = leader();
    for (auto& p : produced_) {
      if (p.state != AckState::pending) continue;
      if (p.epoch != partition_.leader_epoch) {
        p.state = AckState::failed;
        note(fmt::format("{} is not acknowledged: the leader changed before it was committed",
                         p.value));
      } else if (l && l->alive && l->log.high_watermark > p.offset) {
        const bool enough =
            static_cast<std::int32_t>(partition_.isr.size()) >= s_.min_insync_replicas;
        p.state = enough ? AckState::acknowledged : AckState::failed;
        note(enough
                 ? fmt::format("{} (offset {}) is acknowledged to the producer", p.value, p.offset)
                 : fmt::format("{} fails with NOT_ENOUGH_REPLICAS_AFTER_APPEND", p.value));
      }
    }
  }

  // ---- truncation: the same rules as predict ---------------------------------------------

  // The follower reconciles its log with the current leader: truncation under the rule
  // (predict_truncation), as on restart or when a new leader epoch makes it a follower.
  void reconcile(SimReplica& f) {
    SimReplica* l = leader();
    if (!l || !l->alive || l == &f) return;
    const TruncationPrediction p = predict_truncation(
        l->log, f.log, rule_ == Rule::epoch ? TruncationMode::fetch : TruncationMode::hw);
    if (p.after.log_end_offset < f.log.log_end_offset)
      record_truncation(f, p.after.log_end_offset, why(p));
    else if (f.log.log_end_offset > 0)
      note(fmt::format("{} keeps its log to {}: {}", f.name, f.log.log_end_offset, why(p)));
    f.log = p.after;
    f.records.resize(static_cast<std::size_t>(f.log.log_end_offset));
    f.follows_epoch = partition_.leader_epoch;
  }

  // The rounds of the exchange in predict's vocabulary, then why it stopped.
  static std::string why(const TruncationPrediction& p) {
    std::vector<std::string> rounds;
    for (const auto& r : p.rounds)
      if (is_epoch_branch(r.branch))
        rounds.push_back(
            fmt::format("last fetched epoch {}, the leader says epoch {} ends at {} "
                        "(branch {}) -> {}",
                        r.requested_epoch, r.leader_reply.epoch, r.leader_reply.start_offset,
                        branch_letter(r.branch), r.truncate_to));
    rounds.push_back(p.note);
    return fmt::format("{}", fmt::join(rounds, "; "));
  }

  void record_truncation(SimReplica& f, std::int64_t to, const std::string& reason) {
    truncations_.push_back({f.name, step_, f.log.log_end_offset, to, reason});
    note(fmt::format("{} truncates {} -> {}: {}", f.name, f.log.log_end_offset, to, reason));
  }

  // ---- the controller ------------------------------------------------------------------------

  void changed(const PartitionChange& change, const std::string& why) {
    const PartitionState before = partition_;
    partition_ = change.after;
    if (!change.leader_changed) {
      if (before.isr != partition_.isr) {
        note(fmt::format("{}: the ISR becomes {}", why, names(partition_.isr)));
        advance_high_watermark();  // a smaller ISR can let the high watermark pass
      }
      return;
    }
    follower_offsets_.clear();  // a new leader knows no follower's position yet
    if (partition_.leader == kNoLeader) {
      note(fmt::format("{}: no replica can lead (ISR {}), the partition is offline", why,
                       names(partition_.isr)));
      return;
    }
    SimReplica& l = *leader();
    become_leader(l.log, partition_.leader_epoch);
    l.follows_epoch = partition_.leader_epoch;
    note(fmt::format("{}: {} leads at epoch {}{} (ISR {})", why, l.name, partition_.leader_epoch,
                     change.election.unclean ? ", an unclean election" : "",
                     names(partition_.isr)));
    for (auto& r : replicas_)
      if (r.alive && &r != &l) reconcile(r);
    advance_high_watermark();
  }

  void crash(SimReplica& r, bool fence) {
    if (!r.alive) return note(r.name + " is already down");
    r.alive = false;
    r.follows_epoch.reset();
    note(fmt::format("{} crashes (log end {}, high watermark {} kept on disk)", r.name,
                     r.log.log_end_offset, r.log.high_watermark));
    if (!fence) return;
    const auto change = fence_broker(partition_, r.broker, active_, s_.unclean_leader_election,
                                     s_.eligible_leader_replicas, s_.min_insync_replicas);
    active_.erase(r.broker);
    changed(change, "the controller fences " + r.name);
  }

  void restart(SimReplica& r) {
    if (r.alive) return note(r.name + " is already up");
    r.alive = true;
    note(r.name + " restarts");
    const bool was_fenced = active_.count(r.broker) == 0;
    if (was_fenced) {
      const auto change = unfence_broker(partition_, r.broker, active_, s_.unclean_leader_election,
                                         s_.eligible_leader_replicas, s_.min_insync_replicas);
      active_.insert(r.broker);
      changed(change, "the controller unfences " + r.name);
    }
    if (partition_.leader == r.broker) {
      r.follows_epoch = partition_.leader_epoch;
      return;
    }
    if (r.follows_epoch != partition_.leader_epoch) reconcile(r);
  }

  void shrink_isr(SimReplica& r) {
    if (partition_.leader == r.broker) return note(r.name + " leads: the leader stays in the ISR");
    auto& isr = partition_.isr;
    if (std::count(isr.begin(), isr.end(), r.broker) == 0)
      return note(r.name + " is not in the ISR");
    isr.erase(std::remove(isr.begin(), isr.end(), r.broker), isr.end());
    note(fmt::format("{} lags (replica.lag.time.max.ms): the ISR shrinks to {}", r.name,
                     names(isr)));
    advance_high_watermark();
  }

  void elect(ElectionType type) {
    PartitionChangeRequest request;
    request.target_isr = partition_.isr;
    request.acceptable = active_;
    request.election = type;
    request.elr_enabled = s_.eligible_leader_replicas;
    request.min_isr = s_.min_insync_replicas;
    const auto change = change_partition(partition_, request);
    if (!change.leader_changed)
      return note("the election keeps the leader " + name_of(partition_.leader));
    changed(change, "the election");
  }

  const Scenario& s_;
  Rule rule_;
  std::vector<SimReplica> replicas_;
  PartitionState partition_;
  std::set<std::int32_t> active_;
  std::map<std::int32_t, std::int64_t> follower_offsets_;  // the leader's view of each follower
  std::vector<Produced> produced_;
  std::vector<Truncation> truncations_;
  std::vector<std::string> notes_;
  std::size_t step_ = 0;
};

}  // namespace

std::vector<SimRecord> records_of_epochs(const LeaderEpochCache& cache,
                                         std::int64_t log_end_offset) {
  std::vector<SimRecord> out;
  for (std::int64_t o = 0; o < log_end_offset; ++o)
    out.push_back({cache.epoch_for_offset(o).value_or(0), "", false});
  return out;
}

SimulationRun simulate(const Scenario& scenario, Rule rule) {
  return Engine(scenario, rule).run();
}

}  // namespace kepoch::sim

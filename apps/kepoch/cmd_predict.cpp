// kepoch predict --leader DIR DIR...
// Where each follower replica will truncate when it fetches from the leader replica, how
// many records that removes, which are lost for good and whether any was committed.

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "exit_codes.hpp"
#include "globals.hpp"
#include "html_output.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/report/election_report.hpp"
#include "kepoch/report/html_page.hpp"
#include "kepoch/report/paired_report.hpp"
#include "kepoch/report/predict_report.hpp"
#include "kepoch/report/summary.hpp"
#include "kepoch/report/timeline.hpp"
#include "kepoch/storage/broker_identity.hpp"
#include "kepoch/storage/replica_sources.hpp"
#include "progress.hpp"
#include "replica_arguments.hpp"

namespace kepoch::cli {
namespace {

struct PredictOptions {
  std::string leader;
  std::vector<std::string> followers;
  std::string mode = "fetch";
  // --elect: choose the leader as the KRaft controller would.
  bool elect = false;
  std::vector<std::int32_t> ids;       // broker id of each DIR (default: meta.properties)
  std::vector<std::int32_t> replicas;  // assignment order (default: the ids in DIR order)
  std::vector<std::int32_t> isr;
  std::vector<std::int32_t> elr;
  std::vector<std::int32_t> alive;  // default: every broker whose DIR is given
  bool unclean = false;
  bool preferred = false;
  std::int32_t min_isr = 1;
  bool full = false;  // load every segment (otherwise what Kafka's loader reads)
  std::optional<std::string> html;
};

struct Election {
  PartitionState before;
  PartitionChangeRequest request;
  PartitionChange change;
  std::vector<std::int32_t> ids;  // of the DIRs, in order
  std::int32_t new_leader_epoch = 0;
};

// Each DIR is one broker's replica: two with one id are two copies of one broker's (Kafka
// holds one replica of a partition per broker), refused as diff and predict refuse them.
void refuse_repeated_ids(const PredictOptions& o, const std::vector<std::int32_t>& ids) {
  for (std::size_t i = 0; i < ids.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (ids[i] == ids[j])
        throw UsageError(fmt::format(
            "{} and {} are both broker {}'s: a partition has one replica per broker; compare "
            "replicas from different brokers",
            o.followers[j], o.followers[i], ids[i]));
}

std::vector<std::int32_t> broker_ids(const PredictOptions& o) {
  if (!o.ids.empty()) {
    if (o.ids.size() != o.followers.size())
      throw UsageError(
          fmt::format("--ids gives {} broker ids for {} dirs", o.ids.size(), o.followers.size()));
    refuse_repeated_ids(o, o.ids);
    return o.ids;
  }
  std::vector<std::int32_t> ids;
  for (const auto& dir : o.followers) {
    const auto id = broker_id_of_replica_dir(dir);
    if (!id)
      throw UsageError(
          fmt::format("{}: no broker id (its log dir has no meta.properties with "
                      "node.id); give the ids with --ids",
                      dir));
    ids.push_back(*id);
  }
  refuse_repeated_ids(o, ids);
  return ids;
}

Election run_election(const PredictOptions& o) {
  Election e;
  e.ids = broker_ids(o);
  e.before.replicas = o.replicas.empty() ? e.ids : o.replicas;
  e.before.isr = o.isr;
  e.before.elr = o.elr;
  e.request.target_isr = o.isr;
  const auto& alive = o.alive.empty() ? e.ids : o.alive;
  e.request.acceptable = {alive.begin(), alive.end()};
  e.request.election = o.preferred ? ElectionType::preferred
                       : o.unclean ? ElectionType::unclean
                                   : ElectionType::online;
  e.request.elr_enabled = !o.elr.empty();
  e.request.min_isr = o.min_isr;
  e.change = change_partition(e.before, e.request);
  return e;
}

// The elected replica leads at a new epoch, above every epoch the replicas hold (the exact
// number is the controller's; any larger one gives the same answers), and adds it to its
// cache as Partition.makeLeader does.
void elected_leader_epoch(Election& e, std::vector<PartitionReplica>& replicas) {
  std::int32_t epoch = 0;
  for (const auto& r : replicas)
    if (const auto latest = r.loaded.cache.latest_epoch()) epoch = std::max(epoch, *latest + 1);
  e.new_leader_epoch = epoch;
  become_leader(replicas.front().as_leader, epoch);
}

// The report with the election first.
report::Value with_election(const report::Value& election, const report::Value& rest) {
  report::Value out = report::Value::object().set("election", election);
  for (const auto& [key, value] : rest.as_object())
    out.set(key, value);
  return out;
}

std::vector<TruncationMode> modes_for(const std::string& mode) {
  if (mode == "ofle") return {TruncationMode::ofle};
  if (mode == "hw") return {TruncationMode::hw};
  if (mode == "all") return {TruncationMode::fetch, TruncationMode::ofle, TruncationMode::hw};
  return {TruncationMode::fetch};
}

// With --elect: the election, and the arguments reordered so the elected broker's comes
// first. Returns the report to print instead when no replica can lead.
std::optional<report::Value> elect_leader_argument(PredictOptions& o, Election& e) {
  e = run_election(o);
  const std::int32_t leader_id = e.change.election.node;
  if (leader_id == kNoLeader) {
    report::Value problems = report::Value::array();
    problems.push(report::Value::object()
                      .set("severity", "error")
                      .set("message", report::election_reason(e.request, e.change)));
    return report::Value::object()
        .set("election", report::election_value(e.before, e.request, e.change))
        .set("problems", std::move(problems));
  }
  const auto at = std::find(e.ids.begin(), e.ids.end(), leader_id);
  if (at == e.ids.end())
    throw UsageError(
        fmt::format("broker {} would lead, but none of the arguments is its replica", leader_id));
  const auto index = static_cast<std::size_t>(at - e.ids.begin());
  o.leader = o.followers[index];
  o.followers.erase(o.followers.begin() + static_cast<std::ptrdiff_t>(index));
  return std::nullopt;
}

// A follower whose batches differ from the leader's below the offset it truncates to keeps
// them: Kafka's truncation follows the epoch caches, and where a cache disagrees with its own
// batches (or a batch was rewritten) it cuts nothing there. The replicas then stay diverged
// and the leader's records at those offsets are missing from the follower: not safe. (A
// follower that fails after truncating is judged by its own rule, `fails`.)
void keeps_divergent_batches(ReplicaForecast& f, const ReplicaComparison& c,
                             const PartitionReplica& follower) {
  if (!c.fork_by_batches || f.fails() || f.prediction.truncated_fully) return;
  const std::int64_t keeps_until = std::min(f.prediction.truncate_to, follower.log_end_offset);
  if (*c.fork_by_batches >= keeps_until) return;
  f.committed_loss_unknown = true;
  f.kept_divergent_range = std::make_pair(*c.fork_by_batches, keeps_until - 1);
  f.unanswered.push_back(fmt::format(
      "whether records are lost: {} keeps the batches from offset {} to {} although they differ "
      "from the leader's (the epoch caches do not tell them apart, so Kafka's truncation does "
      "not remove them): the replicas stay diverged there",
      follower.dir.string(), *c.fork_by_batches, keeps_until - 1));
}

// One partition: replicas.front() is the leader's. With its timeline (timeline.hpp): the
// replicas on one offset axis against the leader, each cut where the main mode truncates it.
report::Value predict_partition(const PredictOptions& o, std::vector<PartitionReplica> replicas,
                                Election* election, bool& committed_loss) {
  if (election) elected_leader_epoch(*election, replicas);
  const PartitionReplica& leader = replicas.front();
  // A leader elected cleanly (from the ISR or ELR) holds every committed record, so the
  // followers' lost records above their recorded high watermarks were not committed; any
  // other leader (--leader, an unclean election) leaves that open (high_watermark_doubts).
  const bool leader_clean = election && !election->change.election.unclean;
  std::vector<report::ReplicaForecasts> forecasts;
  std::vector<ReplicaComparison> comparisons;
  std::vector<std::optional<std::int64_t>> truncate_to{std::nullopt};
  // Committed records are those every replica's high watermark commits in its own lineage
  // (committed_bound): the same rule, over the same replicas, as `kepoch plan`.
  std::vector<const PartitionReplica*> known;
  for (const auto& r : replicas)
    known.push_back(&r);
  for (std::size_t i = 1; i < replicas.size(); ++i) {
    report::ReplicaForecasts rf{&replicas[i], {}};
    comparisons.push_back(compare_replicas(replicas, i, 0));
    for (auto mode : modes_for(o.mode)) {
      rf.forecasts.push_back(
          forecast_follower(leader, leader.as_leader, replicas[i], known, mode, leader_clean));
      keeps_divergent_batches(rf.forecasts.back(), comparisons.back(), replicas[i]);
    }
    committed_loss = committed_loss || rf.forecasts.front().committed_loss_possible() ||
                     rf.forecasts.front().fails_possible();
    truncate_to.push_back(rf.forecasts.front().prediction.truncate_to);
    forecasts.push_back(std::move(rf));
  }
  report::Value value = report::predict_value(leader, forecasts, o.mode);
  value.set("timeline", report::timeline_value(replicas, 0, comparisons, &truncate_to));
  return value;
}

int run(PredictOptions o, const Globals& globals) {
  std::optional<Election> election;
  if (o.html) {
    std::vector<std::string> all = o.followers;
    if (!o.leader.empty()) all.push_back(o.leader);
    refuse_html_in_log_dir(*o.html, all);
  }
  if (o.elect) {
    election.emplace();
    if (auto none = elect_leader_argument(o, *election)) {
      const report::Value value = report::with_summary(*none, report::predict_summary(*none));
      // No leader, nothing to draw: the page says so under the verdict.
      if (o.html) write_html(*o.html, report::timeline_page(value, "kepoch predict"));
      emit(value, globals);
      return kFindings;
    }
  } else if (o.leader.empty()) {
    throw UsageError("give the leader's replica with --leader, or --elect to choose it");
  }
  std::vector<std::string> arguments{o.leader};
  arguments.insert(arguments.end(), o.followers.begin(), o.followers.end());
  refuse_same_replica(arguments, /*stdin_only=*/true);
  const LoadDepth depth = o.full ? LoadDepth::whole : LoadDepth::tail;
  StepProgress progress(globals, "predict");
  PairedPartitions paired =
      read_paired_replicas(arguments, depth, /*first_required=*/true, progress);
  progress.step(0, 0, "forecasting the truncations");
  bool committed_loss = false;
  Election* e = election ? &*election : nullptr;
  report::Value value;
  if (paired.single) {
    value = predict_partition(o, std::move(paired.groups.front().replicas), e, committed_loss);
  } else {
    std::vector<report::Value> sections;
    for (auto& g : paired.groups) {
      report::Value section = predict_partition(o, std::move(g.replicas), e, committed_loss);
      sections.push_back(report::with_summary(section, report::predict_summary(section)));
    }
    value = report::paired_value(std::move(sections), paired.notes);
  }
  if (election)
    value = with_election(report::election_value(e->before, e->request, e->change)
                              .set("new_leader_epoch_at_least", e->new_leader_epoch),
                          value);
  // The verdict first (summary.hpp): the whole run's, over its sections when paired.
  std::string sentence =
      paired.single ? report::predict_summary(value) : report::paired_predict_summary(value);
  value = report::with_summary(std::move(value), std::move(sentence));
  // The picture from the very Value the output renders (html_page.hpp).
  if (o.html) write_html(*o.html, report::timeline_page(value, "kepoch predict"));
  progress.done();
  emit(value, globals);
  return committed_loss ? kFindings : kOk;
}

}  // namespace

void register_predict(CLI::App& app, Globals& globals) {
  static PredictOptions o;
  CLI::App* cmd = app.add_subcommand(
      "predict", "Predict where follower replicas truncate when they fetch from the leader");
  CLI::Option* leader = cmd->add_option("--leader", o.leader,
                                        "The leader's replica: a replica dir, a log dir, a "
                                        "snapshot file or SNAPSHOT:TOPIC-PARTITION")
                            ->type_name("REPLICA");
  cmd->add_option("followers", o.followers,
                  "Follower replicas, the same kinds of argument (with --elect: every replica)")
      ->required()
      ->type_name("REPLICA");
  cmd->add_option("--mode", o.mode,
                  "fetch: Fetch divergence (every KRaft broker); ofle: OffsetsForLeaderEpoch "
                  "rounds (IBP 0.11-2.6); hw: the pre-0.11 high-watermark rule; all: side by side")
      ->check(CLI::IsMember({"fetch", "ofle", "hw", "all"}))
      ->default_str("fetch");
  CLI::Option* elect = cmd->add_flag(
      "--elect", o.elect,
      "Choose the leader among the DIRs as the KRaft controller would (PartitionChangeBuilder)");
  elect->excludes(leader);
  // Comma-separated ids in one argument ("1,2,3"), so the DIRs that follow stay positional.
  auto ids = [&](const char* name, std::vector<std::int32_t>& into, const char* what) {
    cmd->add_option_function<std::string>(
           name, [&into, name](const std::string& text) { into = parse_ids(name, text); }, what)
        ->type_name("IDS")
        ->needs(elect);
  };
  ids("--ids", o.ids, "Broker id of each DIR, in order (default: node.id in meta.properties)");
  ids("--replicas", o.replicas, "Assignment order; the first is preferred (default: --ids)");
  ids("--isr", o.isr, "The ISR in Kafka's metadata (kafka-topics --describe)");
  ids("--elr", o.elr, "Eligible leader replicas, when ELR is enabled (KIP-966)");
  ids("--alive", o.alive, "Brokers up and unfenced (default: every DIR's broker)");
  cmd->add_flag("--unclean", o.unclean,
                "unclean.leader.election.enable: elect any alive replica if no ISR member is")
      ->needs(elect);
  cmd->add_flag("--preferred", o.preferred, "A preferred-replica election")->needs(elect);
  cmd->add_option("--min-isr", o.min_isr, "min.insync.replicas (for the ELR)")
      ->needs(elect)
      ->default_str("1");
  cmd->add_flag("--full", o.full,
                "Read every segment whole (by default only what Kafka's log loader reads, and "
                "the batches from the truncation point on)");
  add_html_option(cmd, o.html);
  cmd->footer(
      "Examples:\n"
      "  kepoch predict --leader broker-2/orders-0 broker-1/orders-0 broker-3/orders-0\n"
      "  kepoch predict --mode all -o json --leader b2/d-0 b1/d-0\n"
      "  kepoch predict --elect --ids 1,2,3 --isr 1 --alive 2,3 --unclean b1/d-0 b2/d-0 b3/d-0\n"
      "  kepoch predict --html truncation.html --leader b2/d-0 b1/d-0  (a picture)\n"
      "\nEach DIR is a partition replica directory inside its log dir; the high watermark,\n"
      "recovery point and log start come from that log dir's checkpoint files, and each\n"
      "replica is taken as Kafka would load it on restart. Exit status: 0 no committed data\n"
      "lost, 1 committed records would be lost or kepoch cannot rule it out (a snapshot that\n"
      "did not keep the batches needed; records lost above the high watermark of a follower\n"
      "whose broker did not shut down cleanly, whose checkpoint may lag, unless --elect chose\n"
      "the leader from the ISR), a follower fails after truncating (outcome fails:\n"
      "UnexpectedAppendOffsetException, partition marked failed), or, with --elect, no\n"
      "replica can lead; 2 usage, 3 unreadable input. Lost records of aborted transactions\n"
      "and transaction markers are counted apart (lost_aborted_records, lost_control_records).\n"
      "\nLog dirs and snapshots (`kepoch logdir snapshot`) work as in `kepoch diff`: every\n"
      "partition of the leader's that a follower also holds gets its own section. From a\n"
      "snapshot, counts it did not keep the batches for are null and listed in `unanswered`.");
  cmd->callback([&globals] { globals.exit_code = run(o, globals); });
}

}  // namespace kepoch::cli

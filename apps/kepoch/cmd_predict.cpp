// kepoch predict --leader DIR DIR...
// Where each follower replica will truncate when it fetches from the leader replica, how
// many records that removes, which are lost for good and whether any was committed.

#include "exit_codes.hpp"
#include "globals.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/report/paired_report.hpp"
#include "kepoch/report/predict_report.hpp"
#include "kepoch/storage/replica_sources.hpp"

namespace kepoch::cli {
namespace {

struct PredictOptions {
  std::string leader;
  std::vector<std::string> followers;
  std::string mode = "fetch";
};

std::vector<TruncationMode> modes_for(const std::string& mode) {
  if (mode == "ofle") return {TruncationMode::ofle};
  if (mode == "hw") return {TruncationMode::hw};
  if (mode == "all") return {TruncationMode::fetch, TruncationMode::ofle, TruncationMode::hw};
  return {TruncationMode::fetch};
}

// One partition: replicas.front() is the leader's.
report::Value predict_partition(const PredictOptions& o, std::vector<PartitionReplica> replicas,
                                bool& committed_loss) {
  const PartitionReplica& leader = replicas.front();
  const std::vector<PartitionReplica> followers(std::make_move_iterator(replicas.begin() + 1),
                                                std::make_move_iterator(replicas.end()));
  std::vector<report::ReplicaForecasts> forecasts;
  for (const auto& f : followers) {
    report::ReplicaForecasts rf{&f, {}};
    for (auto mode : modes_for(o.mode))
      rf.forecasts.push_back(forecast_replica(leader, f, mode));
    committed_loss = committed_loss || rf.forecasts.front().committed_loss();
    forecasts.push_back(std::move(rf));
  }
  return report::predict_value(leader, forecasts, o.mode);
}

int run(const PredictOptions& o, const Globals& globals) {
  std::vector<ReplicaSource> sources{load_replica_source(o.leader)};
  for (const auto& arg : o.followers)
    sources.push_back(load_replica_source(arg));
  PairedPartitions paired = pair_replicas(std::move(sources), 2, /*first_required=*/true);
  bool committed_loss = false;
  if (paired.single) {
    emit(predict_partition(o, std::move(paired.groups.front().replicas), committed_loss), globals);
  } else {
    std::vector<report::Value> sections;
    for (auto& g : paired.groups)
      sections.push_back(predict_partition(o, std::move(g.replicas), committed_loss));
    emit(report::paired_value(std::move(sections), paired.notes), globals);
  }
  return committed_loss ? kFindings : kOk;
}

}  // namespace

void register_predict(CLI::App& app, Globals& globals) {
  static PredictOptions o;
  CLI::App* cmd = app.add_subcommand(
      "predict", "Predict where follower replicas truncate when they fetch from the leader");
  cmd->add_option("--leader", o.leader,
                  "The leader's replica: a replica dir, a log dir, a snapshot file or "
                  "SNAPSHOT:TOPIC-PARTITION")
      ->required()
      ->type_name("REPLICA");
  cmd->add_option("followers", o.followers, "Follower replicas (the same kinds of argument)")
      ->required()
      ->type_name("REPLICA");
  cmd->add_option("--mode", o.mode,
                  "fetch: Fetch divergence (every KRaft broker); ofle: OffsetsForLeaderEpoch "
                  "rounds (IBP 0.11-2.6); hw: the pre-0.11 high-watermark rule; all: side by side")
      ->check(CLI::IsMember({"fetch", "ofle", "hw", "all"}))
      ->default_str("fetch");
  cmd->footer(
      "Examples:\n"
      "  kepoch predict --leader broker-2/orders-0 broker-1/orders-0 broker-3/orders-0\n"
      "  kepoch predict --mode all -o json --leader b2/d-0 b1/d-0\n"
      "\nEach DIR is a partition replica directory inside its log dir; the high watermark,\n"
      "recovery point and log start come from that log dir's checkpoint files, and each\n"
      "replica is taken as Kafka would load it on restart. Exit status: 0 no committed data\n"
      "lost, 1 committed records would be lost, 2 usage, 3 unreadable input.\n"
      "\nLog dirs and snapshots (`kepoch logdir snapshot`) work as in `kepoch diff`: every\n"
      "partition of the leader's that a follower also holds gets its own section. From a\n"
      "snapshot, counts it did not keep the batches for are null and listed in `unanswered`.");
  cmd->callback([&globals] { globals.exit_code = run(o, globals); });
}

}  // namespace kepoch::cli

// kepoch predict --leader DIR DIR...
// Where each follower replica will truncate when it fetches from the leader replica, how
// many records that removes, which are lost for good and whether any was committed.

#include <algorithm>

#include <fmt/format.h>

#include "election_options.hpp"
#include "exit_codes.hpp"
#include "globals.hpp"
#include "group_fate_options.hpp"
#include "html_output.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/base/text.hpp"
#include "kepoch/forecast/election_forecast.hpp"
#include "kepoch/forecast/group_fate.hpp"
#include "kepoch/forecast/hanging_transactions.hpp"
#include "kepoch/report/election_report.hpp"
#include "kepoch/report/group_fate_report.hpp"
#include "kepoch/report/hanging_report.hpp"
#include "kepoch/report/html_page.hpp"
#include "kepoch/report/paired_report.hpp"
#include "kepoch/report/predict_report.hpp"
#include "kepoch/report/summary.hpp"
#include "kepoch/storage/committed_offsets.hpp"
#include "kepoch/storage/replica_sources.hpp"
#include "kepoch/storage/tiered_view.hpp"
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
  forecast::ElectionSetting election;
  bool full = false;  // load every segment (otherwise what Kafka's loader reads)
  std::optional<std::string> html;
  // --offsets: each group that committed on a predicted partition gets its fate.
  GroupFateOptions groups;
  // The hanging-transaction forecast (forecast/hanging_transactions): where the
  // coordinator's log is, and the bootstrap server the abort commands name.
  std::vector<std::string> transaction_state;
  std::optional<std::int32_t> transaction_partitions;
  std::string bootstrap{forecast::kBootstrapPlaceholder};
  std::vector<std::string> remote_log_metadata;  // __remote_log_metadata dirs or log dirs
};

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

// The salvage run that keeps what this forecast loses (the same arguments, the leader the
// forecast used).
std::string salvage_command(const PredictOptions& o) {
  std::string cmd = "kepoch salvage --archive salvage.jsonl --leader " + shell_word(o.leader);
  for (const auto& f : o.followers)
    cmd += " " + shell_word(f);
  return cmd;
}

report::Value election_of(const forecast::Election& e) {
  return report::election_value(e.before, e.request, e.change);
}

// Each partition's hanging-transaction forecast, judged by the coordinator's log when one
// was given (--transaction-state) or forecast (a __transaction_state partition among them).
std::vector<forecast::PartitionTransactions> transactions_of(
    const forecast::TruncationPredictions& predictions, const PredictOptions& o) {
  std::vector<const PartitionReplica*> leaders;
  bool coordinator_given = !o.transaction_state.empty();
  for (const auto& p : predictions.partitions) {
    leaders.push_back(&p.replicas.front());
    coordinator_given = coordinator_given || p.replicas.front().topic == "__transaction_state";
  }
  std::optional<forecast::CoordinatorKnowledge> coordinator;
  if (coordinator_given)
    coordinator = forecast::read_coordinator(
        leaders,
        std::vector<std::filesystem::path>(o.transaction_state.begin(), o.transaction_state.end()),
        o.transaction_partitions);
  std::vector<forecast::PartitionTransactions> out;
  for (const auto& p : predictions.partitions)
    out.push_back(
        forecast::forecast_transactions(p, coordinator ? &*coordinator : nullptr, o.bootstrap));
  return out;
}

int run(PredictOptions o, const Globals& globals) {
  std::optional<forecast::Election> election;
  if (o.html) {
    std::vector<std::string> all = o.followers;
    if (!o.leader.empty()) all.push_back(o.leader);
    refuse_html_in_log_dir(*o.html, all);
  }
  if (o.elect) {
    // The election first, to know which argument leads (forecast/election_forecast).
    election = forecast::elect_among(o.followers, o.election);
    if (!election->leader_argument) {
      report::Value problems = report::Value::array();
      problems.push(
          report::Value::object()
              .set("severity", "error")
              .set("message", report::election_reason(election->request, election->change)));
      report::Value none = report::Value::object()
                               .set("election", election_of(*election))
                               .set("problems", std::move(problems));
      const report::Value value = report::with_summary(none, report::predict_summary(none));
      // No leader, nothing to draw: the page says so under the verdict.
      if (o.html) write_html(*o.html, report::timeline_page(value, "kepoch predict"));
      emit(value, globals);
      return kFindings;
    }
  }
  const std::vector<std::string> arguments = leader_first(o.leader, o.followers, election);
  // The committed offsets first: an unreadable __consumer_offsets fails before the replicas
  // are read.
  std::optional<CommittedOffsets> committed;
  if (o.groups.offsets) committed = read_committed_offsets(*o.groups.offsets);
  const LoadDepth depth = o.full ? LoadDepth::whole : LoadDepth::tail;
  StepProgress progress(globals, "predict");
  PairedPartitions paired =
      read_paired_replicas(arguments, depth, /*first_required=*/true, progress);
  progress.step(0, 0, "forecasting the truncations");
  std::vector<std::vector<PartitionReplica>> groups;
  for (auto& g : paired.groups)
    groups.push_back(std::move(g.replicas));
  attach_remote_tiers(groups, {o.remote_log_metadata.begin(), o.remote_log_metadata.end()});
  const forecast::TruncationPredictions predictions = forecast::predict_truncations(
      std::move(groups), modes_for(o.mode), election ? &*election : nullptr);
  progress.step(0, 0, "rebuilding the leaders' open transactions");
  const std::vector<forecast::PartitionTransactions> transactions = transactions_of(predictions, o);
  // Each partition's section: its hanging transactions, and its consumer groups' fates when
  // --offsets was given.
  bool groups_affected = false;
  std::size_t affected_partitions = 0;
  const auto section_of = [&](std::size_t i) {
    const forecast::PartitionPrediction& p = predictions.partitions[i];
    report::Value section = report::prediction_value(p, o.mode);
    section.set("transactions", report::transactions_value(transactions[i]));
    if (!committed) return section;
    report::Value fates = report::group_fates_value(
        forecast::group_fates(p, *committed, o.groups.policies(), o.groups.consumer_client()),
        offsets_partitions_of(*committed));
    if (report::groups_affected(fates)) {
      groups_affected = true;
      ++affected_partitions;
    }
    section.set("consumer_groups", std::move(fates));
    return section;
  };
  // The section's sentence with its groups': first when they alone make the exit 1.
  const auto summary_of = [&](const report::Value& section, std::string sentence,
                              bool committed_loss) {
    const report::Value* fates = section.find("consumer_groups");
    if (!fates) return sentence;
    const std::string g = report::group_fates_summary(*fates);
    if (report::groups_affected(*fates) && !committed_loss) return g + " " + sentence;
    return sentence + " " + g;
  };
  report::Value value;
  if (paired.single) {
    value = section_of(0);
  } else {
    std::vector<report::Value> sections;
    for (std::size_t i = 0; i < predictions.partitions.size(); ++i) {
      report::Value section = section_of(i);
      std::string sentence = summary_of(section, report::predict_summary(section),
                                        predictions.partitions[i].committed_loss);
      if (const std::string h = report::hanging_sentence({transactions[i]}); !h.empty())
        sentence += " " + h;
      sections.push_back(report::with_summary(section, std::move(sentence)));
    }
    value = report::paired_value(std::move(sections), paired.notes);
  }
  if (election)
    value = with_election(
        election_of(*election).set("new_leader_epoch_at_least", election->new_leader_epoch), value);
  // Records will be lost: the command that keeps them first (salvage reads the same
  // arguments and makes this very forecast).
  if (forecast::loses_records(predictions)) value.set("salvage", salvage_command(o));
  // The verdict first (summary.hpp): the whole run's, over its sections when paired.
  std::string sentence =
      paired.single ? summary_of(value, report::predict_summary(value), predictions.committed_loss)
                    : report::paired_predict_summary(value);
  if (!paired.single && groups_affected)
    sentence = fmt::format("Consumer groups are affected in {} partition(s). {}",
                           affected_partitions, sentence);
  if (const std::string h = report::hanging_sentence(transactions); !h.empty()) sentence += " " + h;
  value = report::with_summary(std::move(value), std::move(sentence));
  // The picture from the very Value the output renders (html_page.hpp).
  if (o.html) write_html(*o.html, report::timeline_page(value, "kepoch predict"));
  progress.done();
  emit(value, globals);
  const bool hanging = std::any_of(transactions.begin(), transactions.end(),
                                   [](const auto& t) { return t.danger(); });
  return predictions.committed_loss || groups_affected || hanging ? kFindings : kOk;
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
  add_election_options(cmd, elect, o.election);
  cmd->add_flag("--full", o.full,
                "Read every segment whole (by default only what Kafka's log loader reads, and "
                "the batches from the truncation point on)");
  add_group_fate_options(cmd, o.groups);
  cmd->add_option("--transaction-state", o.transaction_state,
                  "Where the transaction coordinator's log is: a log dir or a "
                  "__transaction_state-N replica dir (repeatable), to tell hanging "
                  "transactions from ones the coordinator still tracks")
      ->type_name("DIR");
  cmd->add_option("--transaction-state-partitions", o.transaction_partitions,
                  "The cluster's transaction.state.log.num.partitions: with every partition "
                  "read, a producer id no transactional id holds is hanging (without it, unknown)")
      ->check(CLI::Range(1, 1000000))
      ->type_name("N");
  cmd->add_option("--bootstrap-server", o.bootstrap,
                  "The bootstrap server the printed kafka-transactions.sh abort commands name "
                  "(nothing is contacted)")
      ->type_name("HOST:PORT")
      ->default_str(std::string(forecast::kBootstrapPlaceholder));
  cmd->add_option("--remote-log-metadata", o.remote_log_metadata,
                  "Tiered storage: __remote_log_metadata-N dirs, or log dirs holding them; the "
                  "follower of a tiered leader takes Kafka's path through the remote tier "
                  "(TierStateMachine). Without it, the leader's own log dir's, when its log "
                  "starts below its first local segment")
      ->type_name("DIR");
  add_html_option(cmd, o.html);
  cmd->footer(
      "Examples:\n"
      "  kepoch predict --leader broker-2/orders-0 broker-1/orders-0 broker-3/orders-0\n"
      "  kepoch predict --mode all -o json --leader b2/orders-0 b1/orders-0\n"
      "  kepoch predict --elect --ids 1,2,3 --isr 1 --alive 2,3 --unclean b1/orders-0 b2/orders-0 "
      "b3/orders-0\n"
      "  kepoch predict --html truncation.html --leader b2/orders-0 b1/orders-0  # a picture\n"
      "  kepoch predict --offsets b1 --leader b2/f-0 b1/f-0   # consumer groups' fate\n"
      "  kepoch predict --transaction-state b3 --elect --unclean --isr 1 --alive 2 b1/orders-0 "
      "b2/orders-0\n"
      "  kepoch predict --remote-log-metadata b3 --leader b2/orders-0 b1/orders-0  # tiered "
      "storage\n"
      "\nEach DIR is a partition replica directory inside its log dir; the high watermark,\n"
      "recovery point and log start come from that log dir's checkpoint files, and each\n"
      "replica is taken as Kafka would load it on restart. Exit status: 0 no committed data\n"
      "lost, 1 committed records would be lost or kepoch cannot rule it out (a snapshot that\n"
      "did not keep the batches needed; records lost above the high watermark of a follower\n"
      "whose broker did not shut down cleanly, whose checkpoint may lag, unless --elect chose\n"
      "the leader from the ISR), a follower fails after truncating (outcome fails:\n"
      "UnexpectedAppendOffsetException, partition marked failed), or, with --elect, no\n"
      "replica can lead, or a transaction will hang (or loses its marker and may: see\n"
      "transactions); 2 usage, 3 unreadable input. Lost records of aborted transactions\n"
      "and transaction markers are counted apart (lost_aborted_records, lost_control_records).\n"
      "\nLog dirs and snapshots (`kepoch logdir snapshot`) work as in `kepoch diff`: every\n"
      "partition of the leader's that a follower also holds gets its own section. From a\n"
      "snapshot, counts it did not keep the batches for are null and listed in `unanswered`.\n"
      "\nWith --offsets, each consumer group that committed an offset on a predicted\n"
      "partition gets a row per auto.offset.reset: what its next fetch does (no_change,\n"
      "truncation_detected, out_of_range_reset, silent_skip, an exception with none, or\n"
      "unknown while a transactional commit awaits its marker), its next position, and the\n"
      "offsets it re-reads, skips unseen and had consumed that are lost, by the Java\n"
      "consumer's rules (KIP-320 validation with the committed leader epoch) and librdkafka's\n"
      "before 2.1 (no validation). Exit status 1 also when any group is affected or unknown."
      "\nTransactions: each section's `transactions` lists the transactions the leader's\n"
      "log holds open (its producer snapshot, then its log replayed, as Kafka rebuilds\n"
      "them), whether a follower's truncation removes their COMMIT/ABORT marker, whether the\n"
      "coordinator still tracks them (from __transaction_state: a forecast partition of it,\n"
      "or --transaction-state; otherwise unknown), hanging as `kafka-transactions.sh\n"
      "find-hanging` decides, last_stable_offset (where read_committed consumers stop) and\n"
      "the `kafka-transactions.sh abort` command that ends each."
      "\nTiered storage (KIP-405): a follower whose fetch offset falls below a tiered leader's\n"
      "local log start is refused (OFFSET_MOVED_TO_TIERED_STORAGE), truncates its whole log\n"
      "and rebuilds its epoch cache from the remote segment holding the offset before the\n"
      "leader's local start, then fetches from that segment's end + 1 (remote_tier). Removed\n"
      "records the remote segments hold are not lost; without __remote_log_metadata that is\n"
      "unknown (exit 1 when any is below the high watermark).");
  cmd->callback([&globals] { globals.exit_code = run(o, globals); });
}

}  // namespace kepoch::cli

// kepoch plan STATE... (-b HOST:PORT | --metadata DIR | --replicas IDS ...)
// The outage recovery plan: for every partition without a live leader, which replica should
// lead, what each choice loses, Kafka's own choice and its cost, the order to start the
// stopped brokers in, and (--out-dir) the commands to carry it out with Kafka's tools.

#include <fmt/format.h>

#include <optional>

#include "cluster_options.hpp"
#include "exit_codes.hpp"
#include "globals.hpp"
#include "group_fate_options.hpp"
#include "html_output.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/cluster/cluster_client.hpp"
#include "kepoch/forecast/broker_state.hpp"
#include "kepoch/forecast/group_fate.hpp"
#include "kepoch/forecast/logged_metadata.hpp"
#include "kepoch/forecast/one_cluster.hpp"
#include "kepoch/forecast/outage_plan.hpp"
#include "kepoch/forecast/plan_metadata.hpp"
#include "kepoch/report/group_fate_report.hpp"
#include "kepoch/report/html_page.hpp"
#include "kepoch/report/plan_json_stream.hpp"
#include "kepoch/report/recovery_plan_report.hpp"
#include "kepoch/storage/logdir_scan.hpp"
#include "kepoch/storage/tiered_view.hpp"
#include "output_file.hpp"
#include "progress.hpp"

namespace kepoch::cli {
namespace {
namespace fs = std::filesystem;

struct PlanOptions {
  std::vector<std::string> states;
  std::vector<std::int32_t> ids;
  std::vector<std::int32_t> gone;
  std::string metadata;
  // One partition from flags (as `predict --elect`).
  std::vector<std::int32_t> replicas;
  std::vector<std::int32_t> isr;
  std::vector<std::int32_t> elr;
  std::vector<std::int32_t> alive;
  bool alive_given = false;
  bool unclean = false;
  std::int32_t min_isr = 1;
  bool all = false;
  std::string out_dir;
  std::optional<std::string> html;
  // --offsets: each group's fate under the plan's chosen leader of each planned partition.
  GroupFateOptions groups;
  std::vector<std::string> remote_log_metadata;  // __remote_log_metadata dirs or log dirs
};

// Each planned partition's consumer groups under the candidate the plan ranks first (its
// leader, its followers' truncations): one object per partition, group_fates_value's shape
// with the partition and the leader's broker first.
report::Value plan_group_fates(const forecast::OutagePlan& out, const CommittedOffsets& committed,
                               const GroupFateOptions& o, std::size_t& affected) {
  report::Value list = report::Value::array();
  for (std::size_t i = 0; i < out.plan.partitions.size() && i < out.input.partitions.size(); ++i) {
    const forecast::PartitionPlan& plan = out.plan.partitions[i];
    const forecast::PlanPartitionInput& input = out.input.partitions[i];
    if (plan.candidates.empty()) continue;
    const forecast::CandidateOutcome& best = plan.candidates.front();
    const auto leader = input.replicas.find(best.broker);
    if (leader == input.replicas.end() || !leader->second) continue;
    std::vector<forecast::FateFollower> followers;
    for (const auto& f : best.followers)
      if (const auto r = input.replicas.find(f.broker); r != input.replicas.end() && r->second)
        followers.push_back({r->second, f.forecast.prediction.truncate_to});
    const report::Value fates =
        report::group_fates_value(forecast::group_fates_of(*leader->second, followers, committed,
                                                           o.policies(), o.consumer_client()),
                                  offsets_partitions_of(committed));
    if (report::groups_affected(fates)) ++affected;
    report::Value entry = report::Value::object()
                              .set("topic", plan.topic)
                              .set("partition", plan.partition)
                              .set("leader", best.broker)
                              .set("summary", report::group_fates_summary(fates));
    for (const auto& [key, value] : fates.as_object())
      entry.set(key, value);
    list.push(std::move(entry));
  }
  return list;
}

// --metadata DIR: the log replayed with a progress line on a terminal.
forecast::PlanMetadata from_metadata_log(const PlanOptions& o, const TopicOptions& t,
                                         const Globals& globals) {
  std::optional<Progress> progress;
  forecast::LoggedMetadata logged = forecast::read_logged_metadata(
      o.metadata, {topic_regex(t), t.exclude_internal},
      {[&](const auto& files) { progress.emplace(globals, "reading the metadata log", files); },
       [&](const std::string& file, std::uint64_t at) { progress->at(file, at); }});
  return forecast::metadata_from_log(std::move(logged), o.metadata, {o.unclean, o.min_isr});
}

forecast::PlanMetadata from_cluster(const ConnectionOptions& c, const TopicOptions& t) {
  cluster::ViewRequest request = view_request(t, /*sizes=*/false);
  request.offsets = false;
  cluster::ClusterClient client(settings_from(c));
  return forecast::metadata_from_cluster(client.read_view(request));
}

// The partition states: the metadata log, one partition from flags, else the live cluster.
forecast::PlanMetadata read_metadata(const PlanOptions& o, const ConnectionOptions& c,
                                     const TopicOptions& t, const Globals& globals,
                                     const std::vector<forecast::BrokerState>& states) {
  if (!o.metadata.empty()) return from_metadata_log(o, t, globals);
  if (o.replicas.empty()) return from_cluster(c, t);
  forecast::FlagsPartition flags{o.replicas, o.isr, o.elr, std::nullopt, {o.unclean, o.min_isr}};
  if (o.alive_given) flags.alive = o.alive;
  return forecast::metadata_from_flags(flags, states);
}

// --out-dir: each file through output_file.hpp (never an input, never inside a log dir,
// never over a file an earlier plan did not write unless --overwrite), then the dir.
void write_commands(const fs::path& dir, const forecast::OutagePlan& plan,
                    const std::vector<std::string>& states) {
  const auto files = report::recovery_command_files(plan.plan, plan.salvages);
  for (const auto& f : files)
    check_output("--out-dir", (dir / f.name).string(), OutputKind::plan_file, states);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw InputError(dir.string(), "cannot create the directory: " + ec.message());
  for (const auto& f : files)
    write_output("--out-dir", (dir / f.name).string(), OutputKind::plan_file, states, "file",
                 [&f](std::ostream& out) { out << f.contents; });
}

int run(PlanOptions o, const ConnectionOptions& c, const TopicOptions& t, const Globals& globals) {
  if (o.states.empty())
    throw UsageError("give the brokers' states: log dirs or `kepoch logdir snapshot` files");
  refuse_same_replica(o.states, /*stdin_only=*/true);
  if (o.html) {
    std::vector<std::string> inputs = o.states;
    if (!o.metadata.empty()) inputs.push_back(o.metadata);
    refuse_html_in_log_dir(*o.html, inputs);
  }
  if (!o.out_dir.empty())  // refused before anything is read, as --html
    check_output("--out-dir", (fs::path(o.out_dir) / "steps.sh").string(), OutputKind::plan_file,
                 o.states);
  // The committed offsets first: an unreadable __consumer_offsets fails before the states.
  std::optional<CommittedOffsets> committed;
  if (o.groups.offsets) committed = read_committed_offsets(*o.groups.offsets);
  // Tiered partitions (storage/tiered_view: the same choice as predict's; nothing is read for
  // a replica without the tiered sign unless --remote-log-metadata names its partition).
  RemoteTierAttacher tiers({o.remote_log_metadata.begin(), o.remote_log_metadata.end()});
  const forecast::ReplicaPrepare attach = [&tiers](PartitionReplica& r) { tiers.attach(r); };
  StepProgress progress(globals, "plan");
  forecast::OutagePlan out;
  // -o json with nothing else that reads the whole plan (--offsets, --html, --out-dir): the
  // listed partitions go to the report a block at a time (report/plan_json_stream.hpp), so
  // memory does not grow with them; the same bytes as the Value rendered whole.
  std::optional<report::PlanJsonStream> json;
  if (o.replicas.empty() && globals.render_format() == report::Format::json && !globals.quiet &&
      !committed && !o.html && o.out_dir.empty())
    json.emplace(o.all, /*iso_times=*/true, globals.local_time);
  if (o.replicas.empty()) {
    // The metadata from a log or a live cluster: the states are streams in partition order,
    // merged as the partitions are planned (forecast::plan_outage_streamed), so memory does
    // not grow with the cluster.
    progress.step(0, o.states.size(), fmt::format("opening {} broker states", o.states.size()));
    std::vector<forecast::StreamedBrokerState> streams =
        forecast::open_broker_states(o.states, default_jobs());
    refuse_same_replica(o.states, /*stdin_only=*/false);
    std::vector<forecast::BrokerState> heads;
    for (const auto& s : streams)
      heads.push_back(s.state);
    forecast::check_one_cluster(heads, o.ids);
    for (std::size_t i = 0; i < streams.size(); ++i)
      streams[i].state.broker = heads[i].broker;
    progress.step(0, 0, "reading the metadata");
    forecast::PlanMetadata metadata = read_metadata(o, c, t, globals, heads);
    progress.step(0, 0, "reading the states, ranking the candidates");
    forecast::ListedSink sink;
    if (json)
      sink = [&json](forecast::RecoveryPlan& listed, forecast::PlanInput& input) {
        json->add(listed, input);
      };
    out = forecast::plan_outage_streamed(std::move(streams), std::move(metadata), o.gone, o.all, 0,
                                         attach, sink, json ? json->start_names() : nullptr);
  } else {
    progress.step(0, o.states.size(), fmt::format("reading {} broker states", o.states.size()));
    std::vector<forecast::BrokerState> states =
        forecast::load_broker_states(o.states, default_jobs());
    progress.step(0, 0, "reading the metadata, ranking the candidates");
    refuse_same_replica(o.states, /*stdin_only=*/false);
    forecast::check_one_cluster(states, o.ids);
    forecast::PlanMetadata metadata = read_metadata(o, c, t, globals, states);
    out = forecast::plan_outage(std::move(states), std::move(metadata), o.gone, 0, attach);
  }

  if (json) {
    report::Value head =
        report::recovery_plan_value(out.plan, {out.metadata, out.cluster_id, out.brokers, out.notes,
                                               o.all, out.salvages, out.unheld_decisions});
    head.set("timelines", report::Value::array());
    progress.done();
    json->write(head, out.plan.start_order, std::cout);
    std::cout.flush();
    return out.plan.totals.safe() ? kOk : kFindings;
  }
  if (!o.out_dir.empty()) write_commands(o.out_dir, out, o.states);
  report::Value value = report::recovery_plan_value(
      out.plan, {out.metadata, out.cluster_id, out.brokers, out.notes, o.all, out.salvages});
  value.set("timelines", report::plan_timelines_value(out.plan, out.input));
  std::size_t groups_affected = 0;
  if (committed) {
    value.set("consumer_groups", plan_group_fates(out, *committed, o.groups, groups_affected));
    // The summary says the groups too: first when they alone make the exit 1.
    if (groups_affected > 0) {
      report::Value with = report::Value::object();
      for (const auto& [key, member] : value.as_object()) {
        if (key != "summary") {
          with.set(key, member);
          continue;
        }
        const std::string text = report::scalar_text(member);
        with.set(key, out.plan.totals.safe()
                          ? fmt::format("Consumer groups are affected in {} partition(s) under "
                                        "the plan's leaders; {}",
                                        groups_affected, text)
                          : fmt::format("{} Consumer groups are affected in {} partition(s) "
                                        "under the plan's leaders.",
                                        text, groups_affected));
      }
      value = std::move(with);
    }
  }
  // The picture from the very Value the output renders (html_page.hpp).
  if (o.html) write_html(*o.html, report::timeline_page(value, "kepoch plan"));
  progress.done();
  emit(value, globals);
  return out.plan.totals.safe() && groups_affected == 0 ? kOk : kFindings;
}

}  // namespace

void register_plan(CLI::App& app, Globals& globals) {
  static PlanOptions o;
  static ConnectionOptions c;
  static TopicOptions t;
  CLI::App* cmd = app.add_subcommand(
      "plan",
      "Outage recovery plan: per leaderless partition, which replica to wait for or elect, "
      "and what each choice loses");
  cmd->add_option("states", o.states,
                  "Each broker's state: a log dir, a `kepoch logdir snapshot` file (- for "
                  "standard input), or replica dirs of one partition (with --replicas)")
      ->type_name("STATE");
  auto ids = [&](const char* name, std::vector<std::int32_t>& into, const char* what) {
    return cmd
        ->add_option_function<std::string>(
            name, [&into, name](const std::string& text) { into = parse_ids(name, text); }, what)
        ->type_name("IDS");
  };
  ids("--ids", o.ids,
      "Broker id of each STATE, in order (default: node.id in meta.properties, or the "
      "snapshot's)");
  ids("--gone", o.gone, "Brokers that will not come back (their disks are lost): never waited for");
  CLI::Option* metadata =
      cmd->add_option("--metadata", o.metadata,
                      "Partition states from the KRaft metadata log (a __cluster_metadata-0 "
                      "dir) instead of a live cluster")
          ->type_name("DIR");
  CLI::Option* replicas = ids("--replicas", o.replicas,
                              "One partition from flags: its assignment order (the first is "
                              "preferred), instead of a live cluster");
  replicas->excludes(metadata);
  ids("--isr", o.isr, "With --replicas: the ISR in Kafka's metadata")->needs(replicas);
  ids("--elr", o.elr, "With --replicas: eligible leader replicas (KIP-966)")->needs(replicas);
  cmd->add_option_function<std::string>(
         "--alive",
         [](const std::string& text) {
           o.alive = parse_ids("--alive", text);
           o.alive_given = true;
         },
         "With --replicas: brokers up and unfenced (default: every STATE's broker)")
      ->type_name("IDS")
      ->needs(replicas);
  cmd->add_flag("--unclean", o.unclean,
                "Offline: topics have unclean.leader.election.enable (with --metadata: where "
                "the log sets neither the topic's config nor a cluster default)");
  cmd->add_option("--min-isr", o.min_isr,
                  "Offline: the topics' min.insync.replicas (with --metadata: where the log "
                  "sets neither the topic's config nor a cluster default)")
      ->default_str("1");
  cmd->add_flag("--all", o.all, "List healthy partitions too");
  cmd->add_option("--out-dir", o.out_dir,
                  "Write the commands that carry the plan out with Kafka's tools here "
                  "(steps.sh, reorder.jsh, reassignment.json, elect-*.json); kepoch runs none")
      ->type_name("DIR");
  cmd->add_option("--remote-log-metadata", o.remote_log_metadata,
                  "Tiered storage: __remote_log_metadata-N dirs, or log dirs holding them; a "
                  "follower of a tiered candidate takes Kafka's path through the remote tier "
                  "(TierStateMachine), as in predict (default: a log dir's own)")
      ->type_name("DIR");
  add_group_fate_options(cmd, o.groups);
  add_html_option(cmd, o.html);
  add_connection_options(cmd, c);
  add_topic_options(cmd, t);
  cmd->footer(
      "Examples:\n"
      "  kepoch plan -b kafka-1:9092 b1.snap b2.snap b3.snap  # live\n"
      "  kepoch plan --metadata /var/lib/kafka/meta/__cluster_metadata-0 --gone 3 b1.snap b2.snap "
      "b3.snap\n"
      "  kepoch plan --ids 1,2 --replicas 1,2,3 --isr 3 --alive 1,2 b1/orders-0 b2/orders-0\n"
      "  kepoch plan --cluster prod --out-dir plan/ b1.snap b2.snap -o json  # live\n"
      "  kepoch plan --html plan.html --metadata meta/__cluster_metadata-0 b1.snap b2.snap\n"
      "  kepoch plan --remote-log-metadata b3 --ids 1,3 --replicas 3,1 b3/orders-0 b1/orders-0\n"
      "\nFor every partition without a live leader, each replica whose state is given is a\n"
      "candidate: the other replicas truncate against it as Kafka's fetcher does (predict's\n"
      "engine), and the candidates are ranked: no committed loss, fewest lost records, a live\n"
      "broker, KIP-966's order (last epoch, log length), Kafka's own choice (the ISR, else the\n"
      "first live replica in assignment order). Committed records are those a replica's\n"
      "high watermark covers in its own log (the same epoch lineage; predict counts alike).\n"
      "A replica whose state is not given is unknown: an ISR member among them is waited\n"
      "for. kepoch changes nothing; --out-dir writes the steps (steps.sh checks each step's\n"
      "brokers are live and runs from a total outage).\n"
      "`timelines` puts each such partition's known replicas on one offset axis against the\n"
      "leader the plan chooses (diff's timeline); --html FILE draws them as a page.\n"
      "Tiered storage (KIP-405): a follower far behind a tiered candidate rebuilds from its\n"
      "remote tier (OFFSET_MOVED_TO_TIERED_STORAGE) as `predict` forecasts it; what remote\n"
      "segments of the candidate's lineage hold is not lost, and without __remote_log_metadata\n"
      "(the log dir's own, or --remote-log-metadata) that loss is unknown.\n"
      "Exit status: 0 the plan loses no committed record and every state it rests on is\n"
      "known and current, 1 it loses committed records or kepoch cannot rule it out (a\n"
      "replica's state not given, a count a snapshot could not make, a metadata log older\n"
      "than the disks), or (--offsets) a consumer group's next fetch under the plan's leader\n"
      "is other than no_change or unknown, 2 usage (two states of one broker, states of\n"
      "another cluster), 3 unreadable input, 4 the cluster cannot be reached.\n"
      "\nWith --offsets, consumer_groups gives, per planned partition, each group's next fetch\n"
      "with the first-ranked candidate leading, as `kepoch predict --offsets` does.");
  cmd->callback([&globals] { globals.exit_code = run(o, c, t, globals); });
}

}  // namespace kepoch::cli

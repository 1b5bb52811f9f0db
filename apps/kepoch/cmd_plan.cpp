// kepoch plan STATE... (-b HOST:PORT | --metadata DIR | --replicas IDS ...)
// The outage recovery plan: for every partition without a live leader, which replica should
// lead, what each choice loses, Kafka's own choice and its cost, the order to start the
// stopped brokers in, and (--out-dir) the commands to carry it out with Kafka's tools.

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <exception>
#include <fstream>
#include <map>
#include <set>

#include "cluster_options.hpp"
#include "exit_codes.hpp"
#include "globals.hpp"
#include "html_output.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/base/java_text.hpp"
#include "kepoch/base/read_only_file.hpp"
#include "kepoch/cluster/cluster_client.hpp"
#include "kepoch/forecast/recovery_plan.hpp"
#include "kepoch/format/meta_properties.hpp"
#include "kepoch/live/stop_forecast.hpp"
#include "kepoch/report/html_page.hpp"
#include "kepoch/report/recovery_plan_report.hpp"
#include "kepoch/storage/broker_identity.hpp"
#include "kepoch/storage/log_dir.hpp"
#include "kepoch/storage/logdir_scan.hpp"
#include "kepoch/storage/logdir_snapshot.hpp"
#include "kepoch/storage/replica_sources.hpp"
#include "output_file.hpp"
#include "plan_metadata.hpp"
#include "progress.hpp"

namespace kepoch::cli {
namespace {
namespace fs = std::filesystem;
using forecast::PlanPartitionInput;

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
};

// One broker's state: its replicas and whose they are.
struct BrokerState {
  std::string argument;
  std::optional<std::int32_t> broker;
  std::optional<std::string> cluster_id;
  std::vector<PartitionReplica> replicas;
  std::vector<std::string> notes;
};

std::optional<MetaProperties> meta_of(const fs::path& log_dir) {
  std::error_code ec;
  const fs::path file = log_dir / kMetaPropertiesName;
  if (!fs::is_regular_file(file, ec)) return std::nullopt;
  try {
    MetaProperties meta = read_meta_properties(read_small_file(file, 64 * 1024));
    if (meta.failure) return std::nullopt;
    return meta;
  } catch (const InputError&) {
    return std::nullopt;
  }
}

BrokerState load_state(const std::string& argument) {
  BrokerState s;
  s.argument = argument;
  std::error_code ec;
  const fs::path path(argument);
  if (argument != "-" && fs::is_directory(path, ec)) {
    ReplicaSource source = load_replica_source(argument);
    s.replicas = std::move(source.replicas);
    s.notes = std::move(source.notes);
    s.broker = broker_id_of_replica_dir(path);
    fs::path log_dir = path.lexically_normal();
    if (!log_dir.has_filename()) log_dir = log_dir.parent_path();
    auto meta = meta_of(log_dir);
    if (!meta) meta = meta_of(log_dir.parent_path());
    if (meta) s.cluster_id = meta->cluster_id;
    return s;
  }
  // SNAPSHOT:TOPIC-PARTITION: that one replica of the snapshot, with the snapshot's identity.
  fs::path file = path;
  std::optional<std::string> partition;
  if (argument != "-" && !fs::exists(path, ec)) {
    const auto colon = argument.rfind(':');
    const std::string prefix = colon == std::string::npos ? "" : argument.substr(0, colon);
    if (prefix.empty() || (prefix != "-" && !fs::exists(prefix, ec))) {
      // Not a snapshot: the replica sources' own error (no such file, ...).
      ReplicaSource source = load_replica_source(argument);
      s.replicas = std::move(source.replicas);
      return s;
    }
    file = prefix;
    partition = argument.substr(colon + 1);
  }
  LogDirSnapshot snap = read_logdir_snapshot(file);
  s.broker = snap.node_id;
  s.cluster_id = snap.cluster_id;
  for (auto& r : snap.replicas)
    if (!partition || fmt::format("{}-{}", r.topic, r.partition) == *partition)
      s.replicas.push_back(std::move(r));
  if (partition && s.replicas.empty())
    throw UsageError(
        fmt::format("{}: the snapshot holds no partition {}", input_name(file), *partition));
  if (partition) return s;
  for (const auto& k : snap.skipped)
    s.notes.push_back(fmt::format("{}: {}: left out: {}", input_name(file), k.dir, k.reason));
  return s;
}

// Refuses two states of one broker and states of different clusters.
void check_states(std::vector<BrokerState>& states, const std::vector<std::int32_t>& ids) {
  if (!ids.empty() && ids.size() != states.size())
    throw UsageError(
        fmt::format("--ids gives {} broker ids for {} states", ids.size(), states.size()));
  std::map<std::int32_t, std::string> seen;
  const BrokerState* first_with_cluster = nullptr;
  for (std::size_t i = 0; i < states.size(); ++i) {
    BrokerState& s = states[i];
    if (!ids.empty()) s.broker = ids[i];
    if (!s.broker)
      throw UsageError(fmt::format(
          "{}: no broker id (no meta.properties with node.id, nor a snapshot that records "
          "one); give the ids with --ids",
          s.argument));
    const auto [it, added] = seen.emplace(*s.broker, s.argument);
    if (!added)
      throw UsageError(fmt::format(
          "{} and {} are both broker {}'s state (the same snapshot twice?): give one per broker",
          it->second, s.argument, *s.broker));
    if (s.cluster_id) {
      if (first_with_cluster && *first_with_cluster->cluster_id != *s.cluster_id)
        throw UsageError(fmt::format(
            "{} is of cluster {} but {} is of cluster {}: a plan takes one cluster's brokers",
            s.argument, *s.cluster_id, first_with_cluster->argument,
            *first_with_cluster->cluster_id));
      if (!first_with_cluster) first_with_cluster = &s;
    }
  }
}

constexpr const char* kUnclean = "unclean.leader.election.enable";
constexpr const char* kMinIsr = "min.insync.replicas";

// Where a value the live cluster gave comes from: DescribeConfigs' ConfigSource, in the
// plan's names (PlanPartitionInput); "unknown" when not read or not a value Kafka accepts.
std::string live_source(const live::TopicView& t, const std::string& name) {
  const bool parsed = name == kUnclean ? t.unclean_leader_election().has_value()
                                       : t.min_insync_replicas().has_value();
  const auto it = t.config_sources.find(name);
  if (!parsed || it == t.config_sources.end()) return "unknown";
  if (it->second == "TOPIC_CONFIG") return "topic";
  if (it->second == "DYNAMIC_BROKER_CONFIG") return "node";
  if (it->second == "DYNAMIC_DEFAULT_BROKER_CONFIG") return "cluster_default";
  if (it->second == "STATIC_BROKER_CONFIG") return "static";
  if (it->second == "DEFAULT_CONFIG") return "kafka_default";
  return "unknown";
}

// How a note names the metadata a value was read from, and the nodes whose own config
// decides where the metadata cannot say.
struct ConfigWhere {
  std::string read_from;    // "metadata log", "DescribeConfigs"
  std::string answered_by;  // the broker whose own config DescribeConfigs resolved
  std::string deciders;     // who applies the config, by their own config
  std::string flag;         // the flag standing for what the metadata log cannot hold
};

// Which value each selected topic takes and where it came from, in one note: the topics with
// their own config by name, the others by source and value. A value taken from one node's
// own config (static or dynamic) or the flags says that the nodes deciding may differ.
std::string config_note(const std::string& name, const std::vector<PlanPartitionInput>& partitions,
                        bool unclean, const ConfigWhere& w) {
  std::map<std::string, std::string> own;                                       // topic -> value
  std::map<std::pair<std::string, std::string>, std::set<std::string>> others;  // (source, value)
  for (const auto& p : partitions) {
    const std::string value =
        unclean ? (p.unclean_allowed ? "true" : "false") : std::to_string(p.min_isr);
    const std::string& source = unclean ? p.unclean_source : p.min_isr_source;
    if (source == "topic")
      own[p.topic] = value;
    else
      others[{source, value}].insert(p.topic);
  }
  std::string s = name + ": ";
  if (!own.empty()) {
    s += "the topic config of ";
    std::size_t i = 0;
    for (const auto& [topic, value] : own) {
      if (i++ == 8) {
        s += fmt::format(", and {} more", own.size() - 8);
        break;
      }
      s += fmt::format("{}{}={}", i > 1 ? ", " : "", topic, value);
    }
    s += fmt::format(" ({})", w.read_from);
    if (others.empty()) return s;
    s += "; other topics: ";
  } else if (others.empty()) {
    return s + "no topic selected";
  }
  std::size_t i = 0;
  for (const auto& [key, topics] : others) {
    const auto& [source, value] = key;
    if (i++ > 0) s += "; ";
    if (source == "cluster_default")
      s += fmt::format("the cluster-wide default {} ({})", value, w.read_from);
    else if (source == "node")
      s += fmt::format("{} from the own dynamic config of {} (DYNAMIC_BROKER_CONFIG): {} config",
                       value, w.answered_by, w.deciders);
    else if (source == "static")
      s += fmt::format("{} from the server.properties of {} (STATIC_BROKER_CONFIG): {} config",
                       value, w.answered_by, w.deciders);
    else if (source == "kafka_default")
      s += fmt::format("{}, Kafka's default (DEFAULT_CONFIG: {} sets none): {} config", value,
                       w.answered_by, w.deciders);
    else if (source == "flags")
      s += fmt::format(
          "{}{} assumed: the metadata log sets no cluster-wide default, and a static {} (in "
          "server.properties) is not in it: {} config ({} gives it)",
          value, value == (unclean ? "false" : "1") ? " (Kafka's default)" : "", name, w.deciders,
          w.flag);
    else
      s += fmt::format("{} assumed: not read", value);
    if (others.size() > 1) s += fmt::format(" ({} topic(s))", topics.size());
  }
  return s;
}

struct Metadata {
  std::string description;
  std::optional<std::string> cluster_id;
  std::set<std::int32_t> live;
  std::vector<PlanPartitionInput> partitions;
  std::vector<std::string> notes;
};

Metadata from_cluster(const ConnectionOptions& c, const TopicOptions& t) {
  cluster::ViewRequest request = view_request(t, /*sizes=*/false);
  request.offsets = false;
  cluster::ClusterClient client(settings_from(c));
  const live::ClusterView view = client.read_view(request);
  Metadata m;
  m.description = "live cluster (" + view.metadata_from + ")";
  m.cluster_id = view.cluster_id;
  m.live = view.live_broker_ids();
  // One rule with `cluster what-if`: the finalized feature, else the partitions' ELR.
  const live::ElrSetting elr = live::elr_setting(view);
  const bool elr_enabled = elr.enabled;
  for (const auto& topic : view.topics) {
    for (const auto& p : topic.partitions) {
      PlanPartitionInput in;
      in.topic = p.topic;
      in.partition = p.partition;
      in.state.replicas = p.replicas;
      in.state.isr = p.isr;
      in.state.elr = p.elr.value_or(std::vector<std::int32_t>{});
      in.state.last_known_elr = p.last_known_elr.value_or(std::vector<std::int32_t>{});
      in.state.leader = p.leader;
      in.state.leader_epoch = p.leader_epoch;
      in.leader_epoch_known = true;
      in.unclean_allowed = topic.unclean_leader_election().value_or(false);
      in.min_isr = topic.min_insync_replicas().value_or(1);
      in.unclean_source = live_source(topic, kUnclean);
      in.min_isr_source = live_source(topic, kMinIsr);
      in.elr_enabled = elr_enabled;
      in.live_metadata = true;
      if (const UuidParse id = parse_uuid(topic.topic_id); id.ok && !id.uuid.is_zero())
        in.topic_id = id.uuid;
      m.partitions.push_back(std::move(in));
    }
  }
  for (const auto& w : view.warnings)
    m.notes.push_back(w);
  const std::string who = view.metadata_from.empty() ? "the broker that answered"
                                                     : "the broker at " + view.metadata_from;
  m.notes.push_back(
      config_note(kUnclean, m.partitions, true,
                  {"DescribeConfigs", who, "the active controller elects by its own", ""}));
  m.notes.push_back(config_note(kMinIsr, m.partitions, false,
                                {"DescribeConfigs", who,
                                 "each partition's leader refuses acks=all writes by its own, and "
                                 "the controller keeps the ELR by its own",
                                 ""}));
  return m;
}

// min.insync.replicas as a partition's leader reads it (its LogConfig: ConfigDef's INT,
// Integer.parseInt after trimming); the controller validated it before logging it.
std::string_view java_trim(std::string_view v) {  // String.trim: every char <= ' '
  while (!v.empty() && static_cast<unsigned char>(v.front()) <= ' ')
    v.remove_prefix(1);
  while (!v.empty() && static_cast<unsigned char>(v.back()) <= ' ')
    v.remove_suffix(1);
  return v;
}

Metadata from_metadata_log(const PlanOptions& o, const TopicOptions& t, const Globals& globals) {
  const LoggedMetadata logged =
      read_logged_metadata(o.metadata, topic_regex(t), t.exclude_internal, globals);
  Metadata m;
  m.description = "metadata log " + o.metadata;
  m.live = logged.live;
  for (const auto& p : logged.partitions) {
    PlanPartitionInput in;
    in.topic = p.topic;
    in.partition = p.partition;
    in.state.replicas = p.replicas;
    in.state.isr = p.isr;
    in.state.elr = p.elr;
    in.state.last_known_elr = p.last_known_elr;
    in.state.leader = p.leader;
    in.state.leader_epoch = p.leader_epoch;
    in.leader_epoch_known = true;
    // The topic's config, else the cluster default, else the flags standing for the nodes'
    // static config (as the live path's DescribeConfigs answer resolves them).
    in.unclean_allowed = o.unclean;
    in.unclean_source = "flags";
    // The controller decides: ConfigurationControlManager.uncleanLeaderElectionEnabledForTopic
    // reads the logged text with Boolean.parseBoolean (untrimmed, unlike a broker's ConfigDef).
    if (p.unclean) {
      in.unclean_allowed = java::parse_boolean(p.unclean->value);
      in.unclean_source = p.unclean->cluster_default ? "cluster_default" : "topic";
    }
    in.min_isr = o.min_isr;
    in.min_isr_source = "flags";
    if (const auto v = p.min_isr ? java::parse_int(java_trim(p.min_isr->value)) : std::nullopt) {
      in.min_isr = *v;
      in.min_isr_source = p.min_isr->cluster_default ? "cluster_default" : "topic";
    }
    in.elr_enabled = !p.elr.empty() || !p.last_known_elr.empty();
    if (!p.topic_id.is_zero()) in.topic_id = p.topic_id;
    for (const auto& [epoch, leader] : p.issued)
      in.issued_epochs.push_back({epoch, leader});
    m.partitions.push_back(std::move(in));
  }
  m.notes = logged.problems;
  m.notes.push_back(
      config_note(kUnclean, m.partitions, true,
                  {"metadata log", "", "the active controller elects by its own", "--unclean"}));
  m.notes.push_back(config_note(kMinIsr, m.partitions, false,
                                {"metadata log", "",
                                 "each partition's leader refuses acks=all writes by its own, and "
                                 "the controller keeps the ELR by its own",
                                 "--min-isr"}));
  // A node's own dynamic config comes before the cluster-wide default on that node
  // (KafkaConfigSchema.resolveEffectiveTopicConfig: topic, node, cluster default, static),
  // for the active controller's elections and for a leader's acks=all check; the log does not
  // say which node is which, so the plan does not use them: it says they are there.
  for (const auto& [name, nodes] : logged.node_configs)
    for (const auto& [node, value] : nodes)
      m.notes.push_back(fmt::format(
          "node {}'s own dynamic config sets {}={} (metadata log): where node {} is the active "
          "controller (elections) or a partition's leader (acks=all), Kafka takes it before "
          "the cluster-wide default and the static config; the plan's values do not",
          node, name, value, node));
  return m;
}

// One partition from flags: the states must hold exactly one partition between them.
Metadata from_flags(const PlanOptions& o, const std::vector<BrokerState>& states) {
  std::set<std::pair<std::string, std::int32_t>> partitions;
  for (const auto& s : states)
    for (const auto& r : s.replicas)
      partitions.emplace(r.topic, r.partition);
  if (partitions.size() != 1)
    throw UsageError(fmt::format(
        "--replicas describes one partition, but the states hold {} partitions: give the "
        "metadata with -b or --metadata, or replica dirs (or SNAPSHOT:TOPIC-PARTITION) of one "
        "partition",
        partitions.size()));
  Metadata m;
  m.description = "flags";
  PlanPartitionInput in;
  in.topic = partitions.begin()->first;
  in.partition = partitions.begin()->second;
  in.state.replicas = o.replicas;
  in.state.isr = o.isr;
  in.state.elr = o.elr;
  in.state.leader = kNoLeader;
  in.unclean_allowed = o.unclean;
  in.min_isr = o.min_isr;
  in.unclean_source = "flags";
  in.min_isr_source = "flags";
  in.elr_enabled = !o.elr.empty();
  if (o.alive_given) {
    m.live = {o.alive.begin(), o.alive.end()};
  } else {
    for (const auto& s : states)
      m.live.insert(*s.broker);
  }
  m.partitions.push_back(std::move(in));
  return m;
}

// --out-dir: each file through output_file.hpp (never an input, never inside a log dir,
// never over a file an earlier plan did not write unless --overwrite), then the dir.
void write_commands(const fs::path& dir, const forecast::RecoveryPlan& plan,
                    const std::vector<std::string>& states) {
  const auto files = report::recovery_command_files(plan);
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
  StepProgress progress(globals, "plan");
  progress.step(0, o.states.size(), fmt::format("reading {} broker states", o.states.size()));
  // Every state read on every core (snapshots of a hundred brokers are most of the work); the
  // first argument's error is the one reported, whichever thread met it first.
  std::vector<BrokerState> states(o.states.size());
  std::vector<std::exception_ptr> errors(o.states.size());
  parallel_for(o.states.size(), default_jobs(), [&](std::size_t i) {
    try {
      states[i] = load_state(o.states[i]);
      for (auto& r : states[i].replicas)
        forecast::keep_what_plans_read(r);
    } catch (...) {
      errors[i] = std::current_exception();
    }
  });
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
  progress.step(0, 0, "reading the metadata, ranking the candidates");
  refuse_same_replica(o.states, /*stdin_only=*/false);
  check_states(states, o.ids);

  Metadata m = !o.metadata.empty()   ? from_metadata_log(o, t, globals)
               : !o.replicas.empty() ? from_flags(o, states)
                                     : from_cluster(c, t);
  if (m.cluster_id && !m.cluster_id->empty()) {
    for (const auto& s : states)
      if (s.cluster_id && *s.cluster_id != *m.cluster_id)
        throw UsageError(fmt::format("{} is of cluster {} but the metadata is of cluster {}",
                                     s.argument, *s.cluster_id, *m.cluster_id));
  }

  // Each partition's replicas with known state, by broker.
  std::map<std::pair<std::string, std::int32_t>, std::map<std::int32_t, const PartitionReplica*>>
      known;
  std::map<std::int32_t, std::string> source_of;
  for (const auto& s : states) {
    source_of[*s.broker] = s.argument;
    for (const auto& r : s.replicas)
      known[{r.topic, r.partition}][*s.broker] = &r;
  }
  forecast::PlanInput input;
  input.live_brokers = m.live;
  input.gone_brokers = {o.gone.begin(), o.gone.end()};
  std::set<std::int32_t> assigned;
  std::uint64_t not_in_metadata = known.size();
  for (auto& p : m.partitions) {
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
  const forecast::RecoveryPlan plan = forecast::plan_recovery(input);

  report::PlanContext context;
  context.metadata = m.description;
  context.cluster_id = m.cluster_id;
  for (const auto& s : states)
    if (s.cluster_id && !context.cluster_id) context.cluster_id = s.cluster_id;
  context.all = o.all;
  std::set<std::int32_t> brokers = assigned;
  for (const auto& [id, src] : source_of)
    brokers.insert(id);
  for (const auto id : brokers) {
    const auto src = source_of.find(id);
    // A broker named in --gone is not coming back: never shown live, whatever the metadata says.
    context.brokers.push_back({id, m.live.count(id) > 0 && !input.gone_brokers.count(id),
                               input.gone_brokers.count(id) > 0,
                               src == source_of.end() ? std::string() : src->second});
  }
  // What a missing broker leaves unknown.
  std::map<std::int32_t, std::uint64_t> missing;
  for (const auto& p : plan.partitions)
    if (p.kind != forecast::RecommendationKind::healthy)
      for (const auto id : p.unknown_replicas)
        ++missing[id];
  for (const auto& [id, count] : missing)
    context.notes.push_back(
        source_of.count(id)
            ? fmt::format("broker {}: its state holds no usable replica of {} partition(s) "
                          "without a live leader (none there, or one of another topic id): "
                          "what it holds of them is not counted",
                          id, count)
            : fmt::format("broker {}: no state given; what its replicas of {} partition(s) "
                          "without a live leader hold is not counted",
                          id, count));
  if (not_in_metadata > 0)
    context.notes.push_back(fmt::format(
        "{} partition(s) in the states are not in the metadata (deleted topics, or not selected)",
        not_in_metadata));
  for (const auto& s : states)
    context.notes.insert(context.notes.end(), s.notes.begin(), s.notes.end());
  context.notes.insert(context.notes.end(), m.notes.begin(), m.notes.end());

  if (!o.out_dir.empty()) write_commands(o.out_dir, plan, o.states);
  report::Value value = report::recovery_plan_value(plan, context);
  value.set("timelines", report::plan_timelines_value(plan, input));
  // The picture from the very Value the output renders (html_page.hpp).
  if (o.html) write_html(*o.html, report::timeline_page(value, "kepoch plan"));
  progress.done();
  emit(value, globals);
  return plan.totals.safe() ? kOk : kFindings;
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
  add_html_option(cmd, o.html);
  add_connection_options(cmd, c);
  add_topic_options(cmd, t);
  cmd->footer(
      "Examples:\n"
      "  kepoch plan -b kafka-1:9092 b1.snap b2.snap b3.snap\n"
      "  kepoch plan --metadata /var/lib/kafka/meta/__cluster_metadata-0 --gone 3 *.snap\n"
      "  kepoch plan --replicas 1,2,3 --isr 3 --alive 1,2 b1/orders-0 b2/orders-0\n"
      "  kepoch plan --cluster prod --out-dir plan/ b1.snap b2.snap -o json\n"
      "  kepoch plan --html plan.html --metadata meta/__cluster_metadata-0 b1.snap b2.snap\n"
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
      "Exit status: 0 the plan loses no committed record and every state it rests on is\n"
      "known and current, 1 it loses committed records or kepoch cannot rule it out (a\n"
      "replica's state not given, a count a snapshot could not make, a metadata log older\n"
      "than the disks), 2 usage (two states of one broker, states of another cluster), 3\n"
      "unreadable input, 4 the cluster cannot be reached.");
  cmd->callback([&globals] { globals.exit_code = run(o, c, t, globals); });
}

}  // namespace kepoch::cli

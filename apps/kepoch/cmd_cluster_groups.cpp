// kepoch cluster groups
// The consumer groups and their committed offsets with leader epochs, read live
// (ListGroups on every broker, OffsetFetch at each group's coordinator).

#include <regex>

#include "cluster_options.hpp"
#include "exit_codes.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/cluster/cluster_client.hpp"
#include "kepoch/live/hidden_topics.hpp"
#include "kepoch/report/live_groups_report.hpp"

namespace kepoch::cli {
namespace {

struct GroupsOptions {
  std::optional<std::string> group;
};

int run(const ConnectionOptions& c, const TopicOptions& t, const GroupsOptions& o,
        const Globals& globals) {
  std::optional<std::regex> group;
  if (o.group) {
    try {
      group.emplace(*o.group);
    } catch (const std::regex_error& e) {
      throw UsageError("--group: not a regular expression: " + *o.group);
    }
  }
  cluster::ClusterClient client(settings_from(c));
  cluster::ViewRequest request = view_request(t, false);
  request.configs = false;
  request.offsets = false;
  request.log_dirs = false;
  client.read_view(request);  // the brokers to ask
  auto listing = client.list_groups();
  report::LiveGroups g;
  g.complete = listing.complete;
  g.warnings = listing.warnings;
  std::vector<std::string> ids;
  for (auto& l : listing.groups) {
    if (group && !std::regex_match(l.group_id, *group)) continue;
    ids.push_back(l.group_id);
    g.groups.push_back(std::move(l));
  }
  g.offsets = client.committed_offsets(ids, g.warnings);
  g.hidden = live::read_hidden_topics(client);
  const auto topic = topic_regex(t);
  emit(report::live_groups_value(g, topic), globals);
  return report::live_groups_complete(g, topic) ? kOk : kFindings;
}

}  // namespace

void register_cluster_groups(CLI::App* group, Globals& globals) {
  static ConnectionOptions c;
  static TopicOptions t;
  static GroupsOptions o;
  CLI::App* cmd = group->add_subcommand(
      "groups", "Consumer groups and their committed offsets with leader epochs, read live");
  cmd->add_option("--group", o.group, "Only groups whose id matches (whole-name regex)")
      ->type_name("REGEX");
  add_connection_options(cmd, c);
  add_topic_options(cmd, t);
  cmd->footer(
      "Examples:\n"
      "  kepoch cluster groups -b kafka-1:9092  # live\n"
      "  kepoch cluster groups -b kafka-1:9092 --topic orders --group 'billing-.*' -o json  # "
      "live\n"
      "\nEvery broker lists the groups it coordinates (ListGroups, as Admin.listGroups asks\n"
      "all brokers); each group's committed offsets come from its coordinator (OffsetFetch,\n"
      "every topic, v8+ many groups a request) with the leader epoch the commit carries\n"
      "(KIP-320: the Java consumer since 2.1 commits it; leader_epoch null when none). These\n"
      "are the offsets and epochs a consumer's position validation starts from after a\n"
      "truncation (`kepoch predict --offsets` forecasts it from __consumer_offsets on disk).\n"
      "With an authorizer, OffsetFetch leaves out without a word the offsets of topics this\n"
      "principal may not Describe: the topics the brokers hold (DescribeLogDirs) that Metadata\n"
      "withholds are named (hidden_topics) and every group's offsets there are unknown.\n"
      "Exit status: 0 read in full, 1 a broker or group could not be read, or topics or groups\n"
      "may be withheld from this principal (listed in warnings), 2 usage, 3 a settings file\n"
      "cannot be read, 4 the cluster cannot be reached or refused us.");
  cmd->callback([&globals] { globals.exit_code = run(c, t, o, globals); });
}

}  // namespace kepoch::cli

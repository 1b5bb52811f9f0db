#include "election_options.hpp"

#include "globals.hpp"
#include "kepoch/base/error.hpp"

namespace kepoch::cli {

void add_election_options(CLI::App* cmd, CLI::Option* elect, forecast::ElectionSetting& s) {
  // Comma-separated ids in one argument ("1,2,3"), so the DIRs that follow stay positional.
  auto ids = [&](const char* name, std::vector<std::int32_t>& into, const char* what) {
    cmd->add_option_function<std::string>(
           name, [&into, name](const std::string& text) { into = parse_ids(name, text); }, what)
        ->type_name("IDS")
        ->needs(elect);
  };
  ids("--ids", s.ids, "Broker id of each DIR, in order (default: node.id in meta.properties)");
  ids("--replicas", s.replicas, "Assignment order; the first is preferred (default: --ids)");
  ids("--isr", s.isr, "The ISR in Kafka's metadata (kafka-topics --describe)");
  ids("--elr", s.elr, "Eligible leader replicas, when ELR is enabled (KIP-966)");
  ids("--alive", s.alive, "Brokers up and unfenced (default: every DIR's broker)");
  cmd->add_flag("--unclean", s.unclean,
                "unclean.leader.election.enable: elect any alive replica if no ISR member is")
      ->needs(elect);
  cmd->add_flag("--preferred", s.preferred, "A preferred-replica election")->needs(elect);
  cmd->add_option("--min-isr", s.min_isr, "min.insync.replicas (for the ELR)")
      ->needs(elect)
      ->default_str("1");
}

std::vector<std::string> leader_first(std::string& leader, std::vector<std::string>& followers,
                                      const std::optional<forecast::Election>& election) {
  if (election) {
    const auto at = static_cast<std::ptrdiff_t>(election->leader_argument.value());
    leader = followers[static_cast<std::size_t>(at)];
    followers.erase(followers.begin() + at);
  } else if (leader.empty()) {
    throw UsageError("give the leader's replica with --leader, or --elect to choose it");
  }
  std::vector<std::string> arguments{leader};
  arguments.insert(arguments.end(), followers.begin(), followers.end());
  refuse_same_replica(arguments, /*stdin_only=*/true);
  return arguments;
}

}  // namespace kepoch::cli

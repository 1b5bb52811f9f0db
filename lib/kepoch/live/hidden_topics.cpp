#include "kepoch/live/hidden_topics.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kepoch/cluster/cluster_client.hpp"
#include "kepoch/cluster/cluster_error.hpp"
#include "kepoch/cluster/protocol/describe_cluster.hpp"
#include "kepoch/cluster/protocol/error_codes.hpp"

namespace kepoch::live {
namespace {

namespace errors = cluster::protocol::errors;

constexpr std::int32_t kDescribe = 1 << 8;  // AclOperation.DESCRIBE

bool matches(const std::string& name, const std::optional<std::regex>& topic) {
  return !topic || std::regex_match(name, *topic);
}

}  // namespace

bool HiddenTopics::may_withhold(const std::optional<std::regex>& topic) const {
  return !ruled_out || !matching(topic).empty();
}

std::vector<std::string> HiddenTopics::matching(const std::optional<std::regex>& topic) const {
  std::vector<std::string> out;
  for (const auto& [name, why] : topics)
    if (matches(name, topic)) out.push_back(name);
  return out;
}

std::vector<std::string> undescribed_topics(const std::set<std::string>& described,
                                            const LogDirNames& log_dirs) {
  std::vector<std::string> out;
  for (const auto& t : log_dirs.topics)
    if (!described.contains(t)) out.push_back(t);
  return out;
}

HiddenTopics judge_hidden_topics(std::optional<bool> authorizer_disabled,
                                 std::optional<std::int32_t> cluster_operations,
                                 const std::optional<LogDirNames>& log_dirs,
                                 const std::vector<std::string>& undescribed,
                                 const std::map<std::string, std::int16_t>& asked) {
  HiddenTopics out;
  if (authorizer_disabled == true) return out;
  if (!log_dirs) {
    out.ruled_out = false;
    out.unknown_why.push_back("the brokers' log dirs were not read");
    out.groups_may_be_withheld = true;
    return out;
  }
  // DescribeLogDirs answered by every broker is Describe on the cluster: ListGroups then
  // lists every group.
  out.groups_may_be_withheld = log_dirs->cluster_describe_refused ||
                               (cluster_operations && !(*cluster_operations & kDescribe)) ||
                               (!cluster_operations && !log_dirs->unread.empty());
  if (!log_dirs->unread.empty()) {
    out.ruled_out = false;
    out.unknown_why = log_dirs->unread;
  }
  for (const auto& name : undescribed) {
    const auto a = asked.find(name);
    if (a == asked.end()) {
      out.topics[name] =
          "a broker holds its logs (DescribeLogDirs), Metadata left it out and did not answer "
          "for it by name";
    } else if (a->second == errors::kTopicAuthorizationFailed) {
      out.topics[name] =
          "a broker holds its logs (DescribeLogDirs), and Metadata by name answers "
          "TOPIC_AUTHORIZATION_FAILED: this principal may not Describe it";
    }
    // Described by name (created since) or UNKNOWN_TOPIC_OR_PARTITION (deleted since): not
    // withheld.
  }
  return out;
}

HiddenTopics read_hidden_topics(cluster::ClusterClient& client) {
  const auto disabled = client.authorizer_disabled();
  if (disabled == true) return {};
  const auto ops = client.cluster_authorized_operations();
  auto read = client.log_dir_topics();
  LogDirNames names{std::move(read.topics), std::move(read.unread), read.cluster_describe_refused};
  const auto undescribed = undescribed_topics(client.described_topics(), names);
  std::map<std::string, std::int16_t> asked;
  try {
    asked = client.topic_errors(undescribed);
  } catch (const cluster::ClusterError& e) {
    names.unread.push_back(fmt::format("Metadata by name: {}", e.what()));
  }
  return judge_hidden_topics(disabled, ops, names, undescribed, asked);
}

std::vector<std::string> hidden_topic_warnings(const HiddenTopics& h,
                                               const std::optional<std::regex>& topic,
                                               const std::string& what) {
  std::vector<std::string> out;
  for (const auto& name : h.matching(topic))
    out.push_back(fmt::format("topic {} is withheld from this principal, its {} are not known: {}",
                              name, what, h.topics.at(name)));
  if (!h.ruled_out)
    out.push_back(fmt::format(
        "whether topics are withheld from this principal is not known ({}): Kafka leaves out "
        "without a word the topics it may not Describe, so {} may be missing",
        fmt::join(h.unknown_why, "; "), what));
  if (h.groups_may_be_withheld)
    out.push_back(
        "this principal may not Describe the cluster (or whether it may is not known): "
        "ListGroups then leaves out without a word the groups it may not Describe");
  return out;
}

}  // namespace kepoch::live

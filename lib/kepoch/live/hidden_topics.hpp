#pragma once
// Topics and groups an authorizer withholds from this principal without a word, as far as
// kepoch can tell. Kafka answers a request for every topic (Metadata with no topic names)
// and a group's committed offsets of every partition (OffsetFetch with no topics) with only
// the topics the principal may Describe (KafkaApis.handleTopicMetadataRequest: "don't include
// topics unauthorized for Describe"; fetchAllOffsetsForGroup: "Clients are not allowed to see
// offsets for topics that are not authorized for Describe"), and ListGroups, to a principal
// that may not Describe the cluster, with only the groups it may Describe
// (handleListGroupsRequest). A state not given is unknown, not empty:
//
//   - without an authorizer (DescribeAcls answers SECURITY_DISABLED) everything is shown;
//   - otherwise, even to a principal that may perform every cluster operation (a super user
//     and a principal allowed All on the cluster look alike in DescribeCluster's
//     cluster_authorized_operations, and the latter is still refused topics), the topics every
//     broker holds logs of (DescribeLogDirs of all topics, which Kafka answers to a principal that
//     may Describe the cluster without filtering by topic: handleDescribeLogDirsRequest over
//     logManager.allLogs) are compared with Metadata's: a topic there that Metadata left out, asked
//     for by name, answered TOPIC_AUTHORIZATION_FAILED (or not answered) is withheld; answered
//     otherwise (created or deleted meanwhile) it is not;
//   - when a broker did not answer DescribeLogDirs (refused: no Describe on the cluster; down;
//     a log dir offline), withheld topics cannot be ruled out; when it was refused,
//     ListGroups may also leave groups out.

#include <cstdint>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace kepoch::cluster {
class ClusterClient;
}

namespace kepoch::live {

struct HiddenTopics {
  // Topics a broker holds that Metadata withholds from this principal, each with why.
  std::map<std::string, std::string> topics;
  // False: topics may be withheld that no name above shows (unknown_why says why).
  bool ruled_out = true;
  std::vector<std::string> unknown_why;
  // ListGroups may have left out groups (this principal may not Describe the cluster, or
  // whether it may is not known).
  bool groups_may_be_withheld = false;

  // Whether a topic whose whole name matches `topic` (nullopt: any) may be withheld: a named
  // one matches, or withheld topics are not ruled out.
  bool may_withhold(const std::optional<std::regex>& topic) const;
  // The named withheld topics matching `topic`, by name.
  std::vector<std::string> matching(const std::optional<std::regex>& topic) const;
};

// What DescribeLogDirs showed (ClusterClient::log_dir_topics, flattened).
struct LogDirNames {
  std::set<std::string> topics;
  std::vector<std::string> unread;  // brokers or log dirs not read, one sentence each
  bool cluster_describe_refused = false;
};

// The topics of the log dirs that Metadata did not describe: the ones to ask for by name.
std::vector<std::string> undescribed_topics(const std::set<std::string>& described,
                                            const LogDirNames& log_dirs);

// The judgement from what was read: whether the broker has no authorizer (nullopt: not
// known), the principal's cluster operations (nullopt: not read), the log dirs (nullopt: not
// read), and the error code of each undescribed topic asked for by name (missing: not
// answered).
HiddenTopics judge_hidden_topics(std::optional<bool> authorizer_disabled,
                                 std::optional<std::int32_t> cluster_operations,
                                 const std::optional<LogDirNames>& log_dirs,
                                 const std::vector<std::string>& undescribed,
                                 const std::map<std::string, std::int16_t>& asked);

// Reads and judges, after a read_view on `client`. A refused or failed request is part of
// the judgement (unknown), never an exception.
HiddenTopics read_hidden_topics(cluster::ClusterClient& client);

// One warning sentence per fact an operator must know (empty when nothing is withheld), for
// a report whose rows show `what` (e.g. "committed offsets") of topics matching `topic`.
std::vector<std::string> hidden_topic_warnings(const HiddenTopics& h,
                                               const std::optional<std::regex>& topic,
                                               const std::string& what);

}  // namespace kepoch::live

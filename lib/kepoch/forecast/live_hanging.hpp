#pragma once
// Hanging transactions on a live cluster, by the rule of Kafka's `kafka-transactions.sh
// find-hanging` (org.apache.kafka.tools.TransactionsCommand.FindHangingTransactionsCommand,
// Kafka 3.0-4.4):
//   1. the partitions searched: every partition of the topics in scope, or those with a
//      replica on --broker (findTopicPartitions / hasReplica);
//   2. candidates: each partition's active producers (DescribeProducers, at the leader or at
//      --broker) with an open transaction (currentTransactionStartOffset present) whose last
//      write is older than max_transaction_timeout_ms (collectCandidateOpenTransactions:
//      now - lastTimestamp > max);
//   3. the candidates' producer ids looked up with ListTransactions on every broker
//      (lookupTransactionalIds), their transactional ids with DescribeTransactions at their
//      coordinators (describeTransactions: TRANSACTIONAL_ID_NOT_FOUND is "no description");
//   4. hanging (filterHangingTransactions): no transactional id for the producer id; or no
//      description; or the description's partitions (an ongoing transaction's, or a
//      preparing one's still without a marker) lack this partition.
// Where find-hanging fails the whole run (a partition or coordinator that cannot be asked),
// kepoch keeps going and marks what it could not judge unknown (hanging null): unknown is
// never "not hanging". A producer id missing from an incomplete ListTransactions (a broker
// failed it) is unknown too, not hanging: that broker may track it. So is one missing when
// this principal may not see every transactional id: ListTransactions leaves out, without a
// word, those it may not Describe (an authorizer's filter), and find-hanging would call such
// a live transaction hanging and give the abort that ends it. kepoch takes the listing as
// whole only when the broker has no authorizer (DescribeAcls answers SECURITY_DISABLED): with
// one, a principal allowed every cluster operation may still be refused transactional ids,
// and DescribeCluster's operations do not tell it from a super user.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kepoch/cluster/protocol/transactions.hpp"

namespace kepoch::cluster {
class ClusterClient;
}
namespace kepoch::live {
struct ClusterView;
}

namespace kepoch::forecast {

struct LiveOpenTransaction {
  std::string topic;
  std::int32_t partition = 0;
  std::int64_t producer_id = -1;
  std::int32_t producer_epoch = -1;
  std::int32_t coordinator_epoch = -1;  // -1 when the broker gave none (find-hanging's -1)
  std::int64_t start_offset = -1;
  std::int64_t last_timestamp = -1;
  std::int64_t duration_minutes = 0;  // (now - last_timestamp) in whole minutes
  std::optional<std::string> transactional_id;
  std::optional<std::string> coordinator_state;
  std::optional<bool> hanging;  // nullopt: not known
  std::string reason;
  std::string abort_command;
};

struct UnansweredPartition {
  std::string topic;
  std::int32_t partition = 0;
  std::string reason;
};

struct LiveHangingSearch {
  std::int64_t max_transaction_timeout_ms = 0;
  std::size_t partitions_searched = 0;
  std::vector<LiveOpenTransaction> open;  // every candidate, judged
  std::vector<UnansweredPartition> unanswered;
  std::vector<std::string> warnings;

  std::size_t hanging() const;
  std::size_t unknown() const;  // candidates not judged, plus partitions not answered
};

// Step 2 and 4 on answers already gathered (pure: the unit tests drive it).
// `listing_complete`: whether every broker answered ListTransactions.
std::vector<LiveOpenTransaction> open_candidates(
    const std::vector<cluster::protocol::PartitionProducers>& producers, std::int64_t now_ms,
    std::int64_t max_transaction_timeout_ms);
void judge_open(std::vector<LiveOpenTransaction>& open,
                const std::vector<cluster::protocol::TransactionListing>& listings,
                bool listing_complete,
                const std::vector<cluster::protocol::TransactionDescription>& descriptions,
                const std::string& bootstrap, bool ids_may_be_withheld = false);

struct LiveHangingScope {
  std::vector<std::string> topics;                           // searched, in order (from the view)
  std::optional<std::int32_t> partition;                     // with one topic only
  std::optional<std::int32_t> broker;                        // --broker-id
  std::int64_t max_transaction_timeout_ms = 15 * 60 * 1000;  // find-hanging's 15 minutes
};

// The whole search against the cluster (the view from client.read_view). `bootstrap` goes
// into each abort command.
LiveHangingSearch find_hanging_live(cluster::ClusterClient& client, const live::ClusterView& view,
                                    const LiveHangingScope& scope, std::int64_t now_ms,
                                    const std::string& bootstrap);

}  // namespace kepoch::forecast

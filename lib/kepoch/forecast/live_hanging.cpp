#include "kepoch/forecast/live_hanging.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "kepoch/cluster/cluster_client.hpp"
#include "kepoch/cluster/protocol/describe_cluster.hpp"
#include "kepoch/cluster/protocol/error_codes.hpp"
#include "kepoch/forecast/hanging_transactions.hpp"
#include "kepoch/live/cluster_view.hpp"

namespace kepoch::forecast {
namespace {

// Errors.TRANSACTIONAL_ID_NOT_FOUND: the coordinator has no state for the id.
constexpr std::int16_t kTransactionalIdNotFound = 105;

}  // namespace

std::size_t LiveHangingSearch::hanging() const {
  return static_cast<std::size_t>(
      std::count_if(open.begin(), open.end(), [](const auto& o) { return o.hanging == true; }));
}

std::size_t LiveHangingSearch::unknown() const {
  return unanswered.size() +
         static_cast<std::size_t>(
             std::count_if(open.begin(), open.end(), [](const auto& o) { return !o.hanging; }));
}

std::vector<LiveOpenTransaction> open_candidates(
    const std::vector<cluster::protocol::PartitionProducers>& producers, std::int64_t now_ms,
    std::int64_t max_transaction_timeout_ms) {
  std::vector<LiveOpenTransaction> out;
  for (const auto& p : producers) {
    if (p.error_code != 0) continue;
    for (const auto& a : p.active_producers) {
      // DescribeProducersHandler: a negative start offset is OptionalLong.empty(), no open
      // transaction; a negative coordinator epoch likewise empty (printed as -1).
      if (a.current_txn_start_offset < 0) continue;
      const std::int64_t duration = now_ms - a.last_timestamp;
      if (duration <= max_transaction_timeout_ms) continue;
      LiveOpenTransaction o;
      o.topic = p.topic;
      o.partition = p.partition;
      o.producer_id = a.producer_id;
      o.producer_epoch = a.producer_epoch;
      o.coordinator_epoch = a.coordinator_epoch < 0 ? -1 : a.coordinator_epoch;
      o.start_offset = a.current_txn_start_offset;
      o.last_timestamp = a.last_timestamp;
      o.duration_minutes = duration / 60000;  // TimeUnit.MILLISECONDS.toMinutes
      out.push_back(std::move(o));
    }
  }
  return out;
}

void judge_open(std::vector<LiveOpenTransaction>& open,
                const std::vector<cluster::protocol::TransactionListing>& listings,
                bool listing_complete,
                const std::vector<cluster::protocol::TransactionDescription>& descriptions,
                const std::string& bootstrap, bool ids_may_be_withheld) {
  std::set<std::int64_t> asked;
  for (const auto& o : open)
    asked.insert(o.producer_id);
  // lookupTransactionalIds: only the producer ids asked for count.
  std::map<std::int64_t, const cluster::protocol::TransactionListing*> by_producer;
  for (const auto& l : listings)
    if (asked.contains(l.producer_id)) by_producer[l.producer_id] = &l;
  std::map<std::string, const cluster::protocol::TransactionDescription*> by_id;
  for (const auto& d : descriptions)
    by_id[d.transactional_id] = &d;
  for (auto& o : open) {
    o.abort_command = abort_command(bootstrap, o.topic, o.partition, o.start_offset);
    const auto listed = by_producer.find(o.producer_id);
    if (listed == by_producer.end()) {
      if (listing_complete && ids_may_be_withheld) {
        o.reason =
            "its producer id is not listed to this principal: no coordinator tracks it (hanging), "
            "or its transactional id is one this principal may not Describe, which "
            "ListTransactions leaves out (an authorizer is on, or whether one is is not known)";
      } else if (listing_complete) {
        o.hanging = true;
        o.reason = "no coordinator tracks its producer id (ListTransactions)";
      } else {
        o.reason = "its producer id is not listed, but a broker did not answer ListTransactions";
      }
      continue;
    }
    o.transactional_id = listed->second->transactional_id;
    o.coordinator_state = listed->second->state;
    const auto described = by_id.find(*o.transactional_id);
    if (described == by_id.end() || described->second->error_code == -1) {
      o.reason = "its coordinator could not be asked (DescribeTransactions)";
      continue;
    }
    const auto& d = *described->second;
    if (d.error_code == kTransactionalIdNotFound) {
      o.hanging = true;
      o.reason = "the coordinator has no state for its transactional id";
      continue;
    }
    if (d.error_code != 0) {
      o.reason = fmt::format("DescribeTransactions answered {}",
                             cluster::protocol::error_code_name(d.error_code));
      continue;
    }
    o.coordinator_state = d.state;
    const bool awaited = std::any_of(d.partitions.begin(), d.partitions.end(), [&](const auto& p) {
      return p.topic == o.topic && p.partition == o.partition;
    });
    o.hanging = !awaited;
    o.reason = awaited ? fmt::format(
                             "the coordinator ({}) still has the partition in the "
                             "transaction and will write its marker",
                             d.state)
                       : fmt::format(
                             "the coordinator ({}, producer id {}) no longer has the "
                             "partition in the transaction: no marker will come",
                             d.state, d.producer_id);
  }
}

LiveHangingSearch find_hanging_live(cluster::ClusterClient& client, const live::ClusterView& view,
                                    const LiveHangingScope& scope, std::int64_t now_ms,
                                    const std::string& bootstrap) {
  LiveHangingSearch out;
  out.max_transaction_timeout_ms = scope.max_transaction_timeout_ms;
  std::vector<cluster::protocol::PartitionQuery> partitions;
  const std::set<std::string> topics(scope.topics.begin(), scope.topics.end());
  for (const auto& t : view.topics) {
    if (!topics.contains(t.name)) continue;
    for (const auto& p : t.partitions) {
      if (scope.partition && p.partition != *scope.partition) continue;
      if (scope.broker &&
          std::find(p.replicas.begin(), p.replicas.end(), *scope.broker) == p.replicas.end())
        continue;
      partitions.push_back({t.name, p.partition});
    }
  }
  out.partitions_searched = partitions.size();
  const auto producers = client.describe_producers(partitions, scope.broker, view);
  for (const auto& p : producers)
    if (p.error_code != 0)
      out.unanswered.push_back(
          {p.topic, p.partition,
           p.error_code == -1 ? p.error_message.value_or("not answered")
                              : fmt::format("DescribeProducers answered {}",
                                            cluster::protocol::error_code_name(p.error_code))});
  out.open = open_candidates(producers, now_ms, scope.max_transaction_timeout_ms);
  if (out.open.empty()) return out;
  std::set<std::int64_t> producer_ids;
  for (const auto& o : out.open)
    producer_ids.insert(o.producer_id);
  auto listings = client.list_transactions({producer_ids.begin(), producer_ids.end()});
  out.warnings = listings.warnings;
  std::set<std::string> ids;
  for (const auto& l : listings.transactions)
    if (producer_ids.contains(l.producer_id)) ids.insert(l.transactional_id);
  const auto descriptions = client.describe_transactions({ids.begin(), ids.end()}, out.warnings);
  // Whether ListTransactions may have left out ids this principal may not Describe.
  bool withheld = false;
  std::set<std::int64_t> listed;
  for (const auto& l : listings.transactions)
    listed.insert(l.producer_id);
  if (!std::all_of(producer_ids.begin(), producer_ids.end(),
                   [&](std::int64_t id) { return listed.contains(id); })) {
    // Even a principal allowed every cluster operation may be refused transactional ids:
    // only a broker without an authorizer lists them all to everyone.
    const auto disabled = client.authorizer_disabled();
    withheld = disabled != true;
    if (withheld)
      out.warnings.push_back(
          disabled.has_value()
              ? "an authorizer is on (DescribeAcls answered): ListTransactions leaves out, "
                "without a word, the transactional ids this principal may not Describe, and a "
                "super user cannot be told from a principal allowed every cluster operation"
              : "whether an authorizer hides transactional ids from this principal is "
                "unknown (DescribeAcls not answered)");
  }
  judge_open(out.open, listings.transactions, listings.complete, descriptions, bootstrap, withheld);
  return out;
}

}  // namespace kepoch::forecast

#include "kepoch/cluster/protocol/transactions.hpp"

#include "kepoch/cluster/protocol/messages.hpp"
#include "kepoch/cluster/protocol/topic_groups.hpp"

namespace kepoch::cluster::protocol {

Struct make_find_coordinator_request(std::int16_t version, std::int8_t key_type,
                                     const std::vector<std::string>& keys) {
  Struct body = make_request_body(ApiKey::kFindCoordinator);
  body.set_int8("key_type", key_type);
  if (version >= 4) {
    body.set_string_array("coordinator_keys", keys);
  } else if (!keys.empty()) {
    body.set_string("key", keys.front());
  }
  return body;
}

std::vector<Coordinator> coordinators_from(const Struct& body, const std::string& single_key) {
  std::vector<Coordinator> out;
  const Array& listed = body.get_array("coordinators");
  if (listed.empty()) {
    out.push_back({single_key, body.get_int32("node_id"), body.get_string("host"),
                   body.get_int32("port"), body.get_int16("error_code"),
                   body.get_nullable_string("error_message")});
    return out;
  }
  for (const auto& c : listed) {
    const Struct& s = c.as_struct();
    out.push_back({s.get_string("key"), s.get_int32("node_id"), s.get_string("host"),
                   s.get_int32("port"), s.get_int16("error_code"),
                   s.get_nullable_string("error_message")});
  }
  return out;
}

Struct make_describe_producers_request(const std::vector<PartitionQuery>& partitions) {
  Struct body = make_request_body(ApiKey::kDescribeProducers);
  TopicGroups topics(body, "topics", "name");
  for (const auto& p : partitions)
    topics.of(p.topic).mutable_array("partition_indexes").push_back(Value(p.partition));
  return body;
}

std::vector<PartitionProducers> describe_producers_from(const Struct& body) {
  std::vector<PartitionProducers> out;
  for (const auto& t : body.get_array("topics")) {
    const Struct& topic = t.as_struct();
    for (const auto& p : topic.get_array("partitions")) {
      const Struct& e = p.as_struct();
      PartitionProducers pp{topic.get_string("name"),
                            e.get_int32("partition_index"),
                            e.get_int16("error_code"),
                            e.get_nullable_string("error_message"),
                            {}};
      for (const auto& a : e.get_array("active_producers")) {
        const Struct& s = a.as_struct();
        pp.active_producers.push_back({s.get_int64("producer_id"), s.get_int32("producer_epoch"),
                                       s.get_int32("last_sequence"), s.get_int64("last_timestamp"),
                                       s.get_int32("coordinator_epoch"),
                                       s.get_int64("current_txn_start_offset")});
      }
      out.push_back(std::move(pp));
    }
  }
  return out;
}

Struct make_list_transactions_request(const std::vector<std::int64_t>& producer_ids,
                                      const std::vector<std::string>& states) {
  Struct body = make_request_body(ApiKey::kListTransactions);
  body.set_string_array("state_filters", states);
  Array& ids = body.mutable_array("producer_id_filters");
  for (auto id : producer_ids)
    ids.push_back(Value(id));
  return body;
}

ListTransactionsResult list_transactions_from(const Struct& body) {
  ListTransactionsResult out;
  out.error_code = body.get_int16("error_code");
  for (const auto& t : body.get_array("transaction_states")) {
    const Struct& s = t.as_struct();
    out.transactions.push_back({s.get_string("transactional_id"), s.get_int64("producer_id"),
                                s.get_string("transaction_state")});
  }
  return out;
}

Struct make_describe_transactions_request(const std::vector<std::string>& transactional_ids) {
  Struct body = make_request_body(ApiKey::kDescribeTransactions);
  body.set_string_array("transactional_ids", transactional_ids);
  return body;
}

std::vector<TransactionDescription> describe_transactions_from(const Struct& body) {
  std::vector<TransactionDescription> out;
  for (const auto& t : body.get_array("transaction_states")) {
    const Struct& s = t.as_struct();
    TransactionDescription d{s.get_int16("error_code"),
                             s.get_string("transactional_id"),
                             s.get_string("transaction_state"),
                             s.get_int32("transaction_timeout_ms"),
                             s.get_int64("transaction_start_time_ms"),
                             s.get_int64("producer_id"),
                             s.get_int16("producer_epoch"),
                             {}};
    for (const auto& tp : s.get_array("topics")) {
      const Struct& topic = tp.as_struct();
      for (auto p : topic.get_int32_array("partitions"))
        d.partitions.push_back({topic.get_string("topic"), p});
    }
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace kepoch::cluster::protocol

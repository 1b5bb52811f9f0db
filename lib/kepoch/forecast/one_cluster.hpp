#pragma once
// A plan's inputs are one cluster's brokers: each state is one broker's (its id recorded, or
// given with --ids), no broker twice (Kafka holds one replica of a partition per broker, so
// two states of one broker would count its records twice: the same snapshot given twice,
// or a snapshot and its log dir), and every recorded cluster id the same, the metadata's
// included (another cluster's replicas or partition states say nothing of this one's).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kepoch/forecast/broker_state.hpp"

namespace kepoch::forecast {

// Sets each state's broker from `ids` (in order) when given, then refuses (UsageError) an
// `ids` of another count than the states, a state without a broker id, two states of one
// broker, and two states of different clusters. A state that records no cluster id is not
// compared.
void check_one_cluster(std::vector<BrokerState>& states, const std::vector<std::int32_t>& ids);

// Refuses (UsageError) a state of another cluster than the metadata's; nothing is compared
// when the metadata's cluster is not known (unset or empty).
void check_metadata_cluster(const std::vector<BrokerState>& states,
                            const std::optional<std::string>& metadata_cluster_id);

}  // namespace kepoch::forecast

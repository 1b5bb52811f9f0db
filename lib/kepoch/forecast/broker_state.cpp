#include "kepoch/forecast/broker_state.hpp"

#include <exception>
#include <utility>

#include "kepoch/forecast/recovery_plan.hpp"
#include "kepoch/storage/logdir_scan.hpp"
#include "kepoch/storage/replica_sources.hpp"

namespace kepoch::forecast {

BrokerState load_broker_state(const std::string& argument) {
  ReplicaSource source = load_replica_source(argument);
  BrokerState s;
  s.argument = argument;
  s.broker = source.node_id;
  s.cluster_id = std::move(source.cluster_id);
  s.replicas = std::move(source.replicas);
  s.notes = std::move(source.notes);
  return s;
}

std::vector<BrokerState> load_broker_states(const std::vector<std::string>& arguments,
                                            unsigned jobs) {
  std::vector<BrokerState> states(arguments.size());
  std::vector<std::exception_ptr> errors(arguments.size());
  parallel_for(arguments.size(), jobs, [&](std::size_t i) {
    try {
      states[i] = load_broker_state(arguments[i]);
      for (auto& r : states[i].replicas)
        keep_what_plans_read(r);
    } catch (...) {
      errors[i] = std::current_exception();
    }
  });
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
  return states;
}

}  // namespace kepoch::forecast

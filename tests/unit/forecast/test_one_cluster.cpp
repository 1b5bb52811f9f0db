// A plan's inputs are one cluster's brokers (forecast/one_cluster.hpp).

#include "kepoch/forecast/one_cluster.hpp"

#include <catch2/catch.hpp>

#include "kepoch/base/error.hpp"

using namespace kepoch;
using namespace kepoch::forecast;

namespace {

BrokerState state(std::string argument, std::optional<std::int32_t> broker,
                  std::optional<std::string> cluster) {
  BrokerState s;
  s.argument = std::move(argument);
  s.broker = broker;
  s.cluster_id = std::move(cluster);
  return s;
}

std::string usage_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("one state per broker and every one with an id and --ids in order", "[one_cluster]") {
  std::vector<BrokerState> states = {state("a", 1, "C"), state("b", 2, std::nullopt)};
  CHECK_NOTHROW(check_one_cluster(states, {}));
  // --ids replaces what the states record, in order.
  check_one_cluster(states, {7, 8});
  CHECK(states[0].broker == 7);
  CHECK(states[1].broker == 8);
  CHECK(usage_error([&] { check_one_cluster(states, {1}); }) ==
        "--ids gives 1 broker ids for 2 states");
  std::vector<BrokerState> no_id = {state("a", 1, std::nullopt), state("b/d-0", std::nullopt, {})};
  CHECK(usage_error([&] { check_one_cluster(no_id, {}); }) ==
        "b/d-0: no broker id (no meta.properties with node.id, nor a snapshot that records one); "
        "give the ids with --ids");
  // Kafka holds one replica of a partition per broker: two states of one broker would count
  // its records twice.
  std::vector<BrokerState> twice = {state("b1.snap", 1, "C"), state("b1-again.snap", 1, "C")};
  CHECK(usage_error([&] { check_one_cluster(twice, {}); }) ==
        "b1.snap and b1-again.snap are both broker 1's state (the same snapshot twice?): give "
        "one per broker");
}

TEST_CASE("every recorded cluster id the same: a state that records none is not compared",
          "[one_cluster]") {
  std::vector<BrokerState> mixed = {state("a", 1, std::nullopt), state("b", 2, "C"),
                                    state("c", 3, "D")};
  CHECK(usage_error([&] { check_one_cluster(mixed, {}); }) ==
        "c is of cluster D but b is of cluster C: a plan takes one cluster's brokers");
  std::vector<BrokerState> one = {state("a", 1, std::nullopt), state("b", 2, "C"),
                                  state("c", 3, "C")};
  CHECK_NOTHROW(check_one_cluster(one, {}));
}

TEST_CASE("the metadata's cluster: states of another refused: nothing compared when unknown",
          "[one_cluster]") {
  const std::vector<BrokerState> states = {state("a", 1, std::nullopt), state("b", 2, "C")};
  CHECK_NOTHROW(check_metadata_cluster(states, "C"));
  CHECK_NOTHROW(check_metadata_cluster(states, std::nullopt));
  CHECK_NOTHROW(check_metadata_cluster(states, ""));
  CHECK(usage_error([&] { check_metadata_cluster(states, "D"); }) ==
        "b is of cluster C but the metadata is of cluster D");
}

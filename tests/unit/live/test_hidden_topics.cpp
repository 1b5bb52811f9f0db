// What an authorizer withholds without a word: judged from the principal's cluster
// operations, the topics the brokers' log dirs hold, and Metadata asked for the rest by name.
#include <catch2/catch.hpp>

#include "kepoch/cluster/protocol/describe_cluster.hpp"
#include "kepoch/cluster/protocol/error_codes.hpp"
#include "kepoch/live/hidden_topics.hpp"
#include "kepoch/report/cluster_report.hpp"
#include "kepoch/report/hidden_topics_report.hpp"
#include "kepoch/report/live_groups_report.hpp"

using namespace kepoch;
using namespace kepoch::live;
namespace errors = kepoch::cluster::protocol::errors;

namespace {

constexpr std::int32_t kAll = cluster::protocol::kAllClusterOperations;
constexpr std::int32_t kDescribeOnly = 1 << 8;

LogDirNames dirs(std::set<std::string> topics, std::vector<std::string> unread = {},
                 bool refused = false) {
  return {std::move(topics), std::move(unread), refused};
}

}  // namespace

TEST_CASE("without an authorizer everything is shown", "[live][hidden]") {
  // DescribeAcls answered SECURITY_DISABLED: nothing read beside it is needed.
  const auto h = judge_hidden_topics(true, std::nullopt, std::nullopt, {}, {});
  CHECK(h.ruled_out);
  CHECK(h.topics.empty());
  CHECK_FALSE(h.groups_may_be_withheld);
  CHECK_FALSE(h.may_withhold(std::nullopt));
  CHECK(hidden_topic_warnings(h, std::nullopt, "partitions").empty());
}

TEST_CASE("every cluster operation is not every topic: the log dirs are still compared",
          "[live][hidden]") {
  // A principal allowed All on the cluster, no Describe on topic hidden (Kafka 4.4's
  // StandardAuthorizer: DescribeCluster answers every operation, Metadata leaves hidden out).
  const auto d = dirs({"orders", "hidden"});
  const auto h = judge_hidden_topics(false, kAll, d, undescribed_topics({"orders"}, d),
                                     {{"hidden", errors::kTopicAuthorizationFailed}});
  CHECK(h.ruled_out);
  CHECK_FALSE(h.groups_may_be_withheld);
  CHECK(h.matching(std::nullopt) == std::vector<std::string>{"hidden"});
  // Whether an authorizer runs not known (DescribeAcls unanswered), the log dirs unread:
  // not ruled out, even with every cluster operation.
  const auto unknown = judge_hidden_topics(std::nullopt, kAll, std::nullopt, {}, {});
  CHECK_FALSE(unknown.ruled_out);
  CHECK(unknown.may_withhold(std::regex("orders")));
}

TEST_CASE("a topic the log dirs hold that Metadata refuses by name is withheld", "[live][hidden]") {
  const auto d = dirs({"orders", "hidden", "created", "deleted", "silent"});
  const auto undescribed = undescribed_topics({"orders"}, d);
  CHECK(undescribed == std::vector<std::string>{"created", "deleted", "hidden", "silent"});
  // created: described by name now (created since); deleted: UNKNOWN_TOPIC_OR_PARTITION;
  // silent: not answered (unknown, so withheld).
  const auto h = judge_hidden_topics(false, kDescribeOnly, d, undescribed,
                                     {{"created", 0},
                                      {"deleted", errors::kUnknownTopicOrPartition},
                                      {"hidden", errors::kTopicAuthorizationFailed}});
  CHECK(h.ruled_out);
  CHECK_FALSE(h.groups_may_be_withheld);
  REQUIRE(h.topics.size() == 2);
  CHECK_THAT(h.topics.at("hidden"), Catch::Contains("TOPIC_AUTHORIZATION_FAILED"));
  CHECK_THAT(h.topics.at("silent"), Catch::Contains("did not answer"));
  CHECK(h.may_withhold(std::nullopt));
  CHECK(h.may_withhold(std::regex("hid.*")));
  CHECK_FALSE(h.may_withhold(std::regex("orders")));
  CHECK(h.matching(std::regex("hid.*")) == std::vector<std::string>{"hidden"});
  const auto w = hidden_topic_warnings(h, std::regex("hidden"), "committed offsets");
  REQUIRE(w.size() == 1);
  CHECK_THAT(w[0], Catch::StartsWith("topic hidden is withheld from this principal, its "
                                     "committed offsets are not known: a broker holds its logs"));
}

TEST_CASE("log dirs not read: withheld topics cannot be ruled out", "[live][hidden]") {
  SECTION("refused: no Describe on the cluster, so ListGroups may leave groups out too") {
    const auto h = judge_hidden_topics(
        false, std::nullopt,
        dirs({}, {"DescribeLogDirs on broker 1: CLUSTER_AUTHORIZATION_FAILED"}, true), {}, {});
    CHECK_FALSE(h.ruled_out);
    CHECK(h.groups_may_be_withheld);
    CHECK(h.may_withhold(std::regex("orders")));
    const auto w = hidden_topic_warnings(h, std::nullopt, "partitions");
    REQUIRE(w.size() == 2);
    CHECK_THAT(w[0], Catch::Contains("CLUSTER_AUTHORIZATION_FAILED") &&
                         Catch::Contains("partitions may be missing"));
    CHECK_THAT(w[1], Catch::Contains("ListGroups"));
  }
  SECTION("a broker down, the cluster described: groups listed in full, topics unknown") {
    const auto h = judge_hidden_topics(
        false, kDescribeOnly, dirs({"orders"}, {"DescribeLogDirs on broker 3: timed out"}), {}, {});
    CHECK_FALSE(h.ruled_out);
    CHECK_FALSE(h.groups_may_be_withheld);
  }
  SECTION("operations not read and no log dirs read") {
    const auto h = judge_hidden_topics(false, std::nullopt, std::nullopt, {}, {});
    CHECK_FALSE(h.ruled_out);
    CHECK(h.groups_may_be_withheld);
  }
  SECTION("operations without Describe on the cluster") {
    const auto h = judge_hidden_topics(false, 1 << 7, dirs({"orders"}), {}, {});
    CHECK(h.ruled_out);
    CHECK(h.groups_may_be_withheld);
  }
}

TEST_CASE("cluster groups: a withheld topic makes every group's offsets unknown there",
          "[live][hidden][report]") {
  report::LiveGroups g;
  g.groups = {{"broken", "consumer", "Empty", "classic"}, {"open", "consumer", "Empty", "classic"}};
  g.offsets = {{"broken", 16, {}}, {"open", 0, {{"open", "orders", 0, 2, 5, "", 0}}}};
  const auto value = [&](const std::optional<std::regex>& topic) {
    return report::live_groups_value(g, topic);
  };
  // Nothing withheld except broken's error.
  g.offsets[0].error_code = 0;
  CHECK(report::live_groups_complete(g, std::nullopt));
  CHECK(value(std::nullopt).find("groups")->as_array()[1].find("offsets_unknown")->is_null());

  g.hidden = judge_hidden_topics(false, kDescribeOnly, dirs({"orders", "hidden"}), {"hidden"},
                                 {{"hidden", errors::kTopicAuthorizationFailed}});
  CHECK_FALSE(report::live_groups_complete(g, std::nullopt));
  CHECK(report::live_groups_complete(g, std::regex("orders")));
  const auto v = value(std::nullopt);
  CHECK(report::scalar_text(*v.find("complete")) == "false");
  REQUIRE(v.find("hidden_topics")->as_array().size() == 1);
  const auto& open = v.find("groups")->as_array()[1];
  CHECK(report::scalar_text(*open.find("group")) == "open");
  CHECK_THAT(report::scalar_text(*open.find("offsets_unknown")),
             Catch::Contains("on topic hidden are not known"));
  // A group answered with an error says so in its error; offsets_unknown stays null.
  g.offsets[0].error_code = 16;
  CHECK(value(std::nullopt).find("groups")->as_array()[0].find("offsets_unknown")->is_null());
  // Narrowed to orders: complete, no withheld topic named.
  g.offsets[0].error_code = 0;
  const auto narrowed = value(std::regex("orders"));
  CHECK(report::scalar_text(*narrowed.find("complete")) == "true");
  CHECK(narrowed.find("hidden_topics")->as_array().empty());
  CHECK(narrowed.find("groups")->as_array()[1].find("offsets_unknown")->is_null());

  // ListGroups may have left groups out: incomplete whatever the topic.
  g.hidden = judge_hidden_topics(false, 1 << 7, dirs({"orders"}), {}, {});
  CHECK_FALSE(report::live_groups_complete(g, std::regex("orders")));
}

TEST_CASE("cluster describe names the withheld topics matching --topic", "[live][hidden][report]") {
  live::ClusterView view;
  view.cluster_id = "abc";
  const auto h = judge_hidden_topics(false, kDescribeOnly, dirs({"hidden"}), {"hidden"},
                                     {{"hidden", errors::kTopicAuthorizationFailed}});
  const auto base = report::cluster_describe_value(view, {});
  const auto v = report::with_hidden_topics(base, h, std::nullopt, "partitions");
  // The fields sit before "problems", which stays last.
  const auto& members = v.as_object();
  REQUIRE(members.size() == base.as_object().size() + 2);
  CHECK(members.back().first == "problems");
  CHECK(members[members.size() - 3].first == "hidden_topics");
  REQUIRE(v.find("hidden_topics")->as_array().size() == 1);
  CHECK(report::scalar_text(*v.find("hidden_topics_ruled_out")) == "true");
  CHECK(v.find("problems")->as_array().size() == 1);
  CHECK(report::hidden_topics_sentence(h, std::nullopt, "partitions") ==
        "Topic hidden is withheld from this principal: its partitions are not known.");
  const auto narrowed = report::with_hidden_topics(base, h, std::regex("orders"), "partitions");
  CHECK(report::hidden_topics_sentence(h, std::regex("orders"), "partitions").empty());
  CHECK(narrowed.find("hidden_topics")->as_array().empty());
  CHECK(narrowed.find("problems")->as_array().empty());
}

TEST_CASE("a report with a plain warnings list gets the warnings as strings",
          "[live][hidden][report]") {
  const auto h = judge_hidden_topics(false, std::nullopt, std::nullopt, {}, {});
  const auto base = report::Value::object()
                        .set("transactions", report::Value::array())
                        .set("warnings", report::Value::array().push("w1"));
  const auto v = report::with_hidden_topics(base, h, std::nullopt, "open transactions");
  const auto& members = v.as_object();
  REQUIRE(members.size() == 4);
  CHECK(members[1].first == "hidden_topics");
  CHECK(report::scalar_text(*v.find("hidden_topics_ruled_out")) == "false");
  const auto& w = v.find("warnings")->as_array();
  REQUIRE(w.size() == 3);
  CHECK(report::scalar_text(w[0]) == "w1");
  CHECK_THAT(report::scalar_text(w[1]), Catch::Contains("open transactions may be missing"));
  CHECK(v.find("problems") == nullptr);
}

TEST_CASE("a report that opens with a verdict says the withheld topics in it",
          "[live][hidden][report]") {
  // cluster hanging's first line: "No transaction hangs" would read as all clear while the
  // exit status counts the withheld topic.
  const auto h = judge_hidden_topics(false, kDescribeOnly, dirs({"hidden"}), {"hidden"},
                                     {{"hidden", errors::kTopicAuthorizationFailed}});
  const auto base = report::Value::object()
                        .set("summary", "No open transaction hangs.")
                        .set("warnings", report::Value::array());
  const auto v = report::with_hidden_topics(base, h, std::nullopt, "open transactions");
  CHECK(v.as_object().front().first == "summary");
  CHECK(report::scalar_text(*v.find("summary")) ==
        "No open transaction hangs. Topic hidden is withheld from this principal: its open "
        "transactions are not known.");
  // Nothing withheld under --topic: the verdict as it was.
  const auto narrowed =
      report::with_hidden_topics(base, h, std::regex("orders"), "open transactions");
  CHECK(report::scalar_text(*narrowed.find("summary")) == "No open transaction hangs.");
}

// Every KRaft metadata record type and version of Kafka's schemas, read as Kafka writes and
// prints it. The table of types and version ranges, tests/unit/data/metadata-schemas/
// versions.tsv, is generated from Kafka's own schema files
// (metadata/src/main/resources/common/metadata/*.json of 3.9.1, 4.0.2, 4.1.1, 4.2.2, 4.3.2
// and 4.4.0, as packed
// in kafka-metadata-<version>.jar) by lib/kepoch/format/gen_metadata_schema.py, the same run
// that writes kepoch's schema table (metadata_schema_table.inc). The vectors,
// vectors.jsonl, were serialized by Kafka 4.4.0's MetadataRecordSerde and printed by its
// MetadataJsonConverters.writeJson (DumpLogSegments --cluster-metadata-decoder's "data"):
// tests/metadata/gen-metadata-vectors, two per type and version ("full": every field set,
// tagged ones included; "defaults": nullable fields null, tagged ones left out).
// Pinned: MetadataRecordSerde.read (AbstractApiMessageSerde) and each generated
// <Name>Record.read, through kepoch's `metadata dump` fields (report::metadata_fields).
#include <catch2/catch.hpp>
#include "support/source_dir.hpp"

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "kepoch/format/metadata_record.hpp"
#include "kepoch/format/metadata_schema.hpp"
#include "kepoch/report/metadata_report.hpp"
#include "kepoch/report/render.hpp"

namespace {

using namespace kepoch;
using nlohmann::json;

std::string data_path(const std::string& name) {
  return std::string(KEPOCH_SOURCE_DIR) + "/tests/unit/data/metadata-schemas/" + name;
}

struct VersionRange {
  std::string release;
  int api_key;
  std::string record;
  int first;
  int last;
};

std::vector<VersionRange> version_table() {
  std::ifstream in(data_path("versions.tsv"));
  std::vector<VersionRange> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line.starts_with("release\t")) continue;
    std::istringstream row(line);
    VersionRange r;
    row >> r.release >> r.api_key >> r.record >> r.first >> r.last;
    out.push_back(r);
  }
  return out;
}

std::map<std::tuple<int, int, std::string>, json> vectors() {
  std::ifstream in(data_path("vectors.jsonl"));
  std::map<std::tuple<int, int, std::string>, json> out;
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) {
      json v = json::parse(line);
      out[{v["api_key"].get<int>(), v["version"].get<int>(), v["case"].get<std::string>()}] = v;
    }
  return out;
}

std::vector<std::uint8_t> from_hex(const std::string& hex) {
  std::vector<std::uint8_t> out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
    out.push_back(static_cast<std::uint8_t>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  return out;
}

// Kafka's JSON field names (camelCase) as kepoch prints them (snake_case).
json snake(const json& v) {
  static const std::regex upper("([a-z0-9])([A-Z])");
  if (v.is_object()) {
    json out = json::object();
    for (const auto& [k, x] : v.items()) {
      std::string name = std::regex_replace(k, upper, "$1_$2");
      for (auto& c : name)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      out[name] = snake(x);
    }
    return out;
  }
  if (v.is_array()) {
    json out = json::array();
    for (const auto& x : v)
      out.push_back(snake(x));
    return out;
  }
  return v;
}

// kepoch's fields against Kafka's: every field Kafka printed is kepoch's (bytes are kepoch's
// "(redacted)"), and a field kepoch prints that Kafka left out (a tagged field at its
// default) holds that default.
void same_fields(const json& kafka, const json& ours, const std::string& where) {
  INFO(where << "\n  Kafka:  " << kafka.dump() << "\n  kepoch: " << ours.dump());
  REQUIRE(ours.is_object());
  for (const auto& [k, v] : kafka.items()) {
    REQUIRE(ours.contains(k));
    if (ours[k] == "(redacted)") continue;
    if (v.is_array() && !v.empty() && v[0].is_object()) {
      REQUIRE(ours[k].size() == v.size());
      for (std::size_t i = 0; i < v.size(); ++i)
        same_fields(v[i], ours[k][i], where + "." + k);
      continue;
    }
    CHECK(ours[k] == v);
  }
  static const std::map<std::string, json> defaults = {
      {"leader_recovery_state", 0},     {"eligible_leader_replicas", nullptr},
      {"last_known_elr", nullptr},      {"log_dirs", json::array()},
      {"directories", json::array()},   {"is_migrating_zk_broker", false},
      {"in_controlled_shutdown", false}};
  for (const auto& [k, v] : ours.items()) {
    if (kafka.contains(k)) continue;
    INFO("field " << k << " not printed by Kafka");
    REQUIRE(defaults.count(k) == 1);
    CHECK(defaults.at(k) == v);
  }
}

}  // namespace

TEST_CASE("The schema table holds every type and version of Kafka's newest schemas",
          "[format][MetadataSchema]") {
  const auto table = version_table();
  REQUIRE_FALSE(table.empty());
  const std::string newest = table.back().release;
  CHECK(newest == "4.4.0");
  std::set<std::tuple<int, int, int>> want, ours;
  for (const auto& r : table)
    if (r.release == newest) want.insert({r.api_key, r.first, r.last});
  for (const auto& s : metadata_record_schemas())
    ours.insert({s.api_key, s.first_version, s.last_version});
  CHECK(ours == want);
  // ClearElrRecord (4.1+) and UnregisterControllerRecord (4.4): Kafka's names.
  CHECK(metadata_record_type_name(28) == "CLEAR_ELR_RECORD");
  CHECK(metadata_record_type_name(29) == "UNREGISTER_CONTROLLER_RECORD");
  CHECK(metadata_record_type_name(30) == "UNKNOWN(30)");
}

TEST_CASE("Every record type and version Kafka 3.9 to 4.4 writes decodes as Kafka prints it",
          "[format][MetadataSchema]") {
  const auto all = vectors();
  std::size_t checked = 0;
  for (const auto& r : version_table()) {
    for (int version = r.first; version <= r.last; ++version) {
      for (const std::string c : {"full", "defaults"}) {
        const std::string where =
            r.release + " " + r.record + " v" + std::to_string(version) + " (" + c + ")";
        INFO(where);
        const auto it = all.find({r.api_key, version, c});
        REQUIRE(it != all.end());
        const json& v = it->second;
        const auto bytes = from_hex(v["hex"].get<std::string>());
        const MetadataRecord record = decode_metadata_record(bytes, 0);
        CHECK(record.api_key == static_cast<std::uint32_t>(r.api_key));
        CHECK(record.version == static_cast<std::uint32_t>(version));
        CHECK(metadata_record_type_name(record.api_key) == v["type"].get<std::string>());
        REQUIRE(record.decoded());
        CHECK(record.notes.empty());
        std::ostringstream out;
        report::render_json(report::metadata_fields(record), out);
        same_fields(snake(v["kafka"]), json::parse(out.str()), where);
        ++checked;
      }
    }
  }
  // 27 types; RegisterBroker 0-4, PartitionRecord and PartitionChange 0-2,
  // BrokerRegistrationChange 0-3: 38 type-versions of 4.4.0, 2 cases each, and the older
  // releases' rows again.
  CHECK(checked >= 76);
}

TEST_CASE("RegisterBrokerRecord v4 and BrokerRegistrationChangeRecord v3 register brokers",
          "[format][MetadataSchema]") {
  const auto all = vectors();
  const auto reg = decode_metadata_record(from_hex(all.at({0, 4, "full"})["hex"]), 0);
  const auto* r = std::get_if<RegisterBrokerRecord>(&reg.body);
  REQUIRE(r != nullptr);
  CHECK(r->broker_id == 70000);
  CHECK(r->broker_epoch == 5000000000);
  CHECK(r->is_migrating_zk_broker);
  CHECK(r->endpoints.size() == 2);
  CHECK(r->log_dirs.size() == 2);
  REQUIRE(r->cordoned_log_dirs);
  CHECK(r->cordoned_log_dirs->size() == 2);
  const auto plain = decode_metadata_record(from_hex(all.at({0, 4, "defaults"})["hex"]), 0);
  CHECK_FALSE(std::get<RegisterBrokerRecord>(plain.body).cordoned_log_dirs);

  const auto change = decode_metadata_record(from_hex(all.at({17, 3, "full"})["hex"]), 0);
  const auto* c = std::get_if<BrokerRegistrationChangeRecord>(&change.body);
  REQUIRE(c != nullptr);
  CHECK(c->broker_id == 70000);
  CHECK(c->fenced == 7);
  REQUIRE(c->cordoned_log_dirs);
  CHECK(c->cordoned_log_dirs->size() == 2);

  const auto clear = decode_metadata_record(from_hex(all.at({28, 0, "full"})["hex"]), 0);
  REQUIRE(std::holds_alternative<ClearElrRecord>(clear.body));
  CHECK(std::get<ClearElrRecord>(clear.body).topic_name == "TopicName-0");
}

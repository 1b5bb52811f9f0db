// Pins replay's selection (forecast/replay): control records never (a COMMIT or ABORT marker
// produced as data would be a record no consumer ever read), aborted and open transactions
// and records the new leader holds only when asked; and the progress file's round trip.
#include <catch2/catch.hpp>

#include <sstream>

#include "kepoch/base/error.hpp"
#include "kepoch/forecast/replay.hpp"

using namespace kepoch;
using namespace kepoch::forecast;

namespace {
ArchivedRecord record(SalvageClass kind, std::optional<bool> present = false) {
  ArchivedRecord r;
  r.topic = "orders";
  r.partition = 3;
  r.offset = 42;
  r.leader_epoch = 7;
  r.kind = kind;
  r.present = present;
  return r;
}
}  // namespace

TEST_CASE("Replay selects data and committed transactions not on the new leader",
          "[forecast][replay]") {
  const ReplaySelection by_default;
  CHECK(replay_skip(record(SalvageClass::data), by_default) == ReplaySkip::none);
  CHECK(replay_skip(record(SalvageClass::committed_transaction), by_default) == ReplaySkip::none);
  CHECK(replay_skip(record(SalvageClass::aborted), by_default) == ReplaySkip::aborted);
  CHECK(replay_skip(record(SalvageClass::open), by_default) == ReplaySkip::open);
  CHECK(replay_skip(record(SalvageClass::control), by_default) == ReplaySkip::control);
  CHECK(replay_skip(record(SalvageClass::data, true), by_default) == ReplaySkip::present);
  // Unknown presence is not presence: replayed.
  CHECK(replay_skip(record(SalvageClass::data, std::nullopt), by_default) == ReplaySkip::none);

  ReplaySelection all;
  all.include_aborted = all.include_open = all.include_present = true;
  CHECK(replay_skip(record(SalvageClass::aborted), all) == ReplaySkip::none);
  CHECK(replay_skip(record(SalvageClass::open), all) == ReplaySkip::none);
  CHECK(replay_skip(record(SalvageClass::data, true), all) == ReplaySkip::none);
  CHECK(replay_skip(record(SalvageClass::control), all) == ReplaySkip::control);  // never
  CHECK(salvaged_from(record(SalvageClass::data)) == "orders-3@42:7");
}

TEST_CASE("The progress file reads back and anything else is refused", "[forecast][replay]") {
  std::ostringstream out;
  write_replay_progress(out, {"lost.jsonl", 1234, "", 17, false});
  std::istringstream in(out.str());
  const ArchiveReplayProgress p = read_replay_progress(in, "lost.jsonl.progress");
  CHECK(p.archive == "lost.jsonl");
  CHECK(p.archive_bytes == 1234);
  CHECK(p.done == 17);
  CHECK_FALSE(p.complete);
  std::istringstream other(R"({"format":"kepoch-salvage-archive","version":1})");
  CHECK_THROWS_AS(read_replay_progress(other, "x"), InputError);
}

TEST_CASE("A dry run reads the whole archive and counts, producing nothing", "[forecast][replay]") {
  const std::string archive =
      R"({"format":"kepoch-salvage-archive","version":1,"written_by":"t"})"
      "\n"
      R"({"topic":"t","partition":0,"offset":5,"leader_epoch":1,"timestamp":1,"timestamp_type":"create_time","key":null,"value":"YQ==","headers":[],"producer_id":-1,"producer_epoch":-1,"sequence":-1,"transactional":false,"class":"data","control_type":null,"committed":true,"on_new_leader":{"present":false,"by":null,"certainty":"certain"},"replica":"r"})"
      "\n"
      R"({"topic":"t","partition":0,"offset":6,"leader_epoch":1,"timestamp":1,"timestamp_type":"create_time","key":"AAA=","value":"AAA=","headers":[],"producer_id":7,"producer_epoch":0,"sequence":-1,"transactional":true,"class":"control","control_type":"commit","committed":true,"on_new_leader":{"present":false,"by":null,"certainty":"certain"},"replica":"r"})"
      "\n"
      R"({"end":{"records":2}})"
      "\n";
  std::istringstream in(archive);
  std::atomic<bool> stop{false};
  const ReplayCounts c = replay_archive(
      in, "a.jsonl", {}, 0, nullptr, 0, [](std::uint64_t) {}, nullptr, stop);
  CHECK(c.dry_run);
  CHECK(c.records == 2);
  CHECK(c.selected == 1);
  CHECK(c.skipped_control == 1);
  CHECK(c.delivered == 0);
  CHECK(c.done == 2);
}

TEST_CASE(
    "A progress file of the wrong types or a negative count is refused, never read as another "
    "count",
    "[forecast][replay]") {
  const auto refused = [](const std::string& text) {
    std::istringstream in(text);
    try {
      read_replay_progress(in, "p");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string start = R"({"format":"kepoch-replay-progress","version":1,"archive":"a",)";
  CHECK(refused(start + R"("archive_bytes":9,"target":"","done":-1,"complete":false})")
            .find(R"("done": expected a whole number, found -1)") != std::string::npos);
  CHECK(refused(start + R"("archive_bytes":"9","target":"","done":1,"complete":false})")
            .find("archive_bytes") != std::string::npos);
  CHECK(
      refused(R"({"format":"kepoch-replay-progress","version":"1"})").find("expected version 1") !=
      std::string::npos);
  CHECK(refused(R"({"format":7})").find("kepoch-replay-progress") != std::string::npos);
  CHECK(refused(std::string(2u << 20, 'x')).find("at most") != std::string::npos);
  CHECK(refused(start + R"("archive_bytes":9,"target":"","done":3,"complete":false})").empty());
}

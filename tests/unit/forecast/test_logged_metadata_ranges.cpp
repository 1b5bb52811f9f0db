// The metadata log read in ranges (read_logged_metadata's range_slots: the first pass keeps
// which partitions there are, then one pass per range of the log's order keeps that range's
// partitions): with a budget of a few partitions, the partitions handed to the plan, in
// order, the brokers, the configs and the problems are the one-pass read's, on logs written
// here that delete and re-create topics (under their names and under another id), restate and
// change partitions out of order, clear ELR by name and for all, name a topic after its
// partitions, change a partition no record created; and on tests/data/metadata. The plan's
// report from ranged metadata is byte for byte the one-pass one's.

#include <fmt/format.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "kepoch/base/crc32c.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/forecast/logged_metadata.hpp"
#include "kepoch/forecast/plan_metadata.hpp"
#include "support/logged_partition_checks.hpp"
#include "support/source_dir.hpp"

using namespace kepoch;
using namespace kepoch::forecast;
namespace fs = std::filesystem;

namespace {

using Bytes = std::vector<std::uint8_t>;

void uvarint(Bytes& b, std::uint64_t v) {
  while (v >= 0x80) {
    b.push_back(static_cast<std::uint8_t>(v | 0x80));
    v >>= 7;
  }
  b.push_back(static_cast<std::uint8_t>(v));
}
void varint(Bytes& b, std::int64_t v) {
  uvarint(b, (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63));
}
template <typename T>
void be(Bytes& b, T v) {
  for (int i = static_cast<int>(sizeof(T)) - 1; i >= 0; --i)
    b.push_back(static_cast<std::uint8_t>(static_cast<std::uint64_t>(v) >> (8 * i)));
}
void ints(Bytes& b, const std::vector<std::int32_t>& v) {
  uvarint(b, v.size() + 1);
  for (const auto x : v)
    be(b, x);
}
void text(Bytes& b, const std::string& s) {
  uvarint(b, s.size() + 1);
  b.insert(b.end(), s.begin(), s.end());
}
Bytes uuid(int n) {
  Bytes b(16, 0);
  b[0] = 0x40;
  b[15] = static_cast<std::uint8_t>(n);
  b[14] = static_cast<std::uint8_t>(n >> 8);
  return b;
}
Bytes frame(int api, int version) {
  Bytes b;
  uvarint(b, 1);
  uvarint(b, static_cast<std::uint64_t>(api));
  uvarint(b, static_cast<std::uint64_t>(version));
  return b;
}
void tagged(Bytes& b, const std::vector<std::pair<int, Bytes>>& tags) {
  uvarint(b, tags.size());
  for (const auto& [tag, v] : tags) {
    uvarint(b, static_cast<std::uint64_t>(tag));
    uvarint(b, v.size());
    b.insert(b.end(), v.begin(), v.end());
  }
}
Bytes list(const std::vector<std::int32_t>& v) {
  Bytes b;
  ints(b, v);
  return b;
}

// The records (values), as Kafka's serde writes them.
Bytes register_broker(std::int32_t id, bool fenced) {
  Bytes b = frame(0, 0);
  be(b, id);
  Bytes inc = uuid(900 + id);
  b.insert(b.end(), inc.begin(), inc.end());
  be(b, std::int64_t{1});
  uvarint(b, 1);  // endpoints: none
  uvarint(b, 1);  // features: none
  uvarint(b, 0);  // rack: null
  b.push_back(fenced ? 1 : 0);
  tagged(b, {});
  return b;
}
Bytes topic_record(const std::string& name, int id) {
  Bytes b = frame(2, 0);
  text(b, name);
  const Bytes u = uuid(id);
  b.insert(b.end(), u.begin(), u.end());
  tagged(b, {});
  return b;
}
Bytes partition_record(int id, std::int32_t p, const std::vector<std::int32_t>& replicas,
                       const std::vector<std::int32_t>& isr, std::int32_t leader,
                       std::int32_t epoch, const std::vector<std::int32_t>& elr) {
  Bytes b = frame(3, 2);
  be(b, p);
  const Bytes u = uuid(id);
  b.insert(b.end(), u.begin(), u.end());
  ints(b, replicas);
  ints(b, isr);
  ints(b, {});
  ints(b, {});
  be(b, leader);
  be(b, epoch);
  be(b, std::int32_t{0});
  uvarint(b, 1);  // directories: none
  std::vector<std::pair<int, Bytes>> tags;
  if (!elr.empty()) tags.push_back({1, list(elr)});
  tagged(b, tags);
  return b;
}
Bytes partition_change(int id, std::int32_t p, std::optional<std::vector<std::int32_t>> isr,
                       std::optional<std::int32_t> leader,
                       std::optional<std::vector<std::int32_t>> elr) {
  Bytes b = frame(5, 2);
  be(b, p);
  const Bytes u = uuid(id);
  b.insert(b.end(), u.begin(), u.end());
  std::vector<std::pair<int, Bytes>> tags;
  if (isr) tags.push_back({0, list(*isr)});
  if (leader) {
    Bytes l;
    be(l, *leader);
    tags.push_back({1, l});
  }
  if (elr) tags.push_back({6, list(*elr)});
  tagged(b, tags);
  return b;
}
Bytes remove_topic(int id) {
  Bytes b = frame(9, 0);
  const Bytes u = uuid(id);
  b.insert(b.end(), u.begin(), u.end());
  tagged(b, {});
  return b;
}
Bytes clear_elr(const std::string& name) {
  Bytes b = frame(28, 0);
  text(b, name);
  tagged(b, {});
  return b;
}

// One segment of batches of up to 7 records.
void write_log(const fs::path& dir, const std::vector<Bytes>& values) {
  fs::create_directories(dir);
  std::ofstream out(dir / "00000000000000000000.log", std::ios::binary);
  for (std::size_t from = 0; from < values.size(); from += 7) {
    const std::size_t n = std::min<std::size_t>(7, values.size() - from);
    Bytes records;
    for (std::size_t i = 0; i < n; ++i) {
      Bytes body;
      body.push_back(0);
      varint(body, 0);
      varint(body, static_cast<std::int64_t>(i));
      varint(body, -1);
      varint(body, static_cast<std::int64_t>(values[from + i].size()));
      body.insert(body.end(), values[from + i].begin(), values[from + i].end());
      uvarint(body, 0);
      varint(records, static_cast<std::int64_t>(body.size()));
      records.insert(records.end(), body.begin(), body.end());
    }
    Bytes after;
    be(after, std::int16_t{0});
    be(after, static_cast<std::int32_t>(n - 1));
    be(after, std::int64_t{1'700'000'000'000});
    be(after, std::int64_t{1'700'000'000'000});
    be(after, std::int64_t{-1});
    be(after, std::int16_t{-1});
    be(after, std::int32_t{-1});
    be(after, static_cast<std::int32_t>(n));
    after.insert(after.end(), records.begin(), records.end());
    Bytes batch;
    be(batch, static_cast<std::int64_t>(from));
    be(batch, static_cast<std::int32_t>(after.size() + 9));
    be(batch, std::int32_t{1});
    batch.push_back(2);
    be(batch, crc32c(after));
    batch.insert(batch.end(), after.begin(), after.end());
    out.write(reinterpret_cast<const char*>(batch.data()),
              static_cast<std::streamsize>(batch.size()));
  }
}

struct Scratch {
  fs::path dir;
  Scratch() {
    static int n = 0;
    dir = fs::temp_directory_path() /
          fmt::format("kepoch-ranges-{}-{}", static_cast<long>(::getpid()), n++);
    fs::remove_all(dir);
  }
  ~Scratch() { fs::remove_all(dir); }
};

// Every range's partitions, in order.
std::vector<LoggedPartition> all_of(LoggedPartitions p) {
  std::vector<LoggedPartition> out;
  do {
    for (std::size_t i = 0; i < p.size(); ++i)
      out.push_back(p.at(i));
  } while (p.ranged() && p.next_range());
  return out;
}

using test::same_partition;

// The read with each budget against the one-pass read; how many reads were ranged.
int same_in_ranges(const fs::path& dir, const TopicSelection& selection,
                   std::vector<std::size_t> budgets = {1, 2, 3, 5, 8, 13, 40}) {
  const LoggedMetadata whole = read_logged_metadata(dir, selection);
  REQUIRE_FALSE(whole.compact.ranged());
  const std::vector<LoggedPartition> want = all_of(whole.compact);
  int ranged = 0;
  for (const auto budget : budgets) {
    INFO("range_slots " << budget);
    const LoggedMetadata m = read_logged_metadata(dir, selection, {}, budget);
    ranged += m.compact.ranged() ? 1 : 0;
    CHECK(m.live == whole.live);
    CHECK(m.node_configs == whole.node_configs);
    CHECK(m.problems == whole.problems);
    const std::vector<LoggedPartition> got = all_of(m.compact);
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i)
      same_partition(got[i], want[i]);
  }
  return ranged;
}

// A log of topics created, changed, deleted and re-created, out of partition order.
std::vector<Bytes> made_up_log(unsigned seed, bool rename) {
  std::mt19937 rng(seed);
  const auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  std::vector<Bytes> v;
  for (std::int32_t b = 1; b <= 5; ++b)
    v.push_back(register_broker(b, b == 4));
  const std::vector<std::string> names = {"a", "b", "bb", "c", "__consumer_offsets"};
  int next_id = 1;
  std::vector<std::pair<std::string, int>> live;  // name, id
  std::map<int, int> partitions_of;
  for (int step = 0; step < 160; ++step) {
    const int what = pick(10);
    if (what < 2 || live.empty()) {  // a topic (again, under its name: a new id)
      const std::string name = names[static_cast<std::size_t>(pick(5))];
      const int id = next_id++;
      v.push_back(topic_record(name, id));
      live.push_back({name, id});
      const int n = 1 + pick(9);
      partitions_of[id] = n;
      for (int k = 0; k < n; ++k) {  // out of partition order
        const std::int32_t p = (k * 5 + 3) % n;
        std::vector<std::int32_t> replicas = {1 + pick(5), 1 + pick(5), 1 + pick(5)};
        v.push_back(partition_record(
            id, p, replicas, {replicas[0]}, replicas[0], pick(3),
            pick(3) == 0 ? std::vector<std::int32_t>{replicas[1]} : std::vector<std::int32_t>{}));
      }
    } else if (what < 6) {  // a change
      const auto& [name, id] = live[static_cast<std::size_t>(pick(static_cast<int>(live.size())))];
      const std::int32_t p = pick(partitions_of[id] + 1);  // sometimes one no record created
      std::optional<std::vector<std::int32_t>> isr;
      std::optional<std::int32_t> leader;
      std::optional<std::vector<std::int32_t>> elr;
      if (pick(2)) isr = std::vector<std::int32_t>{1 + pick(5)};
      if (pick(2)) leader = pick(4) == 0 ? -1 : 1 + pick(5);
      if (pick(4) == 0) elr = std::vector<std::int32_t>{1 + pick(5), 1 + pick(5)};
      v.push_back(partition_change(id, p, isr, leader, elr));
    } else if (what == 6) {  // a restatement
      const auto& [name, id] = live[static_cast<std::size_t>(pick(static_cast<int>(live.size())))];
      v.push_back(partition_record(id, pick(partitions_of[id]), {2, 3, 1}, {2, 3}, 2, 7, {}));
    } else if (what == 7) {  // a deletion (its partitions changed after it, at times)
      const std::size_t k = static_cast<std::size_t>(pick(static_cast<int>(live.size())));
      const int id = live[k].second;
      v.push_back(remove_topic(id));
      if (pick(3) == 0) v.push_back(partition_change(id, 0, std::vector<std::int32_t>{1}, 1, {}));
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
    } else if (what == 8) {  // ELR cleared, by name or for all (or a name no topic has)
      const int k = pick(7);
      v.push_back(clear_elr(k < 5 ? names[static_cast<std::size_t>(k)] : k == 5 ? "" : "none"));
    } else {  // brokers fenced and back
      v.push_back(register_broker(1 + pick(5), pick(2) == 0));
    }
  }
  // A topic named after its partitions: its PartitionRecord before its TopicRecord.
  v.push_back(partition_record(500, 0, {1, 2, 3}, {1}, 1, 0, {}));
  v.push_back(partition_record(500, 1, {1, 2, 3}, {1}, 1, 0, {}));
  v.push_back(topic_record("zz", 500));
  v.push_back(partition_change(500, 1, std::nullopt, 2, std::nullopt));
  if (rename) v.push_back(partition_record(500, 2, {1, 2, 3}, {1}, 1, 0, {}));  // under "zz"
  return v;
}

}  // namespace

TEST_CASE("the metadata log read in ranges hands the plan what one pass does",
          "[logged_metadata]") {
  SECTION("made-up logs: re-created topics, removals, restatements, ELR changes and clears") {
    int ranged = 0;
    for (unsigned seed = 1; seed <= 12; ++seed) {
      INFO("seed " << seed);
      Scratch s;
      const fs::path dir = s.dir / "__cluster_metadata-0";
      write_log(dir, made_up_log(seed, false));
      ranged += same_in_ranges(dir, {});
      ranged += same_in_ranges(dir, {std::regex("b.*"), false}, {2, 7});
      ranged += same_in_ranges(dir, {std::nullopt, true}, {3});
    }
    CHECK(ranged > 100);  // the small budgets did read in ranges
  }
  SECTION("a topic's partitions created under two names: one range, the same partitions") {
    Scratch s;
    const fs::path dir = s.dir / "__cluster_metadata-0";
    write_log(dir, made_up_log(3, true));
    same_in_ranges(dir, {});
  }
  SECTION("a log appended to between the passes (a live controller): what the first read") {
    Scratch s;
    const fs::path dir = s.dir / "__cluster_metadata-0";
    const std::vector<Bytes> first = made_up_log(5, false);
    write_log(dir, first);
    const LoggedMetadata whole = read_logged_metadata(dir, {});
    const std::vector<LoggedPartition> want = all_of(whole.compact);
    LoggedMetadata m = read_logged_metadata(dir, {}, {}, 2);
    REQUIRE(m.compact.ranged());
    std::vector<Bytes> grown = first;  // the same records, then a leader change and a topic
    grown.push_back(partition_change(500, 1, std::nullopt, 3, std::nullopt));
    grown.push_back(topic_record("zzz", 501));
    grown.push_back(partition_record(501, 0, {1, 2, 3}, {1}, 1, 0, {}));
    write_log(dir, grown);
    const std::vector<LoggedPartition> got = all_of(m.compact);
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i)
      same_partition(got[i], want[i]);
    // A log cut since the first pass is another log: refused, never read as this one.
    LoggedMetadata cut = read_logged_metadata(dir, {}, {}, 2);
    REQUIRE(cut.compact.ranged());
    write_log(dir, std::vector<Bytes>(first.begin(), first.begin() + 10));
    CHECK_THROWS_AS(all_of(cut.compact), InputError);
  }
  SECTION("tests/data/metadata") {
    const fs::path dir = fs::path(KEPOCH_SOURCE_DIR) / "tests/data/metadata";
    CHECK(same_in_ranges(dir, {}) > 0);
  }
}

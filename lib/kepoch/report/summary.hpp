#pragma once
// The verdict of a report in one or two plain sentences, for the person on call: what
// happens, to which replica, and whether committed data is at stake ("broker-1/d-0
// truncates to 5: loses 3 records, none committed"). The table renderer prints it first;
// JSON and YAML carry it as the report's "summary" field.
//
// One function per report shape, each reading the report it summarises (so the sentence
// can never say other than the fields do). A sentence never sounds safe when the report
// leaves the verdict open: a null committed_loss, an unanswered question, an unreadable log
// dir or a warning about what could not be read all say so.

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "kepoch/report/value.hpp"
#include "kepoch/storage/log_segment_reader.hpp"

namespace kepoch {
// Declared only: partition_history.hpp names the metadata record types, which this header's
// includers (beside epoch/election) must not see.
struct PartitionTimeline;
struct PartitionStep;
struct DumpedBatch;
}  // namespace kepoch

namespace kepoch::report {

// `report` (an object) with "summary": sentence as its first member. When the report has a
// "summary" object already (the counts of `cluster predict` and `cluster what-if`), the
// sentence becomes that object's first member, "text", so the shape scripts read is kept.
Value with_summary(Value report, std::string sentence);

// The sentence of a summarised report: "summary" as a string, or "summary"."text"; or null.
const Value* summary_text(const Value& report);

// `predict` (predict_report.hpp; with --elect, its "election" too).
std::string predict_summary(const Value& predict_report);
// `diff` (diff_report.hpp).
std::string diff_summary(const Value& diff_report);
// `predict` and `diff` over log dirs or snapshots (paired_report.hpp): the partitions
// counted by verdict, the worst named. Its sections are summarised already.
std::string paired_predict_summary(const Value& paired_report);
std::string paired_diff_summary(const Value& paired_report);
// `partition verify` (verify_report.hpp): one replica.
std::string verify_summary(const Value& verify_report);
// `partition inspect` (partition_report.hpp; with --metadata, its "controller"): the
// replica's offsets, segments, high watermark and latest epoch, whether its checkpoint
// agrees with the batches; an epoch the controller never issued (exit 1) leads.
std::string inspect_summary(const Value& inspect_report);
// `logdir scan` (scan_report.hpp); `unreadable`: the log dirs left out of it.
std::string scan_summary(const Value& scan_report, std::size_t unreadable);
// `cluster predict` (restart_report.hpp).
std::string restart_summary(const Value& restart_report);
// `cluster what-if` (what_if_report.hpp).
std::string what_if_summary(const Value& what_if_report);

// `segment dump` of one .log: what it holds and its damage, gathered batch by batch from
// the very walk that decides the exit code (every field below is one of its facts).
struct SegmentFacts {
  std::uint64_t batches = 0;
  std::uint64_t records = 0;  // the batches' record counts (a legacy entry: 1)
  std::uint64_t control_batches = 0;
  std::uint64_t transactional_batches = 0;
  std::optional<std::int64_t> first_offset, last_offset;
  std::optional<std::int32_t> min_epoch, max_epoch;   // partition leader epochs (v2 batches)
  std::optional<std::int64_t> first_time, last_time;  // smallest and largest batch timestamp
  std::uint64_t invalid_batches = 0;                  // Kafka's ensureValid fails (CRC, size, ...)
  std::optional<std::int64_t> first_invalid_offset;
  std::uint64_t record_errors =
      0;  // records or control/coordinator/tiered records that do not decode
  std::optional<std::int64_t> first_record_error_offset;
  LogEnd end;
  bool stopped_early = false;                  // --max-batches reached
  bool filtered = false;                       // --from-offset or a time range chose the batches
  bool nothing_selected = false;               // the filters chose none of the file's batches
  std::optional<std::string> unloadable_name;  // why Kafka cannot load a segment of its name
  // The records are decoded after the sentence is said (as they are printed, in one walk):
  // these facts come from the batches' headers and checksums alone, and the closing
  // sentence (segment_records_summary) says whether every record decodes.
  bool records_later = false;

  // One batch as the walk met it.
  void add(const DumpedBatch& batch);
  // Whether the dump exits 1 (the sentence opens with the damage then).
  bool findings() const;
};
// `file` is the name the report gives the file.
std::string segment_summary(const std::string& file, const SegmentFacts& facts);
// The closing sentence of a dump whose records were decoded after its opening sentence
// (SegmentFacts::records_later): `printed` are the facts of the walk that decoded them.
std::string segment_records_summary(const SegmentFacts& printed);

// `metadata dump`: what the metadata log holds, gathered record by record in a walk before
// the dump is written (the records the time range selects; `problems` decide exit 1).
struct MetadataDumpFacts {
  std::uint64_t read = 0;      // every record the walk visited
  std::uint64_t selected = 0;  // those in the time range (all without one)
  std::optional<std::int64_t> first_offset, last_offset;  // of the selected records
  std::optional<std::int64_t> first_time, last_time;      // smallest and largest timestamp
  std::optional<std::int32_t> last_epoch;  // the Raft epoch of the last selected record's batch
  std::uint64_t undecoded = 0;             // selected records that do not decode
  bool filtered = false;                   // a time range chose the records
  bool snapshot = false;                   // the target is a KRaft snapshot (.checkpoint)

  void add(std::int64_t offset, std::int64_t timestamp, std::int32_t epoch, bool decoded);
};
// `problems`: the walk's (invalid batches, corrupt tails, undecodable records, nothing
// selected); any of them is exit 1 and leads the sentence.
std::string metadata_dump_summary(const std::string& target, const MetadataDumpFacts& facts,
                                  const std::vector<std::string>& problems);

// `metadata history`: which partitions changed leader how often and where the unclean
// elections were, from the replayed steps' typed fields (leader, causes), in the order the
// replay hands them on.
class HistoryTally {
 public:
  // Every step of the replay; `shown`: the step is in the report (within the time range).
  void step(const PartitionTimeline& partition, const PartitionStep& step, bool shown);
  // `partitions`: how many the report lists; `problems`: the report's problems (exit 1).
  std::string sentence(std::size_t partitions, const std::vector<std::string>& problems) const;

 private:
  struct Partition {
    std::string name;
    std::size_t elections = 0;  // a new leader (leader_change, unclean_election) shown
    bool leaderless = false;    // its last step left it without a leader
    bool deleted = false;
    bool shown = false;  // a step of it is in the report
  };
  struct Unclean {
    std::string name;
    std::int64_t offset = -1;  // -1: in the snapshot the replay started from
    std::int32_t leader = -1;
  };
  std::map<std::tuple<std::string, std::int32_t>, Partition> partitions_;
  std::vector<Unclean> unclean_;
};

// `profile list`: how many profiles the config file names and which one is current
// ({"file", "current_profile", "profiles": [{"name", ...}]}).
std::string profile_list_summary(const Value& list_report);
// `profile show`: where the profile reaches (its bootstrap brokers, the security protocol and
// SASL mechanism, the user) and how many secret values show as ***. Built from the report,
// whose values are redacted already (cluster/redaction.hpp), so it cannot say a secret.
std::string profile_show_summary(const Value& show_report);
// `profile use` ({"file", "current_profile", "previous_profile"}).
std::string profile_use_summary(const Value& use_report);
// `logdir snapshot --file` ({"file", "broker", "log_dirs", "replicas", "batches",
// "kept_batches", "skipped": [{"dir", "reason", "unreadable"}]}): what was written, and first
// the replicas left out because they could not be read (exit 1: not the whole broker).
std::string logdir_snapshot_summary(const Value& snapshot_report);

// A replica dir as the sentences name it: its last two path components ("broker-1/d-0"),
// enough to tell brokers apart without the common prefix.
std::string replica_name(std::string_view dir);

}  // namespace kepoch::report

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
#include <string>
#include <string_view>

#include "kepoch/report/value.hpp"

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
// `logdir scan` (scan_report.hpp); `unreadable`: the log dirs left out of it.
std::string scan_summary(const Value& scan_report, std::size_t unreadable);
// `cluster predict` (restart_report.hpp).
std::string restart_summary(const Value& restart_report);
// `cluster what-if` (what_if_report.hpp).
std::string what_if_summary(const Value& what_if_report);

// A replica dir as the sentences name it: its last two path components ("broker-1/d-0"),
// enough to tell brokers apart without the common prefix.
std::string replica_name(std::string_view dir);

}  // namespace kepoch::report

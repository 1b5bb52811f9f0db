#include "kepoch/report/hidden_topics_report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kepoch/report/summary.hpp"

namespace kepoch::report {

Value hidden_topics_value(const live::HiddenTopics& hidden,
                          const std::optional<std::regex>& topic) {
  Value out = Value::array();
  for (const auto& name : hidden.matching(topic))
    out.push(Value::object().set("topic", name).set("reason", hidden.topics.at(name)));
  return out;
}

Value with_hidden_topics(const Value& report, const live::HiddenTopics& hidden,
                         const std::optional<std::regex>& topic, const std::string& what) {
  // The report's own list: "problems" ({"severity", "message"} each) or "warnings" (strings).
  const bool plain = !report.find("problems") && report.find("warnings");
  const std::string list_key = plain ? "warnings" : "problems";
  Value list = Value::array();
  if (const Value* p = report.find(list_key))
    for (const auto& v : p->as_array())
      list.push(v);
  for (const auto& w : live::hidden_topic_warnings(hidden, topic, what))
    list.push(plain ? Value(w) : Value::object().set("severity", "warning").set("message", w));
  Value out = Value::object();
  const auto add = [&] {
    out.set("hidden_topics", hidden_topics_value(hidden, topic));
    out.set("hidden_topics_ruled_out", hidden.ruled_out);
    out.set(list_key, list);
  };
  for (const auto& [k, v] : report.as_object()) {
    if (k == list_key) {
      add();
    } else {
      out.set(k, v);
    }
  }
  if (!report.find(list_key)) add();
  // A report that opens with a verdict says it too: its exit status counts the withheld
  // topics, so the first line must not read as all clear.
  const Value* text = summary_text(out);
  const std::string hidden_sentence = hidden_topics_sentence(hidden, topic, what);
  if (text && !hidden_sentence.empty())
    out = with_summary(std::move(out), scalar_text(*text) + " " + hidden_sentence);
  return out;
}

std::string hidden_topics_sentence(const live::HiddenTopics& hidden,
                                   const std::optional<std::regex>& topic,
                                   const std::string& what) {
  const auto names = hidden.matching(topic);
  if (!names.empty())
    return fmt::format("{} {} {} withheld from this principal: {} {} are not known.",
                       names.size() == 1 ? "Topic" : "Topics", fmt::join(names, ", "),
                       names.size() == 1 ? "is" : "are", names.size() == 1 ? "its" : "their", what);
  if (!hidden.ruled_out)
    return fmt::format(
        "Topics withheld from this principal cannot be ruled out: their {} may be missing.", what);
  return "";
}

}  // namespace kepoch::report

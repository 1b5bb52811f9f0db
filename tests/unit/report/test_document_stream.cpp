// A document written piece by piece (document_stream.hpp) is the same text, byte for byte,
// as render() of the whole value, in every format: lists of flat rows (a table), rows with a
// long list (blocks), empty lists, long inline values, problems on the error stream.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "kepoch/report/document_stream.hpp"
#include "kepoch/report/render.hpp"

using kepoch::report::Format;
using kepoch::report::RenderOptions;
using kepoch::report::TableLayoutBuilder;
using kepoch::report::Value;

namespace {

Value ids(std::initializer_list<std::int64_t> list) {
  Value v = Value::array();
  for (auto i : list)
    v.push(i);
  return v;
}

Value step(std::int64_t offset, Value replicas, const std::string& record) {
  return Value::object()
      .set("offset", offset)
      .set("snapshot", Value())
      .set("record", record)
      .set("causes", Value::array().push("leader_change").push("isr_shrink"))
      .set("leader", 2)
      .set("replicas", std::move(replicas));
}

Value partition(const std::string& topic, std::int64_t p, std::vector<Value> steps) {
  Value list = Value::array();
  for (auto& s : steps)
    list.push(std::move(s));
  return Value::object()
      .set("topic", topic)
      .set("partition", p)
      .set("last_led_epoch", Value())
      .set("steps", std::move(list));
}

Value sample(bool empty_lists) {
  Value files = Value::array();
  for (int i = 0; i < 6; ++i)
    files.push("/var/lib/kafka/meta/__cluster_metadata-0/0000000000000000000" + std::to_string(i) +
               ".log");
  Value partitions = Value::array();
  Value brokers = Value::array();
  if (!empty_lists) {
    Value many = Value::array();
    for (int i = 0; i < 40; ++i)
      many.push(i);  // longer than a table cell holds inline: the steps become blocks
    partitions.push(partition("orders", 0,
                              {step(5, ids({1, 2, 3}), "PARTITION_RECORD"),
                               step(1234567, ids({1, 2}), "PARTITION_CHANGE_RECORD")}));
    partitions.push(partition("t \"quoted\"\n", 1,
                              {step(7, ids({3}), "PARTITION_RECORD"),
                               step(8, std::move(many), "PARTITION_CHANGE_RECORD")}));
    for (int i = 0; i < 3; ++i)
      brokers.push(Value::object()
                       .set("offset", i * 1000)
                       .set("broker_id", i)
                       .set("event", i ? "fenced" : "registered_with_a_long_name")
                       .set("fenced", i == 1));
  }
  return Value::object()
      .set("target", "/var/lib/kafka/meta")
      .set("files", std::move(files))
      .set("start", Value::object().set("rule", "log_start").set("notes", Value::array()))
      .set("partitions", std::move(partitions))
      .set("brokers", std::move(brokers))
      .set("problems",
           Value::array().push(Value::object().set("severity", "error").set("message", "gap")));
}

// `doc` written through a DocumentStream, its lists element by element.
void stream(const Value& doc, Format format, const RenderOptions& options, std::ostream& out,
            std::ostream& err) {
  Value outline = Value::object();
  for (const auto& [k, v] : doc.as_object())
    outline.set(k, (k == "partitions" || k == "brokers") && !v.as_array().empty()
                       ? Value::array().push(Value::object())
                       : v);
  auto s = kepoch::report::make_document_stream(format, out, err, options, outline);
  for (const auto& [k, v] : doc.as_object()) {
    if (k == "partitions") {
      s->begin_list(k, {});
      for (const auto& p : v.as_array()) {
        Value leading = Value::object();
        TableLayoutBuilder rows;
        for (const auto& [pk, pv] : p.as_object()) {
          if (pk != "steps") leading.set(pk, pv);
        }
        for (const auto& r : p.find("steps")->as_array())
          rows.add(r);
        s->begin_element(leading, "steps", rows.layout());
        for (const auto& r : p.find("steps")->as_array())
          s->element(r);
        s->end_element();
      }
      s->end_list();
    } else if (k == "brokers") {
      TableLayoutBuilder rows;
      for (const auto& r : v.as_array())
        rows.add(r);
      s->begin_list(k, rows.layout());
      for (const auto& r : v.as_array())
        s->element(r);
      s->end_list();
    } else {
      s->member(k, v);
    }
  }
  s->finish();
}

}  // namespace

TEST_CASE("A document written piece by piece is render()'s text of the whole, in every format",
          "[report][DocumentStream]") {
  for (const bool empty : {false, true}) {
    for (const Format format : {Format::table, Format::json, Format::yaml, Format::jsonl}) {
      for (const bool wide : {false, true}) {
        if (wide && format != Format::table) continue;
        RenderOptions options;
        options.wide = wide;
        const Value doc = sample(empty);
        std::ostringstream whole_out, whole_err, parts_out, parts_err;
        kepoch::report::render(doc, format, whole_out, whole_err, options);
        stream(doc, format, options, parts_out, parts_err);
        INFO("format " << static_cast<int>(format) << " wide " << wide << " empty " << empty);
        CHECK(parts_out.str() == whole_out.str());
        CHECK(parts_err.str() == whole_err.str());
      }
    }
  }
}

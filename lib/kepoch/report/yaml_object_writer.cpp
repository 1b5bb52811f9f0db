#include "kepoch/report/yaml_object_writer.hpp"

#include <charconv>
#include <cstdint>

namespace kepoch::report::detail {

void YamlObjectWriter::key(std::string_view k) {
  if (pending_) {
    emitter_.begin_map();
    pending_ = false;
  }
  emitter_.string(k);
}

void YamlObjectWriter::close() {
  if (pending_) {
    emitter_.begin_map(/*flow=*/true);
    pending_ = false;
  }
  emitter_.end_map();
}

// Each scalar member after a map's first goes as one line when its key is plain (all of a
// report's keys): the emitter's general path decides the same thing per call.
bool YamlObjectWriter::plain_key(std::string_view k) const {
  // Fibonacci hashing of the address (literals sit a few bytes apart), plus the size.
  const auto slot = static_cast<std::size_t>(
      ((reinterpret_cast<std::uintptr_t>(k.data()) + k.size()) * 0x9E3779B97F4A7C15ull) >>
      (64 - kPlainKeySlotBits));
  PlainKey& cached = plain_keys_[slot];
  if (cached.name.empty() || cached.name != k) {  // an empty key is never cached
    if (k.empty()) return yaml_plain_ok(k);
    cached.name.assign(k);
    cached.plain = yaml_plain_ok(k);
  }
  return cached.plain;
}

void YamlObjectWriter::null(std::string_view k) {
  if (simple_member(k)) return emitter_.scalar_member(k, "~");
  key(k);
  emitter_.null();
}

void YamlObjectWriter::boolean(std::string_view k, bool v) {
  if (simple_member(k)) return emitter_.scalar_member(k, v ? "true" : "false");
  key(k);
  emitter_.boolean(v);
}

void YamlObjectWriter::integer(std::string_view k, std::int64_t v) {
  if (simple_member(k)) {
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, v).ptr;
    return emitter_.scalar_member(k,
                                  std::string_view(digits, static_cast<std::size_t>(end - digits)));
  }
  key(k);
  emitter_.integer(v);
}

void YamlObjectWriter::string(std::string_view k, std::string_view v) {
  const bool quoted = needs_quotes(v);
  if (!quoted && yaml_plain_ok(v) && simple_member(k)) return emitter_.scalar_member(k, v);
  key(k);
  emitter_.string(v, quoted);
}

void YamlObjectWriter::value(std::string_view k, const Value& v) {
  key(k);
  emit_yaml(emitter_, v);
}

const YamlObjectWriter::RenderedRun& YamlObjectWriter::rendered(const MemberNames& names) {
  const std::size_t column = emitter_.key_column();
  for (const RenderedRun& r : runs_)
    if (names.same(r.names) && r.column == column) return r;
  RenderedRun& r = runs_.emplace_back(RenderedRun{names.names(), column, {}});
  for (const std::string_view name : names.names()) {
    if (name.size() > 1024 || !yaml_plain_ok(name)) {  // a long or quoted key
      r.lines.clear();
      break;
    }
    std::string line(1, '\n');
    line.append(column, ' ');
    line += name;
    line += ": ";
    r.lines.push_back(std::move(line));
  }
  return r;
}

// The first member may begin the map ("- key: value" in a list): written as one member;
// the rest as lines rendered once per depth.
void YamlObjectWriter::integers(const MemberNames& names, std::span<const std::int64_t> values) {
  std::size_t i = 0;
  if ((pending_ || !emitter_.at_next_simple_key()) && !values.empty()) {
    integer(names.names()[0], values[0]);
    i = 1;
  }
  const RenderedRun& run = rendered(names);
  if (run.lines.empty() || !emitter_.at_next_simple_key()) {
    for (; i < values.size(); ++i)
      integer(names.names()[i], values[i]);
    return;
  }
  emitter_.integer_members(std::span(run.lines).subspan(i), values.subspan(i));
}

void YamlObjectWriter::begin_objects(std::string_view k) {
  if (pending_) {
    emitter_.begin_map();
    pending_ = false;
  }
  list_key_ = k;
  objects_ = 0;
}

void YamlObjectWriter::begin_object() {
  if (objects_++ == 0) {
    emitter_.string(list_key_);
    emitter_.begin_seq();
  }
  pending_ = true;
}

void YamlObjectWriter::end_object() {
  close();
}

void YamlObjectWriter::end_objects() {
  if (objects_ == 0) {
    emitter_.string(list_key_);
    emitter_.begin_seq(/*flow=*/true);
  }
  emitter_.end_seq();
}

}  // namespace kepoch::report::detail

#include "kepoch/report/yaml_object_writer.hpp"

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

void YamlObjectWriter::null(std::string_view k) {
  key(k);
  emitter_.null();
}

void YamlObjectWriter::boolean(std::string_view k, bool v) {
  key(k);
  emitter_.boolean(v);
}

void YamlObjectWriter::integer(std::string_view k, std::int64_t v) {
  key(k);
  emitter_.integer(v);
}

void YamlObjectWriter::string(std::string_view k, std::string_view v) {
  key(k);
  emitter_.string(v, needs_quotes(v));
}

void YamlObjectWriter::value(std::string_view k, const Value& v) {
  key(k);
  emit_yaml(emitter_, v);
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

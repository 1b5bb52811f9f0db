#pragma once
// How Kafka fails on a file it cannot use, named by the Java exception it raises. The
// class matters more than the message: checked IOExceptions go through Kafka's
// LogDirFailureChannel (the log dir goes offline); unchecked exceptions escape to whoever
// was reading, with effects that depend on which file it was (see storage/checkpoint_check).

#include <string>

namespace kepoch {

enum class JavaFailureClass {
  io_exception,  // java.io.IOException (wrapped by Kafka in KafkaStorageException)
  unchecked,     // NumberFormatException, IllegalArgumentException, NullPointerException, ...
};

struct JavaFailure {
  JavaFailureClass failure_class = JavaFailureClass::io_exception;
  int line = 0;               // 1-based line Kafka was reading; 0 when not tied to a line
  std::string exception;      // Java class name, e.g. "java.io.IOException"
  std::string kafka_message;  // Kafka's own text (path as given to kepoch)
  std::string explanation;    // kepoch's words: what was expected and what was found
};

}  // namespace kepoch

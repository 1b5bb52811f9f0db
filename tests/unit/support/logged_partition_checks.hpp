#pragma once
// One partition of the compact metadata replay (forecast/logged_metadata) against another,
// field by field: the replay against the reference replay, and the read in key ranges against
// the one-pass read.

#include <catch2/catch.hpp>

#include "kepoch/forecast/logged_metadata.hpp"

namespace test {

inline void same_partition(const kepoch::forecast::LoggedPartition& a,
                           const kepoch::forecast::LoggedPartition& b) {
  INFO(b.topic << "-" << b.partition);
  CHECK(a.topic == b.topic);
  CHECK(a.topic_id == b.topic_id);
  CHECK(a.partition == b.partition);
  CHECK(a.replicas == b.replicas);
  CHECK(a.isr == b.isr);
  CHECK(a.elr == b.elr);
  CHECK(a.last_known_elr == b.last_known_elr);
  CHECK(a.leader == b.leader);
  CHECK(a.leader_epoch == b.leader_epoch);
  CHECK(a.issued == b.issued);
  CHECK(a.unclean.has_value() == b.unclean.has_value());
  if (a.unclean && b.unclean) CHECK(a.unclean->value == b.unclean->value);
  CHECK(a.min_isr.has_value() == b.min_isr.has_value());
  if (a.min_isr && b.min_isr) CHECK(a.min_isr->value == b.min_isr->value);
}

}  // namespace test

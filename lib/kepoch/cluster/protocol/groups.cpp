#include "kepoch/cluster/protocol/groups.hpp"

#include "kepoch/cluster/protocol/messages.hpp"

namespace kepoch::cluster::protocol {

Struct make_list_groups_request() {
  return make_request_body(ApiKey::kListGroups);
}

ListGroupsResult list_groups_from(const Struct& body) {
  ListGroupsResult out;
  out.error_code = body.get_int16("error_code");
  for (const auto& g : body.get_array("groups")) {
    const Struct& s = g.as_struct();
    out.groups.push_back({s.get_string("group_id"), s.get_string("protocol_type"),
                          s.get_string("group_state"), s.get_string("group_type")});
  }
  return out;
}

Struct make_offset_fetch_request(std::int16_t version, const std::vector<std::string>& groups) {
  Struct body = make_request_body(ApiKey::kOffsetFetch);
  if (version >= 8) {
    for (const auto& g : groups)
      body.add_element("groups").set_string("group_id", g).set_null("topics");
  } else {
    if (!groups.empty()) body.set_string("group_id", groups.front());
    body.set_null("topics");
  }
  return body;
}

namespace {

void add_topics(const Array& topics, const std::string& group, GroupOffsets& out) {
  for (const auto& t : topics) {
    const Struct& topic = t.as_struct();
    for (const auto& p : topic.get_array("partitions")) {
      const Struct& e = p.as_struct();
      out.offsets.push_back({group, topic.get_string("name"), e.get_int32("partition_index"),
                             e.get_int64("committed_offset"), e.get_int32("committed_leader_epoch"),
                             e.get_nullable_string("metadata"), e.get_int16("error_code")});
    }
  }
}

}  // namespace

std::vector<GroupOffsets> offset_fetch_from(const Struct& body, const std::string& single_group) {
  std::vector<GroupOffsets> out;
  const Array& groups = body.get_array("groups");
  if (groups.empty()) {
    GroupOffsets g{single_group, body.get_int16("error_code"), {}};
    add_topics(body.get_array("topics"), single_group, g);
    out.push_back(std::move(g));
    return out;
  }
  for (const auto& gv : groups) {
    const Struct& s = gv.as_struct();
    GroupOffsets g{s.get_string("group_id"), s.get_int16("error_code"), {}};
    add_topics(s.get_array("topics"), g.group_id, g);
    out.push_back(std::move(g));
  }
  return out;
}

}  // namespace kepoch::cluster::protocol

// Reads an OTF2 archive back for the trace builder's own tests: the global
// definitions as plain structs, each location's clock offsets and its
// events as one line of text per event, with raw (uncorrected) timestamps.
// The describe:: functions produce the same lines from expected values.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <otf2/otf2.h>

namespace hindsight::testing {

struct ReadTrace {
    struct Clock {
        std::uint64_t ticks_per_second = 0, global_offset = 0, length = 0;
    };
    struct Paradigm {
        std::string name;
        OTF2_ParadigmClass paradigm_class;
    };
    struct Node {
        std::string name, class_name;
        OTF2_SystemTreeNodeRef parent;
        std::vector<OTF2_SystemTreeDomain> domains;
    };
    struct LocationGroup {
        std::string name;
        OTF2_LocationGroupType type;
        OTF2_SystemTreeNodeRef parent;
    };
    struct Location {
        std::string name;
        OTF2_LocationType type;
        std::uint64_t events;
        OTF2_LocationGroupRef group;
    };
    struct Region {
        std::string name, canonical_name, file;
        OTF2_RegionRole role;
        OTF2_Paradigm paradigm;
    };
    struct Group {
        OTF2_GroupType type;
        OTF2_Paradigm paradigm;
        std::vector<std::uint64_t> members;
    };
    struct Comm {
        std::string name;
        OTF2_GroupRef group;
        OTF2_CommRef parent;
    };
    struct ClockOffset {
        std::uint64_t time;
        std::int64_t offset;
        double stddev;
    };

    int clock_definitions = 0;  // CLOCK_PROPERTIES records seen
    Clock clock;
    std::map<OTF2_StringRef, std::string> strings;
    std::map<OTF2_Paradigm, Paradigm> paradigms;
    std::map<OTF2_SystemTreeNodeRef, Node> nodes;
    std::map<OTF2_LocationGroupRef, LocationGroup> location_groups;
    std::map<OTF2_LocationRef, Location> locations;
    std::map<OTF2_RegionRef, Region> regions;
    std::map<OTF2_GroupRef, Group> groups;
    std::map<OTF2_CommRef, Comm> comms;
    std::map<OTF2_LocationRef, std::vector<ClockOffset>> clock_offsets;
    std::map<OTF2_LocationRef, std::vector<std::string>> events;

    // Region definition by name; throws when there is none.
    const Region& region(const std::string& name) const;
};

// Throws hindsight::Error when OTF2 cannot read the archive.
ReadTrace read_trace(const std::filesystem::path& anchor_file);

namespace describe {
using T = std::uint64_t;
std::string program_begin(T t, const std::string& name);
std::string program_end(T t, std::int64_t status);
std::string enter(T t, const std::string& region);
std::string leave(T t, const std::string& region);
std::string send(T t, std::uint32_t to, std::uint32_t comm, std::uint32_t tag, std::uint64_t bytes);
std::string recv(T t, std::uint32_t from, std::uint32_t comm, std::uint32_t tag,
                 std::uint64_t bytes);
std::string isend(T t, std::uint32_t to, std::uint32_t comm, std::uint32_t tag, std::uint64_t bytes,
                  std::uint64_t request);
std::string isend_complete(T t, std::uint64_t request);
std::string irecv_request(T t, std::uint64_t request);
std::string irecv(T t, std::uint32_t from, std::uint32_t comm, std::uint32_t tag,
                  std::uint64_t bytes, std::uint64_t request);
std::string request_test(T t, std::uint64_t request);
std::string request_cancelled(T t, std::uint64_t request);
std::string collective_begin(T t);
// `root` OTF2_UNDEFINED_UINT32 reads "root=none".
std::string collective_end(T t, OTF2_CollectiveOp op, std::uint32_t comm, std::uint32_t root,
                           std::uint64_t sent, std::uint64_t received);
std::string unknown(T t);
}  // namespace describe

}  // namespace hindsight::testing

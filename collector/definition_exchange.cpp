#include "collector/definition_exchange.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <unordered_map>

#include "common/error.hpp"

namespace hindsight::collect {

// --- serialization: a flat little-endian byte stream -------------------------

namespace {

class Writer {
public:
    void u64(std::uint64_t v) { put(&v, sizeof v); }
    void i32(std::int32_t v) { put(&v, sizeof v); }
    void str(const std::string& s) {
        u64(s.size());
        put(s.data(), s.size());
    }
    void ints(const std::vector<int>& v) {
        u64(v.size());
        for (int x : v) i32(x);
    }
    std::vector<std::byte> take() { return std::move(out_); }

private:
    void put(const void* p, std::size_t n) {
        const auto* b = static_cast<const std::byte*>(p);
        out_.insert(out_.end(), b, b + n);
    }
    std::vector<std::byte> out_;
};

class Reader {
public:
    Reader(std::span<const std::byte> in, int rank) : in_(in), rank_(rank) {}
    std::uint64_t u64() { std::uint64_t v; get(&v, sizeof v); return v; }
    std::int32_t i32() { std::int32_t v; get(&v, sizeof v); return v; }
    std::string str() {
        const std::uint64_t n = count(1);
        std::string s(n, '\0');
        get(s.data(), n);
        return s;
    }
    std::vector<int> ints() {
        std::vector<int> v(count(4));
        for (int& x : v) x = i32();
        return v;
    }
    // A length prefix, checked against what is left.
    std::size_t count(std::size_t element_size) {
        const std::uint64_t n = u64();
        if (n > (in_.size() - pos_) / element_size) fail();
        return static_cast<std::size_t>(n);
    }
    bool done() const { return pos_ == in_.size(); }
    [[noreturn]] void fail() const {
        throw Error("rank " + std::to_string(rank_), "malformed local definitions");
    }

private:
    void get(void* p, std::size_t n) {
        if (n > in_.size() - pos_) fail();
        std::memcpy(p, in_.data() + pos_, n);
        pos_ += n;
    }
    std::span<const std::byte> in_;
    std::size_t pos_ = 0;
    int rank_;
};

}  // namespace

std::vector<std::byte> serialize(const LocalDefinitions& defs) {
    Writer w;
    w.str(defs.hostname);
    w.u64(defs.event_count);
    w.u64(defs.regions.size());
    for (const RegionDef& r : defs.regions) {
        w.str(r.name);
        w.str(r.canonical_name);
        w.u64(r.role);
        w.u64(r.paradigm);
        w.str(r.file);
    }
    w.u64(defs.comms.size());
    for (const CommRecord& c : defs.comms) {
        w.u64(c.key);
        w.u64(c.parent);
        w.str(c.creator);
        w.u64(c.inter ? 1 : 0);
        w.ints(c.members);
        w.ints(c.remote_members);
    }
    return w.take();
}

LocalDefinitions deserialize(std::span<const std::byte> bytes, int rank) {
    Reader r(bytes, rank);
    LocalDefinitions defs;
    defs.hostname = r.str();
    defs.event_count = r.u64();
    defs.regions.resize(r.count(1));
    for (RegionDef& d : defs.regions) {
        d.name = r.str();
        d.canonical_name = r.str();
        d.role = static_cast<OTF2_RegionRole>(r.u64());
        d.paradigm = static_cast<OTF2_Paradigm>(r.u64());
        d.file = r.str();
    }
    defs.comms.resize(r.count(1));
    for (CommRecord& c : defs.comms) {
        c.key = r.u64();
        c.parent = r.u64();
        c.creator = r.str();
        c.inter = r.u64() != 0;
        c.members = r.ints();
        c.remote_members = r.ints();
    }
    if (!r.done()) r.fail();
    return defs;
}

// --- unification -------------------------------------------------------------

namespace {

struct GroupTable {
    std::vector<GlobalGroup>& groups;
    std::map<std::vector<std::uint64_t>, std::uint32_t> index{};

    std::uint32_t of(const std::vector<int>& world_ranks) {
        std::vector<std::uint64_t> members(world_ranks.begin(), world_ranks.end());
        const auto it = index.find(members);
        if (it != index.end()) return it->second;
        const auto id = static_cast<std::uint32_t>(groups.size());
        groups.push_back({OTF2_GROUP_TYPE_COMM_GROUP, members});
        index.emplace(std::move(members), id);
        return id;
    }
};

std::string region_key(const RegionDef& r) {
    return std::to_string(static_cast<int>(r.paradigm)) + ':' + r.canonical_name + ':' + r.name;
}

}  // namespace

UnifiedDefinitions unify(const std::vector<LocalDefinitions>& ranks) {
    UnifiedDefinitions out;
    const auto nranks = ranks.size();

    // Regions, in order of first appearance.
    std::unordered_map<std::string, std::uint64_t> region_ids;
    for (const LocalDefinitions& rank : ranks) {
        auto& map = out.region_maps.emplace_back();
        for (const RegionDef& r : rank.regions) {
            auto [it, added] = region_ids.emplace(region_key(r), out.regions.size());
            if (added) out.regions.push_back(r);
            map.push_back(it->second);
        }
    }

    // Nodes and locations.
    std::map<std::string, std::uint32_t> node_ids;
    for (const LocalDefinitions& rank : ranks) {
        auto [it, added] = node_ids.emplace(rank.hostname, static_cast<std::uint32_t>(out.nodes.size()));
        if (added) out.nodes.push_back(rank.hostname);
        out.node_of_rank.push_back(it->second);
        out.events_of_rank.push_back(rank.event_count);
    }

    // Groups: the locations, MPI_COMM_SELF's, then one per member list.
    GlobalGroup locations{OTF2_GROUP_TYPE_COMM_LOCATIONS, {}};
    for (std::uint64_t r = 0; r < nranks; ++r) locations.members.push_back(r);
    out.groups.push_back(std::move(locations));
    out.groups.push_back({OTF2_GROUP_TYPE_COMM_SELF, {}});
    constexpr std::uint32_t kSelfGroup = 1;
    GroupTable groups{out.groups};

    // Communicators: one per key, the first description seen wins (every
    // member describes the same members and parent).
    std::map<CommKey, const CommRecord*> by_key;
    for (const LocalDefinitions& rank : ranks) {
        for (const CommRecord& c : rank.comms) by_key.emplace(c.key, &c);
    }
    std::map<CommKey, std::uint32_t> comm_ids;
    for (const auto& [key, record] : by_key) comm_ids.emplace(key, static_cast<std::uint32_t>(comm_ids.size()));
    for (const auto& [key, record] : by_key) {
        GlobalComm comm;
        if (key == kWorldKey) {
            comm.name = "MPI_COMM_WORLD";
            comm.group = groups.of(record->members);
        } else if (key == kSelfKey) {
            comm.name = "MPI_COMM_SELF";
            comm.group = kSelfGroup;
        } else {
            comm.name = record->creator;
            // An inter-communicator becomes one COMM over both groups (this
            // side's first): OTF2 readers, the Python bindings among them,
            // do not all read INTER_COMM definitions.
            std::vector<int> all = record->members;
            all.insert(all.end(), record->remote_members.begin(), record->remote_members.end());
            comm.group = groups.of(all);
            const auto parent = comm_ids.find(record->parent);
            if (parent != comm_ids.end()) comm.parent = parent->second;
        }
        out.comms.push_back(std::move(comm));
    }
    for (const LocalDefinitions& rank : ranks) {
        auto& map = out.comm_maps.emplace_back();
        for (const CommRecord& c : rank.comms) map.push_back(comm_ids.at(c.key));
    }
    return out;
}

// --- writing -------------------------------------------------------------------

namespace {

// Strings are written before everything that refers to them: a first pass
// collects them, the second looks them up (and refuses unknown ones).
class StringTable {
public:
    OTF2_StringRef ref(const std::string& s) {
        const auto it = ids_.find(s);
        if (it != ids_.end()) return it->second;
        if (frozen_) throw Error("", "string '" + s + "' missing from the definitions");
        const auto id = static_cast<OTF2_StringRef>(order_.size());
        ids_.emplace(s, id);
        order_.push_back(s);
        return id;
    }
    void write(OTF2_GlobalDefWriter* w) {
        for (std::size_t i = 0; i < order_.size(); ++i) {
            OTF2_GlobalDefWriter_WriteString(w, static_cast<OTF2_StringRef>(i), order_[i].c_str());
        }
        frozen_ = true;
    }

private:
    std::unordered_map<std::string, OTF2_StringRef> ids_;
    std::vector<std::string> order_;
    bool frozen_ = false;
};

const std::string kMachine = "Linux";  // Score-P's default machine name

std::string rank_name(std::size_t rank) { return "MPI Rank " + std::to_string(rank); }

void collect_strings(StringTable& s, const UnifiedDefinitions& d, const std::string& program) {
    s.ref("");
    s.ref(program);
    for (const char* fixed : {"machine", "node", "MPI", "Master thread", "Comm ${id}"}) s.ref(fixed);
    s.ref(kMachine);
    for (const auto& node : d.nodes) s.ref(node);
    for (std::size_t r = 0; r < d.node_of_rank.size(); ++r) s.ref(rank_name(r));
    for (const auto& r : d.regions) {
        s.ref(r.name);
        s.ref(r.canonical_name);
        s.ref(r.file);
    }
    for (const auto& c : d.comms) s.ref(c.name);
}

}  // namespace

void write_global_definitions(OTF2_GlobalDefWriter* w, const UnifiedDefinitions& d,
                              const ClockWindow& clock, const std::string& program) {
    StringTable s;
    collect_strings(s, d, program);
    OTF2_GlobalDefWriter_WriteClockProperties(w, clock.ticks_per_second, clock.global_offset, clock.length,
                                              clock.realtime);
    s.write(w);
    OTF2_GlobalDefWriter_WriteParadigm(w, OTF2_PARADIGM_MPI, s.ref("MPI"), OTF2_PARADIGM_CLASS_PROCESS);
    OTF2_AttributeValue name_template;
    name_template.stringRef = s.ref("Comm ${id}");
    OTF2_GlobalDefWriter_WriteParadigmProperty(w, OTF2_PARADIGM_MPI, OTF2_PARADIGM_PROPERTY_COMM_NAME_TEMPLATE,
                                               OTF2_TYPE_STRING, name_template);

    // System tree: machine -> node (host name) -> "MPI Rank N" -> "Master thread".
    OTF2_GlobalDefWriter_WriteSystemTreeNode(w, 0, s.ref(kMachine), s.ref("machine"), OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    OTF2_GlobalDefWriter_WriteSystemTreeNodeDomain(w, 0, OTF2_SYSTEM_TREE_DOMAIN_MACHINE);
    for (std::size_t n = 0; n < d.nodes.size(); ++n) {
        const auto id = static_cast<OTF2_SystemTreeNodeRef>(n + 1);
        OTF2_GlobalDefWriter_WriteSystemTreeNode(w, id, s.ref(d.nodes[n]), s.ref("node"), 0);
        OTF2_GlobalDefWriter_WriteSystemTreeNodeDomain(w, id, OTF2_SYSTEM_TREE_DOMAIN_SHARED_MEMORY);
    }
    for (std::size_t r = 0; r < d.node_of_rank.size(); ++r) {
        const auto id = static_cast<OTF2_LocationGroupRef>(r);
        OTF2_GlobalDefWriter_WriteLocationGroup(w, id, s.ref(rank_name(r)), OTF2_LOCATION_GROUP_TYPE_PROCESS,
                                                d.node_of_rank[r] + 1, OTF2_UNDEFINED_LOCATION_GROUP);
    }
    for (std::size_t r = 0; r < d.node_of_rank.size(); ++r) {
        OTF2_GlobalDefWriter_WriteLocation(w, r, s.ref("Master thread"), OTF2_LOCATION_TYPE_CPU_THREAD,
                                           d.events_of_rank[r], static_cast<OTF2_LocationGroupRef>(r));
    }
    for (std::size_t i = 0; i < d.regions.size(); ++i) {
        const RegionDef& r = d.regions[i];
        OTF2_GlobalDefWriter_WriteRegion(w, static_cast<OTF2_RegionRef>(i), s.ref(r.name), s.ref(r.canonical_name),
                                         s.ref(""), r.role, r.paradigm, OTF2_REGION_FLAG_NONE,
                                         r.file.empty() ? OTF2_UNDEFINED_STRING : s.ref(r.file), 0, 0);
    }
    for (std::size_t g = 0; g < d.groups.size(); ++g) {
        const GlobalGroup& group = d.groups[g];
        const OTF2_Paradigm paradigm = OTF2_PARADIGM_MPI;
        OTF2_GlobalDefWriter_WriteGroup(w, static_cast<OTF2_GroupRef>(g), s.ref(""), group.type, paradigm,
                                        OTF2_GROUP_FLAG_NONE, static_cast<std::uint32_t>(group.members.size()),
                                        group.members.data());
    }
    for (std::size_t c = 0; c < d.comms.size(); ++c) {
        const GlobalComm& comm = d.comms[c];
        const auto id = static_cast<OTF2_CommRef>(c);
        OTF2_GlobalDefWriter_WriteComm(w, id, s.ref(comm.name), comm.group, comm.parent, OTF2_COMM_FLAG_NONE);
    }
}

}  // namespace hindsight::collect

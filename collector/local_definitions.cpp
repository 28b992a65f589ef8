#include "collector/local_definitions.hpp"

#include "common/byte_codec.hpp"
#include "common/error.hpp"

namespace hindsight::collect {

std::vector<std::byte> serialize(const LocalDefinitions& defs) {
    ByteWriter w;
    w.put_string(defs.hostname);
    w.put<std::uint64_t>(defs.event_count);
    w.put<std::uint64_t>(defs.regions.size());
    for (const RegionDef& r : defs.regions) {
        w.put_string(r.name);
        w.put_string(r.canonical_name);
        w.put<std::uint64_t>(r.role);
        w.put<std::uint64_t>(r.paradigm);
        w.put_string(r.file);
    }
    w.put<std::uint64_t>(defs.comms.size());
    for (const CommRecord& c : defs.comms) {
        w.put<std::uint64_t>(c.key);
        w.put<std::uint64_t>(c.parent);
        w.put_string(c.creator);
        w.put<std::uint64_t>(c.inter ? 1 : 0);
        w.put_span<int>(c.members);
        w.put_span<int>(c.remote_members);
        w.put_span<int>(c.cart_dims);
        w.put_span<int>(c.cart_periods);
    }
    w.put<std::uint64_t>(defs.source_groups.size());
    for (const std::vector<int>& g : defs.source_groups) w.put_span<int>(g);
    w.put<std::uint64_t>(defs.io_files.size());
    for (const std::string& f : defs.io_files) w.put_string(f);
    w.put<std::uint64_t>(defs.io_handles.size());
    for (const IoHandleRecord& h : defs.io_handles) {
        w.put<std::uint64_t>(h.file);
        w.put<std::uint64_t>(h.comm);
    }
    w.put_span<std::uint64_t>(defs.thread_events);
    w.put_span<std::uint32_t>(defs.team_sizes);
    w.put<std::uint64_t>(defs.rma_windows.size());
    for (const RmaWinRecord& win : defs.rma_windows) {
        w.put<std::uint64_t>(win.comm);
        w.put<std::uint64_t>(win.number);
    }
    return w.take();
}

namespace {

// A record count, checked against what is left (each record takes at least
// one byte) before anything is allocated for it.
std::size_t record_count(ByteReader& r, std::size_t bytes_left) {
    const auto n = r.get<std::uint64_t>();
    if (n > bytes_left) throw Error("", "more records than bytes");
    return static_cast<std::size_t>(n);
}

}  // namespace

LocalDefinitions deserialize(std::span<const std::byte> bytes, int rank) {
    try {
        ByteReader r(bytes);
        LocalDefinitions defs;
        defs.hostname = r.get_string();
        defs.event_count = r.get<std::uint64_t>();
        defs.regions.resize(record_count(r, bytes.size()));
        for (RegionDef& d : defs.regions) {
            d.name = r.get_string();
            d.canonical_name = r.get_string();
            d.role = static_cast<OTF2_RegionRole>(r.get<std::uint64_t>());
            d.paradigm = static_cast<OTF2_Paradigm>(r.get<std::uint64_t>());
            d.file = r.get_string();
        }
        defs.comms.resize(record_count(r, bytes.size()));
        for (CommRecord& c : defs.comms) {
            c.key = r.get<std::uint64_t>();
            c.parent = r.get<std::uint64_t>();
            c.creator = r.get_string();
            c.inter = r.get<std::uint64_t>() != 0;
            c.members = r.get_vector<int>();
            c.remote_members = r.get_vector<int>();
            c.cart_dims = r.get_vector<int>();
            c.cart_periods = r.get_vector<int>();
            if (c.cart_periods.size() != c.cart_dims.size()) throw Error("", "a topology without its periods");
        }
        defs.source_groups.resize(record_count(r, bytes.size()));
        for (std::vector<int>& g : defs.source_groups) g = r.get_vector<int>();
        defs.io_files.resize(record_count(r, bytes.size()));
        for (std::string& f : defs.io_files) f = r.get_string();
        defs.io_handles.resize(record_count(r, bytes.size()));
        for (IoHandleRecord& h : defs.io_handles) {
            const auto file = r.get<std::uint64_t>();
            const auto comm = r.get<std::uint64_t>();
            if (file >= defs.io_files.size()) throw Error("", "an I/O handle of an unknown file");
            if (comm != OTF2_UNDEFINED_COMM && comm >= defs.comms.size())
                throw Error("", "an I/O handle on an unknown communicator");
            h = {static_cast<std::uint32_t>(file), static_cast<OTF2_CommRef>(comm)};
        }
        defs.thread_events = r.get_vector<std::uint64_t>();
        defs.team_sizes = r.get_vector<std::uint32_t>();
        defs.rma_windows.resize(record_count(r, bytes.size()));
        for (RmaWinRecord& win : defs.rma_windows) {
            const auto comm = r.get<std::uint64_t>();
            const auto number = r.get<std::uint64_t>();
            if (comm >= defs.comms.size()) throw Error("", "an RMA window on an unknown communicator");
            if (number > UINT32_MAX) throw Error("", "an RMA window numbered beyond 32 bits");
            win = {static_cast<OTF2_CommRef>(comm), static_cast<std::uint32_t>(number)};
        }
        if (!r.empty()) throw Error("", "bytes after the last record");
        return defs;
    } catch (const Error&) {
        throw Error("rank " + std::to_string(rank), "malformed local definitions");
    }
}

}  // namespace hindsight::collect

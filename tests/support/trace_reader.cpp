#include "tests/support/trace_reader.hpp"

#include <memory>

#include "common/error.hpp"

namespace hindsight::testing {

const ReadTrace::Region& ReadTrace::region(const std::string& name) const {
    for (const auto& [id, r] : regions)
        if (r.name == name) return r;
    throw Error("", "no region \"" + name + "\" in the trace");
}

namespace describe {
namespace {
std::string at(const char* kind, T t) { return std::string(kind) + " " + std::to_string(t); }
std::string envelope(const char* peer, std::uint32_t rank, std::uint32_t comm, std::uint32_t tag,
                     std::uint64_t bytes) {
    return std::string(" ") + peer + "=" + std::to_string(rank) + " comm=" + std::to_string(comm) +
           " tag=" + std::to_string(tag) + " bytes=" + std::to_string(bytes);
}
std::string req(std::uint64_t r) { return " req=" + std::to_string(r); }
}  // namespace

std::string program_begin(T t, const std::string& name) {
    return at("PROGRAM_BEGIN", t) + " " + name;
}
std::string program_end(T t, std::int64_t status) {
    return at("PROGRAM_END", t) + " status=" + std::to_string(status);
}
std::string enter(T t, const std::string& region) { return at("ENTER", t) + " " + region; }
std::string leave(T t, const std::string& region) { return at("LEAVE", t) + " " + region; }
std::string send(T t, std::uint32_t to, std::uint32_t comm, std::uint32_t tag,
                 std::uint64_t bytes) {
    return at("MPI_SEND", t) + envelope("to", to, comm, tag, bytes);
}
std::string recv(T t, std::uint32_t from, std::uint32_t comm, std::uint32_t tag,
                 std::uint64_t bytes) {
    return at("MPI_RECV", t) + envelope("from", from, comm, tag, bytes);
}
std::string isend(T t, std::uint32_t to, std::uint32_t comm, std::uint32_t tag, std::uint64_t bytes,
                  std::uint64_t request) {
    return at("MPI_ISEND", t) + envelope("to", to, comm, tag, bytes) + req(request);
}
std::string isend_complete(T t, std::uint64_t request) {
    return at("MPI_ISEND_COMPLETE", t) + req(request);
}
std::string irecv_request(T t, std::uint64_t request) {
    return at("MPI_IRECV_REQUEST", t) + req(request);
}
std::string irecv(T t, std::uint32_t from, std::uint32_t comm, std::uint32_t tag,
                  std::uint64_t bytes, std::uint64_t request) {
    return at("MPI_IRECV", t) + envelope("from", from, comm, tag, bytes) + req(request);
}
std::string request_test(T t, std::uint64_t request) {
    return at("MPI_REQUEST_TEST", t) + req(request);
}
std::string request_cancelled(T t, std::uint64_t request) {
    return at("MPI_REQUEST_CANCELLED", t) + req(request);
}
std::string collective_begin(T t) { return at("MPI_COLLECTIVE_BEGIN", t); }
std::string collective_end(T t, OTF2_CollectiveOp op, std::uint32_t comm, std::uint32_t root,
                           std::uint64_t sent, std::uint64_t received) {
    return at("MPI_COLLECTIVE_END", t) + " op=" + std::to_string(op) +
           " comm=" + std::to_string(comm) +
           " root=" + (root == OTF2_UNDEFINED_UINT32 ? std::string("none") : std::to_string(root)) +
           " sent=" + std::to_string(sent) + " received=" + std::to_string(received);
}
std::string unknown(T t) { return at("UNKNOWN", t); }
}  // namespace describe

namespace {

struct CloseReader {
    void operator()(OTF2_Reader* r) const { OTF2_Reader_Close(r); }
};
using ReaderHandle = std::unique_ptr<OTF2_Reader, CloseReader>;

template <typename Deleter, typename T>
std::unique_ptr<T, Deleter> owned(T* p) {
    return std::unique_ptr<T, Deleter>(p);
}

struct DeleteGlobalDefCallbacks {
    void operator()(OTF2_GlobalDefReaderCallbacks* c) const {
        OTF2_GlobalDefReaderCallbacks_Delete(c);
    }
};
struct DeleteDefCallbacks {
    void operator()(OTF2_DefReaderCallbacks* c) const { OTF2_DefReaderCallbacks_Delete(c); }
};
struct DeleteEvtCallbacks {
    void operator()(OTF2_EvtReaderCallbacks* c) const { OTF2_EvtReaderCallbacks_Delete(c); }
};

ReadTrace& data(void* p) { return *static_cast<ReadTrace*>(p); }

// --- global definitions ----------------------------------------------------
OTF2_CallbackCode on_clock(void* u, uint64_t resolution, uint64_t offset, uint64_t length,
                           uint64_t) {
    data(u).clock = {resolution, offset, length};
    ++data(u).clock_definitions;
    return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_string(void* u, OTF2_StringRef self, const char* s) {
    data(u).strings[self] = s;
    return OTF2_CALLBACK_SUCCESS;
}
// Strings precede their users in the writer's output, so names resolve at once.
std::string name_of(void* u, OTF2_StringRef ref) {
    if (ref == OTF2_UNDEFINED_STRING) return "<undefined>";
    const auto it = data(u).strings.find(ref);
    return it == data(u).strings.end() ? "<missing string " + std::to_string(ref) + ">"
                                       : it->second;
}
OTF2_CallbackCode on_paradigm(void* u, OTF2_Paradigm p, OTF2_StringRef name, OTF2_ParadigmClass c) {
    data(u).paradigms[p] = {name_of(u, name), c};
    return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_node(void* u, OTF2_SystemTreeNodeRef self, OTF2_StringRef name,
                          OTF2_StringRef cls, OTF2_SystemTreeNodeRef parent) {
    data(u).nodes[self] = {name_of(u, name), name_of(u, cls), parent, {}};
    return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_domain(void* u, OTF2_SystemTreeNodeRef node, OTF2_SystemTreeDomain d) {
    data(u).nodes[node].domains.push_back(d);
    return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_location_group(void* u, OTF2_LocationGroupRef self, OTF2_StringRef name,
                                    OTF2_LocationGroupType type, OTF2_SystemTreeNodeRef parent,
                                    OTF2_LocationGroupRef) {
    data(u).location_groups[self] = {name_of(u, name), type, parent};
    return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_location(void* u, OTF2_LocationRef self, OTF2_StringRef name,
                              OTF2_LocationType type, uint64_t events,
                              OTF2_LocationGroupRef group) {
    data(u).locations[self] = {name_of(u, name), type, events, group};
    return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_region(void* u, OTF2_RegionRef self, OTF2_StringRef name,
                            OTF2_StringRef canonical, OTF2_StringRef, OTF2_RegionRole role,
                            OTF2_Paradigm paradigm, OTF2_RegionFlag, OTF2_StringRef file, uint32_t,
                            uint32_t) {
    data(u).regions[self] = {name_of(u, name), name_of(u, canonical), name_of(u, file), role,
                             paradigm};
    return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_group(void* u, OTF2_GroupRef self, OTF2_StringRef, OTF2_GroupType type,
                           OTF2_Paradigm paradigm, OTF2_GroupFlag, uint32_t n,
                           const uint64_t* members) {
    data(u).groups[self] = {type, paradigm, std::vector<std::uint64_t>(members, members + n)};
    return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_comm(void* u, OTF2_CommRef self, OTF2_StringRef name, OTF2_GroupRef group,
                          OTF2_CommRef parent, OTF2_CommFlag) {
    data(u).comms[self] = {name_of(u, name), group, parent};
    return OTF2_CALLBACK_SUCCESS;
}

// --- local definitions -----------------------------------------------------
struct LocalContext {
    ReadTrace* trace;
    OTF2_LocationRef location;
};
OTF2_CallbackCode on_clock_offset(void* u, OTF2_TimeStamp time, int64_t offset, double stddev) {
    auto& c = *static_cast<LocalContext*>(u);
    c.trace->clock_offsets[c.location].push_back({time, offset, stddev});
    return OTF2_CALLBACK_SUCCESS;
}

// --- events ----------------------------------------------------------------
using describe::T;
OTF2_CallbackCode add(void* u, OTF2_LocationRef loc, std::string line) {
    data(u).events[loc].push_back(std::move(line));
    return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode ev_program_begin(OTF2_LocationRef l, T t, uint64_t, void* u, OTF2_AttributeList*,
                                   OTF2_StringRef name, uint32_t, const OTF2_StringRef*) {
    return add(u, l, describe::program_begin(t, name_of(u, name)));
}
OTF2_CallbackCode ev_program_end(OTF2_LocationRef l, T t, uint64_t, void* u, OTF2_AttributeList*,
                                 int64_t status) {
    return add(u, l, describe::program_end(t, status));
}
OTF2_CallbackCode ev_enter(OTF2_LocationRef l, T t, uint64_t, void* u, OTF2_AttributeList*,
                           OTF2_RegionRef r) {
    return add(u, l, describe::enter(t, data(u).regions.at(r).name));
}
OTF2_CallbackCode ev_leave(OTF2_LocationRef l, T t, uint64_t, void* u, OTF2_AttributeList*,
                           OTF2_RegionRef r) {
    return add(u, l, describe::leave(t, data(u).regions.at(r).name));
}
OTF2_CallbackCode ev_send(OTF2_LocationRef l, T t, uint64_t, void* u, OTF2_AttributeList*,
                          uint32_t to, OTF2_CommRef c, uint32_t tag, uint64_t bytes) {
    return add(u, l, describe::send(t, to, c, tag, bytes));
}
OTF2_CallbackCode ev_recv(OTF2_LocationRef l, T t, uint64_t, void* u, OTF2_AttributeList*,
                          uint32_t from, OTF2_CommRef c, uint32_t tag, uint64_t bytes) {
    return add(u, l, describe::recv(t, from, c, tag, bytes));
}
OTF2_CallbackCode ev_isend(OTF2_LocationRef l, T t, uint64_t, void* u, OTF2_AttributeList*,
                           uint32_t to, OTF2_CommRef c, uint32_t tag, uint64_t bytes, uint64_t r) {
    return add(u, l, describe::isend(t, to, c, tag, bytes, r));
}
OTF2_CallbackCode ev_isend_complete(OTF2_LocationRef l, T t, uint64_t, void* u, OTF2_AttributeList*,
                                    uint64_t r) {
    return add(u, l, describe::isend_complete(t, r));
}
OTF2_CallbackCode ev_irecv_request(OTF2_LocationRef l, T t, uint64_t, void* u, OTF2_AttributeList*,
                                   uint64_t r) {
    return add(u, l, describe::irecv_request(t, r));
}
OTF2_CallbackCode ev_irecv(OTF2_LocationRef l, T t, uint64_t, void* u, OTF2_AttributeList*,
                           uint32_t from, OTF2_CommRef c, uint32_t tag, uint64_t bytes,
                           uint64_t r) {
    return add(u, l, describe::irecv(t, from, c, tag, bytes, r));
}
OTF2_CallbackCode ev_request_test(OTF2_LocationRef l, T t, uint64_t, void* u, OTF2_AttributeList*,
                                  uint64_t r) {
    return add(u, l, describe::request_test(t, r));
}
OTF2_CallbackCode ev_request_cancelled(OTF2_LocationRef l, T t, uint64_t, void* u,
                                       OTF2_AttributeList*, uint64_t r) {
    return add(u, l, describe::request_cancelled(t, r));
}
OTF2_CallbackCode ev_collective_begin(OTF2_LocationRef l, T t, uint64_t, void* u,
                                      OTF2_AttributeList*) {
    return add(u, l, describe::collective_begin(t));
}
OTF2_CallbackCode ev_collective_end(OTF2_LocationRef l, T t, uint64_t, void* u, OTF2_AttributeList*,
                                    OTF2_CollectiveOp op, OTF2_CommRef c, uint32_t root,
                                    uint64_t sent, uint64_t received) {
    return add(u, l, describe::collective_end(t, op, c, root, sent, received));
}
OTF2_CallbackCode ev_unknown(OTF2_LocationRef l, T t, uint64_t, void* u, OTF2_AttributeList*) {
    return add(u, l, describe::unknown(t));
}

}  // namespace

ReadTrace read_trace(const std::filesystem::path& anchor_file) {
    const std::string file = anchor_file.string();
    auto check = [&](OTF2_ErrorCode code, const char* what) {
        if (code != OTF2_SUCCESS)
            throw Error(file, std::string("OTF2 cannot read ") + what + ": " +
                                  OTF2_Error_GetDescription(code));
    };
    ReaderHandle reader(OTF2_Reader_Open(file.c_str()));
    if (!reader) throw Error(file, "OTF2 cannot open the archive");
    OTF2_Reader* r = reader.get();
    check(OTF2_Reader_SetSerialCollectiveCallbacks(r), "(collective callbacks)");

    ReadTrace trace;
    {
        auto cb = owned<DeleteGlobalDefCallbacks>(OTF2_GlobalDefReaderCallbacks_New());
        OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb.get(), on_clock);
        OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb.get(), on_string);
        OTF2_GlobalDefReaderCallbacks_SetParadigmCallback(cb.get(), on_paradigm);
        OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeCallback(cb.get(), on_node);
        OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeDomainCallback(cb.get(), on_domain);
        OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(cb.get(), on_location_group);
        OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb.get(), on_location);
        OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb.get(), on_region);
        OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb.get(), on_group);
        OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb.get(), on_comm);
        OTF2_GlobalDefReader* defs = OTF2_Reader_GetGlobalDefReader(r);
        if (!defs) throw Error(file, "OTF2 cannot read the global definitions");
        check(OTF2_Reader_RegisterGlobalDefCallbacks(r, defs, cb.get(), &trace), "(def callbacks)");
        uint64_t n = 0;
        check(OTF2_Reader_ReadAllGlobalDefinitions(r, defs, &n), "the global definitions");
        check(OTF2_Reader_CloseGlobalDefReader(r, defs), "the global definitions");
    }

    for (const auto& [loc, _] : trace.locations)
        check(OTF2_Reader_SelectLocation(r, loc), "(locations)");
    check(OTF2_Reader_OpenDefFiles(r), "the local definitions");
    {
        auto cb = owned<DeleteDefCallbacks>(OTF2_DefReaderCallbacks_New());
        OTF2_DefReaderCallbacks_SetClockOffsetCallback(cb.get(), on_clock_offset);
        for (const auto& [loc, _] : trace.locations) {
            OTF2_DefReader* defs = OTF2_Reader_GetDefReader(r, loc);
            if (!defs)
                throw Error(file,
                            "OTF2 cannot read the local definitions of " + std::to_string(loc));
            LocalContext context{&trace, loc};
            check(OTF2_Reader_RegisterDefCallbacks(r, defs, cb.get(), &context),
                  "(local def callbacks)");
            uint64_t n = 0;
            check(OTF2_Reader_ReadAllLocalDefinitions(r, defs, &n), "the local definitions");
            check(OTF2_Reader_CloseDefReader(r, defs), "the local definitions");
        }
    }
    check(OTF2_Reader_CloseDefFiles(r), "the local definitions");

    check(OTF2_Reader_OpenEvtFiles(r), "the events");
    {
        auto cb = owned<DeleteEvtCallbacks>(OTF2_EvtReaderCallbacks_New());
        OTF2_EvtReaderCallbacks_SetUnknownCallback(cb.get(), ev_unknown);
        OTF2_EvtReaderCallbacks_SetProgramBeginCallback(cb.get(), ev_program_begin);
        OTF2_EvtReaderCallbacks_SetProgramEndCallback(cb.get(), ev_program_end);
        OTF2_EvtReaderCallbacks_SetEnterCallback(cb.get(), ev_enter);
        OTF2_EvtReaderCallbacks_SetLeaveCallback(cb.get(), ev_leave);
        OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb.get(), ev_send);
        OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb.get(), ev_recv);
        OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb.get(), ev_isend);
        OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb.get(), ev_isend_complete);
        OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cb.get(), ev_irecv_request);
        OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb.get(), ev_irecv);
        OTF2_EvtReaderCallbacks_SetMpiRequestTestCallback(cb.get(), ev_request_test);
        OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(cb.get(), ev_request_cancelled);
        OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb.get(), ev_collective_begin);
        OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb.get(), ev_collective_end);
        for (const auto& [loc, _] : trace.locations) {
            OTF2_EvtReader* events = OTF2_Reader_GetEvtReader(r, loc);
            if (!events) throw Error(file, "OTF2 cannot read the events of " + std::to_string(loc));
            // Raw timestamps: the builder's tests compare what was written.
            check(OTF2_EvtReader_ApplyClockOffsets(events, false), "(clock offsets)");
            check(OTF2_Reader_RegisterEvtCallbacks(r, events, cb.get(), &trace),
                  "(event callbacks)");
            trace.events[loc];  // a location without events still has a (empty) list
            uint64_t n = 0;
            check(OTF2_Reader_ReadAllLocalEvents(r, events, &n), "the events");
            check(OTF2_Reader_CloseEvtReader(r, events), "the events");
        }
    }
    check(OTF2_Reader_CloseEvtFiles(r), "the events");
    return trace;
}

}  // namespace hindsight::testing

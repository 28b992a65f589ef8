// The benchmark's baseline: how long OTF2 alone takes to decode each
// location's events (no-op callbacks for the records the analyzer uses).
//   decode_trace TRACE/traces.otf2 [LOCATION]
// With LOCATION, only that one (processes decoding one location each run
// side by side like the analysis ranks, sharing the cores as they do).
#include <chrono>
#include <cstdint>
#include <iostream>
#include <memory>
#include <string>

#include <otf2/otf2.h>

namespace {

struct CloseReader {
    void operator()(OTF2_Reader* r) const { OTF2_Reader_Close(r); }
};
struct DeleteCallbacks {
    void operator()(OTF2_EvtReaderCallbacks* c) const { OTF2_EvtReaderCallbacks_Delete(c); }
};

OTF2_CallbackCode enter_leave(OTF2_LocationRef, OTF2_TimeStamp, std::uint64_t, void*, OTF2_AttributeList*,
                              OTF2_RegionRef) {
    return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode message(OTF2_LocationRef, OTF2_TimeStamp, std::uint64_t, void*, OTF2_AttributeList*,
                          std::uint32_t, OTF2_CommRef, std::uint32_t, std::uint64_t) {
    return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode collective(OTF2_LocationRef, OTF2_TimeStamp, std::uint64_t, void*, OTF2_AttributeList*,
                             OTF2_CollectiveOp, OTF2_CommRef, std::uint32_t, std::uint64_t, std::uint64_t) {
    return OTF2_CALLBACK_SUCCESS;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2 && argc != 3) {
        std::cerr << "usage: decode_trace TRACE/traces.otf2 [LOCATION]\n";
        return 2;
    }
    std::unique_ptr<OTF2_Reader, CloseReader> reader(OTF2_Reader_Open(argv[1]));
    if (!reader) return 1;
    OTF2_Reader_SetSerialCollectiveCallbacks(reader.get());
    std::uint64_t first = 0, end = 0;
    OTF2_Reader_GetNumberOfLocations(reader.get(), &end);
    if (argc == 3) {
        first = std::stoull(argv[2]);
        if (first >= end) return 1;
        end = first + 1;
    }
    for (std::uint64_t l = first; l < end; ++l) OTF2_Reader_SelectLocation(reader.get(), l);
    OTF2_Reader_OpenEvtFiles(reader.get());
    std::unique_ptr<OTF2_EvtReaderCallbacks, DeleteCallbacks> cb(OTF2_EvtReaderCallbacks_New());
    OTF2_EvtReaderCallbacks_SetEnterCallback(cb.get(), enter_leave);
    OTF2_EvtReaderCallbacks_SetLeaveCallback(cb.get(), enter_leave);
    OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb.get(), message);
    OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb.get(), message);
    OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb.get(), collective);
    for (std::uint64_t l = first; l < end; ++l) {
        const auto start = std::chrono::steady_clock::now();
        OTF2_EvtReader* events = OTF2_Reader_GetEvtReader(reader.get(), l);
        OTF2_Reader_RegisterEvtCallbacks(reader.get(), events, cb.get(), nullptr);
        std::uint64_t read = 0;
        OTF2_Reader_ReadAllLocalEvents(reader.get(), events, &read);
        OTF2_Reader_CloseEvtReader(reader.get(), events);
        const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
        std::cout << "location " << l << ": " << read << " events decoded in " << took.count() << " s ("
                  << static_cast<double>(read) / took.count() << " events/s)\n";
    }
    OTF2_Reader_CloseEvtFiles(reader.get());
    return 0;
}

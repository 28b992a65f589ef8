#include "analyses/profile/message_statistics.hpp"

namespace hindsight::analyses {

using trace::EventKind;

void count_message(LocalCube& cube, CallPathId cnode, std::uint64_t bytes, bool sent) {
    if (bytes == 0) {
        cube.add(sent ? Metric::SyncsSend : Metric::SyncsRecv, cnode, 1.0);
    } else {
        cube.add(sent ? Metric::CommsSend : Metric::CommsRecv, cnode, 1.0);
        cube.add(sent ? Metric::BytesSent : Metric::BytesRcvd, cnode, static_cast<double>(bytes));
    }
}

void count_collective(LocalCube& cube, CallPathId cnode, std::uint64_t sent, std::uint64_t received) {
    if (sent == 0 && received == 0)
        cube.add(Metric::SyncsColl, cnode, 1.0);
    else if (sent > 0 && received > 0)
        cube.add(Metric::CommsCxch, cnode, 1.0);
    else if (sent > 0)
        cube.add(Metric::CommsCsrc, cnode, 1.0);
    else
        cube.add(Metric::CommsCdst, cnode, 1.0);
    cube.add(Metric::BytesCout, cnode, static_cast<double>(sent));
    cube.add(Metric::BytesCin, cnode, static_cast<double>(received));
}

void MessageStatistics::pack(const trace::EventView& view, replay::PayloadWriter&) {
    if (view.kind() == EventKind::Send) count_message(*cube_, view.cnode(), view.message().bytes, true);
}

void MessageStatistics::unpack(const trace::EventView& view, replay::PayloadReader&) {
    if (view.kind() == EventKind::Recv) count_message(*cube_, view.cnode(), view.message().bytes, false);
}

replay::CollectiveTask MessageStatistics::on_collective(const trace::EventView& view,
                                                        replay::CollectiveChannel&) {
    const trace::Collective& coll = view.collective();
    // MPI_Init and MPI_Finalize synchronize but are no collective operations
    // of the program; collective file operations move data to the file, not
    // between ranks (the file metrics count them), and neither do the
    // collective operations of RMA windows (the RMA metrics count them).
    if (coll.op != trace::CollectiveOp::Init && coll.op != trace::CollectiveOp::Finalize &&
        coll.op != trace::CollectiveOp::FileIo && !trace::is_rma_window_operation(coll.op))
        count_collective(*cube_, view.cnode(), coll.bytes_sent, coll.bytes_received);
    return {};  // nothing to exchange
}

}  // namespace hindsight::analyses

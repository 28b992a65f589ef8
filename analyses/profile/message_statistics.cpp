#include "analyses/profile/message_statistics.hpp"

namespace hindsight::analyses {
namespace {

using trace::EventKind;

void count_message(LocalCube& cube, const trace::EventView& view, Metric sync, Metric comm,
                   Metric bytes) {
    const auto size = view.message().bytes;
    if (size == 0) {
        cube.add(sync, view.cnode(), 1.0);
    } else {
        cube.add(comm, view.cnode(), 1.0);
        cube.add(bytes, view.cnode(), static_cast<double>(size));
    }
}

}  // namespace

void MessageStatistics::pack(const trace::EventView& view, replay::PayloadWriter&) {
    if (view.kind() == EventKind::Send)
        count_message(*cube_, view, Metric::SyncsSend, Metric::CommsSend, Metric::BytesSent);
}

void MessageStatistics::unpack(const trace::EventView& view, replay::PayloadReader&) {
    if (view.kind() == EventKind::Recv)
        count_message(*cube_, view, Metric::SyncsRecv, Metric::CommsRecv, Metric::BytesRcvd);
}

replay::CollectiveTask MessageStatistics::on_collective(const trace::EventView& view,
                                                        replay::CollectiveChannel&) {
    count_collective(view.cnode(), view.collective());
    return {};  // nothing to exchange
}

void MessageStatistics::count_collective(CallPathId cnode, const trace::Collective& coll) {
    // MPI_Init and MPI_Finalize synchronize but are no collective operations
    // of the program; collective file operations move data to the file, not
    // between ranks (the file metrics count them), and neither do the
    // collective operations of RMA windows (the RMA metrics count them).
    if (coll.op == trace::CollectiveOp::Init || coll.op == trace::CollectiveOp::Finalize ||
        coll.op == trace::CollectiveOp::FileIo || trace::is_rma_window_operation(coll.op))
        return;
    const bool sends = coll.bytes_sent > 0;
    const bool receives = coll.bytes_received > 0;
    if (!sends && !receives)
        cube_->add(Metric::SyncsColl, cnode, 1.0);
    else if (sends && receives)
        cube_->add(Metric::CommsCxch, cnode, 1.0);
    else if (sends)
        cube_->add(Metric::CommsCsrc, cnode, 1.0);
    else
        cube_->add(Metric::CommsCdst, cnode, 1.0);
    cube_->add(Metric::BytesCout, cnode, static_cast<double>(coll.bytes_sent));
    cube_->add(Metric::BytesCin, cnode, static_cast<double>(coll.bytes_received));
}

}  // namespace hindsight::analyses

#include "analyses/profile/message_statistics.hpp"

#include "analyses/message_counts.hpp"

namespace hindsight::analyses {

using trace::EventKind;

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

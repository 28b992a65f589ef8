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
    if (trace::is_program_collective(coll.op))
        count_collective(*cube_, view.cnode(), coll.bytes_sent, coll.bytes_received);
    return {};  // nothing to exchange
}

}  // namespace hindsight::analyses

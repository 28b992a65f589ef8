#include "replay/mpi_engine.hpp"

#include <string>

#include "replay/definitions_reader.hpp"
#include "replay/mpi_collective_exchange.hpp"

namespace hindsight::replay {
namespace {

// First byte of every payload.
enum PayloadFlags : std::uint8_t { kWantsReply = 1 };

std::string where(const LocalTrace& trace, const Message& m, const char* what, int peer) {
    return "rank " + std::to_string(trace.rank) + " waits for " + what + " rank " + std::to_string(peer) +
           " of " + comm_display_name(trace.definitions, m.comm) + " (tag " + std::to_string(m.tag) + ")";
}

void check_consumed(const LocalTrace& trace, const PayloadReader& reader, const char* what) {
    if (!reader.empty())
        throw Error(trace.anchor_path, std::string("rank ") + std::to_string(trace.rank) + ": an analysis reads less " +
                                           what + " than its peer wrote");
}

}  // namespace

MpiReplayEngine::MpiReplayEngine(const LocalTrace& trace, const CommunicatorMirror& mirror,
                                 std::chrono::duration<double> timeout)
    : trace_(trace), mirror_(mirror), watch_(timeout) {
    int* value = nullptr;
    int found = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &value, &found);
    if (found) tag_ub_ = *value;
}

int MpiReplayEngine::tag_of(const Message& m) const {
    // Recorded tags fit the traced MPI; should they exceed ours they are
    // folded, which could only reorder messages of one sender whose tags
    // fold together.
    return static_cast<int>(m.tag % (static_cast<std::uint64_t>(tag_ub_) + 1));
}

void MpiReplayEngine::run(Direction direction, std::span<ReplayObserver* const> observers) {
    for (ReplayObserver* o : observers) o->begin_pass(trace_, direction);
    const bool forward = direction == Direction::Forward;
    const auto n = static_cast<EventIndex>(trace_.events.size());
    for (EventIndex k = 0; k < n; ++k) {
        const EventIndex i = forward ? k : n - 1 - k;
        const EventView view(trace_, i);
        switch (trace_.events[i].kind) {
        case EventKind::Enter:
            for (ReplayObserver* o : observers) o->on_enter(view);
            break;
        case EventKind::Leave:
            for (ReplayObserver* o : observers) o->on_leave(view);
            break;
        case EventKind::Send:
            forward ? send_payload(view, observers) : receive_payload(view, observers);
            break;
        case EventKind::Recv:
            forward ? receive_payload(view, observers) : send_payload(view, observers);
            break;
        case EventKind::CollectiveEnd:
            collective(view, observers);
            break;
        }
    }
    sends_.drain(watch_);
    for (ReplayObserver* o : observers) o->end_pass(trace_, direction);
}

void MpiReplayEngine::send_payload(const EventView& view, Observers observers) {
    const Message& m = view.message();
    writer_.bytes().assign(1, std::byte{0});  // the flags byte
    for (ReplayObserver* o : observers) o->pack(view, writer_);
    bool wants_reply = false;
    for (ReplayObserver* o : observers) wants_reply = wants_reply || o->expects_reply(view);
    if (wants_reply) writer_.bytes()[0] = std::byte{kWantsReply};
    sends_.isend(writer_.bytes(), m.partner, tag_of(m), mirror_.data(m.comm));
    ++messages_;
    if (!wants_reply) return;

    receive(mirror_.reply(m.comm), m.partner, tag_of(m), "a reply from", view);
    PayloadReader reader(buffer_);
    for (ReplayObserver* o : observers) o->unpack_reply(view, reader);
    check_consumed(trace_, reader, "of a reply");
}

void MpiReplayEngine::receive_payload(const EventView& view, Observers observers) {
    const Message& m = view.message();
    receive(mirror_.data(m.comm), m.partner, tag_of(m), "a message from", view);
    ++messages_;
    if (buffer_.empty()) throw Error(trace_.anchor_path, "replay received an empty payload");
    const bool wants_reply = (std::to_integer<std::uint8_t>(buffer_[0]) & kWantsReply) != 0;
    PayloadReader reader(std::span<const std::byte>(buffer_).subspan(1));
    for (ReplayObserver* o : observers) o->unpack(view, reader);
    check_consumed(trace_, reader, "of a message");
    if (!wants_reply) return;

    writer_.clear();
    for (ReplayObserver* o : observers) o->pack_reply(view, writer_);
    sends_.isend(writer_.bytes(), m.partner, tag_of(m), mirror_.reply(m.comm));
}

void MpiReplayEngine::receive(MPI_Comm comm, int source, int tag, const char* what, const EventView& view) {
    MPI_Message message = MPI_MESSAGE_NULL;
    MPI_Status status;
    watch_.until(
        [&] {
            int flag = 0;
            MPI_Improbe(source, tag, comm, &flag, &message, &status);
            return flag != 0;
        },
        [&] { return where(trace_, view.message(), what, source); });
    int size = 0;
    MPI_Get_count(&status, MPI_BYTE, &size);
    buffer_.resize(static_cast<std::size_t>(size));
    MPI_Mrecv(buffer_.data(), size, MPI_BYTE, &message, MPI_STATUS_IGNORE);
}

void MpiReplayEngine::collective(const EventView& view, Observers observers) {
    const Collective& c = view.collective();
    MpiCollectiveExchange exchange(mirror_.data(c.comm), mirror_.layout(c.comm), trace_.rank, watch_, scratch_);
    for (ReplayObserver* o : observers) o->on_collective(view, exchange);
}

}  // namespace hindsight::replay

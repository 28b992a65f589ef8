#include "tests/analyses/in_process_replay.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <map>
#include <mutex>
#include <numeric>
#include <thread>
#include <tuple>

#include "common/error.hpp"
#include "replay/idle_channel.hpp"
#include "replay/immediate_channel.hpp"
#include "replay/payload_frame.hpp"

namespace hindsight::testing {

using replay::CollectiveChannel;
using replay::Direction;
using trace::EventIndex;
using trace::EventKind;
using trace::EventView;
using replay::RankedValue;
using replay::ReduceOp;
using replay::ReplayObserver;

namespace {

// A replay that waits this long for a peer is taken to be deadlocked.
constexpr auto kPatience = std::chrono::seconds(20);

// What travels: payloads, replies taken lazily, replies taken at the end of
// the pass (ReplayObserver::defers_reply) and notes, each in its own order.
enum class Mail : std::uint8_t { Payload, Reply, DeferredReply, Note };

// A message's identity in a pass: communicator, original sender and
// receiver (world ranks), tag, direction, and what it is.
using MailboxKey = std::tuple<CommId, int, int, std::uint32_t, Direction, Mail>;

}  // namespace

class InProcessReplay::Shared {
public:
    explicit Shared(const std::vector<trace::LocalTrace>& traces) : traces_(traces) {}

    const std::vector<trace::LocalTrace>& traces() const { return traces_; }

    void post(const MailboxKey& key, std::vector<std::byte> bytes) {
        std::lock_guard lock(mutex_);
        mailboxes_[key].push_back(std::move(bytes));
        changed_.notify_all();
    }

    std::vector<std::byte> take(const MailboxKey& key) {
        std::unique_lock lock(mutex_);
        auto& box = mailboxes_[key];
        wait(lock, [&] { return !box.empty(); });
        auto bytes = std::move(box.front());
        box.pop_front();
        return bytes;
    }

    // Every member's contribution to the current round of `comm`'s
    // collective channel operation, in communicator rank order.
    std::vector<std::vector<double>> all_gather(CommId comm, int size, int rank,
                                                std::vector<double> mine) {
        std::unique_lock lock(mutex_);
        Rendezvous& point = rendezvous_[comm];
        if (point.slots.empty()) point.slots.resize(static_cast<std::size_t>(size));
        point.slots[static_cast<std::size_t>(rank)] = std::move(mine);
        const std::uint64_t round = point.round;
        if (++point.arrived == size) {
            point.result = point.slots;
            point.arrived = 0;
            ++point.round;
            changed_.notify_all();
        } else {
            wait(lock, [&] { return point.round != round; });
        }
        return point.result;
    }

    void abort() {
        std::lock_guard lock(mutex_);
        aborted_ = true;
        changed_.notify_all();
    }

private:
    struct Rendezvous {
        std::vector<std::vector<double>> slots, result;
        int arrived = 0;
        std::uint64_t round = 0;
    };

    template <typename Ready>
    void wait(std::unique_lock<std::mutex>& lock, Ready ready) {
        if (!changed_.wait_for(lock, kPatience, [&] { return aborted_ || ready(); }))
            throw Error("", "in-process replay: a rank waited too long for its peers");
        if (aborted_ && !ready()) throw Error("", "in-process replay aborted by another rank");
    }

    const std::vector<trace::LocalTrace>& traces_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::map<MailboxKey, std::deque<std::vector<std::byte>>> mailboxes_;
    std::map<CommId, Rendezvous> rendezvous_;
    bool aborted_ = false;
};

namespace {

class RendezvousChannel final : public replay::ImmediateChannel {
public:
    RendezvousChannel(InProcessReplay::Shared& shared, CommId comm, std::vector<int> members, int rank)
        : shared_(&shared), comm_(comm), members_(std::move(members)), rank_(rank) {}

    int size() const override { return static_cast<int>(members_.size()); }
    int rank() const override { return rank_; }
    int world_rank(int r) const override { return members_.at(static_cast<std::size_t>(r)); }

    // Which observers any member needs at this collective: the members'
    // masks or-ed (as two exact 32-bit halves, the rendezvous carries doubles).
    replay::ObserverMask needed(replay::ObserverMask mine) {
        const std::array<double, 2> halves{static_cast<double>(mine & 0xffffffffu),
                                           static_cast<double>(mine >> 32)};
        replay::ObserverMask any = 0;
        for (const auto& member : gather(halves))
            any |= static_cast<replay::ObserverMask>(member.at(0)) |
                   static_cast<replay::ObserverMask>(member.at(1)) << 32;
        return any;
    }

private:
    void allreduce_now(std::span<double> values, ReduceOp op) override {
        const auto all = gather(values);
        for (std::size_t i = 0; i < values.size(); ++i) values[i] = reduce(all, i, all.size(), op);
    }
    RankedValue maxloc_now(double value) override {
        return pick(gather({&value, 1}), [](double a, double b) { return a > b; });
    }
    RankedValue minloc_now(double value) override {
        return pick(gather({&value, 1}), [](double a, double b) { return a < b; });
    }
    RankedValue scan_maxloc_now(double value) override {
        auto all = gather({&value, 1});
        all.resize(static_cast<std::size_t>(rank_) + 1);  // ranks 0..rank_
        return pick(all, [](double a, double b) { return a > b; });
    }
    void exscan_now(std::span<double> values, ReduceOp op) override {
        const auto all = gather(values);
        if (rank_ == 0) return;
        for (std::size_t i = 0; i < values.size(); ++i)
            values[i] = reduce(all, i, static_cast<std::size_t>(rank_), op);
    }
    void reduce_sum_now(std::span<double> values, int root) override {
        const auto all = gather(values);
        if (rank_ != root) return;
        for (std::size_t i = 0; i < values.size(); ++i)
            values[i] = reduce(all, i, all.size(), ReduceOp::Sum);
    }
    void broadcast_now(std::vector<double>& values, int root) override {
        values = gather(values).at(static_cast<std::size_t>(root));
    }
    void broadcast_fixed_now(std::span<double> values, int root) override {
        const auto all = gather(values);
        const auto& sent = all.at(static_cast<std::size_t>(root));
        if (sent.size() != values.size())
            throw Error("", "in-process replay: a fixed-size broadcast differs in size between ranks");
        std::copy(sent.begin(), sent.end(), values.begin());
    }
    std::vector<std::vector<double>> gather(std::span<const double> mine) {
        if (size() == 1) return {std::vector<double>(mine.begin(), mine.end())};
        return shared_->all_gather(comm_, size(), rank_, {mine.begin(), mine.end()});
    }
    // Element i over the first `count` ranks.
    static double reduce(const std::vector<std::vector<double>>& all, std::size_t i,
                         std::size_t count, ReduceOp op) {
        double acc = all[0].at(i);
        for (std::size_t r = 1; r < count; ++r) {
            const double v = all[r].at(i);
            acc = op == ReduceOp::Sum ? acc + v : op == ReduceOp::Min ? std::min(acc, v) : std::max(acc, v);
        }
        return acc;
    }
    // The best value, the lowest rank among equals.
    template <typename Better>
    static RankedValue pick(const std::vector<std::vector<double>>& all, Better better) {
        RankedValue best{all[0].at(0), 0};
        for (std::size_t r = 1; r < all.size(); ++r)
            if (better(all[r].at(0), best.value)) best = {all[r].at(0), static_cast<int>(r)};
        return best;
    }

    InProcessReplay::Shared* shared_;
    CommId comm_;
    std::vector<int> members_;
    int rank_;
};

class RankEngine final : public replay::ReplayEngine {
public:
    RankEngine(InProcessReplay::Shared& shared, int rank)
        : shared_(&shared), trace_(&shared.traces().at(static_cast<std::size_t>(rank))) {}

    void run(Direction direction, std::span<ReplayObserver* const> observers) override {
        for (auto* o : observers) o->begin_pass(*trace_, direction);
        watchers_ = replay::RegionWatchers(observers);
        const replay::PayloadFrame frame(*trace_, observers);
        pending_.clear();
        deferred_.clear();
        packed_.clear();
        unpacked_.clear();
        // Like carries_data(), asked before the first event.
        needs_.assign(trace_->collectives.size(), 0);
        for (trace::EventIndex i = 0; i < trace_->events.size(); ++i)
            if (trace_->events[i].kind == trace::EventKind::CollectiveEnd)
                needs_[trace_->events[i].ref] = frame.exchanges_at(trace::EventView(*trace_, i));
        const auto n = static_cast<trace::EventIndex>(trace_->events.size());
        for (trace::EventIndex k = 0; k < n; ++k) {
            const trace::EventIndex i = direction == Direction::Forward ? k : n - 1 - k;
            visit(trace::EventView(*trace_, i), direction, frame, observers);
        }
        complete_replies(frame, trace::kNoEvent);
        for (const PendingReply& d : deferred_) {
            const trace::EventView view(*trace_, d.event);
            frame.unpack_reply(view, d.asked, shared_->take(key(view, direction, Mail::DeferredReply)));
        }
        deferred_.clear();
        // Every message gets a note, empty where nobody wrote one (the MPI
        // engine sends only the others), written after the last event.
        for (const trace::EventIndex unpacking : unpacked_) note(trace::EventView(*trace_, unpacking), direction, frame);
        unpacked_.clear();
        for (const trace::EventIndex packing : packed_) {
            const trace::EventView view(*trace_, packing);
            const auto note = shared_->take(key(view, direction, Mail::Note));
            if (!note.empty()) frame.read_note(view, note);
        }
        packed_.clear();
        for (auto* o : observers) o->end_pass(*trace_, direction);
    }

private:
    // A reply asked for and not yet taken: like the MPI engine, this one
    // takes it lazily, when the pass reaches the Enter of the call that
    // posted the receive (backward) or the Leave of the send call (forward).
    struct PendingReply {
        bool active = false;
        trace::EventIndex event = trace::kNoEvent;
        trace::EventIndex boundary = trace::kNoEvent;
        replay::ObserverMask asked = 0;
        Direction direction = Direction::Forward;
    };

    void visit(const trace::EventView& view, Direction direction, const replay::PayloadFrame& frame,
               std::span<ReplayObserver* const> observers) {
        switch (view.kind()) {
        case trace::EventKind::Enter:
            complete_replies(frame, view.index());
            watchers_.enter(view);
            break;
        case trace::EventKind::Leave:
            complete_replies(frame, view.index());
            watchers_.leave(view);
            break;
        case trace::EventKind::Send:
        case trace::EventKind::Recv: {
            const bool packs = (view.kind() == trace::EventKind::Send) == (direction == Direction::Forward);
            if (packs) {
                pack(view, direction, frame);
            } else {
                unpack(view, direction, frame);
            }
            break;
        }
        case trace::EventKind::CollectiveEnd: {
            const CommId comm = view.collective().comm;
            RendezvousChannel channel(*shared_, comm, members(comm), rank_in(comm));
            // The observers nobody needs get an idle channel, as the MPI
            // engine's do.
            replay::IdleChannel idle(channel);
            const replay::ObserverMask needed = channel.needed(needs_.at(view.event().ref));
            for (std::size_t k = 0; k < observers.size(); ++k) {
                const bool takes_part = (needed & replay::PayloadFrame::bit_of(k)) != 0;
                auto& mine = takes_part ? static_cast<CollectiveChannel&>(channel) : idle;
                // Every operation completes when awaited: the task runs through.
                replay::CollectiveTask task = observers[k]->on_collective(view, mine);
                task.start();
                if (!task.done()) throw Error("", "in-process replay: a collective channel operation was left unfinished");
            }
            break;
        }
        }
    }

    std::vector<int> members(CommId comm) const {
        auto ranks = trace_->definitions.world_ranks(comm);
        if (ranks.empty()) ranks.push_back(trace_->rank);  // MPI_COMM_SELF-like
        return ranks;
    }
    int rank_in(CommId comm) const {
        const auto ranks = members(comm);
        return static_cast<int>(std::find(ranks.begin(), ranks.end(), trace_->rank) - ranks.begin());
    }
    // The message's key, named by its original sender and receiver.
    MailboxKey key(const trace::EventView& view, Direction direction, Mail mail) const {
        const trace::Message& msg = view.message();
        const int peer = members(msg.comm).at(static_cast<std::size_t>(msg.partner));
        const bool sender = view.kind() == trace::EventKind::Send;
        return {msg.comm, sender ? trace_->rank : peer, sender ? peer : trace_->rank, msg.tag,
                direction, mail};
    }

    // A message whose observers all declared that they carry nothing travels
    // as an empty mailbox entry (the MPI engine does not send it at all).
    void pack(const trace::EventView& view, Direction direction, const replay::PayloadFrame& frame) {
        if (frame.writes_notes()) packed_.push_back(view.index());
        replay::PayloadWriter out;
        if (!frame.carries_data(view)) {
            frame.pack_nothing(view, out);
            shared_->post(key(view, direction, Mail::Payload), {});
            return;
        }
        const replay::ReplyRequest request = frame.pack(view, out);
        shared_->post(key(view, direction, Mail::Payload), std::move(out.bytes()));
        if (request.asked == 0) return;
        if (request.deferred) {
            deferred_.push_back({true, view.index(), trace::kNoEvent, request.asked, direction});
            return;
        }
        pending_.push_back({true, view.index(), replay::reply_boundary(*trace_, view, direction == Direction::Forward),
                            request.asked, direction});
    }

    // Takes the replies due at event `boundary` (all that are left at
    // kNoEvent), in the order they were asked.
    void complete_replies(const replay::PayloadFrame& frame, trace::EventIndex boundary) {
        for (std::size_t k = 0; k < pending_.size();) {
            if (boundary != trace::kNoEvent && pending_[k].boundary != boundary) {
                ++k;
                continue;
            }
            const PendingReply pending = pending_[k];
            pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(k));
            take_reply(frame, pending);
        }
    }

    void take_reply(const replay::PayloadFrame& frame, const PendingReply& pending) {
        const trace::EventView view(*trace_, pending.event);
        const auto reply = shared_->take(key(view, pending.direction, Mail::Reply));
        frame.unpack_reply(view, pending.asked, reply);
    }

    void unpack(const trace::EventView& view, Direction direction, const replay::PayloadFrame& frame) {
        const auto bytes = shared_->take(key(view, direction, Mail::Payload));
        unpacked_.push_back(view.index());
        if (bytes.empty()) {
            frame.unpack_nothing(view);
            return;
        }
        const replay::ReplyRequest request = frame.unpack(view, bytes);
        if (request.asked != 0) reply(view, direction, frame, request);
    }

    void reply(const trace::EventView& view, Direction direction, const replay::PayloadFrame& frame,
               const replay::ReplyRequest& request) {
        replay::PayloadWriter out;
        frame.pack_reply(view, request.asked, out);
        const Mail mail = request.deferred ? Mail::DeferredReply : Mail::Reply;
        shared_->post(key(view, direction, mail), std::move(out.bytes()));
    }

    void note(const trace::EventView& view, Direction direction, const replay::PayloadFrame& frame) {
        if (!frame.writes_notes()) return;
        replay::PayloadWriter out;
        frame.write_note(view, out);
        shared_->post(key(view, direction, Mail::Note), std::move(out.bytes()));
    }

    InProcessReplay::Shared* shared_;
    const trace::LocalTrace* trace_;
    replay::RegionWatchers watchers_;
    std::vector<PendingReply> pending_;   // in the order asked
    std::vector<PendingReply> deferred_;  // replies taken at the end of the pass, in pass order
    std::vector<trace::EventIndex> packed_;      // the packing events, in pass order, where notes are read
    std::vector<trace::EventIndex> unpacked_;    // the unpacking events, in pass order, where notes are written
    std::vector<replay::ObserverMask> needs_;  // by collective: this rank's exchanges_at() masks
};

}  // namespace

InProcessReplay::InProcessReplay(const std::vector<trace::LocalTrace>& traces)
    : shared_(std::make_unique<Shared>(traces)) {
    for (int r = 0; r < static_cast<int>(traces.size()); ++r)
        engines_.push_back(std::make_unique<RankEngine>(*shared_, r));
}

InProcessReplay::~InProcessReplay() = default;

int InProcessReplay::size() const { return static_cast<int>(engines_.size()); }

replay::ReplayEngine& InProcessReplay::engine(int rank) {
    return *engines_.at(static_cast<std::size_t>(rank));
}

void InProcessReplay::run_ranks(const std::function<void(int rank)>& body) {
    std::mutex failure_mutex;
    std::exception_ptr failure;
    std::vector<std::thread> threads;
    for (int r = 0; r < size(); ++r) {
        threads.emplace_back([&, r] {
            try {
                body(r);
            } catch (...) {
                {
                    std::lock_guard lock(failure_mutex);
                    if (!failure) failure = std::current_exception();
                }
                shared_->abort();
            }
        });
    }
    for (auto& t : threads) t.join();
    if (failure) std::rethrow_exception(failure);
}

}  // namespace hindsight::testing

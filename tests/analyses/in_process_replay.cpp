#include "tests/analyses/in_process_replay.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <map>
#include <mutex>
#include <numeric>
#include <thread>
#include <tuple>
#include <utility>

#include "common/error.hpp"
#include "replay/immediate_channel.hpp"
#include "replay/pass_observers.hpp"
#include "replay/payload_frame.hpp"
#include "replay/pending_replies.hpp"

namespace hindsight::testing {

using replay::CollectiveChannel;
using trace::EventIndex;
using trace::EventKind;
using trace::EventView;
using replay::RankedValue;
using replay::ReduceOp;
using replay::ReplayObserver;

namespace {

// A replay that waits this long for a peer is taken to be deadlocked.
constexpr auto kPatience = std::chrono::seconds(20);

// What travels: payloads, replies taken lazily and notes, each in its own
// order.
enum class Mail : std::uint8_t { Payload, Reply, Note };

// A message's identity in a pass: communicator, original sender and
// receiver (world ranks), tag, and what it is.
using MailboxKey = std::tuple<CommId, int, int, std::uint32_t, Mail>;

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

    // Every rank's blocks for every rank, for the bulk exchanges: the
    // caller's incoming blocks, by sender.
    replay::ByteBlocks all_to_all(int rank, const replay::ByteBlocks& outgoing) {
        std::unique_lock lock(mutex_);
        const std::size_t ranks = traces_.size();
        BulkRendezvous& point = bulk_;
        if (point.blocks.empty()) point.blocks.assign(ranks, replay::ByteBlocks(ranks));
        for (std::size_t to = 0; to < outgoing.size() && to < ranks; ++to)
            point.blocks[static_cast<std::size_t>(rank)][to] = outgoing[to];
        const std::uint64_t round = point.round;
        if (++point.arrived == static_cast<int>(ranks)) {
            point.result = std::move(point.blocks);
            point.blocks.clear();
            point.arrived = 0;
            ++point.round;
            changed_.notify_all();
        } else {
            wait(lock, [&] { return point.round != round; });
        }
        replay::ByteBlocks incoming(ranks);
        for (std::size_t from = 0; from < ranks; ++from) incoming[from] = point.result[from][static_cast<std::size_t>(rank)];
        return incoming;
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

    struct BulkRendezvous {
        std::vector<replay::ByteBlocks> blocks, result;  // [from][to]
        int arrived = 0;
        std::uint64_t round = 0;
    };

    const std::vector<trace::LocalTrace>& traces_;
    BulkRendezvous bulk_;
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

// The bulk exchanges of a rank: all_to_all() meets the other ranks' calls;
// the reductions are all-to-alls of the values, reduced by every rank alike.
class RankExchange final : public replay::Exchange {
public:
    RankExchange(InProcessReplay::Shared& shared, int rank, int size) : shared_(&shared), rank_(rank), size_(size) {}

    int rank() const override { return rank_; }
    int size() const override { return size_; }
    replay::ByteBlocks all_to_all(const replay::ByteBlocks& outgoing) override {
        count_round();
        return shared_->all_to_all(rank_, outgoing);
    }
    void sum(std::span<double> values) override {
        const auto all = everyones(values);
        std::fill(values.begin(), values.end(), 0.0);
        for (const auto& theirs : all)
            for (std::size_t i = 0; i < values.size(); ++i) values[i] += theirs.at(i);
    }
    bool any(bool value) override {
        const double mine = value ? 1.0 : 0.0;
        for (const auto& theirs : everyones({&mine, 1}))
            if (theirs.at(0) != 0) return true;
        return false;
    }
    RankedValue max_loc(double value) override {
        RankedValue best{value, -1};
        const auto all = everyones({&value, 1});
        for (std::size_t r = 0; r < all.size(); ++r)
            if (best.rank < 0 || all[r].at(0) > best.value) best = {all[r].at(0), static_cast<int>(r)};
        return best;
    }

private:
    // Every rank's values, by rank.
    std::vector<std::vector<double>> everyones(std::span<const double> mine) {
        std::vector<std::byte> bytes(mine.size_bytes());
        if (!bytes.empty()) std::memcpy(bytes.data(), mine.data(), bytes.size());
        const replay::ByteBlocks incoming = all_to_all(replay::ByteBlocks(static_cast<std::size_t>(size_), bytes));
        std::vector<std::vector<double>> all;
        for (const auto& block : incoming) {
            auto& values = all.emplace_back(block.size() / sizeof(double));
            if (!block.empty()) std::memcpy(values.data(), block.data(), values.size() * sizeof(double));
        }
        return all;
    }

    InProcessReplay::Shared* shared_;
    int rank_, size_;
};

class RankEngine final : public replay::ReplayEngine {
public:
    RankEngine(InProcessReplay::Shared& shared, int rank)
        : shared_(&shared),
          trace_(&shared.traces().at(static_cast<std::size_t>(rank))),
          slots_(*trace_),
          exchange_(shared, rank, static_cast<int>(shared.traces().size())) {}

    const trace::MessageSlots& message_slots() const override { return slots_; }

    void run(const char* /*name*/, std::span<ReplayObserver* const> observers) override {
        const replay::PassObservers pass(*trace_, observers);
        const replay::PayloadFrame frame(*trace_, pass);
        pending_.clear();
        packed_.clear();
        unpacked_.clear();
        for (EventIndex i = 0; i < trace_->events.size(); ++i) visit(EventView(*trace_, i), pass, frame);
        take_replies(frame, trace::kNoEvent);
        deliver_notes(frame);
        pass.end_pass();
    }

    void run_rounds(const char*, const std::function<void(replay::Exchange&)>& rounds) override { rounds(exchange_); }

private:
    void visit(const EventView& view, const replay::PassObservers& pass, const replay::PayloadFrame& frame) {
        switch (view.kind()) {
        case EventKind::Enter:
            take_replies(frame, view.index());
            pass.enter(view);
            break;
        case EventKind::Leave:
            take_replies(frame, view.index());
            pass.leave(view);
            break;
        case EventKind::Send:
        case EventKind::Recv:
            if (view.kind() == EventKind::Send)
                pack(view, frame);
            else
                unpack(view, frame);
            break;
        case EventKind::CollectiveEnd:
            collective(view, pass);
            break;
        }
    }

    void pack(const EventView& view, const replay::PayloadFrame& frame) {
        packed_.push_back(view.index());
        replay::PayloadWriter out;
        const replay::ObserverMask asked = frame.pack(view, out);
        shared_->post(key(view, Mail::Payload), out.take());
        if (asked != 0) pending_.add(view.index(), replay::reply_boundary(*trace_, view), asked);
    }

    void unpack(const EventView& view, const replay::PayloadFrame& frame) {
        const auto bytes = shared_->take(key(view, Mail::Payload));
        unpacked_.push_back(view.index());
        const replay::ObserverMask asked = frame.unpack(view, bytes);
        if (asked == 0) return;
        replay::PayloadWriter out;
        frame.pack_reply(view, asked, out);
        shared_->post(key(view, Mail::Reply), out.take());
    }

    // Like the MPI engine, this one takes a reply lazily, when the pass
    // reaches its boundary (replay::reply_boundary()).
    void take_replies(const replay::PayloadFrame& frame, EventIndex boundary) {
        pending_.take_due(boundary,
                          [&](EventIndex event, replay::ObserverMask asked) {
                              const EventView view(*trace_, event);
                              frame.unpack_reply(view, asked, shared_->take(key(view, Mail::Reply)));
                          });
    }

    void collective(const EventView& view, const replay::PassObservers& pass) {
        const CommId comm = view.collective().comm;
        RendezvousChannel channel(*shared_, comm, members(comm), rank_in(comm));
        for (const replay::PassMember& m : pass.collectives()) {
            // Every operation completes when awaited: the task runs through.
            replay::CollectiveTask task = m.observer->on_collective(view, channel);
            task.start();
            if (!task.done()) throw Error("", "in-process replay: a collective task was left unfinished");
        }
    }

    // Every message gets a note, empty where nobody wrote one (the MPI
    // engine sends only the others), written after the last event.
    void deliver_notes(const replay::PayloadFrame& frame) {
        if (frame.writes_notes()) {
            for (const EventIndex unpacking : unpacked_) {
                const EventView view(*trace_, unpacking);
                replay::PayloadWriter out;
                frame.write_note(view, out);
                shared_->post(key(view, Mail::Note), out.take());
            }
            for (const EventIndex packing : packed_) {
                const EventView view(*trace_, packing);
                const auto note = shared_->take(key(view, Mail::Note));
                if (!note.empty()) frame.read_note(view, note);
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
    // The message's key in this pass, named by its original sender and
    // receiver.
    MailboxKey key(const EventView& view, Mail mail) const {
        const trace::Message& msg = view.message();
        const int peer = members(msg.comm).at(static_cast<std::size_t>(msg.partner));
        const bool sender = view.kind() == EventKind::Send;
        return {msg.comm, sender ? trace_->rank : peer, sender ? peer : trace_->rank, msg.tag, mail};
    }

    InProcessReplay::Shared* shared_;
    const trace::LocalTrace* trace_;
    trace::MessageSlots slots_;
    RankExchange exchange_;
    replay::PendingReplies pending_;
    std::vector<EventIndex> packed_;             // the packing events, in pass order, where notes are read
    std::vector<EventIndex> unpacked_;           // the unpacking events, in pass order, where notes are written
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

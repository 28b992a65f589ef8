#include "replay/thread_message_pairing.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <tuple>

#include "replay/list_exchange.hpp"

namespace hindsight::replay {
namespace {

using trace::ThreadTransfer;

// A stream from this rank's side: send?, peer's world rank, communicator, tag.
using StreamKey = std::tuple<bool, int, CommId, std::uint32_t>;

// One of this rank's messages in a merged stream.
struct Entry {
    Ticks time = 0;
    std::uint32_t thread = 0;  // 0: the master, `index` into trace.messages; else into the thread's transfers
    std::uint32_t index = 0;
    auto order() const { return std::tie(time, thread, index); }
};

// A stream with a worker's message that a rank shares with a peer, from the
// teller's side.
struct MixedStream {
    CommId comm = kNoId;
    std::uint32_t tag = 0;
    std::uint32_t send = 0;
};

// What a rank tells its peer about one message of a shared stream, in the
// stream's merged order.
struct Note {
    Ticks time = 0;  // a send's call entry; when a receive was posted (ThreadTransfer::posted)
    CommId comm = kNoId;
    std::uint32_t tag = 0;
    std::uint32_t send = 0;
    std::uint32_t thread = 0;  // the thread that sent or received it (0: the master)
};

class Merger {
public:
    Merger(trace::LocalTrace& trace, const trace::MessageSlots& slots) : trace_(trace), slots_(slots) {}

    // The workers' messages; whether there are any.
    bool add_workers() {
        const auto& threads = trace_.threads.threads;
        for (std::uint32_t t = 1; t < threads.size(); ++t)
            for (std::uint32_t i = 0; i < threads[t].transfers.size(); ++i) {
                const ThreadTransfer& x = threads[t].transfers[i];
                if (x.kind == ThreadTransfer::Kind::Collective) continue;
                streams_[{x.kind == ThreadTransfer::Kind::Send, x.peer, x.comm, x.tag}].push_back({x.time, t, i});
            }
        return !streams_.empty();
    }
    // The master's messages, then every stream in time order.
    void add_master() {
        for (std::uint32_t m = 0; m < trace_.messages.size(); ++m) {
            const trace::Message& msg = trace_.messages[m];
            streams_[{slots_.is_send(m), slots_.peer(m), msg.comm, msg.tag}].push_back(
                {trace_.events[slots_.event(m)].time, 0, m});
        }
        for (auto& [key, entries] : streams_)
            std::sort(entries.begin(), entries.end(),
                      [](const Entry& a, const Entry& b) { return a.order() < b.order(); });
    }

    // What this rank tells each peer: its streams with a worker's message.
    std::vector<std::vector<MixedStream>> mixed(std::size_t ranks) const {
        std::vector<std::vector<MixedStream>> out(ranks);
        for (const auto& [key, entries] : streams_) {
            const auto& [send, peer, comm, tag] = key;
            if (std::any_of(entries.begin(), entries.end(), [](const Entry& e) { return e.thread != 0; }))
                out[static_cast<std::size_t>(peer)].push_back({comm, tag, send});
        }
        return out;
    }

    // The streams either side has a worker's message in: its own and those
    // its peers told it of (the other way round), the same set on both sides.
    void share(const std::vector<std::vector<MixedStream>>& own, const std::vector<std::vector<MixedStream>>& told) {
        for (std::size_t peer = 0; peer < own.size(); ++peer) {
            const int p = static_cast<int>(peer);
            for (const MixedStream& s : own[peer]) shared_.insert({s.send != 0, p, s.comm, s.tag});
            for (const MixedStream& s : told[peer]) shared_.insert({s.send == 0, p, s.comm, s.tag});
        }
    }

    std::vector<std::vector<Note>> notes(std::size_t ranks) const {
        std::vector<std::vector<Note>> out(ranks);
        for (const StreamKey& key : shared_) {
            const auto& [send, peer, comm, tag] = key;
            const auto found = streams_.find(key);
            if (found == streams_.end()) continue;
            for (const Entry& e : found->second)
                out[static_cast<std::size_t>(peer)].push_back(
                    {send ? call_enter(e) : posted(e), comm, tag, send, e.thread});
        }
        return out;
    }

    // Pairs each shared stream with the peer's notes of it; returns the
    // master's messages paired with a worker's.
    std::vector<bool> pair(const std::vector<std::vector<Note>>& incoming, UnpairedTally& found) {
        std::map<StreamKey, std::vector<const Note*>> theirs;
        for (std::size_t peer = 0; peer < incoming.size(); ++peer)
            for (const Note& n : incoming[peer])
                theirs[{n.send == 0, static_cast<int>(peer), n.comm, n.tag}].push_back(&n);
        std::vector<bool> leave(trace_.messages.size(), false);
        for (const StreamKey& key : shared_) {
            const auto mine = streams_.find(key);
            if (mine == streams_.end()) continue;
            const auto& [send, peer, comm, tag] = key;
            const std::vector<const Note*>& partners = theirs[key];
            for (std::size_t k = 0; k < mine->second.size(); ++k) {
                const Entry& e = mine->second[k];
                if (k >= partners.size()) {
                    // The master's are left over for stream pairing.
                    if (e.thread != 0)
                        found.add(send ? Unpairing::NoReceive : Unpairing::NoSend, send ? trace_.rank : peer,
                                  send ? peer : trace_.rank, kNoId, cnode(e));
                    continue;
                }
                if (e.thread == 0 && partners[k]->thread == 0) continue;  // two masters: the replay's
                if (e.thread == 0) leave[e.index] = true;
                trace::ThreadPairedMessage p;
                p.thread = e.thread;
                p.cnode = cnode(e);
                p.call = call(e);
                p.comm = comm;
                p.tag = tag;
                p.peer_thread = partners[k]->thread;
                p.number = k;
                p.call_enter = call_enter(e);
                p.call_leave = call_leave(e);
                p.time = e.time;
                p.bytes = bytes(e);
                p.peer = peer;
                p.send = send;
                (send ? p.receive_posted : p.send_call_enter) = partners[k]->time;
                if (e.thread != 0) {
                    p.first_poll = transfer(e).first_poll;
                    p.completing_call = transfer(e).completing_call;
                } else if (!send) {
                    // The master's receive leaves the replay, which would
                    // have measured its polling loop in the store.
                    const trace::EventIndex poll = trace_.polling_call(trace_.events[slots_.event(e.index)]);
                    if (poll != trace::kNoEvent) {
                        p.first_poll = poll;
                        p.completing_call = trace_.messages[e.index].call_enter;
                    }
                }
                trace_.threads.paired.push_back(p);
            }
        }
        return leave;
    }

private:
    const ThreadTransfer& transfer(const Entry& e) const { return trace_.threads.threads[e.thread].transfers[e.index]; }
    // The Enter of the call holding the message: in the store, or in the
    // thread's events.
    std::uint32_t call(const Entry& e) const {
        return e.thread == 0 ? static_cast<std::uint32_t>(trace_.messages[e.index].call_enter) : transfer(e).call;
    }
    const trace::Event& master_call(const Entry& e) const {
        return trace_.events[trace_.messages[e.index].call_enter];
    }
    Ticks call_enter(const Entry& e) const { return e.thread == 0 ? master_call(e).time : transfer(e).call_enter; }
    Ticks posted(const Entry& e) const {
        if (e.thread != 0) return transfer(e).posted;
        const trace::EventIndex posting = trace_.posting_call(trace_.events[slots_.event(e.index)]);
        return posting == trace::kNoEvent ? ThreadTransfer::kUnknownPosting : trace_.events[posting].time;
    }
    Ticks call_leave(const Entry& e) const {
        return e.thread == 0 ? trace_.events[master_call(e).ref].time : transfer(e).call_leave;
    }
    CallPathId cnode(const Entry& e) const { return e.thread == 0 ? master_call(e).cnode : transfer(e).cnode; }
    std::uint64_t bytes(const Entry& e) const {
        if (e.thread == 0) return trace_.messages[e.index].bytes;
        const ThreadTransfer& x = transfer(e);
        return x.kind == ThreadTransfer::Kind::Send ? x.sent : x.received;
    }

    trace::LocalTrace& trace_;
    const trace::MessageSlots& slots_;
    std::map<StreamKey, std::vector<Entry>> streams_;
    std::set<StreamKey> shared_;
};

}  // namespace

std::vector<bool> pair_thread_messages(trace::LocalTrace& trace, const trace::MessageSlots& slots, MPI_Comm world,
                                       ProgressWatch& watch, UnpairedTally& found) {
    Merger merger(trace, slots);
    int any = merger.add_workers() ? 1 : 0;
    watch.complete("the worker threads' messages of all ranks", [&](auto& r) {
        MPI_Iallreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_LOR, world, &r[0]);
    });
    if (any == 0) return {};
    merger.add_master();
    const std::size_t ranks = slots.sends().size();
    const std::vector<std::vector<MixedStream>> own = merger.mixed(ranks);
    merger.share(own, exchange_lists(own, world, watch));
    return merger.pair(exchange_lists(merger.notes(ranks), world, watch), found);
}

}  // namespace hindsight::replay

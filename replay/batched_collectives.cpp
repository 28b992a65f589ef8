#include "replay/batched_collectives.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>

#include "common/error.hpp"
#include "replay/mpi_reduce_op.hpp"

namespace hindsight::replay {
namespace {

using Kind = ChannelOperation::Kind;

struct DoubleInt {  // MPI_DOUBLE_INT
    double value;
    int rank;
};

}  // namespace

class BatchedCollectives::Channel final : public CollectiveChannel {
public:
    Channel(Batch& batch, Pending& owner) : batch_(&batch), owner_(&owner) {}

    int size() const override;
    int rank() const override;
    int world_rank(int r) const override;

private:
    bool start(ChannelOperation& operation) override;

    Batch* batch_;
    Pending* owner_;
};

struct BatchedCollectives::Pending {
    Pending(const trace::EventView& event, Batch& batch) : view(event), channel(batch, *this) {}
    trace::EventView view;  // the tasks refer to it and to the channel: both stay in place
    Channel channel;
    std::vector<CollectiveTask> tasks;
};

struct BatchedCollectives::Waiting {
    ChannelOperation* operation;
    Pending* owner;
};

struct BatchedCollectives::Batch {
    MPI_Comm comm = MPI_COMM_NULL;
    const trace::CommLayout* layout = nullptr;
    int world_rank = 0;
    int rank = 0;
    std::deque<Pending> pending;   // in order of the collectives; a deque keeps them in place
    std::vector<Waiting> waiting;  // the next round's operations, in the order they were awaited
};

int BatchedCollectives::Channel::size() const { return batch_->layout->size(); }
int BatchedCollectives::Channel::rank() const { return batch_->rank; }
int BatchedCollectives::Channel::world_rank(int r) const {
    return batch_->layout->world_rank_of(r, batch_->world_rank);
}
bool BatchedCollectives::Channel::start(ChannelOperation& operation) {
    batch_->waiting.push_back({&operation, owner_});
    return false;
}

BatchedCollectives::BatchedCollectives(const CommunicatorMirror& mirror, ProgressWatch& watch)
    : mirror_(mirror), watch_(watch) {}

BatchedCollectives::~BatchedCollectives() = default;

BatchedCollectives::Batch& BatchedCollectives::batch(CommId comm) {
    if (comm >= batches_.size()) batches_.resize(comm + std::size_t{1});
    auto& b = batches_[comm];
    if (!b) {
        b = std::make_unique<Batch>();
        b->comm = mirror_.data(comm);
        b->layout = &mirror_.layout(comm);
        b->world_rank = mirror_.world_rank();
        b->rank = b->layout->self ? 0 : b->layout->rank_of(b->world_rank);
    }
    return *b;
}

void BatchedCollectives::add(const trace::EventView& view, std::span<const PassMember> observers) {
    Batch& b = batch(view.collective().comm);
    Pending& p = b.pending.emplace_back(view, b);
    for (const PassMember& m : observers) {
        CollectiveTask task = m.observer->on_collective(p.view, p.channel);
        task.start();
        if (!task.done()) p.tasks.push_back(std::move(task));
    }
    if (p.tasks.empty())
        b.pending.pop_back();
    else if (b.pending.size() >= (view.collective().nonblocking ? kMaxWaitingNonBlocking : kMaxWaiting))
        run_rounds(b);
}

void BatchedCollectives::finish() {
    for (auto& b : batches_)
        if (b) run_rounds(*b);
}

void BatchedCollectives::run_rounds(Batch& b) {
    while (!b.waiting.empty()) run_round(b);
    b.pending.clear();  // every task has ended (or thrown, which run_round rethrew)
}

namespace {

// The operations of one round that run as one MPI call.
struct Group {
    Kind kind;
    ReduceOp op;
    int root;
    std::vector<ChannelOperation*> members;
    std::vector<double> data;      // laid end to end (and results, where in place)
    std::vector<double> result;    // exscan's output
    std::vector<DoubleInt> ranked;
    std::vector<std::uint64_t> sizes;  // variable broadcasts: each operation's size
    MPI_Request request = MPI_REQUEST_NULL;
};

bool same_call(const Group& g, const ChannelOperation& op) {
    if (g.kind != op.kind) return false;
    switch (op.kind) {
    case Kind::Allreduce:
    case Kind::Exscan: return g.op == op.op;
    case Kind::ReduceSum:
    case Kind::Broadcast:
    case Kind::BroadcastFixed: return g.root == op.root;
    case Kind::MaxLoc:
    case Kind::MinLoc:
    case Kind::ScanMaxLoc: return true;
    }
    return false;
}

bool is_ranked(Kind kind) { return kind == Kind::MaxLoc || kind == Kind::MinLoc || kind == Kind::ScanMaxLoc; }

int count(std::size_t n) {
    if (n > static_cast<std::size_t>(INT_MAX))
        throw Error("", "a batch of collective channel operations holds more than INT_MAX values");
    return static_cast<int>(n);
}

std::span<double> data_of(ChannelOperation& op) {
    return op.kind == Kind::Broadcast ? std::span<double>(*op.resizable) : op.values;
}

}  // namespace

void BatchedCollectives::run_round(Batch& b) {
    ++rounds_;
    const std::vector<Waiting> round = std::move(b.waiting);
    b.waiting.clear();
    std::vector<Group> groups;
    for (const Waiting& w : round) {
        ChannelOperation& op = *w.operation;
        auto g = std::find_if(groups.begin(), groups.end(), [&](const Group& x) { return same_call(x, op); });
        if (g == groups.end()) g = groups.insert(groups.end(), Group{op.kind, op.op, op.root, {}, {}, {}, {}, {}});
        g->members.push_back(&op);
    }
    const auto wait_all = [&](const char* what) {
        watch_.until(
            [&] {
                for (Group& g : groups) {
                    int done = 0;
                    MPI_Test(&g.request, &done, MPI_STATUS_IGNORE);
                    if (!done) return false;
                }
                return true;
            },
            [&] { return "rank " + std::to_string(b.world_rank) + " waits in collective channel operations (" + what + ")"; });
    };

    // Variable broadcasts first tell everyone their sizes.
    const bool sizes_unknown = std::any_of(groups.begin(), groups.end(), [](const Group& g) { return g.kind == Kind::Broadcast; });
    if (sizes_unknown) {
        for (Group& g : groups) {
            if (g.kind != Kind::Broadcast) continue;
            for (const ChannelOperation* op : g.members) g.sizes.push_back(op->resizable->size());
            MPI_Ibcast(g.sizes.data(), count(g.sizes.size()), MPI_UINT64_T, g.root, b.comm, &g.request);
        }
        wait_all("broadcast sizes");
        for (Group& g : groups)
            if (g.kind == Kind::Broadcast)
                for (std::size_t k = 0; k < g.members.size(); ++k) g.members[k]->resizable->resize(g.sizes[k]);
    }

    for (Group& g : groups) {
        const int root = g.root;
        if (is_ranked(g.kind)) {
            for (const ChannelOperation* op : g.members) g.ranked.push_back({op->ranked.value, b.rank});
            const int n = count(g.ranked.size());
            if (g.kind == Kind::ScanMaxLoc) {
                MPI_Iscan(MPI_IN_PLACE, g.ranked.data(), n, MPI_DOUBLE_INT, MPI_MAXLOC, b.comm, &g.request);
            } else {
                MPI_Iallreduce(MPI_IN_PLACE, g.ranked.data(), n, MPI_DOUBLE_INT,
                               g.kind == Kind::MaxLoc ? MPI_MAXLOC : MPI_MINLOC, b.comm, &g.request);
            }
            continue;
        }
        for (ChannelOperation* op : g.members) {
            const std::span<double> values = data_of(*op);
            g.data.insert(g.data.end(), values.begin(), values.end());
        }
        const int n = count(g.data.size());
        switch (g.kind) {
        case Kind::Allreduce:
            MPI_Iallreduce(MPI_IN_PLACE, g.data.data(), n, MPI_DOUBLE, mpi_op(g.op), b.comm, &g.request);
            break;
        case Kind::Exscan:
            g.result.resize(g.data.size());
            MPI_Iexscan(g.data.data(), g.result.data(), n, MPI_DOUBLE, mpi_op(g.op), b.comm, &g.request);
            break;
        case Kind::ReduceSum:
            if (b.rank == root)
                MPI_Ireduce(MPI_IN_PLACE, g.data.data(), n, MPI_DOUBLE, MPI_SUM, root, b.comm, &g.request);
            else
                MPI_Ireduce(g.data.data(), nullptr, n, MPI_DOUBLE, MPI_SUM, root, b.comm, &g.request);
            break;
        case Kind::Broadcast:
        case Kind::BroadcastFixed:
            MPI_Ibcast(g.data.data(), n, MPI_DOUBLE, root, b.comm, &g.request);
            break;
        case Kind::MaxLoc:
        case Kind::MinLoc:
        case Kind::ScanMaxLoc: break;
        }
    }
    wait_all("data");

    // Results back where each operation wants them, as the immediate
    // channels leave them (exscan: rank 0 keeps its values; reduce: only
    // the root's change).
    for (Group& g : groups) {
        std::size_t at = 0;
        for (std::size_t k = 0; k < g.members.size(); ++k) {
            ChannelOperation& op = *g.members[k];
            if (is_ranked(g.kind)) {
                op.ranked = {g.ranked[k].value, g.ranked[k].rank};
                continue;
            }
            const std::span<double> values = data_of(op);
            const bool keeps = (g.kind == Kind::Exscan && b.rank == 0) || (g.kind == Kind::ReduceSum && b.rank != g.root);
            const std::vector<double>& from = g.kind == Kind::Exscan ? g.result : g.data;
            if (!keeps) std::copy_n(from.begin() + static_cast<std::ptrdiff_t>(at), values.size(), values.begin());
            at += values.size();
        }
    }

    // Each resumed task awaits its next operation (kept for the next round,
    // in this order) or ends.
    for (const Waiting& w : round) {
        w.operation->waiter.resume();
        for (const CollectiveTask& task : w.owner->tasks) task.rethrow_if_failed();
    }
}

}  // namespace hindsight::replay

// The communication an analysis may use at one collective event. Every rank
// of the event's communicator reaches the same event in the same pass, so
// each operation below must be awaited by all of them in the same order with
// the same sizes (as with MPI collectives, which implement them):
//
//     const RankedValue latest = co_await channel.allreduce_maxloc(enter);
//
// The spans passed in must stay valid until the operation has completed,
// which is when the co_await returns.
#pragma once

#include <coroutine>
#include <cstdint>
#include <span>
#include <vector>

namespace hindsight::replay {

enum class ReduceOp : std::uint8_t { Sum, Min, Max };

// A value together with the rank (in the collective's communicator) that
// holds it; ties go to the lowest rank.
struct RankedValue {
    double value = 0;
    int rank = -1;
};

// One channel operation as the engine sees it: what to do, the caller's
// data, and (while it waits) the suspended coroutine to resume.
struct ChannelOperation {
    enum class Kind : std::uint8_t {
        Allreduce,       // values, op
        MaxLoc,          // ranked
        MinLoc,          // ranked
        ScanMaxLoc,      // ranked
        Exscan,          // values, op
        ReduceSum,       // values, root
        Broadcast,       // resizable, root
        BroadcastFixed,  // values, root
    };
    Kind kind = Kind::Allreduce;
    ReduceOp op = ReduceOp::Sum;
    int root = -1;
    std::span<double> values;
    std::vector<double>* resizable = nullptr;
    RankedValue ranked;  // the caller's value and rank in, the result out
    std::coroutine_handle<> waiter;
};

class CollectiveChannel {
public:
    virtual ~CollectiveChannel() = default;
    virtual int size() const = 0;   // ranks in the communicator
    virtual int rank() const = 0;   // this rank in the communicator
    // World rank of communicator rank `r`.
    virtual int world_rank(int r) const = 0;

    // What co_await of an operation does: asks the channel to start it;
    // if the channel keeps it for later, the awaiting coroutine waits
    // until the engine resumes it with the result in place.
    class [[nodiscard]] Step {
    public:
        Step(CollectiveChannel& channel, const ChannelOperation& operation)
            : channel_(&channel), operation_(operation) {}
        bool await_ready() { return channel_->start(operation_); }
        void await_suspend(std::coroutine_handle<> waiter) { operation_.waiter = waiter; }
        RankedValue await_resume() const { return operation_.ranked; }

    private:
        CollectiveChannel* channel_;
        ChannelOperation operation_;
    };

    using Kind = ChannelOperation::Kind;

    // Element-wise reduction, result on every rank.
    Step allreduce(std::span<double> values, ReduceOp op) {
        return {*this, {Kind::Allreduce, op, -1, values, nullptr, {}, {}}};
    }
    // Maximum / minimum with its owner, result on every rank.
    Step allreduce_maxloc(double value) {
        return {*this, {Kind::MaxLoc, ReduceOp::Max, -1, {}, nullptr, {value, rank()}, {}}};
    }
    Step allreduce_minloc(double value) {
        return {*this, {Kind::MinLoc, ReduceOp::Min, -1, {}, nullptr, {value, rank()}, {}}};
    }
    // Maximum with its owner over ranks 0..rank() (inclusive prefix).
    Step scan_maxloc(double value) {
        return {*this, {Kind::ScanMaxLoc, ReduceOp::Max, -1, {}, nullptr, {value, rank()}, {}}};
    }
    // Element-wise reduction over ranks 0..rank()-1 (exclusive prefix); on
    // rank 0 the values are left as they are.
    Step exscan(std::span<double> values, ReduceOp op) {
        return {*this, {Kind::Exscan, op, -1, values, nullptr, {}, {}}};
    }
    // Element-wise sum delivered to `root` only; other ranks' spans are left
    // as they are.
    Step reduce_sum(std::span<double> values, int root) {
        return {*this, {Kind::ReduceSum, ReduceOp::Sum, root, values, nullptr, {}, {}}};
    }
    // `root`'s data to everyone; the size may differ from call to call (the
    // other ranks' vectors are resized).
    Step broadcast(std::vector<double>& values, int root) {
        return {*this, {Kind::Broadcast, ReduceOp::Sum, root, {}, &values, {}, {}}};
    }
    // `root`'s data to everyone, where every rank knows the size: one
    // operation less than the one above.
    Step broadcast_fixed(std::span<double> values, int root) {
        return {*this, {Kind::BroadcastFixed, ReduceOp::Sum, root, values, nullptr, {}, {}}};
    }

protected:
    // Runs `operation` now and returns true, or keeps a reference to it, to
    // complete it later and resume operation.waiter, and returns false.
    virtual bool start(ChannelOperation& operation) = 0;
};

}  // namespace hindsight::replay

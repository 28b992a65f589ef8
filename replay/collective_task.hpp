// The work of one observer at one collective event, written as a coroutine
// whose channel operations are awaited:
//
//     replay::CollectiveTask on_collective(const EventView& view, CollectiveChannel& ex) override {
//         const RankedValue latest = co_await ex.allreduce_maxloc(enter);
//         ...
//     }
//
// An engine that can complete an operation at once does so and the
// coroutine runs straight through, as a function would. An engine that
// batches (a pass of trace data only) leaves it suspended at the operation
// and resumes it once the same operation of many collectives has run
// together. Tasks nest: a task may co_await another task.
//
// A task starts only when the engine first resumes it or another task
// awaits it. A default-constructed task has nothing to do.
#pragma once

#include <coroutine>
#include <exception>
#include <utility>

namespace hindsight::replay {

class [[nodiscard]] CollectiveTask {
public:
    struct promise_type {
        std::coroutine_handle<> continuation;  // the task awaiting this one, if any
        std::exception_ptr error;

        CollectiveTask get_return_object() {
            return CollectiveTask(std::coroutine_handle<promise_type>::from_promise(*this));
        }
        std::suspend_always initial_suspend() noexcept { return {}; }
        auto final_suspend() noexcept {
            // Back to the awaiting task, or to whoever resumed this one.
            struct ToContinuation {
                bool await_ready() noexcept { return false; }
                std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> done) noexcept {
                    const std::coroutine_handle<> next = done.promise().continuation;
                    return next ? next : std::noop_coroutine();
                }
                void await_resume() noexcept {}
            };
            return ToContinuation{};
        }
        void return_void() {}
        void unhandled_exception() { error = std::current_exception(); }
    };

    CollectiveTask() = default;
    CollectiveTask(CollectiveTask&& other) noexcept : handle_(std::exchange(other.handle_, {})) {}
    CollectiveTask& operator=(CollectiveTask&& other) noexcept {
        if (this != &other) {
            destroy();
            handle_ = std::exchange(other.handle_, {});
        }
        return *this;
    }
    CollectiveTask(const CollectiveTask&) = delete;
    CollectiveTask& operator=(const CollectiveTask&) = delete;
    ~CollectiveTask() { destroy(); }

    bool done() const { return !handle_ || handle_.done(); }

    // Starts the task; it runs until it awaits an operation the channel
    // keeps for later, or to its end. An exception of the task is rethrown
    // once it has ended.
    void start() {
        if (!done()) handle_.resume();
        rethrow_if_failed();
    }
    // After the engine resumed the coroutine that an operation suspended
    // (ChannelOperation::waiter): the task's exception, if it has ended
    // with one.
    void rethrow_if_failed() const {
        if (handle_ && handle_.done() && handle_.promise().error)
            std::rethrow_exception(handle_.promise().error);
    }

    // Awaiting a task runs it; the awaiting task continues when it ends.
    bool await_ready() const noexcept { return done(); }
    std::coroutine_handle<> await_suspend(std::coroutine_handle<> awaiting) noexcept {
        handle_.promise().continuation = awaiting;
        return handle_;
    }
    void await_resume() const { rethrow_if_failed(); }

private:
    explicit CollectiveTask(std::coroutine_handle<promise_type> handle) : handle_(handle) {}
    void destroy() {
        if (handle_) handle_.destroy();
        handle_ = {};
    }

    std::coroutine_handle<promise_type> handle_;
};

}  // namespace hindsight::replay

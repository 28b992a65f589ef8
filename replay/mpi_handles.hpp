// Owning wrappers for the MPI objects the replay creates.
#pragma once

#include <utility>

#include <mpi.h>

namespace hindsight::replay::mpi {

// A handle kind: its null value and how to free it. (The null handles are
// not constant expressions in every MPI, hence functions.)
struct CommKind {
    using Handle = MPI_Comm;
    static Handle null() { return MPI_COMM_NULL; }
    static void free(Handle* h) { MPI_Comm_free(h); }
};
struct GroupKind {
    using Handle = MPI_Group;
    static Handle null() { return MPI_GROUP_NULL; }
    static void free(Handle* h) { MPI_Group_free(h); }
};

template <typename Kind>
class Owned {
public:
    using Handle = typename Kind::Handle;
    Owned() = default;
    explicit Owned(Handle h) : handle_(h) {}
    ~Owned() { reset(); }
    Owned(Owned&& other) noexcept : handle_(std::exchange(other.handle_, Kind::null())) {}
    Owned& operator=(Owned&& other) noexcept {
        if (this != &other) {
            reset();
            handle_ = std::exchange(other.handle_, Kind::null());
        }
        return *this;
    }
    Owned(const Owned&) = delete;
    Owned& operator=(const Owned&) = delete;

    Handle get() const { return handle_; }
    // For MPI calls that create the handle: `MPI_Comm_dup(c, x.out())`.
    Handle* out() {
        reset();
        return &handle_;
    }
    void reset() {
        if (handle_ != Kind::null()) Kind::free(&handle_);
        handle_ = Kind::null();
    }

private:
    Handle handle_ = Kind::null();
};

using Comm = Owned<CommKind>;
using Group = Owned<GroupKind>;

// MPI_Init/MPI_Finalize for the lifetime of the object.
class Session {
public:
    Session(int& argc, char**& argv) { MPI_Init(&argc, &argv); }
    ~Session() { MPI_Finalize(); }
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;
};

}  // namespace hindsight::replay::mpi

#include "replay/stall_check.hpp"

#include <vector>

namespace hindsight::replay {
namespace {

// Tags: question q (numbered modulo kQuestions) is sent with tag q; its
// answer with kQuestions + 2q, plus 1 when the answering rank has waited
// for the timeout; the news that the run is stuck with kStuck. MPI
// guarantees tags up to 32767.
constexpr int kQuestions = 8192;
constexpr int kStuck = 3 * kQuestions;
int answer_tag(std::uint32_t question, bool waited) {
    return kQuestions + 2 * static_cast<int>(question) + (waited ? 1 : 0);
}

}  // namespace

StallCheck::StallCheck(MPI_Comm comm) {
    MPI_Comm_dup(comm, comm_.out());
    MPI_Comm_rank(comm_.get(), &rank_);
    MPI_Comm_size(comm_.get(), &size_);
}

StallCheck::~StallCheck() {
    // Messages without data: a send still under way needs no buffer, and
    // MPI delivers or drops it on its own.
    for (MPI_Request& r : sends_)
        if (r != MPI_REQUEST_NULL) MPI_Request_free(&r);
}

void StallCheck::send(int rank, int tag) {
    MPI_Isend(nullptr, 0, MPI_BYTE, rank, tag, comm_.get(), &sends_.emplace_back());
}

void StallCheck::serve(bool waited_for_timeout) {
    for (;;) {
        int arrived = 0;
        MPI_Status status;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm_.get(), &arrived, &status);
        if (!arrived) break;
        MPI_Recv(nullptr, 0, MPI_BYTE, status.MPI_SOURCE, status.MPI_TAG, comm_.get(), MPI_STATUS_IGNORE);
        if (status.MPI_TAG == kStuck) {
            stuck_ = true;
            continue;
        }
        if (status.MPI_TAG < kQuestions) {
            send(status.MPI_SOURCE, answer_tag(static_cast<std::uint32_t>(status.MPI_TAG), waited_for_timeout));
            continue;
        }
        const int answer = status.MPI_TAG - kQuestions;
        if (!open_ || static_cast<std::uint32_t>(answer / 2) != question_) continue;  // to an earlier question
        --waiting_answers_;
        if (answer % 2 == 0) someone_works_ = true;
    }
    std::erase_if(sends_, [](MPI_Request& r) {
        int done = 0;
        MPI_Test(&r, &done, MPI_STATUS_IGNORE);
        return done != 0;
    });
}

StallCheck::Verdict StallCheck::ask(std::chrono::duration<double> timeout) {
    if (stuck_) return Verdict::EveryoneWaits;
    if (!open_) {
        question_ = (question_ + 1) % kQuestions;
        open_ = true;
        asked_at_ = Clock::now();
        waiting_answers_ = size_ - 1;
        someone_works_ = false;
        for (int r = 0; r < size_; ++r)
            if (r != rank_) send(r, static_cast<int>(question_));
    }
    serve(true);
    const auto since = Clock::now() - asked_at_;
    if (someone_works_ || since >= timeout) {
        open_ = false;
        return Verdict::OthersWork;
    }
    if (waiting_answers_ > 0) return Verdict::Undecided;
    // Every rank answered, within the timeout, that it had waited for the
    // timeout by then: each has been waiting since before the question,
    // while this rank waited too.
    open_ = false;
    stuck_ = true;
    for (int r = 0; r < size_; ++r)
        if (r != rank_) send(r, kStuck);
    return Verdict::EveryoneWaits;
}

}  // namespace hindsight::replay

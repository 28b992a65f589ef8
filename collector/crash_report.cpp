#include "collector/crash_report.hpp"

#include <array>
#include <csignal>
#include <cstring>

#include <unistd.h>

namespace hindsight::collect {

namespace {

struct FatalSignal {
    int number;
    const char* name;
};

constexpr std::array<FatalSignal, 5> kFatalSignals{{
    {SIGSEGV, "SIGSEGV"},
    {SIGBUS, "SIGBUS"},
    {SIGFPE, "SIGFPE"},
    {SIGILL, "SIGILL"},
    {SIGABRT, "SIGABRT"},
}};

// The message around the signal's name, composed before any crash: the
// handler may only call async-signal-safe functions, so it writes prepared
// bytes. One of the collector's necessary singletons.
struct Message {
    std::array<char, 128> before{};
    std::array<char, 1024> after{};
    std::size_t before_length = 0;
    std::size_t after_length = 0;
    // What each signal did before: MPI libraries (UCX, for one) install
    // handlers of their own, which still get the signal after the message.
    std::array<struct sigaction, kFatalSignals.size()> previous{};
};
Message g_message;

template <std::size_t N>
std::size_t copy_into(std::array<char, N>& to, const std::string& text) {
    const std::size_t n = text.size() < N ? text.size() : N;
    std::memcpy(to.data(), text.data(), n);
    return n;
}

void write_all(const char* bytes, std::size_t length) {
    while (length > 0) {
        const ssize_t written = ::write(STDERR_FILENO, bytes, length);
        if (written <= 0) return;
        bytes += written;
        length -= static_cast<std::size_t>(written);
    }
}

extern "C" void report_crash(int signal) {
    for (std::size_t i = 0; i < kFatalSignals.size(); ++i) {
        if (kFatalSignals[i].number != signal) continue;
        write_all(g_message.before.data(), g_message.before_length);
        write_all(kFatalSignals[i].name, std::strlen(kFatalSignals[i].name));
        write_all(g_message.after.data(), g_message.after_length);
        // With the previous action back in place, the signal ends the
        // program as it would have without the collector.
        sigaction(signal, &g_message.previous[i], nullptr);
    }
    ::raise(signal);
}

}  // namespace

void install_crash_report(int world_rank, const std::string& consequence) {
    g_message.before_length =
        copy_into(g_message.before, "hindsight-collect: rank " + std::to_string(world_rank) + ": the program crashed (");
    g_message.after_length = copy_into(g_message.after, "); " + consequence + "\n");
    struct sigaction action {};
    action.sa_handler = report_crash;
    sigemptyset(&action.sa_mask);
    // Raised again from within the handler, the signal must not wait for
    // the handler to return.
    action.sa_flags = SA_NODEFER;
    for (std::size_t i = 0; i < kFatalSignals.size(); ++i) {
        struct sigaction& previous = g_message.previous[i];
        if (sigaction(kFatalSignals[i].number, nullptr, &previous) != 0) continue;
        if (!(previous.sa_flags & SA_SIGINFO) && previous.sa_handler == SIG_IGN) continue;
        sigaction(kFatalSignals[i].number, &action, nullptr);
    }
}

}  // namespace hindsight::collect

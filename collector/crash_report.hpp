// What the user learns when the measured program crashes: without it, a
// program killed by a signal leaves neither a trace nor a word from the
// collector, and the user looks for the trace in vain.
#pragma once

#include <string>

namespace hindsight::collect {

// For the signals that end a program with a fault (SIGSEGV, SIGBUS, SIGFPE,
// SIGILL, SIGABRT) and are not ignored: a handler that writes one line
// naming the rank, the signal and what it leaves, then puts back the
// action the signal had before (the default, or a handler of the program or
// the MPI library) and raises the signal again, so that the program ends as
// it would have (core dump, exit status, the library's backtrace).
// The buffered events are not written: a crashed process may hold the
// allocator's or OTF2's locks, and writing could hang it.
// `consequence` says what the crash leaves in the output directory.
void install_crash_report(int world_rank, const std::string& consequence);

}  // namespace hindsight::collect

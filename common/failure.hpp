// What a tool says when something unexpected escapes its work: the same one
// line "TOOL: PROBLEM" as every other failure, never an uncaught exception
// (which the C++ runtime reports on lines of its own before it aborts the
// process with a core dump). Header-only, so that the collector's launcher
// uses it without linking the common library.
#pragma once

#include <cstdio>
#include <exception>
#include <new>

namespace hindsight {

// The exception being handled, in words; to be called inside a catch block.
// A pointer rather than a string, so that saying "out of memory" needs no
// memory: what() stays valid while the handler that called this runs.
inline const char* current_failure() noexcept {
    try {
        throw;
    } catch (const std::bad_alloc&) {
        return "out of memory";
    } catch (const std::exception& e) {
        return e.what();
    } catch (...) {
        return "an unexpected failure (an exception of unknown type)";
    }
}

// Runs a tool's work, `body`, which returns the exit status; whatever it
// throws ends the tool with one line "PROGRAM: PROBLEM" on stderr and
// `status`.
template <typename Body>
int run_tool(const char* program, Body&& body, int status = 1) noexcept {
    try {
        return body();
    } catch (...) {
        std::fprintf(stderr, "%s: %s\n", program, current_failure());
        return status;
    }
}

}  // namespace hindsight

// The one error type of Hindsight: a problem tied to the file (or other
// input) it was found in, so that every failure reaches the user as a single
// line "FILE: PROBLEM".
#pragma once

#include <stdexcept>
#include <string>

namespace hindsight {

class Error : public std::runtime_error {
public:
    Error(std::string file, std::string problem)
        : std::runtime_error(file.empty() ? problem : file + ": " + problem),
          file_(std::move(file)), problem_(std::move(problem)) {}

    // The input the problem belongs to; empty when there is none.
    const std::string& file() const noexcept { return file_; }
    // The problem alone, without the file.
    const std::string& problem() const noexcept { return problem_; }

private:
    std::string file_;
    std::string problem_;
};

}  // namespace hindsight

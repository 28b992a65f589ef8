// The environment a test gets from meson: the paths of the programs it runs
// (HINDSIGHT_MPIEXEC, HINDSIGHT_ANALYZE, ...).
#pragma once

#include <cstdlib>
#include <string>

#include <catch2/catch.hpp>

namespace hindsight::testing {

// The variable's value; the test fails when it is not set.
inline std::string required_env(const char* name) {
    const char* value = std::getenv(name);
    if (!value) FAIL("environment variable " << name << " is not set");
    return value;
}

}  // namespace hindsight::testing

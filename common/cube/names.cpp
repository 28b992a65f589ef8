#include "common/cube/names.hpp"

#include <array>
#include <utility>

namespace hindsight::cube {

namespace {

// One table per enum drives both directions, so they cannot disagree.
constexpr std::array<std::pair<Paradigm, std::string_view>, 7> kParadigms{{
    {Paradigm::Unknown, "unknown"},
    {Paradigm::User, "user"},
    {Paradigm::Compiler, "compiler"},
    {Paradigm::Mpi, "mpi"},
    {Paradigm::MeasurementSystem, "measurement"},
    {Paradigm::OpenMp, "openmp"},
    {Paradigm::Other, "other"},
}};

constexpr std::array<std::pair<RegionRole, std::string_view>, 22> kRoles{{
    {RegionRole::Unknown, "unknown"},
    {RegionRole::Function, "function"},
    {RegionRole::Wrapper, "wrapper"},
    {RegionRole::Loop, "loop"},
    {RegionRole::Code, "code"},
    {RegionRole::Artificial, "artificial"},
    {RegionRole::Barrier, "barrier"},
    {RegionRole::ImplicitBarrier, "implicit barrier"},
    {RegionRole::CollOne2All, "one2all"},
    {RegionRole::CollAll2One, "all2one"},
    {RegionRole::CollAll2All, "all2all"},
    {RegionRole::CollOther, "other collective"},
    {RegionRole::Point2Point, "point2point"},
    {RegionRole::FileIo, "file io"},
    {RegionRole::FileIoMetadata, "file io metadata"},
    {RegionRole::Rma, "rma"},
    {RegionRole::Atomic, "atomic"},
    {RegionRole::Parallel, "parallel"},
    {RegionRole::Critical, "critical"},
    {RegionRole::CriticalSblock, "critical sblock"},
    {RegionRole::Task, "task"},
    {RegionRole::Other, "other"},
}};

template <typename Enum, std::size_t N>
std::string_view name_of(const std::array<std::pair<Enum, std::string_view>, N>& table, Enum value) {
    for (const auto& [e, name] : table)
        if (e == value) return name;
    return table.front().second;  // the "unknown" entry
}

template <typename Enum, std::size_t N>
Enum value_of(const std::array<std::pair<Enum, std::string_view>, N>& table, std::string_view name) {
    for (const auto& [e, n] : table)
        if (n == name) return e;
    return table.front().first;
}

}  // namespace

std::string_view paradigm_name(Paradigm paradigm) { return name_of(kParadigms, paradigm); }
std::string_view role_name(RegionRole role) { return name_of(kRoles, role); }
Paradigm paradigm_from_name(std::string_view name) { return value_of(kParadigms, name); }
RegionRole role_from_name(std::string_view name) { return value_of(kRoles, name); }

}  // namespace hindsight::cube

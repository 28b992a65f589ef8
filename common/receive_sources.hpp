// Hindsight's own OTF2 attribute on the end event of a collective operation
// (MPI_COLLECTIVE_END, NON_BLOCKING_COLLECTIVE_COMPLETE): the members this
// rank received data from, where the counts of the call decide them
// (MPI_Alltoallv/w, the neighborhood collectives). Its value is a group
// (OTF2_GROUP_TYPE_COMM_GROUP, paradigm MPI) of world ranks, as the groups
// of communicators hold them. Readers that do not know the attribute skip it.
#pragma once

namespace hindsight {

inline constexpr const char* kReceiveSourcesAttribute = "hindsight:receive sources";
inline constexpr const char* kReceiveSourcesDescription =
    "the world ranks this rank received data from in the collective operation";

}  // namespace hindsight

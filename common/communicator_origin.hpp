// Where a communicator came from, as its name in the trace says it: the
// collector names each communicator it saw created after the creating call,
// with the reorder flag of topology constructors and the call path of the
// creation, e.g.
//
//     MPI_Comm_split @ main > setup
//     MPI_Cart_create(reorder) @ main > setup > make_grid
//
// OTF2 has no place for the reorder flag or for graph topologies, and the
// name is what a person reads anyway, so the name carries them. Header only:
// the collector's wrappers compose names, the analyzer reads them back.
#pragma once

#include <string>
#include <string_view>

namespace hindsight {

enum class TopologyKind : unsigned char { None, Cartesian, Graph, DistGraph };

struct CommunicatorOrigin {
    std::string creator;    // "MPI_Comm_split"; empty when the name says nothing of it
    bool reorder = false;   // the reorder argument of a topology constructor
    std::string call_path;  // "main > setup"; empty when unknown
};

inline constexpr std::string_view kReorderMark = "(reorder)";
inline constexpr std::string_view kCallPathMark = " @ ";

inline std::string communicator_name(const CommunicatorOrigin& origin) {
    std::string name = origin.creator;
    if (origin.reorder) name += kReorderMark;
    if (!origin.call_path.empty()) name.append(kCallPathMark).append(origin.call_path);
    return name;
}

// The inverse of communicator_name(); a name it did not compose (a Score-P
// trace's "Comm 3", a test's "odd") comes back as the creator.
inline CommunicatorOrigin communicator_origin(std::string_view name) {
    CommunicatorOrigin origin;
    const std::size_t at = name.find(kCallPathMark);
    if (at != std::string_view::npos) {
        origin.call_path = std::string(name.substr(at + kCallPathMark.size()));
        name = name.substr(0, at);
    }
    if (name.ends_with(kReorderMark)) {
        origin.reorder = true;
        name.remove_suffix(kReorderMark.size());
    }
    origin.creator = std::string(name);
    return origin;
}

// The topology a communicator made by `creator` carries. MPI_Cart_sub keeps
// a Cartesian topology (a sub-grid of its parent's).
inline TopologyKind topology_of_creator(std::string_view creator) {
    if (creator == "MPI_Cart_create" || creator == "MPI_Cart_sub") return TopologyKind::Cartesian;
    if (creator == "MPI_Graph_create") return TopologyKind::Graph;
    if (creator.starts_with("MPI_Dist_graph_create")) return TopologyKind::DistGraph;
    return TopologyKind::None;
}

inline const char* topology_name(TopologyKind kind) {
    switch (kind) {
    case TopologyKind::Cartesian: return "cartesian";
    case TopologyKind::Graph: return "graph";
    case TopologyKind::DistGraph: return "dist-graph";
    case TopologyKind::None: break;
    }
    return "none";
}

}  // namespace hindsight

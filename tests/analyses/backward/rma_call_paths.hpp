// The call paths of the one-sided calls that the RMA scenarios make
// directly in "main", shared by their tests.
#pragma once

namespace hindsight::testing::rma_paths {

inline constexpr const char* kCreate = "main/MPI_Win_create";
inline constexpr const char* kFence = "main/MPI_Win_fence";
inline constexpr const char* kFree = "main/MPI_Win_free";
inline constexpr const char* kStart = "main/MPI_Win_start";
inline constexpr const char* kComplete = "main/MPI_Win_complete";
inline constexpr const char* kPost = "main/MPI_Win_post";
inline constexpr const char* kWait = "main/MPI_Win_wait";
inline constexpr const char* kLock = "main/MPI_Win_lock";
inline constexpr const char* kUnlock = "main/MPI_Win_unlock";
inline constexpr const char* kPut = "main/MPI_Put";

}  // namespace hindsight::testing::rma_paths

// Byte payloads that travel with a replayed message. Every analysis appends
// its own fields on the sending side and reads them back, in the same order,
// on the receiving side; the engine ships the whole payload as one message,
// so all analyses share one message per recorded message. The encoding is
// the project's one byte codec (common/byte_codec.hpp).
#pragma once

#include "common/byte_codec.hpp"

namespace hindsight::replay {

using PayloadWriter = ByteWriter;
using PayloadReader = ByteReader;

}  // namespace hindsight::replay

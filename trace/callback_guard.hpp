// OTF2 calls the loader back from C code, through which no C++ exception
// may pass. Each callback runs its body through guarded(): an exception is
// parked, OTF2 is told to stop, and rethrow_if_interrupted() raises it again
// once control is back in C++.
#pragma once

#include <exception>
#include <utility>

#include <otf2/otf2.h>

namespace hindsight::trace {

class CallbackGuard {
public:
    template <typename Body>
    OTF2_CallbackCode guarded(Body&& body) noexcept {
        try {
            std::forward<Body>(body)();
            return OTF2_CALLBACK_SUCCESS;
        } catch (...) {
            parked_ = std::current_exception();
            return OTF2_CALLBACK_INTERRUPT;
        }
    }
    void rethrow_if_interrupted() {
        if (parked_) std::rethrow_exception(std::exchange(parked_, nullptr));
    }

private:
    std::exception_ptr parked_;
};

}  // namespace hindsight::trace

#include "analyses/stage_order.hpp"

#include <map>
#include <stdexcept>
#include <string>

namespace hindsight::analyses {

std::vector<std::size_t> stage_order(std::span<const StageDeclaration> stages) {
    std::map<Product, std::size_t> producer;
    for (std::size_t s = 0; s < stages.size(); ++s)
        for (const Product p : stages[s].produces)
            if (!producer.emplace(p, s).second)
                throw std::logic_error("analysis \"" + std::string(stages[s].name) + "\" produces what \"" +
                                       std::string(stages[producer.at(p)].name) + "\" produces too");

    // Which stages each stage must wait for.
    std::vector<std::vector<std::size_t>> after(stages.size());
    for (std::size_t s = 0; s < stages.size(); ++s) {
        for (const Product p : stages[s].reads) {
            const auto it = producer.find(p);
            if (it == producer.end())
                throw std::logic_error("analysis \"" + std::string(stages[s].name) +
                                       "\" reads a product that no analysis run with it produces");
            after[s].push_back(it->second);
        }
        for (const Product p : stages[s].reads_if_produced)
            if (const auto it = producer.find(p); it != producer.end()) after[s].push_back(it->second);
    }

    // Repeatedly the first stage in the given order whose producers have
    // all run: a handful of stages, no need for anything faster.
    std::vector<std::size_t> order;
    std::vector<bool> done(stages.size(), false);
    while (order.size() < stages.size()) {
        std::size_t next = stages.size();
        for (std::size_t s = 0; s < stages.size() && next == stages.size(); ++s) {
            if (done[s]) continue;
            bool ready = true;
            for (const std::size_t p : after[s]) ready = ready && done[p];
            if (ready) next = s;
        }
        if (next == stages.size()) {
            std::size_t stuck = 0;
            while (done[stuck]) ++stuck;
            throw std::logic_error("analyses read each other's products in a cycle (\"" +
                                   std::string(stages[stuck].name) + "\" cannot run)");
        }
        done[next] = true;
        order.push_back(next);
    }
    return order;
}

}  // namespace hindsight::analyses

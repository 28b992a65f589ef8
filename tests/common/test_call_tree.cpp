#include <catch2/catch.hpp>

#include "common/call_tree.hpp"
#include "common/error.hpp"

using namespace hindsight;

TEST_CASE("call paths are created once per parent and region") {
    CallTree tree;
    const CallPathId main_path = tree.child(kNoCallPath, 7);
    const CallPathId send_in_main = tree.child(main_path, 3);
    CHECK(tree.child(main_path, 3) == send_in_main);
    CHECK(tree.child(kNoCallPath, 7) == main_path);
    const CallPathId send_at_root = tree.child(kNoCallPath, 3);
    CHECK(send_at_root != send_in_main);
    CHECK(tree.size() == 3);
    CHECK(tree.depth(send_in_main) == 2);
    CHECK(tree.find(main_path, 4) == kNoCallPath);
}

TEST_CASE("merging keeps existing ids and maps the other tree's ids") {
    CallTree a;
    const CallPathId a_main = a.child(kNoCallPath, 0);
    const CallPathId a_f = a.child(a_main, 1);

    CallTree b;
    const CallPathId b_main = b.child(kNoCallPath, 0);
    const CallPathId b_g = b.child(b_main, 2);
    const CallPathId b_f = b.child(b_main, 1);
    const CallPathId b_g_f = b.child(b_g, 1);

    const auto mapping = a.merge(b);
    CHECK(mapping[b_main] == a_main);
    CHECK(mapping[b_f] == a_f);
    CHECK(a.node(mapping[b_g]).region == 2);
    CHECK(a.node(mapping[b_g_f]).parent == mapping[b_g]);
    CHECK(a.size() == 4);
}

TEST_CASE("a call tree survives serialization") {
    CallTree tree;
    const CallPathId root = tree.child(kNoCallPath, 5);
    tree.child(tree.child(root, 6), 7);
    const CallTree copy = CallTree::deserialize(tree.serialize());
    REQUIRE(copy.size() == tree.size());
    for (CallPathId id = 0; id < tree.size(); ++id) {
        CHECK(copy.node(id).region == tree.node(id).region);
        CHECK(copy.node(id).parent == tree.node(id).parent);
    }
}

TEST_CASE("corrupt serialized call trees are rejected") {
    const std::vector<std::uint32_t> odd{1, kNoCallPath, 2};
    CHECK_THROWS_AS(CallTree::deserialize(odd), Error);
    const std::vector<std::uint32_t> forward_parent{1, 1, 2, kNoCallPath};
    CHECK_THROWS_AS(CallTree::deserialize(forward_parent), Error);
}

# SPDX-License-Identifier: MIT
"""The sample tests' view of selinst-report's names (profile version 3:
the profile gives module addresses, the report names them).

named(FILE): sampled_paths' output (lib.sh) as {call path: samples}.
tree_path(p, t, node): the call path of node NODE of thread T of profile
P as the report's tree prints it ("main;work;[loop main.c:12]").
node_samples(node): all the samples a profile node holds, named or not.
"""


def named(path):
    out = {}
    for line in open(path):
        k, v = line.rstrip("\n").split("\t")
        out[k] = out.get(k, 0) + int(v)
    return out


def tree_path(p, t, node):
    regions = {r["id"]: r for r in p["regions"]}
    nodes = {n["id"]: n for n in t["nodes"]}
    names, at = [], node["id"]
    while at:
        r = regions[nodes[at]["region"]]
        names.append("[loop %s:%d]" % (r["file"].rsplit("/", 1)[-1], r["line"])
                     if r["kind"] == "loop" else r["name"])
        at = nodes[at]["parent"]
    return ";".join(reversed(names))


def node_samples(node):
    return sum(x["count"] for x in node.get("samples", []))

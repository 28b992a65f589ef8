#!/usr/bin/env python3
"""Generates the PMPI wrappers of libhindsight-collect from mpi_functions.spec.

Usage: generate_wrappers.py SPEC OUT_HEADER OUT_SOURCE

OUT_HEADER declares the MpiFunction enumeration, the table of MPI regions
(name and OTF2 role) and, for every recorded function, a pointer to the MPI
library's own PMPI_* function (namespace `next`). OUT_SOURCE defines one
extern "C" MPI_* function per spec line (except kinds "custom" and "local")
that calls the MPI library's PMPI_* through that pointer and hands the
arguments to the semantic handler of its kind (mpi_handlers.hpp), the same
function under the name PMPI_* as well (bindings such as MPICH's `use
mpi_f08` call PMPI_* directly), and the code that finds the pointers when the
library is loaded. Lines of kind "local" declare the functions deliberately
left alone: they get neither a wrapper nor a region, so the spec lists the
whole MPI interface. Every MPI wrapper thus has the same shape; only the
handlers are written by hand.

A malformed spec stops the generator with "SPEC:LINE: problem" on stderr and
exit status 1, so that the build fails at the line to fix.
"""

import re
import sys

# Keys each kind accepts, and the parameters its generated code uses by name.
KINDS = {
    "plain": ({"role"}, []),
    "custom": ({"role"}, []),
    "local": (set(), []),
    "send": (set(), ["count", "datatype", "dest", "tag", "comm"]),
    "recv": (set(), ["source", "comm", "status"]),
    "sendrecv": ({"count", "type", "tag"}, ["dest", "comm", "status"]),
    "isend": (set(), ["count", "datatype", "dest", "tag", "comm", "request"]),
    "irecv": (set(), ["source", "tag", "comm", "request"]),
    "mprobe": (set(), ["source", "tag", "comm", "message"]),
    "iprobe": (set(), ["source", "tag", "comm", "flag"]),
    "mrecv": (set(), ["message", "status"]),
    "imrecv": (set(), ["message", "request"]),
    "send_init": (set(), ["count", "datatype", "dest", "tag", "comm", "request"]),
    "recv_init": (set(), ["source", "tag", "comm", "request"]),
    "start": ({"requests", "count"}, []),
    "complete": ({"form", "test"}, []),
    "request_free": (set(), ["request"]),
    "coll": ({"op", "root", "bytes", "exchange"}, ["comm"]),
    "icoll": ({"op", "root", "bytes", "exchange"}, ["comm"]),
    "comm_new": ({"out", "parent", "reorder"}, []),
    "comm_idup": ({"out", "parent"}, ["request"]),
    "comm_free": ({"comm"}, []),
    "file_open": ({"role"}, ["comm", "filename", "amode", "fh"]),
    "file_close": ({"role"}, ["fh"]),
    "file_delete": ({"role"}, ["filename"]),
    "file_seek": ({"role", "position"}, ["fh", "offset", "whence"]),
    "file_io": ({"role", "mode", "collective", "form"}, ["fh"]),
    "win_create": ({"role", "op"}, ["comm", "win"]),
    "win_free": ({"role"}, ["win"]),
    "win_fence": ({"role"}, ["win"]),
    "rma": ({"role", "op", "atomic", "sent", "received", "request"}, ["target_rank", "win"]),
    "rma_complete": ({"role", "target", "at"}, ["win"]),
    "win_epoch_start": ({"role", "epoch"}, ["group", "win"]),
    "win_epoch_end": ({"role", "epoch"}, ["win"]),
    "win_test": ({"role"}, ["win", "flag"]),
    "win_lock": ({"role", "target", "type"}, ["win"]),
    "win_unlock": ({"role", "target"}, ["win"]),
}

REQUIRED_KEYS = {
    "sendrecv": {"count", "type", "tag"},
    "complete": {"form", "test"},
    "coll": {"op"},
    "icoll": {"op"},
    "comm_new": {"out", "parent"},
    "comm_idup": {"out", "parent"},
    "comm_free": {"comm"},
    "file_seek": {"position"},
    "file_io": {"mode", "collective", "form"},
    "win_create": {"op"},
    "rma": {"op"},
    "win_epoch_start": {"epoch"},
    "win_epoch_end": {"epoch"},
}

ROLES = {"FUNCTION", "POINT2POINT", "BARRIER", "COLL_ONE2ALL", "COLL_ALL2ONE",
         "COLL_ALL2ALL", "COLL_OTHER", "RMA", "ATOMIC", "ALLOCATE", "FILE_IO",
         "FILE_IO_METADATA"}

# Score-P's role of a collective, by its OTF2 collective operation.
OP_ROLES = {
    "BARRIER": "BARRIER",
    "BCAST": "COLL_ONE2ALL", "SCATTER": "COLL_ONE2ALL", "SCATTERV": "COLL_ONE2ALL",
    "GATHER": "COLL_ALL2ONE", "GATHERV": "COLL_ALL2ONE", "REDUCE": "COLL_ALL2ONE",
    "SCAN": "COLL_OTHER", "EXSCAN": "COLL_OTHER",
    "ALLGATHER": "COLL_ALL2ALL", "ALLGATHERV": "COLL_ALL2ALL",
    "ALLTOALL": "COLL_ALL2ALL", "ALLTOALLV": "COLL_ALL2ALL", "ALLTOALLW": "COLL_ALL2ALL",
    "ALLREDUCE": "COLL_ALL2ALL", "REDUCE_SCATTER": "COLL_ALL2ALL",
    "REDUCE_SCATTER_BLOCK": "COLL_ALL2ALL",
}

POINT_TO_POINT_KINDS = {"send", "recv", "sendrecv", "isend", "irecv", "send_init", "recv_init",
                        "mprobe", "mrecv", "imrecv", "iprobe"}

# The forms of file_io and the parameters each uses by name: blocking
# (its operation completes in the call), start (non-blocking: completed
# by Wait/Test), begin and end (a split collective's two calls).
FILE_IO_FORMS = {
    "blocking": ["count", "datatype", "status"],
    "start": ["count", "datatype", "request"],
    "begin": ["count", "datatype"],
    "end": ["status"],
}

# The OTF2 collective operation of a window's creation, by op= of win_create.
WIN_CREATE_OPS = {"create": "OTF2_COLLECTIVE_OP_CREATE_HANDLE",
                  "allocate": "OTF2_COLLECTIVE_OP_CREATE_HANDLE_AND_ALLOCATE"}
# The RMA transfer kinds (op= of rma) and OTF2's atomic types (atomic=).
RMA_OPS = {"put", "get", "atomic"}
RMA_ATOMICS = {"ACCUMULATE", "FETCH_AND_ACCUMULATE", "COMPARE_AND_SWAP"}
# sent=/received= of rma: COUNT:TYPE, COUNT a parameter or a number.
RMA_BYTES = re.compile(r"^(\w+):(\w+)$")

# Parameters the completion handlers take, by form; "flag" only for tests.
COMPLETE_ARGS = {
    "one": (["request"], ["status"]),
    "all": (["count", "array_of_requests"], ["array_of_statuses"]),
    "any": (["count", "array_of_requests", "indx"], ["status"]),
    "some": (["incount", "array_of_requests", "outcount", "array_of_indices"],
             ["array_of_statuses"]),
}

PROTOTYPE = re.compile(r"^int\s+(MPI_\w+)\s*\((.*)\)$")
# A function left alone may return anything (MPI_Wtime: double).
LOCAL_PROTOTYPE = re.compile(r"^\w+\s+(MPI_\w+)\s*\((.*)\)$")
PARAM_NAME = re.compile(r"(\w+)\s*(\[\])?(\[\d+\])?$")
BYTES_RULE = re.compile(r"^(\w+)\(([\w,]*)\)$")


class SpecError(Exception):
    def __init__(self, line, problem):
        super().__init__(problem)
        self.line = line
        self.problem = problem


class Param:
    def __init__(self, decl, name, is_array):
        self.decl = decl
        self.name = name
        self.is_array = is_array


class Function:
    def __init__(self, line, kind, keys, name, params):
        self.line = line
        self.kind = kind
        self.keys = keys
        self.name = name
        self.params = params

    def param_names(self):
        return [p.name for p in self.params]

    def role(self):
        if "role" in self.keys:
            return self.keys["role"]
        if self.kind in ("coll", "icoll"):
            return OP_ROLES[self.keys["op"]]
        if self.kind in POINT_TO_POINT_KINDS:
            return "POINT2POINT"
        return "FUNCTION"


def parse_params(line, text):
    text = text.strip()
    if text == "void" or text == "":
        return []
    params = []
    for decl in (part.strip() for part in text.split(",")):
        match = PARAM_NAME.search(decl)
        if not match or match.start() == 0:
            raise SpecError(line, f"cannot read the parameter '{decl}'")
        params.append(Param(decl, match.group(1), match.group(2) is not None))
    return params


def parse_line(number, text):
    head, sep, prototype = text.partition("|")
    if not sep:
        raise SpecError(number, "expected 'KIND [KEY=VALUE ...] | PROTOTYPE'")
    words = head.split()
    if not words:
        raise SpecError(number, "the kind is missing")
    kind = words[0]
    if kind not in KINDS:
        raise SpecError(number, f"unknown kind '{kind}'")
    allowed, needed_params = KINDS[kind]
    keys = {}
    for word in words[1:]:
        key, eq, value = word.partition("=")
        if not eq or not value:
            raise SpecError(number, f"expected KEY=VALUE, got '{word}'")
        if key not in allowed:
            raise SpecError(number, f"kind '{kind}' takes no key '{key}'")
        keys[key] = value
    missing = REQUIRED_KEYS.get(kind, set()) - keys.keys()
    if missing:
        raise SpecError(number, f"kind '{kind}' needs the key(s) {', '.join(sorted(missing))}")

    if kind == "local":
        match = LOCAL_PROTOTYPE.match(prototype.strip())
        if not match:
            raise SpecError(number, "the prototype must read 'TYPE MPI_Name(PARAMETERS)'")
        return Function(number, kind, keys, match.group(1), [])
    match = PROTOTYPE.match(prototype.strip())
    if not match:
        raise SpecError(number, "the prototype must read 'int MPI_Name(PARAMETERS)'")
    function = Function(number, kind, keys, match.group(1), parse_params(number, match.group(2)))
    check_names(function, needed_params)
    return function


def check_names(function, needed_params):
    """Every parameter the generated code will name must exist."""
    names = set(function.param_names())

    def need(name, why):
        if name not in names:
            raise SpecError(function.line, f"{function.name} has no parameter '{name}' ({why})")

    for name in needed_params:
        need(name, f"kind '{function.kind}'")
    keys = function.keys
    if "role" in keys and keys["role"] not in ROLES:
        raise SpecError(function.line, f"unknown role '{keys['role']}'")
    if function.kind == "sendrecv":
        for key in ("count", "type", "tag"):
            need(keys[key], f"key {key}")
    if function.kind == "start":
        if "requests" in keys:
            need(keys["requests"], "key requests")
            need(keys.get("count", ""), "key count")
        else:
            need("request", "kind 'start' without requests=")
    if function.kind == "complete":
        form = keys["form"]
        if form not in COMPLETE_ARGS:
            raise SpecError(function.line, f"unknown form '{form}'")
        if keys["test"] not in ("yes", "no"):
            raise SpecError(function.line, "test must be yes or no")
        inputs, outputs = COMPLETE_ARGS[form]
        for name in inputs + outputs:
            need(name, f"form '{form}'")
        if keys["test"] == "yes" and form != "some":
            need("flag", "a test")
    if function.kind in ("coll", "icoll"):
        if keys["op"] not in OP_ROLES:
            raise SpecError(function.line, f"unknown collective operation '{keys['op']}'")
        if "root" in keys:
            need(keys["root"], "key root")
        counted = [key for key in ("bytes", "exchange") if key in keys]
        if len(counted) != 1:
            raise SpecError(function.line, "a collective needs bytes= or exchange=, not both")
        rule = BYTES_RULE.match(keys[counted[0]])
        if not rule:
            raise SpecError(function.line, f"{counted[0]} must read RULE(PARAM,...)")
        for arg in filter(None, rule.group(2).split(",")):
            need(arg, f"{counted[0]} rule")
        if function.kind == "icoll":
            need("request", "kind 'icoll'")
    if function.kind in ("comm_new", "comm_idup"):
        need(keys["out"], "key out")
        need(keys["parent"], "key parent")
        if "reorder" in keys:
            need(keys["reorder"], "key reorder")
    if function.kind == "comm_free":
        need(keys["comm"], "key comm")
    if function.kind == "file_io":
        if keys["form"] not in FILE_IO_FORMS:
            raise SpecError(function.line, f"unknown form '{keys['form']}'")
        if keys["mode"] not in ("read", "write"):
            raise SpecError(function.line, "mode must be read or write")
        if keys["collective"] not in ("yes", "no"):
            raise SpecError(function.line, "collective must be yes or no")
        for name in FILE_IO_FORMS[keys["form"]]:
            need(name, f"form '{keys['form']}'")
    if function.kind == "win_create" and keys["op"] not in WIN_CREATE_OPS:
        raise SpecError(function.line, "op must be create or allocate")
    if function.kind == "rma":
        if keys["op"] not in RMA_OPS:
            raise SpecError(function.line, "op must be put, get or atomic")
        if (keys["op"] == "atomic") != ("atomic" in keys) or keys.get("atomic", "ACCUMULATE") not in RMA_ATOMICS:
            raise SpecError(function.line, "atomic= (ACCUMULATE, FETCH_AND_ACCUMULATE or COMPARE_AND_SWAP) "
                                           "goes with op=atomic alone")
        for key in ("sent", "received"):
            if key not in keys:
                continue
            rule = RMA_BYTES.match(keys[key])
            if not rule:
                raise SpecError(function.line, f"{key} must read COUNT:TYPE")
            if not rule.group(1).isdigit():
                need(rule.group(1), f"key {key}")
            need(rule.group(2), f"key {key}")
    if function.kind in ("win_epoch_start", "win_epoch_end") and keys["epoch"] not in ("access", "exposure"):
        raise SpecError(function.line, "epoch must be access or exposure")
    if function.kind == "rma" and "request" in keys:
        need(keys["request"], "key request")
    if function.kind in ("rma_complete", "win_lock", "win_unlock") and "target" in keys:
        need(keys["target"], "key target")
    if function.kind == "rma_complete" and keys.get("at", "target") not in ("origin", "target"):
        raise SpecError(function.line, "at must be origin or target")
    if function.kind == "win_lock" and "type" in keys:
        need(keys["type"], "key type")
    if function.kind == "file_seek" and keys["position"] not in ("individual", "shared"):
        raise SpecError(function.line, "position must be individual or shared")


def parse_spec(text):
    functions = []
    seen = set()
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        function = parse_line(number, line)
        if function.name in seen:
            raise SpecError(number, f"{function.name} is listed twice")
        seen.add(function.name)
        functions.append(function)
    if not functions:
        raise SpecError(1, "the spec lists no function")
    return functions


# --- code generation --------------------------------------------------------

def signature(function):
    params = ", ".join(p.decl for p in function.params) or "void"
    return f'extern "C" int {function.name}({params})'


def pmpi_call(function, replace=None):
    """The call of the MPI library's own function: through its pointer, never
    by name, since the name PMPI_* is the collector's wrapper too."""
    replace = replace or {}
    args = ", ".join(replace.get(n, n) for n in function.param_names())
    return f"next::P{function.name}({args})"


def param_types(function):
    """The parameter list without names, e.g. for a function pointer type."""
    types = []
    for p in function.params:
        match = PARAM_NAME.search(p.decl)
        types.append(p.decl[:match.start(1)].rstrip() + (" " + p.decl[match.end(1):].strip()).rstrip())
    return ", ".join(types) or "void"


def body(function):
    """Lines of the wrapper body for each kind."""
    k = function.keys
    enum = f"MpiFunction::{function.name}"
    call = pmpi_call(function)
    kind = function.kind
    # Tests write their ENTER late: an unsuccessful one may join a run.
    is_test = (kind == "iprobe" or (kind == "complete" and k["test"] == "yes")
               or (kind == "mprobe" and "flag" in function.param_names()))
    lines = [f"MpiCall call({enum}{', MpiCall::deferred' if is_test else ''});"]

    def with_rc(after):
        lines.append(f"const int hs_rc = {call};")
        lines.extend(after)
        lines.append("return hs_rc;")

    def substitute_status():
        lines.append("MPI_Status hs_status;")
        lines.append("if (call && status == MPI_STATUS_IGNORE) status = &hs_status;")

    if kind == "plain":
        lines.append(f"return {call};")
    elif kind == "send":
        lines.append("if (call) on_send(call, count, datatype, dest, tag, comm);")
        lines.append(f"return {call};")
    elif kind == "recv":
        substitute_status()
        with_rc(["if (call && hs_rc == MPI_SUCCESS) on_recv(call, *status, source, comm);"])
    elif kind == "sendrecv":
        lines.append(f"if (call) on_send(call, {k['count']}, {k['type']}, dest, {k['tag']}, comm);")
        substitute_status()
        with_rc(["if (call && hs_rc == MPI_SUCCESS) on_recv(call, *status, source, comm);"])
    elif kind == "isend":
        with_rc(["if (call && hs_rc == MPI_SUCCESS) "
                 "on_isend(call, count, datatype, dest, tag, comm, *request);"])
    elif kind == "irecv":
        with_rc(["if (call && hs_rc == MPI_SUCCESS) on_irecv(call, source, tag, comm, *request);"])
    elif kind == "mprobe":
        # MPI_Improbe sets *flag; MPI_Mprobe always finds a message.
        if "flag" in function.param_names():
            with_rc(["if (call && hs_rc == MPI_SUCCESS) on_iprobe(call, source, tag, comm, *flag);",
                     "if (call.live() && hs_rc == MPI_SUCCESS && *flag) on_mprobe(call, comm, *message);"])
        else:
            with_rc(["if (call.live() && hs_rc == MPI_SUCCESS) on_mprobe(call, comm, *message);"])
    elif kind == "iprobe":
        with_rc(["if (call && hs_rc == MPI_SUCCESS) on_iprobe(call, source, tag, comm, *flag);"])
    elif kind == "mrecv":
        # MPI sets *message to MPI_MESSAGE_NULL: the handle is read before.
        lines.append("const MPI_Message hs_message = *message;")
        lines.append("MPI_Status hs_status;")
        lines.append("if (call.live() && status == MPI_STATUS_IGNORE) status = &hs_status;")
        with_rc(["if (call.live() && hs_rc == MPI_SUCCESS) on_mrecv(call, *status, hs_message);"])
    elif kind == "imrecv":
        lines.append("const MPI_Message hs_message = *message;")
        with_rc(["if (call.live() && hs_rc == MPI_SUCCESS) on_imrecv(call, hs_message, *request);"])
    elif kind == "send_init":
        with_rc(["if (call.live() && hs_rc == MPI_SUCCESS) "
                 "on_send_init(call, count, datatype, dest, tag, comm, *request);"])
    elif kind == "recv_init":
        with_rc(["if (call.live() && hs_rc == MPI_SUCCESS) "
                 "on_recv_init(call, source, tag, comm, *request);"])
    elif kind == "start":
        if "requests" in k:
            after = f"on_start(call, {k['count']}, {k['requests']});"
        else:
            after = "on_start(call, 1, request);"
        with_rc([f"if (call && hs_rc == MPI_SUCCESS) {after}"])
    elif kind == "complete":
        form = k["form"]
        inputs, outputs = COMPLETE_ARGS[form]
        if form == "some":
            flag = "true" if k["test"] == "yes" else "false"
        else:
            flag = "flag" if k["test"] == "yes" else "nullptr"
        status_param = outputs[0]
        status_type = "MPI_Status*"
        pmpi = pmpi_call(function, {status_param: "hs_statuses"})
        args = ", ".join(inputs + [flag, status_param])
        lines.append(f"if (!call) return {call};")
        lines.append(f"return complete_{form}(call, {args}, "
                     f"[&]({status_type} hs_statuses) {{ return {pmpi}; }});")
    elif kind == "request_free":
        lines.append("if (call.live()) on_request_free(call, *request);")
        lines.append(f"return {call};")
    elif kind in ("coll", "icoll"):
        counted = "exchange" if "exchange" in k else "bytes"
        rule = BYTES_RULE.match(k[counted])
        root = k.get("root", "kNoRoot")
        op_args = (f"OTF2_COLLECTIVE_OP_{k['op']}, comm, {root}, "
                   f"{counted}::{rule.group(1)}({rule.group(2).replace(',', ', ')})")
        if kind == "coll":
            lines.append("if (call) on_collective_begin(call);")
            with_rc([f"if (call) on_collective_end(call, {op_args});"])
        else:
            with_rc([f"if (call && hs_rc == MPI_SUCCESS) on_icollective(call, {op_args}, *request);"])
    elif kind == "comm_new":
        with_rc([f"if (call.live() && hs_rc == MPI_SUCCESS) "
                 f"on_comm_created(call, *{k['out']}, {k['parent']}, {enum}, "
                 f"{k['reorder'] + ' != 0' if 'reorder' in k else 'false'});"])
    elif kind == "comm_idup":
        with_rc([f"if (call.live() && hs_rc == MPI_SUCCESS) "
                 f"on_comm_idup(call, *{k['out']}, {k['parent']}, {enum}, *request);"])
    elif kind == "comm_free":
        lines.append(f"if (call.live()) on_comm_free(call, *{k['comm']});")
        lines.append(f"return {call};")
    elif kind == "file_open":
        with_rc(["if (call.live() && hs_rc == MPI_SUCCESS) on_file_open(call, comm, filename, amode, *fh);"])
    elif kind == "file_close":
        # MPI sets *fh to MPI_FILE_NULL: the handle is read before.
        lines.append("const MPI_File hs_file = *fh;")
        with_rc(["if (call.live()) on_file_close(call, hs_file, hs_rc == MPI_SUCCESS);"])
    elif kind == "file_delete":
        with_rc(["if (call && hs_rc == MPI_SUCCESS) on_file_delete(call, filename);"])
    elif kind == "file_seek":
        shared = "true" if k["position"] == "shared" else "false"
        with_rc([f"if (call && hs_rc == MPI_SUCCESS) on_file_seek(call, fh, offset, whence, {shared});"])
    elif kind == "file_io":
        form = k["form"]
        mode = "OTF2_IO_OPERATION_MODE_READ" if k["mode"] == "read" else "OTF2_IO_OPERATION_MODE_WRITE"
        collective = "true" if k["collective"] == "yes" else "false"
        if form == "end":
            substitute_status()
            with_rc(["if (call) on_file_io_end(call, fh, hs_rc, *status);"])
        else:
            lines.append(f"const FileOperation hs_io = call ? on_file_io_begin(call, fh, {mode}, {collective}, "
                         f"{'true' if form == 'blocking' else 'false'}, count, datatype) : FileOperation{{}};")
            if form == "blocking":
                substitute_status()
                with_rc(["if (hs_io) on_file_io_complete(call, hs_io, hs_rc, *status);"])
            elif form == "start":
                with_rc(["if (hs_io) on_file_io_issued(call, hs_io, hs_rc, request);"])
            else:
                with_rc(["if (hs_io) on_file_io_split(call, hs_io, hs_rc);"])
    elif kind == "win_create":
        lines.append("if (call) on_rma_collective_begin(call);")
        with_rc([f"if (call.live() && hs_rc == MPI_SUCCESS) "
                 f"on_win_created(call, comm, *win, {WIN_CREATE_OPS[k['op']]});"])
    elif kind == "win_free":
        # MPI sets *win to MPI_WIN_NULL: the handle is read before.
        lines.append("const MPI_Win hs_win = *win;")
        lines.append("if (call) on_rma_collective_begin(call, hs_win);")
        with_rc(["if (call.live() && hs_rc == MPI_SUCCESS) on_win_freed(call, hs_win);"])
    elif kind == "win_fence":
        lines.append("if (call) on_rma_collective_begin(call, win);")
        with_rc(["if (call.live() && hs_rc == MPI_SUCCESS) on_win_fence(call, win);"])
    elif kind == "rma":
        def rma_bytes(key):
            if key not in k:
                return "0"
            count, datatype = RMA_BYTES.match(k[key]).groups()
            return f"rma_bytes({count}, {datatype})"
        atomic = f"OTF2_RMA_ATOMIC_TYPE_{k.get('atomic', 'ACCUMULATE')}"
        transfer = (f"on_rma_transfer(call, win, target_rank, RmaKind::{k['op'].capitalize()}, {atomic}, "
                    f"{rma_bytes('sent')}, {rma_bytes('received')})")
        if "request" not in k:
            lines.append(f"if (call) {transfer};")
            lines.append(f"return {call};")
        else:
            # Issued at entry like the others; the request completes it.
            lines.append(f"const std::optional<std::uint64_t> hs_rma = call ? {transfer} : std::nullopt;")
            with_rc([f"if (hs_rma && hs_rc == MPI_SUCCESS) on_rma_request(call, win, *hs_rma, *{k['request']});"])
    elif kind == "rma_complete":
        target = k.get("target")
        handler = "on_rma_complete_locally" if k.get("at") == "origin" else "on_rma_complete"
        with_rc([f"if (call.live() && hs_rc == MPI_SUCCESS) {handler}(call, win, "
                 f"{'std::optional<int>(' + target + ')' if target else 'std::nullopt'});"])
    elif kind in ("win_epoch_start", "win_epoch_end"):
        epoch = f"RmaEpoch::{k['epoch'].capitalize()}"
        handler = (f"on_win_epoch_start(call, win, group, {epoch})" if kind == "win_epoch_start"
                   else f"on_win_epoch_end(call, win, {epoch}, true)")
        with_rc([f"if (call.live() && hs_rc == MPI_SUCCESS) {handler};"])
    elif kind in ("win_lock", "win_unlock"):
        target = k.get("target")
        target = f"std::optional<int>({target})" if target else "std::nullopt"
        if kind == "win_lock":
            # Requested at entry, as Score-P records it: MPI may grant the
            # lock at once or only in a later call.
            lines.append(f"if (call) on_win_lock(call, win, {target}, {k.get('type', 'MPI_LOCK_SHARED')});")
            lines.append(f"return {call};")
        else:
            with_rc([f"if (call.live() && hs_rc == MPI_SUCCESS) on_win_unlock(call, win, {target});"])
    elif kind == "win_test":
        with_rc(["if (call.live() && hs_rc == MPI_SUCCESS) "
                 "on_win_epoch_end(call, win, RmaEpoch::Exposure, *flag != 0);"])
    else:  # pragma: no cover - KINDS and this function must agree
        raise AssertionError(kind)
    return lines


GENERATED_NOTE = "// Generated by collector/generate_wrappers.py from {spec}; do not edit.\n"


def recorded(functions):
    return [f for f in functions if f.kind != "local"]


def header(functions, spec_name):
    functions = recorded(functions)
    out = [GENERATED_NOTE.format(spec=spec_name),
           "// The MPI functions the collector intercepts and the regions they become.\n",
           "#pragma once\n\n#include <array>\n#include <cstdint>\n\n#include <mpi.h>\n#include <otf2/otf2.h>\n\n",
           "namespace hindsight::collect {\n\n",
           "enum class MpiFunction : std::uint16_t {\n"]
    out.extend(f"    {f.name},\n" for f in functions)
    out.append("};\n\n")
    out.append("struct MpiFunctionInfo {\n    const char* name;\n    OTF2_RegionRole role;\n};\n\n")
    out.append(f"inline constexpr std::size_t kMpiFunctionCount = {len(functions)};\n\n")
    out.append("inline constexpr std::array<MpiFunctionInfo, kMpiFunctionCount> kMpiFunctions{{\n")
    out.extend(f'    {{"{f.name}", OTF2_REGION_ROLE_{f.role()}}},\n' for f in functions)
    out.append("}};\n\n")
    out.append("inline constexpr const MpiFunctionInfo& info(MpiFunction f) {\n"
               "    return kMpiFunctions[static_cast<std::size_t>(f)];\n}\n\n")
    out.append("}  // namespace hindsight::collect\n\n")
    out.append("// The MPI library's own PMPI_* functions, found when the collector is\n"
               "// loaded (mpi_wrappers.cpp): the wrappers call these, since PMPI_* by name\n"
               "// is the collector's wrapper too. Hidden: reached without the GOT.\n"
               "namespace hindsight::collect::next {\n")
    out.extend(f"extern __attribute__((visibility(\"hidden\"))) int (*P{f.name})({param_types(f)});\n"
               for f in functions)
    out.append("}  // namespace hindsight::collect::next\n")
    return "".join(out)


def source(functions, spec_name, header_name):
    out = [GENERATED_NOTE.format(spec=spec_name),
           "// One wrapper per intercepted MPI function: ENTER/LEAVE through MpiCall,\n"
           "// the work through the handler of the function's kind.\n",
           f'#include "{header_name}"\n#include "collector/mpi_handlers.hpp"\n'
           '#include "collector/next_mpi.hpp"\n\n',
           "using namespace hindsight::collect;\n"]
    functions = recorded(functions)
    out.append("\nnamespace hindsight::collect::next {\n")
    out.extend(f"int (*P{f.name})({param_types(f)}) = nullptr;\n" for f in functions)
    out.append("}  // namespace hindsight::collect::next\n")
    for function in functions:
        if function.kind == "custom":
            continue
        out.append(f"\n{signature(function)} {{\n")
        out.extend(f"    {line}\n" for line in body(function))
        out.append("}\n")
        # The same wrapper under the profiling name; "custom" wrappers, written
        # by hand, declare theirs next to their definition.
        out.append(f'{signature(function).replace(function.name, "P" + function.name, 1)} '
                   f'__attribute__((alias("{function.name}")));\n')
    out.append("\n// Finds the MPI library's PMPI_* functions before the program runs:\n"
               "// one lookup per function, none per call.\n"
               "__attribute__((constructor)) static void hs_find_next_mpi() {\n")
    for f in functions:
        out.append(f'    find_next_mpi(next::P{f.name}, "P{f.name}");\n')
    out.append("}\n")
    return "".join(out)


def main(argv):
    if len(argv) != 4:
        print("usage: generate_wrappers.py SPEC OUT_HEADER OUT_SOURCE", file=sys.stderr)
        return 2
    spec_path, header_path, source_path = argv[1:]
    try:
        with open(spec_path, encoding="utf-8") as spec_file:
            functions = parse_spec(spec_file.read())
    except OSError as error:
        print(f"{spec_path}: {error.strerror}", file=sys.stderr)
        return 1
    except SpecError as error:
        print(f"{spec_path}:{error.line}: {error.problem}", file=sys.stderr)
        return 1
    spec_name = spec_path.rsplit("/", 1)[-1]
    header_name = "collector/" + header_path.rsplit("/", 1)[-1]
    with open(header_path, "w", encoding="utf-8") as out:
        out.write(header(functions, spec_name))
    with open(source_path, "w", encoding="utf-8") as out:
        out.write(source(functions, spec_name, header_name))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

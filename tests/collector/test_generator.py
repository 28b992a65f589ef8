#!/usr/bin/python3
"""Unit test of generate_wrappers.py: a small spec produces the expected
wrappers, and spec mistakes stop it with SPEC:LINE: problem."""

import os
import subprocess
import sys
import tempfile

GENERATOR = sys.argv[1]
FAILURES = []


def generate(spec_text):
    with tempfile.TemporaryDirectory() as d:
        spec = os.path.join(d, "t.spec")
        with open(spec, "w") as out:
            out.write(spec_text)
        result = subprocess.run([sys.executable, GENERATOR, spec, os.path.join(d, "f.hpp"), os.path.join(d, "w.cpp")],
                                capture_output=True, text=True)
        header = source = ""
        if result.returncode == 0:
            header = open(os.path.join(d, "f.hpp")).read()
            source = open(os.path.join(d, "w.cpp")).read()
        return result, header, source


def check(condition, message):
    if not condition:
        FAILURES.append(message)


GOOD = """# comment
custom | int MPI_Init(int *argc, char ***argv)
send | int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
coll op=BCAST root=root bytes=bcast(count,datatype,root,comm) | int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
complete form=all test=yes | int MPI_Testall(int count, MPI_Request array_of_requests[], int *flag, MPI_Status array_of_statuses[])
comm_new out=newcomm parent=comm | int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
comm_new out=comm_cart parent=comm_old reorder=reorder | int MPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder, MPI_Comm *comm_cart)
"""

result, header, source = generate(GOOD)
check(result.returncode == 0, f"a good spec failed: {result.stderr}")
check('{"MPI_Init", OTF2_REGION_ROLE_FUNCTION}' in header, "MPI_Init region with role FUNCTION")
check('{"MPI_Send", OTF2_REGION_ROLE_POINT2POINT}' in header, "MPI_Send region with role POINT2POINT")
check('{"MPI_Bcast", OTF2_REGION_ROLE_COLL_ONE2ALL}' in header, "MPI_Bcast region with role COLL_ONE2ALL")
check("kMpiFunctionCount = 6" in header, "six functions")
check("int MPI_Init(" not in source, "custom functions get no generated wrapper")
check('extern "C" int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {' in source,
      "MPI_Send keeps its signature")
check("if (call) on_send(call, count, datatype, dest, tag, comm);\n    return next::PMPI_Send(buf, count, datatype, dest, tag, comm);" in source,
      "MPI_SEND is recorded before the MPI library's PMPI_Send")
# Every binding is seen: the wrapper also answers to PMPI_Send (MPICH's
# `use mpi_f08` calls PMPI_* directly), so it must reach MPI's own through
# the pointer found at load, never by that name.
check('extern "C" int PMPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) '
      '__attribute__((alias("MPI_Send")));' in source, "MPI_Send's wrapper is PMPI_Send too")
check("int PMPI_Init(" not in source, "custom functions define their PMPI_* names by hand")
check("extern __attribute__((visibility(\"hidden\"))) int (*PMPI_Testall)(int, MPI_Request [], int *, MPI_Status []);"
      in header, "a pointer to MPI's own PMPI_Testall, of its type")
check("extern __attribute__((visibility(\"hidden\"))) int (*PMPI_Init)(int *, char ***);" in header,
      "custom functions get the pointer too")
for name in ("PMPI_Init", "PMPI_Send", "PMPI_Bcast", "PMPI_Testall", "PMPI_Comm_dup", "PMPI_Cart_create"):
    check(f'find_next_mpi(next::{name}, "{name}");' in source, f"{name} is found when the library is loaded")
check("on_collective_end(call, OTF2_COLLECTIVE_OP_BCAST, comm, root, bytes::bcast(count, datatype, root, comm))" in source,
      "MPI_Bcast records its operation, root and bytes")
check("complete_all(call, count, array_of_requests, flag, array_of_statuses, [&](MPI_Status* hs_statuses) { return next::PMPI_Testall(count, array_of_requests, flag, hs_statuses); })" in source,
      "MPI_Testall goes through complete_all with its flag")
check("on_comm_created(call, *newcomm, comm, MpiFunction::MPI_Comm_dup, false)" in source, "MPI_Comm_dup records the new communicator")
check("on_comm_created(call, *comm_cart, comm_old, MpiFunction::MPI_Cart_create, reorder != 0)" in source,
      "MPI_Cart_create records the new communicator with its reorder flag")

# The kinds of the whole interface: functions left alone, matched probes,
# MPI_Comm_idup, tests that may join a run of unsuccessful ones, roles.
WHOLE = """local | double MPI_Wtime(void)
local | int MPI_Pcontrol(const int level, ...)
mprobe | int MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message, MPI_Status *status)
mrecv | int MPI_Mrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status)
imrecv | int MPI_Imrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Request *request)
iprobe | int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
comm_idup out=newcomm parent=comm | int MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
complete form=some test=yes | int MPI_Testsome(int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[], MPI_Status array_of_statuses[])
complete form=one test=no | int MPI_Wait(MPI_Request *request, MPI_Status *status)
plain role=RMA | int MPI_Put(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win)
plain role=FILE_IO_METADATA | int MPI_File_close(MPI_File *fh)
plain | int MPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
"""
result, header, source = generate(WHOLE)
check(result.returncode == 0, f"the whole-interface spec failed: {result.stderr}")
check("kMpiFunctionCount = 10" in header, "functions left alone are no regions")
check("MPI_Wtime" not in header + source and "MPI_Pcontrol" not in header + source,
      "functions left alone get neither a region nor a wrapper")
check('{"MPI_Improbe", OTF2_REGION_ROLE_POINT2POINT}' in header and '{"MPI_Mrecv", OTF2_REGION_ROLE_POINT2POINT}' in header,
      "matched probes and receives are point-to-point")
check("if (call.live() && hs_rc == MPI_SUCCESS && *flag) on_mprobe(call, comm, *message);" in source,
      "MPI_Improbe remembers the message only when it found one")
check("const MPI_Message hs_message = *message;" in source and "on_mrecv(call, *status, hs_message)" in source,
      "MPI_Mrecv reads the message handle before MPI resets it")
check("on_imrecv(call, hs_message, *request)" in source, "MPI_Imrecv records its request")
check("on_comm_idup(call, *newcomm, comm, MpiFunction::MPI_Comm_idup, *request)" in source,
      "MPI_Comm_idup hands over the request that completes it")
check("MpiCall call(MpiFunction::MPI_Testsome, MpiCall::deferred);" in source
      and "MpiCall call(MpiFunction::MPI_Iprobe, MpiCall::deferred);" in source,
      "tests defer their ENTER")
check("MpiCall call(MpiFunction::MPI_Improbe, MpiCall::deferred);" in source
      and "if (call && hs_rc == MPI_SUCCESS) on_iprobe(call, source, tag, comm, *flag);" in source,
      "an unsuccessful MPI_Improbe may join a run like MPI_Iprobe")
check("MpiCall call(MpiFunction::MPI_Wait);" in source, "waits do not defer their ENTER")
check("complete_some(call, incount, array_of_requests, outcount, array_of_indices, true, array_of_statuses," in source,
      "MPI_Testsome is a test")
check('{"MPI_Put", OTF2_REGION_ROLE_RMA}' in header and '{"MPI_File_close", OTF2_REGION_ROLE_FILE_IO_METADATA}' in header,
      "roles of one-sided communication and MPI-IO")
check("return next::PMPI_Group_range_incl(group, n, ranges, newgroup);" in source
      and "int (*PMPI_Group_range_incl)(MPI_Group, int, int [][3], MPI_Group *)" in source,
      "array parameters of two dimensions")

BAD = [
    ("send | int MPI_Send(const void *buf, int n, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)\n",
     ":1: MPI_Send has no parameter 'count'"),
    ("plain | int MPI_Barrier(MPI_Comm comm)\nfrob | int MPI_X(void)\n", ":2: unknown kind 'frob'"),
    ("coll op=BCAST | int MPI_Bcast(void *b, int count, MPI_Datatype t, int root, MPI_Comm comm)\n",
     ":1: a collective needs bytes= or exchange=, not both"),
    ("coll op=ALLTOALLV bytes=x(comm) exchange=y(comm) | int MPI_Alltoallv(MPI_Comm comm)\n",
     ":1: a collective needs bytes= or exchange=, not both"),
    ("coll op=ALLTOALLV exchange=alltoallv(counts) | int MPI_Alltoallv(MPI_Comm comm)\n",
     ":1: MPI_Alltoallv has no parameter 'counts' (exchange rule)"),
    ("coll op=BCAST bytes=bcast(count,size) | int MPI_Bcast(void *b, int count, MPI_Datatype t, int root, MPI_Comm comm)\n",
     ":1: MPI_Bcast has no parameter 'size' (bytes rule)"),
    ("plain | MPI_Barrier(MPI_Comm comm)\n", ":1: the prototype must read"),
    ("plain | int MPI_A(void)\nplain | int MPI_A(void)\n", ":2: MPI_A is listed twice"),
    ("local | MPI_Wtime(void)\n", ":1: the prototype must read 'TYPE MPI_Name(PARAMETERS)'"),
    ("plain role=DISK | int MPI_File_sync(MPI_File fh)\n", ":1: unknown role 'DISK'"),
    ("mrecv | int MPI_Mrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *msg, MPI_Status *status)\n",
     ":1: MPI_Mrecv has no parameter 'message'"),
    ("file_io mode=read collective=no form=later | int MPI_File_read(MPI_File fh, void *buf, int count, "
     "MPI_Datatype datatype, MPI_Status *status)\n", ":1: unknown form 'later'"),
    ("file_io mode=read collective=no | int MPI_File_read(MPI_File fh, void *buf, int count, "
     "MPI_Datatype datatype, MPI_Status *status)\n", ":1:"),
    ("file_io mode=seek collective=no form=blocking | int MPI_File_read(MPI_File fh, void *buf, int count, "
     "MPI_Datatype datatype, MPI_Status *status)\n", ":1: mode must be read or write"),
    ("file_io mode=read collective=no form=start | int MPI_File_iread(MPI_File fh, void *buf, int count, "
     "MPI_Datatype datatype, MPI_Request *req)\n", ":1: MPI_File_iread has no parameter 'request'"),
]

# The MPI-IO kinds: the operation begins before MPI's call, completes after
# it where it completes, on the status the wrapper supplies.
result, _, source = generate(
    "file_io mode=write collective=yes form=blocking role=FILE_IO | int MPI_File_write_all(MPI_File fh, "
    "const void *buf, int count, MPI_Datatype datatype, MPI_Status *status)\n"
    "file_io mode=read collective=no form=start role=FILE_IO | int MPI_File_iread(MPI_File fh, void *buf, "
    "int count, MPI_Datatype datatype, MPI_Request *request)\n"
    "file_close role=FILE_IO_METADATA | int MPI_File_close(MPI_File *fh)\n")
check(result.returncode == 0, f"a good MPI-IO spec failed: {result.stderr}")
check("on_file_io_begin(call, fh, OTF2_IO_OPERATION_MODE_WRITE, true, true, count, datatype)" in source,
      "MPI_File_write_all begins a blocking collective write")
check("if (call && status == MPI_STATUS_IGNORE) status = &hs_status;" in source, "a status for MPI_STATUS_IGNORE")
check("if (hs_io) on_file_io_complete(call, hs_io, hs_rc, *status);" in source, "the write completes in the call")
check("on_file_io_begin(call, fh, OTF2_IO_OPERATION_MODE_READ, false, false, count, datatype)" in source,
      "MPI_File_iread begins a non-blocking individual read")
check("if (hs_io) on_file_io_issued(call, hs_io, hs_rc, request);" in source, "the read is issued")
check("const MPI_File hs_file = *fh;" in source, "MPI_File_close reads the handle before MPI clears it")
result, _, source = generate(
    "win_create op=create | int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, "
    "MPI_Comm comm, MPI_Win *win)\n"
    "win_free | int MPI_Win_free(MPI_Win *win)\n"
    "rma op=atomic atomic=COMPARE_AND_SWAP sent=2:datatype received=1:datatype role=ATOMIC | "
    "int MPI_Compare_and_swap(const void *origin_addr, const void *compare_addr, void *result_addr, "
    "MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Win win)\n"
    "rma_complete target=rank | int MPI_Win_unlock(int rank, MPI_Win win)\n"
    "rma_complete at=origin | int MPI_Win_flush_local_all(MPI_Win win)\n")
check(result.returncode == 0, f"a good RMA spec failed: {result.stderr}")
check("if (call.live() && hs_rc == MPI_SUCCESS) on_win_created(call, comm, *win, OTF2_COLLECTIVE_OP_CREATE_HANDLE);"
      in source, "MPI_Win_create defines the window once MPI made it")
check("const MPI_Win hs_win = *win;" in source, "MPI_Win_free reads the handle before MPI clears it")
check("on_rma_transfer(call, win, target_rank, RmaKind::Atomic, OTF2_RMA_ATOMIC_TYPE_COMPARE_AND_SWAP, "
      "rma_bytes(2, datatype), rma_bytes(1, datatype));" in source, "a compare-and-swap's bytes both ways")
check("on_rma_complete(call, win, std::optional<int>(rank));" in source, "MPI_Win_unlock completes those to rank")
check("on_rma_complete_locally(call, win, std::nullopt);" in source,
      "MPI_Win_flush_local_all completes all of them at the origin")
result, _, source = generate(
    "win_epoch_start epoch=exposure | int MPI_Win_post(MPI_Group group, int assert, MPI_Win win)\n"
    "win_epoch_end epoch=access | int MPI_Win_complete(MPI_Win win)\n"
    "win_test | int MPI_Win_test(MPI_Win win, int *flag)\n")
check(result.returncode == 0, f"a good active target spec failed: {result.stderr}")
check("on_win_epoch_start(call, win, group, RmaEpoch::Exposure);" in source, "MPI_Win_post opens an exposure epoch")
check("on_win_epoch_end(call, win, RmaEpoch::Access, true);" in source, "MPI_Win_complete ends the access epoch")
check("on_win_epoch_end(call, win, RmaEpoch::Exposure, *flag != 0);" in source,
      "MPI_Win_test ends the exposure epoch where the flag says so")
BAD += [
    ("rma_complete at=both | int MPI_Win_flush_all(MPI_Win win)\n", "at must be origin or target"),
    ("win_epoch_end epoch=both | int MPI_Win_wait(MPI_Win win)\n", "epoch must be access or exposure"),
    ("win_epoch_start | int MPI_Win_start(MPI_Group group, int assert, MPI_Win win)\n", "epoch"),
    ("rma op=put sent=count:datatype | int MPI_Put(const void *origin_addr, int origin_count, MPI_Datatype "
     "origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, "
     "MPI_Win win)\n", "has no parameter 'count'"),
    ("rma op=put atomic=ACCUMULATE | int MPI_Put(const void *origin_addr, int origin_count, MPI_Datatype "
     "origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, "
     "MPI_Win win)\n", "goes with op=atomic alone"),
]
for spec, message in BAD:
    result, _, _ = generate(spec)
    check(result.returncode == 1, f"a bad spec must fail: {spec!r}")
    check(message in result.stderr, f"expected {message!r} in {result.stderr!r}")

for failure in FAILURES:
    print("FAILED:", failure, file=sys.stderr)
sys.exit(1 if FAILURES else 0)

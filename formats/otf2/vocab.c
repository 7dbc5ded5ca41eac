/*
 * OTF2's paradigms, region roles and collective operations as the stream
 * names them, and back.
 */
#include <string.h>

#include "../../libstream/roles.h"
#include "vocab.h"

static const struct {
	OTF2_Paradigm paradigm;
	const char *name;
} paradigms[] = {
	{ OTF2_PARADIGM_MPI, "mpi" },
	{ OTF2_PARADIGM_CUDA, "cuda" },
	{ OTF2_PARADIGM_HIP, "hip" },
	{ OTF2_PARADIGM_OPENCL, "opencl" },
	{ OTF2_PARADIGM_OPENMP, "openmp" },
	{ OTF2_PARADIGM_USER, "user" },
	{ OTF2_PARADIGM_COMPILER, "compiler" },
	{ OTF2_PARADIGM_PTHREAD, "pthread" },
	{ OTF2_PARADIGM_MEASUREMENT_SYSTEM, "measurement" },
	{ OTF2_PARADIGM_HMPP, "hmpp" },
	{ OTF2_PARADIGM_OMPSS, "ompss" },
	{ OTF2_PARADIGM_HARDWARE, "hardware" },
	{ OTF2_PARADIGM_GASPI, "gaspi" },
	{ OTF2_PARADIGM_UPC, "upc" },
	{ OTF2_PARADIGM_SHMEM, "shmem" },
	{ OTF2_PARADIGM_WINTHREAD, "winthread" },
	{ OTF2_PARADIGM_QTTHREAD, "qtthread" },
	{ OTF2_PARADIGM_ACETHREAD, "acethread" },
	{ OTF2_PARADIGM_TBBTHREAD, "tbbthread" },
	{ OTF2_PARADIGM_OPENACC, "openacc" },
	{ OTF2_PARADIGM_MTAPI, "mtapi" },
	{ OTF2_PARADIGM_SAMPLING, "sampling" },
	{ OTF2_PARADIGM_NONE, "none" },
	{ OTF2_PARADIGM_KOKKOS, "kokkos" },
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

const char *otf2_paradigm_name(OTF2_Paradigm p)
{
	for (size_t i = 0; i < COUNT(paradigms); i++)
		if (paradigms[i].paradigm == p)
			return paradigms[i].name;
	return "other";
}

OTF2_Paradigm otf2_paradigm_by_name(const char *s)
{
	for (size_t i = 0; i < COUNT(paradigms); i++)
		if (strcmp(paradigms[i].name, s) == 0)
			return paradigms[i].paradigm;
	return OTF2_PARADIGM_UNKNOWN;
}

/* The last region role of OTF2 3.0; Score-P 9 writes kernels with a newer one. */
#define LAST_KNOWN_ROLE OTF2_REGION_ROLE_FILE_IO_METADATA

static bool is_gpu_paradigm(OTF2_Paradigm p)
{
	return p == OTF2_PARADIGM_CUDA || p == OTF2_PARADIGM_HIP ||
	       p == OTF2_PARADIGM_OPENCL;
}

/* GPU-paradigm regions that are not API wrappers are what Score-P writes for kernels. */
static enum ls_role classify_gpu(OTF2_RegionRole role)
{
	switch (role) {
	case OTF2_REGION_ROLE_FUNCTION:
	case OTF2_REGION_ROLE_UNKNOWN:
		return LS_R_KERNEL;
	case OTF2_REGION_ROLE_IMPLICIT_BARRIER:
	case OTF2_REGION_ROLE_BARRIER:
		return LS_R_CTX_SYNC;
	case OTF2_REGION_ROLE_ARTIFICIAL:
		return LS_R_CPU;
	default:	/* WRAPPER, ALLOCATE, DEALLOCATE, ..., or newer */
		return role > LAST_KNOWN_ROLE ? LS_R_KERNEL : LS_R_GPU_API;
	}
}

static enum ls_role classify_openmp(const char *name, OTF2_RegionRole role)
{
	/* OMPT (Score-P 4+) names what its region roles do not say */
	if (strstr(name, "implicit task") || strstr(name, "implicit_task"))
		return LS_R_OMP_IMPLICIT_TASK;
	if (strncmp(name, "!$omp parallel", 14) == 0)
		return LS_R_OMP_PARALLEL;
	switch (role) {
	case OTF2_REGION_ROLE_PARALLEL: return LS_R_OMP_PARALLEL;
	case OTF2_REGION_ROLE_BARRIER:
	case OTF2_REGION_ROLE_IMPLICIT_BARRIER: return LS_R_OMP_BARRIER;
	case OTF2_REGION_ROLE_CRITICAL: return LS_R_OMP_LOCK;
	case OTF2_REGION_ROLE_CRITICAL_SBLOCK: return LS_R_OMP_CRITICAL;
	case OTF2_REGION_ROLE_TASK:
	case OTF2_REGION_ROLE_TASK_UNTIED: return LS_R_OMP_TASK;
	default: return LS_R_OMP_OTHER;
	}
}

enum ls_role otf2_classify(const char *name, OTF2_RegionRole role,
			   OTF2_Paradigm paradigm, const char **dir)
{
	enum ls_role r = ls_role_by_name(name, dir);

	if (r != LS_R_UNKNOWN)
		return r;
	if (paradigm == OTF2_PARADIGM_MPI)
		return LS_R_MPI_OTHER;
	if (is_gpu_paradigm(paradigm))
		return classify_gpu(role);
	if (paradigm == OTF2_PARADIGM_OPENMP)
		return classify_openmp(name, role);
	return LS_R_CPU;
}

/* The OTF2 role that says best what a region of ours does, for Vampir. */
static OTF2_RegionRole natural_role(enum ls_role role)
{
	switch (role) {
	case LS_R_MPI_SEND: case LS_R_MPI_RECV: case LS_R_MPI_SENDRECV:
	case LS_R_MPI_ISEND: case LS_R_MPI_IRECV: case LS_R_MPI_WAIT:
	case LS_R_MPI_TEST:
		return OTF2_REGION_ROLE_POINT2POINT;
	case LS_R_MPI_BARRIER: case LS_R_OMP_BARRIER: case LS_R_CTX_SYNC:
		return OTF2_REGION_ROLE_BARRIER;
	case LS_R_MPI_N2N: return OTF2_REGION_ROLE_COLL_ALL2ALL;
	case LS_R_MPI_ONE2N: return OTF2_REGION_ROLE_COLL_ONE2ALL;
	case LS_R_MPI_N2ONE: return OTF2_REGION_ROLE_COLL_ALL2ONE;
	case LS_R_MPI_SCAN: case LS_R_MPI_ICOLL: return OTF2_REGION_ROLE_COLL_OTHER;
	case LS_R_OMP_PARALLEL: return OTF2_REGION_ROLE_PARALLEL;
	case LS_R_OMP_LOCK: return OTF2_REGION_ROLE_CRITICAL;
	case LS_R_OMP_CRITICAL: return OTF2_REGION_ROLE_CRITICAL_SBLOCK;
	case LS_R_OMP_TASK: return OTF2_REGION_ROLE_TASK;
	case LS_R_OMP_OTHER: return OTF2_REGION_ROLE_CODE;
	case LS_R_OMP_TEAM_START: return OTF2_REGION_ROLE_ARTIFICIAL;
	case LS_R_CPU: case LS_R_KERNEL: case LS_R_MPI_INIT:
	case LS_R_MPI_FINALIZE: case LS_R_MPI_OTHER: case LS_R_OMP_IMPLICIT_TASK:
		return OTF2_REGION_ROLE_FUNCTION;
	default:	/* GPU API calls */
		return OTF2_REGION_ROLE_WRAPPER;
	}
}

/* The paradigm a region of role has where its own cannot carry it. */
static OTF2_Paradigm natural_paradigm(enum ls_role role)
{
	switch (ls_role_group(role)) {
	case LS_G_MPI:
		return OTF2_PARADIGM_MPI;
	case LS_G_GPU_CALL:
	case LS_G_GPU_WORK:
		return OTF2_PARADIGM_CUDA;
	case LS_G_OMP:
		return OTF2_PARADIGM_OPENMP;
	default:
		return OTF2_PARADIGM_USER;
	}
}

/* The natural role first, then every other known one. */
static bool find_role(enum ls_role role, const char *name, OTF2_Paradigm paradigm,
		      OTF2_RegionRole *out)
{
	OTF2_RegionRole first = natural_role(role);

	if (otf2_classify(name, first, paradigm, NULL) == role) {
		*out = first;
		return true;
	}
	for (OTF2_RegionRole r = 0; r <= LAST_KNOWN_ROLE; r++)
		if (otf2_classify(name, r, paradigm, NULL) == role) {
			*out = r;
			return true;
		}
	return false;
}

bool otf2_role_for(enum ls_role role, const char *name, OTF2_Paradigm *paradigm,
		   OTF2_RegionRole *out)
{
	OTF2_Paradigm other = natural_paradigm(role);

	if (find_role(role, name, *paradigm, out))
		return true;
	if (other != *paradigm && find_role(role, name, other, out)) {
		*paradigm = other;
		return true;
	}
	*out = natural_role(role);
	return false;
}

static const char *const op_names[] = {
	[OTF2_COLLECTIVE_OP_BARRIER] = "barrier",
	[OTF2_COLLECTIVE_OP_BCAST] = "bcast",
	[OTF2_COLLECTIVE_OP_GATHER] = "gather",
	[OTF2_COLLECTIVE_OP_GATHERV] = "gatherv",
	[OTF2_COLLECTIVE_OP_SCATTER] = "scatter",
	[OTF2_COLLECTIVE_OP_SCATTERV] = "scatterv",
	[OTF2_COLLECTIVE_OP_ALLGATHER] = "allgather",
	[OTF2_COLLECTIVE_OP_ALLGATHERV] = "allgatherv",
	[OTF2_COLLECTIVE_OP_ALLTOALL] = "alltoall",
	[OTF2_COLLECTIVE_OP_ALLTOALLV] = "alltoallv",
	[OTF2_COLLECTIVE_OP_ALLTOALLW] = "alltoallw",
	[OTF2_COLLECTIVE_OP_ALLREDUCE] = "allreduce",
	[OTF2_COLLECTIVE_OP_REDUCE] = "reduce",
	[OTF2_COLLECTIVE_OP_REDUCE_SCATTER] = "reduce_scatter",
	[OTF2_COLLECTIVE_OP_SCAN] = "scan",
	[OTF2_COLLECTIVE_OP_EXSCAN] = "exscan",
	[OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK] = "reduce_scatter_block",
};

const char *otf2_op_name(OTF2_CollectiveOp op)
{
	if (op < COUNT(op_names) && op_names[op])
		return op_names[op];
	return "other";
}

OTF2_CollectiveOp otf2_op_by_name(const char *s)
{
	for (size_t i = 0; i < COUNT(op_names); i++)
		if (op_names[i] && strcmp(op_names[i], s) == 0)
			return (OTF2_CollectiveOp)i;
	return OTF2_COLLECTIVE_OP_CREATE_HANDLE;	/* no name here: "other" */
}

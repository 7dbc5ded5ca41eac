/* API names to roles: the table behind ls_role_by_name. */
#include <string.h>

#include "roles.h"

struct entry {
	const char *name;
	enum ls_role role;
	const char *dir;
};

#define E(name, role) { name, LS_R_##role, NULL }
#define D(name, role, dir) { name, LS_R_##role, dir }

static const struct entry table[] = {
	/* MPI */
	E("MPI_Send", MPI_SEND), E("MPI_Ssend", MPI_SEND), E("MPI_Bsend", MPI_SEND),
	E("MPI_Rsend", MPI_SEND), E("MPI_Recv", MPI_RECV),
	E("MPI_Sendrecv", MPI_SENDRECV), E("MPI_Sendrecv_replace", MPI_SENDRECV),
	E("MPI_Isend", MPI_ISEND), E("MPI_Issend", MPI_ISEND),
	E("MPI_Ibsend", MPI_ISEND), E("MPI_Irsend", MPI_ISEND),
	E("MPI_Irecv", MPI_IRECV), E("MPI_Start", MPI_ISEND), E("MPI_Startall", MPI_ISEND),
	E("MPI_Wait", MPI_WAIT), E("MPI_Waitall", MPI_WAIT),
	E("MPI_Waitany", MPI_WAIT), E("MPI_Waitsome", MPI_WAIT),
	E("MPI_Test", MPI_TEST), E("MPI_Testall", MPI_TEST),
	E("MPI_Testany", MPI_TEST), E("MPI_Testsome", MPI_TEST),
	E("MPI_Barrier", MPI_BARRIER),
	E("MPI_Allreduce", MPI_N2N), E("MPI_Allgather", MPI_N2N),
	E("MPI_Allgatherv", MPI_N2N), E("MPI_Alltoall", MPI_N2N),
	E("MPI_Alltoallv", MPI_N2N), E("MPI_Alltoallw", MPI_N2N),
	E("MPI_Reduce_scatter", MPI_N2N), E("MPI_Reduce_scatter_block", MPI_N2N),
	E("MPI_Bcast", MPI_ONE2N), E("MPI_Scatter", MPI_ONE2N),
	E("MPI_Scatterv", MPI_ONE2N),
	E("MPI_Reduce", MPI_N2ONE), E("MPI_Gather", MPI_N2ONE),
	E("MPI_Gatherv", MPI_N2ONE),
	E("MPI_Scan", MPI_SCAN), E("MPI_Exscan", MPI_SCAN),
	E("MPI_Init", MPI_INIT), E("MPI_Init_thread", MPI_INIT),
	E("MPI_Finalize", MPI_FINALIZE),
	E("MPI_Ibarrier", MPI_ICOLL), E("MPI_Ibcast", MPI_ICOLL), E("MPI_Ireduce", MPI_ICOLL),
	E("MPI_Iallreduce", MPI_ICOLL), E("MPI_Igather", MPI_ICOLL), E("MPI_Igatherv", MPI_ICOLL),
	E("MPI_Iscatter", MPI_ICOLL), E("MPI_Iscatterv", MPI_ICOLL), E("MPI_Iallgather", MPI_ICOLL),
	E("MPI_Iallgatherv", MPI_ICOLL), E("MPI_Ialltoall", MPI_ICOLL), E("MPI_Ialltoallv", MPI_ICOLL),
	E("MPI_Ialltoallw", MPI_ICOLL), E("MPI_Ireduce_scatter", MPI_ICOLL),
	E("MPI_Ireduce_scatter_block", MPI_ICOLL), E("MPI_Iscan", MPI_ICOLL), E("MPI_Iexscan", MPI_ICOLL),

	/* kernel launches */
	E("cuLaunchKernel", LAUNCH), E("cuLaunchKernelEx", LAUNCH),
	E("cuLaunchCooperativeKernel", LAUNCH), E("cuLaunch", LAUNCH),
	E("cuLaunchGrid", LAUNCH), E("cuLaunchGridAsync", LAUNCH),
	E("cuGraphLaunch", LAUNCH),
	E("cudaLaunchKernel", LAUNCH), E("cudaLaunchKernelExC", LAUNCH),
	E("cudaLaunchCooperativeKernel", LAUNCH), E("cudaLaunch", LAUNCH),
	E("cudaGraphLaunch", LAUNCH),
	E("hipLaunchKernel", LAUNCH), E("hipModuleLaunchKernel", LAUNCH),
	E("hipExtLaunchKernel", LAUNCH), E("hipExtModuleLaunchKernel", LAUNCH),
	E("hipHccModuleLaunchKernel", LAUNCH), E("hipLaunchCooperativeKernel", LAUNCH),
	E("hipModuleLaunchCooperativeKernel", LAUNCH),
	E("hipGraphLaunch", LAUNCH),
	E("clEnqueueNDRangeKernel", LAUNCH), E("clEnqueueTask", LAUNCH),

	/* unified memory's page migrations: GPU work no call enqueues (Nsight's names) */
	D("Unified memory HtoD", DEV_MIGRATE, "htod"), D("Unified memory DtoH", DEV_MIGRATE, "dtoh"),
	D("Unified memory DtoD", DEV_MIGRATE, "dtod"),

	/* blocking copies and sets: implicitly synchronizing */
	E("cuMemcpy", MEMCPY), D("cuMemcpyHtoD", MEMCPY, "htod"),
	D("cuMemcpyDtoH", MEMCPY, "dtoh"), D("cuMemcpyDtoD", MEMCPY, "dtod"),
	D("cuMemcpyHtoA", MEMCPY, "htod"), D("cuMemcpyAtoH", MEMCPY, "dtoh"),
	D("cuMemcpyDtoA", MEMCPY, "dtod"), D("cuMemcpyAtoD", MEMCPY, "dtod"),
	D("cuMemcpyAtoA", MEMCPY, "dtod"), E("cuMemcpy2D", MEMCPY),
	E("cuMemcpy2DUnaligned", MEMCPY), E("cuMemcpy3D", MEMCPY),
	D("cuMemcpyPeer", MEMCPY, "ptop"),
	E("cudaMemcpy", MEMCPY), E("cudaMemcpy2D", MEMCPY), E("cudaMemcpy3D", MEMCPY),
	D("cudaMemcpyToSymbol", MEMCPY, "htod"), D("cudaMemcpyFromSymbol", MEMCPY, "dtoh"),
	D("cudaMemcpyPeer", MEMCPY, "ptop"), E("cudaMemcpyToArray", MEMCPY),
	E("cudaMemcpyFromArray", MEMCPY),
	E("hipMemcpy", MEMCPY), D("hipMemcpyHtoD", MEMCPY, "htod"),
	D("hipMemcpyDtoH", MEMCPY, "dtoh"), D("hipMemcpyDtoD", MEMCPY, "dtod"),
	E("hipMemcpy2D", MEMCPY), E("hipMemcpy3D", MEMCPY),
	D("hipMemcpyToSymbol", MEMCPY, "htod"), D("hipMemcpyFromSymbol", MEMCPY, "dtoh"),
	D("hipMemcpyPeer", MEMCPY, "ptop"),
	E("hipMemcpyWithStream", MEMCPY), E("hipMemcpyParam2D", MEMCPY),
	D("hipMemcpyHtoA", MEMCPY, "htod"), D("hipMemcpyAtoH", MEMCPY, "dtoh"),
	E("hipMemcpyToArray", MEMCPY), E("hipMemcpyFromArray", MEMCPY),
	E("hipMemcpy2DToArray", MEMCPY), E("hipMemcpy2DFromArray", MEMCPY),
	E("cuMemsetD8", MEMSET), E("cuMemsetD16", MEMSET), E("cuMemsetD32", MEMSET),
	E("cuMemsetD2D8", MEMSET), E("cuMemsetD2D16", MEMSET), E("cuMemsetD2D32", MEMSET),
	E("cudaMemset", MEMSET), E("cudaMemset2D", MEMSET), E("cudaMemset3D", MEMSET),
	E("hipMemset", MEMSET), E("hipMemsetD8", MEMSET), E("hipMemsetD16", MEMSET),
	E("hipMemsetD32", MEMSET), E("hipMemset2D", MEMSET), E("hipMemset3D", MEMSET),

	/* asynchronous copies and sets: enqueued on a stream */
	E("cuMemcpyAsync", MEMCPY_ASYNC), D("cuMemcpyHtoDAsync", MEMCPY_ASYNC, "htod"),
	D("cuMemcpyDtoHAsync", MEMCPY_ASYNC, "dtoh"), D("cuMemcpyDtoDAsync", MEMCPY_ASYNC, "dtod"),
	D("cuMemcpyHtoAAsync", MEMCPY_ASYNC, "htod"), D("cuMemcpyAtoHAsync", MEMCPY_ASYNC, "dtoh"),
	E("cuMemcpy2DAsync", MEMCPY_ASYNC), E("cuMemcpy3DAsync", MEMCPY_ASYNC),
	D("cuMemcpyPeerAsync", MEMCPY_ASYNC, "ptop"),
	E("cudaMemcpyAsync", MEMCPY_ASYNC), E("cudaMemcpy2DAsync", MEMCPY_ASYNC),
	E("cudaMemcpy3DAsync", MEMCPY_ASYNC),
	D("cudaMemcpyToSymbolAsync", MEMCPY_ASYNC, "htod"),
	D("cudaMemcpyFromSymbolAsync", MEMCPY_ASYNC, "dtoh"),
	D("cudaMemcpyPeerAsync", MEMCPY_ASYNC, "ptop"),
	E("hipMemcpyAsync", MEMCPY_ASYNC), D("hipMemcpyHtoDAsync", MEMCPY_ASYNC, "htod"),
	D("hipMemcpyDtoHAsync", MEMCPY_ASYNC, "dtoh"), D("hipMemcpyDtoDAsync", MEMCPY_ASYNC, "dtod"),
	E("hipMemcpy2DAsync", MEMCPY_ASYNC), E("hipMemcpy3DAsync", MEMCPY_ASYNC),
	D("hipMemcpyPeerAsync", MEMCPY_ASYNC, "ptop"),
	D("hipMemcpyToSymbolAsync", MEMCPY_ASYNC, "htod"), D("hipMemcpyFromSymbolAsync", MEMCPY_ASYNC, "dtoh"),
	E("hipMemcpyParam2DAsync", MEMCPY_ASYNC), E("hipMemcpy2DToArrayAsync", MEMCPY_ASYNC),
	E("hipMemcpy2DFromArrayAsync", MEMCPY_ASYNC),
	D("clEnqueueReadBuffer", MEMCPY_ASYNC, "dtoh"), D("clEnqueueWriteBuffer", MEMCPY_ASYNC, "htod"),
	D("clEnqueueCopyBuffer", MEMCPY_ASYNC, "dtod"),
	E("cuMemsetD8Async", MEMSET_ASYNC), E("cuMemsetD16Async", MEMSET_ASYNC),
	E("cuMemsetD32Async", MEMSET_ASYNC), E("cuMemsetD2D8Async", MEMSET_ASYNC),
	E("cuMemsetD2D16Async", MEMSET_ASYNC), E("cuMemsetD2D32Async", MEMSET_ASYNC),
	E("cudaMemsetAsync", MEMSET_ASYNC), E("cudaMemset2DAsync", MEMSET_ASYNC),
	E("cudaMemset3DAsync", MEMSET_ASYNC),
	E("hipMemsetAsync", MEMSET_ASYNC), E("hipMemsetD8Async", MEMSET_ASYNC),
	E("hipMemsetD16Async", MEMSET_ASYNC), E("hipMemsetD32Async", MEMSET_ASYNC),
	E("hipMemset2DAsync", MEMSET_ASYNC), E("hipMemset3DAsync", MEMSET_ASYNC),
	E("clEnqueueFillBuffer", MEMSET_ASYNC),

	/* allocation and release: implicitly synchronizing */
	E("cuMemAlloc", ALLOC), E("cuMemAllocPitch", ALLOC), E("cuMemAllocHost", ALLOC),
	E("cuMemHostAlloc", ALLOC), E("cuMemAllocManaged", ALLOC),
	E("cudaMalloc", ALLOC), E("cudaMallocPitch", ALLOC), E("cudaMallocHost", ALLOC),
	E("cudaHostAlloc", ALLOC), E("cudaMallocManaged", ALLOC), E("cudaMalloc3D", ALLOC),
	E("cudaMallocArray", ALLOC),
	E("hipMalloc", ALLOC), E("hipMallocPitch", ALLOC), E("hipHostMalloc", ALLOC),
	E("hipMallocManaged", ALLOC), E("hipMalloc3D", ALLOC),
	E("cuMemFree", FREE), E("cuMemFreeHost", FREE),
	E("cudaFree", FREE), E("cudaFreeHost", FREE), E("cudaFreeArray", FREE),
	E("hipFree", FREE), E("hipHostFree", FREE),

	/* synchronization */
	E("cuStreamSynchronize", STREAM_SYNC), E("cudaStreamSynchronize", STREAM_SYNC),
	E("hipStreamSynchronize", STREAM_SYNC), E("clFinish", STREAM_SYNC),
	E("cuCtxSynchronize", CTX_SYNC), E("cudaDeviceSynchronize", CTX_SYNC),
	E("cudaThreadSynchronize", CTX_SYNC), E("hipDeviceSynchronize", CTX_SYNC),
	E("hipCtxSynchronize", CTX_SYNC),
	E("cuEventSynchronize", EVENT_SYNC), E("cudaEventSynchronize", EVENT_SYNC),
	E("hipEventSynchronize", EVENT_SYNC), E("clWaitForEvents", EVENT_SYNC),
	E("cuEventRecord", EVENT_RECORD), E("cuEventRecordWithFlags", EVENT_RECORD),
	E("cudaEventRecord", EVENT_RECORD), E("cudaEventRecordWithFlags", EVENT_RECORD),
	E("hipEventRecord", EVENT_RECORD), E("hipEventRecordWithFlags", EVENT_RECORD),
	E("cuEventQuery", EVENT_QUERY), E("cudaEventQuery", EVENT_QUERY),
	E("hipEventQuery", EVENT_QUERY),
	E("cuStreamQuery", STREAM_QUERY), E("cudaStreamQuery", STREAM_QUERY),
	E("hipStreamQuery", STREAM_QUERY),
	E("cuStreamWaitEvent", STREAM_WAIT), E("cudaStreamWaitEvent", STREAM_WAIT),
	E("hipStreamWaitEvent", STREAM_WAIT),

	/* OpenMP runtime locks */
	E("omp_set_lock", OMP_LOCK), E("omp_set_nest_lock", OMP_LOCK),
	E("omp_unset_lock", OMP_UNLOCK), E("omp_unset_nest_lock", OMP_UNLOCK),
	/* the region tr-critpath defines, read back from an archive tr-otf2 wrote */
	E(LS_TEAM_START_NAME, OMP_TEAM_START),
};

static const char *const suffixes[] = { "_ptsz", "_ptds", "_spt" };

/* The length of a version suffix ending name[0..n): "_v2", "_v3020" (CUPTI's callback names); 0 if none. */
static size_t version_suffix(const char *name, size_t n)
{
	size_t d = 0;

	while (d < n && name[n - 1 - d] >= '0' && name[n - 1 - d] <= '9')
		d++;
	return d && n > d + 2 && name[n - d - 1] == 'v' && name[n - d - 2] == '_' ? d + 2 : 0;
}

enum ls_role ls_role_by_name(const char *name, const char **dir)
{
	size_t n = strlen(name);
	int stripped;

	/* strip any number of the suffixes, e.g. cuMemcpyHtoDAsync_v2_ptsz */
	do {
		size_t v = version_suffix(name, n);

		n -= v;
		stripped = v != 0;
		for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
			size_t m = strlen(suffixes[i]);

			if (n > m && memcmp(name + n - m, suffixes[i], m) == 0) {
				n -= m;
				stripped = 1;
			}
		}
	} while (stripped);
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		if (strlen(table[i].name) == n && memcmp(table[i].name, name, n) == 0) {
			if (dir)
				*dir = table[i].dir;
			return table[i].role;
		}
	}
	if (dir)
		*dir = NULL;
	return LS_R_UNKNOWN;
}

const char *ls_role_table_name(int i, enum ls_role *role)
{
	if (i < 0 || (size_t)i >= sizeof(table) / sizeof(table[0]))
		return NULL;
	*role = table[i].role;
	return table[i].name;
}

enum ls_role ls_role_by_op(const char *op, size_t n)
{
	static const struct {
		const char *op;
		enum ls_role shape;
	} ops[] = {
		{ "barrier", LS_R_MPI_BARRIER }, { "bcast", LS_R_MPI_ONE2N }, { "scatter", LS_R_MPI_ONE2N },
		{ "scatterv", LS_R_MPI_ONE2N }, { "reduce", LS_R_MPI_N2ONE }, { "gather", LS_R_MPI_N2ONE },
		{ "gatherv", LS_R_MPI_N2ONE }, { "scan", LS_R_MPI_SCAN }, { "exscan", LS_R_MPI_SCAN },
	};

	if (n > 1 && op[0] == 'i')	/* a nonblocking one's name */
		for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
			if (strlen(ops[i].op) == n - 1 && !memcmp(ops[i].op, op + 1, n - 1))
				return ops[i].shape;
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (strlen(ops[i].op) == n && !memcmp(ops[i].op, op, n))
			return ops[i].shape;
	return LS_R_MPI_N2N;
}
